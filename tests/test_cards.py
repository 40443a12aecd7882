"""Card text: forgiving input, canonical output, and clear errors quoting what was typed."""

from unittest import mock

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorer.cards import JOKER, Card, CardError, ordinal, pretty, text

from scorer.reading import CANONICAL, card, parse_cards
from scorer.limits import MAX_HAND
from scorer.rules import GAMES
from tests.browser import own_module
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
    ('7H 8H 1X', "'1X' is not a card"),
    ('ZZ', "'ZZ' is not a card"),
    ('7H 11H', "'11H' is not a card"),
    ('7H 8H 9H 10H 11', "'11' is not a card"),
    ('7H KZ', "'KZ': which suit is Z? The suit letters here are S\u00a0♠, H\u00a0♥, D\u00a0♦, C\u00a0♣"),
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


def test_a_card_twice_in_two_decks_is_checked_without_counting_every_card():
    # Fewer copies beyond a card's first than the decks: no card can be held more often than they
    # deal it (a third of a batch's two-deck hands hold one card twice); no Counter is made for them.
    with mock.patch('scorer.cards.Counter', side_effect=AssertionError('counted')):
        assert len(parse_cards('7H 7H 8S JK', decks=2, jokers=2)) == 4
        assert len(parse_cards('7H 7H 7H 8S', decks=3)) == 4
    # The copies beyond the first still count, the joker's against the jokers in play.
    with pytest.raises(CardError, match='two 7♥ but only 1 deck'):
        parse_cards('7H 7H', decks=1)
    with pytest.raises(CardError, match='three 8♠ but only 2 decks'):
        parse_cards('7H 7H 8S 8S 8S', decks=2)
    with pytest.raises(CardError, match='2 jokers, but only 1 in play'):
        parse_cards('JK JK 7H', decks=2, jokers=1)
    with pytest.raises(CardError, match='a joker, but no jokers are in play'):
        parse_cards('7H 7H JK', decks=3)


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
    from scorer.reading import parse_rank
    with pytest.raises(CardError, match="'¹' is not a rank"):
        parse_rank('¹')


# Texts as tables type them, good and bad, that the server's reader (scorer/reading.py) and the
# browser's (static/js/cards.js, fed the same tables) must read alike, refusals word for word.
PARITY_TEXTS = [
    '10h', 'Th', 'q♠', 'A♥', 'KC', 'jk', 'JKR', 'Joker', '🃏', '7♥️', ' 5s ', '2d', '9♧', '10♤', 'Rey♥', 'rey♥',
    'dama♠', 'VC', 'v♦', 'R♦', 'ás♣', 'As♠', 'AS', 'ASH', 'Jota♥', 'reina♦', 'valete♣', 'REI♠', 'comodín',
    'comodin', 'coringa', 'curinga', '1X', '11H', 'DAMAX', 'D♠', '10', 'T', 'ＡＳ', 'A♠♠', '0S', '1S', 'JS H',
    'ß', 'ǅ', 'ℌ', '', '♠', 'K', 'KH7', 'REYH', 'rEy♣', 'ÁS♦', 'as', '10♥10', '\u0301', 'a' * 40,
    '7C 8C 9C', 'KP AT 10D', 'rey de corazones, 7 de picas', 'AS♠ 5S 5H', 'sota♣ JD', '7C 8P 9E 10O',
    'D♥ V♠ R♦ DD', 'rei de copas dama de espadas', 'ás', 'KH 5S 2D', 'Q DE PICAS', 'rey de tréboles',
    'rey de treboles', '2 de ouros, 3 de paus', 'rey corazones', '7 de', 'as de espadas', 'siete de picas',
    'seven of hearts', 'King of Spades, ace of clubs', 'de', 'do', 'da', 'del', 'of', 'picas', 'DO DE DA',
    'sete de copas', 'dez de ouros', 'diez de diamantes', 'rey de', 'de picas', '7\u00a08H\u30009H;10H',
    '7H\u200b8H', 'constructor', '__proto__', 'TOSTRING', 'hasOwnProperty', '8P 9E 7S 7H 5D',
]


def server_reads(text, language):
    from scorer.reading import read
    return [[r.typed, str(r.card) if r.card else None, r.problem] for r in read(text, language)]


@pytest.mark.parametrize('language', LANGUAGES)
def test_the_browser_reads_cards_exactly_as_the_server_does(browser, server, language):
    """Every text, card by card: the same cards, the same problems in the same words."""
    context = browser.new_context()
    context.add_cookies([{'name': 'lang', 'value': language, 'url': server.url}])
    page = context.new_page()
    page.goto(server.url + '/audit')
    browser_reads = page.evaluate(
        "texts => " + own_module('js/cards.js') + ".then(m => {"
        "  const read = m.reader(JSON.parse(document.getElementById('card-tables').textContent));"
        "  return texts.map(t => read(t).map(r => [r.typed, r.card, r.problem || '']));"
        "})", PARITY_TEXTS)
    context.close()
    from flask_babel import force_locale
    with server.app.test_request_context(), force_locale(language):
        expected = [server_reads(t, language) for t in PARITY_TEXTS]
    for typed_text, got, want in zip(PARITY_TEXTS, browser_reads, expected):
        assert [[typed, card, problem or ''] for typed, card, problem in got] == \
            [[typed, card, problem or ''] for typed, card, problem in want], typed_text


@pytest.mark.parametrize('language, typed, read', [
    ('es', '7C 8C 9C', '7H 8H 9H'),                      # C is corazones: the hand a Spanish player holds
    ('es', 'KP AT 10D 9E', 'KS AC 10D 9S'),              # picas (or espadas), tréboles, diamantes
    ('es', 'rey de corazones, 7 de picas', 'KH 7S'),
    ('es', 'as de espadas, siete de picas', 'AS 7S'),     # the suit said in words, as Latin-American tables say it
    ('es', 'Sota♣ jota♦ RC', 'JC JD KH'),
    ('pt', '7C 8P 9E 10O', '7H 8C 9S 10D'),              # copas, paus, espadas, ouros
    ('pt', 'D♥ V♠ R♦ DC', 'QH JS KD QH'),                # dama, valete, rei as the seeds write them
    ('pt', 'rei de copas, dama de ouros, valete de paus', 'KH QD JC'),
    ('pt', 'sete de espadas dez de ouros', '7S 10D'),
    ('en', '7C 8C 9C', '7C 8C 9C'),
    ('en', 'seven of hearts, king of spades', '7H KS'),
    ('en', '7♥ 8♥ 9♥', '7H 8H 9H'),
])
def test_cards_are_read_the_way_the_table_writes_them(language, typed, read):
    from scorer.reading import canonical
    assert canonical(typed, language) == read


@pytest.mark.parametrize('language, typed, choices', [
    ('es', 'rey', 'K♠, K♥, K♦ or K♣'), ('es', 'as', 'A♠, A♥, A♦ or A♣'), ('pt', 'ás', 'A♠, A♥, A♦ or A♣'),
    ('pt', 'rei', 'K♠, K♥, K♦ or K♣'), ('pt', 'D', 'Q♠, Q♥, Q♦ or Q♣'), ('en', 'K', 'K♠, K♥, K♦ or K♣'),
    ('en', '10', '10♠, 10♥, 10♦ or 10♣'), ('en', 'ace', 'A♠, A♥, A♦ or A♣')])
def test_a_rank_without_a_suit_asks_which_suit_naming_the_choices(language, typed, choices):
    with pytest.raises(CardError) as e:
        parse_cards(typed, language=language)
    assert str(e.value) == f"'{typed}' has no suit: which one? ({choices})"


@pytest.mark.parametrize('language, typed', [('es', 'de'), ('es', 'del'), ('pt', 'de'), ('pt', 'do'), ('pt', 'da'),
                                             ('pt', 'DE'), ('pt', 'dos'), ('en', 'of')])
def test_joining_words_are_never_cards(language, typed):
    """Issue 35: on a Portuguese page 'de' was read as Q♠ (D, dama, and E, espadas) and 'do' as Q♦."""
    with pytest.raises(CardError, match=f"'{typed}' is not a card: it joins a rank and a suit"):
        parse_cards(f'7♥ {typed}', language=language)


@pytest.mark.parametrize('language, typed, message', [
    ('pt', 'sete de copas, rey de corazones', "'rey' is not a card"),     # quoting what was typed, never 'sete♥'
    ('es', 'K♥♥', "'K♥♥' is not a card"),
    ('es', '7S', "'7S': which suit is S? The suit letters here are P or E\u00a0♠, C\u00a0♥, D\u00a0♦, T\u00a0♣"),
    ('pt', '7D', "'7D': which suit is D? The suit letters here are E\u00a0♠, C\u00a0♥, O\u00a0♦, P\u00a0♣"),
    ('es', 'picas', "'picas' is a suit: which rank? (siete de picas)"),
])
def test_a_refusal_quotes_only_what_was_typed(language, typed, message):
    with pytest.raises(CardError) as e:
        parse_cards(typed, language=language)
    assert str(e.value) == message


def test_stored_cards_read_the_same_whatever_the_page_language():
    """Canonical text is read the English way, and symbols read alike in every language."""
    from scorer.reading import canonical, symbols
    assert canonical('7C KH', 'en') == '7C KH'
    for language in LANGUAGES:
        assert canonical(symbols('7C KH 10D JK'), language) == '7C KH 10D JK'


@pytest.mark.parametrize('after', [[], ['8H'], ['of', 'hearts'], ['hearts'], ['de', 'copas']])
def test_canonical_words_read_as_the_typed_reader_reads_them(after):
    """A canonical word ('7H', '10X', 'JK') is looked up, not read letter by letter: for every card
    of every deck, the lookup gives what the English reader gives, whatever word follows."""
    from scorer.reading import CANONICAL, LANGUAGES as READERS, read, read_at
    assert len(CANONICAL) == 5 * 13 + 1
    for word, card_ in CANONICAL.items():
        words = [word] + after
        typed = read_at(words, 0, READERS['en'])
        assert typed == (1, read(' '.join(words))[0])
        assert typed[1].card == card_ and str(card_) == word


@given(st.lists(st.tuples(st.sampled_from(sorted(CANONICAL) + ['7h', 'X', '']),
                          st.sampled_from([' ', '  ', ',', ', ', '\t', ' ; ', '\u00a0'])), max_size=MAX_HAND),
       st.sampled_from(['', ' ']), st.sampled_from(LANGUAGES))
def test_a_text_of_canonical_words_reads_as_the_reader_reads_it(words, edge, language):
    """read_cards() looks canonical words up, split at single spaces, without cutting the text by the
    separators' pattern: whatever the words and separators, it reads the cards the reader reads
    (read(), word by word), or refuses with the reader's first problem."""
    from scorer.reading import read, read_cards
    text = edge + ''.join(word + separator for word, separator in words)[:-1]
    readings = read(text, language)
    problems = [r.problem for r in readings if r.card is None]
    if problems:
        with pytest.raises(CardError) as refused:
            read_cards(text, language)
        assert str(refused.value) == problems[0]
    else:
        assert read_cards(text, language) == [r.card for r in readings]


@given(st.lists(st.sampled_from([Card(r, s) for r in range(1, 14) for s in 'SHDC'] + [JOKER]), max_size=MAX_HAND),
       st.sampled_from(LANGUAGES))
def test_symbols_read_back_in_every_language(hand, language):
    from scorer.reading import canonical, symbols
    assert canonical(symbols(text(hand)), language) == text(hand)


@pytest.mark.parametrize('word, language', [('comodín', 'es'), ('comodin', 'es'), ('curinga', 'pt'), ('coringa', 'pt'),
                                            ('wild', 'en')])
def test_the_word_for_a_wild_card_is_no_card_and_says_what_to_type(word, language):
    with pytest.raises(CardError, match='type the card itself') as e:
        parse_cards(f'5♥ {word}', language=language)
    assert f"'{word}'" in str(e.value) and 'JK for a joker' in str(e.value)
