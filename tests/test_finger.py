"""A whole round by finger, at a person's pace, on the round page and on "my hand": the box of
every control (keys, went-out checkboxes, points and cards fields, the Pick buttons, Save, Send)
is recorded as the finger aims and again as it lands 300 ms later, and after the tap: none moves
(tests/browser.Finger). A tap that is dropped says so; a tap meant for a page that has moved on
does nothing there; the saved page never opens the keypad.

Each journey is played once at a person's pace, in one language and on one phone: the round page
in Spanish at 360 x 740, "my hand" in Portuguese at 390 x 844 (English is the Five Crowns game's,
tests/test_five_crowns_game.py); the keys of every language at both sizes are checked by
tests/test_steady_keypad.py and tests/test_screens.py."""

import re

import pytest

from scorer.reading import symbols
from tests.browser import SIZES, Finger, phone_at, save_by_points, settled, shot, start_game

sync_api = pytest.importorskip('playwright.sync_api')
expect = sync_api.expect

PLAYERS = ['Ana', 'Bruno', 'Carla', 'Dan']
# Round 4: 6 cards, sixes wild. Ana went out; the others' hands, then Save.
HANDS = {1: '2S 3S 4S 9H 10D KC', 2: 'AH AD AC 5S 5D 7C', 3: 'JH QH KH 8S 8D 2C'}


def test_a_whole_round_by_finger_moves_no_control(browser, server):
    context, page = phone_at(browser, server, 'es', SIZES[0])
    game = start_game(page, server.url, PLAYERS)
    for number in (1, 2, 3):
        save_by_points(context, game, number)
    page.goto(game + '/rounds/4')
    expect(page.locator('.picker')).to_be_visible()
    settled(page)
    finger = Finger(page)
    finger.tap('#went_out-0')                                            # Ana went out: on to Bruno
    expect(page.locator('#went_out-0')).to_be_checked()
    suit = 'S'
    for seat, hand in HANDS.items():
        if page.locator(f'#player-{seat} .pick').get_attribute('aria-expanded') != 'true':
            finger.tap(f'#player-{seat} .pick')                         # the keypad opens on that hand
        suit = finger.cards(hand, suit)
        expect(page.locator(f'#entries-{seat}-cards')).to_have_value(symbols(hand))
    expect(page.locator('.picker')).to_be_hidden()                      # every hand in: the keypad closed
    settled(page)
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
    from tests.conftest import TESTS_RATES, new_app
    from tests.server import Server
    app = new_app({'TESTING': True, 'DATABASE': str(tmp_path / 'guard.sqlite'), 'SECRET_KEY': 'guard',
                   'FINGER_SETTLE_MS': 10_000, **TESTS_RATES})
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


def test_the_saved_page_never_opens_the_keypad(browser, server):
    """A round saved with a confirmed short hand: its page shows the scores, not the keypad over them."""
    context, page = phone_at(browser, server, 'en', SIZES[0])
    game = start_game(page, server.url, PLAYERS)
    page.goto(game + '/rounds/1')
    page.locator('#went_out-0').check()
    page.locator('#entries-1-cards').fill('KS')                          # one card of three
    for seat in (2, 3):
        page.locator(f'#entries-{seat}-points').fill('5')
    page.locator('.save-bar button').click()
    page.get_by_label(re.compile('Yes, this is right')).check()
    page.locator('.save-bar button').click()
    expect(page.get_by_text('Round 1 saved.')).to_be_visible()
    expect(page.locator('#player-1 .pick')).to_be_attached()            # the keypad's script has started here
    expect(page.locator('.picker')).to_be_hidden()
    expect(page.locator('.result .scores')).to_be_visible()
    context.close()
