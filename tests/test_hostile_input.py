"""Hostile or careless input, field by field: a clear message, nothing stored wrong, never a 500."""

import io
import json
import sqlite3

import flask
import pytest

from scorer.gamefile import GameFileError, read_game
from scorer.sheet import read_points
from tests.helpers import new_game_form, round_form

GAME = {'version': 1, 'players': ['Ana', 'Bruno'], 'rules': {}, 'first_dealer': 0,
        'rounds': [{'round': 1, 'entries': [{'player': 'Ana', 'went_out': True}, {'player': 'Bruno', 'points': 12}]}]}


def game_file(**changes):
    data = json.loads(json.dumps(GAME))
    data.update(changes)
    return data


def test_points_that_add_up_past_a_rounds_most_are_refused(client, make_game):
    url = make_game(('Ana', 'Bruno'))
    r = client.post(url + '/rounds/1', data=round_form(0, points=[None, '5000+5000']))
    page = r.get_data(as_text=True)
    assert r.status_code == 422 and '&#39;5000+5000&#39; makes 10000: a round scores at most 9999 points' in page
    assert 'value="5000+5000"' in page                      # what was typed stays in the form
    assert client.get(url).status_code == 200
    assert read_points('9999') == 9999
    for text in ('9999+1', '٣', '３', '1_0', '9' * 4301):
        with pytest.raises(ValueError):
            read_points(text)


def test_a_game_saved_with_a_bad_round_can_still_be_opened_corrected_or_deleted(app, client, make_game):
    url = make_game(('Ana', 'Bruno'))
    client.post(url + '/rounds/1', data=round_form(0, points=[None, '12']))
    game_id = url.rsplit('/', 1)[1]
    with sqlite3.connect(app.config['DATABASE']) as db:      # as an older version could store it
        db.execute("update rounds set entries = ? where game_id = ?",
                   [json.dumps([{'player': 'Ana', 'went_out': True}, {'player': 'Bruno', 'points': 19998}]), game_id])
        db.execute('update games set revision = revision + 1 where id = ?', [game_id])
    sheet = client.get(url)
    assert sheet.status_code == 200 and 'Round 1 cannot be scored' in sheet.get_data(as_text=True)
    for page in ('/export.json', '/export.csv', '/print'):
        r = client.get(url + page)
        assert r.status_code == 409 and 'Correct round 1' in r.get_data(as_text=True)
    assert client.get('/history').status_code == 200 and client.get('/stats').status_code == 200
    form = client.get(url + '/rounds/1').get_data(as_text=True)
    assert 'value="19998"' in form                          # the bad value is there to correct
    assert client.post(url + '/rounds/1', data=round_form(0, points=[None, '18'], version=1)).status_code == 302
    assert client.get(url + '/export.json').get_json()['sheet']['totals'] == {'Ana': 0, 'Bruno': 18}
    assert client.get(url + '/delete').status_code == 200


def test_a_save_must_say_which_version_it_was_based_on(client, make_game):
    url = make_game(('Ana', 'Bruno'))
    client.post(url + '/rounds/1', data=round_form(0, points=[None, '12']))
    for version in (None, 'abc', '1.0', '１', '9' * 4301):
        data = round_form(0, points=[None, '30'])
        data.pop('version') if version is None else data.update(version=version)
        r = client.post(url + '/rounds/1', data=data)
        assert r.status_code == 422 and 'which version of round 1' in r.get_data(as_text=True)
    assert client.get(url + '/export.json').get_json()['sheet']['totals']['Bruno'] == 12


@pytest.mark.parametrize('changes, message', [
    ({'rounds': [{'round': 1, 'entries': [{'player': 'Ana', 'went_out': True}, {'player': 'Bruno', 'points': 3},
                                          {'player': 'Bruno', 'points': 40}]}]}, 'two entries for Bruno'),
    ({'rounds': [{'round': 5, 'entries': [{'player': 'Ana', 'went_out': True}, {'player': 'Bruno', 'points': 3}]}]},
     'round 5 is there but not round 1'),
    ({'version': True}, 'not a game file of version 1'),
    ({'version': 1.0}, 'not a game file of version 1'),
    ({'date': '2026-13-45'}, "'2026-13-45' is not a day of the calendar"),
    ({'rounds': [{'round': True, 'entries': []}]}, 'each round needs a round number'),
    ({'players': ['Ana', 'Аna']}, "'Аna' looks the same as 'Ana'"),
])
def test_game_files_are_checked_fully(changes, message):
    with pytest.raises(GameFileError, match=message):
        read_game(json.dumps(game_file(**changes)))


@pytest.mark.parametrize('text, message', [
    (json.dumps(GAME).replace('"version": 1', '"version": ' + '9' * 4301), 'a number in it is too long'),
    ('[' * 2000 + ']' * 2000, 'nested too deep'),
    (json.dumps(GAME).replace('"rules": {}', '"rules": {"decks": "' + '9' * 4301 + '"}'), 'is not a value of decks'),
])
def test_game_files_made_to_crash_the_reader_get_a_message(text, message):
    with pytest.raises(GameFileError, match=message):
        read_game(text)


def test_importing_a_game_this_phone_keeps_opens_it(client, make_game):
    url = make_game(('Ana', 'Bruno'))
    client.post(url + '/rounds/1', data=round_form(0, points=[None, '7']))
    exported = client.get(url + '/export.json').data
    r = client.post('/import', data={'game_file': (io.BytesIO(exported), 'g.json')}, content_type='multipart/form-data')
    assert r.status_code == 302 and r.headers['Location'] == url
    assert 'already kept on this phone' in client.get(url).get_data(as_text=True)
    assert client.get('/').get_data(as_text=True).count('<bdi>Ana</bdi>, <bdi>Bruno</bdi>') == 1


@pytest.mark.parametrize('names, message', [
    (['Ana', 'Ana\u200b'], "Two players are called"),
    (['Ana', 'Аna'], 'looks the same as'),
    (['Ana', 'ANA'], 'Two players are called'),
])
def test_names_that_look_the_same_are_refused(client, names, message):
    r = client.post('/games/new', data=new_game_form(names))
    assert r.status_code == 422 and message in r.get_data(as_text=True)


def test_names_are_kept_without_control_or_format_characters(client):
    r = client.post('/games/new', data=new_game_form(['Ana\x00', 'Bo\u202eb', 'Zoë\u200b', '👩\u200d👩\u200d👧']))
    players = client.get(r.headers['Location'] + '/export.json').get_json()['players']
    assert players == ['Ana', 'Bob', 'Zoë', '👩\u200d👩\u200d👧']


def test_names_are_shown_isolated_from_the_text_around_them(client):
    r = client.post('/games/new', data=new_game_form(['أحمد', 'Bruno']))
    page = client.get(r.headers['Location']).get_data(as_text=True)
    assert '<bdi>أحمد</bdi>' in page


def test_a_cookie_named_after_a_game_lists_it_only_with_the_right_key(app, client, make_game):
    url = make_game(('Ana', 'Bruno'))
    game_id = url.rsplit('/', 1)[1]
    other = app.test_client()
    other.set_cookie(f'keeper_{game_id}', 'guess')
    assert '<bdi>Ana</bdi>, <bdi>Bruno</bdi>' not in other.get('/').get_data(as_text=True)
    token = client.get_cookie('browser').value
    other.set_cookie('browser', token[:-1] + ('y' if token.endswith('x') else 'x'))   # a forged token: one letter off
    assert '<bdi>Ana</bdi>, <bdi>Bruno</bdi>' not in other.get('/').get_data(as_text=True)
    assert other.get(url + '/rounds/1').status_code == 403
    assert '<bdi>Ana</bdi>, <bdi>Bruno</bdi>' in client.get('/').get_data(as_text=True)


@pytest.mark.parametrize('query', ['wild=' + '1' * 4301, 'decks=' + '1' * 4301, 'jokers=' + '1' * 4301,
                                   'wild_penalty=' + '1' * 4301, 'round=３', 'round=' + '1' * 4301])
def test_numbers_past_any_limit_are_a_message_not_a_500(client, query):
    for page in ('/api/solve', '/api/audit', '/audit'):
        r = client.get(f'{page}?cards=7H+8H+9H&wild=3&{query}' if 'wild=' not in query else f'{page}?cards=7H&{query}')
        assert r.status_code in (200, 400), (page, query)


@pytest.mark.parametrize('claim', ['٣', '1_0', '３', '9' * 4301, '-1'])
def test_a_claim_is_written_in_ascii_digits(client, claim):
    r = client.get('/api/audit', query_string={'cards': '7H 8H 9H', 'wild': '3', 'claim': claim})
    assert r.status_code == 400 and 'is not a score' in r.get_json()['error']


def as_file(text='Ana'):
    return (io.BytesIO(text.encode()), 'name.txt')


@pytest.mark.parametrize('path, form', [
    ('/games/new', {**new_game_form(['Ana', 'Bruno']), 'players-²': 'Zoë'}),
    ('/games/new', {**new_game_form(['Ana', 'Bruno']), 'players-0': as_file()}),
    ('/games/new', {**new_game_form(['Ana', 'Bruno']), 'title': as_file()}),
    ('{game}/rounds/1', {**round_form(0, points=[None, '4', '5']), 'entries-²-cards': '7H'}),
    ('{game}/rounds/1', {**round_form(0, points=[None, '4', '5']), 'entries-1-cards': as_file('7H')}),
    ('{game}/rounds/1', {**round_form(0, points=[None, '4', '5']), 'version': as_file('0')}),
    ('{game}/rounds/1', {**round_form(0, points=[None, '4', '5']), 'went_out': as_file('0')}),
    ('{game}/hand', {'round': '1', 'cards': as_file('7H')}),
    ('{game}/keeper', {'key': as_file('x')}),
    ('{game}/colours', {'colour-0': as_file('1')}),
    ('{game}/rounds/1/undo', {'version': as_file('1')}),
])
def test_no_form_shape_is_a_server_error(client, make_game, path, form):
    """Odd keys (a superscript digit), or a file sent where text is expected, get an answer, never a 500."""
    game = make_game()
    client.post(game + '/seats/1')
    r = client.post(path.format(game=game), data=form, content_type='multipart/form-data')
    assert r.status_code < 500, r.get_data(as_text=True)[:300]


def test_the_database_file_is_the_apps_own(app, client, make_game):
    """It holds edit keys: 0600, and SQLite gives its -wal and -shm files the same mode."""
    import os
    import stat
    make_game()
    with sqlite3.connect(app.config['DATABASE']) as db:        # open: the -wal and -shm files exist
        db.execute("update games set title = 'x'")
        for suffix in ('', '-wal', '-shm'):
            mode = stat.S_IMODE(os.stat(app.config['DATABASE'] + suffix).st_mode)
            assert mode == 0o600, (suffix, oct(mode))


def test_pages_that_hold_a_key_or_a_seat_are_kept_by_no_cache(app, client, make_game):
    url = make_game()
    for path in (url, url + '/rounds/1'):
        assert client.get(path).headers['Cache-Control'] == 'no-store'
    seated = app.test_client()
    seated.post(url + '/seats/1')
    assert seated.get(url + '/hand').headers['Cache-Control'] == 'no-store'
    assert seated.get(url).headers['Cache-Control'] == 'no-store'
    follower = app.test_client()
    follower.get(url)                   # its first view sets its cookies: kept by no cache (tests/test_headers.py)
    assert 'no-store' not in follower.get(url).headers.get('Cache-Control', '')             # a follower's sheet


def test_a_browser_keeping_500_games_sends_one_small_cookie(app, client, make_game):
    """Every kept game used to add a cookie; at 138 the headers passed gunicorn's limit (431)."""
    from web import store
    first = make_game(('Ana', 'Bruno'))
    with app.app_context():
        from web.db import get_db
        db = get_db()
        token = client.get_cookie('browser').value
        ids = [store.create_game(db, store.load_game(db, first.rsplit('/', 1)[1]))[0] for _ in range(499)]
        store.keep(db, store.key_hash(token), ids)
    page = client.get('/').get_data(as_text=True)
    assert page.count('<li><a href="/games/') == 500
    with client:                                                      # the cookies the browser sends: one
        client.get('/health')
        assert list(flask.request.cookies) == ['browser']
    assert len(client.get_cookie('browser').value) < 64
    assert client.get('/history').status_code == 200 and client.get(first).status_code == 200


def test_the_per_game_cookies_of_earlier_versions_still_work_and_are_replaced(app, client, make_game):
    from web import store
    from scorer.sheet import Game
    with app.app_context():
        from web.db import get_db
        game_id, key = store.create_game(get_db(), Game(('Ana', 'Bruno')))
    url = f'/games/{game_id}'
    old = app.test_client()                                    # a browser from before: keeper_<id> = key
    old.set_cookie(f'keeper_{game_id}', key)
    old.set_cookie('keeper_nosuchgame', 'whatever')
    r = old.get('/')
    assert '<bdi>Ana</bdi>, <bdi>Bruno</bdi>' in r.get_data(as_text=True)
    cookies = r.headers.getlist('Set-Cookie')
    assert any(c.startswith('browser=') and 'HttpOnly' in c for c in cookies)
    assert any(c.startswith(f'keeper_{game_id}=;') for c in cookies)        # the old cookie goes
    assert old.get_cookie(f'keeper_{game_id}') is None
    assert old.get(url + '/rounds/1').status_code == 200                    # still the scorekeeper


def test_merged_spellings_are_kept_on_the_server(app, client, make_game):
    from web import store
    make_game(('Ana', 'Bruno'))
    with client.session_transaction() as session:                          # as an earlier version kept them
        session['aliases'] = {'anna': 'Ana'}
    client.get('/stats')
    with client.session_transaction() as session:
        assert 'aliases' not in session
    with app.app_context():
        from web.db import get_db
        assert store.merges(get_db(), store.key_hash(client.get_cookie('browser').value)) == {'anna': 'Ana'}
