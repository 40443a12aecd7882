"""Card text: forgiving input, canonical output, and clear errors naming the bad card."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorer.cards import JOKER, Card, CardError, card, ordinal, parse_cards, pretty, text
from scorer.limits import MAX_HAND
from scorer.rules import GAMES
from tests.helpers import LANGUAGES


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


# Texts as Spanish and Portuguese tables type them, read by both parsers in that page's language.
PARITY_TEXTS = ['7C 8C 9C', 'KP AT 10D', 'rey de corazones, 7 de picas', 'as', 'AS♠ 5S 5H', 'sota♣ JD',
                '7C 8P 9E 10O', 'D♥ V♠ R♦ DD', 'rei de copas dama de espadas', 'ás', 'KH 5S 2D', 'Q DE PICAS',
                'rey de tréboles', 'rey de treboles', '2 de ouros, 3 de paus', 'rey corazones', '7 de', '']


@pytest.mark.parametrize('language', LANGUAGES)
def test_the_browser_reads_cards_exactly_as_the_server_does(browser, server, language):
    def server_reads(token):
        try:
            return str(card(token, language))
        except CardError:
            return None

    def server_reads_text(text):
        from scorer.cards import phrases, tokens
        return [server_reads(t) for t in tokens(phrases(text, language))]
    context = browser.new_context()
    page = context.new_page()
    page.goto(server.url + f'/audit?lang={language}')
    browser_reads = page.evaluate(
        "tokens => import('/static/js/picker.js').then(m => tokens.map(t => m.readCard(t)))", PARITY)
    browser_texts = page.evaluate(
        "texts => import('/static/js/picker.js').then(m => texts.map(t => {"
        "  const read = m.readCards(t); return read.bad.length ? null : read.cards; }))", PARITY_TEXTS)
    context.close()
    assert dict(zip(PARITY, browser_reads)) == {t: server_reads(t) for t in PARITY}
    expected = {t: (None if None in server_reads_text(t) else server_reads_text(t)) for t in PARITY_TEXTS}
    assert dict(zip(PARITY_TEXTS, browser_texts)) == expected


@pytest.mark.parametrize('language, typed, read', [
    ('es', '7C 8C 9C', '7H 8H 9H'),                      # C is corazones: the hand a Spanish player holds
    ('es', 'KP AT 10D 5S 5H', 'KS AC 10D 5S 5H'),        # picas, tréboles; S, H and D as in English
    ('es', 'rey de corazones, 7 de picas', 'KH 7S'),
    ('es', 'Sota♣ jota♦', 'JC JD'),
    ('pt', '7C 8P 9E 10O', '7H 8C 9S 10D'),              # copas, paus, espadas, ouros
    ('pt', 'D♥ V♠ R♦ DD', 'QH JS KD QD'),                # dama, valete, rei as the seeds write them
    ('pt', 'rei de copas dama de espadas', 'KH QS'),
    ('en', '7C 8C 9C', '7C 8C 9C'),
    ('en', '7♥ 8♥ 9♥', '7H 8H 9H'),
])
def test_cards_are_read_the_way_the_table_writes_them(language, typed, read):
    from scorer.cards import canonical
    assert canonical(typed, language) == read


@pytest.mark.parametrize('language, typed', [('es', 'rey'), ('es', 'as'), ('pt', 'ás'), ('pt', 'rei'), ('en', 'K'),
                                             ('en', '10')])
def test_a_rank_without_a_suit_asks_which_suit(language, typed):
    with pytest.raises(CardError, match=f"'{typed}' has no suit: which one"):
        parse_cards(typed, language=language)


def test_stored_cards_read_the_same_whatever_the_page_language():
    """Canonical text is read the English way, and symbols read alike in every language."""
    from scorer.cards import canonical, symbols
    assert canonical('7C KH', 'en') == '7C KH'
    for language in LANGUAGES:
        assert canonical(symbols('7C KH 10D JK'), language) == '7C KH 10D JK'


@pytest.mark.parametrize('word, language', [('comodín', 'es'), ('comodin', 'es'), ('curinga', 'pt'), ('coringa', 'pt'),
                                            ('wild', 'en')])
def test_the_word_for_a_wild_card_is_no_card_and_says_what_to_type(word, language):
    with pytest.raises(CardError, match='type the card itself') as e:
        parse_cards(f'5H {word}')
    assert f"'{word}'" in str(e.value) and 'JK for a joker' in str(e.value)
