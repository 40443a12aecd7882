"""The web app as a scorekeeper uses it: new game, the sheet, entering and editing rounds, export, import."""

import io
import json
import re

import pytest

from app import create_app
from tests.helpers import new_game_form, play_rounds, round_form, save_confirmed


def test_index_lists_games_and_offers_a_new_one(client, make_game):
    r = client.get('/')
    assert r.status_code == 200
    assert 'New game' in r.get_data(as_text=True) and 'No game in progress' in r.get_data(as_text=True)
    make_game(('Ana', 'Bruno'))
    assert '<bdi>Ana</bdi>, <bdi>Bruno</bdi>' in client.get('/').get_data(as_text=True)


def test_new_game_form_shows_every_setting_with_its_explanation(client):
    page = client.get('/games/new').get_data(as_text=True)
    for label in ('Seat 1', 'Seat 8', 'First dealer', 'Decks', 'Aces', 'Wilds per meld', 'All-wild melds',
                  'Unmelded joker', 'Double last round', 'Ties', 'Face cards'):
        assert label in page
    assert 'Q‑K‑A too' in page


def test_new_game_sets_first_dealer_and_decks(client, make_game):
    url = make_game(('Ana', 'Bruno', 'Carla'), first_dealer=1)
    page = client.get(url).get_data(as_text=True)
    assert 'Round 1' in page and '3 cards' in page and 'Threes are wild' in page
    assert '<bdi>Bruno</bdi> deals' in page
    seven = make_game(tuple('ABCDEFG'))
    export = client.get(seven + '/export.json').get_json()
    assert export['rules']['decks'] == 3


def test_first_dealer_can_be_drawn(client, make_game):
    url = make_game(('Ana', 'Bruno'), first_dealer='draw')
    assert client.get(url + '/export.json').get_json()['first_dealer'] in (0, 1)


def post_new(client, players, **settings):
    return client.post('/games/new', data=new_game_form(players, **settings))


def test_new_game_errors_keep_what_was_typed(client):
    r = post_new(client, ['Ana'])
    assert r.status_code == 422
    page = r.get_data(as_text=True)
    assert 'A game has 2 to 8 players, not 1.' in page              # a whole line: a sentence
    assert 'value="Ana"' in page
    assert "Two players are called &#39;ana&#39;." in post_new(client, ['Ana', ' ana ']).get_data(as_text=True)
    assert 'Seat 3 has no player.' in post_new(client, ['Ana', 'Bruno'], first_dealer=2).get_data(as_text=True)
    r = post_new(client, list('ABCDEFGH'), decks=2)
    assert '8 players need 105 cards in the last round' in r.get_data(as_text=True)
    assert 'choose 3 decks' in r.get_data(as_text=True)
    r = post_new(client, ['Ana', 'B' * 31])
    assert r.status_code == 422


def test_names_are_trimmed_and_escaped(client, make_game):
    url = make_game(('  Ana  ', '<script>alert(1)</script>'))
    page = client.get(url).get_data(as_text=True)
    assert '<script>alert(1)</script>' not in page
    assert '&lt;script&gt;alert(1)&lt;/script&gt;' in page
    assert client.get(url + '/export.json').get_json()['players'][0] == 'Ana'


def test_enter_a_round_and_see_the_sheet(client, make_game):
    url = make_game()
    r = client.post(url + '/rounds/1', data=round_form(0, cards=[None, 'KH 5C 7D'], points=[None, None, '10+2']))
    assert r.status_code == 302
    page = client.get(r.headers['Location']).get_data(as_text=True)
    assert 'Round 1 saved' in page and 'Scored' in page
    assert 'minimal penalty of K♥ 5♣ 7♦' in page
    sheet = client.get(url).get_data(as_text=True)
    assert 'Round 2' in sheet and '4 cards' in sheet and 'Fours are wild' in sheet
    export = client.get(url + '/export.json').get_json()
    assert export['sheet']['totals'] == {'Ana': 0, 'Bruno': 22, 'Carla': 12}
    assert export['rounds'][0]['entries'][2] == {'player': 'Carla', 'points': 12}


def test_a_bad_round_keeps_everything_typed_and_names_the_problem(client, make_game):
    url = make_game()
    r = client.post(url + '/rounds/1', data=round_form(1, cards=['7H 1X', '7S 9C'], points=[None, None, 'lots']))
    assert r.status_code == 422
    page = r.get_data(as_text=True)
    assert 'Nothing was saved' in page
    assert 'Ana: &#39;1X&#39; is not a card' in page
    assert 'Bruno went out but 7♠ 9♣ do not meld' in page
    assert 'Carla: &#39;lots&#39; is not a number of points' in page
    assert 'value="7H 1X"' in page and 'value="7S 9C"' in page and 'value="lots"' in page
    assert re.search(r'<input checked id="went_out-1" name="went_out" type="checkbox" value="1">', page)
    assert page.count('aria-invalid="true"') == 3
    assert client.get(url + '/export.json').get_json()['rounds'] == []


def test_rounds_are_entered_in_order_and_unknown_ones_are_404(client, make_game):
    url = make_game(('Ana', 'Bruno'))
    r = client.get(url + '/rounds/3')
    assert r.status_code == 302 and r.headers['Location'].endswith('/rounds/1')
    assert client.get(url + '/rounds/12').status_code == 404
    assert client.get('/games/nope').status_code == 404
    assert client.get('/games/nope/rounds/1').status_code == 404


def test_editing_an_earlier_round_recalculates_and_keeps_history(client, make_game):
    url = make_game(('Ana', 'Bruno'))
    client.post(url + '/rounds/1', data=round_form(0, points=[None, '9']))
    client.post(url + '/rounds/2', data=round_form(1, points=['4']))
    assert client.get(url + '/export.json').get_json()['sheet']['totals'] == {'Ana': 4, 'Bruno': 9}
    page = client.get(url + '/rounds/1').get_data(as_text=True)
    assert 'value="9"' in page                                   # the saved entry is there to edit
    save_confirmed(client, url, 1, round_form(0, cards=[None, 'QS QD'], version=1))
    assert client.get(url + '/export.json').get_json()['sheet']['totals'] == {'Ana': 4, 'Bruno': 20}
    assert 'Earlier version of this round (1)' in client.get(url + '/rounds/1').get_data(as_text=True)


def test_a_whole_game_ends_with_the_winner(client, make_game):
    url = make_game(('Ana', 'Bruno'))
    play_rounds(client, url, 11, 2, points=5)
    page = client.get(url).get_data(as_text=True)
    # Ana goes out in even rounds (5 of them), Bruno in odd ones (6): Ana 30, Bruno 25.
    assert 'Game over.' in page and 'Bruno wins with 25' in page
    index = client.get('/').get_data(as_text=True)
    assert 'No game in progress' in index and '<bdi>Bruno</bdi> wins with 25' in index         # the winner, not 'round 11 of 11'
    assert 'round 11 of 11' not in index


def test_export_and_import_round_trip(client, make_game):
    url = make_game(('Ana', 'Bruno'))
    client.post(url + '/rounds/1', data=round_form(0, cards=[None, 'KH 5C 7D']))
    r = client.get(url + '/export.json')
    assert 'attachment' in r.headers['Content-Disposition']
    exported = r.get_json()
    r = client.post('/import', data={'game_file': (io.BytesIO(json.dumps(exported).encode()), 'game.json')},
                    content_type='multipart/form-data')
    assert r.status_code == 302
    again = client.get(r.headers['Location'] + '/export.json').get_json()
    assert again == exported


def test_import_errors_store_nothing(client):
    for body, message in [(b'{oops', 'not JSON'), (b'{"version": 1, "players": ["A"]}', 'a game has 2 to 8 players')]:
        r = client.post('/import', data={'game_file': (io.BytesIO(body), 'g.json')},
                        content_type='multipart/form-data')
        assert r.status_code == 400
        assert 'Nothing was imported' in r.get_data(as_text=True) and message in r.get_data(as_text=True)
    r = client.post('/import', data={}, content_type='multipart/form-data')
    assert r.status_code == 400 and 'Choose a game file' in r.get_data(as_text=True)
    assert 'No game in progress' in client.get('/').get_data(as_text=True)


def test_every_post_needs_the_csrf_token(tmp_path):
    app = create_app({'TESTING': True, 'DATABASE': str(tmp_path / 'c.sqlite'), 'SECRET_KEY': 'x'})
    client = app.test_client()
    r = client.post('/games/new', data=new_game_form(['Ana', 'Bruno']))
    assert r.status_code == 400 and 'Form expired' in r.get_data(as_text=True)
    page = client.get('/games/new').get_data(as_text=True)
    token = page.split('name="csrf_token" type="hidden" value="')[1].split('"')[0]
    r = client.post('/games/new', data={**new_game_form(['Ana', 'Bruno']), 'csrf_token': token})
    assert r.status_code == 302
    assert app.config['WTF_CSRF_TIME_LIMIT'] is None


def test_secret_key_is_made_once_with_private_permissions(tmp_path, monkeypatch):
    import os
    monkeypatch.delenv('SCORER_SECRET_KEY', raising=False)
    app = create_app({'TESTING': True, 'DATABASE': str(tmp_path / 'k.sqlite')})
    path = tmp_path / 'secret_key'                                    # beside the database
    assert oct(os.stat(path).st_mode & 0o777) == '0o600'
    assert create_app({'TESTING': True, 'DATABASE': str(tmp_path / 'k.sqlite')}).config['SECRET_KEY'] == \
        app.config['SECRET_KEY']


def test_a_game_is_dated_by_the_phones_calendar(client):
    # 21:30 on 28 November in Chicago is already 29 November in UTC: the phone's date wins.
    r = client.post('/games/new', data={**new_game_form(['Ana', 'Bruno']), 'today': '2026-11-28'})
    export = client.get(r.headers['Location'] + '/export.json').get_json()
    assert export['date'] == '2026-11-28'


def test_a_game_without_the_phones_date_takes_the_servers_local_day(client, monkeypatch):
    from web import store
    monkeypatch.setattr(store, 'local_day', lambda: '2026-01-02')
    for today in ('', '2026-13-45', 'yesterday'):
        r = client.post('/games/new', data={**new_game_form(['Ana', 'Bruno']), 'today': today})
        assert client.get(r.headers['Location'] + '/export.json').get_json()['date'] == '2026-01-02'


@pytest.mark.parametrize('host, local', [('127.0.0.1:5000', True), ('localhost', True), ('[::1]:5000', True),
                                         ('192.168.1.20:5000', False), ('scores.example', False), ('[', False)])
def test_the_share_box_warns_when_the_address_only_works_on_this_computer(host, local):
    from web.context import loopback
    assert loopback(host) is local


def test_the_last_save_shows_the_winner_and_a_rematch_keeps_the_table(client, make_game):
    url = make_game(('Ana', 'Bruno', 'Carla'), game='short')              # 8 rounds
    r = play_rounds(client, url, 8, 3, points=4)
    page = client.get(r.headers['Location']).get_data(as_text=True)
    assert 'Game over.' in page and 'Rematch' in page
    assert re.search(r'<strong>\w+ wins with \d+|tie on', page)
    r = client.post(url + '/rematch', data={'today': '2026-11-30'})
    assert r.status_code == 302 and r.headers['Location'] != url
    new = client.get(r.headers['Location'] + '/export.json').get_json()
    old = client.get(url + '/export.json').get_json()
    assert new['players'] == old['players'] and new['rules'] == old['rules'] and new['rounds'] == []
    # The short game's 8 rounds were dealt by seats 0,1,2,0,1,2,0,1: seat 2 deals next.
    assert old['first_dealer'] == 0 and new['first_dealer'] == 2 and new['date'] == '2026-11-30'


def test_the_new_game_form_suggests_names_used_on_this_phone(app, client, make_game):
    make_game(('Zoë', 'Bruno'))
    page = client.get('/games/new').get_data(as_text=True)
    assert '<datalist id="known-names">' in page and '<option value="Zoë">' in page
    assert '<option value="Zoë">' not in app.test_client().get('/games/new').get_data(as_text=True)


def test_before_any_round_the_standings_rank_nobody(client, make_game):
    """Issue 27: the table says '–' before round 1, and so do the standings (not 1, 1, 1); issue 39:
    with no figure either (not "0 points · 0 zero rounds" for everyone), here and on the big screen."""
    url = make_game(('Ana', 'Bruno', 'Carla'))
    page = client.get(url).get_data(as_text=True)
    assert page.count('<span class="place">–</span>') == 3 and '<span class="place">1</span>' not in page
    assert '0 points' not in page and '0 zero rounds' not in page
    big = client.get(url + '/tv').get_data(as_text=True)
    assert big.count('<span class="place">–</span>') == 3 and 'zero round' not in big and 'class="total"' not in big
    client.post(url + '/rounds/1', data=round_form(0, points=[None, '5', '7']))
    assert '<span class="place">1</span>' in client.get(url).get_data(as_text=True)


def test_the_list_says_the_round_played_now_as_the_sheet_does(client, make_game):
    """Issue 39: the list said "round 5 of 11" of the game whose sheet says "Round 6 of 11"."""
    url = make_game(('Ana', 'Bruno'))
    assert 'round 1 of 11' in client.get('/').get_data(as_text=True)
    play_rounds(client, url, 5, 2, went_out=0, points=lambda seat, n: n)
    assert 'Round 6 <span class="quiet">of 11</span>' in client.get(url).get_data(as_text=True)
    listed = client.get('/').get_data(as_text=True)
    assert 'round 6 of 11' in listed and 'round 5 of 11' not in listed


def test_over_https_a_refused_post_says_why_not_form_expired(tmp_path):
    """Over HTTPS a form must come with its page's Referer (Flask-WTF's check): a post without one,
    one from another site's page, or one sent as JSON or plain text is told that, not "Form expired"."""
    app = create_app({'TESTING': True, 'DATABASE': str(tmp_path / 'c.sqlite'), 'SECRET_KEY': 'x'})
    client = app.test_client()
    https = 'https://localhost'
    page = client.get('/games/new', base_url=https).get_data(as_text=True)
    token = page.split('name="csrf_token" type="hidden" value="')[1].split('"')[0]
    form = {**new_game_form(['Ana', 'Bruno']), 'csrf_token': token}
    here = {'Referer': https + '/games/new'}
    refused = {
        'which page it came from': client.post('/games/new', data=form, base_url=https),
        "another site's page": client.post('/games/new', data=form, base_url=https,
                                            headers={'Referer': 'https://elsewhere.example/games/new'}),
        'it came as application/json': client.post('/games/new', json=form, base_url=https, headers=here),
        'it came as text/plain': client.post('/games/new', data='players-0=Ana', content_type='text/plain',
                                             base_url=https, headers=here),
    }
    for words, r in refused.items():
        text = r.get_data(as_text=True)
        assert r.status_code == 400 and words in text and 'Form expired' not in text, words
    assert client.post('/games/new', data=form, base_url=https, headers=here).status_code == 302
