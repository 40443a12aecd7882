"""Who keeps score: every scorekeeper sees which browsers keep score of the game (this phone, and
each other with what it is and when it joined), can take another's scorekeeping away, and makes a
scorekeeper link that shares the scorekeeping or hands it over. Only browser tokens the server
issued count: a token planted by another site or a network gets no rights."""

import re

from tests.helpers import keeper_key, new_game_form, round_form

ANDROID = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36'
IPHONE = ('Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) '
          'Version/18.1 Mobile/15E148 Safari/604.1')


def keepers(client, url):
    """The list of who keeps score, as the sheet shows it: [(who, what it is and since when)]."""
    page = client.get(url).get_data(as_text=True)
    section = page[page.index('id="keepers"'):page.index('</section>', page.index('id="keepers"'))]
    return [re.sub(r'\s+', ' ', re.sub('<[^>]+>', ' ', item)).strip() for item in re.findall(r'<li.*?</li>', section, re.S)]


def link(keeper, url, mode):
    page = keeper.post(url + '/keeper-link', data={'mode': mode}).get_data(as_text=True)
    return page, re.search(r'/keeper#([^"]+)"', page).group(1)


def test_the_sheet_lists_who_keeps_score_and_a_keeper_removes_another(app, client, make_game):
    client.environ_base['HTTP_USER_AGENT'] = ANDROID
    url = make_game()
    other = app.test_client()
    other.environ_base['HTTP_USER_AGENT'] = IPHONE
    page, key = link(client, url, 'share')
    assert 'the phone that opens it keeps score too' in page
    r = other.post(url + '/keeper', data={'key': key})
    assert 'The phone that shared the link does too.' in other.get(r.headers['Location']).get_data(as_text=True)
    mine, theirs = keepers(client, url)
    assert mine.startswith('This phone · Chrome on Android since ') and mine.endswith('made the game')
    assert theirs.startswith('Another phone · Safari on iPhone since ') and 'opened a scorekeeper link' in theirs
    assert keepers(other, url)[1].startswith('This phone · Safari on iPhone')
    assert 'Stop it keeping score' in theirs and 'Stop it keeping score' not in mine      # never oneself
    # Both keep score, until one takes the other's away.
    assert other.post(url + '/rounds/1', data=round_form(0, points=[None, '4', '5'])).status_code == 302
    handle = re.findall(r'name="handle" value="([^"]+)"', client.get(url).get_data(as_text=True))
    assert len(handle) == 1
    r = client.post(url + '/keepers/remove', data={'handle': handle[0]})
    assert 'That phone no longer keeps score of this game.' in client.get(r.headers['Location']).get_data(as_text=True)
    assert other.post(url + '/rounds/2', data=round_form(1, points=['3', None, '5'])).status_code == 403
    assert other.get(url + '/rounds/2').status_code == 403
    assert 'following this game live' in other.get(url).get_data(as_text=True)
    assert '<bdi>Ana</bdi>' not in other.get('/').get_data(as_text=True)          # not in its list any more
    assert len(keepers(client, url)) == 1
    r = client.post(url + '/keepers/remove', data={'handle': handle[0]})           # again: nothing to remove
    assert 'nothing changed' in client.get(r.headers['Location']).get_data(as_text=True)
    assert app.test_client().post(url + '/keepers/remove', data={'handle': handle[0]}).status_code == 403


def test_a_handover_link_moves_the_scorekeeping_and_says_so(app, client, make_game):
    url = make_game()
    other, late = app.test_client(), app.test_client()
    page, key = link(client, url, 'handover')
    assert 'the phone that opens it keeps score instead of this one' in page
    r = other.post(url + '/keeper', data={'key': key})
    assert 'The phone that handed it over no longer does.' in other.get(r.headers['Location']).get_data(as_text=True)
    assert other.get(url + '/rounds/1').status_code == 200
    assert client.get(url + '/rounds/1').status_code == 403                       # the giving phone stopped
    assert client.post(url + '/keeper-link').status_code == 403
    assert late.post(url + '/keeper', data={'key': key}).status_code == 403       # a handover link works once
    assert len(keepers(other, url)) == 1 and keepers(other, url)[0].startswith('This phone')
    assert 'was handed the game' in keepers(other, url)[0]


def test_a_new_link_stops_the_old_one_but_not_the_phones_that_used_it(app, client, make_game):
    url = make_game()
    other, late = app.test_client(), app.test_client()
    stale = keeper_key(client, url)
    other.post(url + '/keeper', data={'key': stale})
    keeper_key(client, url)                                                       # a new link
    assert late.post(url + '/keeper', data={'key': stale}).status_code == 403
    assert other.get(url + '/rounds/1').status_code == 200                        # still keeps score: listed,
    assert len(keepers(client, url)) == 2                                          # and removable from the sheet


def test_a_token_the_server_never_issued_gets_no_rights(app, client):
    """A `browser` cookie planted before a game is made (a plain-HTTP network, a sibling subdomain)
    is replaced by one the server issues: whoever planted it keeps nothing."""
    planted = 'planted-by-someone-else-0123456789abcdef'
    victim, attacker = app.test_client(), app.test_client()
    victim.set_cookie('browser', planted)
    attacker.set_cookie('browser', planted)
    r = victim.post('/games/new', data=new_game_form(['Ana', 'Bruno']))
    url = r.headers['Location']
    assert victim.get_cookie('browser').value != planted                          # a token of the server's own
    assert victim.get(url + '/rounds/1').status_code == 200
    assert attacker.get(url + '/rounds/1').status_code == 403
    assert '<bdi>Ana</bdi>' not in attacker.get('/').get_data(as_text=True)
    forged = victim.get_cookie('browser').value[:-2] + 'xx'                        # a signature that is not the server's
    attacker.set_cookie('browser', forged)
    assert attacker.get(url + '/rounds/1').status_code == 403


def test_under_https_the_cookie_is_host_prefixed(app, client):
    r = client.post('/games/new', data=new_game_form(['Ana', 'Bruno']), base_url='https://localhost')
    cookies = [c for c in r.headers.getlist('Set-Cookie') if 'browser=' in c]
    assert len(cookies) == 1 and cookies[0].startswith('__Host-browser=')
    assert '; Secure' in cookies[0] and '; Path=/' in cookies[0] and 'Domain' not in cookies[0]
    url = r.headers['Location']
    assert client.get(url + '/rounds/1', base_url='https://localhost').status_code == 200
    # A plain `browser` cookie under HTTPS (any host on the network could set it, with a token the
    # server issued to whoever planted it) is never taken as this browser's token.
    attacker, victim = app.test_client(), app.test_client()
    attacker.post('/games/new', data=new_game_form(['Zed', 'Yan']))                # a token of its own, over HTTP
    planted = attacker.get_cookie('browser').value
    victim.set_cookie('browser', planted)
    r = victim.post('/games/new', data=new_game_form(['Ana', 'Bruno']), base_url='https://localhost')
    mine = r.headers['Location']
    assert victim.get_cookie('__Host-browser', domain='localhost').value != planted
    assert victim.get(mine + '/rounds/1', base_url='https://localhost').status_code == 200
    assert attacker.get(mine + '/rounds/1').status_code == 403


def test_a_token_of_an_earlier_version_keeps_its_games_under_a_new_one(app, client, make_game):
    """Browsers of the version before held an unsigned token: its games become the browser's own
    under a signed token (the old one still holds them, so a lost answer loses nothing)."""
    from web import store
    url = make_game()
    game_id = url.rsplit('/', 1)[1]
    old_token = 'an-unsigned-token-from-before-0000'
    with app.app_context():
        from web.db import get_db
        store.keep(get_db(), store.key_hash(old_token), [game_id])
    before = app.test_client()
    before.set_cookie('browser', old_token)
    assert '<bdi>Ana</bdi>' in before.get('/').get_data(as_text=True)
    new_token = before.get_cookie('browser').value
    assert new_token != old_token and new_token.count('.') == 1
    assert before.get(url + '/rounds/1').status_code == 200
    assert len(keepers(client, url)) == 2                                         # the old browser, listed once


def test_removal_is_final_until_a_keeper_makes_a_new_link(app, client, make_game):
    """A removed phone cannot come back with the link it came by (posted again, or as the cookie of an
    earlier version in a fresh browser): taking a phone's scorekeeping away ends the link. Only a new
    link, made by a scorekeeper, lets anyone in again."""
    url = make_game()
    game_id = url.rsplit('/', 1)[1]
    removed = app.test_client()
    key = keeper_key(client, url)
    removed.post(url + '/keeper', data={'key': key})
    assert removed.get(url + '/rounds/1').status_code == 200
    handle = re.findall(r'name="handle" value="([^"]+)"', client.get(url).get_data(as_text=True))[0]
    r = client.post(url + '/keepers/remove', data={'handle': handle})
    said = client.get(r.headers['Location']).get_data(as_text=True)
    r = removed.post(url + '/keeper', data={'key': key})
    assert r.status_code == 403 and 'That is not the key of this game' in r.get_data(as_text=True)
    assert removed.get(url + '/rounds/1').status_code == 403
    fresh = app.test_client()
    fresh.set_cookie(f'keeper_{game_id}', key)
    assert fresh.get(url + '/rounds/1').status_code == 403
    assert fresh.post(url + '/rounds/1', data=round_form(0, points=[None, '4', '5'])).status_code == 403
    assert len(keepers(client, url)) == 1
    assert 'The scorekeeper link stopped working too' in said
    again = keeper_key(client, url)                                               # a new link admits again
    assert removed.post(url + '/keeper', data={'key': again}).status_code == 302
    assert removed.get(url + '/rounds/1').status_code == 200


def test_no_other_keeper_can_remove_the_phone_that_made_the_game(app, client, make_game):
    url = make_game()
    other = app.test_client()
    other.post(url + '/keeper', data={'key': keeper_key(client, url)})
    maker, mine = keepers(other, url)
    assert mine.startswith('This phone') and 'made the game' in maker
    assert 'Stop it keeping score' not in maker
    assert 'No other phone can take its scorekeeping away' in maker
    with app.app_context():                                   # its handle, as a page once showed it
        from web import store
        from web.db import get_db
        handle = next(k['handle'] for k in store.keepers(get_db(), url.rsplit('/', 1)[1]) if k['how'] == 'made')
    r = other.post(url + '/keepers/remove', data={'handle': handle})
    assert 'made this game' in other.get(r.headers['Location']).get_data(as_text=True)
    assert client.get(url + '/rounds/1').status_code == 200                       # still keeps score
    assert len(keepers(client, url)) == 2
    # A handover passes the maker's place on only from the maker: a phone that came by a link and
    # hands its scorekeeping on gives what it had, which the maker can take away.
    page, key = link(other, url, 'handover')
    handed = app.test_client()
    handed.post(url + '/keeper', data={'key': key})
    assert 'Stop it keeping score' in keepers(client, url)[1]
    page, key = link(client, url, 'handover')
    heir = app.test_client()
    heir.post(url + '/keeper', data={'key': key})
    heir_entry = next(k for k in keepers(handed, url) if 'was handed the game' in k)
    assert 'No other phone can take its scorekeeping away' in heir_entry     # the maker's place, handed on
