"""Undo undoes only the game's last save, within UNDO_SECONDS, and only if nothing was saved after
it from any phone; otherwise it says why. The offer goes away everywhere once it no longer applies."""

import io
import re

from tests.helpers import hand_over, round_form


def export(client, url):
    return client.get(url + '/export.json').get_json()


def imports_back(client, url):
    """The game's own export imports again, as the same game."""
    data = client.get(url + '/export.json').get_data()
    r = client.post('/import', data={'game_file': (io.BytesIO(data), 'game.json')}, content_type='multipart/form-data')
    return r.status_code == 302


def test_a_stale_undo_from_another_phone_removes_nothing(app, client, make_game):
    url = make_game()
    other = app.test_client()
    assert hand_over(client, other, url).status_code == 302
    client.post(url + '/rounds/1', data=round_form(0, points=[None, '4', '5']))       # phone A saves round 1
    sheet = client.get(url).get_data(as_text=True)
    assert '/rounds/1/undo' in sheet                                                   # and is offered Undo
    other.post(url + '/rounds/2', data=round_form(1, points=['7', None, '3']))        # phone B saves round 2
    assert '/rounds/1/undo' not in client.get(url).get_data(as_text=True)             # the offer is gone
    r = client.post(url + '/rounds/1/undo', data={'version': '1'})                    # A taps the Undo it had
    assert r.status_code == 302
    page = client.get(url).get_data(as_text=True)
    assert 'Round 1 was not undone: round 2 was saved after it' in page
    assert [r['round'] for r in export(client, url)['rounds']] == [1, 2]               # both still there
    assert imports_back(client, url)
    # B's round 2 is the last save: B may undo it, and then nobody is offered another Undo.
    assert '/rounds/2/undo' in other.get(url).get_data(as_text=True)
    other.post(url + '/rounds/2/undo', data={'version': '1'})
    assert [r['round'] for r in export(client, url)['rounds']] == [1]
    for phone in (client, other):
        assert '/undo' not in phone.get(url).get_data(as_text=True)                   # no offer after an Undo
    r = client.post(url + '/rounds/1/undo', data={'version': '1'})                    # nor an undo of round 1
    assert 'round 2 was saved after it' in client.get(url).get_data(as_text=True)
    assert [r['round'] for r in export(client, url)['rounds']] == [1]
    assert imports_back(client, url)


def test_undo_after_its_minute_is_refused_and_says_why(app, client, make_game):
    url = make_game()
    client.post(url + '/rounds/1', data=round_form(0, points=[None, '4', '5']))
    with app.app_context():
        from web.db import get_db
        get_db().execute("update rounds set saved = '2020-01-01T00:00:00+00:00'")
    assert '/undo' not in client.get(url).get_data(as_text=True)
    client.post(url + '/rounds/1/undo', data={'version': '1'})
    assert 'Undo lasts 60 seconds after a save' in client.get(url).get_data(as_text=True)
    assert [r['round'] for r in export(client, url)['rounds']] == [1]


def test_the_live_sheet_tells_every_page_which_save_undo_may_undo(app, client, make_game):
    """Each page offering Undo compares the live sheet's mark of the last save with its own offer
    (static/js/app.js hides an offer that no longer applies)."""
    url = make_game()
    mark = lambda: re.search(r'data-last-save="([^"]*)"', client.get(url + '/live').get_data(as_text=True)).group(1)  # noqa: E731
    assert mark() == ''
    client.post(url + '/rounds/1', data=round_form(0, points=[None, '4', '5']))
    assert mark() == '1:1'
    offer = re.search(r'class="undo-save[^"]*"[^>]*data-last-save="([^"]+)"', client.get(url).get_data(as_text=True))
    assert offer.group(1) == '1:1'
    client.post(url + '/rounds/1', data=round_form(0, points=[None, '9', '5'], version=1))
    assert mark() == '1:2'
    client.post(url + '/rounds/1/undo', data={'version': '2'})
    assert mark() == ''                                                                 # an Undo is not offered again
    client.post(url + '/rounds/2', data=round_form(1, points=['3', None, '5']))
    assert 'data-last-save=""' in app.test_client().get(url + '/live').get_data(as_text=True)   # followers: nothing


def test_a_round_undone_to_nothing_and_saved_again_never_reuses_a_version(app, client, make_game):
    """A form made from the undone save (version 1) cannot overwrite the new first save."""
    url = make_game()
    other = app.test_client()
    hand_over(client, other, url)
    client.post(url + '/rounds/1', data=round_form(0, points=[None, '4', '5']))       # version 1
    client.post(url + '/rounds/1/undo', data={'version': '1'})                        # gone (version 2)
    other.post(url + '/rounds/1', data=round_form(1, points=['8', None, '2']))         # saved anew
    r = client.post(url + '/rounds/1', data=round_form(0, points=[None, '6', '5'], version=1))  # a stale edit
    assert r.status_code == 409
    assert export(client, url)['rounds'][0]['entries'][1] == {'player': 'Bruno', 'went_out': True}


def test_the_offer_goes_away_on_every_phone_once_another_phone_saves(browser, server):
    from tests.browser import expect, phone, save_by_points, share_keeping, start_game
    first, second = phone(browser), phone(browser)
    page = first.new_page()
    url = start_game(page, server.url, ['Ana', 'Bruno', 'Carla', 'Dan'])
    share_keeping(first, second, url)
    sheet = first.new_page()
    page.goto(url + '/rounds/1')
    page.locator('#went_out-0').check()
    for seat in (1, 2, 3):
        page.locator(f'#entries-{seat}-points').fill('5')
    page.locator('.save-bar button').click()
    saved = page.locator('.result form.undo-save')
    expect(saved.get_by_role('button', name='Undo')).to_be_visible()
    sheet.goto(url)
    expect(sheet.locator('form.undo-save').get_by_role('button', name='Undo')).to_be_visible()
    box = saved.bounding_box()
    save_by_points(second, url, 2)                                          # the other phone saves round 2
    expect(saved).to_have_class('undo-save inline over')                    # gone on the round page
    expect(sheet.locator('form.undo-save')).to_have_class('undo-save inline over')   # and on the sheet
    expect(saved.get_by_role('button', name='Undo')).to_be_hidden()
    assert saved.bounding_box() == box                                      # its place kept: nothing moves
    assert first.errors == [] and second.errors == []
    first.close()
    second.close()


def test_undo_keeps_the_hands_players_sent_says_nothing_false_and_one_tap_puts_it_back(app, client, make_game):
    """Bruno and Carla sent their hands from their phones; round 1 is saved, then undone: the round
    page has their hands again, "my hand" (following round 2 when the Undo came) says the save was
    undone and shows Bruno his hand, never that round 2 was saved; the sheet and the round page offer
    Redo, one tap that puts back what was undone."""
    url = make_game(('Ana', 'Bruno', 'Carla'))
    bruno, carla = app.test_client(), app.test_client()
    for phone, seat, cards in ((bruno, 1, 'KH 5C 7D'), (carla, 2, '9S 9D 2C')):
        phone.post(f'{url}/seats/{seat}')
        assert phone.post(url + '/hand', data={'round': '1', 'cards': cards}).status_code == 303
    page = client.get(url + '/rounds/1').get_data(as_text=True)
    form = {'went_out': '0', 'version': '0', 'entries-0-cards': '', 'entries-0-points': '0',
            **{f'entries-{i}-{k}': re.search(f'name="entries-{i}-{k}"[^>]*value="([^"]*)"', page).group(1)
               for i in (1, 2) for k in ('cards', 'points')}}
    assert client.post(url + '/rounds/1', data=form).status_code == 302
    assert 'Round 2' in bruno.get(url + '/hand').get_data(as_text=True)
    assert client.post(url + '/rounds/1/undo', data={'version': '1'}).status_code == 302
    assert export(client, url)['rounds'] == []
    page = client.get(url + '/rounds/1').get_data(as_text=True)
    assert 'value="K♥ 5♣ 7♦"' in page and 'value="9♠ 9♦ 2♣"' in page                    # their hands are back
    assert 'Bruno: </span>entered on their own phone' in page and 'Carla: </span>entered on their own phone' in page
    hand = bruno.get(url + '/hand?after=2').get_data(as_text=True)                     # "my hand" moved back
    assert 'The scorekeeper undid the save of round 1: it is being entered again.' in hand
    assert 'saved round 2' not in hand and 'K♥ 5♣ 7♦' in hand and '22 points' in hand
    sheet = client.get(url).get_data(as_text=True)
    assert 'Round 1 undone.' in sheet and '>Redo</button>' in sheet                   # the way back, in sight
    assert '>Redo</button>' in page
    history = re.search(r'class="undo-save redo inline"[^>]*>.*?name="history" value="(\d+)".*?name="version" value="(\d+)"',
                        sheet, re.S)
    r = client.post(url + '/rounds/1/restore', data={'history': history.group(1), 'version': history.group(2)})
    assert r.status_code == 302 and r.headers['Location'].endswith('/rounds/1?saved=1')
    assert export(client, url)['sheet']['totals'] == {'Ana': 0, 'Bruno': 22, 'Carla': 20}
    assert '>Redo</button>' not in client.get(url).get_data(as_text=True)               # nothing left to redo
    assert '/rounds/1/undo' in client.get(url).get_data(as_text=True)                  # and it can be undone again
