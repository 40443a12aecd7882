"""Nothing lost: versions on rounds refuse a save based on an old one, two saves at once never lose
a value silently, and a backup taken while the app writes is whole."""

import re
import sqlite3
import stat
import subprocess
import sys
import threading
import urllib.error
import urllib.parse
import urllib.request

import pytest

from app import create_app
from scorer.sheet import Entry, Game
from tests.browser import NoRedirect
from tests.helpers import PATIENCE, hand_over, new_game_form, round_form
from web import store


@pytest.fixture
def db_path(tmp_path):
    path = str(tmp_path / 'r.sqlite')
    store.connect(path).close()
    return path


def entries(points):
    return [Entry('Ana', True), Entry('Bruno', points=points)]


def test_a_save_based_on_an_old_version_is_refused(db_path):
    db = store.connect(db_path, migrate=False)
    game_id, _ = store.create_game(db, Game(('Ana', 'Bruno')))
    assert store.save_round(db, game_id, 1, entries(5), based_on=0) == 1
    with pytest.raises(store.Conflict) as e:
        store.save_round(db, game_id, 1, entries(9), based_on=0)
    assert e.value.version == 1 and e.value.entries[1].points == 5
    assert store.save_round(db, game_id, 1, entries(9), based_on=1) == 2
    assert store.save_round(db, game_id, 1, entries(9), based_on=1) == 2       # the same again: no conflict


def test_two_saves_at_the_same_moment_never_lose_a_value(db_path):
    """Many pairs of threads save the same round from the same version: one wins, the other hears so."""
    setup = store.connect(db_path, migrate=False)
    game_id, _ = store.create_game(setup, Game(('Ana', 'Bruno')))
    for attempt in range(25):
        base = store.round_version(setup, game_id, 1)
        barrier = threading.Barrier(2)
        outcome = {}

        def save(points):
            db = store.connect(db_path, migrate=False)
            barrier.wait()
            try:
                outcome[points] = store.save_round(db, game_id, 1, entries(points), based_on=base)
            except store.Conflict as e:
                outcome[points] = e
            finally:
                db.close()

        threads = [threading.Thread(target=save, args=(100 + 2 * attempt + i,)) for i in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        won = [p for p, o in outcome.items() if isinstance(o, int)]
        lost = [p for p, o in outcome.items() if isinstance(o, store.Conflict)]
        assert len(won) == 1 and len(lost) == 1, outcome
        saved = store.load_game(setup, game_id).rounds[1][1].points
        assert saved == won[0]
        assert outcome[lost[0]].entries[1].points == won[0]       # the loser is shown the winner's value


def test_conflict_page_shows_both_and_keeps_either(app, client, make_game):
    url = make_game(('Ana', 'Bruno'))
    other = app.test_client()
    hand_over(client, other, url)
    page = client.get(url + '/rounds/1').get_data(as_text=True)
    assert 'name="version" value="0"' in page
    assert other.post(url + '/rounds/1', data={**round_form(0, points=[None, '7']), 'version': '0'}).status_code == 302
    r = client.post(url + '/rounds/1', data={**round_form(0, points=[None, '12']), 'version': '0'})
    assert r.status_code == 409
    page = r.get_data(as_text=True)
    assert 'was saved from another phone while you were editing' in page
    assert '<bdi>Bruno</bdi>: 7' in page and '<bdi>Bruno</bdi>: 12' in page
    assert 'name="version" value="1"' in page and 'value="12"' in page        # "Keep mine" is one tap
    assert client.get(url + '/export.json').get_json()['sheet']['totals']['Bruno'] == 7
    r = client.post(url + '/rounds/1', data={**round_form(0, points=[None, '12']), 'version': '1'})
    assert r.status_code == 302
    assert client.get(url + '/export.json').get_json()['sheet']['totals']['Bruno'] == 12


def test_security_headers(client):
    r = client.get('/')
    csp = r.headers['Content-Security-Policy']
    assert "frame-ancestors 'none'" in csp and 'unsafe-inline' not in csp and "script-src 'self'" in csp
    assert r.headers['X-Content-Type-Options'] == 'nosniff'
    assert r.headers['Referrer-Policy'] == 'same-origin'


def test_over_long_bodies_are_refused(client):
    r = client.post('/games/new', data={'title': 'x' * 300_000})
    assert r.status_code == 413 and 'Too large' in r.get_data(as_text=True)


def test_no_stack_trace_is_shown(app, client, monkeypatch):
    from web import sheets

    def broken(*a, **k):
        raise RuntimeError('SELECT secret FROM games')
    monkeypatch.setattr(sheets, 'compute_sheet', broken)
    app.config['PROPAGATE_EXCEPTIONS'] = False
    url = client.post('/games/new', data={'players-0': 'A', 'players-1': 'B', 'first_dealer': '0', 'decks': 'auto'}).headers['Location']
    r = client.get(url)
    assert r.status_code == 500
    page = r.get_data(as_text=True)
    assert 'Something went wrong' in page and 'SELECT' not in page and 'Traceback' not in page


def test_backup_while_writing(tmp_path):
    source = str(tmp_path / 'live.sqlite')
    db = store.connect(source)
    game_id, _ = store.create_game(db, Game(('Ana', 'Bruno')))
    stop = threading.Event()

    def keep_writing():
        w = store.connect(source, migrate=False)
        n = 0
        while not stop.is_set():
            n += 1
            store.save_round(w, game_id, 1, entries(n % 500))
        w.close()

    writer = threading.Thread(target=keep_writing)
    writer.start()
    try:
        target = tmp_path / 'copy.sqlite'
        r = subprocess.run([sys.executable, '-m', 'flask', '--app', 'app', 'backup', str(target)],
                           env={'SCORER_DATABASE': source, 'SCORER_SECRET_KEY': 'b', 'PATH': '/usr/bin:/bin'},
                           capture_output=True, text=True, timeout=PATIENCE)
    finally:
        stop.set()
        writer.join()
    assert r.returncode == 0, r.stderr
    copy = sqlite3.connect(target)
    assert copy.execute('PRAGMA integrity_check').fetchone()[0] == 'ok'
    assert copy.execute('select count(*) from games').fetchone()[0] == 1
    copy.close()
    assert store.load_game(store.connect(str(target), migrate=False), game_id).players == ('Ana', 'Bruno')


def run_backup(app, *args):
    return app.test_cli_runner().invoke(args=['backup', *map(str, args)])


def test_backup_never_overwrites_unless_told(app, tmp_path):
    target = tmp_path / 'copy.sqlite'
    target.write_text('yesterday')
    r = run_backup(app, target)
    assert r.exit_code != 0 and 'already exists' in r.output and '--force' in r.output
    assert target.read_text() == 'yesterday'
    r = run_backup(app, target, '--force')
    assert r.exit_code == 0, r.output
    assert sqlite3.connect(target).execute('PRAGMA integrity_check').fetchone()[0] == 'ok'
    assert stat.S_IMODE(target.stat().st_mode) == 0o600          # the owner's alone, as the database is


def test_backup_to_a_place_that_cannot_be_written_says_so(app, tmp_path):
    for target in (tmp_path / 'no' / 'such' / 'folder' / 'copy.sqlite', tmp_path):
        r = run_backup(app, target)
        assert r.exit_code != 0 and 'Traceback' not in r.output, r.output
        assert 'cannot write' in r.output or 'is a directory' in r.output
    assert not list(tmp_path.glob('*.partial'))


def test_saves_queue_behind_each_other_on_the_dev_server(app):
    # 40 phones saving at the same moment through a real threaded server: every save waits its turn.
    from tests.server import Server
    client = app.test_client()
    urls = [client.post('/games/new', data=new_game_form(['Ana', 'Bruno'])).headers['Location'] for _ in range(40)]
    cookie = f"browser={client.get_cookie('browser').value}"
    statuses = []
    with Server(app) as server:
        start = threading.Barrier(len(urls))

        def save(url):
            start.wait()
            request = urllib.request.Request(server.url + url + '/rounds/1', headers={'Cookie': cookie},
                                             data=urllib.parse.urlencode(round_form(0, cards=[None, 'KS QS 2D'])).encode())
            try:
                with urllib.request.build_opener(NoRedirect()).open(request, timeout=PATIENCE) as r:
                    statuses.append(r.status)
            except urllib.error.HTTPError as e:
                statuses.append(e.code)
        threads = [threading.Thread(target=save, args=(u,)) for u in urls]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert statuses == [302] * len(urls)


def test_a_save_that_cannot_get_the_database_keeps_what_was_typed(tmp_path):
    app = create_app({'TESTING': True, 'DATABASE': str(tmp_path / 'busy.sqlite'), 'SECRET_KEY': 't',
                      'WTF_CSRF_ENABLED': False, 'BUSY_TIMEOUT_MS': 50})
    client = app.test_client()
    url = client.post('/games/new', data=new_game_form(['Ana', 'Bruno'])).headers['Location']
    blocker = sqlite3.connect(tmp_path / 'busy.sqlite')
    blocker.execute('BEGIN IMMEDIATE')             # another writer holds the database
    try:
        r = client.post(url + '/rounds/1', data=round_form(0, cards=[None, 'KS QS 2D']))
    finally:
        blocker.rollback()
        blocker.close()
    page = r.get_data(as_text=True)
    assert r.status_code == 422 and 'Round 1 was not saved: The server was too busy to answer' in page and 'value="KS QS 2D"' in page
    assert client.post(url + '/rounds/1', data=round_form(0, cards=[None, 'KS QS 2D'])).status_code == 302


def test_an_earlier_version_shows_its_scores_and_comes_back_in_one_tap(client, make_game):
    url = make_game(('Ana', 'Bruno'))
    client.post(url + '/rounds/1', data=round_form(0, cards=[None, 'KH 5C 7D']))
    client.post(url + '/rounds/1', data=round_form(0, points=[None, '3'], version=1))
    page = client.get(url + '/rounds/1').get_data(as_text=True)
    assert 'Earlier version of this round (1)' in page
    assert '<bdi>Bruno</bdi>: K♥ 5♣ 7♦ → <strong>22</strong>' in page and 'datetime="' in page
    history = re.search(r'name="history" value="(\d+)"', page).group(1)
    r = client.post(url + '/rounds/1/restore', data={'history': history, 'version': '2'})
    assert r.status_code == 302
    assert client.get(url + '/export.json').get_json()['sheet']['totals'] == {'Ana': 0, 'Bruno': 22}
    # A restore made from an old page does not overwrite what was saved since.
    client.post(url + '/rounds/1', data=round_form(0, points=[None, '9'], version=3))
    r = client.post(url + '/rounds/1/restore', data={'history': history, 'version': '3'})
    assert r.status_code == 302 and 'saved from another phone meanwhile' in client.get(r.headers['Location']).get_data(as_text=True)
    assert client.get(url + '/export.json').get_json()['sheet']['totals'] == {'Ana': 0, 'Bruno': 9}
    assert client.post(url + '/rounds/1/restore', data={'history': 'x', 'version': '4'}).status_code == 400


def test_a_disk_that_cannot_be_written_is_said_logged_and_keeps_what_was_typed(app, client, make_game,
                                                                                 monkeypatch, caplog):
    """SQLite refuses every write as on a read-only disk (query_only); a full disk answers alike."""
    from web import store
    url = make_game(('Ana', 'Bruno'))
    client.post(url + '/seats/1')
    connect = store.connect

    def broken(*args, **kwargs):
        db = connect(*args, **kwargs)
        db.execute('PRAGMA query_only = ON')
        return db
    monkeypatch.setattr(store, 'connect', broken)
    r = client.post('/games/new', data=new_game_form(['Zoë', 'Yann'], title='Noche'))
    page = r.get_data(as_text=True)
    assert r.status_code == 503 and 'cannot write to its disk' in page
    assert 'value="Zoë"' in page and 'value="Noche"' in page
    r = client.post(url + '/rounds/1', data=round_form(0, points=[None, '17']))
    page = r.get_data(as_text=True)
    assert r.status_code == 422 and 'Round 1 was not saved: The server cannot write to its disk' in page
    assert 'value="17"' in page
    r = client.post(url + '/hand', data={'round': '1', 'cards': 'KH 5C 7D'})
    page = r.get_data(as_text=True)
    assert r.status_code == 503 and 'cannot write to its disk' in page and 'value="KH 5C 7D"' in page
    assert 'cannot write the database' in caplog.text


def test_the_errors_of_a_disk_that_cannot_be_written_are_told_apart():
    from web import store
    for text in ('database or disk is full', 'attempt to write a readonly database', 'disk I/O error'):
        assert store.cannot_write(sqlite3.OperationalError(text)) and not store.is_busy(sqlite3.OperationalError(text))
    assert not store.cannot_write(sqlite3.OperationalError('no such table: games'))
