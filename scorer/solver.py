"""The meld solver: a hand's minimal penalty and one arrangement of melds that reaches it:
solve(hand, wild, rules) -> Solution(penalty, melds, deadwood); ties (arrangements()); going out.

The rule (docs/rules.md, "Scoring a round"): a player scores the smallest possible sum of the
values of the cards left out of every meld, over every way of arranging the hand into sets
and runs, wilds included. tests/brute.py is that rule as a program (every meld of the hand, every
cover of the hand by them): it is the definition, and this search must agree with it everywhere.
This file is the same answer found faster; where a move below is less obvious than the brute
force, its docstring says why it loses nothing.

Why each move is tried. brute.py's `best()` takes the first card left and tries it as deadwood
and in every meld that holds it. The search does the same with the first natural left (the
naturals come in one fixed order, the search order below), and a natural in any arrangement is
in a set, in a run, or deadwood; so these three moves reach every arrangement:
- the sets of its rank, first and all at once (`set_steps()`): the naturals of a rank come
  together, so which copies go into sets, and with how many stand-ins, is one move, not a move
  per copy that would meet the same sets in every order; a copy no run can take always goes in
  (a set takes a card of its rank for no stand-in more; otherwise it is deadwood); a set of one
  natural on two stand-ins is not tried when a dearer natural is then deadwood in every line
  (`alone_loses()`: that one set alone on them does better); nor, in the search for the best line
  (not in the walk through ties), a set on stand-ins while another natural of its rank is left out
  (`fewest_untied()`: with free wilds it at best ties the set taking that natural too, tried first);
- the runs through it (`runs_of()`): it is the lowest natural of its suit left in its group, so
  a run holding it goes up from it (below it only stand-ins and runners); each run of the
  naturals left is listed once, told by the cards it takes, since where its stand-ins sit does
  not matter;
- deadwood, tried last: its value and the singles' floor below (the move leaves the wilds as they
  are) are a floor on what that move costs, so once a meld move has found no dearer a total the
  move is cut short, never wrongly (branch and bound).
What prunes, besides the memo (each position searched once): the bound above; the singles' floor
(`Search.best()`: a single melds only with two stand-ins, so with s wilds left all but the s // 2
dearest singles are deadwood in every line: a position whose floor costs its bound is not searched,
and once a move reaches the floor no other is tried); and in a big search (more than `BIG`
positions met: a random hand's whole search is about 8) the certain deadwood of a position
(`Search.certain_deadwood()`): with fewer than two stand-ins left a natural melds only with a mate,
and cards only go, so a natural with no mate left is deadwood in every line from there; when those
naturals with the singles' floor cost the bound, the position is answered with that cost, a floor,
unsearched. (The slowest known hand, bench/solver.py's last but one `HARD`, meets 572 positions, 739
without it; a small search would pay more for the floor than it saves: bench/positions.py counts.)
Wilds are not placed one by one, as brute.py's `is_meld()` places them: a meld only counts the
stand-ins it holds (`owed`), and the end (`leftover()`) draws them from the jokers and wild-rank
cards left, trying every mix, since any wild can stand in anywhere. What no move could change
is settled before or on the way: a natural that can be in no meld is deadwood from the start,
or on the way, once the cards it needed are gone and it comes first (`lone()`); a single melds
only with two stand-ins, so the end decides it.

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
  The memo maps a position to its minimal penalty and the first step that reaches it.
- step: one move from a position: the sets of the first natural's rank are made, all at once
  (which of its naturals go into sets, with how many stand-ins), or the first natural is
  deadwood, or it goes into a run; then the naturals at the head of what is left that can meld
  no more are deadwood on the way (`Search.step()`). `Search.steps()` lists the steps; the
  search, the read-back of the best arrangement and the walk through tying arrangements all
  follow those same steps.
- kin and mates: a natural's kin are the naturals of its rank (`KIN`); its mates are the
  naturals that make a meld with it and one stand-in (`run_tables()`: its kin, and the naturals of
  its suit near enough to share a run).
- single: a natural that shares no meld with any other card of the hand: it melds only with
  two stand-ins, so the end of the search decides it.
- deadwood: the cards in no meld. The penalty is the sum of their values.

How one hand is solved, top to bottom, in the order of this file:
1. `table_for(rules, wild)`: what the rules and the round decide, worked out once per rules and
   wild rank (the cards' values, the run tables, the stand-in limit): a `Table`.
2. `deal_out(hand, table)`: the hand made ready (a `Deal`): naturals sorted out from runners and
   plain wilds, the naturals that can never meld left out (with one stand-in, those are the
   singles of the groups: `never_meld()` says why), the singles set aside, and the rest in
   search order: group by group (a group is what one meld could ever join), and in a group rank
   by rank, low to high, so the first natural left is the lowest of its suit and a run holding it
   only goes up from it, but for stand-ins and runners.
3. `Search.best()`: at the first natural of a rank, the sets of that rank in every way at once
   (`Search.set_steps()`: the copies no run can take go into them), so that many copies of one
   rank, in three decks, are not shared out among sets again and again; then each natural left
   of that rank is in one of the runs `Search.runs_of()` lists or, tried last and only while its
   value and the singles' floor do not lose to the best found, deadwood. When no natural is left,
   `Search.leftover()` draws the stand-ins owed, melds the singles and the wilds that remain, or
   counts them as deadwood. Each position is searched once (the memo), and a step that
   cannot beat the best found so far is cut short (branch and bound); in a big search, so is a
   position whose certain deadwood alone costs that much.
   When a set's cards must each be of a different suit (`set_suits`), the sets of a rank are
   books instead (`Search.book_steps()`: no set a sink), and the runners are kept by suit to the
   end, where the wild-rank cards left make books of their own (`Search.books_left()`).
4. `Search.solution()` follows the best steps from the start (the memo's), and scorer/arrange.py
   deals the actual wild cards out to the melds, each held to the meld rule of scorer/melds.py.
5. A hand in which nothing can meld takes a short path, `solve_plain()`, once dealt out: with no
   wild (no joker, no card of the wild rank) a natural melds only with two more of its rank or a
   run's two other naturals, and when no natural has those (seven in ten of a batch's hands with no
   wild) every card is deadwood: the search's answer, with no search.
The search's words as it writes them (naturals as numbers, candidates, positions, steps) are in
scorer/positions.py.
"""

from functools import lru_cache, partial
from itertools import accumulate, combinations, repeat
from typing import NamedTuple

from .arrange import arrange
from .cards import ACE_ON_TOP, KING, ORDER, order, run_places
from .melds import foot_place, longest_run
from .positions import (CARD, EVERY_SUIT, NATURAL, NO_WILDS_LEFT, PLACE, SEARCH_ORDER, SUITED, Leftover, Solution,
                        candidate_from, kin_in, leftover_from, natural, natural_values, naturals_of, naturals_taken,
                        place_of, position_from, run_tables, set_of, solution_from, step_from, sub_multisets, suit_of,
                        without)
from .rules import DEFAULT

INFINITY = float('inf')
BIG = 24                 # positions a search has met before it looks for certain deadwood (see best())
ANY = 99                 # stand-ins a meld may take when the rules set no limit
__all__ = ['Solution', 'solve', 'counted', 'penalty', 'goes_out', 'discards_to_go_out', 'best_discard', 'arrangements',
           'grouping', 'without']


# What the app asks.

def solve(hand, wild, rules=DEFAULT):
    """The minimal penalty of a hand in a round whose wild rank is `wild` (None: jokers only), with
    one arrangement that reaches it."""
    deal = deal_out(hand, table_for(rules, wild))
    plain = solve_plain(hand, deal)        # a hand in which nothing can meld: the short path (section 5)
    return plain if plain is not None else Search(deal).solution()


def counted(hand, wild, rules=DEFAULT, solver=solve):
    """What a hand left with cards scores, as a Solution: its minimal penalty and arrangement
    (`solver`'s), or with leftovers counted as they lie (`Rules.as_they_lie`) no meld, every card
    entered deadwood, the plain sum of their values the penalty."""
    if rules.as_they_lie:
        return Solution(rules.lying(hand, wild), (), tuple(sorted(hand, key=order)))
    return solver(hand, wild, rules)


def penalty(hand, wild, rules=DEFAULT, below=INFINITY):
    """The minimal penalty of a hand, when it is below `below`; otherwise some number at least
    `below` (the search stops as soon as it knows)."""
    return Search(deal_out(hand, table_for(rules, wild))).penalty(below)


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
    search = Search(deal_out(hand, table_for(rules, wild)))
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


# 1. The table: what the rules and the round's wild rank decide, once for every hand dealt under them.

class Table:
    """What the search needs of the rules in a round with wild rank `wild`, made once by table_for().
    A plain class with slots, not a dataclass: importing dataclasses (and inspect, which it imports)
    was a quarter of the instructions `python -m scorer solve --jsonl` spent starting (callgrind),
    and a named tuple's fields are slower to read."""
    __slots__ = (
        'rules',
        'wild',
        'aces_high',            # an ace may also sit above the king
        'most',                 # stand-ins a meld may take (ANY: no limit)
        'as_itself',            # a wild-rank card may play as itself
        'value',                # natural -> what it costs as deadwood
        'natural_of',           # card -> its natural, for the cards that are no wild (`positions.naturals_of()`)
        'joker_value',
        'wild_value',
        'foot',                 # a run's lowest place (the ace, or Five Crowns' 3)
        'longest',              # the most cards in a run (13, or Five Crowns' 11)
        'sinking',              # with free wilds, a run this long or shorter takes two wilds more on its ends
        'run_pairs',            # natural -> the pairs of naturals that make a 3-card run with it
        'kin',                  # natural -> its kin in the deck's suits (`positions.kin_in()`)
        'mates',                # natural -> the naturals that make a meld with it and one stand-in
        'neighbours',           # natural -> its mates of its suit (within two places), as a tuple
        'runner_places',        # where a wild-rank card plays as itself in a run (an ace also on top)
        'runner_reach',         # runner -> the naturals near enough to share a run with it (empty: no runners)
        'suits_differ',         # a set's cards each of a different suit (`set_suits`): see book_steps()
        'suits',                # the suits of the deck: the most cards a set holds when they must differ
        'set_stand_ins',        # the most stand-ins that count towards a set's 3 cards: 2, or 1 when `most` is 1
    )

    def __init__(self, **fields):
        for name, value in fields.items():       # every slot, by its name (an unknown one: AttributeError)
            setattr(self, name, value)

    def close(self, n, runner):
        """Whether a natural and a runner of its suit are near enough to share a run (one stand-in between)."""
        return near_enough(n, self.runner_places, self.aces_high)

    def cost(self, naturals):
        """What naturals cost as deadwood."""
        return sum(map(self.value.__getitem__, naturals)) if naturals else 0


@lru_cache(maxsize=256)
def table_for(rules, wild):
    """The Table of the rules in a round whose wild rank is `wild`, worked out once."""
    aces_high = rules.aces == 'high_or_low'
    foot = foot_place(rules)
    run_pairs, mates, neighbours = run_tables(aces_high, foot)
    longest = longest_run(rules)
    most = ANY if rules.max_wilds_per_meld is None else rules.max_wilds_per_meld
    runner_places = run_places(wild, aces_high) if wild else ()
    return Table(rules=rules, wild=wild, aces_high=aces_high, most=most,
                 as_itself=rules.wild_rank_as_itself, value=natural_values(rules, wild), natural_of=naturals_of(wild),
                 joker_value=rules.joker_penalty, wild_value=rules.wild_penalty, foot=foot,
                 longest=longest, sinking=longest - 2, run_pairs=run_pairs, mates=mates,
                 neighbours=neighbours, kin=kin_in(rules.deck.suits),
                 runner_places=runner_places,
                 runner_reach=runner_reach(wild, runner_places, aces_high)
                 if most == 1 and rules.wild_rank_as_itself else {},
                 suits_differ=rules.suits_differ, suits=len(rules.deck.suits),
                 set_stand_ins=2 if most > 1 else 1)


@lru_cache(maxsize=32)
def runner_reach(wild, runner_places, aces_high):
    """Each runner (a wild-rank card as the natural it is) -> the naturals of its suit near enough to
    share a run with it (one stand-in between), for a round with wild rank `wild` (None: no runner).
    A wild-rank card is a runner only when a meld takes at most one stand-in and it may play as
    itself (table_for() asks this of those rules only), and only while one of these is in the hand."""
    if not wild:
        return {}
    return {natural(s, wild): frozenset(n for n in map(natural, repeat(s), range(1, KING + 1))
                                        if near_enough(n, runner_places, aces_high))
            for s in range(len(EVERY_SUIT))}


def stand_ins_below(anchor, limit, foot):
    """What grow() yields walking down from `anchor` with nothing but stand-ins there (no natural, no
    runner): (the place reached, the shape (no natural, no runner, the stand-ins)) for 0 to `limit`
    stand-ins, never below the foot; listed without the walk (limited_runs(), where c's suit has no runner)."""
    return [(anchor - k, ((), (), k)) for k in range(min(limit, anchor - foot) + 1)]


def near_enough(n, runner_places, aces_high):
    """Whether natural n may sit in a run within two places of a runner of its suit (one stand-in between)."""
    return any(abs(p - q) <= 2 for p in run_places(place_of(n), aces_high) for q in runner_places)


# 2. The deal: one hand made ready for the search.

class Deal(NamedTuple):
    """A hand made ready: its wilds, the naturals in search order, the runners, the singles."""
    table: Table
    jokers: int                 # how many jokers
    wild_cards: tuple           # the wild-rank cards, in order
    free: bool                  # wilds are free (see deal_out())
    sinks: bool                 # a set takes every wild left over (a meld may hold more than one)
    near: dict                  # natural -> the runner of its suit it could share a run with
    never: tuple                # the naturals that can be in no meld
    hand: tuple                 # the other naturals but the singles, in search order
    runners: tuple              # the runners, in order
    singles: tuple              # the singles, dearest first
    singles_cost: tuple         # what the singles from the m-th on cost, for each m

    @property
    def stand_ins(self):
        """The most stand-ins one meld of this hand may take."""
        return min(self.table.most, self.jokers + len(self.wild_cards))


# A Deal as deal_out() makes one a hand: straight from a tuple of its fields in order (tuple.__new__, in C),
# not through the named tuple's own __new__, a Python function reading eleven keywords.
deal_from = partial(tuple.__new__, Deal)


def deal_out(hand, table):
    """The Deal of a hand under a Table.

    Wilds are free when any wild may stand for any card in any meld and three wilds left over
    make a set of their own: melds may hold any number of wilds, and either all-wild melds are
    allowed or there is no joker (wild-rank cards left over make a set of their rank, playing as
    themselves)."""
    jokers, wild_cards, naturals = sort_out(hand, table)
    free = table.most > 1 and (table.rules.all_wild_melds or (not jokers and table.as_itself))
    runners, near = find_runners(naturals, wild_cards, table)
    stand_ins = min(table.most, len(hand) - len(naturals))
    never = never_meld(naturals, table) if stand_ins == 0 else ()
    if never and len(never) == len(naturals):       # no wild, and nothing melds: what the lines below make
        #                 table, jokers, wild_cards, free, sinks, near, never, hand, runners, singles, singles_cost
        return deal_from((table, jokers, (), free, table.most > 1, near, never, (), (), (), (0,)))
    if never:
        naturals = [n for n in naturals if n not in never]       # every copy of a natural that never melds
    in_order, singles = in_search_order(naturals, runners, stand_ins, table.aces_high)
    if stand_ins == 1:            # a single melds only with two stand-ins: with one, never (see never_meld())
        never, singles = tuple(singles), ()
    singles = tuple(sorted(singles, key=table.value.get, reverse=True)) if singles else ()
    return deal_from((table, jokers, tuple(wild_cards), free, table.most > 1, near, never, tuple(in_order),
                      tuple(sorted(runners)) if runners else (), singles,
                      singles_costs(singles, table.value) if singles else (0,)))


def singles_costs(singles, value):
    """What the singles from the m-th on cost, for each m (the last 0): summed once from the cheapest
    end, not anew for each m."""
    costs = list(accumulate(map(value.__getitem__, reversed(singles)), initial=0))
    costs.reverse()
    return tuple(costs)


def sort_out(hand, table):
    """(how many jokers, the wild-rank cards in order, the naturals as the search writes them)."""
    jokers, wild_cards, naturals, natural_of, wild = 0, [], [], table.natural_of, table.wild
    for c in hand:
        n = natural_of.get(c)
        if n is not None:
            naturals.append(n)
        elif c.rank == wild:
            wild_cards.append(c)
        elif c.rank == 0:
            jokers += 1
        else:
            raise KeyError(c)     # a card of no deck: hands are checked before they are solved
    return jokers, sorted(wild_cards, key=ORDER.__getitem__), naturals


def find_runners(naturals, wild_cards, table):
    """(the wild-rank cards that may play as themselves: one stand-in per meld, a natural of their
    suit near enough; natural -> the runner it could share a run with)."""
    runners, near, reach = [], {}, table.runner_reach
    if reach:
        for c in wild_cards:
            r = NATURAL[c]
            close = [n for n in naturals if n in reach[r]]
            if close:
                runners.append(r)
                near.update(dict.fromkeys(close, r))
    return runners, near


def never_meld(naturals, table):
    """The naturals of a hand with no stand-in that can be in no meld, every copy: deadwood from the
    start. With none a natural melds only with two more of its rank or a run's two other naturals
    (`can_meld()` with no stand-in, asked here of the hand's counts; tests/test_solver.py holds the two
    to the same naturals). deal_out() asks it only with no stand-in: with one, a natural melds only
    with a mate (a natural of its rank, or of its suit within two places) or a runner near, and those
    are what share a group with it (`groups()`, at a reach of two places), so the naturals that never
    meld are the singles, found on the way; with two or more, any natural may meld. The search asks it
    of the deal's hand once its stand-ins are all taken (`Search.lone()`)."""
    present, places = set(naturals), [n & PLACE for n in naturals]      # place_of(), inline
    pairs, melds = table.run_pairs, set()
    for n in present:
        if n in melds:            # in a run found before
            continue
        if places.count(n & PLACE) > 2:
            melds.add(n)
            continue
        for x, y in pairs[n]:     # a loop, not any(): asked of every natural of a hand with no wild
            if x in present and y in present:
                melds.update((n, x, y))
                break
    return tuple([n for n in naturals if n not in melds]) if len(melds) < len(present) else ()


def can_meld(n, hand, limit, runners, table, near):
    """Whether natural n of the hand may be in a meld with at most `limit` stand-ins (0 or 1).
    With one stand-in it needs one mate (a natural of its rank, or of its suit near enough to
    share a run) or a runner near; with none, two more of its rank or a run's two other
    naturals. A natural that cannot stays so as cards go."""
    if limit:
        return (not table.mates[n].isdisjoint(hand) or hand.count(n) > 1
                or bool(runners) and near.get(n) in runners)
    if sum(map(hand.count, table.kin[n])) > 2:
        return True
    for x, y in table.run_pairs[n]:          # a loop, not any(): this is called for every step
        if x in hand and y in hand:
            return True
    return False


def in_search_order(naturals, runners, stand_ins, aces_high):
    """(the naturals in search order, the singles). The search takes naturals group by group,
    and in a group rank by rank, low to high. A single (the one card of its group) melds only
    with two stand-ins: the end takes it. The groups hold every copy of a natural (a copy is next to
    itself), so the copies come in order with it, with no count kept of them."""
    in_order, singles = [], []
    for group in groups(naturals, sorted(set(runners)) if runners else [], stand_ins, aces_high):
        if len(group) == 1 and not (runners and group[0] in runners):
            singles += group
            continue
        group.sort(key=SEARCH_ORDER.__getitem__)
        in_order += [n for n in group if n not in runners] if runners else group   # a runner is no natural here
    return in_order, singles


def groups(naturals, runners, stand_ins, aces_high):
    """The naturals and runners in groups, where a group is what one meld could ever join.

    Two cards share a group when they have the same rank, or the same suit with at most
    `stand_ins` places between them (a runner between them counts as a natural). Searching
    one group after another lets the memo reuse each group's results whatever was done in
    the groups before.
    """
    cards = sorted(naturals + runners)               # suit by suit, low to high, every copy
    group_of, made = neighbours(cards, stand_ins + 1)     # a card -> the list of its group; the lists
    for a, b in joins(naturals, cards, stand_ins, aces_high):
        a, b = group_of[a], group_of[b]
        if a is not b:
            if b[0] < a[0]:       # a group's first card is its lowest: the lower takes the other in, in place
                a, b = b, a
            a += b
            group_of.update(dict.fromkeys(b, a))
            b.clear()
    return [group for group in made if group]       # in the order of their lowest card


def neighbours(cards, reach):
    """(each card (`cards` sorted: suit by suit, low to high) -> the list of its neighbours: the cards
    of its suit each at most `reach` places above the one before, one list shared by them all; the
    lists, in order)."""
    group_of, made, group, previous = {}, [], None, -99
    for n in cards:
        if n - previous <= reach and n >> 4 == previous >> 4:         # suit_of(), inline
            group.append(n)
        else:
            group = [n]
            made.append(group)
        group_of[n], previous = group, n
    return group_of, made


def joins(naturals, cards, stand_ins, aces_high):
    """Pairs of cards in one group that are not neighbours: each natural and the first of its rank;
    and when aces are high, an ace and the top card of its suit, near enough round the king."""
    found, first_of_rank = [], {}
    for n in naturals:
        first = first_of_rank.setdefault(n & PLACE, n)                # place_of(), inline
        if first != n:
            found.append((first, n))
    if aces_high:                                    # an ace also sits above the king
        tops = {n >> 4: n for n in cards}                                 # suit_of(), inline
        found += [(n, tops[n >> 4]) for n in cards
                  if n & PLACE == 1 and ACE_ON_TOP - (tops[n >> 4] & PLACE) <= stand_ins + 1]     # place_of(), inline
    return found


# 3. The search.

class Search:
    """The exact search over one deal: the minimal penalty of every position it meets, memoised."""

    def __init__(self, deal):
        self.deal, self.table = deal, deal.table
        # The deal's fields the search reads at every step, read once (a named tuple's field is slower).
        self.jokers, self.free, self.sinks = deal.jokers, deal.free, deal.sinks
        # position -> (its minimal penalty, True, the first step that reaches it), or (a number it is not
        # below, False, None): one dict, so a position searched is hashed and stored once
        self.known = {}
        # What can meld with the deal's naturals, for lone(): with no stand-in, the naturals that can (made
        # when first asked, by never_meld()); with one, natural -> whether it can (`can_meld()`), as first
        # asked. With the deal's own stand-ins, every natural of the hand (deal_out() left out the others).
        stand_ins = deal.stand_ins
        self.pure = frozenset(deal.hand) if stand_ins == 0 else None
        self.ever = dict.fromkeys(deal.hand, True) if stand_ins == 1 else {}
        self.ends = {}          # (wilds, owed, sink, runners) -> the Leftover of the end
        # What the singles cost, when the m dearest meld (m = 0 ... `singles`): best()'s floor, the singles' floor.
        self.singles_cost, self.singles = deal.singles_cost, len(deal.singles)
        # The first step: the naturals that never meld are deadwood.
        left = (deal.hand, len(deal.wild_cards) - len(deal.runners), deal.runners, 0, False, None)
        self.opening = self.step(self.table.cost(deal.never), deal.never, (), left)

    def penalty(self, below=INFINITY):
        """The minimal penalty of the hand (when it is below `below`, else a number not below it)."""
        opening = self.opening
        if opening.cost >= below:
            return opening.cost
        return opening.cost + self.best(opening.after, below - opening.cost)

    def best(self, position, bound=INFINITY):
        """The minimal penalty of what is left at a position, when it is below `bound`; otherwise a
        number at least `bound` that the penalty is not below (branch and bound: a step that
        cannot beat the best found so far is not searched to the end)."""
        known = self.known.get(position)
        if known is not None and (known[1] or known[0] >= bound):
            return known[0]
        hand, wilds, runners, owed, sink, _ = position
        if not hand:
            cost = self.leftover(wilds, owed, sink, runners).cost
            self.known[position] = cost, True, None
            return cost
        # The singles' floor: a single melds only with two stand-ins (it shares no meld with another card of
        # the hand: tests/brute.py is the definition), so with s wilds left at most s // 2 meld, at best the
        # dearest, and the others are deadwood in every line from here.
        melded = (self.jokers + wilds + len(runners) - owed) // 2          # self.spare(), inline
        floor = singles_floor = self.singles_cost[melded if melded < self.singles else self.singles]
        if len(self.known) > BIG and bound < INFINITY:       # a big search: look for certain deadwood
            floor += self.certain_deadwood(position)          # naturals of the hand, apart from the singles
        if floor >= bound:
            self.known[position] = floor, False, None
            return floor
        cost, choice = INFINITY, None
        for step in self.meld_steps(position, False):        # (not the ties)
            beat = (cost if cost < bound else bound) - step.cost
            total = step.cost + (self.best(step.after, beat) if beat > 0 else 0)
            if total < cost:
                cost, choice = total, step
                if cost <= floor:         # nothing does better than the floor: the moves left are not made
                    break
        # The first natural as deadwood, last: searched only when its value and the singles' floor (the
        # move leaves the wilds as they are) do not lose to the best found; otherwise that is what the move
        # costs at least (a floor, like a cut step).
        if cost > floor:          # (a line at the floor already: none does better)
            value, ceiling = self.table.value[hand[0]] + singles_floor, (cost if cost < bound else bound)
            if value < ceiling:
                step = self.deadwood_step(position)
                beat = ceiling - step.cost
                total = step.cost + (self.best(step.after, beat) if beat > 0 else 0)
                if total < cost:
                    cost, choice = total, step
            elif value < cost:
                cost, choice = value, None         # not below the bound: a floor only, never a choice
        self.known[position] = (cost, True, choice) if cost < bound else (cost, False, None)
        return cost

    def certain_deadwood(self, position):
        """What the naturals of a position that can be in no meld any more cost (`can_meld()`, as
        `lone()` asks it of the head): a floor on the position's penalty. With two stand-ins left any
        natural may meld: none is certain."""
        hand, wilds, runners, owed, _, _ = position
        limit = min(self.spare(wilds, runners, owed), self.table.most)
        if limit > 1:
            return 0
        table, near, floor = self.table, self.deal.near, 0
        for n in set(hand):
            if not can_meld(n, hand, limit, runners, table, near):
                floor += table.value[n] * hand.count(n)
        return floor

    def steps(self, position):
        """Every move from a position: the sets of its first natural's rank are made, in every way
        (unless they are made already), or there are none, and the first natural is deadwood or
        in one of its runs."""
        yield from self.meld_steps(position)
        yield self.deadwood_step(position)

    def meld_steps(self, position, ties=True):
        """The moves that meld: the sets of the first natural's rank (unless they are made), then
        the runs of the first natural. Without `ties`, not the sets that can at best tie a line of a
        set made before (`fewest_untied()`): best() needs none of those, the walk through ties does."""
        hand, wilds, runners, owed, sink, sets_made = position
        spare = self.jokers + wilds + len(runners) - owed       # self.spare(), inline
        if not sets_made:
            yield from self.set_steps(position, spare, ties)
        c, rest = hand[0], hand[1:]
        most, place = self.table.most, c & PLACE     # place_of(), inline
        for meld in self.runs_of(c, rest, runners, spare if spare < most else most):
            # the runners it plays as themselves leave enough wilds for every stand-in held
            if spare - len(meld.runners) - meld.stand_ins >= 0:
                kept = without(runners, meld.runners) if meld.runners else runners
                left = (without(rest, meld.naturals), wilds, kept, owed + meld.stand_ins, sink or meld.sinks, place)
                yield self.step(0, (), (meld,), left)

    def deadwood_step(self, position):
        """The move that leaves the first natural out of every meld."""
        hand, wilds, runners, owed, sink, _ = position
        c = hand[0]
        return self.step(self.table.value[c], (c,), (), (hand[1:], wilds, runners, owed, sink, c & PLACE))  # place_of()

    # 3a. The sets of a rank, made all at once.

    def set_steps(self, position, spare, ties=True):
        """Every way to make the sets of the first natural's rank, all at once: which of the naturals
        of that rank go into sets (`set_choices()`; none is the runs' turn), and with how many of the
        `spare` wilds as stand-ins. The naturals of that rank left out of the sets may then only be
        in runs or deadwood.

        With any number of wilds per meld one set of the rank is enough (it takes the wilds
        left over at the end); with one stand-in per meld, m naturals make sets holding 0 to
        m // 2 stand-ins (a set of two naturals holds one). When a set's suits must differ, the
        books of book_steps(). Without `ties`, not the sets `fewest_untied()` leaves out."""
        if self.table.suits_differ:
            yield from self.book_steps(position, spare)
            return
        hand, wilds, runners, owed, sink, _ = position
        place, kin = hand[0] & PLACE, kin_at_head(hand)                     # place_of(), inline
        same, rest = hand[:kin], hand[kin:]
        sinks = self.sinks
        if kin == 1:              # one natural of its rank (most hands): its one set, set_stand_ins(1, spare)'s
            if not self.alone_loses(same[0], spare, rest, runners):        # two (step() saw two left)
                left = (rest, wilds, runners, owed + 2, sink or sinks, place)
                yield self.step(0, (), (set_of(same, 2, sinks),), left)
            return
        for used in self.set_choices(same, rest, runners, spare, 0 if ties else self.fewest_untied(kin, spare)):
            after = without(same, used) + rest if len(used) < kin else rest
            if len(used) == 1 and self.alone_loses(used[0], spare, after, runners):
                continue
            for stand_ins in self.set_stand_ins(len(used), spare):
                left = (after, wilds, runners, owed + stand_ins, sink or sinks, place)
                yield self.step(0, (), self.sets(used, stand_ins), left)

    def alone_loses(self, n, spare, after, runners):
        """Whether a set of natural n alone, on two of the `spare` wilds, loses to n as deadwood, the
        hand `after` left: it does when a natural dearer than n is deadwood in every line after that
        set, for the same line with that natural set alone on those two stand-ins instead, and n
        deadwood, costs less (tests/brute.py: any natural and two wilds are a set). So the set is
        never the best line nor a tie, and is not tried. Such a natural is a single, when more singles
        dearer than n are left than the stand-ins after the set meld (two each, the dearest first:
        `leftover()`), or a natural of `after` that can be in no meld with the fewer than two
        stand-ins left (`can_meld()`: cards only go)."""
        if spare < 2 or self.table.most < 2:      # no set of one natural
            return False
        value, melded, costs = self.table.value, (spare - 2) // 2, self.singles_cost
        worth = value[n]
        if melded < self.singles and costs[melded] - costs[melded + 1] > worth:    # the dearest single left out
            return True
        if spare < 4:
            for d in after:
                if value[d] > worth and not can_meld(d, after, spare - 2, runners, self.table, self.deal.near):
                    return True
        return False

    def fewest_untied(self, kin, spare):
        """The fewest naturals of the `kin` at the head that a set needs to do better than a tie (0: any
        number may). A set of fewer (and fewer than three), on stand-ins, can at best tie the set of
        those and one natural more on a stand-in fewer, which set_choices() lists before it (the larger
        first), so set_choices() does not list it for best(). With free wilds it can: the natural x left
        out is then deadwood or in a run, and x in the set instead, one of its stand-ins in x's place
        in that run or going to that set at the end (a set takes the wilds left over), is an
        arrangement as cheap or cheaper (tests/brute.py: a wild stands in for any card). That run
        keeps a natural unless all-wild melds are allowed: with at most two wilds left (`spare`) the
        set's stand-in leaves that run one at most, so two naturals. So best() needs only the set made
        before; the walk through ties (`ties()`) still takes it."""
        if self.free and (spare <= 2 or self.table.rules.all_wild_melds):
            return min(kin, 3)
        return 0

    def set_choices(self, same, rest, runners, spare, fewest=0):
        """Which naturals of the rank `same` holds may go into its sets: every sub-multiset big enough
        to make a set with the stand-ins left (`spare`), the largest first (none at all: `steps()`
        tries the runs next); but copies that no run can take always go in (a set of one rank
        needs no more stand-ins for a card more). When only all of them are enough, that is the
        one choice. None of fewer than `fewest` naturals (`fewest_untied()`)."""
        smallest = max(3 - min(spare, self.table.set_stand_ins), fewest)
        if len(same) <= smallest:
            return (same,)
        if len(set(same)) == len(same):          # no copies (most hands): the subsets holding those no run can take
            if self.free:                        # runs_through() of each, the suits of `rest` listed once
                suits = [x >> 4 for x in rest]   # suit_of(), inline
                forced = [n for n in same if n >> 4 not in suits]
            else:
                forced = [n for n in same if not self.runs_through(n, rest, runners)]
            subsets = [used for size in range(len(same), smallest - 1, -1) for used in combinations(same, size)]
            return [used for used in subsets if all(map(used.__contains__, forced))] if forced else subsets
        least = {n: max(0, same.count(n) - self.runs_through(n, rest, runners)) for n in set(same)}
        return [used for used in sub_multisets(same, least) if len(used) >= smallest]

    def runs_through(self, n, rest, runners):
        """How many runs could hold a copy of natural n at most: each holds a card of n's suit
        besides n (with one stand-in per meld, one within two places of it), and no two runs
        hold the same card."""
        suit, table = n >> 4, self.table               # suit_of(), inline
        if self.free:             # `rest` holds no natural of n's rank: they come together at the head
            return sum(x >> 4 == suit for x in rest)
        near = sum(map(rest.count, table.neighbours[n]))     # its suit, within two places
        return near + sum(1 for r in runners if suit_of(r) == suit and table.close(n, r)) if runners else near

    def set_stand_ins(self, naturals, spare):
        """How many stand-ins sets of `naturals` naturals of one rank may take, with `spare` wilds left."""
        if self.table.most > 1:
            need = max(0, 3 - naturals)
            return (need,) if need <= spare else ()
        return range(0 if naturals > 2 else 1, min(naturals // 2, spare) + 1)

    def sets(self, used, stand_ins):
        """The sets `used` naturals of one rank make with `stand_ins` stand-ins: one set, or with one
        stand-in per meld, that many sets of two naturals and a stand-in, the last taking the rest."""
        if stand_ins <= 1 or self.table.most > 1:
            return (set_of(used, stand_ins, self.sinks),)
        pairs = [set_of(used[i:i + 2], 1, False) for i in range(0, 2 * stand_ins - 2, 2)]
        last = used[2 * stand_ins - 2:]
        return tuple(pairs) + (set_of(last, 1, False),)

    def book_steps(self, position, spare):
        """set_steps() when a set's cards must each be of a different suit (`set_suits`): a copy more
        may need a set more, so any of the naturals of the rank may be left out, and the sets are
        made as books() says. No set is a sink: it takes only the stand-ins it is made with."""
        hand, wilds, runners, owed, sink, _ = position
        place, kin = place_of(hand[0]), kin_at_head(hand)
        same, rest = hand[:kin], hand[kin:]
        for used in sub_multisets(same, dict.fromkeys(same, 0)):
            if used:
                for stand_ins, books in self.books(used, spare):
                    yield self.step(0, (), books, (without(same, used) + rest, wilds, runners, owed + stand_ins,
                                                   sink, place))

    def books(self, used, spare):
        """(stand-ins, the sets) for each way `used` naturals of one rank (sorted) make sets whose
        suits must differ, with at most `spare` stand-ins: b sets, for every b from the most copies of
        one card to one set a natural, the naturals dealt round in turn (so no set holds a card
        twice, and their sizes differ by one at most, which needs the fewest stand-ins and leaves
        the most room), each set of 3 cards or more, one a suit at most, and at most `most`
        stand-ins; with every number of stand-ins more that the sets have room for (a set takes no
        wild left over at the end)."""
        suits, most = self.table.suits, self.table.most
        for b in range(max(map(used.count, used)), len(used) + 1):
            sizes = [len(used[i::b]) for i in range(b)]
            least = [max(0, 3 - k) for k in sizes]
            room = [min(suits - k, most) for k in sizes]
            if sizes[0] > suits or sum(least) > spare or any(lo > hi for lo, hi in zip(least, room)):
                continue
            for extra in range(min(sum(room), spare) - sum(least) + 1):
                stand_ins, left = list(least), extra
                for i in range(b):
                    more = min(left, room[i] - least[i])
                    stand_ins[i], left = stand_ins[i] + more, left - more
                yield sum(stand_ins), tuple(set_of(used[i::b], stand_ins[i], False) for i in range(b))

    # 3b. The runs holding the first natural.

    def runs_of(self, c, rest, runners, limit):
        """Every run holding natural c, from the naturals `rest`, the runners, and at most `limit`
        stand-ins, those with the most naturals first. Runs that use the same cards are listed once.

        The parts below take what they look with as one tuple, `runs`, made once a call: (c, `rest`,
        the runner of c's suit when one is left, `limit`, `found`), `found` keyed by a run's shape:
        (the naturals it takes, the runners it takes as themselves, its stand-ins). Two runs of one
        shape are the same move. (A plain tuple, unpacked by name: a named tuple made once a call cost
        1.5 % more of a random 13-card hand, callgrind.)"""
        if self.free and SUITED[c].isdisjoint(rest):     # no other natural of c's suit: no free run (free_runs())
            return ()
        runner = None
        if runners:               # the one runner a run of c's suit could take
            runner = (c & ~PLACE) + self.table.wild     # natural(suit_of(c), wild), inline
            if runner not in runners:
                runner = None
        found = {}
        runs = (c, rest, runner, limit, found)         # what the parts below look for runs with
        if self.free:
            self.free_runs(runs)
        else:
            self.limited_runs(runs)
        if len(found) < 2:
            return found.values()
        return sorted(found.values(), key=naturals_taken, reverse=True)

    def free_runs(self, runs):
        """Runs holding c when wilds are free. A natural of c's suit between c and the run's far end
        is always taken (a stand-in in its place could swap with it and move to an end), so a
        run is told by its far natural and the stand-ins its gaps and length need. A run of 11
        cards or fewer is a sink (two wilds left over can still go on its ends; three make a set
        of their own); a longer one may take one or two stand-ins more. A run of c and stand-ins
        alone is left out: a set of c and two stand-ins does as much and is a sink. A 13-card run
        may also leave one or two naturals out for wilds that have no other place. So with no other
        natural of c's suit left, there is none (runs_of() does not ask)."""
        anchor, aces_high = runs[0] & PLACE, self.table.aces_high      # place_of(), inline
        if anchor == 1 and aces_high:       # the ace on top, and the places below it
            self.free_run_ends(runs, (ACE_ON_TOP, -1, 2))
        self.free_run_ends(runs, (anchor, +1, ACE_ON_TOP if aces_high and anchor > 1 else KING))

    def free_run_ends(self, runs, walk):
        """The free runs along a walk: (anchor, way, end), from the anchor (c's place) one place at a
        time (`way` +1 up or -1 down) to the place `end`."""
        c, rest, _, limit, _ = runs
        anchor, way, end = walk
        sinking = self.table.sinking
        base = c & ~PLACE                              # natural(suit_of(c), 0), inline: base + place, the natural there
        back = anchor - self.table.foot if way > 0 else 0   # places behind the anchor, for stand-ins only
        taken, gaps, far = (), 0, anchor
        while far != end:
            far += way
            n = base + far            # at ACE_ON_TOP no natural of the hand: an ace in the hand has place 1
            if n not in rest:
                gaps += 1
                if gaps > limit:
                    return
                continue
            taken += (n,)
            length = (far - anchor) * way + 1
            if length >= 3:
                if length <= sinking:
                    self.add_run(runs, anchor, far, (taken, (), gaps))
                else:
                    self.longest_runs(runs, walk, far, (taken, (), gaps))
            elif gaps < limit:                         # two cards side by side: a stand-in on an end
                ahead = far + way
                if (ahead - end) * way <= 0 and base + ahead not in rest:
                    self.add_run(runs, anchor, ahead, (taken, (), 1))
                elif back:
                    self.add_run(runs, anchor - way, far, (taken, (), 1))

    def longest_runs(self, runs, walk, far, shape):
        """A free run of this shape, of the longest length or one less, from the anchor to `far` on the
        walk (anchor, way, end): it may take one or two stand-ins more on its ends, beyond `far` first
        (on places free of naturals, not past `end`), then behind the anchor (towards the foot)."""
        c, rest, _, limit, _ = runs
        anchor, way, end = walk
        back = anchor - self.table.foot if way > 0 else 0   # places behind the anchor
        base, (taken, _, gaps) = natural(suit_of(c), 0), shape
        length = (far - anchor) * way + 1
        room = 0
        while room < 2 and (far + (room + 1) * way - end) * way <= 0 and base + far + (room + 1) * way not in rest:
            room += 1
        most = min(limit, gaps + min(room + back, self.table.longest - length), gaps + 2)
        for stand_ins in range(gaps, most + 1):
            extra = stand_ins - gaps
            onward = min(extra, room)
            self.add_run(runs, anchor - (extra - onward) * way, far + onward * way, (taken, (), stand_ins))

    def limited_runs(self, runs):
        """Runs holding c when wilds are limited. c is the lowest natural of its suit left in its
        group, so below c a run holds only stand-ins and runners; above c, naturals of `rest` too.
        A run has 3 to `longest` places, never below the foot nor above the ace on top, and at most
        `limit` stand-ins; any natural may be left out for a stand-in (it may be needed elsewhere,
        and a meld may not be made of wilds alone)."""
        c, rest, runner, limit, _ = runs
        table, anchor = self.table, place_of(c)
        if anchor == 1 and table.aces_high:       # the ace on top, and the places below it
            for low, shape in self.grow(runs, (ACE_ON_TOP, -1, 2), rest):
                if ACE_ON_TOP - low >= 2:
                    self.add_run(runs, low, ACE_ON_TOP, shape)
        if runner is None:        # below c only stand-ins
            below = stand_ins_below(anchor, limit, table.foot)
        else:
            below = ([(anchor, ((), (), 0))] if anchor == table.foot else
                     list(self.grow(runs, (anchor, -1, table.foot), ())))
        ceiling, longest = ACE_ON_TOP if table.aces_high and anchor > 1 else KING, table.longest
        for top, (naturals, own, stand_ins) in self.grow(runs, (anchor, +1, ceiling), rest):
            for low, (_, own_below, more) in below:
                if stand_ins + more <= limit and 3 <= top - low + 1 <= longest:
                    self.add_run(runs, low, top, (naturals, own + own_below, stand_ins + more))

    def grow(self, runs, walk, rest):
        """Walk (anchor, way, end) from the anchor one place at a time (`way` +1 up, -1 down), filling
        each place with a natural of `rest`, the suit's runner, or a stand-in: yields (place reached,
        the run's shape so far: (naturals, runners, stand-ins)) for each filling, the anchor alone
        first, never past the place `end`."""
        c, _, runner, limit, _ = runs
        place, way, end = walk
        base = c & ~PLACE          # natural(suit_of(c), 0), inline: base + place, the natural there (a hot loop)
        runner_places = self.table.runner_places
        shapes = [((), (), 0)]
        while True:
            for shape in shapes:
                yield place, shape
            place += way
            if (place - end) * way > 0:
                return
            n = base + place          # at ACE_ON_TOP no natural of the hand: an ace in it has place 1
            has_natural = n in rest
            has_runner = runner is not None and place in runner_places
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

    def add_run(self, runs, one_end, other_end, shape):
        """Add the run of this shape from one end to the other to `found`; with free wilds a
        13-card run may also leave one or two naturals out for wilds that have no other place."""
        span = (one_end, other_end) if one_end < other_end else (other_end, one_end)
        c, _, _, limit, found = runs
        free = self.free
        if shape not in found:
            naturals, runners, stand_ins = shape
            sinks = free and span[1] - span[0] < self.table.sinking
            found[shape] = candidate_from(('run', c, naturals, runners, stand_ins, sinks, span))
        if free and span[1] - span[0] == self.table.longest - 1:
            naturals, _, stand_ins = shape
            for n in (1, 2):
                if stand_ins + n <= limit:
                    for out in sorted(set(combinations(naturals, n))):
                        left = without(naturals, out)
                        found.setdefault((left, (), stand_ins + n),
                                         candidate_from(('run', c, left, (), stand_ins + n, False, span)))

    # 3c. Where a step leads.

    def step(self, cost, deadwood, melds, left):
        """The Step of a move: it costs `cost` now, leaves the naturals `deadwood` out of every meld,
        makes `melds`, and leads to the position `left` says, told here the same way however it was
        reached. `left` is that position as the move leaves it: (hand, wilds, runners, owed, sink,
        the place of the first natural's rank the move was made at, or None), a Position's fields
        but the last.

        Runners that can no longer play as themselves become plain wild-rank cards: a suit keeps
        at most as many runners as it has naturals left near them (each run a runner plays
        itself in holds one of those naturals). Naturals at the head of the hand that can be
        in no meld any more are deadwood on the way (`lone()`). A sink with no wild left makes
        no difference. The sets of the first natural's rank are settled (`sets_made`) after any move
        at that rank (set_steps() comes first: they are made, or there are none), or when no set of
        it can be made any more.
        """
        hand, wilds, runners, owed, sink, sets_of = left
        spare, most = self.jokers + wilds + len(runners) - owed, self.table.most    # self.spare(), inline: hottest
        limit = spare if spare < most else most
        if limit < 2 and hand:
            lone = self.lone(hand, limit, runners)
            if lone:
                out, hand = hand[:lone], hand[lone:]
                deadwood, cost = deadwood + out, cost + (self.table.value[out[0]] if lone == 1 else self.table.cost(out))
        if runners:               # after lone(): a runner it would drop is near no natural of the hand, so no help there
            wilds, runners = self.runners_kept(hand, wilds, runners)
        # (place_of(), inline; with two stand-ins left any natural makes a set)
        sets_made = bool(hand) and (hand[0] & PLACE == sets_of or limit < 2 and not self.may_set(hand, limit))
        # The hottest line of the search: the fields in order (positions.step_from()).
        return step_from((cost, position_from((hand, wilds, runners, owed, sink and spare > 0, sets_made)),
                          deadwood, melds))

    def lone(self, hand, limit, runners):
        """How many naturals at the head of the hand can be in no meld (see `can_meld()`). A natural that
        cannot meld with the deal's naturals never will; with no stand-in left that is most of them, and
        when it is every natural of the hand, none is looked at (most calls with no stand-in)."""
        deal, table = self.deal, self.table
        if limit:
            ever, mates = self.ever, table.mates
            for i, n in enumerate(hand):
                could = ever.get(n)
                if could is None:     # whether it can meld with the whole hand: if not, it never will
                    could = ever[n] = can_meld(n, deal.hand, 1, deal.runners, table, deal.near)
                # (a mate left: can_meld()'s first answer, asked here first, most often true)
                if could and (not mates[n].isdisjoint(hand) or can_meld(n, hand, 1, runners, table, deal.near)):
                    return i
            return len(hand)
        if len(hand) < 3:         # with no stand-in a meld takes three naturals
            return len(hand)
        pure = self.pure
        if pure is None:          # the naturals that can make a meld of no stand-in with the deal's
            pure = self.pure = frozenset(deal.hand).difference(never_meld(deal.hand, table))
        if not pure.isdisjoint(hand):
            for i, n in enumerate(hand):
                if n in pure and can_meld(n, hand, 0, runners, table, deal.near):
                    return i
        return len(hand)

    def runners_kept(self, hand, wilds, runners):
        """(wilds, runners) once the runners that can no longer play as themselves are plain wilds.
        Not when a set's suits must differ: the books of wild-rank cards at the end depend on the
        suits of those left (`books_left()`), so the position keeps every runner by its suit."""
        if self.table.suits_differ:
            return wilds, runners
        if len(runners) == 1:     # (most positions with a runner): kept while a natural near it is left
            return (wilds, runners) if runners[0] in map(self.deal.near.get, hand) else (wilds + 1, ())
        kept, wanted = [], list(map(self.deal.near.get, hand))     # the runner each natural could share a run with
        for r in dict.fromkeys(runners):                              # runners are in order
            kept += [r] * min(wanted.count(r), runners.count(r))
        return wilds + len(runners) - len(kept), tuple(kept)

    def may_set(self, hand, limit):
        """Whether the naturals of the first natural's rank can still make a set, with at most `limit` stand-ins,
        fewer than two (step() asks only then: any natural and two stand-ins are a set)."""
        if len(hand) < 2 or (hand[1] ^ hand[0]) & PLACE:     # not of the first one's place
            return False          # a lone natural of its rank needs two stand-ins
        kin = kin_at_head(hand)
        return kin >= 3 or kin + (limit if limit < self.table.set_stand_ins else self.table.set_stand_ins) >= 3

    def spare(self, wilds, runners, owed):
        """How many wilds are left for stand-ins: the jokers, plain wild-rank cards and runners, less
        the stand-ins the melds made so far hold."""
        return self.jokers + wilds + len(runners) - owed

    # 3d. The end: no natural left but the singles.

    def leftover(self, wilds, owed, sink, runners=()):
        """The cost of the end, when no natural is left but the singles: the stand-ins the melds hold
        are drawn from the jokers and the wild-rank cards, each single melds with two stand-ins,
        the dearest first, and then the wilds still left meld or are deadwood (`wilds_left()`, or
        `suits_left()` when a set's suits must differ). Every number of singles melded and every mix
        of jokers and wild-rank cards drawn is tried. The runners left (only kept to the end when
        a set's suits must differ) are wild-rank cards like the others."""
        known = self.ends.get((wilds, owed, sink, runners))
        if known:
            return known
        deal = self.deal
        wilds += len(runners)
        best, jokers, most = None, deal.jokers, self.table.most
        books = self.suits_left if self.table.suits_differ else None
        for melded in range(len(deal.singles) + 1):
            need = owed + 2 * melded
            if melded and (most < 2 or need > jokers + wilds):
                break
            for from_jokers in range(max(0, need - wilds), min(need, jokers) + 1):
                kept = wilds - (need - from_jokers)
                end = (books(jokers - from_jokers, kept, sink, melded, runners) if books
                       else self.wilds_left(jokers - from_jokers, kept, sink or (melded > 0 and deal.sinks)))
                cost = deal.singles_cost[melded] + end.cost
                if best is None or cost < best.cost:
                    best = leftover_from((cost, melded, end.jokers, end.wilds, end.sets, end.to_sink, end.kept))
        self.ends[wilds - len(runners), owed, sink, runners] = best
        return best

    def wilds_left(self, jokers, wilds, sink):
        """What the wilds left at the very end cost, and the sets they make.

        A set has no size limit, so with any number of wilds per meld three make a set of their
        own (one of them a wild-rank card playing itself, when all-wild melds are barred), and
        fewer join a sink: a set made before, or with free wilds a run with room on its ends.
        With one stand-in per meld, wild-rank cards make a set of their rank and each set takes
        one joker. A wild-rank card always wild (`wild_rank_as_itself` false) never plays itself.
        """
        if not jokers and not wilds:
            return NO_WILDS_LEFT
        table = self.table
        if table.most > 1 and jokers + wilds >= 3 and ((wilds and table.as_itself) or table.rules.all_wild_melds):
            return Leftover(cost=0, jokers=jokers, wilds=wilds, sets=((jokers, wilds),))
        if sink:
            return Leftover(cost=0, jokers=jokers, wilds=wilds, to_sink=True)
        if table.most == 1 and table.as_itself and (wilds >= 3 or (wilds == 2 and jokers)):
            with_joker = min(jokers, wilds // 2)
            if not with_joker:
                return Leftover(cost=0, jokers=jokers, wilds=wilds, sets=((0, wilds),))
            sets = ((1, wilds - 2 * (with_joker - 1)),) + ((1, 2),) * (with_joker - 1)
            return Leftover(cost=(jokers - with_joker) * table.joker_value, jokers=jokers, wilds=wilds, sets=sets)
        return Leftover(cost=jokers * table.joker_value + wilds * table.wild_value, jokers=jokers, wilds=wilds)

    def suits_left(self, jokers, wilds, sink, melded, runners):
        """wilds_left() when a set's cards must each be of a different suit (`set_suits`): a set holds
        one card a suit at most, so it takes no wild left over. With any number of wilds per meld,
        three wilds or more make runs of their own, as many as it takes (each of `longest` cards at
        most, and each with a wild-rank card playing itself when all-wild melds are barred); the
        others go on the ends of a run with room, the dearest first: a sink the search made (room
        for two) and the run each melded single makes (room for `longest` - 3); the rest are
        deadwood. With one stand-in per meld, the wild-rank cards make books of their own rank
        (`books_left()`); a wild-rank card always wild never plays itself."""
        if not jokers and not wilds:
            return NO_WILDS_LEFT
        table = self.table
        values = [table.joker_value] * jokers + [table.wild_value] * wilds
        if table.most > 1:
            runs = -(-(jokers + wilds) // table.longest)
            if jokers + wilds >= 3 and (table.rules.all_wild_melds or (table.as_itself and wilds >= runs)):
                return Leftover(cost=0, jokers=jokers, wilds=wilds, sets=((jokers, wilds),))
            room = 2 * sink + melded * (table.longest - 3)
            return Leftover(cost=sum(sorted(values, reverse=True)[room:]), jokers=jokers, wilds=wilds,
                            to_sink=room > 0)
        if table.as_itself:
            return self.books_left(jokers, wilds, runners)
        return Leftover(cost=sum(values), jokers=jokers, wilds=wilds)

    def books_left(self, jokers, wilds, runners):
        """The wilds left at the end with one stand-in per meld, when a set's suits must differ: the
        wild-rank cards make books of their rank, each of two to `suits` cards of different suits
        playing themselves and at most one stand-in (a joker, or a wild-rank card of a suit there
        already), 3 cards or more, one a suit at most. `wilds` of the wild-rank cards left (the
        deal's plain ones and the runners left) are kept, the others drawn as the stand-ins owed:
        those kept are the ones that make the best books (`book_sets()`); Leftover.kept names them,
        the deadwood first, then each book's cards, the first book's last (arrange() takes them
        from the end)."""
        deal, piles = self.deal, {}
        plain = without(deal.wild_cards, [CARD[r] for r in deal.runners])      # no runner from the start
        for c in plain + tuple(CARD[r] for r in runners):
            piles.setdefault(c.suit, []).append(c)
        piles = sorted(piles.values(), key=len, reverse=True)
        table = self.table
        options = []
        for kept in set(kept_suits(tuple(map(len, piles)), wilds)):
            sets, cost = book_sets(kept, jokers, table.suits, table.wild_value, table.joker_value)
            options.append((cost, kept, sets))
        cost, kept, sets = min(options)
        return Leftover(cost=cost, jokers=jokers, wilds=wilds, sets=tuple((j, t + w) for j, t, w in sets),
                        kept=dealt_books([pile[:k] for pile, k in zip(piles, kept)], sets))

    # 4. The answer: the best line of steps, as melds of cards.

    def solution(self):
        """One arrangement that reaches the minimal penalty: the best steps from the start."""
        penalty, opening = self.penalty(), self.opening
        position, steps = opening.after, [opening]
        while position.hand:
            step = self.known[position][2]
            steps.append(step)
            position = step.after
        return self.arranged(penalty, steps, position)

    def ties(self, budget):
        """Every arrangement that reaches the minimal penalty, following each tie (at most `budget` steps)."""
        penalty, opening = self.penalty(), self.opening
        count = 0

        def walk(position, steps):
            nonlocal count
            count += 1
            if count > budget:
                return
            if not position.hand:
                yield self.arranged(penalty, steps, position)
                return
            goal = self.best(position)
            for step in self.steps(position):
                if step.cost <= goal and self.best(step.after, goal - step.cost + 1) == goal - step.cost:
                    yield from walk(step.after, steps + [step])

        yield from walk(opening.after, [opening])

    def arranged(self, penalty, steps, end):
        """The Solution a line of steps reaches, ending at the position `end` (scorer/arrange.py)."""
        return arrange(self.deal, penalty, steps, self.leftover(end.wilds, end.owed, end.sink, end.runners))


# 5. The short path: a hand in which nothing can meld.

def solve_plain(hand, deal):
    """The Solution of a hand dealt out (`deal_out()`) that holds no wild (no joker, no card of the wild
    rank) and no natural that can meld: every card deadwood, the search's answer with no search; None
    for any other hand, which the search above takes.

    With no wild no meld holds a stand-in, so a natural melds only with two more of its rank or with
    a run's two other naturals of its suit: the deal has set aside as `never` the naturals that cannot
    (`never_meld()`), and when that is all of them, nothing is left to search. tests/brute.py is the
    definition. In seven of ten such lines of bench/vs.py's batch no natural can meld."""
    if deal.hand or deal.jokers or deal.wild_cards:
        return None
    return solution_from((deal.table.cost(deal.never), (), tuple(sorted(hand, key=ORDER.__getitem__))))


# What the search's parts above call, as plain functions: the books of wild-rank cards at the end (3d),
# and the naturals of the first one's rank at the head of a hand (3a, 3c).

def kept_suits(counts, n):
    """Every way to keep n cards of piles holding `counts` cards each (largest first): how many of
    each pile, in the piles' order."""
    if not counts:
        if n == 0:
            yield ()
        return
    for k in range(min(counts[0], n), max(0, n - sum(counts[1:])) - 1, -1):
        for rest in kept_suits(counts[1:], n - k):
            yield (k,) + rest


@lru_cache(maxsize=4096)
def book_sets(kept, jokers, suits, wild_value, joker_value):
    """(the books, what is left costs) at least, of wild-rank cards of a few suits (`kept`: how many
    of each, most first) and jokers, a book as (jokers, cards playing themselves, wild-rank cards
    standing in): its t cards playing themselves taken one from each of the t suits holding most
    (which leaves the most suits for the books after), and at most one stand-in, a joker or a
    wild-rank card of the suit holding most then; 3 to `suits` cards in all. What no book takes is
    deadwood."""
    kept = tuple(sorted((k for k in kept if k), reverse=True))
    best = ((), sum(kept) * wild_value + jokers * joker_value)
    for t in range(2, min(len(kept), suits) + 1):
        left = sorted([k - 1 for k in kept[:t]] + list(kept[t:]), reverse=True)
        for j, w in ((0, 0), (1, 0), (0, 1)):
            if j > jokers or not 3 <= t + j + w <= suits or (w and not any(left)):
                continue
            after = [left[0] - w] + left[1:]
            books, cost = book_sets(tuple(after), jokers - j, suits, wild_value, joker_value)
            if cost < best[1]:
                best = (((j, t, w),) + books, cost)
    return best


def dealt_books(piles, books):
    """The wild-rank cards kept (`piles`, one a suit) in the order arrange() takes them for the
    books of book_sets(), each book's cards taken as it takes them: one from each of the t piles
    holding most, then a stand-in from the pile holding most; what is left first (deadwood), the
    first book's cards last."""
    piles = [list(p) for p in piles]
    order = []
    for _, t, w in books:
        piles.sort(key=len, reverse=True)
        cards = [pile.pop() for pile in piles[:t]]
        if w:
            cards.append(max(piles, key=len).pop())
        order = cards + order
    return tuple(c for pile in piles for c in pile) + tuple(order)


def kin_at_head(hand):
    """How many naturals at the head of the hand share the first one's rank (they come together)."""
    place, count, size = hand[0] & PLACE, 1, len(hand)          # place_of(), inline
    while count < size and hand[count] & PLACE == place:
        count += 1
    return count
