"""Saves pushed to every phone (Server-Sent Events): across server workers, resumed after a phone
reconnects, and followed in Chromium without polling."""

import http.client
import json
import re
import threading

import pytest

from app import create_app
from tests.browser import Browser, expect
from tests.helpers import PATIENCE, new_game_form, round_form
from tests.server import Gunicorn



def events_of(response, count):
    """The first `count` events of a streamed response, as (name, id, data)."""
    found, buffer = [], ''
    for chunk in response.response:
        buffer += chunk.decode() if isinstance(chunk, bytes) else chunk
        while '\n\n' in buffer:
            block, buffer = buffer.split('\n\n', 1)
            lines = [line.split(': ', 1) if ': ' in line else [line.rstrip(':'), ''] for line in block.splitlines()]
            fields = dict(lines)
            data = '\n'.join(value for key, value in lines if key == 'data')
            if 'event' in fields:
                found.append((fields['event'], fields.get('id'), data))
            if len(found) == count:
                response.close()
                return found
    return found


@pytest.fixture
def pushing(tmp_path):
    app = create_app({'TESTING': True, 'DATABASE': str(tmp_path / 'push.sqlite'), 'SECRET_KEY': 'p',
                      'WTF_CSRF_ENABLED': False, 'LIVE_KEEPALIVE': 0.2})
    client = app.test_client()
    url = client.post('/games/new', data=new_game_form(['Ana', 'Bruno'])).headers['Location']
    return app, client, url


def test_a_stream_sends_the_sheet_unless_the_phone_has_it_already(pushing):
    app, client, url = pushing
    follower = app.test_client()
    first = events_of(follower.get(url + '/events'), 1)
    assert first[0][0] == 'sheet' and first[0][1] == '0' and 'Round 1' in first[0][2]
    resumed = events_of(follower.get(url + '/events', headers={'Last-Event-ID': '0'}), 1)
    assert resumed == [('ping', None, '')]                       # it has sheet 0: nothing to resend
    client.post(url + '/rounds/1', data=round_form(0, points=[None, '9']))
    caught_up = events_of(follower.get(url + '/events', headers={'Last-Event-ID': '0'}), 1)
    assert caught_up[0][0] == 'sheet' and caught_up[0][1] == '1' and 'Round 2' in caught_up[0][2]


def test_a_deleted_game_says_so_on_its_stream(pushing):
    app, client, url = pushing
    stream = app.test_client().get(url + '/events', headers={'Last-Event-ID': '0'})
    client.post(url + '/delete')
    assert ('gone', None, '') in events_of(stream, 3)


def test_the_drafts_reach_only_the_scorekeepers_stream(pushing):
    app, client, url = pushing
    assert app.test_client().get(url + '/events?drafts=1').status_code == 403
    zoe = app.test_client()
    zoe.post(url + '/seats/1')
    zoe.post(url + '/hand', data={'round': '1', 'cards': 'KH 5C 7D'})
    got = events_of(client.get(url + '/events?drafts=1', headers={'Last-Event-ID': '0'}), 2)
    drafts = next(data for name, _, data in got if name == 'drafts')
    assert json.loads(drafts)['1']['cards'] == 'K♥ 5♣ 7♦' and '"player": "Bruno"' in drafts


def test_a_save_is_made_into_its_event_once_for_every_follower(pushing, monkeypatch):
    """The fan-out of a save: the sheet drawn and made into its event once in a process, then the
    same text written to each follower's stream (nothing drawn or formatted per stream)."""
    from web import live
    app, client, url = pushing
    client.post(url + '/rounds/1', data=round_form(0, points=[None, '9']))
    made, original = [], live.event
    monkeypatch.setattr(live, 'event', lambda *args, **kwargs: made.append(args[0]) or original(*args, **kwargs))
    got = [events_of(app.test_client().get(url + '/events'), 1)[0] for _ in range(3)]
    assert [name for name, _, _ in got] == ['sheet'] * 3 and got[0] == got[1] == got[2]
    assert made.count('sheet') == 1


def read_stream(port, path, seen, ready):
    """Hold a stream open like a phone; record each sheet id it is sent."""
    conn = http.client.HTTPConnection('127.0.0.1', port, timeout=PATIENCE)
    conn.request('GET', path, headers={'Last-Event-ID': '0'})
    response = conn.getresponse()
    ready.release()
    for line in response:
        match = re.match(rb'id: (\d+)', line)
        if match:
            seen.append(int(match.group(1)))
            if int(match.group(1)) >= 1:
                break
    conn.close()


@pytest.mark.slow
def test_a_save_through_one_worker_reaches_streams_held_by_the_other(tmp_path):
    server = Gunicorn(tmp_path / 'workers.sqlite', workers=2).start()       # the production recipe
    try:
        keeper = Browser(server.url)
        game = keeper.new_game(['Ana', 'Bruno'])
        ready, streams, seen = threading.Semaphore(0), [], [[] for _ in range(8)]
        for i in range(8):                      # eight phones: the kernel spreads them over both workers
            t = threading.Thread(target=read_stream, args=(server.port, game + '/events', seen[i], ready), daemon=True)
            t.start()
            streams.append(t)
        for _ in streams:
            ready.acquire(timeout=PATIENCE)
        _, page = keeper.get(f'{game}/rounds/1')
        token = Browser.token(page)
        status, _ = keeper.post(f'{game}/rounds/1', {'csrf_token': token, 'version': '0', 'went_out': '0',
                                                     'entries-0-cards': '', 'entries-0-points': '',
                                                     'entries-1-cards': '', 'entries-1-points': '7'})
        assert status == 302
        for t in streams:
            t.join(timeout=PATIENCE)
        assert all(ids and ids[-1] == 1 for ids in seen), seen
        pids = {int(p) for p in open(f'/proc/{server.process.pid}/task/{server.process.pid}/children').read().split()}
        assert len(pids) == 2                                     # two workers were serving
    finally:
        server.stop()


def test_a_follower_in_chromium_gets_saves_pushed_not_polled(browser, server):
    from tests.browser import phone, start_game
    keeper, follower = phone(browser), phone(browser)
    polled = []
    try:
        page = keeper.new_page()
        game = start_game(page, server.url, ['Ana', 'Bruno'])
        watcher = follower.new_page()
        watcher.on('request', lambda r: polled.append(r.url) if r.url.endswith('/live') else None)
        watcher.goto(game)
        page.goto(game + '/rounds/1')
        page.locator('#went_out-0').check()
        page.locator('#entries-1-points').fill('9')
        page.locator('.save-bar button').click()
        expect(watcher.locator('tfoot tr.total td').nth(1)).to_have_text('9')
        assert polled == []
    finally:
        keeper.close()
        follower.close()


def test_the_memory_of_streams_is_given_back_when_the_last_one_leaves(app, make_game, monkeypatch):
    """glibc keeps freed memory for the process; the hub hands it back once no stream is held
    (make crowd measures what that returns)."""
    from web import live
    calls = []
    monkeypatch.setattr(live, 'give_back_memory', lambda: calls.append(len(hub.followers)))
    game_id = make_game(('Ana', 'Bruno')).rsplit('/', 1)[-1]
    hub = live.Hub(app.config['DATABASE'])
    first, second = hub.follow(game_id), hub.follow(game_id)
    hub.leave(first)
    assert calls == []                     # a stream is still held
    hub.leave(second)
    assert calls == [0]


def hold_exclusively(path):
    """Another connection that holds the database so that no other can even read it (as SQLite's
    recovery of a write-ahead log, or a tool in exclusive locking mode, does): closed, it lets go."""
    import sqlite3
    holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    holder.execute('PRAGMA locking_mode = EXCLUSIVE')
    holder.execute('BEGIN EXCLUSIVE')
    holder.execute('update games set revision = revision')
    return holder


def let_go_at_the_first_sleep(path, monkeypatch):
    """The database held by another connection (hold_exclusively) until this thread first sleeps (the
    app's way of waiting, store.waited): then it lets go. Returns the holder and the sleeps asked."""
    import time
    holder, sleeps, main, sleep = hold_exclusively(path), [], threading.current_thread(), time.sleep

    def waits(seconds):
        if threading.current_thread() is main and not sleeps:
            sleeps.append(seconds)
            holder.close()                 # asked to wait: the other connection lets go
        sleep(seconds)
    monkeypatch.setattr(time, 'sleep', waits)
    return holder, sleeps


def test_a_stream_waits_for_a_held_database_without_holding_the_process(pushing, monkeypatch):
    """A stream's set-up reads on the event loop: SQLite's own wait for a held database (sqlite3's
    default: 5 s) would hold the whole gevent worker and everyone it serves. It waits the app's way
    instead, in short sleeps (time.sleep yields under gevent): here the other connection lets go as
    soon as the stream sleeps, and the stream is set up and sends its sheet."""
    app, client, url = pushing
    holder, sleeps = let_go_at_the_first_sleep(app.config['DATABASE'], monkeypatch)
    response = app.test_client().get(url + '/events')
    holder.close()
    assert response.status_code == 200 and sleeps
    assert events_of(response, 1)[0][:2] == ('sheet', '0')


def test_a_stream_on_a_database_held_too_long_is_told_to_try_again(pushing, monkeypatch):
    """Held past READ_WAIT_MS, the stream is refused with a 503 that says the server is busy and
    when to come back, having waited the app's way (its sleeps), not SQLite's."""
    import time
    from web import store
    app, client, url = pushing
    holder, sleeps, main, sleep = hold_exclusively(app.config['DATABASE']), [], threading.current_thread(), time.sleep
    monkeypatch.setattr(store, 'READ_WAIT_MS', 200, raising=False)    # raising=False: the code before had none
    monkeypatch.setattr(time, 'sleep', lambda s: (threading.current_thread() is main and sleeps.append(s), sleep(s)))
    try:
        response = app.test_client().get(url + '/events')
    finally:
        holder.close()
    assert response.status_code == 503 and int(response.headers['Retry-After']) >= 1
    assert 'too busy' in response.get_data(as_text=True) and sleeps


def test_a_page_on_a_database_held_for_a_moment_is_served_once_it_is_let_go(pushing, monkeypatch):
    """A request's first read of a database held for a moment (the last connection closing removes
    the -wal under an exclusive lock; a busy machine stretched that past SQLite's own 20 ms, and a
    follower's offline.json got 503 in CI) waits for it the app's way, in short sleeps: here the
    other connection lets go as soon as the page sleeps, and the page is served."""
    app, client, url = pushing
    holder, sleeps = let_go_at_the_first_sleep(app.config['DATABASE'], monkeypatch)
    response = app.test_client().get(url)
    holder.close()
    assert response.status_code == 200 and sleeps


def test_a_page_on_a_held_database_is_answered_before_it_is_let_go(pushing):
    """Every request's connection waits for a held database at most LOCK_WAIT_MS inside SQLite (from
    its very first read: sqlite3's default of 5 s held the process), then at most READ_WAIT_MS in
    short sleeps: here the other connection holds it for 4 s, and the page is answered 503 'too busy'
    meanwhile, not served after it lets go."""
    app, client, url = pushing
    holder = hold_exclusively(app.config['DATABASE'])
    timer = threading.Timer(4, holder.close)
    timer.start()
    try:
        response = app.test_client().get(url)
        held = timer.is_alive()
    finally:
        timer.cancel()
        holder.close()
    assert response.status_code == 503 and 'too busy' in response.get_data(as_text=True) and held


@pytest.mark.slow
def test_a_stream_waiting_for_a_held_database_holds_no_one_else_up(tmp_path):
    """In the production recipe (one gevent worker serves everyone): while another connection holds
    the database, a phone's stream waits for it, and a bystander who asks meanwhile for a page that
    reads no database is answered before that stream is (SQLite's own wait held the worker: the
    stream was answered 503 after 5 s, and only then the bystander; a page that reads the database
    waits for it as the stream does); once the database is let go, the stream is set up."""
    import select
    import socket
    server = Gunicorn(tmp_path / 'held.sqlite', workers=1).start()
    try:
        game = Browser(server.url).new_game(['Ana', 'Bruno'])
        holder = hold_exclusively(server.database)
        try:
            stream = socket.create_connection(('127.0.0.1', server.port), timeout=PATIENCE)
            stream.sendall(f'GET {game}/events HTTP/1.1\r\nHost: 127.0.0.1\r\nLast-Event-ID: 0\r\n\r\n'.encode())
            bystander = http.client.HTTPConnection('127.0.0.1', server.port, timeout=PATIENCE)
            bystander.request('GET', '/manifest.webmanifest')
            answered = bystander.getresponse().status
            stream_answered_first = bool(select.select([stream], [], [], 0)[0])
        finally:
            holder.close()
        assert answered == 200 and not stream_answered_first
        assert stream.recv(64).startswith(b'HTTP/1.1 200')
        stream.close()
    finally:
        server.stop()
