"""Entering cards faster than adding them up by head: one tap a card, counted, at a phone's size;
and nothing typed is lost when a save fails."""

import re

import pytest

from scorer.reading import symbols
from tests.browser import PHONE, no_horizontal_scroll, phone, save_by_points, shot, start_game, tap_cards, until

sync_api = pytest.importorskip('playwright.sync_api')
expect = sync_api.expect

PLAYERS = ['Ana', 'Bruno', 'Carla', 'Dan']
# Round 11: 13 cards, kings wild. Each hand is read out suit by suit, as people sort them.
HANDS = {1: 'AS 2S 3S 4S AH 2H 3H 4H AD 2D 3D AC 2C',
         2: '5S 6S 7S 5H 6H 7H 5D 6D 7D 5C 6C 7C 8C',
         3: '9S 10S JS 9H 10H JH 9D 10D JD 9C 10C JC QC'}


def new_game(page, base, players=PLAYERS):
    return start_game(page, base, players)


def test_round_11_for_four_players_in_at_most_50_taps(browser, server):
    context = phone(browser)
    page = context.new_page()
    game = new_game(page, server.url)
    for number in range(1, 11):
        save_by_points(context, game, number)
    page.goto(game + '/rounds/11')
    expect(page.locator('.picker .count')).to_have_text('Ana · 0 / 13')     # open, first tap is a card
    taps = 0
    page.locator('#went_out-0').check()                                      # Ana went out
    taps += 1
    expect(page.locator('.picker .count')).to_have_text('Bruno · 0 / 13')
    per_hand = []
    for seat, hand in HANDS.items():
        per_hand.append(tap_cards(page, seat, hand.split()))
        expect(page.locator(f'#entries-{seat}-cards')).to_have_value(symbols(hand))
    assert no_horizontal_scroll(page)
    shot(page, 'fast-round-11-entered')
    page.locator('.save-bar button').click()
    taps += sum(per_hand) + 1
    expect(page.locator('.flash').get_by_text('Round 11 saved.')).to_be_visible()
    assert max(per_hand) <= 16, per_hand
    assert taps <= 50, (taps, per_hand)
    print(f'round 11, four players: {taps} taps; 13-card hands: {per_hand}')
    assert context.errors == [] and context.outside == []
    context.close()


def test_save_is_always_in_reach_and_every_key_is_big_enough(browser, server):
    context = phone(browser)
    page = context.new_page()
    game = new_game(page, server.url, PLAYERS + ['Eva', 'Fer'])
    page.goto(game + '/rounds/1')
    for key in page.locator('.picker .key').all():
        size = key.bounding_box()
        assert size['width'] >= 44 and size['height'] >= 44, key.inner_text()
        assert size['y'] + size['height'] <= PHONE['height'], key.inner_text()        # the whole keypad on screen
    expect(page.locator('.save-bar button')).to_be_hidden()    # the keypad takes Save's place
    page.locator('.picker .done').click()
    save = page.locator('.save-bar button')
    box = save.bounding_box()
    assert box['y'] + box['height'] <= PHONE['height']          # on screen without scrolling
    expect(save).to_be_enabled()
    assert no_horizontal_scroll(page)
    assert page.locator('#entries-1-points').get_attribute('inputmode') == 'tel'       # digits and +
    page.locator('#entries-1-points').press('Enter')                                   # on to the next player's points
    assert page.evaluate('document.activeElement.id') == 'entries-2-points'
    shot(page, 'fast-round-page')
    context.close()


def test_a_second_copy_the_joker_and_the_preview_explained(browser, server):
    context = phone(browser)
    page = context.new_page()
    game = new_game(page, server.url, ['Ana', 'Bruno'])
    page.goto(game + '/rounds/1')                                # 3 cards, threes wild
    page.locator('#went_out-0').check()
    tap_cards(page, 1, ['3S', '4S', '5D'])
    expect(page.locator('#player-1 .preview')).to_contain_text('Penalty 24 = 15 + 4 + 5')
    expect(page.locator('.picker')).to_be_hidden()              # everyone entered: the picker closes
    # A person aims at the block once the page has settled (a tap on what just appeared under the
    # closing keypad is dropped, with a sign: tests/test_steady_keypad.py).
    page.wait_for_function('() => !document.documentElement.dataset.settling')
    page.locator('#player-1 .pick').click()
    page.get_by_role('button', name='Undo the last card').click()
    expect(page.locator('#entries-1-cards')).to_have_value(symbols('3S 4S'))
    page.locator('#entries-1-cards').fill('5D 5D 7C')
    expect(page.locator('#player-1 .chip').first).to_have_text('5♦ ×2')
    page.locator('#entries-1-cards').fill('5D 5D 7C 8C')
    expect(page.locator('#player-1 .size-warning')).to_have_text('4 cards: round 1 deals 3.')
    context.close()


@pytest.mark.pyodide
def test_nothing_typed_is_lost_when_the_save_fails(browser, server):
    context = phone(browser)
    page = context.new_page()
    game = new_game(page, server.url, ['Ana', 'Bruno', 'Carla'])
    expect(page.locator('#offline .offline-line')).to_have_text('Ready to play offline.')   # the game's pages kept
    page.goto(game + '/rounds/1')
    page.locator('#went_out-0').check()
    tap_cards(page, 1, ['KH', '5C', '7D'])
    page.locator('#entries-2-points').fill('12')
    expect(page.locator('#draft-banner')).to_be_visible()
    # The network is gone when Save is tapped (for the page and its service worker alike).
    page.wait_for_function('() => navigator.serviceWorker.controller !== null')
    context.route('**/rounds/1', lambda route: route.abort() if route.request.method == 'POST' else route.continue_())
    page.locator('.save-bar button').click()
    page.wait_for_url(re.compile(r'/rounds/1\?offline=1$'))      # back on the round's page, not an error page
    context.unroute('**/rounds/1')
    expect(page.locator('#draft-banner')).to_be_visible()
    expect(page.locator('#entries-1-cards')).to_have_value(symbols('KH 5C 7D'))
    expect(page.locator('#entries-2-points')).to_have_value('12')
    assert page.locator('#went_out-0').is_checked()
    shot(page, 'fast-draft-restored')
    page.locator('.save-bar button').click()                      # one tap saves it
    expect(page.get_by_text('Round 1 saved.')).to_be_visible()
    page.goto(game + '/rounds/1')
    expect(page.locator('#draft-banner')).to_be_hidden()
    context.close()


def test_the_keypad_does_not_open_over_what_was_typed_before_it_started(browser, server):
    """On a slow phone the round page shows before its script starts: whoever began typing then
    keeps the page as they left it, and the keypad waits to be asked for."""
    context = phone(browser)
    page = context.new_page()
    game = new_game(page, server.url)
    held = []
    context.route('**/static/*/js/picker.js', lambda route: held.append(route))  # the script, slow to come
    page.goto(f'{game}/rounds/1', wait_until='commit')                      # shown, its scripts not run yet
    expect(page.locator('#entries-0-cards')).to_be_visible()
    page.locator('#player-1').get_by_label('went out').check()
    page.locator('#entries-0-cards').fill('KH 5C')
    until(page, lambda: held, 'picker.js asked for')   # the page's request (and the service worker's copy, if asked)
    for route in held:
        route.continue_()
    expect(page.locator('#player-0').get_by_role('button', name='Tap cards')).to_be_visible()   # it started
    expect(page.locator('.picker')).to_be_hidden()
    assert page.locator('#entries-0-cards').input_value() == 'KH 5C'
    context.unroute('**/static/*/js/picker.js')
    page.reload()                                # untouched since it loaded: it opens on the first hand to enter
    expect(page.locator('.picker')).to_be_visible()
    expect(page.locator('.picker')).to_have_attribute('aria-label', re.compile('Ana'))
    assert page.locator('#entries-0-cards').input_value() == 'KH 5C'               # kept on the phone as typed
    expect(page.locator('#player-1').get_by_label('went out')).to_be_checked()
    context.close()
