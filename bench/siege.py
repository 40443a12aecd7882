"""A bystander's page views while the production recipe's one worker is under siege: 200 clients
sending a 200 kB body a byte a second, then a save waiting for a write lock another process holds.
The figures tests/test_endurance.py does not time (it checks that nobody hangs). Bounded in time;
prints a Markdown report. Run with `make soak`."""

import socket
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.machine import describe  # noqa: E402
from tests.browser import Browser  # noqa: E402
from tests.server import Gunicorn  # noqa: E402

SLOW = 200              # clients sending a body a byte at a time
DEADLINE = 2            # seconds a body may take (SCORER_BODY_SECONDS; 10 by default)
SECONDS = 1.5           # how long the bystander keeps asking in each siege


def views(server, path, seconds, between=0.0, meanwhile=lambda: None):
    """The bystander's page views of `path` for `seconds`, one after another: their times in ms."""
    times = []
    ends = time.monotonic() + seconds
    while time.monotonic() < ends:
        started = time.perf_counter()
        Browser(server.url).get(path)
        times.append((time.perf_counter() - started) * 1000)
        meanwhile()
        time.sleep(between)
    return times


def slow_bodies(folder):
    """Page views while SLOW clients each announce a 200 kB import and send a byte at a time."""
    server = Gunicorn(folder / 'bodies.sqlite', workers=1, env={'SCORER_BODY_SECONDS': str(DEADLINE)}).start()
    slow = []
    try:
        for _ in range(SLOW):
            sock = socket.create_connection(('127.0.0.1', server.port), timeout=10)
            sock.sendall(b'POST /import HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; '
                         b'boundary=x\r\nContent-Length: 200000\r\n\r\n-')
            slow.append(sock)
        started = time.monotonic()
        times = views(server, '/', SECONDS, between=0.3, meanwhile=lambda: [s.sendall(b'-') for s in slow[:20]])
        cut = sum(sock.recv(64).startswith(b'HTTP/1.1 408') for sock in slow)
        return times, cut, time.monotonic() - started
    finally:
        for sock in slow:
            sock.close()
        server.stop()


def lock_wait(folder):
    """Page views of a game's sheet while a save to it waits for the write lock another process holds."""
    database = folder / 'waits.sqlite'
    server = Gunicorn(database, workers=1).start()
    try:
        keeper = Browser(server.url)
        game = keeper.new_game(['Ana', 'Bruno']).replace(server.url, '')
        _, page = keeper.get(game + '/rounds/1')
        blocker = sqlite3.connect(database, isolation_level=None)
        blocker.execute('BEGIN IMMEDIATE')
        save = threading.Thread(target=keeper.post, args=(game + '/rounds/1', {
            'csrf_token': Browser.token(page), 'version': '0', 'went_out': '0',
            'entries-0-cards': '', 'entries-0-points': '', 'entries-1-cards': '', 'entries-1-points': '7'}))
        save.start()
        time.sleep(0.2)
        times = views(server, game, SECONDS)
        blocker.rollback()
        save.join(15)
        return times
    finally:
        server.stop()


def row(what, times, more=''):
    median = statistics.median(times) if times else float('nan')
    return f'| {what} | {len(times)} | {median:.0f} | {max(times, default=float("nan")):.0f} | {more} |'


def main():
    with tempfile.TemporaryDirectory() as tmp:
        bodies, cut, after = slow_bodies(Path(tmp))
        waits = lock_wait(Path(tmp))
    print(f'The production recipe with one gevent worker; a bystander asks for a page, one after another, '
          f'for {SECONDS} s of each siege. {describe()}\n')
    print('| while | page views | median ms | max ms | |\n|---|---:|---:|---:|---|')
    print(row(f'{SLOW} clients send a 200 kB body a byte a second', bodies,
              f'{cut} of them got 408, all by {after:.1f} s after the bystander began (deadline {DEADLINE} s)'))
    print(row('a save waits for the write lock another process holds', waits))


if __name__ == '__main__':
    main()
