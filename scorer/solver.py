"""The meld solver: a hand's minimal penalty and one arrangement of melds that reaches it.

The rule (docs/rules.md, "Scoring a round"): a player scores the smallest possible sum of the
values of the cards left out of every meld, over every way of arranging the hand into sets
and runs, wilds included.

Glossary: the words of this file
- natural: a card that plays as itself. The search writes a natural as a number,
  `natural(suit, place)`: the place is the rank (ace 1 ... king 13), and an ace above the
  king has place 14 (`ACE_ON_TOP`); `suit_of()` and `place_of()` read it back.
- wild: a joker, or a card of the round's wild rank. A wild in a meld is a stand-in for
  another card; a wild-rank card may instead play as itself.
- runner: a wild-rank card that may pay to play as itself in a run. That happens only when a
  meld takes at most one stand-in (a wild-rank card as itself does not count: docs/rules.md), and
  only while a natural of its suit is left near enough to share a run with it. The search
  keeps runners apart, by suit. Every other wild is a plain wild (a joker, or a plain
  wild-rank card): the search only counts those.
- candidate: a meld the search may make: its first natural, the other naturals it takes, the
  runners it takes as themselves, and how many stand-ins it holds.
- owed: the stand-ins the melds made so far hold. Any wild can stand in anywhere, so the search
  only counts them, and draws them from the jokers and wild-rank cards left at the end (every
  mix is tried there); a meld may take a stand-in only while the wilds left outnumber those owed.
- position: what is left to arrange: the naturals (in search order), how many plain wild-rank
  cards, which runners, the stand-ins owed, whether a sink was made (a meld that takes the
  wilds left over at the end), and whether the sets of the first natural's rank are made.
  The memo maps a position to its minimal penalty.
- step: one move from a position: the sets of the first natural's rank are made, all at once
  (which of its naturals go into sets, with how many stand-ins), or the first natural is
  deadwood, or it goes into a run; then the naturals at the head of what is left that can meld
  no more are deadwood on the way (`Deal.step()`). `Search.steps()` lists the steps; the
  search, the read-back of the best arrangement and the walk through tying arrangements all
  follow those same steps.
- kin and mates: a natural's kin are the naturals of its rank (`KIN`); its mates are the
  naturals that make a meld with it and one stand-in (`run_tables()`: its kin, and the naturals of
  its suit near enough to share a run).
- single: a natural that shares no meld with any other card of the hand: it melds only with
  two stand-ins, so the end of the search decides it.
- deadwood: the cards in no meld. The penalty is the sum of their values.

How one hand is solved, top to bottom: `Deal` sorts the hand into naturals, runners and plain
wilds, leaves out the naturals that can never meld and the singles, and puts the rest in
search order: group by group (a group is what one meld could ever join), and in a group rank
by rank, low to high, so the first natural left is the lowest of its suit and a run holding
it only goes up from it, but for stand-ins and runners. `Search.best()` takes the first
natural of a rank and makes the sets of that rank in every way at once (`Deal.set_steps()`:
the copies no run can take go into them), so that many copies of one rank, in three decks,
are not shared out among sets again and again; then each natural left of that rank is
deadwood or in one of the runs `Deal.runs_of()` lists. When no natural is left,
`Deal.leftover()` draws the stand-ins owed, melds the singles and the wilds that remain, or
counts them as deadwood.
Each position is searched once (the memo), and a step that cannot beat the best found so
far is cut short (branch and bound). `Search.solution()` follows the best steps from the
start, and `Deal.arrange()` deals the actual wild cards out to the melds.
"""

from functools import lru_cache
from itertools import combinations, product
from typing import NamedTuple

from .cards import ACE_ON_TOP, JOKER, KING, STARS, SUITS, Card, order, rank_at, run_places
from .melds import Meld, MeldError, foot_place, longest_run, valid
from .rules import DEFAULT

ANY = 99                 # stand-ins a meld may take when the rules set no limit
INFINITY = float('inf')


def natural(suit, place):
    """A natural as the search writes it: suit number * 16 + place."""
    return suit * 16 + place


def suit_of(n):
    return n >> 4


def place_of(n):
    return n & 15


EVERY_SUIT = SUITS + STARS          # every suit of every game's deck (Five Crowns adds stars)
NATURAL = {Card(rank, suit): natural(s, rank) for s, suit in enumerate(EVERY_SUIT) for rank in range(1, 14)}
CARD = {**{n: c for c, n in NATURAL.items()},
        **{natural(s, ACE_ON_TOP): Card(1, suit) for s, suit in enumerate(EVERY_SUIT)}}


def naturals_taken(meld):
    """How many naturals a candidate meld takes besides the first (the search tries the most first)."""
    return len(meld.naturals)


def search_order(n):
    """Where a natural comes in its group: rank by rank, low to high (then by suit)."""
    return place_of(n), n


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


@lru_cache(maxsize=8)
def run_tables(aces_high, foot):
    """For each natural, with these run bounds: (the pairs that make a run with it, its mates: the
    naturals that make a meld with it and one stand-in, of its rank or of its suit near enough)."""
    pairs = {n: run_pairs(n, aces_high, foot) for n in NATURAL.values()}
    mates = {n: frozenset({x for pair in pairs[n] for x in pair} | KIN[n]) - {n} for n in pairs}
    return pairs, mates


class Solution(NamedTuple):
    """The minimal penalty of a hand, with one arrangement that reaches it."""
    penalty: int
    melds: tuple
    deadwood: tuple


def solve(hand, wild, rules=DEFAULT):
    """The minimal penalty of a hand in a round whose wild rank is `wild` (None: jokers only), with
    one arrangement that reaches it."""
    return Search(Deal(hand, wild, rules)).solution()


def penalty(hand, wild, rules=DEFAULT, below=INFINITY):
    """The minimal penalty of a hand, when it is below `below`; otherwise some number at least
    `below` (the search stops as soon as it knows)."""
    return Search(Deal(hand, wild, rules)).penalty(below)


def goes_out(hand, wild, rules=DEFAULT):
    """Whether every card of the hand melds (penalty 0)."""
    return penalty(hand, wild, rules, below=1) == 0


def discards_to_go_out(hand, wild, rules=DEFAULT):
    """The cards whose discard leaves a hand that melds completely."""
    return [c for c in sorted(set(hand), key=order) if goes_out(without(hand, [c]), wild, rules)]


def best_discard(hand, wild, rules=DEFAULT, whole=None):
    """(the cards whose discard goes out, or else none, the discard that leaves least and what it
    leaves; ties go to the first card in text order). `whole` is the hand's own penalty.

    A discard of c leaves at least the whole hand's penalty less c's value (what is left, with
    c as deadwood, is an arrangement of the hand), so most discards need no search, and the
    others are searched only as far as they could beat the best so far."""
    if whole is None:
        whole = penalty(hand, wild, rules)
    floor = {c: whole - rules.value(c, wild) for c in set(hand)}
    cards = sorted(floor, key=lambda c: (floor[c], str(c)))
    out = [c for c in cards if floor[c] <= 0 and goes_out(without(hand, [c]), wild, rules)]
    if out:
        return sorted(out, key=order), None, 0
    best, least = None, INFINITY
    for c in cards:
        if floor[c] > least:
            break
        left = penalty(without(hand, [c]), wild, rules, below=least + 1)
        if (left, str(c)) < (least, str(best)):
            best, least = c, left
    return [], best, least


def arrangements(hand, wild, rules=DEFAULT, count=2, budget=3000):
    """Up to `count` arrangements that reach the minimal penalty, each grouping the cards differently.

    The first is solve()'s. Ties are followed for at most `budget` steps, so a hand with a huge
    number of equivalent arrangements may show fewer than exist, never more.
    """
    search = Search(Deal(hand, wild, rules))
    first = search.solution()
    found = {grouping(first): first}
    for solution in search.ties(budget):
        found.setdefault(grouping(solution), solution)
        if len(found) >= count:
            break
    return list(found.values())


def grouping(solution):
    """What tells two arrangements apart for people: the cards of each meld, and the deadwood."""
    return (tuple(sorted(tuple(sorted(map(str, m.cards))) for m in solution.melds)),
            tuple(sorted(map(str, solution.deadwood))))


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
    return Candidate(kind='set', first=naturals[0], naturals=naturals[1:], runners=(), stand_ins=stand_ins, sinks=sinks)


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


class Leftover(NamedTuple):
    """The end of the search, when only singles and wilds are left: their cost, and how they meld."""
    cost: int
    singles: int = 0             # how many singles meld, the dearest first (two stand-ins each)
    jokers: int = 0              # the jokers left after that
    wilds: int = 0               # and the plain wild-rank cards
    sets: tuple = ()             # (jokers, wild-rank cards) of each set the wilds left make
    to_sink: bool = False        # the wilds left all join a sink (a set, or a run with room)


class Deal:
    """A hand made ready for the search: naturals in search order, runners, plain wilds, values."""

    def __init__(self, hand, wild, rules):
        self.wild, self.rules = wild, rules
        self.aces_high = rules.aces == 'high_or_low'
        self.most = ANY if rules.max_wilds_per_meld is None else rules.max_wilds_per_meld
        self.jokers, self.wild_cards, naturals = self.sort_out(hand)
        # Free wilds: any wild may stand for any card in any meld, and three wilds left over make a
        # set of their own. So it is when melds may hold any number of wilds, and either all-wild
        # melds are allowed or there is no joker (wild-rank cards left over make a set of their rank).
        self.free = self.most > 1 and (rules.all_wild_melds or not self.jokers)
        self.sinks = self.most > 1                 # a set takes every wild left over
        self.value = natural_values(rules, wild)
        self.joker_value, self.wild_value = rules.joker_penalty, rules.wild_penalty
        # A run's bounds (scorer/melds.py): its foot (the ace, or Five Crowns' 3), its top, its length.
        self.foot, self.longest = foot_place(rules), longest_run(rules)
        self.sinking = self.longest - 2           # with free wilds, a run this long or shorter takes two wilds more
        self.run_pairs, self.mates = run_tables(self.aces_high, self.foot)
        # A runner plays as itself at the wild rank's place (an ace also on top).
        self.runner_places = run_places(wild, self.aces_high) if wild else ()
        self.near = {}            # natural -> the runner of its suit it could share a run with
        runners = self.find_runners(naturals)
        stand_ins = min(self.most, len(hand) - len(naturals))
        never = self.never_meld(naturals, runners, stand_ins)
        naturals = list(without(naturals, never))
        in_order, singles = self.search_order(naturals, runners, stand_ins)
        self.singles = sorted(singles, key=self.value.get, reverse=True)       # dearest first
        self.singles_cost = [sum(self.value[n] for n in self.singles[m:]) for m in range(len(singles) + 1)]
        # Whether a natural can meld with the whole hand, with 0 and with 1 stand-in (see `lone()`).
        self.ever = ({}, {})
        if stand_ins < 2:
            self.ever[stand_ins].update(dict.fromkeys(naturals, True))
        self.opening_hand, self.opening_runners = tuple(in_order), tuple(runners)
        self.ends = {}            # (wilds, owed, sink) -> the Leftover of the end
        # The first step: naturals that never meld.
        self.opening = self.step(self.cost(never), never, (), tuple(in_order),
                                 len(self.wild_cards) - len(runners), tuple(sorted(runners)), 0, False)

    def sort_out(self, hand):
        """(jokers, wild-rank cards in order, naturals as the search writes them)."""
        jokers, wild_cards, naturals = [], [], []
        for c in hand:
            (jokers if c.rank == 0 else wild_cards if c.rank == self.wild else naturals).append(c)
        return jokers, sorted(wild_cards, key=order), [NATURAL[c] for c in naturals]

    def find_runners(self, naturals):
        """The wild-rank cards that may play as themselves (one stand-in per meld, a natural of their
        suit near enough), noting in `near` which runner each natural could share a run with."""
        runners = []
        if self.most == 1 and self.wild:
            for c in self.wild_cards:
                r = NATURAL[c]
                near = [n for n in naturals if suit_of(n) == suit_of(r) and self.close(n, r)]
                if near:
                    runners.append(r)
                    self.near.update(dict.fromkeys(near, r))
        return runners

    def never_meld(self, naturals, runners, stand_ins):
        """The naturals that can be in no meld of this hand: deadwood from the start."""
        if stand_ins >= 2:
            return ()
        hand, runners = tuple(naturals), tuple(runners)
        return tuple(n for n in naturals if not self.can_meld(n, hand, stand_ins, runners))

    def search_order(self, naturals, runners, stand_ins):
        """(the naturals in search order, the singles). The search takes naturals group by group,
        and in a group rank by rank, low to high. A single (the one card of its group) melds only
        with two stand-ins: the end takes it."""
        in_order, singles = [], []
        copies = dict.fromkeys(naturals, 0)
        for n in naturals:
            copies[n] += 1
        for group in self.groups(list(copies), sorted(set(runners)), stand_ins):
            if len(group) == 1 and copies.get(group[0]) == 1:
                singles += group
            else:
                in_order += [n for n in sorted(group, key=search_order) for _ in range(copies.get(n, 0))]
        return in_order, singles

    def places(self, n):
        """The places a natural may take in a run: an ace may sit on top when aces are high."""
        return run_places(place_of(n), self.aces_high)

    def close(self, n, runner):
        """Whether a natural and a runner of its suit are near enough to share a run (one stand-in between)."""
        return any(abs(p - q) <= 2 for p in self.places(n) for q in self.runner_places)

    def groups(self, naturals, runners, stand_ins):
        """The naturals and runners in groups, where a group is what one meld could ever join.

        Two cards share a group when they have the same rank, or the same suit with at most
        `stand_ins` places between them (a runner between them counts as a natural). Searching
        one group after another lets the memo reuse each group's results whatever was done in
        the groups before.
        """
        cards = sorted(naturals + runners)               # suit by suit, low to high, each once
        group_of = {}                                    # a card -> the list of its group
        for n, previous in zip(cards, [None] + cards):
            if previous is not None and n - previous <= stand_ins + 1 and suit_of(n) == suit_of(previous):
                group_of[n] = group_of[previous]
                group_of[n].append(n)
            else:
                group_of[n] = [n]
        joins = []                                       # pairs of cards in the same group
        first_of_rank = {}
        for n in naturals:
            joins.append((first_of_rank.setdefault(place_of(n), n), n))
        if self.aces_high:                                    # an ace also sits above the king
            tops = {suit_of(n): n for n in cards}
            joins += [(n, tops[suit_of(n)]) for n in cards
                      if place_of(n) == 1 and ACE_ON_TOP - place_of(tops[suit_of(n)]) <= stand_ins + 1]
        for a, b in joins:
            a, b = group_of[a], group_of[b]
            if a is not b:
                a += b
                group_of.update(dict.fromkeys(b, a))
        return list({id(group): group for group in group_of.values()}.values())

    # --- What can meld with the first natural

    def can_meld(self, n, hand, limit, runners):
        """Whether natural n of the hand may be in a meld with at most `limit` stand-ins (0 or 1).
        With one stand-in it needs one mate (a natural of its rank, or of its suit near enough to
        share a run) or a runner near; with none, two more of its rank or a run's two other
        naturals. A natural that cannot stays so as cards go."""
        if limit:
            return (not self.mates[n].isdisjoint(hand) or hand.count(n) > 1
                    or bool(runners) and self.near.get(n) in runners)
        kin = KIN[n]
        return (len([x for x in hand if x in kin]) > 2
                or any(x in hand and y in hand for x, y in self.run_pairs[n]))

    def lone(self, hand, limit, runners):
        """How many naturals at the head of the hand can be in no meld (see `can_meld()`)."""
        ever = self.ever[limit]
        for i, n in enumerate(hand):
            could = ever.get(n)
            if could is None:     # whether it can meld with the whole hand: if not, it never will
                could = ever[n] = self.can_meld(n, self.opening_hand, limit, self.opening_runners)
            if could and self.can_meld(n, hand, limit, runners):
                return i
        return len(hand)

    def runs_of(self, c, rest, runners, limit):
        """Every run holding natural c, from the naturals `rest`, the runners, and at most `limit`
        stand-ins, those with the most naturals first. Runs that use the same cards are listed once."""
        found = {}
        if self.free:
            self.free_runs(c, rest, limit, found)
        else:
            self.runs(c, rest, runners, limit, found)
        return sorted(found.values(), key=naturals_taken, reverse=True)

    def set_steps(self, position):
        """Every way to make the sets of the first natural's rank, all at once: which of the naturals
        of that rank go into sets (any number of each, none too), and with how many stand-ins.
        The naturals of that rank left out of the sets may then only be in runs or deadwood.

        With any number of wilds per meld one set of the rank is enough (it takes the wilds
        left over at the end); with one stand-in per meld, m naturals make sets holding 0 to
        m // 2 stand-ins (a set of two naturals holds one)."""
        hand, wilds, runners, owed, sink, _ = position
        place, kin = place_of(hand[0]), self.kin_at_head(hand)
        same, rest = hand[:kin], hand[kin:]
        spare = self.spare(wilds, runners, owed)
        # Copies that no run can take go into the sets, if there are any: a set of one rank
        # needs no more stand-ins for a card more.
        least = {n: max(0, same.count(n) - self.runs_through(n, rest, runners)) for n in set(same)}
        for used in sub_multisets(same, least):
            if not used:
                continue              # no set: the runs of the first natural come next (`Search.steps()`)
            for stand_ins in self.set_stand_ins(len(used), spare):
                yield self.step(0, (), self.sets(used, stand_ins), without(same, used) + rest, wilds, runners,
                                owed + stand_ins, sink or (bool(used) and self.sinks), place)

    def runs_through(self, n, rest, runners):
        """How many runs could hold a copy of natural n at most: each holds a card of n's suit
        besides n (with one stand-in per meld, one within two places of it), and no two runs
        hold the same card."""
        suit = suit_of(n)
        if self.free:
            return sum(1 for x in rest if suit_of(x) == suit and place_of(x) != place_of(n))
        places = self.places(n)
        near = sum(1 for x in rest if suit_of(x) == suit and place_of(x) != place_of(n)
                   and any(abs(p - q) <= 2 for p in places for q in self.places(x)))
        return near + sum(1 for r in runners if suit_of(r) == suit and self.close(n, r))

    def set_stand_ins(self, naturals, spare):
        """How many stand-ins sets of `naturals` naturals of one rank may take, with `spare` wilds left."""
        if not naturals:
            return (0,)
        if self.most > 1:
            need = max(0, 3 - naturals)
            return (need,) if need <= spare else ()
        return range(0 if naturals > 2 else 1, min(naturals // 2, spare) + 1)

    def sets(self, used, stand_ins):
        """The sets `used` naturals of one rank make with `stand_ins` stand-ins: one set, or with one
        stand-in per meld, that many sets of two naturals and a stand-in, the last taking the rest."""
        if stand_ins <= 1 or self.most > 1:
            return (set_of(used, stand_ins, self.sinks),) if used else ()
        pairs = [set_of(used[i:i + 2], 1, False) for i in range(0, 2 * stand_ins - 2, 2)]
        last = used[2 * stand_ins - 2:]
        return tuple(pairs) + (set_of(last, 1, False),)

    def free_runs(self, c, rest, limit, found):
        """Runs holding c when wilds are free. A natural of c's suit between c and the run's far end
        is always taken (a stand-in in its place could swap with it and move to an end), so a
        run is told by its far natural and the stand-ins its gaps and length need. A run of 11
        cards or fewer is a sink (two wilds left over can still go on its ends; three make a set
        of their own); a longer one may take one or two stand-ins more. A run of c and stand-ins
        alone is left out: a set of c and two stand-ins does as much and is a sink. A 13-card run
        may also leave one or two naturals out for wilds that have no other place."""
        anchor = place_of(c)
        if anchor == 1 and self.aces_high:       # the ace on top, and the places below it
            self.free_run_ends(c, rest, limit, found, ACE_ON_TOP, -1, 2)
        self.free_run_ends(c, rest, limit, found, anchor, +1, ACE_ON_TOP if self.aces_high and anchor > 1 else KING)

    def free_run_ends(self, c, rest, limit, found, anchor, way, end):
        """The free runs from the anchor (c's place) towards `end`, one place at a time (`way` +1 or -1)."""
        base = natural(suit_of(c), 0)                  # base + place: the natural at that place
        back = anchor - self.foot if way > 0 else 0   # places behind the anchor, for stand-ins only
        taken, gaps, far = (), 0, anchor
        while far != end:
            far += way
            n = base + far if far != ACE_ON_TOP else None
            if n not in rest:
                gaps += 1
                if gaps > limit:
                    return
                continue
            taken += (n,)
            length = (far - anchor) * way + 1
            if length >= 3:
                if length <= self.sinking:
                    self.add_run(found, c, anchor, far, taken, gaps, limit)
                    continue
            elif gaps < limit:                         # two cards side by side: a stand-in on an end
                ahead = far + way
                if (ahead - end) * way <= 0 and base + ahead not in rest:
                    self.add_run(found, c, anchor, ahead, taken, 1, limit)
                elif back:
                    self.add_run(found, c, anchor - way, far, taken, 1, limit)
                continue
            else:
                continue
            # A run of the longest length, or one less: it may take one or two stand-ins more, on its ends.
            room = 0
            while room < 2 and (far + (room + 1) * way - end) * way <= 0 and \
                    base + far + (room + 1) * way not in rest:
                room += 1
            for stand_ins in range(gaps, min(limit, gaps + min(room + back, self.longest - length), gaps + 2) + 1):
                extra = stand_ins - gaps
                onward = min(extra, room)
                self.add_run(found, c, anchor - (extra - onward) * way, far + onward * way, taken, stand_ins, limit)

    def runs(self, c, rest, runners, limit, found):
        """Runs holding c when wilds are limited. c is the lowest natural of its suit left in its
        group, so below c a run holds only stand-ins and runners; above c, naturals of `rest` too.
        A run has 3 to `longest` places, never below the foot nor above the ace on top, and at most
        `limit` stand-ins; any natural may be left out for a stand-in (it may be needed elsewhere,
        and a meld may not be made of wilds alone)."""
        suit, anchor = suit_of(c), place_of(c)
        runner = natural(suit, self.wild) if self.wild and natural(suit, self.wild) in runners else None
        if anchor == 1 and self.aces_high:       # the ace on top, and the places below it
            for low, (naturals, own, stand_ins) in self.grow(suit, ACE_ON_TOP, -1, rest, runner, limit, 2):
                if ACE_ON_TOP - low >= 2:
                    self.add_run(found, c, low, ACE_ON_TOP, naturals, stand_ins, limit, own)
        below = ([(anchor, ((), (), 0))] if anchor == self.foot else
                 list(self.grow(suit, anchor, -1, (), runner, limit, self.foot)))
        ceiling = ACE_ON_TOP if self.aces_high and anchor > 1 else KING
        for top, (naturals, own, stand_ins) in self.grow(suit, anchor, +1, rest, runner, limit, ceiling):
            for low, (_, own_below, more) in below:
                if stand_ins + more <= limit and 3 <= top - low + 1 <= self.longest:
                    self.add_run(found, c, low, top, naturals, stand_ins + more, limit, own + own_below)

    def grow(self, suit, anchor, way, rest, runner, limit, end):
        """Walk away from the anchor one place at a time (`way` +1 up, -1 down), filling each place
        with a natural of `rest`, the runner, or a stand-in: yields (place reached, (naturals,
        runners, stand-ins)) for each filling, the anchor alone first, never past the place `end`."""
        shapes = [((), (), 0)]
        place = anchor
        while True:
            for shape in shapes:
                yield place, shape
            place += way
            if (place - end) * way > 0:
                return
            n = natural(suit, place) if place != ACE_ON_TOP else None
            has_natural = n in rest
            has_runner = runner is not None and place in self.runner_places
            grown = []
            for naturals, own, stand_ins in shapes:
                if has_natural:
                    grown.append((naturals + (n,), own, stand_ins))
                if has_runner:
                    grown.append((naturals, own + (runner,), stand_ins))
                if stand_ins < limit:
                    grown.append((naturals, own, stand_ins + 1))
            if not grown:
                return
            shapes = grown

    def add_run(self, found, c, one_end, other_end, naturals, stand_ins, limit, runners=()):
        """Add the run from one end to the other; with free wilds a 13-card run may also leave one or
        two naturals out for wilds that have no other place."""
        span = (one_end, other_end) if one_end < other_end else (other_end, one_end)
        sinks = self.free and span[1] - span[0] < self.sinking
        key = ('run', naturals, runners, stand_ins)
        if key not in found:
            found[key] = Candidate(kind='run', first=c, naturals=naturals, runners=runners, stand_ins=stand_ins,
                                   sinks=sinks, span=span)
        if self.free and span[1] - span[0] == self.longest - 1:
            for n in (1, 2):
                if stand_ins + n <= limit:
                    for out in sorted(set(combinations(naturals, n))):
                        left = without(naturals, out)
                        found.setdefault(('run', left, runners, stand_ins + n),
                                         Candidate(kind='run', first=c, naturals=left, runners=runners,
                                                   stand_ins=stand_ins + n, sinks=False, span=span))

    # --- Positions

    def step(self, cost, deadwood, melds, hand, wilds, runners, owed, sink, sets_of=None):
        """The Step to the position these cards leave, told the same way however it was reached.

        Runners that can no longer play as themselves become plain wild-rank cards: a suit keeps
        at most as many runners as it has naturals left near them (each run a runner plays
        itself in holds one of those naturals). Naturals at the head of the hand that can be
        in no meld any more are deadwood on the way (`lone()`). A sink with no wild left makes
        no difference. `sets_of` is the place whose sets are made; the sets of the first
        natural's rank count as made too when no set of it can be made any more.
        """
        if runners:
            wilds, runners = self.runners_kept(hand, wilds, runners)
        spare = self.spare(wilds, runners, owed)
        limit = min(spare, self.most)
        if limit < 2 and hand:
            lone = self.lone(hand, limit, runners)
            if lone:
                deadwood, cost = deadwood + hand[:lone], cost + self.cost(hand[:lone])
                hand = hand[lone:]
                if runners:
                    wilds, runners = self.runners_kept(hand, wilds, runners)
        sets_made = bool(hand) and (place_of(hand[0]) == sets_of or not self.may_set(hand, limit))
        # Positional, in field order: the hottest line of the search (keywords here cost 5 % of a solve).
        after = Position(hand, wilds, runners, owed, sink and spare > 0, sets_made)
        return Step(cost, after, deadwood, melds)

    def runners_kept(self, hand, wilds, runners):
        """(wilds, runners) once the runners that can no longer play as themselves are plain wilds."""
        kept = []
        for r in sorted(set(runners)):
            near = sum(1 for n in hand if self.near.get(n) == r)
            kept += [r] * min(near, runners.count(r))
        return wilds + len(runners) - len(kept), tuple(kept)

    def may_set(self, hand, limit):
        """Whether the naturals of the first natural's rank can still make a set, with at most `limit` stand-ins."""
        if limit < 2 and (len(hand) < 2 or place_of(hand[1]) != place_of(hand[0])):
            return False          # a lone natural of its rank needs two stand-ins
        kin = self.kin_at_head(hand)
        return kin >= 3 or kin + min(limit, 2 if self.most > 1 else 1) >= 3

    @staticmethod
    def kin_at_head(hand):
        """How many naturals at the head of the hand share the first one's rank (they come together)."""
        place, count = place_of(hand[0]), 1
        while count < len(hand) and place_of(hand[count]) == place:
            count += 1
        return count

    def spare(self, wilds, runners, owed):
        """How many wilds are left for stand-ins: the jokers, plain wild-rank cards and runners, less
        the stand-ins the melds made so far hold."""
        return len(self.jokers) + wilds + len(runners) - owed

    def cost(self, naturals):
        """What naturals cost as deadwood."""
        return sum(map(self.value.__getitem__, naturals)) if naturals else 0

    def leftover(self, wilds, owed, sink):
        """The cost of the end, when no natural is left but the singles: the stand-ins the melds hold
        are drawn from the jokers and the wild-rank cards, each single melds with two stand-ins,
        the dearest first, and then the wilds still left meld or are deadwood (`wilds_left()`).
        Every number of singles melded and every mix of jokers and wild-rank cards drawn is tried."""
        known = self.ends.get((wilds, owed, sink))
        if known:
            return known
        best, jokers = None, len(self.jokers)
        for melded in range(len(self.singles) + 1):
            need = owed + 2 * melded
            if melded and (self.most < 2 or need > jokers + wilds):
                break
            for from_jokers in range(max(0, need - wilds), min(need, jokers) + 1):
                end = self.wilds_left(jokers - from_jokers, wilds - (need - from_jokers),
                                      sink or (melded > 0 and self.sinks))
                cost = self.singles_cost[melded] + end.cost
                if best is None or cost < best.cost:
                    best = end._replace(cost=cost, singles=melded)
        self.ends[wilds, owed, sink] = best
        return best

    def wilds_left(self, jokers, wilds, sink):
        """What the wilds left at the very end cost, and the sets they make.

        A set has no size limit, so with any number of wilds per meld three make a set of their
        own (one of them a wild-rank card playing itself, when all-wild melds are barred), and
        fewer join a sink: a set made before, or with free wilds a run with room on its ends.
        With one stand-in per meld, wild-rank cards make a set of their rank and each set takes
        one joker.
        """
        if not jokers and not wilds:
            return Leftover(cost=0)
        if self.most > 1 and jokers + wilds >= 3 and (wilds or self.rules.all_wild_melds):
            return Leftover(cost=0, jokers=jokers, wilds=wilds, sets=((jokers, wilds),))
        if sink:
            return Leftover(cost=0, jokers=jokers, wilds=wilds, to_sink=True)
        if self.most == 1 and (wilds >= 3 or (wilds == 2 and jokers)):
            with_joker = min(jokers, wilds // 2)
            if not with_joker:
                return Leftover(cost=0, jokers=jokers, wilds=wilds, sets=((0, wilds),))
            sets = ((1, wilds - 2 * (with_joker - 1)),) + ((1, 2),) * (with_joker - 1)
            return Leftover(cost=(jokers - with_joker) * self.joker_value, jokers=jokers, wilds=wilds, sets=sets)
        return Leftover(cost=jokers * self.joker_value + wilds * self.wild_value, jokers=jokers, wilds=wilds)

    # --- From the steps taken to melds of cards

    def arrange(self, penalty, steps, end):
        """The Solution that a line of steps from the start reaches, with the wild cards dealt out:
        the runners played as themselves, the wilds left at the end, then the stand-ins."""
        deadwood, layouts = [], []
        for step in steps:
            deadwood += [CARD[n] for n in step.deadwood]
            layouts += [self.layout(meld) for meld in step.melds]
        tail = self.leftover(end.wilds, end.owed, end.sink)
        for n in self.singles[:tail.singles]:
            layouts.append(('set', [(CARD[n], CARD[n])] + [(Card(place_of(n), ''), None)] * 2))
        deadwood += [CARD[n] for n in self.singles[tail.singles:]]
        wild_cards = list(self.wild_cards)
        for _, places in layouts:
            for plays, card in places:
                if card is not None and card.rank == self.wild:
                    wild_cards.remove(card)
        left_jokers = [JOKER] * tail.jokers
        left_wilds = wild_cards[len(wild_cards) - tail.wilds:]
        pool = [JOKER] * (len(self.jokers) - tail.jokers) + wild_cards[:len(wild_cards) - tail.wilds]
        melds = [self.meld(kind, places, pool) for kind, places in layouts]
        if tail.to_sink:
            spare = left_jokers + left_wilds
            sets = [i for i, m in enumerate(melds) if m.kind == 'set']
            if sets:
                m = melds[sets[0]]
                melds[sets[0]] = Meld('set', m.cards + tuple(spare), m.plays + plays_in_set(spare, m.plays[0].rank))
            else:
                i = next(i for i, m in enumerate(melds) if len(m.cards) + len(spare) <= self.longest)
                melds[i] = self.lengthen(melds[i], spare)
            left_jokers, left_wilds = [], []
        elif tail.sets:
            for n_jokers, n_wilds in tail.sets:
                cards = [left_wilds.pop() for _ in range(n_wilds)] + [left_jokers.pop() for _ in range(n_jokers)]
                melds.append(Meld('set', tuple(cards), plays_in_set(cards, self.wild or 1)))
        deadwood += left_wilds + left_jokers
        for m in melds:               # every meld the search makes is held to the one meld rule
            if not valid(m, self.wild, self.rules):
                raise MeldError(f'the solver made {m.kind} {" ".join(map(str, m.cards))}, which is no meld')
        return Solution(penalty, tuple(melds), tuple(sorted(deadwood, key=order)))

    def layout(self, meld):
        """A meld as its kind and places: (the card each plays as, the card there, or None for a stand-in to come)."""
        c = meld.first
        if meld.kind == 'set':
            stand = Card(place_of(c), '')
            return 'set', [(CARD[n], CARD[n]) for n in (c,) + meld.naturals] + [(stand, None)] * meld.stand_ins
        suit, (low, top) = suit_of(c), meld.span
        naturals = set(meld.naturals) | {c}
        own = {place: r for r in meld.runners for place in self.runner_places if low <= place <= top}
        places = []
        for place in range(low, top + 1):
            plays = CARD[natural(suit, place)]
            if natural(suit, place) in naturals or (place == ACE_ON_TOP and place_of(c) == 1):
                places.append((plays, plays))
            else:
                places.append((plays, CARD[own[place]] if place in own else None))
        return 'run', places

    def lengthen(self, run, wilds):
        """A run with wilds more on its ends: below its foot while there is room, then above its top."""
        suit, places = EVERY_SUIT.index(run.plays[0].suit), [place_of(NATURAL[p]) for p in run.plays]
        if places[-1] == 1:
            places[-1] = ACE_ON_TOP
        low, top = places[0], places[-1]
        cards, plays = list(run.cards), list(run.plays)
        for wild in wilds:
            if low > self.foot + (1 if top == ACE_ON_TOP else 0):
                low -= 1
                cards.insert(0, wild)
                plays.insert(0, CARD[natural(suit, low)])
            else:
                top += 1
                cards.append(wild)
                plays.append(CARD[natural(suit, top)])
        return Meld('run', tuple(cards), tuple(plays))

    @staticmethod
    def meld(kind, places, pool):
        """A Meld from its places, taking each stand-in from the pool (the card itself when it is there)."""
        cards = tuple(card if card is not None else take(pool, plays) for plays, card in places)
        return Meld(kind, cards, tuple(plays for plays, _ in places))


class Search:
    """The exact search over one deal: the minimal penalty of every position it meets, memoised."""

    def __init__(self, deal):
        self.deal = deal
        self.memo = {}          # position -> its minimal penalty
        self.choice = {}        # position -> the first step that reaches it
        self.floor = {}         # position -> a number its penalty is not below

    def penalty(self, below=INFINITY):
        """The minimal penalty of the hand (when it is below `below`, else a number not below it)."""
        opening = self.deal.opening
        if opening.cost >= below:
            return opening.cost
        return opening.cost + self.best(opening.after, below - opening.cost)

    def best(self, position, bound=INFINITY):
        """The minimal penalty of what is left at a position, when it is below `bound`; otherwise a
        number at least `bound` that the penalty is not below (branch and bound: a step that
        cannot beat the best found so far is not searched to the end)."""
        cost = self.memo.get(position)
        if cost is not None:
            return cost
        floor = self.floor.get(position, 0)
        if floor >= bound:
            return floor
        if not position.hand:
            cost = self.memo[position] = self.deal.leftover(position.wilds, position.owed, position.sink).cost
            return cost
        cost, choice = INFINITY, None
        for step in self.steps(position):
            beat = min(cost, bound) - step.cost
            total = step.cost + (self.best(step.after, beat) if beat > 0 else 0)
            if total < cost:
                cost, choice = total, step
                if cost == 0:
                    break
        if cost < bound:
            self.memo[position], self.choice[position] = cost, choice
        else:
            self.floor[position] = cost
        return cost

    def steps(self, position):
        """Every move from a position: the sets of its first natural's rank are made, in every way
        (unless they are made already), or there are none, and the first natural is deadwood or
        in one of its runs."""
        deal = self.deal
        if not position.sets_made:
            yield from deal.set_steps(position)
        hand, wilds, runners, owed, sink, _ = position
        c, rest = hand[0], hand[1:]
        place = place_of(c)
        spare = deal.spare(wilds, runners, owed)
        for meld in deal.runs_of(c, rest, runners, min(spare, deal.most)):
            # the runners it plays as themselves leave enough wilds for every stand-in held
            if spare - len(meld.runners) - meld.stand_ins >= 0:
                yield deal.step(0, (), (meld,), without(rest, meld.naturals), wilds, without(runners, meld.runners),
                                owed + meld.stand_ins, sink or meld.sinks, place)
        yield deal.step(deal.value[c], (c,), (), rest, wilds, runners, owed, sink, place)

    def solution(self):
        """One arrangement that reaches the minimal penalty: the best steps from the start."""
        penalty, opening = self.penalty(), self.deal.opening
        position, steps = opening.after, [opening]
        while position.hand:
            step = self.choice[position]
            steps.append(step)
            position = step.after
        return self.deal.arrange(penalty, steps, position)

    def ties(self, budget):
        """Every arrangement that reaches the minimal penalty, following each tie (at most `budget` steps)."""
        penalty, opening = self.penalty(), self.deal.opening
        count = 0

        def walk(position, steps):
            nonlocal count
            count += 1
            if count > budget:
                return
            if not position.hand:
                yield self.deal.arrange(penalty, steps, position)
                return
            goal = self.best(position)
            for step in self.steps(position):
                if step.cost <= goal and self.best(step.after, goal - step.cost + 1) == goal - step.cost:
                    yield from walk(step.after, steps + [step])

        yield from walk(opening.after, [opening])


@lru_cache(maxsize=256)
def natural_values(rules, wild):
    """What each natural costs as deadwood in a round with this wild rank."""
    return {n: rules.value(c, wild) for n, c in CARD.items()}


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


def plays_in_set(wilds, rank):
    """What wilds in a set of `rank` play as: a card of that rank as itself, any other as the rank."""
    return tuple(c if c.rank == rank else Card(rank, '') for c in wilds)


def take(wilds, stands):
    """Take a wild for a place: the card itself if it is there (a wild-rank card as itself)."""
    for i, c in enumerate(wilds):
        if c == stands or (not stands.suit and c.rank == stands.rank):
            return wilds.pop(i)
    return wilds.pop(0)
