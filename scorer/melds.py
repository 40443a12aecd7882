"""The meld rule, once: whether a group of cards is one valid set or run, and how it plays.

The rule (docs/rules.md, "Melds"):
- a set is three or more cards of one rank, any suits (two decks give identical cards);
- a run is three or more cards of one suit in consecutive rank order, no rank twice, never past
  the ends of the suit: from the ace (low) to the king, or with aces high or low from the ace to
  the king and on to an ace on top (Five Crowns: from 3 to the king); a run never wraps round
  (K-A-2), so it holds at most one card of each rank of the deck (13; Five Crowns 11);
- wilds (jokers, and every card of the round's wild rank) stand in for any card, at the ends of a
  run or in its gaps, or in a set; a wild-rank card may also play as itself, unless
  `wild_rank_as_itself` is false (then it always stands in, even for itself);
- `max_wilds_per_meld`: at most that many cards of a meld stand in for another card (a wild-rank
  card playing itself does not count); `all_wild_melds` false: a meld needs a card playing itself;
- `set_suits` different: the cards of a set playing themselves are each of a different suit, and
  a wild standing in stands for a card of a suit not yet in it, so a set holds at most one card a
  suit of the deck (4; Five Crowns 5): 7♥ 7♥ 7♠ is no set, 7♥ 7♠ 🃏 is.

`valid(meld, wild, rules)` judges a meld whose every card says what it plays as: the tests hold
every meld the solver makes to it (tests/hands.py), and `meld_of(cards, wild, rules)` finds how a group of cards plays
when some way does (or says why none does: `faults()`), for the claims (scorer/claims.py).
"""

from collections import Counter
from typing import NamedTuple

from .cards import ACE_ON_TOP, KING, Card, order, rank_at


class Meld(NamedTuple):
    """A set or a run: its cards, and the card each one plays as (itself, or what a wild stands for).

    A wild standing in a set plays as the set's rank only: Card(7, '')."""
    kind: str
    cards: tuple
    plays: tuple

    @property
    def stand_ins(self):
        """The cards in the meld that stand in for another card."""
        return tuple(c for c, p in zip(self.cards, self.plays) if c != p)


def is_wild(card, wild):
    """Jokers are always wild, and so is every card of the round's wild rank."""
    return card.is_joker or card.rank == wild


def plays_itself(card, plays, wild, rules):
    """Whether a card in a meld plays as itself: it plays as its own card, and is no wild-rank card
    that the rules keep always wild (`wild_rank_as_itself` false)."""
    return card == plays and (rules.wild_rank_as_itself or card.rank != wild)


def top_place(rules):
    """The highest place of a run: the king, or with aces high or low the ace on top."""
    return ACE_ON_TOP if rules.aces == 'high_or_low' else KING


def foot_place(rules):
    """The lowest place of a run: the ace, or the lowest rank of the game's deck (Five Crowns' 3)."""
    return min(rules.deck.ranks)


def longest_run(rules):
    """The most cards in a run: one of each rank of the deck (13, or Five Crowns' 11)."""
    return len(rules.deck.ranks)


def stand_in_limit(rules):
    """How many cards of one meld may stand in for another card (None: any number)."""
    return rules.max_wilds_per_meld


def places(plays, rules):
    """The places (1 to the top place) of a run's cards as they play, from its foot; None if they
    are not one after another. An ace plays at 1 at the foot, or on top after a king."""
    out = []
    for i, p in enumerate(plays):
        place = p.rank
        if p.rank == 1 and i and top_place(rules) == ACE_ON_TOP:
            place = ACE_ON_TOP
        if out and place != out[-1] + 1:
            return None
        out.append(place)
    return out


def most_in_set(rules):
    """The most cards in a set: one a suit of the deck when its suits must differ (None: no limit)."""
    return len(rules.deck.suits) if rules.suits_differ else None


def suits_fault(as_itself, size, rules):
    """Why a set of these cards playing themselves and `size` cards in all breaks `set_suits`: a
    suit twice, or more cards than suits; () when it does not."""
    if not rules.suits_differ:
        return ()
    twice = [c for c in as_itself if sum(x.suit == c.suit for x in as_itself) > 1]
    if twice:
        return ('suit_twice', min(twice, key=order))
    if size > most_in_set(rules):
        return ('set_long', most_in_set(rules))
    return ()


def valid(meld, wild, rules):
    """Whether a meld, each card with what it plays as, is one valid set or run under the rules."""
    cards, plays = meld.cards, meld.plays
    if len(cards) < 3 or len(cards) != len(plays):
        return False
    own = [plays_itself(c, p, wild, rules) for c, p in zip(cards, plays)]
    if any(not mine and not is_wild(c, wild) for c, mine in zip(cards, own)):
        return False                              # only a wild plays as another card
    limit = stand_in_limit(rules)
    if limit is not None and own.count(False) > limit:
        return False
    if not any(own) and not rules.all_wild_melds:
        return False
    if meld.kind == 'set':
        themselves = [c for c, mine in zip(cards, own) if mine]
        return (len({p.rank for p in plays}) == 1 and all(not p.is_joker for p in plays)
                and not suits_fault(themselves, len(cards), rules))
    if meld.kind == 'run':
        if len(cards) > longest_run(rules) or len({p.suit for p in plays}) != 1 or not plays[0].suit:
            return False
        at = places(plays, rules)
        return at is not None and at[0] >= foot_place(rules) and at[-1] <= top_place(rules)
    return False


class Attempt(NamedTuple):
    """One way to read a group of cards: the meld it makes, or the fault that stops it."""
    meld: Meld | None
    fault: tuple = ()     # ('wilds', stand-ins, limit), ('all_wild',), ('twice', card), ('long', size),
                          # ('gap', missing places, suit, wilds), ('aces_low',), ('wrap', foot), ('mixed',),
                          # ('suit_twice', card), ('set_long', most)


def meld_of(cards, wild, rules):
    """How a group of cards plays as one valid set or run, or None when no way is valid."""
    for attempt in attempts(tuple(cards), wild, rules):
        if attempt.meld is not None:
            return attempt.meld
    return None


def faults(cards, wild, rules):
    """Why a group of cards is no meld: the faults of each way of reading it (see Attempt)."""
    if len(cards) < 3:
        return [('short',)]
    return [a.fault for a in attempts(tuple(cards), wild, rules) if a.meld is None]


def attempts(cards, wild, rules):
    """Every way worth trying to read the cards as one meld, each ending in a meld or a fault.

    The cards that are not wild (the naturals) decide: a set of their rank takes every wild as a
    stand-in, and a set of the wild rank takes the wild-rank cards as themselves; a run of their
    suit may take one wild-rank card of that suit as itself (a run holds each rank once), every
    other wild standing in. With no natural, the group is all wilds: see wilds_only()."""
    if len(cards) < 3:
        return
    naturals = [c for c in cards if not is_wild(c, wild)]
    if not naturals:
        yield from wilds_only(cards, wild, rules, list(read_by_naturals(cards, naturals, wild, rules)))
        return
    yield from read_by_naturals(cards, naturals, wild, rules)


def read_by_naturals(cards, naturals, wild, rules):
    """The readings the naturals decide (see attempts()): a set of their rank, runs of their suit."""
    wild_cards = [c for c in cards if not c.is_joker and c.rank == wild and rules.wild_rank_as_itself]
    ranks, suits = {c.rank for c in naturals}, {c.suit for c in naturals}
    if len(ranks) <= 1:
        rank = next(iter(ranks)) if ranks else wild
        as_itself = [c for c in cards if not c.is_joker and c.rank == rank]
        if rules.suits_differ and not naturals:        # a wild-rank card of a suit there already stands in
            as_itself = [c for i, c in enumerate(as_itself) if c.suit not in {x.suit for x in as_itself[:i]}]
        stand_ins = list(cards)
        for c in as_itself:
            stand_ins.remove(c)
        playing = sum(plays_itself(c, c, wild, rules) for c in as_itself)
        fault = suits_fault([c for c in as_itself if plays_itself(c, c, wild, rules)], len(cards), rules)
        yield Attempt(None, fault) if fault else limited(as_set(as_itself, stand_ins, rank or 1), playing, rules)
    if len(suits) == 1:
        suit = next(iter(suits))
        for runner in [None] + sorted({c for c in wild_cards if c.suit == suit}, key=order):
            in_run = naturals + ([runner] if runner else [])
            rest = list(cards)
            for c in in_run:
                rest.remove(c)
            yield as_run(in_run, rest, rules)
    if len(ranks) > 1 and len(suits) > 1:
        yield Attempt(None, ('mixed',))


def wilds_only(cards, wild, rules, as_set):
    """How a group of wilds only is read, named as a table names it (docs/rules.md, "Melds"): wild-rank
    cards all playing themselves are a set of their rank (`KS KD KC`, kings wild: three kings); any
    other group of wilds only is a run where it reads as one (`JK JK 7H`, sevens wild: 7♥ 8♥ 9♥;
    `KH KS JK`, kings wild: J♥ Q♥ K♥; `JK JK JK`: A♠ 2♠ 3♠), and a set where no run is valid (one
    wild per meld, more cards than a run holds). `as_set`: the set's readings; the score is the same."""
    run = [wilds_run(cards, wild, rules)]
    themselves = all(not c.is_joker and plays_itself(c, c, wild, rules) for c in cards)
    yield from (as_set + run) if themselves else (run + as_set)


def wilds_run(cards, wild, rules):
    """The run a group of wilds only reads as: its first wild-rank card as itself (or standing in for
    itself, when the rules keep it wild) with the others around it in its suit; with none, every
    card standing in from the foot of the deck's first suit."""
    first = next((c for c in cards if not c.is_joker and c.rank == wild), None)
    if first is None:
        if len(cards) > longest_run(rules):
            return Attempt(None, ('long', longest_run(rules)))
        suit = rules.deck.suits[0]
        return limited(Attempt(run_meld(suit, foot_place(rules), len(cards), {}, cards)), 0, rules)
    rest = list(cards)
    rest.remove(first)
    return as_run([first], rest, rules, playing=int(plays_itself(first, first, wild, rules)))


def limited(attempt, playing_itself, rules):
    """The attempt, or the fault of a meld with more stand-ins than the rules allow, or all wild when
    the rules need a card playing itself."""
    if attempt.meld is None:
        return attempt
    stand_ins = len(attempt.meld.cards) - playing_itself
    limit = stand_in_limit(rules)
    if limit is not None and stand_ins > limit:
        return Attempt(None, ('wilds', stand_ins, limit))
    if not playing_itself and not rules.all_wild_melds:
        return Attempt(None, ('all_wild',))
    return attempt


def as_set(as_itself, stand_ins, rank):
    """The set of `rank` these cards make: those of the rank as themselves, the others standing in."""
    return Attempt(Meld('set', tuple(as_itself) + tuple(stand_ins),
                        tuple(as_itself) + tuple(Card(rank, '') for _ in stand_ins)))


def as_run(naturals, stand_ins, rules, playing=None):
    """The run these naturals (one suit) make with the stand-ins in its gaps and on its ends, or the
    fault: a rank twice, too many cards, places missing, an ace that cannot follow the king, a wrap.
    `playing`: how many of them play as themselves (all, unless the rules keep a wild-rank card wild)."""
    size, suit = len(naturals) + len(stand_ins), naturals[0].suit
    twice = [r for r, n in Counter(c.rank for c in naturals).items() if n > 1]
    if twice:
        return Attempt(None, ('twice', Card(min(twice), suit)))
    if size > longest_run(rules):
        return Attempt(None, ('long', longest_run(rules)))
    top = top_place(rules)
    best = None
    for at in ace_places(naturals, top):
        low, high = min(at.values()), max(at.values())
        if high - low + 1 <= size:
            foot = max(foot_place(rules), min(low, top - size + 1))
            return limited(Attempt(run_meld(suit, foot, size, at, stand_ins)),
                           len(naturals) if playing is None else playing, rules)
        missing = tuple(p for p in range(low, high) if p not in at.values())
        if best is None or len(missing) < len(best[1]):
            best = ('gap', missing, suit, len(stand_ins))
    ranks = {c.rank for c in naturals}
    if top == KING and 1 in ranks and span_with_ace_on_top(ranks) <= size:
        return Attempt(None, ('aces_low',))
    if wraps(ranks, size, rules):
        return Attempt(None, ('wrap', foot_place(rules)))
    return Attempt(None, best)


def ace_places(naturals, top):
    """Each way to place the naturals of a run: an ace at 1, or also on top when aces are high."""
    low = {c: c.rank for c in naturals}
    yield low
    aces = [c for c in naturals if c.rank == 1]
    if aces and top == ACE_ON_TOP:
        yield {**low, aces[0]: ACE_ON_TOP}


def span_with_ace_on_top(ranks):
    """How many places the ranks would take with the ace above the king."""
    at = [ACE_ON_TOP if r == 1 else r for r in ranks]
    return max(at) - min(at) + 1


def wraps(ranks, size, rules):
    """Whether the ranks would fit in `size` places if a run could go round from the king to the
    foot (K-A-2, or Five Crowns' K-3-4)."""
    count = longest_run(rules)
    return any(all((r - start) % count < size for r in ranks) for start in ranks)


def run_meld(suit, foot, size, at, stand_ins):
    """The run of `size` places from `foot`: each natural at its place, the stand-ins in the rest."""
    by_place = {place: c for c, place in at.items()}
    free = list(stand_ins)
    cards, plays = [], []
    for place in range(foot, foot + size):
        plays.append(Card(rank_at(place), suit))
        cards.append(by_place[place] if place in by_place else free.pop(0))
    return Meld('run', tuple(cards), tuple(plays))
