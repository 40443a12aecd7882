"""The app served for tests: by werkzeug in a thread (browser journeys), or by gunicorn in its own
process (the crash test, the load test, HTTPS)."""

import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

from werkzeug.serving import make_server

ROOT = Path(__file__).resolve().parent.parent


def free_port():
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


class Gunicorn:
    """gunicorn with `workers` workers on a loopback port, on the given database file."""

    def __init__(self, database, port=None, workers=2, threads=1):
        self.database, self.port = str(database), port or free_port()
        self.workers, self.threads = workers, threads
        self.url = f'http://127.0.0.1:{self.port}'
        self.process = None

    def start(self, timeout=20):
        env = {**os.environ, 'SCORER_DATABASE': self.database, 'SCORER_SECRET_KEY': 'server-test'}
        cmd = [sys.executable, '-m', 'gunicorn', '-w', str(self.workers), '--threads', str(self.threads),
               '-b', f'127.0.0.1:{self.port}', '--log-level', 'warning', 'app:create_app()']
        self.process = subprocess.Popen(cmd, cwd=ROOT, env=env, start_new_session=True,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(self.url + '/sw.js', timeout=1).read()
                return self
            except OSError:
                time.sleep(0.05)
        self.kill()
        raise RuntimeError('the server did not start')

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


class Server:
    """The app served by werkzeug in a thread on a free loopback port."""

    def __init__(self, app):
        self.server = make_server('127.0.0.1', 0, app, threaded=True)
        self.url = f'http://127.0.0.1:{self.server.server_port}'
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
