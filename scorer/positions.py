"""The search's words (scorer/solver.py's glossary names them): a natural as a number, the melds a
step may make (candidates), what is left to arrange (positions), the steps between them, and the
end of the search.
"""

from functools import lru_cache, partial
from itertools import combinations, product
from typing import NamedTuple

from .cards import ACE_ON_TOP, CARDS, KING, STARS, SUITS, Card, rank_at, run_places


PLACE = 15          # the bits of a natural that hold its place (the search's hottest lines mask with it inline)


def natural(suit, place):
    """A natural as the search writes it: suit number * 16 + place."""
    return suit * 16 + place


def suit_of(n):
    return n >> 4


def place_of(n):
    return n & PLACE


EVERY_SUIT = SUITS + STARS          # every suit of every game's deck (Five Crowns adds stars)
NATURAL = {CARDS[Card(rank, suit)]: natural(s, rank) for s, suit in enumerate(EVERY_SUIT) for rank in range(1, 14)}
CARD = {**{n: c for c, n in NATURAL.items()},
        **{natural(s, ACE_ON_TOP): CARDS[Card(1, suit)] for s, suit in enumerate(EVERY_SUIT)}}


@lru_cache(maxsize=16)
def naturals_of(wild):
    """Card -> its natural, for every card that plays as itself in a round with this wild rank (None:
    jokers only): every card of every deck but the jokers and the cards of the wild rank."""
    return {c: n for c, n in NATURAL.items() if c.rank != wild}


def naturals_taken(meld):
    """How many naturals a candidate meld takes besides the first (the search tries the most first)."""
    return len(meld.naturals)


# Where a natural comes in its group: rank by rank, low to high (then by suit).
SEARCH_ORDER = {n: place_of(n) * 16 + suit_of(n) for n in range(16 * 6)}


def run_pairs(n, aces_high, foot):
    """The pairs of naturals that make a 3-card run with natural n (an ace on top too when aces are
    high), no run going below the `foot` place."""
    suit, pairs = suit_of(n), []
    for place in run_places(place_of(n), aces_high):
        for low in range(max(foot, place - 2), min(place, (ACE_ON_TOP if aces_high else KING) - 2) + 1):
            pairs.append(tuple(natural(suit, rank_at(p)) for p in range(low, low + 3) if p != place))
    return tuple(pairs)


# A natural's kin: the naturals of its rank, its own included.
KIN = {n: frozenset(natural(s, place_of(n)) for s in range(len(EVERY_SUIT))) for n in NATURAL.values()}

# The other naturals of a natural's suit: a run holding it holds one of them at least, or only stand-ins.
SUITED = {n: frozenset(natural(suit_of(n), p) for p in range(1, KING + 1)) - {n} for n in NATURAL.values()}


@lru_cache(maxsize=8)
def kin_in(suits):
    """Each natural's kin in a deck of these suits (its own included), as a tuple: what the search
    counts to tell whether a natural can still make a set (no count is asked of a suit the deck lacks)."""
    return {n: tuple(natural(EVERY_SUIT.index(s), place_of(n)) for s in suits) for n in NATURAL.values()}


@lru_cache(maxsize=8)
def run_tables(aces_high, foot):
    """For each natural, with these run bounds: (the pairs that make a run with it, its mates: the
    naturals that make a meld with it and one stand-in, of its rank or of its suit near enough, its
    neighbours: those mates of its suit, as a tuple)."""
    pairs = {n: run_pairs(n, aces_high, foot) for n in NATURAL.values()}
    mates = {n: frozenset({x for pair in pairs[n] for x in pair} | KIN[n]) - {n} for n in pairs}
    return pairs, mates, {n: tuple(sorted(mates[n] - KIN[n])) for n in pairs}


class Solution(NamedTuple):
    """The minimal penalty of a hand, with one arrangement that reaches it."""
    penalty: int
    melds: tuple
    deadwood: tuple


# A Solution as each line's answer makes it: from a tuple of its fields (tuple.__new__, in C), not through the
# named tuple's own __new__, a Python function (see step_from() below).
solution_from = partial(tuple.__new__, Solution)


class Candidate(NamedTuple):
    """A meld holding the first natural left."""
    kind: str            # 'set' or 'run'
    first: int           # the first natural left
    naturals: tuple      # the other naturals it takes
    runners: tuple       # the runners it takes as themselves
    stand_ins: int       # the wilds it needs to stand in
    sinks: bool          # it takes the wilds left over at the end (see `Deal.wilds_left()`)
    span: tuple = ()     # a run's lowest and highest place


def set_of(naturals, stand_ins, sinks):
    """The Candidate set of these naturals (of one rank) and stand-ins."""
    return candidate_from(('set', naturals[0], naturals[1:], (), stand_ins, sinks, ()))


class Position(NamedTuple):
    """What is left to arrange (see the glossary)."""
    hand: tuple          # naturals, in search order
    wilds: int           # plain wild-rank cards (the jokers never change: `Deal.jokers`)
    runners: tuple       # runners, as naturals, in order
    owed: int            # the stand-ins the melds made so far hold (drawn from the wilds at the end)
    sink: bool           # a meld made so far takes the wilds left over at the end
    sets_made: bool      # the sets of the first natural's rank are made: it may only be in a run now


class Step(NamedTuple):
    """One move from a position: what it costs now, where it leads, and what it does."""
    cost: int
    after: Position
    deadwood: tuple = ()         # naturals it leaves out of every meld
    melds: tuple = ()            # the melds it makes (Candidates)


# A Step, its Position and a run Candidate as the hottest lines of the search make them: straight from
# a tuple of every field in order (tuple.__new__, in C), not through a named tuple's own __new__, a
# Python function.
position_from = partial(tuple.__new__, Position)
step_from = partial(tuple.__new__, Step)
candidate_from = partial(tuple.__new__, Candidate)


class Leftover(NamedTuple):
    """The end of the search, when only singles and wilds are left: their cost, and how they meld."""
    cost: int
    singles: int = 0             # how many singles meld, the dearest first (two stand-ins each)
    jokers: int = 0              # the jokers left after that
    wilds: int = 0               # and the plain wild-rank cards
    sets: tuple = ()             # (jokers, wild-rank cards) of each set the wilds left make
    to_sink: bool = False        # the wilds left all join a sink (a set, or a run with room)
    kept: tuple = ()             # the wild-rank cards kept for books, when a set's suits must differ (`books_left()`)


# A Leftover as the end of every search makes it (tuple.__new__, as position_from() above), and the end with no
# wild left, made once.
leftover_from = partial(tuple.__new__, Leftover)
NO_WILDS_LEFT = Leftover(cost=0)


@lru_cache(maxsize=256)
def natural_values(rules, wild):
    """What each natural costs as deadwood in a round with this wild rank: rules.value() asked once a
    rank, of its spade, since a card's value is its rank's (a table is made for each rules and wild
    rank a batch meets: asked of all 96 naturals, 9 M instructions of a 4,500-line batch, callgrind)."""
    of_rank = {rank: rules.value(CARD[natural(0, rank)], wild) for rank in range(1, KING + 1)}
    return {n: of_rank[c.rank] for n, c in CARD.items()}


def sub_multisets(cards, least):
    """Every sub-multiset of a tuple of naturals holding at least least[x] copies of each x (each
    once, as a sorted tuple), the largest first."""
    distinct = sorted(set(cards))
    if len(distinct) == len(cards):            # no copies (most hands): subsets of what is not forced
        must = tuple(x for x in distinct if least[x])
        free = [x for x in distinct if not least[x]]
        return [tuple(sorted(must + more)) for k in range(len(free), -1, -1) for more in combinations(free, k)]
    found = [tuple(x for x, n in zip(distinct, counts) for _ in range(n))
             for counts in product(*(range(least[x], cards.count(x) + 1) for x in distinct))]
    return sorted(found, key=len, reverse=True)


def without(cards, taken):
    """The tuple `cards` without the cards `taken` (each once), in the same order."""
    if not taken:
        return tuple(cards)
    left = list(cards)
    for c in taken:
        left.remove(c)
    return tuple(left)
