"""A whole Five Crowns game played at 360 x 740: the game chosen on the new-game form, then eleven
rounds for three players, the first two and the last by finger, every card tapped on the keypad as a
person taps (the key aimed at, the finger landing AIM_MS later on the spot aimed at, never re-aimed),
the eight between saved from another of the scorekeeper's phones (the same hands, cards and all: one
journey by finger is what this test is for, not eleven), and the final standings read off the sheet. The hands and their scores, worked out by hand card by card, are in
the comments of tests/five_crowns_game.py (Ana 88, Bruno 145, Carla 164)."""

import re

import pytest

from scorer.reading import symbols
from tests.browser import KEY_BOXES, PHONE, Finger, chosen_suit, no_horizontal_scroll, phone_at, save_round, settled, shot
from tests.five_crowns_game import PLAYERS, ROUNDS, STANDINGS, TOTALS
from tests.helpers import LANGUAGES, round_form

sync_api = pytest.importorskip('playwright.sync_api')
expect = sync_api.expect

RANKS = ['3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K']      # Five Crowns' (docs/rules.md)
SAVED = {'en': 'Round {n} saved.', 'es': 'Ronda {n} guardada.', 'pt': 'Rodada {n} salva.'}
BY_FINGER = {1, 2, len(ROUNDS)}         # the rounds tapped in: the first two and the last (the longest hands)


def finger(page, selector):
    """Aim at what the selector names, and land AIM_MS later where it was when aimed at."""
    Finger(page).land(selector)


def tap_hand(page, cards, keys):
    """One hand by finger: the suit key when the card's suit is not the one shown chosen, then its
    rank (or 🃏); after every tap, no key of the keypad has moved."""
    for card in cards.split():
        if card == 'JK':
            finger(page, '.picker button.joker')
        else:
            rank, suit = card[:-1], card[-1]
            if chosen_suit(page) != suit:
                finger(page, f'.picker button.suit[data-suit="{suit}"]')
            finger(page, f'.picker button.rank[data-rank="{rank}"]')
        if page.locator('.picker').is_visible():
            assert page.evaluate(KEY_BOXES) == keys, f'a key moved after {card}'


def new_five_crowns(page, base):
    """The new-game form as a person fills it in: three names, Five Crowns, Ana deals first."""
    page.goto(base + '/games/new')
    for seat, name in enumerate(PLAYERS):
        page.locator(f'#players-{seat}').fill(name)
    page.locator('#first_dealer').select_option('0')
    page.locator('#game').select_option('five_crowns')
    expect(page.locator('#decks')).to_be_hidden()                   # the game decides its deck
    expect(page.locator('#jokers')).to_be_hidden()
    page.locator('form button.primary').click()
    page.wait_for_url(re.compile(r'/games/(?!new\b)[^/?]+$'))
    return page.url.split('?')[0]


def solver_started(context, base):
    """The server's solver pool up before the table sits down: its first process starts on the
    first question, and on a machine this loaded it may answer that one 503 (busy, said on the
    page), which is the server's first-start cost, not this game's."""
    for _ in range(5):
        if context.request.get(base + '/api/solve?cards=3S&wild=3').status == 200:
            return
    pytest.fail('the solver never answered')


@pytest.mark.long(1)
def test_a_whole_five_crowns_game_by_finger_at_360_px(browser, server):
    context, page = phone_at(browser, server)
    solver_started(context, server.url)
    game = new_five_crowns(page, server.url)
    keys = None
    for number, out, cards, penalties in ROUNDS:
        if number not in BY_FINGER:
            hands = [cards.get(seat, '') for seat in range(len(PLAYERS))]
            save_round(context, game, number, round_form(out, hands))
            saved = context.request.get(game + '/export.json').json()['sheet']['rounds'][number - 1]['scores']
            assert saved == {p: penalties.get(seat, 0) for seat, p in enumerate(PLAYERS)}, number
            continue
        page.goto(f'{game}/rounds/{number}')
        expect(page.locator('.picker')).to_be_visible()                  # open on the first player
        if keys is None:
            keys = page.evaluate(KEY_BOXES)
            assert [k[0] for k in keys if k[0] in 'SHDCX' and len(k[0]) == 1] == list('SHDCX')
            assert [k[0] for k in keys if k[0] in RANKS] == RANKS
            assert page.locator('.picker button.joker').count() == 1
            assert page.locator('.picker button.suit[data-suit="X"]').inner_text() == '★'
            assert page.locator('.picker button.suit[data-suit="X"]').get_attribute('aria-label') == 'stars'
        else:
            assert page.evaluate(KEY_BOXES) == keys, f'round {number}: the keypad is not where it was'
        wild = RANKS[number - 1]
        expect(page.locator(f'.picker button.rank[data-rank="{wild}"]')).to_have_class(re.compile(r'\bwild\b'))
        # Who went out, first: the page scrolled (as a thumb swipes it) to bring the box into
        # view above the keypad, then tapped.
        page.locator(f'#went_out-{out}').evaluate('(box) => { box.scrollIntoView({block: "start"}); scrollBy(0, -60); }')
        settled(page)                                                   # the keypad has opened: a person looks first
        finger(page, f'#went_out-{out}')
        expect(page.locator(f'#went_out-{out}')).to_be_checked()
        for seat in sorted(cards):
            expect(page.locator('.picker .count')).to_contain_text(PLAYERS[seat])
            tap_hand(page, cards[seat], keys)
            expect(page.locator(f'#entries-{seat}-cards')).to_have_value(symbols(cards[seat]))
            if number == len(ROUNDS) and seat == min(cards):
                shot(page, 'five-crowns-keypad-360', full_page=False)
        expect(page.locator('.picker')).to_be_hidden()                  # every hand in: the keypad closes
        for seat, points in penalties.items():                          # each hand's preview, as worked out
            expect(page.locator(f'#player-{seat} .preview')).to_contain_text(str(points))
        settled(page)                                                   # the page below settles
        finger(page, '.save-bar button')
        expect(page.locator('body')).to_contain_text(SAVED['en'].format(n=number))
        saved = context.request.get(game + '/export.json').json()['sheet']['rounds'][number - 1]['scores']
        assert saved == {p: penalties.get(seat, 0) for seat, p in enumerate(PLAYERS)}, number
    page.goto(game)
    standings = page.locator('.standings li, .standings tr')
    expect(standings.first).to_contain_text('Ana')
    text = page.locator('body').inner_text()
    for place, name in enumerate(STANDINGS, start=1):
        assert re.search(rf'{place}\s+{name}\s+{TOTALS[name]} points', text), (place, name)
    assert 'Ana wins with 88' in text
    assert no_horizontal_scroll(page)
    shot(page, 'five-crowns-final-sheet-360')
    assert context.errors == [] and context.outside == []
    context.close()


@pytest.mark.parametrize('language', LANGUAGES)
def test_the_five_crowns_keypad_fits_360_px_in_every_language(browser, server, language):
    """Five suit keys in a row and 3 to K (and 🃏) on two rows, no wider than the phone, no key
    smaller than a finger, the star key named in the page's language."""
    context, page = phone_at(browser, server, language)
    game = new_five_crowns(page, server.url)
    page.goto(game + '/rounds/1')
    expect(page.locator('.picker')).to_be_visible()
    keys = page.evaluate(KEY_BOXES)
    suits = [k for k in keys if k[0] in list('SHDCX')]
    assert len(suits) == 5 and len({k[2] for k in suits}) == 1               # one row
    assert all(k[1] >= 0 and k[1] + k[3] <= PHONE['width'] and k[3] >= 44 and k[4] >= 44 for k in keys)
    star = {'en': 'stars', 'es': 'estrellas', 'pt': 'estrelas'}[language]
    assert page.locator('.picker button.suit[data-suit="X"]').get_attribute('aria-label') == star
    settled(page)
    finger(page, '.picker button.suit[data-suit="X"]')
    finger(page, '.picker button.rank[data-rank="3"]')
    expect(page.locator('#entries-0-cards')).to_have_value('3★')
    assert page.evaluate(KEY_BOXES) == keys
    assert no_horizontal_scroll(page)
    shot(page, f'five-crowns-keypad-{language}', full_page=False)
    assert context.errors == [] and context.outside == []
    context.close()
