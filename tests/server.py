"""The app served for tests: by werkzeug in a thread (browser journeys), or by gunicorn in its own
process (the crash test, the load test, HTTPS)."""

import os
import signal
import socket
import ssl
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

from werkzeug.serving import make_server

from tests.helpers import LOOSE_RATE_SETTINGS, PATIENCE
from web import worker

ROOT = Path(__file__).resolve().parent.parent


def free_port():
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


# No cap of connections per client address (web/worker.py UNCAPPED): for a crowd of phones that are all 127.0.0.1.
UNCAPPED = {'SCORER_CLIENT_CONNECTIONS': str(worker.UNCAPPED)}


class Gunicorn:
    """gunicorn on a loopback port and the given database file, with the production recipe
    (gunicorn.conf.py: gevent workers) unless `sync` asks for plain sync workers; HTTPS when
    given a certificate and its key; `prefix` is a command to run it under (a read-only disk)."""

    def __init__(self, database, port=None, workers=2, threads=1, sync=False, certfile=None, keyfile=None,
                 env=None, prefix=(), root=ROOT, log=None, options=()):
        self.database, self.port = str(database), port or free_port()
        self.workers, self.threads, self.sync = workers, threads, sync
        # The per-client budgets loosened (tests/helpers.py), unless the test sets one.
        self.certfile, self.keyfile, self.env = certfile, keyfile, {**LOOSE_RATE_SETTINGS, **(env or {})}
        self.prefix, self.root = list(prefix), root        # root: another checkout, to compare (bench/stalls.py)
        self.options = list(options)                         # gunicorn's own, past gunicorn.conf.py's (--keep-alive 1)
        self.log = log                                       # a file for the server's log, to read it after
        self.url = f'{"https" if certfile else "http"}://127.0.0.1:{self.port}'
        self.process = None

    def start(self, timeout=PATIENCE):
        env = {**os.environ, 'SCORER_DATABASE': self.database, 'SCORER_SECRET_KEY': 'server-test',
               'SCORER_BIND': f'127.0.0.1:{self.port}', 'SCORER_WORKERS': str(self.workers),
               'SCORER_CERTFILE': str(self.certfile or ''), 'SCORER_KEYFILE': str(self.keyfile or ''), **self.env}
        cmd = [sys.executable, '-m', 'gunicorn', '--log-level', 'warning', *self.options, 'app:create_app()']
        if self.sync:
            cmd[3:3] = ['-k', 'sync', '--threads', str(self.threads)]
        self.process = subprocess.Popen(self.prefix + cmd, cwd=self.root, env=env, start_new_session=True,
                                        stdout=subprocess.DEVNULL, stderr=self.stderr())
        deadline = time.monotonic() + timeout
        unverified = ssl._create_unverified_context()
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(self.url + '/sw.js', timeout=1, context=unverified).read()
                return self
            except OSError:
                time.sleep(0.05)
        self.kill()
        raise RuntimeError('the server did not start')

    def stderr(self):
        """Where the server's log goes: the file given, else SCORER_TEST_LOG (a file) to look at, else nowhere."""
        log = self.log or os.environ.get('SCORER_TEST_LOG')
        return open(log, 'a') if log else subprocess.DEVNULL

    def workers_pids(self):
        """The pids of the master's worker processes."""
        return children(self.process.pid)

    def kill(self):
        """SIGKILL the server and all its workers, as a power cut would."""
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)

    def stop(self):
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()


def children(pid):
    """The pids of a process's children."""
    found = []
    for stat in Path('/proc').glob('[0-9]*/stat'):
        try:
            fields = stat.read_text().rsplit(')', 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def cpu_seconds(pid):
    """The CPU time a process has used so far (user and system), in seconds."""
    fields = Path(f'/proc/{pid}/stat').read_text().rsplit(')', 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf('SC_CLK_TCK')


class Server:
    """The app served by werkzeug in a thread on a free loopback port."""

    def __init__(self, app):
        self.app = app
        self.server = make_server('127.0.0.1', 0, app, threaded=True)
        self.url = f'http://127.0.0.1:{self.server.server_port}'
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
