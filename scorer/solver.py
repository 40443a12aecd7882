"""The meld solver: a hand's minimal penalty and one arrangement of melds that reaches it:
solve(hand, wild, rules) -> Solution(penalty, melds, deadwood); ties (arrangements()); going out.

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

Where each part lives: scorer/positions.py (the words above as the search writes them: naturals as
numbers, candidates, positions, steps), scorer/deal.py (the hand made ready), scorer/moves.py (the
steps from a position, and the end), scorer/arrange.py (from steps to melds of cards, each held to
the meld rule of scorer/melds.py), and this module (the search, and what the app asks of it).
"""

from .cards import order
from .deal import Deal
from .positions import Solution, place_of, without
from .rules import DEFAULT

INFINITY = float('inf')
__all__ = ['Solution', 'solve', 'counted', 'penalty', 'goes_out', 'discards_to_go_out', 'best_discard', 'arrangements',
           'grouping', 'without']


def solve(hand, wild, rules=DEFAULT):
    """The minimal penalty of a hand in a round whose wild rank is `wild` (None: jokers only), with
    one arrangement that reaches it."""
    return Search(Deal(hand, wild, rules)).solution()


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
