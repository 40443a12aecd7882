"""Cards: Card, the canonical ASCII text ('10H', 'QS', 'JK'), the pretty form with suit symbols
('10♥'), and the pack's copies of a card.

How a table types cards, in its language, is read by scorer/reading.py.
"""

import re
from collections import Counter
from functools import lru_cache
from typing import NamedTuple

from .i18n import N_, _, language, ngettext

SUITS = 'SHDC'            # Three-Thirteen's suits
STARS = 'X'               # Five Crowns' fifth suit, stars (★): X in canonical text, and typed in every language
SYMBOL = {'S': '♠', 'H': '♥', 'D': '♦', 'C': '♣', 'X': '★'}
RANK_TEXT = {1: 'A', 11: 'J', 12: 'Q', 13: 'K', **{r: str(r) for r in range(2, 11)}}
KING = 13
ACE_ON_TOP = 14          # the place of an ace above the king in a run, when aces are high or low
MAX_RUN = 13             # the most cards in a run: A to K, or 2 to the ace on top (a run never wraps)
RANK_PLURAL = {1: N_('aces'), 2: N_('twos'), 3: N_('threes'), 4: N_('fours'), 5: N_('fives'),
               6: N_('sixes'), 7: N_('sevens'), 8: N_('eights'), 9: N_('nines'), 10: N_('tens'),
               11: N_('jacks'), 12: N_('queens'), 13: N_('kings')}


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


class CardTexts(dict):
    """Card -> its canonical text (str(card)), looked up rather than written anew: every card of every
    game's deck, a rank a wild plays as in a set, and the joker; any other card is written by str()."""
    def __missing__(self, card):
        return str(card)


TEXT = CardTexts((c, str(c)) for c in [Card(rank, suit) for suit in ('',) + tuple(SUITS + STARS) for rank in RANK_TEXT]
                 + [JOKER])
# The one object of each card of TEXT: the tables keyed by cards (ORDER, pack_of(), reading.CANONICAL,
# positions.NATURAL and CARD) hold these very objects, so a card read or dealt is found in them by
# identity, not by comparing its rank and suit.
CARDS = {c: c for c in TEXT}


def ordinal(n):
    """1st, 2nd, 3rd, 4th, ..., 11th, 12th, 13th, 21st (1.º, 2.º in Spanish and Portuguese)."""
    if language() != 'en':
        return _('%(n)d.', n=n)
    suffix = 'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')
    return f'{n}{suffix}'


def tokens(text):
    """Split canonical card text (as stored: '7H 10S JK') into its cards' words."""
    return [t for t in re.split(r'[\s,;]+', text or '') if t]


def number_word(n):
    """'two', 'three': how many copies of a card, in words."""
    words = {2: _('two'), 3: _('three'), 4: _('four'), 5: _('five'), 6: _('six'), 7: _('seven'), 8: _('eight')}
    return words.get(n, str(n))


def copies(card, decks, jokers):
    """How many of a card the pack holds: a joker as many as are in play, any other card one a deck."""
    return jokers if card.is_joker else decks


def check_pack(hand, decks=2, jokers=0, deck=None):
    """Raise CardError if the pack (decks, jokers in play, and the game's `deck`: its suits and ranks,
    Three-Thirteen's by default) could not have dealt these cards."""
    suits, ranks = (deck.suits, deck.ranks) if deck else (SUITS, range(1, 14))
    held = set(hand)
    foreign = None if held <= pack_of(suits, ranks) else next(
        (c for c in hand if c.rank and (c.suit not in suits or c.rank not in ranks)), None)
    if foreign is not None:
        if foreign.suit not in suits:
            raise CardError(_('%(card)s: this game has no %(suit)s cards', card=foreign.pretty,
                              suit=SYMBOL.get(foreign.suit, foreign.suit)))
        raise CardError(_('%(card)s: this game has no %(rank)s', card=foreign.pretty, rank=rank_plural(foreign.rank)))
    extra = len(hand) - len(held)   # the copies beyond a card's first: a card held k times adds k - 1
    if extra < decks and (extra < jokers or JOKER not in held):
        return                      # so no card is held more often than the decks deal it, nor the joker
                                    # than the jokers in play (every hand of two decks but a few: no count)
    counts = Counter(hand)
    n_jokers = counts.pop(JOKER, 0)
    if n_jokers > copies(JOKER, decks, jokers):
        if jokers == 0:
            raise CardError(ngettext('a joker, but no jokers are in play',
                                     '%(num)d jokers, but no jokers are in play', n_jokers))
        raise CardError(ngettext('%(count)d joker, but only %(jokers)d in play',
                                 '%(count)d jokers, but only %(jokers)d in play', n_jokers, count=n_jokers, jokers=jokers))
    over = [c for c, n in counts.items() if n > copies(c, decks, jokers)]
    if over:
        c = min(over, key=order)
        raise CardError(ngettext('%(count)s %(card)s but only %(num)d deck',
                                 '%(count)s %(card)s but only %(num)d decks', decks,
                                 count=number_word(counts[c]), card=c.pretty))


@lru_cache(maxsize=8)
def pack_of(suits, ranks):
    """Every card a deck of these suits and ranks holds, and the joker: made once a deck, so that a
    hand is checked against it by one set operation (check_pack)."""
    return frozenset([CARDS[Card(rank, suit)] for suit in suits for rank in ranks] + [JOKER])


def order(card):
    """Sort key: suit by suit (♠ ♥ ♦ ♣ ★), then rank; jokers last."""
    return (5, 0) if card.rank == 0 else (_SUIT_ORDER.get(card.suit, 0), card.rank)


_SUIT_ORDER = {s: i for i, s in enumerate(SUITS + STARS)}


class CardOrder(dict):
    """Card -> its sort key (order(card)), looked up: every card of TEXT; any other is worked out."""
    def __missing__(self, card):
        return order(card)


ORDER = CardOrder((c, order(c)) for c in TEXT)


def text(cards):
    """Canonical ASCII text of cards: '10H QS JK'."""
    return ' '.join(map(TEXT.__getitem__, cards))


def pretty(cards):
    """Cards with suit symbols, for people: '10♥ Q♠ 🃏'."""
    return ' '.join(c.pretty for c in cards)


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
