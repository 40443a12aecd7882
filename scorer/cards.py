"""Cards: the text people type, the canonical ASCII form, and the pretty form with suit symbols.

A card is written rank then suit, case-insensitive: `10h`, `Th`, `q♠`, `A♥`, `KC`.
A joker is `JK`. Cards are separated by spaces and/or commas (RULES.md, "Cards and decks").
"""

import re
from collections import Counter
from typing import NamedTuple

SUITS = 'SHDC'
SYMBOL = {'S': '♠', 'H': '♥', 'D': '♦', 'C': '♣'}
RANK_TEXT = {1: 'A', 11: 'J', 12: 'Q', 13: 'K', **{r: str(r) for r in range(2, 11)}}
RANK_NAME = {1: 'ace', 2: 'two', 3: 'three', 4: 'four', 5: 'five', 6: 'six', 7: 'seven',
             8: 'eight', 9: 'nine', 10: 'ten', 11: 'jack', 12: 'queen', 13: 'king'}
MAX_HAND = 20

_RANK_IN = {'A': 1, 'T': 10, 'J': 11, 'Q': 12, 'K': 13, **{str(r): r for r in range(2, 11)}}
_SUIT_IN = {'S': 'S', 'H': 'H', 'D': 'D', 'C': 'C', '♠': 'S', '♥': 'H', '♦': 'D', '♣': 'C',
            '♤': 'S', '♡': 'H', '♢': 'D', '♧': 'C'}
_JOKER_IN = {'JK', 'JKR', 'JOKER', '🃏'}
_CARD_RE = re.compile(r'(10|[2-9TJQKA])(.)')


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


def card(text):
    """Read one card, or raise CardError naming the text."""
    token = text.strip().upper().replace('\ufe0f', '')
    if token in _JOKER_IN:
        return JOKER
    m = _CARD_RE.fullmatch(token)
    if not m or m.group(2) not in _SUIT_IN:
        raise CardError(f"'{text.strip()}' is not a card")
    return Card(_RANK_IN[m.group(1)], _SUIT_IN[m.group(2)])


def ordinal(n):
    """1st, 2nd, 3rd, 4th, ..., 11th, 12th, 13th, 21st."""
    suffix = 'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')
    return f'{n}{suffix}'


def tokens(text):
    """Split card text on spaces and commas."""
    return [t for t in re.split(r'[\s,;]+', text or '') if t]


def parse_cards(text, decks=2, jokers=0, max_cards=MAX_HAND):
    """Read a hand from text, checking every token and the pack it was dealt from."""
    words = tokens(text)
    hand = []
    for i, word in enumerate(words, 1):
        try:
            hand.append(card(word))
        except CardError as e:
            raise CardError(f'{e} ({ordinal(i)} card)') from None
    if len(hand) > max_cards:
        raise CardError(f'{len(hand)} cards, but a hand holds at most {max_cards}')
    check_pack(hand, decks, jokers)
    return hand


NUMBER_WORD = {2: 'two', 3: 'three', 4: 'four', 5: 'five', 6: 'six', 7: 'seven', 8: 'eight'}


def check_pack(hand, decks=2, jokers=0):
    """Raise CardError if the pack (decks, jokers in play) could not have dealt these cards."""
    counts = Counter(hand)
    n_jokers = counts.pop(JOKER, 0)
    if n_jokers > jokers:
        if jokers == 0:
            raise CardError('a joker, but no jokers are in play' if n_jokers == 1 else
                            f'{n_jokers} jokers, but no jokers are in play')
        raise CardError(f'{n_jokers} jokers, but only {jokers} in play')
    for c in sorted(counts, key=order):
        if counts[c] > decks:
            n = counts[c]
            raise CardError(f"{NUMBER_WORD.get(n, n)} {c.pretty} but only {decks} "
                            f"deck{'s' if decks != 1 else ''}")


def order(card):
    """Sort key: suit by suit (♠ ♥ ♦ ♣), then rank; jokers last."""
    return (4, 0) if card.is_joker else (SUITS.index(card.suit), card.rank)


def text(cards):
    """Canonical ASCII text of cards: '10H QS JK'."""
    return ' '.join(str(c) for c in cards)


def pretty(cards):
    """Cards with suit symbols, for people: '10♥ Q♠ 🃏'."""
    return ' '.join(c.pretty for c in cards)


def parse_rank(text):
    """Read a rank ('5', '10', 'T', 'J', 'q', 'A') as a number 1-13, or raise CardError."""
    token = str(text).strip().upper()
    if token in _RANK_IN:
        return _RANK_IN[token]
    if token.isdigit() and 1 <= int(token) <= 13:
        return int(token)
    raise CardError(f"'{text}' is not a rank (use A, 2-10, J, Q or K)")


def rank_text(rank):
    """'A', '2', ..., '10', 'J', 'Q', 'K'."""
    return RANK_TEXT[rank]


def rank_plural(rank):
    """'aces', 'fives', 'sixes', 'kings': how a table names a wild rank."""
    name = RANK_NAME[rank]
    return name + ('es' if name.endswith('x') else 's')
