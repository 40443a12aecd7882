"""Every POST that changes a game is its scorekeeper's: no such game 404, anyone but the scorekeeper
403 and nothing changes, a form that does not validate 400, and only then the action. The routes
are the app's own (app.url_map): a new POST route is checked here unless it is named as open."""

import tempfile
from pathlib import Path

import pytest
from flask import url_for

from app import create_app
from tests.helpers import round_form

# The POST routes anyone may use, and why.
OPEN = {
    'games.new_game': 'a new game has no scorekeeper yet',
    'export.import_game': 'an imported game is a new game',
    'stats.merge': "this browser's own names (test_print_export.py)",
    'stats.unmerge': "this browser's own names (test_print_export.py)",
    'games.keeper': 'the handover: whoever holds the edit key (test_sharing.py)',
    'seats.take': 'a player takes a seat (test_seats.py)',
    'seats.hand': "a seated player's own hand (test_entry_checks.py)",
    'seats.follow_rematch': 'a follower follows to the rematch (test_entry_checks.py)',
    'tables.new_table': 'a new table has no keeper yet',
    'tables.import_table': 'an imported table is a new table',
    'tables.keeper': "the table's keeper link: whoever holds its key (test_tables_web.py)",
}
PLACES = {'number': 1, 'seat': 0}       # the round and the seat a route's address names
FORMS = {                               # what the scorekeeper posts to each route ({} by default)
    'games.rematch': {'today': '2026-11-30'},
    'games.colours': {'colour-0': '1', 'colour-1': '2'},
    'rounds.round_entry': round_form(0, points=[None, '9'], version=2),
    'rounds.restore': {'history': '1', 'version': '2'},
    'rounds.undo': {'version': '2'},
    'seats.self_entry': {'allowed': '0'},
}
BAD = {                                 # forms that do not validate
    'games.colours': {'colour-0': '99', 'colour-1': '2'},          # no such colour
    'rounds.restore': {'history': 'x', 'version': '1'},
    'rounds.undo': {'version': '-1'},
}


def post_routes():
    """{endpoint: address} of every POST route of the app, a game's under /games/GAME."""
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({'TESTING': True, 'DATABASE': str(Path(folder) / 'routes.sqlite'), 'SECRET_KEY': 'r'})
        with app.test_request_context():
            return {rule.endpoint: url_for(rule.endpoint, **{name: PLACES.get(name, name.split('_')[0].upper())
                                                             for name in rule.arguments})
                    for rule in app.url_map.iter_rules() if 'POST' in rule.methods}


ROUTES = post_routes()
KEEPERS = {endpoint: path for endpoint, path in ROUTES.items() if endpoint not in OPEN and path.startswith('/games/')}
TABLE_KEEPERS = {endpoint: path for endpoint, path in ROUTES.items() if endpoint not in OPEN and endpoint not in KEEPERS}


def test_every_post_route_is_the_scorekeepers_or_named_as_open():
    """The lists here name routes the app has: a route renamed or gone fails here, not silently."""
    assert set(OPEN) <= set(ROUTES) and set(FORMS) | set(BAD) <= set(KEEPERS)
    assert all(path.startswith('/games/GAME/') for path in KEEPERS.values()), KEEPERS
    assert all(path.startswith('/tables/TABLE/') for path in TABLE_KEEPERS.values()), TABLE_KEEPERS
    assert {'rounds.round_entry', 'games.delete', 'rounds.undo', 'seats.free'} <= set(KEEPERS)


def address(game, endpoint):
    return KEEPERS[endpoint].replace('/games/GAME', game, 1)


@pytest.fixture
def game(client, make_game):
    url = make_game(('Ana', 'Bruno'))
    assert client.post(url + '/rounds/1', data=round_form(0, cards=[None, 'KS QS 2D'])).status_code == 302
    assert client.post(url + '/rounds/1', data=round_form(0, points=[None, '7'], version=1)).status_code == 302
    return url                            # round 1 at version 2, its first version in the history


def state(app, url):
    """What any of these POSTs could change."""
    from web import store
    from web.db import get_db
    game_id = url.rsplit('/', 1)[-1]
    with app.app_context():
        db = get_db()
        return (store.revision(db, game_id), store.colours(db, game_id), store.self_entry(db, game_id),
                store.seats_taken(db, game_id), store.rematch_of(db, game_id), store.edit_key_hash(db, game_id),
                store.load_game(db, game_id))


@pytest.mark.parametrize('endpoint', sorted(KEEPERS))
def test_a_stranger_is_refused_and_nothing_changes(app, client, game, endpoint):
    before = state(app, game)
    stranger = app.test_client()
    assert stranger.post(address(game, endpoint), data=FORMS.get(endpoint, {})).status_code == 403
    assert state(app, game) == before


def test_the_scorekeeper_changes_what_the_post_says(app, client, game):
    before = state(app, game)
    client.post(game + '/colours', data={'colour-0': '3', 'colour-1': '4'})
    client.post(game + '/self-entry', data={'allowed': '0'})
    client.post(game + '/rounds/1/undo', data={'version': '2'})
    after = state(app, game)
    assert after[1] == [3, 4] and after[2] is False and after[0] == before[0] + 3     # each a save


@pytest.mark.parametrize('endpoint', sorted(KEEPERS))
def test_no_such_game_is_404(client, game, endpoint):
    assert client.post(address('/games/nosuchgame', endpoint), data=FORMS.get(endpoint, {})).status_code == 404


@pytest.mark.parametrize('endpoint', sorted(BAD))
def test_a_form_that_does_not_validate_is_400(client, game, endpoint):
    assert client.post(address(game, endpoint), data=BAD[endpoint]).status_code == 400


@pytest.mark.parametrize('endpoint', sorted(KEEPERS))
def test_the_scorekeeper_gets_through(client, game, endpoint):
    r = client.post(address(game, endpoint), data=FORMS.get(endpoint, {}))
    assert r.status_code in (200, 302), (endpoint, r.status_code)


# A table's keeper actions (web/tables.py): every POST under /tables/<id>/ but its keeper link.
TABLE_FORMS = {'tables.add_game': {'game': 'GAME'}, 'tables.merge': {'spelling': 'Ana', 'name': 'Bruno'},
               'tables.unmerge': {'spelling': 'Ana'}, 'tables.remove_keeper': {'handle': 'x'}}


@pytest.fixture
def table(client, game):
    r = client.post('/tables/new', data={'name': 'Club', 'language': 'en'})
    return r.headers['Location']


def table_state(app, url):
    from web import store
    from web.db import get_db
    with app.app_context():
        db = get_db()
        table_id = url.rsplit('/', 1)[-1]
        return store.load_table(db, table_id), store.table_keepers(db, table_id), store.table_stamp(db, table_id)


def test_every_keeper_action_of_a_table_is_named():
    assert {'tables.keeper_link', 'tables.remove_keeper', 'tables.add_game', 'tables.merge',
            'tables.unmerge'} == set(TABLE_KEEPERS)


@pytest.mark.parametrize('endpoint', sorted(TABLE_KEEPERS))
def test_a_reader_of_a_table_is_refused_every_keeper_action(app, client, game, table, endpoint):
    reader = app.test_client()
    assert reader.get(table).status_code == 200                 # holds the table's link: reads it
    before = table_state(app, table)
    form = {k: v.replace('GAME', game.rsplit('/', 1)[-1]) for k, v in TABLE_FORMS.get(endpoint, {}).items()}
    path = TABLE_KEEPERS[endpoint].replace('/tables/TABLE', table.replace('http://localhost', ''), 1)
    assert reader.post(path, data=form).status_code == 403
    assert table_state(app, table) == before


@pytest.mark.parametrize('endpoint', sorted(TABLE_KEEPERS))
def test_no_such_table_is_404(client, endpoint):
    path = TABLE_KEEPERS[endpoint].replace('TABLE', 'AAAAAAAAAAAAAAAA', 1)
    assert client.post(path, data=TABLE_FORMS.get(endpoint, {})).status_code == 404
