"""Cards: the text people type, the canonical ASCII form, and the pretty form with suit symbols.

`comodín`, `curinga` and `coringa` are what a table calls a wild card; typed as a card they
are refused with a message saying to type the card itself (5♥) or JK for a joker.

A card is written rank then suit, case-insensitive: `10h`, `Th`, `q♠`, `A♥`, `KC`.
A joker is `JK`. Cards are separated by spaces and/or commas (docs/rules.md, "Cards and decks").

Cards typed at a table are read in its language (`reader(language)`), as its players write them:
- suit letters: es P picas, C corazones, D diamantes, T tréboles; pt E espadas, C copas, O ouros,
  P paus. The English letters keep working where they cannot be confused (S, H, and D in both);
  C (and P) mean another suit in Spanish and Portuguese, so there they are read the table's way.
  Symbols always work.
- ranks: `Jota`, `Sota`, `Reina`, `Rey`, `As` (es); `Valete`, `V`, `Dama`, `D`, `Rei`, `R`, `Ás`
  (pt): `Rey♥`, `D♠` (pt: Q♠), `VC` (pt: J♥).
- a rank and a suit word: `rey de corazones`, `rei de copas`, `dama de espadas`, `7 de picas`.
- a rank alone (`rey`, `as` in Spanish, `K`) is no card: the message asks which suit.
What is read is kept in canonical text (English letters: `KH`); stored and exported cards, and the
HTTP API and the command line, use only that, so they read the same in every language.
"""

import re
from collections import Counter
from functools import lru_cache
from typing import NamedTuple

from .i18n import N_, _, language, ngettext
from .limits import MAX_HAND

SUITS = 'SHDC'
SYMBOL = {'S': '♠', 'H': '♥', 'D': '♦', 'C': '♣'}
RANK_TEXT = {1: 'A', 11: 'J', 12: 'Q', 13: 'K', **{r: str(r) for r in range(2, 11)}}
KING = 13
ACE_ON_TOP = 14          # the place of an ace above the king in a run, when aces are high or low
MAX_RUN = 13             # the most cards in a run: A to K, or 2 to the ace on top (a run never wraps)
RANK_PLURAL = {1: N_('aces'), 2: N_('twos'), 3: N_('threes'), 4: N_('fours'), 5: N_('fives'),
               6: N_('sixes'), 7: N_('sevens'), 8: N_('eights'), 9: N_('nines'), 10: N_('tens'),
               11: N_('jacks'), 12: N_('queens'), 13: N_('kings')}

_RANK_IN = {'A': 1, 'T': 10, 'J': 11, 'Q': 12, 'K': 13, **{str(r): r for r in range(2, 11)},
            'AS': 1, 'ÁS': 1, 'JOTA': 11, 'REINA': 12, 'REY': 13,        # es
            'V': 11, 'VALETE': 11, 'DAMA': 12, 'REI': 13, 'R': 13}       # pt (and R for rey)
_SUIT_IN = {'S': 'S', 'H': 'H', 'D': 'D', 'C': 'C', '♠': 'S', '♥': 'H', '♦': 'D', '♣': 'C',
            '♤': 'S', '♡': 'H', '♢': 'D', '♧': 'C'}
_JOKER_IN = {'JK', 'JKR', 'JOKER', '🃏'}
# The table's words for "a wild card": they say that a card is wild, not which card it is (a wild
# five is 5♥), so they are no card; the message says what to type instead.
_WILD_WORDS = {'COMODÍN', 'COMODIN', 'COMODINES', 'CURINGA', 'CURINGAS', 'CORINGA', 'CORINGAS', 'WILD'}

# What each language adds. Suit letters replace the English ones they clash with (C, and P);
# the others (S, H, D) keep working. A rank word alone (AS in Spanish is the ace, not A♠) is a
# rank without a suit.
SUIT_LETTERS = {'es': {'P': 'S', 'C': 'H', 'D': 'D', 'T': 'C'},      # picas, corazones, diamantes, tréboles
                'pt': {'E': 'S', 'C': 'H', 'O': 'D', 'P': 'C'}}      # espadas, copas, ouros, paus
SUIT_WORDS = {'es': {'PICAS': 'S', 'CORAZONES': 'H', 'DIAMANTES': 'D', 'TRÉBOLES': 'C', 'TREBOLES': 'C'},
              'pt': {'ESPADAS': 'S', 'COPAS': 'H', 'OUROS': 'D', 'PAUS': 'C'}}
RANK_WORDS = {'es': {'SOTA': 11}, 'pt': {'D': 12}}
BARE_RANKS = {'es': {'AS', 'ÁS', 'JOTA', 'SOTA', 'REINA', 'REY'},
              'pt': {'ÁS', 'AS', 'VALETE', 'DAMA', 'REI'}}


class Reader(NamedTuple):
    """How one language's tables read a card: its ranks, suits, and the words of a rank alone."""
    ranks: dict
    suits: dict
    pattern: str          # a rank word then one suit character; the longest rank word is tried first
    bare: frozenset
    suit_words: dict
    phrase: str           # "<rank> de <suit word>": one card


@lru_cache(maxsize=8)
def reader(language='en'):
    """The card reader of a table speaking `language` ('en' is the canonical one)."""
    ranks = {**_RANK_IN, **RANK_WORDS.get(language, {})}
    suits = {**_SUIT_IN, **SUIT_LETTERS.get(language, {})}      # C (and P) the table's way
    pattern = '(' + '|'.join(sorted(ranks, key=lambda w: (-len(w), w))) + ')(.)'
    words = SUIT_WORDS.get(language, {})
    phrase = (r'(\S+)\s+DE\s+(' + '|'.join(sorted(words, key=lambda w: (-len(w), w))) + r')(?=[\s,;]|$)') if words else ''
    return Reader(ranks, suits, pattern, frozenset(BARE_RANKS.get(language, ())), words, phrase)


class CardError(ValueError):
    """A card text that cannot be read, or a hand the pack could not deal."""


class Card(NamedTuple):
    """A playing card: rank 1 (ace) to 13 (king) and a suit letter; a joker is rank 0, suit ''.

    A wild standing in a set plays as a rank only: Card(7, '') prints as '7'.
    """
    rank: int
    suit: str

    def __str__(self):
        return 'JK' if self.is_joker else RANK_TEXT[self.rank] + self.suit

    @property
    def is_joker(self):
        return self.rank == 0

    @property
    def pretty(self):
        """The card as people read it: 10♥, Q♠, 🃏 for a joker."""
        return '🃏' if self.is_joker else RANK_TEXT[self.rank] + SYMBOL.get(self.suit, '')


JOKER = Card(0, '')


def card(text, language='en'):
    """Read one card as a table speaking `language` writes it, or raise CardError naming the text."""
    return _card(text.strip().upper().replace('\ufe0f', ''), text, language)


@lru_cache(maxsize=1024)          # a table types the same few dozen cards again and again
def _card(token, text, language):
    if token in _JOKER_IN:
        return JOKER
    if token in _WILD_WORDS:
        raise CardError(_("'%(text)s' says a card is wild, not which card it is: type the card itself (like "
                          "5♥ for a wild five), or JK for a joker", text=text.strip()))
    read = reader(language)
    m = None if token in read.bare else re.fullmatch(read.pattern, token)
    if not m or m.group(2) not in read.suits:
        if token in read.ranks:
            raise CardError(_("'%(text)s' has no suit: which one? (%(example)s)", text=short(text.strip()),
                              example=text.strip() + '♥'))
        raise CardError(_("'%(text)s' is not a card", text=short(text.strip())))
    return Card(read.ranks[m.group(1)], read.suits[m.group(2)])


def short(text, most=20):
    """Text quoted in a message, cut to a readable length."""
    return text if len(text) <= most else text[:most] + '…'


def ordinal(n):
    """1st, 2nd, 3rd, 4th, ..., 11th, 12th, 13th, 21st (1.º, 2.º in Spanish and Portuguese)."""
    if language() != 'en':
        return _('%(n)d.', n=n)
    suffix = 'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')
    return f'{n}{suffix}'


def tokens(text):
    """Split card text on spaces and commas."""
    return [t for t in re.split(r'[\s,;]+', text or '') if t]


def parse_cards(text, decks=2, jokers=0, max_cards=MAX_HAND, language='en'):
    """Read a hand from text as a table speaking `language` writes it, checking every token and the
    pack it was dealt from."""
    hand = read_cards(text, language)
    if len(hand) > max_cards:
        raise CardError(_('%(count)d cards, but a hand holds at most %(most)d', count=len(hand), most=max_cards))
    check_pack(hand, decks, jokers)
    return hand


def read_cards(text, language='en'):
    """The cards of a text, in order (no pack checked): CardError names the first that is none."""
    hand = []
    for i, word in enumerate(tokens(phrases(text, language)), 1):
        try:
            hand.append(card(word, language))
        except CardError as e:
            raise CardError(_('%(error)s (%(nth)s card)', error=e, nth=ordinal(i))) from None
    return hand


def phrases(text, language):
    """The text with each "rank de suit word" written as one card (`rey de corazones` → `rey♥`)."""
    read = reader(language)
    if not read.phrase or not text:
        return text or ''
    return re.sub(read.phrase, lambda m: m.group(1) + SYMBOL[read.suit_words[m.group(2).upper()]],
                  text, flags=re.IGNORECASE)


def symbols(text):
    """Canonical card text with suit symbols ('7H 10S' → '7♥ 10♠'): what a form shows, since every
    language reads symbols alike. Text that is no cards (a round stored wrong) is shown as it is."""
    try:
        return ' '.join(c.pretty for c in read_cards(text)) if text else ''
    except CardError:
        return text


def canonical(text, language='en'):
    """Cards as typed at a table speaking `language`, in canonical text ('7C' in Spanish → '7H');
    CardError names the first that is no card."""
    return ' '.join(map(str, read_cards(text, language)))


def number_word(n):
    """'two', 'three': how many copies of a card, in words."""
    words = {2: _('two'), 3: _('three'), 4: _('four'), 5: _('five'), 6: _('six'), 7: _('seven'), 8: _('eight')}
    return words.get(n, str(n))


def check_pack(hand, decks=2, jokers=0):
    """Raise CardError if the pack (decks, jokers in play) could not have dealt these cards."""
    counts = Counter(hand)
    n_jokers = counts.pop(JOKER, 0)
    if n_jokers > jokers:
        if jokers == 0:
            raise CardError(ngettext('a joker, but no jokers are in play',
                                     '%(num)d jokers, but no jokers are in play', n_jokers))
        raise CardError(_('%(count)d jokers, but only %(jokers)d in play', count=n_jokers, jokers=jokers))
    over = [c for c, n in counts.items() if n > decks]
    if over:
        c = min(over, key=order)
        raise CardError(ngettext('%(count)s %(card)s but only %(num)d deck',
                                 '%(count)s %(card)s but only %(num)d decks', decks,
                                 count=number_word(counts[c]), card=c.pretty))


def order(card):
    """Sort key: suit by suit (♠ ♥ ♦ ♣), then rank; jokers last."""
    return (4, 0) if card.rank == 0 else (_SUIT_ORDER.get(card.suit, 0), card.rank)


_SUIT_ORDER = {s: i for i, s in enumerate(SUITS)}


def text(cards):
    """Canonical ASCII text of cards: '10H QS JK'."""
    return ' '.join(str(c) for c in cards)


def pretty(cards):
    """Cards with suit symbols, for people: '10♥ Q♠ 🃏'."""
    return ' '.join(c.pretty for c in cards)


def parse_rank(text):
    """Read a rank ('5', '10', 'T', 'J', 'q', 'A', 'Reina') as a number 1-13, or raise CardError."""
    token = str(text).strip().upper()
    if token in _RANK_IN:
        return _RANK_IN[token]
    if token.isascii() and token.isdigit() and len(token) <= 2 and 1 <= int(token) <= 13:
        return int(token)
    raise CardError(_("'%(text)s' is not a rank (use A, 2-10, J, Q or K)", text=short(str(text).strip())))


def run_places(rank, aces_high):
    """The places a card of this rank may take in a run: an ace also sits on top when aces are high."""
    return (1, ACE_ON_TOP) if rank == 1 and aces_high else (rank,)


def rank_at(place):
    """The rank that plays at a place of a run (the ace on top is an ace)."""
    return 1 if place == ACE_ON_TOP else place


def rank_text(rank):
    """'A', '2', ..., '10', 'J', 'Q', 'K'."""
    return RANK_TEXT[rank]


def rank_plural(rank):
    """'aces', 'fives', 'kings' (or 'reyes', 'reis'): how a table names a wild rank."""
    return _(RANK_PLURAL[rank])


def tables(language='en'):
    """What the browser's card parser (static/js/picker.js) reads cards with: the same tables as card()
    for the page's language. The page hands them over as JSON, so the two parsers can never say
    different things."""
    read = reader(language)
    return {'ranks': read.ranks, 'rankPattern': read.pattern, 'suits': read.suits, 'jokers': sorted(_JOKER_IN),
            'bare': sorted(read.bare), 'suitWords': read.suit_words, 'phrase': read.phrase,
            'rankText': {str(r): t for r, t in RANK_TEXT.items()}, 'symbols': SYMBOL}
