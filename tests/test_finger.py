"""A whole round by finger, at a person's pace, on the round page and on "my hand": the box of
every control (keys, went-out checkboxes, points and cards fields, the Pick buttons, Save, Send)
is recorded as the finger aims and again as it lands 300 ms later, and after the tap: none moves
(tests/browser.Finger). A tap that is dropped says so; a tap meant for a page that has moved on
does nothing there (that the saved page never opens the keypad is tests/test_steady_keypad.py's,
after its short hand is confirmed). Issue 48: the second player's "went out" is marked on the
keypad, with no scroll, while their box lies under it; a closed hand shows all its cards and melds
under its field, and a swipe starting there scrolls the page; a wrong card of a saved round is put
right from the sheet in six taps.

Each journey is played once at a person's pace, in one language and on one phone: the round page
in Spanish at 360 x 740, "my hand" in Portuguese at 390 x 844 (English is the Five Crowns game's,
tests/test_five_crowns_game.py); the keys of every language at both sizes are checked by
tests/test_steady_keypad.py and tests/test_screens.py."""

import re

import pytest

from scorer.reading import symbols
from tests.browser import SIZES, Finger, phone_at, save_by_points, save_round, settled, shot, start_game
from tests.helpers import round_form

sync_api = pytest.importorskip('playwright.sync_api')
expect = sync_api.expect

PLAYERS = ['Ana', 'Bruno', 'Carla', 'Dan']
# Round 4: 6 cards, sixes wild. Bruno went out; the others' hands, then Save.
HANDS = {0: '2S 3S 4S 9H 10D KC', 2: 'AH AD AC 5S 5D 7C', 3: 'JH QH KH 8S 8D 2C'}
OUT = 1

# What the line under each closed hand's field holds that it does not show (scrolled or cut).
HIDDEN_UNDER_FIELDS = '''() => [...document.querySelectorAll('.seat-hand')].filter((h) => h.offsetParent !== null
  && (h.scrollHeight > h.clientHeight + 1 || h.scrollWidth > h.clientWidth + 1)).map((h) => h.closest('fieldset').id)'''


def test_a_whole_round_by_finger_moves_no_control(browser, server):
    context, page = phone_at(browser, server, 'es', SIZES[0])
    game = start_game(page, server.url, PLAYERS)
    for number in (1, 2, 3):
        save_by_points(context, game, number)
    page.goto(game + '/rounds/4')
    expect(page.locator('.picker')).to_be_visible()
    settled(page)
    finger = Finger(page)
    suit = 'S'
    for seat, hand in HANDS.items():
        if page.locator(f'#player-{seat} .pick').get_attribute('aria-expanded') != 'true':
            finger.tap(f'#player-{seat} .pick')                         # the keypad opens on that hand
        suit = finger.cards(hand, suit)
        expect(page.locator(f'#entries-{seat}-cards')).to_have_value(symbols(hand))
        if seat + 1 == OUT:
            # Ana's hand is in: on to Bruno, who went out. His box lies under the keypad (issue 48:
            # a scroll, every time); the keypad's own "went out" marks the hand it is on, no scroll.
            expect(page.locator('.picker .count')).to_contain_text(PLAYERS[OUT])
            assert page.locator(f'#went_out-{OUT}').bounding_box()['y'] > page.locator('.picker').bounding_box()['y']
            finger.tap('.picker .key.went-out')
            expect(page.locator(f'#went_out-{OUT}')).to_be_checked()
            expect(page.locator('.picker .count')).to_contain_text(PLAYERS[OUT + 1])   # on to Carla
            assert page.evaluate('window.scrollY') == 0
    expect(page.locator('.picker')).to_be_hidden()                      # every hand in: the keypad closed
    settled(page)
    # Each closed hand shows, under its field, all its cards (in its melds and deadwood) and its
    # penalty, whole: the field shows only the first cards of a long hand (issue 48).
    for seat, hand in HANDS.items():
        line = page.locator(f'#player-{seat} .seat-hand')
        expect(line).to_contain_text(re.compile('Penalización'))
        shown = line.inner_text()
        assert all(card in shown for card in symbols(hand).split()), (hand, shown)
    assert page.evaluate(HIDDEN_UNDER_FIELDS) == []
    shot(page, 'finger-round-entered-es', full_page=False)
    finger.tap('.save-bar button', navigates=True)
    expect(page.get_by_text('Ronda 4 guardada.')).to_be_visible()
    expect(page.locator('.picker')).to_be_hidden()                      # the saved page shows its scores
    assert finger.taps >= 20 and finger.checked > 20 * 20
    assert context.errors == [] and context.outside == []
    context.close()


# Round 1 (3 cards, threes wild) of a game with two jokers whose leftovers count as they lie: Ana
# went out; what each other player has left, and its sum by hand (J Q K 10, an unmelded wild 15,
# a joker 20): K♥ 3♠ 🃏 would meld (a set of kings) but lies as 10 + 15 + 20.
AS_THEY_LIE = {1: ('KH 3S JK', 45), 2: ('QD 7D', 17), 3: ('AS', 1)}


def test_a_round_as_they_lie_by_finger_sums_what_is_left(browser, server):
    """In Portuguese at 360 x 740: each key shows what its card counts this round, each hand's
    penalty is the sum of the cards tapped, and the round is saved with those sums."""
    context, page = phone_at(browser, server, 'pt', SIZES[0])
    game = start_game(page, server.url, PLAYERS, jokers=2, leftovers='as_they_lie')
    page.goto(game + '/rounds/1')
    expect(page.locator('.picker')).to_be_visible()
    settled(page)
    keys = page.locator('.picker .ranks')
    expect(keys.locator('[data-rank="3"] small')).to_have_text(['15', 'curinga'])
    expect(keys.locator('[data-rank="K"] small')).to_have_text('10')
    expect(keys.locator('[data-rank="7"] small')).to_have_text('7')
    expect(keys.locator('.joker small')).to_have_text('20')
    finger = Finger(page)
    finger.tap('#went_out-0')
    for seat, (hand, points) in AS_THEY_LIE.items():
        pick = page.locator(f'#player-{seat} .pick')
        if pick.get_attribute('aria-expanded') != 'true':
            pick.scroll_into_view_if_needed()                           # the person scrolls to that hand
            finger.tap(f'#player-{seat} .pick')
        finger.cards(hand)
        expect(page.locator(f'#entries-{seat}-cards')).to_have_value(symbols(hand))
        expect(page.locator(f'.preview[data-seat="{seat}"] .preview-line')).to_have_attribute('data-penalty', str(points))
        if len(hand.split()) < 3:                                        # a full hand moves on by itself
            finger.tap('.picker .done')
            settled(page)
    settled(page)
    finger.tap('.save-bar button', navigates=True)
    expect(page.get_by_text('Rodada 1 salva.')).to_be_visible()
    scores = page.locator('.result .scores')
    for seat, (_, points) in AS_THEY_LIE.items():
        expect(scores).to_contain_text(str(points))
    assert context.errors == [] and context.outside == []
    context.close()


def test_my_hand_by_finger_moves_no_control(browser, server):
    keeper, page = phone_at(browser, server, 'pt', SIZES[1])
    game = start_game(page, server.url, PLAYERS)
    seated, hand = phone_at(browser, server, 'pt', SIZES[1])
    hand.goto(game)
    hand.locator('.take-seat button').nth(2).click()                    # Carla's seat
    expect(hand.locator('.picker')).to_be_visible()
    settled(hand)
    finger = Finger(hand)
    finger.cards('9H 9D 2C', 'S')                                        # round 1: three cards
    expect(hand.locator('#cards')).to_have_value(symbols('9H 9D 2C'))
    expect(hand.locator('.picker')).to_be_hidden()
    settled(hand)
    shot(hand, 'finger-my-hand-entered-pt', full_page=False)
    finger.tap('.save-bar button', navigates=True)                      # Enviar a minha mão
    expect(hand.locator('.result')).to_be_visible()
    expect(hand.locator('.picker')).to_be_hidden()                       # sent: its score, no keypad over it
    seated.close()
    keeper.close()


@pytest.fixture
def slow_guard(tmp_path):
    """The app with its finger guard held long (FINGER_SETTLE_MS, handed to the page): a tap made
    "at once" by this test lands inside the guard's time however busy the machine is."""
    from tests.conftest import new_app
    from tests.helpers import LOOSE_RATES
    from tests.server import Server
    app = new_app({'TESTING': True, 'DATABASE': str(tmp_path / 'guard.sqlite'), 'SECRET_KEY': 'guard',
                   'FINGER_SETTLE_MS': 10_000, **LOOSE_RATES})
    with Server(app) as server:
        yield server


def test_a_dropped_tap_says_so(browser, slow_guard):
    """The first card tapped as the keypad opens is dropped (it was aimed at what was there before),
    and the page says so rather than nothing."""
    server = slow_guard
    context, page = phone_at(browser, server, 'en', SIZES[0])
    game = start_game(page, server.url, PLAYERS)
    page.goto(game + '/rounds/1')
    expect(page.locator('.picker')).to_be_visible()
    page.locator('.picker .done').click()
    settled(page)
    page.locator('#player-1 .pick').click()
    key = page.locator('.picker button.rank[data-rank="K"]').bounding_box()
    page.touchscreen.tap(key['x'] + key['width'] / 2, key['y'] + key['height'] / 2)   # at once: dropped
    expect(page.locator('#tap-ignored')).to_be_visible()
    expect(page.locator('#tap-ignored')).to_have_text('That tap came as the page changed, so it did nothing: tap again.')
    assert page.locator('#entries-1-cards').input_value() == ''
    settled(page)
    page.locator('.picker button.rank[data-rank="K"]').click()           # again, once it settled: taken
    expect(page.locator('#entries-1-cards')).to_have_value('K♠')
    context.close()


def test_a_send_landing_after_the_page_moved_on_types_nothing(browser, slow_guard):
    """Carla aims at Send my hand; the scorekeeper saves the round; the finger lands on round 2's
    page, where the keypad now is: nothing is typed there, and it says so."""
    server = slow_guard
    keeper, page = phone_at(browser, server, 'en', SIZES[0])
    game = start_game(page, server.url, PLAYERS)
    seated, hand = phone_at(browser, server, 'en', SIZES[0])
    hand.goto(game)
    hand.locator('.take-seat button').nth(2).click()
    expect(hand.locator('.picker')).to_be_visible()
    hand.locator('.picker .done').click()
    settled(hand)
    box = hand.locator('.save-bar button').bounding_box()
    save_by_points(keeper, game, 1)                                      # meanwhile, the round is saved
    expect(hand.locator('.banner.now')).to_contain_text('Round 2')
    expect(hand.locator('.picker')).to_be_visible()
    hand.touchscreen.tap(box['x'] + box['width'] / 2, box['y'] + box['height'] / 2)
    expect(hand.locator('#tap-ignored')).to_have_class(re.compile('shown'))   # the tap was taken, and dropped
    assert hand.locator('#cards').input_value() == ''
    expect(hand.locator('.picker .count')).to_contain_text('0 / 4')      # nothing typed on round 2
    seated.close()
    keeper.close()


# Round 10 (12 cards, queens wild), saved from its cards: Ana went out; Bruno's last card was
# read out as 9♣, and was the A♣.
ROUND_10 = {1: ('AS 2S 3S 4S AH 2H 3H 4H AD 2D 3D 9C', 'AS 2S 3S 4S AH 2H 3H 4H AD 2D 3D AC'),
            2: ('5S 6S 7S 5H 6H 7H 5D 6D 7D 5C 6C 7C',) * 2, 3: ('9S 10S JS 9H 10H JH 9D 10D JD 9C 10C JC',) * 2}


def test_a_wrong_card_of_a_saved_round_is_put_right_from_the_sheet_in_six_taps(browser, server):
    """Issue 48: one wrong card of a saved round took 8 taps from the sheet (its score, Edit round,
    Tap cards on that hand, the card's chip, its suit, its rank, Done, Save; 7 at best, the full hand
    closing the keypad by itself). Now 6: the score, Edit round (the round opens on that hand, the
    keypad on it), the card's chip, its suit, its rank (the hand is full: the keypad closes), Save."""
    context, page = phone_at(browser, server, 'en', SIZES[0])
    game = start_game(page, server.url, PLAYERS)
    for number in range(1, 10):
        save_by_points(context, game, number)
    save_round(context, game, 10, round_form(0, ['', *(wrong for wrong, _ in ROUND_10.values())]))
    page.goto(game)
    finger = Finger(page)
    score = 'tr:has(a[aria-label="Edit round 10"]) a.score-link >> nth=1'      # Bruno's score in round 10
    page.locator(score).scroll_into_view_if_needed()                    # the person scrolls to that row
    finger.tap(score, navigates=True)
    expect(page.locator('h1')).to_have_text('Bruno, round 10')
    settled(page)
    finger.tap('a.button:has-text("Edit round 10")', navigates=True)
    expect(page.locator('.picker .count')).to_have_text('Bruno · 12 / 12')   # open on his hand
    settled(page)
    finger.tap('.keypad-hand .chip[aria-label="Remove 9♣"]')
    finger.cards('AC')
    expect(page.locator('.picker')).to_be_hidden()                      # his hand is full again
    finger.tap('.save-bar button', navigates=True)
    expect(page.get_by_text('Round 10 saved.')).to_be_visible()
    assert finger.taps == 6
    saved = context.request.get(game + '/export.json').json()['rounds'][-1]
    assert [sorted(e['cards'].split()) for e in saved['entries'][1:]] == [sorted(right.split()) for _, right in ROUND_10.values()], saved
    assert context.errors == [] and context.outside == []
    context.close()


def test_a_swipe_on_the_line_under_a_field_scrolls_the_page(browser, server):
    """Issue 48: a swipe that started on the line under a field (a card not read, a hand's penalty)
    scrolled that line, not the page. The line says what it says whole, with nothing to scroll:
    a swipe starting on it scrolls the page (a touch swipe, as Chromium gets it from a finger)."""
    context, page = phone_at(browser, server, 'en', SIZES[0])
    game = start_game(page, server.url, PLAYERS)
    page.goto(game + '/rounds/1')
    expect(page.locator('.picker')).to_be_visible()
    settled(page)
    page.locator('.picker .done').click()
    page.locator('#entries-1-cards').fill('5Z 6Z 7Z')                    # three cards with no such suit
    page.locator('#entries-1-points').click()
    settled(page)
    line = page.locator('#player-1 .seat-hand')
    expect(line).to_contain_text("'5Z': which suit is Z?")
    assert page.evaluate(HIDDEN_UNDER_FIELDS) == []
    box = line.bounding_box()
    x, y = box['x'] + box['width'] / 2, box['y'] + box['height'] / 2
    touch = context.new_cdp_session(page)
    touch.send('Input.dispatchTouchEvent', {'type': 'touchStart', 'touchPoints': [{'x': x, 'y': y}]})
    for step in range(1, 11):                                            # up by 200 px, a finger's swipe
        touch.send('Input.dispatchTouchEvent', {'type': 'touchMove', 'touchPoints': [{'x': x, 'y': y - 20 * step}]})
    touch.send('Input.dispatchTouchEvent', {'type': 'touchEnd', 'touchPoints': []})
    page.wait_for_function('() => window.scrollY > 100')
    assert line.evaluate('(h) => h.scrollTop') == 0
    context.close()
