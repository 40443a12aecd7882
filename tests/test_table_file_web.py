"""Our table's file and CSV through the web (issue 53): the file exported imports back as the same
table (the same figures), a file with anything wrong imports nothing and says why, and the CSV is
a game a line."""

import io
import json

import pytest

from tests.test_tables_web import game_in, make_table, standings, text


def test_the_table_file_round_trips_exactly_and_a_bad_one_imports_nothing(app, client):
    table = make_table(client)
    game_in(client, table)
    game_in(client, table, players=('Ana', 'Bruno', 'Carla'))
    r = client.get(table + '/export.json')
    assert r.status_code == 200 and r.headers['Content-Disposition'].startswith('attachment')
    data = r.get_data()
    other = app.test_client()
    r = other.post('/tables/import', data={'table_file': (io.BytesIO(data), 'club.json')},
                   content_type='multipart/form-data')
    assert r.status_code == 302
    assert standings(text(other, r.headers['Location'])) == standings(text(client, table))
    broken = json.loads(data)
    broken['games'][1]['game']['rounds'] = 'nope'
    before = text(other, '/')
    r = other.post('/tables/import', data={'table_file': (io.BytesIO(json.dumps(broken).encode()), 'bad.json')},
                   content_type='multipart/form-data')
    assert r.status_code == 400 and 'Nothing was imported' in r.get_data(as_text=True)
    assert text(other, '/').count('Club de los jueves') == before.count('Club de los jueves')


def test_the_csv_is_a_game_a_line(client):
    table = make_table(client)
    game_in(client, table)
    game_in(client, table)
    r = client.get(table + '/export.csv')
    assert r.status_code == 200 and r.mimetype == 'text/csv'
    lines = [line for line in r.get_data(as_text=True).lstrip('\ufeff').splitlines() if line]
    assert len(lines) == 3                                        # a heading and a game a line


@pytest.mark.parametrize('upload', [b'', b'{', b'[]', b'{"version": 2}', b'\xff\xfe', b'{"version": 1, "table": {}}'])
def test_a_hostile_table_file_is_refused_cleanly(client, upload):
    r = client.post('/tables/import', data={'table_file': (io.BytesIO(upload), 't.json')},
                    content_type='multipart/form-data')
    assert r.status_code == 400 and 'Nothing was imported' in r.get_data(as_text=True)
    assert client.post('/tables/import', data={}).status_code == 400


def a_big_table_file(games, players=('Ana', 'Bruno', 'Carla', 'Dé')):
    """A table file of `games` finished standard games (points from a seeded dice), made by the file's
    own writer: 200 of them are some 800 KB, far past the app's body limit."""
    import random

    from scorer.rules import make_rules
    from scorer.sheet import Entry, Game
    from scorer.tablefile import TableGame, table_json
    rules = make_rules({'game': 'standard'})
    dice = random.Random(53)
    made = [TableGame(f'g{i}', '2026-11-29', Game(players, rules, i % len(players),
                                                  {n: tuple(Entry(p, points=dice.randint(0, 60)) for p in players)
                                                   for n in rules.rounds}), {})
            for i in range(games)]
    return table_json({'name': 'Club de los jueves', 'language': 'es'}, made).encode()


def imported(client, data, language='en'):
    """The table file `data` sent by the import form: the answer."""
    return client.post('/tables/import', data={'table_file': (io.BytesIO(data), 'club.json')},
                       content_type='multipart/form-data', headers={'Accept-Language': language})


def test_a_table_file_of_200_games_imports_whole(app, client):
    data = a_big_table_file(200)
    assert len(data) > app.config['MAX_CONTENT_LENGTH']
    r = imported(client, data)
    assert r.status_code == 302, r.get_data(as_text=True)[-600:]
    games = dict(standings(text(client, r.headers['Location'])))
    assert sorted(games) == ['Ana', 'Bruno', 'Carla', 'Dé']
    assert {values['Games'] for values in games.values()} == {'200'}


@pytest.mark.parametrize('language, said', [('en', 'larger than 32 MB'), ('es', 'pesa más de 32 MB'),
                                            ('pt', 'tem mais de 32 MB')])
def test_a_table_file_past_its_limit_is_refused_naming_it(app, client, language, said):
    from scorer.limits import MAX_TABLE_FILE
    past = b'x' * (MAX_TABLE_FILE + app.config['MAX_CONTENT_LENGTH'] + 1)     # more than the route reads at all
    r = imported(client, past, language=language)
    page = r.get_data(as_text=True)
    assert r.status_code == 413 and said in page and 'id="import-error"' in page, page[-800:]
    just_over = a_big_table_file(1)
    just_over += b' ' * (MAX_TABLE_FILE + 1 - len(just_over))                # a file one byte past it, else good
    r = imported(client, just_over, language=language)
    page = r.get_data(as_text=True)
    assert r.status_code == 400 and said in page, page[-800:]
    assert imported(client, a_big_table_file(1)).status_code == 302            # a good file still goes in
    with app.app_context():
        from web.db import get_db
        assert len(list(get_db().query('select id from tables'))) == 1         # nothing of the others kept
        assert len(list(get_db().query('select id from games'))) == 1


@pytest.mark.parametrize('path', ['/games/new', '/import', '/tables/new'])
def test_every_other_route_still_refuses_a_body_past_the_apps_limit(app, client, path):
    past = b'x' * (app.config['MAX_CONTENT_LENGTH'] + 1)
    assert client.post(path, data={'name': past.decode()}).status_code == 413
    r = client.post(path, data={'file': (io.BytesIO(past), 'f.json')}, content_type='multipart/form-data')
    assert r.status_code == 413


def chunked(client, path, fields):
    """`fields` POSTed as a multipart body of unsaid length (Transfer-Encoding: chunked), as a phone may."""
    from werkzeug.test import encode_multipart
    boundary, body = encode_multipart(fields)
    return client.post(path, input_stream=io.BytesIO(body), content_type=f'multipart/form-data; boundary={boundary}',
                       headers={'Transfer-Encoding': 'chunked'})


def test_the_body_deadline_reads_a_table_file_whole_and_other_bodies_to_the_apps_limit(app, client, monkeypatch):
    """The production recipe's reading of bodies (web/deadline.py, on gevent): the import's body whole,
    any other route's cut one byte past MAX_CONTENT_LENGTH (413)."""
    gevent = pytest.importorskip('gevent')
    from werkzeug.datastructures import FileStorage

    from web import deadline
    monkeypatch.setattr(deadline, 'gevent_timeout', lambda: gevent.Timeout)
    data = a_big_table_file(200)
    r = chunked(client, '/tables/import', {'table_file': FileStorage(io.BytesIO(data), 'club.json')})
    assert r.status_code == 302, r.get_data(as_text=True)[-400:]
    past = b'x' * (app.config['MAX_CONTENT_LENGTH'] + 1)
    assert chunked(client, '/games/new', {'file': FileStorage(io.BytesIO(past), 'f.json')}).status_code == 413


def test_each_piece_of_a_body_has_its_own_deadline():
    """A body of n times MAX_CONTENT_LENGTH has n deadlines of BODY_SECONDS, one a piece (a big file
    arrives at a phone's pace; one that stops is cut off a deadline after its last piece); a body of
    one piece has one, as it always had."""
    from contextlib import contextmanager

    from web.deadline import read_body
    started = []

    @contextmanager
    def deadline():
        started.append(True)
        yield
    assert read_body(io.BytesIO(b'x' * 10), 100, deadline, 4) == b'x' * 10 and len(started) == 3
    started.clear()
    assert read_body(io.BytesIO(b'x' * 10), 8, deadline, 4) == b'x' * 8 and len(started) == 2
    started.clear()
    assert read_body(io.BytesIO(b'x' * 3), 4, deadline, 4) == b'x' * 3 and len(started) == 1


def test_a_big_table_file_spends_more_of_the_import_budget(tmp_path):
    """Checking a big file holds the pool's process as long as several imports do, so it spends as
    many of the client's IMPORT_RATE (one for each IMPORT_BYTES begun): past it, a 429 saying so."""
    from tests.conftest import new_app
    from web.ratelimit import IMPORT_BYTES
    app = new_app({'TESTING': True, 'DATABASE': str(tmp_path / 'budget.sqlite'), 'SECRET_KEY': 'test',
                   'WTF_CSRF_ENABLED': False, 'IMPORT_RATE': '2 per minute'})
    client = app.test_client()
    big = a_big_table_file(1)
    big += b' ' * (IMPORT_BYTES + 1 - len(big))                      # two of the budget
    assert imported(client, big).status_code == 302
    r = imported(client, a_big_table_file(1))
    assert r.status_code == 429 and 'Too many' in r.get_data(as_text=True)
