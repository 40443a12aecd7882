"""Nothing odd is saved silently: a short hand, nobody gone out or two gone out come back with the
reason named and are saved only once confirmed; a hand is filed only in the round it was entered
for; and a save can be undone right after. All on the server, so it holds without JavaScript."""

import re

import pytest

from tests.helpers import play_rounds, round_form


def confirmation(page):
    """The value of the page's confirmation checkbox (the key of the doubts it lists)."""
    return re.search(r'name="confirm" value="([0-9a-f]+)"', page).group(1)


def rounds(client, url):
    return client.get(url + '/export.json').get_json()['rounds']


@pytest.mark.parametrize('form, reason', [
    (round_form(0, cards=[None, '7H 8H'], points=[None, None, '5']), 'Bruno: 2 of 3 cards'),
    (round_form('', points=['1', '2', '3']), 'nobody went out'),
    ({**round_form(0, points=[None, None, '5']), 'went_out': ['0', '1']}, 'Ana and Bruno both went out'),
])
def test_an_odd_round_is_kept_only_after_a_deliberate_confirmation(client, make_game, form, reason):
    url = make_game()
    r = client.post(url + '/rounds/1', data=form)
    page = r.get_data(as_text=True)
    assert r.status_code == 422
    assert reason in page and 'is not saved yet' in page
    assert rounds(client, url) == []
    for field, value in form.items():                            # what was typed stays in the form
        if field.startswith('entries-') and value:
            assert f'value="{value}"' in page
    r = client.post(url + '/rounds/1', data={**form, 'confirm': confirmation(page)})
    assert r.status_code == 302
    assert len(rounds(client, url)) == 1


def test_a_confirmation_for_other_doubts_does_not_save(client, make_game):
    url = make_game()
    first = round_form(0, cards=[None, '7H 8H'], points=[None, None, '5'])
    key = confirmation(client.post(url + '/rounds/1', data=first).get_data(as_text=True))
    changed = round_form(0, cards=[None, '7H'], points=[None, None, '5'])          # now 1 of 3 cards
    r = client.post(url + '/rounds/1', data={**changed, 'confirm': key})
    assert r.status_code == 422 and 'Bruno: 1 of 3 cards' in r.get_data(as_text=True)
    assert rounds(client, url) == []


def test_a_whole_round_needs_no_confirmation_and_went_out_is_one_checkbox_a_seat(client, make_game):
    url = make_game()
    page = client.get(url + '/rounds/1').get_data(as_text=True)
    assert re.search(r'<input id="went_out-1" name="went_out" type="checkbox" value="1">', page)
    r = client.post(url + '/rounds/1', data=round_form(0, cards=[None, '7H 8H 9H'], points=[None, None, '5']))
    assert r.status_code == 302


def test_a_hand_is_filed_only_in_the_round_it_was_entered_for(client, make_game):
    url = make_game()
    client.post(url + '/seats/1')
    page = client.get(url + '/hand').get_data(as_text=True)
    assert 'name="round" type="hidden" value="1"' in page
    client.post(url + '/rounds/1', data=round_form(0, points=[None, '4', '5']))   # the keeper saves round 1
    r = client.post(url + '/hand', data={'round': '1', 'cards': 'KH 5C 7D 9S'})
    page = r.get_data(as_text=True)
    assert r.status_code == 409
    assert 'The scorekeeper saved round 1 meanwhile: this is round 2. Nothing was sent.' in page
    assert 'KH 5C 7D 9S' in page                                              # what was sent is shown
    assert 'name="round" type="hidden" value="2"' in page
    assert client.get(url + '/rounds/2/drafts').get_json() == {}
    r = client.post(url + '/hand', data={'cards': 'KH 5C 7D 9S'})            # no round said: refused too
    assert r.status_code == 409
    r = client.post(url + '/hand', data={'round': '2', 'cards': 'KH 5C 7D 9S'})
    assert r.status_code == 303
    assert client.get(url + '/rounds/2/drafts').get_json()['1']['cards'] == 'K♥ 5♣ 7♦ 9♠'    # read alike in any language


def test_a_page_that_followed_a_round_saved_elsewhere_says_so(client, make_game):
    url = make_game()
    client.post(url + '/seats/1')
    client.post(url + '/rounds/1', data=round_form(0, points=[None, '4', '5']))
    assert 'The scorekeeper saved round 1: this is round 2' in client.get(url + '/hand?after=1').get_data(as_text=True)
    page = client.get(url + '/rounds/2?after=1').get_data(as_text=True)
    assert 'Round 1 was saved from another phone: this is round 2.' in page


def test_undo_right_after_a_save_puts_the_round_back(client, make_game):
    url = make_game()
    client.post(url + '/rounds/1', data=round_form(0, points=[None, '4', '5']))
    sheet = client.get(url).get_data(as_text=True)
    assert 'Round 1 saved.' in sheet and '/rounds/1/undo' in sheet
    client.post(url + '/rounds/1', data=round_form(0, points=[None, '9', '5'], version=1))
    assert rounds(client, url)[0]['entries'][1] == {'player': 'Bruno', 'points': 9}
    r = client.post(url + '/rounds/1/undo', data={'version': '2'})
    assert r.status_code == 302
    assert rounds(client, url)[0]['entries'][1] == {'player': 'Bruno', 'points': 4}     # the version before
    r = client.post(url + '/rounds/1/undo', data={'version': '2'})                      # stale: refused
    assert 'nothing was undone' in client.get(url).get_data(as_text=True)
    client.post(url + '/rounds/1/undo', data={'version': '3'})                           # undo the undo
    assert rounds(client, url)[0]['entries'][1] == {'player': 'Bruno', 'points': 9}


def test_undo_of_a_first_save_leaves_the_round_to_enter_and_keeps_it_in_history(client, make_game):
    url = make_game()
    client.post(url + '/rounds/1', data=round_form(0, points=[None, '4', '5']))
    client.post(url + '/rounds/1/undo', data={'version': '1'})
    assert rounds(client, url) == []
    page = client.get(url + '/rounds/1').get_data(as_text=True)
    assert 'Earlier version of this round (1)' in page and '4 points' in page


def test_undo_is_the_scorekeepers_and_is_offered_a_minute_only(app, client, make_game):
    url = make_game()
    client.post(url + '/rounds/1', data=round_form(0, points=[None, '4', '5']))
    other = app.test_client()
    assert other.post(url + '/rounds/1/undo', data={'version': '1'}).status_code == 403
    with app.app_context():
        from web.db import get_db
        get_db().execute("update rounds set saved = '2020-01-01T00:00:00+00:00'")
    assert '/undo' not in client.get(url).get_data(as_text=True)


def test_followers_of_a_finished_game_get_one_tap_to_the_rematch_in_their_seat(app, client, make_game):
    url = make_game(('Ana', 'Bruno'))
    follower = app.test_client()
    follower.post(url + '/seats/1')                                            # Bruno's phone
    play_rounds(client, url, 11, 2, went_out=0, points=4)
    page = follower.get(url).get_data(as_text=True)
    assert 'Playing? Take your seat' not in page
    assert re.search(r'id="follow-rematch" class="banner done" hidden', page)
    new = client.post(url + '/rematch').headers['Location']
    assert re.search(r'id="follow-rematch" class="banner done">', follower.get(url).get_data(as_text=True))
    r = follower.post(url + '/follow-rematch')
    assert r.headers['Location'] == new
    page = follower.get(new).get_data(as_text=True)
    assert 'You are <bdi>Bruno</bdi>.' in page
    assert page.index('Enter my hand') < page.index('id="live"')                # at the top of the sheet


def test_a_spanish_table_types_clubs_with_a_t_and_hearts_with_a_c(client, make_game):
    """Typed on a Spanish page, 7C is the 7 of corazones the player holds, KT the king of tréboles;
    it is kept in canonical text (7H), and shown back with symbols, which read alike everywhere."""
    url = make_game(('Ana', 'Bruno'))
    es = {'Accept-Language': 'es'}
    r = client.post(url + '/rounds/1?lang=es', data=round_form(0, cards=[None, '7C KT 2P']), headers=es)
    assert r.status_code == 302, r.get_data(as_text=True)[-600:]
    assert client.get(url + '/export.json').get_json()['rounds'][0]['entries'][1]['cards'] == '7H KC 2S'
    page = client.get(url + '/rounds/1?lang=es', headers=es).get_data(as_text=True)
    assert 'value="7♥ K♣ 2♠"' in page
    assert 'Letras: P o E\u00a0♠ · C\u00a0♥ · D\u00a0♦ · T\u00a0♣ · R\u00a0=\u00a0K' in page, 'the letters the page reads, beside the field'
