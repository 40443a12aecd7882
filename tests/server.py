"""The app as a real server in its own process (gunicorn), for the crash test and the load test."""

import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from http.cookiejar import CookieJar
from pathlib import Path
from urllib.parse import urlencode

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


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class Browser:
    """A tiny browser for scripts: a cookie jar, CSRF tokens read from forms, no redirects followed."""

    def __init__(self, base):
        self.base = base
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()), NoRedirect())

    def get(self, path, timeout=10):
        with self.opener.open(self.base + path, timeout=timeout) as r:
            return r.status, r.read().decode()

    def post(self, path, fields, timeout=10):
        """POST a form; returns (status, location or body)."""
        data = urlencode(fields).encode()
        try:
            with self.opener.open(self.base + path, data=data, timeout=timeout) as r:
                return r.status, r.read().decode()
        except urllib.error.HTTPError as e:
            return e.code, e.headers.get('Location') or e.read().decode()

    @staticmethod
    def token(page):
        return re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)

    def new_game(self, players):
        _, page = self.get('/games/new')
        fields = {'csrf_token': self.token(page), 'first_dealer': '0', 'decks': 'auto', 'game': 'standard',
                  **{f'players-{i}': p for i, p in enumerate(players)}}
        status, location = self.post('/games/new', fields)
        assert status == 302, location
        return location
