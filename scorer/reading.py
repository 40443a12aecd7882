"""Reading cards as a table writes them, in its own language; one reading per text, never a guess:
else a question naming the choices. tables() gives the browser's reader (static/js/cards.js) the same.

A card is a rank then a suit, case-insensitive, accents optional: `10h`, `q♠`, `A♥`, `KC`; a
joker is `JK`. Cards are separated by spaces, commas or semicolons (docs/rules.md, "Cards and
decks"). Each language reads its own letters (`LANGUAGES`), and the symbols ♠ ♥ ♦ ♣ everywhere:
- English: S ♠ spades, H ♥ hearts, D ♦ diamonds, C ♣ clubs; T for ten;
- Spanish: P or E ♠ picas, espadas; C ♥ corazones; D ♦ diamantes; T ♣ tréboles; R for rey;
- Portuguese: E ♠ espadas; C ♥ copas; O ♦ ouros; P ♣ paus; V valete, D dama, R rei;
- and in every language X ★ for Five Crowns' stars (estrellas, estrelas), a letter no other suit
  has on any page; ★ and * read as stars too.
A rank word is glued to a symbol (`rey♥`, `dama♠`), or says its suit in words: `rey de
corazones`, `as de espadas`, `siete de picas`, `rei de copas`, `dama de ouros`, `seven of hearts`
(the joining word may be left out). Joining words (of; de, del; de, do, da, dos, das) are never
cards, and what can be read more than one way (a rank with no suit, a letter that is no suit on
this page) is a question naming the choices, never a silent guess. A refusal quotes only what was
typed.

The canonical text (English letters: `KH`) is what is stored and exported, and what the HTTP API
and the command line read unless told another language: it reads the same on every phone, and
so do suit symbols, which is how every text the app writes for another phone shows cards.

The browser reads with the same tables (`tables()`, static/js/cards.js), and a test compares the
two readers on the same texts, refusals included.
"""

import re
import unicodedata
from functools import lru_cache
from typing import NamedTuple

from .cards import CARDS, JOKER, RANK_TEXT, STARS, SUITS, SYMBOL, Card, CardError, check_pack
from .i18n import _, listing, ngettext
from .limits import MAX_HAND

# What separates cards: spaces (any kind), commas and semicolons. One class for both readers.
SEPARATORS = '[\\t\\n\\v\\f\\r ,;\\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff]+'
split_words = re.compile(SEPARATORS).split          # compiled once, not looked up in re's cache for every text
SUIT_SYMBOLS = {'♠': 'S', '♥': 'H', '♦': 'D', '♣': 'C', '♤': 'S', '♡': 'H', '♢': 'D', '♧': 'C',
                '★': 'X', '☆': 'X', '*': 'X'}
JOKERS = ('JK', 'JKR', 'JOKER', '🃏')
# The table's words for "a wild card": they say that a card is wild, not which card it is (a wild
# five is 5♥), so they are no card in any language; the message says what to type instead.
WILD_WORDS = ('COMODIN', 'COMODINES', 'CURINGA', 'CURINGAS', 'CORINGA', 'CORINGAS', 'WILD', 'WILDS')
DIGITS = {str(r): r for r in range(2, 11)}


class Language(NamedTuple):
    """How one language's tables write cards (every word in upper case, without accents)."""
    suit_letters: dict      # letter -> suit
    rank_letters: dict      # a letter or digits glued to a suit letter or symbol -> rank
    rank_words: dict        # a word, glued to a symbol or said with a suit word -> rank
    suit_words: dict        # word -> suit
    joining: tuple          # the words between a rank and a suit word
    example: str            # a card said in words


LANGUAGES = {
    'en': Language(
        suit_letters={'S': 'S', 'H': 'H', 'D': 'D', 'C': 'C', 'X': 'X'},
        rank_letters={'A': 1, 'T': 10, 'J': 11, 'Q': 12, 'K': 13, **DIGITS},
        rank_words={'ACE': 1, 'TWO': 2, 'THREE': 3, 'FOUR': 4, 'FIVE': 5, 'SIX': 6, 'SEVEN': 7, 'EIGHT': 8,
                    'NINE': 9, 'TEN': 10, 'JACK': 11, 'QUEEN': 12, 'KING': 13},
        suit_words={'SPADES': 'S', 'SPADE': 'S', 'HEARTS': 'H', 'HEART': 'H', 'DIAMONDS': 'D', 'DIAMOND': 'D',
                    'CLUBS': 'C', 'CLUB': 'C', 'STARS': 'X', 'STAR': 'X'},
        joining=('OF',), example='seven of spades'),
    'es': Language(
        suit_letters={'P': 'S', 'E': 'S', 'C': 'H', 'D': 'D', 'T': 'C', 'X': 'X'},
        rank_letters={'A': 1, 'J': 11, 'Q': 12, 'K': 13, 'R': 13, **DIGITS},
        rank_words={'AS': 1, 'DOS': 2, 'TRES': 3, 'CUATRO': 4, 'CINCO': 5, 'SEIS': 6, 'SIETE': 7, 'OCHO': 8,
                    'NUEVE': 9, 'DIEZ': 10, 'JOTA': 11, 'SOTA': 11, 'REINA': 12, 'DAMA': 12, 'REY': 13},
        suit_words={'PICAS': 'S', 'PICA': 'S', 'ESPADAS': 'S', 'ESPADA': 'S', 'CORAZONES': 'H', 'CORAZON': 'H',
                    'DIAMANTES': 'D', 'DIAMANTE': 'D', 'TREBOLES': 'C', 'TREBOL': 'C', 'ESTRELLAS': 'X',
                    'ESTRELLA': 'X'},
        joining=('DE', 'DEL'), example='siete de picas'),
    'pt': Language(
        suit_letters={'E': 'S', 'C': 'H', 'O': 'D', 'P': 'C', 'X': 'X'},
        rank_letters={'A': 1, 'J': 11, 'V': 11, 'Q': 12, 'D': 12, 'K': 13, 'R': 13, **DIGITS},
        rank_words={'AS': 1, 'DOIS': 2, 'TRES': 3, 'QUATRO': 4, 'CINCO': 5, 'SEIS': 6, 'SETE': 7, 'OITO': 8,
                    'NOVE': 9, 'DEZ': 10, 'VALETE': 11, 'DAMA': 12, 'REI': 13},
        suit_words={'ESPADAS': 'S', 'ESPADA': 'S', 'COPAS': 'H', 'COPA': 'H', 'OUROS': 'D', 'OURO': 'D',
                    'PAUS': 'C', 'PAU': 'C', 'ESTRELAS': 'X', 'ESTRELA': 'X'},
        joining=('DE', 'DO', 'DA', 'DOS', 'DAS'), example='sete de espadas'),
}


def letters_of(language):
    """The language whose letters a text is read in: one of LANGUAGES, English for any other."""
    return language if language in LANGUAGES else 'en'


def fold(text):
    """A word as the tables write it: upper case, without accents or emoji variation selectors."""
    return ''.join(c for c in unicodedata.normalize('NFD', text.upper()) if unicodedata.category(c) != 'Mn')


# Every card in canonical text, of every game's deck ('AS' ... 'KX', 'JK'), and the card it is.
CANONICAL = {str(c): c for c in [CARDS[Card(rank, suit)] for suit in SUITS + STARS for rank in RANK_TEXT] + [JOKER]}


class Reading(NamedTuple):
    """What one card's worth of typed text reads as: the text, and its card or the problem in words."""
    typed: str
    card: Card | None
    problem: str = ''


def read(text, language='en'):
    """Each card of a text as a table speaking `language` writes it, or the problem with it, in order.

    A word in canonical text ('7H', '10S', 'JK': how cards are stored and sent) read in English
    letters is looked up (`CANONICAL`) rather than read letter by letter: it is one card by itself
    in English, whatever comes next, so the lookup reads it as read_at() does (tests/test_cards.py
    holds the two to the same card for every canonical word)."""
    return read_words(*cut(text, language))


def cut(text, language):
    """(the words of a text, the Language it is read in, the canonical words looked up: `CANONICAL` in
    English letters, none in another language's)."""
    lang = LANGUAGES[letters_of(language)]
    return [w for w in split_words(text or '') if w], lang, CANONICAL if lang is LANGUAGES['en'] else {}


def read_words(words, lang, canonical):
    """read() of a text cut into words, the canonical ones looked up in `canonical` (see read())."""
    out, i = [], 0
    while i < len(words):
        card = canonical.get(words[i])
        if card is not None:
            out.append(Reading(words[i], card))
            i += 1
            continue
        taken, reading = read_at(words, i, lang)
        out.append(reading)
        i += taken
    return out


def read_at(words, i, lang):
    """(how many words, the Reading) of the card that starts at words[i]: a card written as one word,
    or a rank then (a joining word and) a suit word."""
    word, folded = words[i], fold(words[i])
    rank = rank_of(folded, lang)
    if rank is not None:
        ahead = [fold(w) for w in words[i + 1:i + 3]]
        if ahead and ahead[0] in lang.joining:
            ahead = ahead[1:]
            length = 3
        else:
            length = 2
        if ahead and ahead[0] in lang.suit_words:
            return length, Reading(' '.join(words[i:i + length]), Card(rank, lang.suit_words[ahead[0]]))
    return 1, read_word(word, folded, lang)


def rank_of(folded, lang):
    """The rank a word names (a letter, digits or a word), or None."""
    return lang.rank_letters.get(folded, lang.rank_words.get(folded))


def read_word(word, folded, lang):
    """The Reading of one word: a card, or why it is none."""
    shown = short(word)
    if folded in JOKERS:
        return Reading(word, JOKER)
    if folded in WILD_WORDS:
        return Reading(word, None, _("'%(text)s' says a card is wild, not which card it is: type the card "
                                     "itself (like 5♥ for a wild five), or JK for a joker", text=shown))
    if folded in lang.joining:
        return Reading(word, None, _("'%(text)s' is not a card: it joins a rank and a suit (%(example)s)",
                                     text=shown, example=lang.example))
    if folded in lang.suit_words:
        return Reading(word, None, _("'%(text)s' is a suit: which rank? (%(example)s)", text=shown,
                                     example=lang.example))
    rank = rank_of(folded, lang)
    if rank is not None:
        return Reading(word, None, _("'%(text)s' has no suit: which one? (%(choices)s)", text=shown,
                                     choices=choices(rank)))
    head, suit = folded[:-1], folded[-1:]
    if suit in SUIT_SYMBOLS and rank_of(head, lang) is not None:
        return Reading(word, Card(rank_of(head, lang), SUIT_SYMBOLS[suit]))
    if suit in lang.suit_letters and head in lang.rank_letters:
        return Reading(word, Card(lang.rank_letters[head], lang.suit_letters[suit]))
    if head in lang.rank_letters and suit.isascii() and suit.isalpha():
        return Reading(word, None, _("'%(text)s': which suit is %(letter)s? The suit letters here are %(letters)s",
                                     text=shown, letter=word[-1:], letters=suit_legend(lang)))
    return Reading(word, None, _("'%(text)s' is not a card", text=shown))


def choices(rank):
    """'K♠, K♥, K♦ or K♣': the cards a rank alone could be."""
    return listing((RANK_TEXT[rank] + SYMBOL[s] for s in SUITS), alternatives=True)


def legend(lang, suits=SUITS):
    """(['P or E ♠', 'C ♥', 'D ♦', 'T ♣'], ['R = K']): the letters a Language reads for a game's suits
    (Three-Thirteen's, or Five Crowns' with X ★), and its rank letters that are not the canonical
    ones; the pages show them beside every field of cards."""
    suits = [listing([l for l, s in lang.suit_letters.items() if s == suit], alternatives=True) + '\u00a0' + SYMBOL[suit]
             for suit in suits]
    ranks = [f'{letter}\u00a0=\u00a0{RANK_TEXT[rank]}' for letter, rank in lang.rank_letters.items()
             if letter != RANK_TEXT[rank]]
    return suits, ranks


def suit_legend(lang):
    """'P or E ♠, C ♥, D ♦, T ♣': a language's suit letters, as a message names them."""
    return ', '.join(legend(lang)[0])


def short(text, most=20):
    """Text quoted in a message, cut to a readable length."""
    return text if len(text) <= most else text[:most] + '…'


def typed(text, language='en'):
    """Cards written in English letters ('7H 8H KS'), as a player of `language` types them: each suit
    letter its language's first for that suit ('7C 8C KP' in Spanish); ranks and anything else as
    they are. For examples shown to a player (the command line's help): read back in that language,
    they are the same cards."""
    letters = LANGUAGES[letters_of(language)].suit_letters
    mine = {suit: letter for letter, suit in reversed(list(letters.items()))}
    return ' '.join(word[:-1] + mine.get(word[-1], word[-1]) if len(word) > 1 else word for word in text.split(' '))


def read_cards(text, language='en'):
    """The cards of a text, in order (no pack checked): CardError says what is wrong with the first
    that is none. A text all in canonical words read in English letters (how cards are stored and
    sent: a batch of solve --jsonl) is looked up word by word, as read() looks up each such word,
    without a Reading made for each; canonical words one space apart (how the app writes them) are
    not even cut by the separators' pattern, since no canonical word holds a separator
    (tests/test_cards.py holds both ways to the reader's cards)."""
    if text and letters_of(language) == 'en':
        try:
            return [CANONICAL[w] for w in text.split(' ')]
        except KeyError:
            pass
    words, lang, canonical = cut(text, language)
    try:
        return [canonical[w] for w in words]
    except KeyError:
        pass
    hand = []
    for reading in read_words(words, lang, canonical):
        if reading.card is None:
            raise CardError(reading.problem)
        hand.append(reading.card)
    return hand


def parse_cards(text, decks=2, jokers=0, max_cards=MAX_HAND, language='en', deck=None):
    """Read a hand from text as a table speaking `language` writes it, checking every card and the
    pack it was dealt from (`deck`: the game's suits and ranks, Three-Thirteen's by default)."""
    hand = read_cards(text, language)
    if len(hand) > max_cards:
        raise CardError(ngettext('%(count)d card, but a hand holds at most %(most)d',
                                 '%(count)d cards, but a hand holds at most %(most)d', len(hand),
                                 count=len(hand), most=max_cards))
    check_pack(hand, decks, jokers, deck)
    return hand


def parse_hand(text, rules, language='en'):
    """A hand typed at a table speaking `language`, read under a game's rules: its pack (decks, jokers,
    the deck's suits and ranks) and the most cards a hand of the game holds."""
    return parse_cards(text, rules.decks, rules.jokers, rules.deck.most_cards, language, rules.deck)


def card(text, language='en'):
    """One card as a table speaking `language` writes it, or CardError saying why it is none."""
    found = read(text, language)
    if len(found) != 1:
        raise CardError(_("'%(text)s' is not a card", text=short(text.strip())))
    if found[0].card is None:
        raise CardError(found[0].problem)
    return found[0].card


def canonical(text, language='en'):
    """Cards as typed at a table speaking `language`, in canonical text ('7C' in Spanish → '7H');
    CardError names the first that is no card."""
    return ' '.join(map(str, read_cards(text, language)))


def symbols(text, language='en'):
    """Cards with suit symbols ('7H 10S' → '7♥ 10♠'): how every text the app writes for another phone
    shows cards, since every language reads symbols alike. Text that is no cards (a round stored
    wrong) is shown as it is."""
    try:
        return ' '.join(c.pretty for c in read_cards(text, language)) if text else ''
    except CardError:
        return text


def parse_rank(text, language='en'):
    """A rank as a table speaking `language` names it ('5', '10', 'J', 'q', 'A', 'rey', 'sota', 'D' in
    Portuguese) as its number 1-13, or CardError: read by rank_of(), as the rank of a card is, so a
    wild rank takes exactly the rank words and letters a card does."""
    rank = rank_of(fold(str(text).strip()), LANGUAGES[letters_of(language)])
    if rank is None:
        raise CardError(_("'%(text)s' is not a rank (use A, 2‑10, J, Q or K)", text=short(str(text).strip())))
    return rank


@lru_cache(maxsize=16)
def tables(language='en'):
    """What the browser's reader (static/js/cards.js) reads cards with, for a page in `language`: the
    same tables as read(), and its messages in the page's words."""
    lang = LANGUAGES[letters_of(language)]
    mark = {'text': '{text}', 'example': lang.example}
    return {
        'separators': SEPARATORS, 'symbols': SUIT_SYMBOLS, 'jokers': list(JOKERS), 'wildWords': list(WILD_WORDS),
        'suitLetters': lang.suit_letters, 'rankLetters': lang.rank_letters, 'rankWords': lang.rank_words,
        'suitWords': lang.suit_words, 'joining': list(lang.joining),
        'rankText': {str(r): t for r, t in RANK_TEXT.items()}, 'suitSymbol': SYMBOL,
        'choices': {str(r): choices(r) for r in RANK_TEXT},
        'messages': {
            'notCard': _("'%(text)s' is not a card", **mark),
            'wild': _("'%(text)s' says a card is wild, not which card it is: type the card itself (like 5♥ for a "
                      "wild five), or JK for a joker", **mark),
            'joining': _("'%(text)s' is not a card: it joins a rank and a suit (%(example)s)", **mark),
            'suitWord': _("'%(text)s' is a suit: which rank? (%(example)s)", **mark),
            'noSuit': _("'%(text)s' has no suit: which one? (%(choices)s)", text='{text}', choices='{choices}'),
            'suitLetter': _("'%(text)s': which suit is %(letter)s? The suit letters here are %(letters)s", text='{text}',
                            letter='{letter}', letters=suit_legend(lang)),
        },
    }
