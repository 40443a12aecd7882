"""Card text: forgiving input, canonical output, and clear errors naming the bad card."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorer.cards import JOKER, Card, CardError, card, ordinal, parse_cards, pretty, text
from scorer.limits import MAX_HAND
from scorer.rules import GAMES


@pytest.mark.parametrize('typed, canonical', [
    ('10h', '10H'), ('Th', '10H'), ('q♠', 'QS'), ('A♥', 'AH'), ('KC', 'KC'), ('jk', 'JK'),
    ('Joker', 'JK'), ('2d', '2D'), ('9♣', '9C'), ('7♥️', '7H'), (' 5s ', '5S'),
])
def test_forgiving_input_canonical_output(typed, canonical):
    assert str(card(typed)) == canonical


def test_spaces_and_commas_separate_cards():
    assert text(parse_cards('7h, 8h,9h  10H')) == '7H 8H 9H 10H'
    assert pretty(parse_cards('10h qs', jokers=0)) == '10♥ Q♠'


def test_pretty_has_suit_symbols():
    assert Card(10, 'H').pretty == '10♥'
    assert JOKER.pretty == '🃏'
    assert Card(7, '').pretty == '7'       # a wild standing in a set plays as a rank


@pytest.mark.parametrize('typed, message', [
    ('7H 8H 1X', "'1X' is not a card (3rd card)"),
    ('ZZ', "'ZZ' is not a card (1st card)"),
    ('7H 11H', "'11H' is not a card (2nd card)"),
    ('7H 8H 9H 10H 11', "'11' is not a card (5th card)"),
    ('7H 7H 7H', 'three 7♥ but only 2 decks'),
    ('JK', 'a joker, but no jokers are in play'),
])
def test_errors_name_what_is_wrong(typed, message):
    with pytest.raises(CardError) as e:
        parse_cards(typed)
    assert str(e.value) == message


def test_pack_limits_follow_decks_and_jokers():
    assert len(parse_cards('7H 7H 7H', decks=3)) == 3
    with pytest.raises(CardError, match='two 7♥ but only 1 deck'):
        parse_cards('7H 7H', decks=1)
    assert len(parse_cards('JK JK', jokers=2)) == 2
    with pytest.raises(CardError, match='3 jokers, but only 2 in play'):
        parse_cards('JK JK JK', jokers=2)


def test_a_hand_holds_at_most_the_largest_deal_and_the_card_drawn():
    """Six-fourteen deals 14 cards; a player holding the card drawn has 15 (MAX_HAND)."""
    assert MAX_HAND == max(last for _, last in GAMES.values()) + 1
    fifteen = ' '.join(['2H', '3H', '4H', '5H', '6H'] * 3)
    assert len(parse_cards(fifteen, decks=3)) == MAX_HAND
    with pytest.raises(CardError, match='16 cards, but a hand holds at most 15'):
        parse_cards(fifteen + ' 7H', decks=3)


def test_ordinals():
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22)] == [
        '1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd']


@given(st.lists(st.sampled_from([Card(r, s) for r in range(1, 14) for s in 'SHDC']), max_size=MAX_HAND))
def test_canonical_text_reads_back(cards):
    assert parse_cards(text(cards), decks=20) == cards
    assert parse_cards(pretty(cards), decks=20) == cards


@given(st.text(max_size=60))
def test_any_text_parses_or_gets_a_card_error(typed):
    try:
        parse_cards(typed)
    except CardError as e:
        assert str(e)


def test_a_superscript_digit_is_not_a_rank():
    """Found by the fuzzer: '¹' counts as a digit for str.isdigit() but int() refuses it."""
    from scorer.cards import parse_rank
    with pytest.raises(CardError, match="'¹' is not a rank"):
        parse_rank('¹')


# One table of inputs, good and bad, that the server's parser (scorer/cards.py) and the
# browser's (static/js/picker.js, fed the same tables) must read alike.
PARITY = ['10h', 'Th', 'q♠', 'A♥', 'KC', 'jk', 'JKR', 'Joker', '🃏', '7♥️', ' 5s ', '2d', '9♧', '10♤',
          'Rey♥', 'rey♥', 'dama♠', 'VC', 'v♦', 'R♦', 'ás♣', 'As♠', 'AS', 'ASH', 'Jota♥', 'reina♦', 'valete♣',
          'REI♠', 'comodín', 'comodin', 'coringa', 'curinga',
          '1X', '11H', 'DAMAX', 'D♠', '10', 'T', 'ＡＳ', 'A♠♠', '0S', '1S', 'JS H', 'ß', 'ǅ', 'ℌ', '', '♠',
          'K', 'KH7', 'REYH', 'rEy♣', 'ÁS♦', 'as', '10♥10']


def test_the_browser_reads_cards_exactly_as_the_server_does(browser, server):
    def server_reads(token):
        try:
            return str(card(token))
        except CardError:
            return None
    context = browser.new_context()
    page = context.new_page()
    page.goto(server.url + '/audit')
    browser_reads = page.evaluate(
        "tokens => import('/static/js/picker.js').then(m => tokens.map(t => m.readCard(t)))", PARITY)
    context.close()
    assert dict(zip(PARITY, browser_reads)) == {t: server_reads(t) for t in PARITY}


@pytest.mark.parametrize('word, language', [('comodín', 'es'), ('comodin', 'es'), ('curinga', 'pt'), ('coringa', 'pt'),
                                            ('wild', 'en')])
def test_the_word_for_a_wild_card_is_no_card_and_says_what_to_type(word, language):
    with pytest.raises(CardError, match='type the card itself') as e:
        parse_cards(f'5H {word}')
    assert f"'{word}'" in str(e.value) and 'JK for a joker' in str(e.value)
