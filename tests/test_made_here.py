"""Games made on a phone offline, sent later: an id is never used twice (a deleted game's stays
taken), a taken id gets the game under a new one and the phone is told, and sending is idempotent
for a phone with or without its cookie (known by the key the phone made with the game)."""

from tests.helpers import new_game_form

ID = 'Ph0ne-made_id-36'                  # not test_offline.py's: the sheet caches are the process's, by id
KEY = 'a-key-the-phone-made-with-its-game'
JSON = {'Accept': 'application/json', 'X-Keep': '1'}


def made(client, made_id=ID, key=KEY, players=('Ana', 'Bruno'), **headers):
    form = {**new_game_form(players), 'made_here': made_id, 'made_key': key}
    return client.post('/games/new', data=form, headers=headers or JSON)


def test_a_deleted_games_id_is_never_used_again(app, client, make_game):
    first = made(client).get_json()
    assert first == {'id': ID, 'sheet': f'/games/{ID}', 'made_here': ID, 'moved': False, 'table': None}
    assert client.post(f'/games/{ID}/delete').status_code == 302
    assert client.get(f'/games/{ID}').status_code == 404
    stranger = app.test_client()                                     # a stranger's phone, with the old id
    answer = made(stranger, key='another-phone-its-own-key-0000', players=('Zed', 'Yan')).get_json()
    assert answer['moved'] and answer['id'] != ID and answer['made_here'] == ID
    assert client.get(f'/games/{ID}').status_code == 404             # old links and QR codes open nothing
    assert stranger.get(answer['sheet']).status_code == 200
    assert stranger.get(f"{answer['sheet']}/rounds/1").status_code == 200     # its sender keeps score
    again = made(stranger, key='another-phone-its-own-key-0000', players=('Zed', 'Yan')).get_json()
    assert again['id'] == answer['id']                               # sent again: the same game
    # The phone that made the deleted game sends it again (an answer lost before the delete): it is told.
    gone = made(client)
    assert gone.status_code == 410 and 'deleted since' in gone.get_json()['errors']['form']


def test_a_taken_id_gets_the_game_under_a_new_one(app, client, make_game):
    url = make_game()
    taken = url.rsplit('/', 1)[1]
    answer = made(app.test_client(), made_id=taken).get_json()
    assert answer['moved'] and answer['id'] != taken
    assert client.get(f'{url}/export.json').get_json()['players'] == ['Ana', 'Bruno', 'Carla']   # untouched


def test_sending_again_without_the_cookie_is_the_same_game_and_keeps_score(app):
    """The first answer (with the cookie) was lost: the retry from the cookie-less phone is the same
    game, and that phone keeps score of it."""
    first = app.test_client()
    r = made(first, **{'X-Keep': '1'})
    assert r.status_code == 302 and r.headers['Location'] == f'/games/{ID}'
    retry = app.test_client()                                        # no cookie: the answer never arrived
    r = made(retry, **{'X-Keep': '1'})
    assert r.status_code == 302 and r.headers['Location'] == f'/games/{ID}'
    assert retry.get(f'/games/{ID}/rounds/1').status_code == 200
    assert retry.get('/').get_data(as_text=True).count(f'/games/{ID}"') == 1
    with app.app_context():
        from web import store
        from web.db import get_db
        assert len(store.list_games(get_db())) == 1                  # one game, not two
    assert made(app.test_client(), key='not-the-key-of-that-phone-000').get_json()['id'] != ID
