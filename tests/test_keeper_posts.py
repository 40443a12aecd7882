"""Every scorekeeper's POST goes through one gate (web/access.keeper_post): no such game 404, anyone
but the scorekeeper 403, a form that does not validate 400, and only then the action."""

import pytest

from tests.helpers import round_form

POSTS = [
    ('/rematch', {'today': '2026-11-30'}),
    ('/keeper-link', {}),
    ('/colours', {'colour-0': '1', 'colour-1': '2'}),
    ('/rounds/1/restore', {'history': '1', 'version': '2'}),
    ('/rounds/1/undo', {'version': '2'}),
    ('/seats/0/free', {}),
    ('/self-entry', {'allowed': '0'}),
]
BAD = {
    '/colours': {'colour-0': '99', 'colour-1': '2'},          # no such colour
    '/rounds/1/restore': {'history': 'x', 'version': '1'},
    '/rounds/1/undo': {'version': '-1'},
}


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
                store.seats_taken(db, game_id), store.rematch_of(db, game_id), store.edit_key_hash(db, game_id))


@pytest.mark.parametrize('path, data', POSTS, ids=[p for p, _ in POSTS])
def test_a_stranger_is_refused_and_nothing_changes(app, client, game, path, data):
    before = state(app, game)
    stranger = app.test_client()
    assert stranger.post(game + path, data=data).status_code == 403
    assert state(app, game) == before


def test_the_scorekeeper_changes_what_the_post_says(app, client, game):
    before = state(app, game)
    client.post(game + '/colours', data={'colour-0': '3', 'colour-1': '4'})
    client.post(game + '/self-entry', data={'allowed': '0'})
    client.post(game + '/rounds/1/undo', data={'version': '2'})
    after = state(app, game)
    assert after[1] == [3, 4] and after[2] is False and after[0] == before[0] + 3     # each a save


@pytest.mark.parametrize('path, data', POSTS, ids=[p for p, _ in POSTS])
def test_no_such_game_is_404(client, game, path, data):
    assert client.post('/games/nosuchgame' + path, data=data).status_code == 404


@pytest.mark.parametrize('path', sorted(BAD))
def test_a_form_that_does_not_validate_is_400(client, game, path):
    assert client.post(game + path, data=BAD[path]).status_code == 400


@pytest.mark.parametrize('path, data', POSTS, ids=[p for p, _ in POSTS])
def test_the_scorekeeper_gets_through(client, game, path, data):
    r = client.post(game + path, data=data)
    assert r.status_code in (200, 302), (path, r.status_code)
