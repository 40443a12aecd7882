"""A server left running for months, on the production recipe (gunicorn, gevent workers): every
live stream gives its database connection back however it ends, a deleted game ends its streams
with 'gone', and nobody waits behind a save that waits for the write lock or behind a slow body.

These tests time nothing: how fast a page is while the worker is under siege is a benchmark's
figure (`make soak`: bench/siege.py, docs/speed.md). The few bounds on a clock here are hang
guards, each far from any speed goal and stated as what a stalled worker would take instead."""

import json
import os
import socket
from pathlib import Path

import pytest

from tests.browser import Browser
from tests.deployment import get
from tests.helpers import PATIENCE, wait_for
from tests.server import UNCAPPED, Gunicorn

pytestmark = [pytest.mark.slow, pytest.mark.serial]   # the production recipe, and deadlines: the machine to itself

STREAMS = 200          # dropped in each phase


def workers_of(server):
    """The pids of the gunicorn master's worker processes."""
    return server.workers_pids()


def open_database_files(pid, database):
    """How many file descriptors of the process point at the database file itself."""
    count = 0
    for fd in Path(f'/proc/{pid}/fd').iterdir():
        try:
            count += os.readlink(fd) == str(database)
        except OSError:
            pass
    return count


def ask_for_events(server, path):
    """An open stream request on a raw socket (the caller decides when to drop it)."""
    sock = socket.create_connection(('127.0.0.1', server.port), timeout=10)
    sock.sendall(f'GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n'.encode())
    return sock


def waiting_for_lock(server):
    """How many of the server's requests wait for a database another connection holds (/health)."""
    _, data = get(server.port, '/health', timeout=PATIENCE)
    return json.loads(data.split(b'\r\n\r\n', 1)[1])['waiting_for_lock']


def read_until(sock, marker):
    data = b''
    while marker not in data:
        chunk = sock.recv(65536)
        if not chunk:
            break
        data += chunk
    return data


@pytest.fixture
def served(tmp_path):
    database = tmp_path / 'endurance.sqlite'
    # Hundreds of phones, all of them 127.0.0.1 here: no cap of connections per address (a dropped
    # stream counts until its next ping shows the phone gone; tests/test_connections.py tests the cap).
    server = Gunicorn(database, workers=1, env=UNCAPPED).start()
    try:
        yield server, database
    finally:
        server.stop()


def test_dropped_streams_give_their_database_connections_back(served):
    server, database = served
    keeper = Browser(server.url)
    game = keeper.new_game(['Ana', 'Bruno']).replace(server.url, '')
    keeper.get(game)
    [worker] = workers_of(server)
    read_until(ask_for_events(server, game + '/events'), b'event: sheet')     # the hub is up
    before = open_database_files(worker, database)

    for _ in range(STREAMS):                                   # gone before the first event
        ask_for_events(server, game + '/events').close()
    opened = [ask_for_events(server, game + '/events') for _ in range(STREAMS)]
    for sock in opened:                                        # gone after the first event
        assert b'event: sheet' in read_until(sock, b'event: sheet')
        sock.close()

    streams = [ask_for_events(server, game + '/events?since=0') for _ in range(STREAMS)]
    for sock in streams:
        assert b'retry' in read_until(sock, b'retry')
    _, page = keeper.get(game + '/delete')
    status, _ = keeper.post(game + '/delete', {'csrf_token': Browser.token(page)})
    assert status == 302
    for sock in streams:                                       # the game deleted: each says so and ends
        assert b'event: gone' in read_until(sock, b'event: gone')
        sock.close()

    keeper.get('/')                                            # the worker still answers
    after = open_database_files(worker, database)
    assert after <= before, (before, after)


def test_a_save_waiting_for_the_write_lock_stalls_nobody_else(tmp_path):
    """Another process holds the write lock until the test has seen the save wait for it (/health's
    `waiting_for_lock`) and, meanwhile, three page views answered and three pings of a stream: the
    same single worker keeps serving while the save waits, and then the save goes through. A worker
    stalled by the wait (SQLite's own busy wait) answers /health only once the save has given up: it
    never says a save waits, and the test's hang guard names it; and a save that gave up is a 503."""
    import sqlite3
    import threading
    database = tmp_path / 'waits.sqlite'
    server = Gunicorn(database, workers=1, env={'SCORER_LIVE_KEEPALIVE': '0.2'}).start()
    try:
        keeper = Browser(server.url)
        game = keeper.new_game(['Ana', 'Bruno']).replace(server.url, '')
        _, page = keeper.get(game + '/rounds/1')
        stream = ask_for_events(server, game + '/events?since=0')
        read_until(stream, b'retry')
        blocker = sqlite3.connect(database, isolation_level=None)
        blocker.execute('BEGIN IMMEDIATE')                     # another writer holds the database
        saved = {}
        save = threading.Thread(target=lambda: saved.update(status=keeper.post(game + '/rounds/1', {
            'csrf_token': Browser.token(page), 'version': '0', 'went_out': '0',
            'entries-0-cards': '', 'entries-0-points': '', 'entries-1-cards': '', 'entries-1-points': '7'})[0]))
        save.start()
        wait_for(lambda: waiting_for_lock(server), 'the save waiting for the lock, the worker answering meanwhile')
        views, pings = 0, 0
        stream.settimeout(PATIENCE)                            # a ping is due every 0.2 s
        while views < 3 or pings < 3:                          # while the save waits
            assert Browser(server.url).get(game)[0] == 200
            assert 'status' not in saved                       # answered while the save still waits
            views += 1
            pings += stream.recv(65536).count(b'event: ping')
        blocker.rollback()
        save.join(PATIENCE)
        assert saved['status'] == 302
        stream.close()
    finally:
        server.stop()


def test_slow_bodies_are_cut_off_and_a_bystander_is_served_meanwhile(tmp_path):
    """Hundreds of clients that announce a 200 kB import and send a byte a second get 408 once the
    body deadline passes, all together; a person opening pages meanwhile is served before it cuts any.
    Nothing here is timed: a page that waited behind a slow body would come only once a deadline had
    freed the worker, after a 408 (so some slow client would have its answer by then); and bodies cut
    one after another would take STREAMS deadlines, past the test's hang guard (pytest.ini)."""
    import select
    deadline = 5                                               # seconds a body may take, here
    server = Gunicorn(tmp_path / 'bodies.sqlite', workers=1, env={'SCORER_BODY_SECONDS': str(deadline),
                                                                  **UNCAPPED}).start()
    slow = []
    try:
        for _ in range(STREAMS):
            sock = socket.create_connection(('127.0.0.1', server.port), timeout=PATIENCE)
            sock.sendall(b'POST /import HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; '
                         b'boundary=x\r\nContent-Length: 200000\r\n\r\n-')
            slow.append(sock)
        for _ in range(3):                                     # a person opening pages while the bodies trickle
            assert Browser(server.url).get('/')[0] == 200
            answered, _, _ = select.select(slow, [], [], 0)
            assert not answered, f'{len(answered)} slow bodies cut before a page was served'
            for sock in slow[:20]:
                sock.sendall(b'-')
        answers = [read_until(sock, b'\r\n\r\n') for sock in slow]
        assert all(a.startswith(b'HTTP/1.1 408') for a in answers), {a[:20] for a in answers}
    finally:
        for sock in slow:
            sock.close()
        server.stop()
