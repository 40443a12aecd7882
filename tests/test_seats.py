"""Every player enters their own hand on their own phone: taking a seat, entering a hand, the
scorekeeper's page filling in, and everything a phone without the seat's key is refused."""

import re
from pathlib import Path

import pytest

from scorer.reading import symbols
from tests.helpers import round_form


def take(client, url, seat):
    return client.post(f'{url}/seats/{seat}')


def test_a_follower_takes_a_seat_and_enters_their_own_hand(app, client, make_game):
    url = make_game(('Ana', 'Bruno', 'Carla'))
    zoe = app.test_client()
    page = zoe.get(url).get_data(as_text=True)
    assert "I'm <bdi>Bruno</bdi>" in page
    r = take(zoe, url, 1)
    assert r.status_code == 302 and r.headers['Location'].endswith('/hand')
    cookie = next(c for c in r.headers.getlist('Set-Cookie') if c.startswith('seat_'))
    assert 'HttpOnly' in cookie and 'SameSite=Lax' in cookie
    r = zoe.post(url + '/hand', data={'round': '1', 'cards': 'KH 5C 7D'}, follow_redirects=True)
    page = r.get_data(as_text=True)
    assert [a.status_code for a in r.history] == [303] and r.status_code == 200 and '22 points' in page and 'K♥<small> 10</small>' in page
    drafts = client.get(url + '/rounds/1/drafts').get_json()
    assert drafts == {'1': {'player': 'Bruno', 'cards': 'K♥ 5♣ 7♦', 'points': '', 'went_out': False,
                            'updated': drafts['1']['updated']}}
    form = client.get(url + '/rounds/1').get_data(as_text=True)
    assert 'value="K♥ 5♣ 7♦"' in form and 'Bruno: </span>entered on their own phone' in form
    assert client.get(url + '/export.json').get_json()['rounds'] == []       # nothing on the sheet yet
    client.post(url + '/rounds/1', data=round_form(0, cards=[None, 'KH 5C 7D'], points=[None, None, '4']))
    assert client.get(url + '/export.json').get_json()['sheet']['totals'] == {'Ana': 0, 'Bruno': 22, 'Carla': 4}
    assert client.get(url + '/rounds/2/drafts').get_json() == {}
    assert 'Round 2' in zoe.get(url + '/hand').get_data(as_text=True)


def test_only_your_own_seat(app, client, make_game):
    url = make_game(('Ana', 'Bruno'))
    first, second, stranger = app.test_client(), app.test_client(), app.test_client()
    take(first, url, 1)
    r = take(second, url, 1)
    assert 'seat is taken by another phone' in second.get(r.headers['Location']).get_data(as_text=True)
    r = stranger.post(url + '/hand', data={'cards': '7H'})
    assert r.status_code == 302 and 'Take your seat first' in stranger.get(r.headers['Location']).get_data(as_text=True)
    stranger.set_cookie(f'seat_{url.rsplit("/", 1)[1]}', '1.guess')                  # a forged key
    assert stranger.post(url + '/hand', data={'cards': '7H'}).status_code == 302
    assert client.get(url + '/rounds/1/drafts').get_json() == {}
    assert stranger.get(url + '/rounds/1/drafts').status_code == 403                  # only the scorekeeper
    assert first.post(url + '/seats/1/free').status_code == 403                       # only the scorekeeper frees
    assert first.post(url + '/self-entry', data={'allowed': '0'}).status_code == 403


def test_the_scorekeeper_frees_a_seat_and_can_turn_self_entry_off(app, client, make_game):
    url = make_game(('Ana', 'Bruno'))
    lost, new = app.test_client(), app.test_client()
    take(lost, url, 1)
    assert 'on a phone' in client.get(url).get_data(as_text=True)
    client.post(url + '/seats/1/free')
    assert lost.post(url + '/hand', data={'cards': '7H'}).status_code == 302          # the old phone lost it
    assert take(new, url, 1).headers['Location'].endswith('/hand')
    client.post(url + '/self-entry', data={'allowed': '0'})
    r = new.post(url + '/hand', data={'round': '1', 'cards': '7H'})
    assert r.status_code == 403 and 'The scorekeeper enters every hand' in r.get_data(as_text=True)
    assert "I'm <bdi>" not in app.test_client().get(url).get_data(as_text=True)


@pytest.mark.parametrize('data, message', [
    ({'cards': '7H 1X'}, "&#39;1X&#39; is not a card"),
    ({'cards': '7H 8H 9H 10H'}, 'Bruno holds 4 cards, but round 1 deals 3'),
    ({'went_out': 'y', 'cards': '7H 9C KD'}, 'Bruno went out but'),
    ({'cards': '7H', 'points': '4'}, 'enter cards or points, not both'),
    ({'points': '5000+5000'}, 'a round scores at most 9999 points'),
    ({'cards': 'KS KS KS'}, 'three K♠ but only 2 decks'),
])
def test_bad_hands_get_the_round_pages_messages(app, client, make_game, data, message):
    url = make_game(('Ana', 'Bruno', 'Carla'))
    carla, bruno = app.test_client(), app.test_client()
    take(carla, url, 2)
    carla.post(url + '/hand', data={'round': '1', 'cards': 'KS'})
    take(bruno, url, 1)
    r = bruno.post(url + '/hand', data={'round': '1', **data})
    page = r.get_data(as_text=True)
    assert r.status_code == 422 and message in page, page[page.find('error-box'):][:300]
    assert 'Carla' not in page[page.find('error-box'):page.find('</form>')]       # nobody else's cards named
    for value in data.values():
        if value not in ('y', '1'):
            assert f'value="{value}"' in page                        # what was typed stays


def test_a_seat_is_told_nothing_of_the_other_seats_hands(app, client, make_game):
    """What a seated player is told depends on their own hand alone: Carla's unsent K♠ K♠ changes
    no answer Bruno gets, whichever card he tries (once 52 tries told him her hand exactly); the
    scorekeeper's round page still checks the whole round."""
    url = make_game(('Ana', 'Bruno', 'Carla'))
    carla, bruno = app.test_client(), app.test_client()
    take(carla, url, 2)
    take(bruno, url, 1)
    answers = {}
    for held in ('', 'KS KS'):
        if held:
            assert carla.post(url + '/hand', data={'round': '1', 'cards': held}).status_code == 303
        for rank in ('A', '2', '5', '10', 'J', 'K'):
            for suit in 'SHDC':
                r = bruno.post(url + '/hand', data={'round': '1', 'cards': f'{rank}{suit}'})
                answers.setdefault(f'{rank}{suit}', []).append((r.status_code, 'error-box" role="alert" id="hand-error"'
                                                                in r.get_data(as_text=True)))
    assert all(before == after == (303, False) for before, after in answers.values()), answers
    page = client.get(url + '/rounds/1').get_data(as_text=True)           # the scorekeeper sees both hands
    assert 'value="K♠ K♠"' in page and 'value="K♣"' in page              # Bruno's last try
    r = client.post(url + '/rounds/1', data={'went_out': '0', 'version': '0', 'entries-0-cards': '', 'entries-0-points': '',
                                             'entries-1-cards': 'KS', 'entries-1-points': '',
                                             'entries-2-cards': 'KS KS', 'entries-2-points': ''})
    assert r.status_code == 422 and 'Three K♠ in this round (Bruno and Carla) but only 2 decks' in r.get_data(as_text=True)


PHRASES = {
    'en': {'seat': "I'm {}", 'send': 'Send my hand', 'save': 'Save round 1', 'saved': 'Round 1 saved.'},
    'es': {'seat': 'Soy {}', 'send': 'Enviar mi mano', 'save': 'Guardar la ronda 1', 'saved': 'Ronda 1 guardada.'},
    'pt': {'seat': 'Sou {}', 'send': 'Enviar minha mão', 'save': 'Salvar a rodada 1', 'saved': 'Rodada 1 salva.'},
}


def test_four_phones_one_round(browser, server):
    """The journey once, in Portuguese and dark (the others' words are the catalogs', test_i18n.py)."""
    from tests.browser import expect, phone_in, shot, start_game, tap_cards
    language = 'pt'
    words = PHRASES[language]
    contexts = [phone_in(browser, server, language, dark=(language == 'pt')) for _ in range(4)]
    keeper, *seated = [c.new_page() for c in contexts]
    try:
        game = start_game(keeper, server.url, ['Ana', 'Bruno', 'Carla', 'Dan'])
        hands = {1: ['KH', '5C', '7D'], 2: ['4H', '3S', '6H'], 3: ['9S', '9D', '2C']}
        for page, (seat, name) in zip(seated, [(1, 'Bruno'), (2, 'Carla'), (3, 'Dan')]):
            page.goto(game)
            page.get_by_role('button', name=words['seat'].format(name)).click()
            expect(page.locator('.hand-form')).to_be_visible()
        keeper.goto(game + '/rounds/1')
        keeper.locator('#went_out-0').check()                        # Ana went out: the keeper marks it
        for page, seat in zip(seated, (1, 2, 3)):
            tap_cards(page, 0, hands[seat])
            page.get_by_role('button', name=words['send']).click()
            expect(page.locator('.result .big')).to_be_visible()
        shot(seated[0], f'seats-my-hand-{language}')
        for seat in (1, 2, 3):                                         # the keeper's page fills in by itself
            expect(keeper.locator(f'#entries-{seat}-cards')).to_have_value(symbols(' '.join(hands[seat])))
        expect(keeper.locator('.preview[data-seat="1"]')).to_contain_text('22')
        assert keeper.locator('#went_out-0').is_checked()             # what the keeper did is kept
        shot(keeper, f'seats-keeper-round-{language}')
        keeper.get_by_role('button', name=words['save']).click()
        expect(keeper.get_by_text(words['saved'])).to_be_visible()
        for page in [keeper, *seated]:
            page.goto(game)
            totals = [t.strip() for t in page.locator('tfoot tr.total td').all_inner_texts()]
            assert totals == ['0', '22', '0', '20'], totals
        assert all(c.outside == [] for c in contexts)
    finally:
        for context in contexts:
            context.close()


def test_one_browser_takes_one_seat_even_when_it_taps_three_at_once(tmp_path):
    """Three concurrent 'I'm …' from the same browser (one session): one seat, given atomically."""
    import threading
    from app import create_app
    from tests.browser import Browser
    from tests.server import Server
    app = create_app({'TESTING': True, 'DATABASE': str(tmp_path / 'seats.sqlite'), 'SECRET_KEY': 's'})
    with Server(app) as server:
        keeper = Browser(server.url)
        game = keeper.new_game(['Ana', 'Bruno', 'Carla', 'Dan']).replace(server.url, '')
        phone = Browser(server.url)
        _, page = phone.get(game)
        token = Browser.token(page)
        start = threading.Barrier(3)

        def tap(seat):
            start.wait()
            phone.post(f'{game}/seats/{seat}', {'csrf_token': token})
        taps = [threading.Thread(target=tap, args=(seat,)) for seat in (1, 2, 3)]
        for t in taps:
            t.start()
        for t in taps:
            t.join()
        _, sheet = keeper.get(game)
        assert sheet.count('on a phone') == 1


def test_a_seated_player_gone_out_with_no_cards_is_questioned(app, client, make_game):
    """Who went out must meld completely, which is checked only on cards. When that player enters
    their own hand (seat taken) and the round comes with no cards and no points for them (their
    hand never reached the page), Save asks first; with their cards, or for a player without a
    seat, it does not."""
    url = make_game(('Ana', 'Bruno', 'Carla'))
    bruno = app.test_client()
    take(bruno, url, 1)
    r = client.post(url + '/rounds/1', data=round_form(1, points=['5', None, '4']))
    page = r.get_data(as_text=True)
    assert r.status_code == 422 and 'Bruno went out, but no cards of theirs were entered' in page
    assert client.get(url + '/export.json').get_json()['rounds'] == []
    key = re.search(r'name="confirm" value="([0-9a-f]+)"', page).group(1)
    r = client.post(url + '/rounds/1', data={**round_form(1, points=['5', None, '4']), 'confirm': key})
    assert r.status_code == 302                                                 # confirmed: saved
    r = client.post(url + '/rounds/2', data=round_form(1, cards=[None, '4H 5H 6H'], points=['5', None, '4']))
    assert r.status_code == 302                                                 # his cards meld: no question
    r = client.post(url + '/rounds/3', data=round_form(0, points=[None, '5', '4']))
    assert r.status_code == 302                                                 # Ana holds no seat: as always


# The finger leaves the last card and aims at Send this long after it landed (a person at 2.5 taps
# a second: Send lands 0.4 s after the last card, AIM_MS after it was aimed at).
LEAVES_MS = 100


# The table of the journey below: the keeper (Ana, in English) and four players on their own
# phones, each [name, the language their phone reads, the hand they send in round 1, its points].
# Bruno goes out (his keeper ticks it before he sends); one phone in Portuguese, one in Spanish.
TABLE = [('Bruno', 'en', '4H 5H 6H', 0), ('Carla', 'pt', 'KS 9D 2C', 21), ('Dan', 'es', '7S 8D 10C', 25),
         ('Eva', 'en', '2H 4D 6S', 12)]
KEEPER_HAND = ('JD QD 7C', 27)


def said(language, message, plural=None, count=None, **values):
    """A message as the app's catalogs say it in this language (English: as written)."""
    from babel.support import Translations
    words = Translations.load(str(Path(__file__).resolve().parent.parent / 'translations'), [language])
    return (words.ngettext(message, plural, count) if plural else words.gettext(message)) % values


# What "my hand" must not say after the save of round 1 is undone: that round 2 was saved (issue 47, 11).
FALSE_SAVES = ('The scorekeeper saved round %(saved)d: this is round %(n)d, enter your new hand.',
               'The scorekeeper saved round %(saved)d meanwhile: this is round %(n)d. Nothing was sent.',
               'The scorekeeper saved round %(round)d meanwhile.')


def test_a_table_of_phones_by_finger_out_first_undo_and_redo(browser, server):
    """Five phones at a person's pace (tests/browser.Finger; issue 47, 10-13): Ana keeps score, four
    players enter their own hands, one phone in Portuguese and one in Spanish. The keeper ticks
    Bruno's "went out" before he sends: his hand still fills the keeper's page, no reload, and the
    round is saved with his cards (so the must-meld check had them to check). Bruno's Send lands
    0.4 s after his last card closed the keypad: taken the first time. Round 1 is saved, then
    undone: the players' hands come back on the round page, each "my hand" says, in its language,
    that the save was undone (no round 2 was saved), and Redo (Restore this version) is one tap
    there; the keeper's own page does not take the update of its Redo for another phone's save."""
    from tests.browser import AIM_MS, Finger, expect, phone, phone_in, settled, start_game
    contexts = [phone(browser)] + [phone_in(browser, server, language) for _, language, _, _ in TABLE]
    contexts[1].clock.install()                                        # Bruno's page's clock: see his Send
    keeper, *players = [c.new_page() for c in contexts]
    bruno = players[0]
    seat_of = {name: seat for seat, (name, *_) in enumerate(TABLE)}
    try:
        game = start_game(keeper, server.url, [name for name, *_ in TABLE] + ['Ana'])
        for page, (name, language, _, _) in zip(players, TABLE):
            page.goto(game)
            page.get_by_role('button', name=said(language, "I'm %(player)s", player=name)).click()
            expect(page.locator('.picker')).to_be_visible()
            settled(page)
        keeper.goto(game + '/rounds/1')
        expect(keeper.locator('.picker')).to_be_visible()
        settled(keeper)
        Finger(keeper).tap('#went_out-0')                              # Bruno went out: ticked first
        finger = Finger(bruno)
        finger.cards('4H 5H')
        # From his last card to Send, the time his phone counts is held to a person's pace, however
        # busy this machine is: the clock of Bruno's page stops as the last card lands, moves on by
        # the finger's way to Send and its aim (0.4 s), and Send is tapped (aimed at and landed on
        # the same spot: nothing moved) before it goes on.
        bruno.clock.pause_at(bruno.evaluate('Date.now()') + 1000)
        finger.land('.picker button.rank[data-rank="6"]')              # his last card: the keypad closes
        expect(bruno.locator('.picker')).to_be_hidden()
        bruno.clock.run_for(LEAVES_MS + AIM_MS)
        finger.tap('.save-bar button', navigates=True)                 # lands 0.4 s after that card
        bruno.clock.resume()
        expect(bruno.locator('.result .big')).to_have_text('0 points')
        assert LEAVES_MS + AIM_MS == 400
        expect(keeper.locator('#entries-0-cards')).to_have_value('4♥ 5♥ 6♥')   # reaches the keeper
        expect(keeper.locator('#player-0 .entered-by')).to_have_text('Bruno: entered on their own phone')
        assert keeper.locator('#went_out-0').is_checked()
        for page, (name, language, hand, points) in list(zip(players, TABLE))[1:]:
            Finger(page).cards(hand)
            expect(page.locator('.picker')).to_be_hidden()
            settled(page)
            Finger(page).tap('.save-bar button', navigates=True)
            expect(page.locator('.result .big')).to_have_text(said(language, '%(num)d point', '%(num)d points', points, num=points))
            expect(keeper.locator(f'#entries-{seat_of[name]}-cards')).to_have_value(symbols(hand))
        ana = Finger(keeper)
        ana.cards(KEEPER_HAND[0])                                       # the keeper's own hand: the keypad closes
        expect(keeper.locator('.picker')).to_be_hidden()
        settled(keeper)
        ana.tap('.save-bar button', navigates=True)
        expect(keeper.get_by_text('Round 1 saved.')).to_be_visible()
        saved = contexts[0].request.get(game + '/export.json').json()['rounds'][0]['entries'][0]
        assert saved == {'player': 'Bruno', 'went_out': True, 'cards': '4H 5H 6H'}, saved     # out, with his cards
        for page, (_, language, _, _) in zip(players, TABLE):
            expect(page.locator('.banner.now')).to_contain_text(said(language, 'Round %(n)d', n=2))
        keeper.locator('form.undo-save button').scroll_into_view_if_needed()     # under five players' scores: scrolled to
        settled(keeper)
        ana.tap('form.undo-save button', navigates=True)               # Undo
        expect(keeper.get_by_text('Round 1 is back as it was before that save.')).to_be_visible()
        expect(keeper.locator('form.redo button')).to_be_visible()      # the way back, in sight
        for page, (_, language, _, _) in zip(players, TABLE):           # "my hand" follows back, and says so
            expect(page.locator('.banner.now')).to_contain_text(said(language, 'Round %(n)d', n=1))
            expect(page.get_by_text(said(language, 'The scorekeeper undid the save of round %(n)d: it is being entered again.',
                                         n=1))).to_be_visible()
            text = ' '.join(page.locator('main').inner_text().split())
            assert not [m for m in FALSE_SAVES if said(language, m, saved=2, n=1, round=2) in text], text
        expect(bruno.locator('.result .big')).to_have_text('0 points')  # his hand, as he sent it
        keeper.goto(game + '/rounds/1')
        for seat, (_, _, hand, _) in enumerate(TABLE):                   # the hands they sent are back
            expect(keeper.locator(f'#entries-{seat}-cards')).to_have_value(symbols(hand))
        settled(keeper)
        # Redo (Restore: the version undone), its answer held until the update the Redo made has
        # reached the phones (the players' pages have moved on with it): the keeper's page must know
        # that update for its own.
        held = []
        keeper.route('**/rounds/1/restore', lambda route: held.append((route, route.fetch(max_redirects=0))))
        Finger(keeper).tap('form.redo button', navigates=True)
        for page, (_, language, _, _) in zip(players, TABLE):
            expect(page.locator('.banner.now')).to_contain_text(said(language, 'Round %(n)d', n=2))
        route, response = held[0]
        try:
            route.fulfill(response=response)
        except Exception:                       # the page went elsewhere meanwhile: its post was dropped
            pass
        expect(keeper.get_by_text('The earlier version of round 1 is back.')).to_be_visible()
        assert '/rounds/1' in keeper.url and 'after=' not in keeper.url
        data = contexts[0].request.get(game + '/export.json').json()
        assert data['sheet']['totals'] == {**{name: points for name, _, _, points in TABLE}, 'Ana': KEEPER_HAND[1]}
        assert all(c.errors == [] and c.outside == [] for c in contexts)
    finally:
        for context in contexts:
            context.close()


def test_a_correction_starts_from_the_saved_round_not_the_hands_sent_before(browser, server):
    """The keeper's round page fills in with Bruno's hand (kept on that phone as its draft); round 1
    is then saved from another tab, and the page moves on. Opened again to correct it (?edit=1),
    round 1 shows what was saved, not the hand as it came in, and no "not saved yet" (in Spanish,
    as it was seen at the table)."""
    from tests.browser import expect, phone_at, save_by_points, start_game, tap_cards
    keeper_context, keeper = phone_at(browser, server, 'es')
    game = start_game(keeper, server.url, ['Ana', 'Bruno', 'Carla'])
    seated, bruno = phone_at(browser, server, 'es')
    try:
        bruno.goto(game)
        bruno.get_by_role('button', name='Soy Bruno').click()
        expect(bruno.locator('.hand-form')).to_be_visible()
        keeper.goto(game + '/rounds/1')
        expect(keeper.locator('.picker')).to_be_visible()
        tap_cards(bruno, 0, ['KH', '5C', '7D'])
        bruno.get_by_role('button', name='Enviar mi mano').click()
        expect(bruno.locator('.result .big')).to_be_visible()
        expect(keeper.locator('#entries-1-cards')).to_have_value('K♥ 5♣ 7♦')      # filled in on the keeper's page
        save_by_points(keeper_context, game, 1, players=3)                         # from another tab
        expect(keeper).to_have_url(re.compile(r'/rounds/2\?after=1$'))
        keeper.goto(game + '/rounds/1?edit=1')
        expect(keeper.locator('#entries-1-points')).to_have_value('5')             # as saved
        expect(keeper.locator('#entries-1-cards')).to_have_value('')
        expect(keeper.locator('#draft-banner')).to_be_hidden()
    finally:
        seated.close()
        keeper_context.close()
