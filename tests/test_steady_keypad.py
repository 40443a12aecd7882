"""Entry you can trust at a real tapping pace: the keypad's keys never move under a finger, a tap
aimed at a key never saves, the first card needs no scroll, odd rounds are confirmed, and every
page that enters a hand follows the game as it moves on.

A person aims at a key and the finger lands about 300 ms later, wherever the key was: the three
hands at a person's pace tap that way (tests/browser.Finger: the box read first, the tap 300 ms
later at the same spot, never re-aimed); the other tests tap once the page has settled."""

import re
from urllib.parse import urlsplit

import pytest

from scorer.reading import symbols
from tests.browser import KEY_BOXES, SIZES, Finger, guarded, phone_at, save_by_points, settled, shot, start_game, tap_cards, until
from tests.helpers import LANGUAGES

sync_api = pytest.importorskip('playwright.sync_api')
expect = sync_api.expect

PLAYERS = ['Ana', 'Bruno', 'Carla', 'Dan']
# Round 11: 13 cards, kings wild; three hands as people read them out, suit by suit.
HANDS = ['AS 2S 3S 4S AH 2H 3H 4H AD 2D 3D AC 2C',
         '5S 6S 7S 5H 6H 7H 5D 6D 7D 5C 6C 7C 8C',
         '9S 10S JS 9H 10H JH 9D 10D JD 9C 10C JC QC']
WORDS = {'en': {'saved': 'Round 11 saved.', 'confirm': 'Yes, this is right'},
         'es': {'saved': 'Ronda 11 guardada.', 'confirm': 'Sí, es correcto'},
         'pt': {'saved': 'Rodada 11 salva.', 'confirm': 'Sim, está certo'}}


def round_11(context, page, server):
    """A four-player game with rounds 1-10 saved (as points), its round 11 page open."""
    game = start_game(page, server.url, PLAYERS)
    for number in range(1, 11):
        save_by_points(context, game, number)
    page.goto(game + '/rounds/11')
    expect(page.locator('.picker')).to_be_visible()
    return game


def saved_rounds(context, game):
    return len(context.request.get(game + '/export.json').json()['rounds'])


def human_taps(finger, cards):
    """Tap a hand's cards as a person does, one after the other with no pause to look: per card its
    suit key when the suit changes, then its rank, each landing AIM_MS after it was aimed at."""
    for card in cards:
        rank, suit = card[:-1], card[-1]
        if suit != finger.suit:
            finger.land(f'.picker button.suit[data-suit="{suit}"]')
            finger.suit = suit
        finger.land(f'.picker button.rank[data-rank="{rank}"]')


def test_no_key_moves_while_a_hand_is_entered(browser, server):
    """Thirteen cards, each tap followed by its chips, the count, the preview and the banner: no key
    moves (the keys of each language and phone are placed by the same page: test_screens.py)."""
    context, page = phone_at(browser, server, 'pt', SIZES[1])
    round_11(context, page, server)
    keys = page.evaluate(KEY_BOXES)
    assert len(keys) == 4 + 13 + 3                                   # suits, ranks, undo, done and went out
    page.locator('#went_out-0').check()                              # Ana went out: on to Bruno
    expect(page.locator('.picker .count')).to_contain_text('Bruno')
    assert page.evaluate(KEY_BOXES) == keys
    for i, card in enumerate(HANDS[0].split()):
        if i == 1:
            penalty_while_asked(context, page, card, keys)
        else:
            tap_cards(page, 1, [card])
        settled(page)                                                # the preview, the chips, the banner
        assert page.evaluate(KEY_BOXES) == keys, f'keys moved after card {i + 1} ({card})'
        if i == 8:
            shot(page, 'keypad-mid-hand-pt', full_page=False)
    expect(page.locator('.picker .count')).to_contain_text('Carla')  # a full hand moved on
    assert page.evaluate(KEY_BOXES) == keys
    for _ in range(3):                                               # a card the decks can't hold: a message
        tap_cards(page, 2, ['AS'])
    expect(page.locator('.picker-message')).not_to_be_empty()
    settled(page)
    assert page.evaluate(KEY_BOXES) == keys
    assert context.errors == [] and context.outside == []
    context.close()


# What the penalty lines show while a hand's new penalty is on its way: the keypad's, and the
# preview's sign (drawn over it by the stylesheet, for the eye: the preview is aria-busy meanwhile,
# so a screen reader hears the answer once, not the stale one).
ASKED = '''() => { const preview = document.querySelector('.keypad-hand .preview');
  return [document.querySelector('.picker .keypad-penalty').textContent, preview.getAttribute('aria-busy'),
          getComputedStyle(preview, '::before').content]; }'''


def penalty_while_asked(context, page, card, keys):
    """Tap a card while the server holds its preview (a busy server: issue 48 saw the hand without its
    last card for 0.4-0.8 s, with no sign): the penalty lines say they are updating, moving nothing;
    once the answer comes, the penalty."""
    held = []
    context.route('**/audit/preview?*', lambda route: held.append(route))
    tap_cards(page, 1, [card])
    until(page, lambda: held, 'the preview asked for')
    shown, busy, sign = page.evaluate(ASKED)
    assert (shown, busy) == ('Atualizando…', 'true') and 'Atualizando…' in sign, (shown, busy, sign)
    assert page.evaluate(KEY_BOXES) == keys
    for route in held:
        route.continue_()
    context.unroute('**/audit/preview?*')
    settled(page)
    shown, busy, sign = page.evaluate(ASKED)
    assert re.fullmatch(r'Penalidade \d+', shown) and busy is None and sign == 'none', (shown, busy, sign)


def test_three_hands_at_a_human_pace_hold_exactly_the_cards_aimed_at(browser, server):
    context, page = phone_at(browser, server, 'en', SIZES[0])
    game = round_11(context, page, server)
    page.locator('#went_out-0').check()
    settled(page)
    finger = Finger(page)
    for seat, hand in enumerate(HANDS, start=1):
        cards = hand.split()
        finger.suit = 'S'                                            # each hand opens on spades
        human_taps(finger, cards[:-1])
        assert page.locator('.picker').is_visible(), f'the keypad closed in the middle of hand {seat}'
        expect(page.locator('.picker .count')).to_contain_text(PLAYERS[seat])
        human_taps(finger, cards[-1:])
        if seat < len(HANDS):
            expect(page.locator(f'#entries-{seat}-cards')).to_have_value(symbols(hand))
    # One more tap, aimed at a key before the keypad closed, lands where Save now is (within the
    # finger's aim of the close): nothing happens, and the page says the tap did nothing.
    box = page.locator('.save-bar button').bounding_box()
    page.touchscreen.tap(box['x'] + box['width'] / 2, box['y'] + box['height'] / 2)
    expect(page.locator('.picker')).to_be_hidden()                  # every hand in: the keypad closed
    expect(page.locator('#tap-ignored')).to_have_class(re.compile('shown'))
    assert saved_rounds(context, game) == 10
    assert [page.locator(f'#entries-{s}-cards').input_value() for s in (1, 2, 3)] == [symbols(h) for h in HANDS]
    shot(page, 'keypad-three-hands-entered')
    page.locator('.save-bar button').click()                        # a deliberate tap, once settled
    expect(page.get_by_text('Round 11 saved.')).to_be_visible()
    assert saved_rounds(context, game) == 11
    context.close()


@pytest.mark.parametrize('size', SIZES, ids=['360x740', '390x844'])
@pytest.mark.parametrize('language', LANGUAGES)
def test_the_first_card_needs_no_scroll(browser, server, language, size):
    context, page = phone_at(browser, server, language, size)
    game = start_game(page, server.url, PLAYERS)
    page.goto(game + '/rounds/1')
    expect(page.locator('.picker')).to_be_visible()
    if size == SIZES[0]:
        shot(page, f'keypad-before-the-first-card-{language}', full_page=False)
    assert page.evaluate('window.scrollY') == 0
    keypad_top = page.locator('.picker').bounding_box()['y']
    for box in (page.locator('.banner.now').bounding_box(), page.locator('#player-0').bounding_box()):
        assert 0 <= box['y'] and box['y'] + box['height'] <= keypad_top
    for key in page.evaluate(KEY_BOXES):
        assert 0 <= key[2] and key[2] + key[4] <= size[1], key
    assert page.locator('.entry-help').get_attribute('open') is None    # the help is folded away
    # The same on "my hand", for a seated player.
    seated, hand = phone_at(browser, server, language, size)
    hand.goto(game)
    hand.locator('.take-seat button').nth(1).click()                 # Bruno's seat
    expect(hand.locator('.picker')).to_be_visible()
    assert hand.evaluate('window.scrollY') == 0
    keypad_top = hand.locator('.picker').bounding_box()['y']
    box = hand.locator('#player-0').bounding_box()
    assert box['y'] + box['height'] <= keypad_top
    seated.close()
    context.close()


def test_a_short_hand_is_saved_only_once_confirmed(browser, server):
    """Bruno's hand is 10 cards of 13: Save asks first, in the page's words (Spanish here; the
    question in every language is tests/test_entry_checks.py's), and the saved page shows the
    scores, not the keypad over them."""
    language = 'es'
    context, page = phone_at(browser, server, language, SIZES[0])
    game = round_11(context, page, server)
    page.locator('#went_out-0').check()
    for seat, hand in enumerate(HANDS, start=1):
        cards = hand.split()[:10] if seat == 1 else hand.split()    # Bruno: 10 of his 13 cards
        tap_cards(page, seat, cards)
    page.locator('.save-bar button').click()
    doubts = page.locator('.doubts')
    expect(doubts).to_contain_text('Bruno: 10')
    expect(doubts).to_contain_text('13')
    assert saved_rounds(context, game) == 10
    expect(page.locator('#entries-1-cards')).to_have_value(symbols(' '.join(HANDS[0].split()[:10])))
    expect(page.locator('.picker')).to_be_hidden()                  # the page shows the question first
    shot(page, f'keypad-short-hand-confirmation-{language}', full_page=False)
    page.get_by_label(re.compile(WORDS[language]['confirm'])).check()
    page.locator('.save-bar button').click()
    expect(page.get_by_text(WORDS[language]['saved'])).to_be_visible()
    assert saved_rounds(context, game) == 11
    expect(page.locator('#player-1 .pick')).to_be_attached()       # the keypad's script has started here
    expect(page.locator('.picker')).to_be_hidden()                  # and the saved page shows its scores
    expect(page.locator('.result .scores')).to_be_visible()
    context.close()


def test_my_hand_moves_on_when_the_round_is_saved(browser, server):
    keeper_context, keeper = phone_at(browser, server, 'en', SIZES[0])
    game = start_game(keeper, server.url, PLAYERS)
    player_context, player = phone_at(browser, server, 'en', SIZES[0])
    player.goto(game)
    player.get_by_role('button', name="I'm Bruno").click()
    expect(player.locator('.banner.now')).to_contain_text('Round 1')
    tap_cards(player, 0, ['KH'])                                      # one card in, not sent
    save_by_points(keeper_context, game, 1)
    expect(player.get_by_text('The scorekeeper saved round 1: this is round 2, enter your new hand.')).to_be_visible()
    expect(player.locator('.banner.now')).to_contain_text('Round 2')
    expect(player.locator('#cards')).to_have_value('')
    assert player.locator('input[name=round]').input_value() == '2'
    player_context.close()
    keeper_context.close()


def test_the_round_page_moves_on_when_another_phone_saved_its_round(browser, server):
    context, page = phone_at(browser, server, 'en', SIZES[0])
    game = start_game(page, server.url, PLAYERS)
    page.goto(game + '/rounds/1')
    expect(page.locator('.picker')).to_be_visible()
    save_by_points(context, game, 1)                                  # the other phone (same keeper)
    expect(page.get_by_text('Round 1 was saved from another phone: this is round 2.')).to_be_visible()
    assert page.url.split('?')[0].endswith('/rounds/2')
    # With something typed here, the page stays and says so: nothing typed is dropped. (A person reads
    # the message first: a tap landing as the page appears was aimed at the page before, and is dropped.)
    settled(page)
    tap_cards(page, 1, ['KH'])
    save_by_points(context, game, 2)
    expect(page.locator('#round-moved')).to_be_visible()
    assert page.url.split('?')[0].endswith('/rounds/2')
    expect(page.locator('#entries-1-cards')).to_have_value(symbols('KH'))
    context.close()


def test_a_follower_that_fell_back_to_polling_returns_to_the_stream(browser, tmp_path):
    from app import create_app
    from tests.server import Server
    poll_ms = 200
    app = create_app({'TESTING': True, 'DATABASE': str(tmp_path / 'back.sqlite'), 'SECRET_KEY': 'back',
                      'LIVE_POLL_MS': poll_ms, 'LIVE_BACK_TO_STREAM_MS': 1000})
    with Server(app) as server:
        context, page = phone_at(browser, server, 'en', SIZES[0])
        game = start_game(page, server.url, PLAYERS)
        # Its service worker kept out (this is the page's own fallback): a request that goes through a
        # service worker passes no route of the page's.
        follower = guarded(browser.new_context(service_workers='block'))
        view = follower.new_page()
        seen = []       # in order: 'refused' (the route's 502), 'poll' (the sheet asked for), 'stream' (one open)
        live = urlsplit(game).path + '/live'
        view.on('request', lambda r: seen.append('poll') if urlsplit(r.url).path == live else None)
        # A stream the server itself answered: counted by its answer, not by its request.
        view.on('response', lambda r: seen.append('stream') if '/events' in r.url and r.status == 200 else None)
        # The server restarting: its first stream refused (a proxy's 502), and back by the next try. Each
        # refusal doubles the wait before the next try, so one refusal, not "refused until the page has
        # loaded", keeps that wait to LIVE_BACK_TO_STREAM_MS however slow the machine. (Refused for as
        # long as the page took to load, a loaded machine made it 16 s, then 32: past a wait of 30 s.)
        view.route('**/events*', lambda route: (seen.append('refused'), route.fulfill(status=502)), times=1)
        view.goto(game)
        until(view, lambda: 'stream' in seen, 'a stream open again after the polling')
        assert seen[0] == 'refused', seen
        assert 'poll' in seen[:seen.index('stream')], seen               # it fell back to polling meanwhile
        # And the polling stops: no poll in the next five of its intervals (LIVE_POLL_MS), but one that may
        # have been on its way. A wait for an absence: the one fixed wait of this file, and a busy machine
        # can only make it see fewer polls, never fail it.
        counted = seen.count('poll')
        view.wait_for_timeout(5 * poll_ms)
        assert seen.count('poll') <= counted + 1, seen
        save_by_points(context, game, 1)
        expect(view.locator('#live .banner.now')).to_contain_text('Round 2')
        follower.close()
        context.close()
