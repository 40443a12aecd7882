"""The meld solver: a hand's minimal penalty and one arrangement of melds that reaches it.

The rule (RULES.md, "Scoring a round"): a player scores the smallest possible sum of the
values of the cards left out of every meld, over every way of arranging the hand into
sets and runs, wilds included.

How: think in cards that are not wild (naturals) plus a count of wilds (the pool).
Take the first natural left. Either it is deadwood, or it is in a meld; every meld it can
be in is tried, made of naturals still left and wilds from the pool. Naturals are taken
suit by suit, low rank first, so the first natural is the lowest of its suit still left
and a run that holds it has only wilds below it. Results are memoised on (naturals left,
wilds left), so no position is searched twice. Wilds left at the end are melded for free
when a set can take them (a set has no size limit) or when three or more form an
all-wild meld; otherwise the cheapest of them are deadwood.

A wild-rank card may also be used as itself. That only matters when the rules limit wilds
(one per meld, or no all-wild melds): then every way of splitting the wild-rank cards
into "as itself" and "as a wild" is solved and the best kept.
"""

from functools import lru_cache
from itertools import combinations, product
from typing import NamedTuple

from .cards import JOKER, SUITS, Card, order
from .rules import DEFAULT

# A natural is a number: suit * 16 + rank (ace 1 ... king 13; an ace above the king is 14).
ID = {Card(rank, suit): s * 16 + rank for s, suit in enumerate(SUITS) for rank in range(1, 14)}
CARD = {**{i: c for c, i in ID.items()}, **{s * 16 + 14: Card(1, suit) for s, suit in enumerate(SUITS)}}
INFINITY = float('inf')


class Meld(NamedTuple):
    """A set or a run: its cards, and the card each one plays as (itself, or what a wild stands for)."""
    kind: str
    cards: tuple
    plays: tuple

    @property
    def wilds(self):
        """The cards in the meld that stand in for another card."""
        return tuple(c for c, p in zip(self.cards, self.plays) if c != p)


class Solution(NamedTuple):
    """The minimal penalty of a hand, with one arrangement that reaches it."""
    penalty: int
    melds: tuple
    deadwood: tuple


@lru_cache(maxsize=256)
def values(rules, wild):
    """What each card costs as deadwood in a round with this wild rank."""
    return {c: rules.value(c, wild) for c in [*ID, JOKER]}


def solve(hand, wild, rules=DEFAULT):
    """The minimal penalty of a hand in a round whose wild rank is `wild` (None: jokers only)."""
    value = values(rules, wild)
    jokers, wild_cards, naturals = [], [], []
    for c in hand:
        (jokers if c.rank == 0 else wild_cards if c.rank == wild else naturals).append(c)
    best, memos, shared = None, {}, {}
    ways = splits(wild_cards, naturals, rules, len(jokers))
    everyone = naturals + wild_cards if len(ways) > 1 else ()
    for as_itself in ways:
        pool = jokers + list(without(wild_cards, as_itself))
        # Splits with as many wilds share what they found (the order of naturals is the same),
        # and all splits share what is worked out from the cards alone.
        search = Search(naturals + as_itself, pool, wild, rules, value, everyone,
                        memos.setdefault(len(pool), {}), shared)
        if best is not None and search.penalty() >= best.penalty:
            continue                    # no better: not worth reading back its arrangement
        best = search.solution()
        if best.penalty == 0:
            break
    return best


def penalty(hand, wild, rules=DEFAULT):
    """The minimal penalty of a hand."""
    return solve(hand, wild, rules).penalty


def splits(wild_cards, naturals, rules, jokers=0):
    """The ways worth trying of using wild-rank cards as themselves, most used as themselves first.

    With free wilds a wild does all a card used as itself does, so none is. With one wild
    per meld, a wild-rank card with no natural of its suit near enough to share a run can
    only be itself in a set, where its suit does not matter: for those only how many are
    used counts.
    """
    if not rules.wilds_limited or not wild_cards:
        return [[]]
    if rules.max_wilds_per_meld is None:
        # Only all-wild melds are barred. A meld with another natural needs no card as itself;
        # melds made only of wild-rank cards and jokers merge into one set that needs one.
        return [wild_cards[:1], []]
    reach = 1 + min(rules.max_wilds_per_meld or 99, len(wild_cards) - 1 + jokers)
    high = rules.aces == 'high_or_low'

    def places(rank):
        return (1, 14) if rank == 1 and high else (rank,)

    def in_runs(w):
        return any(c.suit == w.suit and abs(p - q) <= reach
                   for c in naturals for p in places(c.rank) for q in places(w.rank))

    runners = sorted((c for c in wild_cards if in_runs(c)), key=order)
    set_only = sorted((c for c in wild_cards if not in_runs(c)), key=order)
    distinct = sorted(set(runners), key=order)
    ways = []
    for counts in product(*(range(runners.count(c), -1, -1) for c in distinct)):
        chosen = [c for c, n in zip(distinct, counts) for _ in range(n)]
        for n in range(len(set_only), -1, -1):
            ways.append(chosen + set_only[:n])
    return ways


def without(cards, taken):
    """The tuple `cards` without the cards `taken` (each once), in the same order."""
    if not taken:
        return tuple(cards)
    left = list(cards)
    for c in taken:
        left.remove(c)
    return tuple(left)


class Search:
    """One exact search over naturals and a pool of wilds, under one set of rules."""

    def __init__(self, naturals, pool, wild, rules, value, everyone=(), memo=None, shared=None):
        self.wild = wild
        self.high = rules.aces == 'high_or_low'
        self.max_wilds = 99 if rules.max_wilds_per_meld is None else rules.max_wilds_per_meld
        self.free_wilds = not rules.wilds_limited     # any wild may stand for any card in any meld
        self.all_wild_ok = rules.all_wild_melds and rules.max_wilds_per_meld is None
        self.pool = sorted(pool, key=lambda c: -value[c])     # dearest first
        cheapest = [value[c] for c in reversed(self.pool)]
        self.leftover = [sum(cheapest[:n]) for n in range(len(cheapest) + 1)]
        # `everyone`: all cards that are naturals in some split of the wild-rank cards.
        shared = {} if shared is None else shared
        if 'every' not in shared:
            every = sorted({ID[c] for c in [*naturals, *everyone]})
            by_rank = {}
            for i in every:
                by_rank.setdefault(i & 15, []).append(i)
            shared.update(every=every, value={i: value[CARD[i]] for i in every},
                          kin={i: tuple(by_rank[i & 15]) for i in every})
        every, self.value, self.kin = shared['every'], shared['value'], shared['kin']
        limit = min(len(pool), self.max_wilds)
        if ('place', limit) not in shared:
            shared[('place', limit)] = self.by_group(every, limit)
        place = shared[('place', limit)]
        self.start = tuple(sorted((ID[c] for c in naturals), key=place.get))
        self.memo = {} if memo is None else memo

    def by_group(self, ids, limit):
        """A sort key that puts naturals group by group, where a group is what one meld could ever join.

        Two naturals can share a meld only if they have the same rank, or the same suit with at
        most `limit` places between them. Searching one group after another lets the memo
        reuse each group's results whatever was done in the groups before.
        """
        parent = {x: x for x in ids}

        def find(x):
            while parent[x] != x:
                x = parent[x]
            return x

        def join(x, y):
            parent[find(y)] = find(x)

        first_of_rank, top_of_suit, previous = {}, {}, None
        for x in ids:                                  # suit by suit, low to high
            join(first_of_rank.setdefault(x & 15, x), x)
            if previous is not None and previous >> 4 == x >> 4 and x - previous <= limit + 1:
                join(previous, x)
            previous = top_of_suit[x >> 4] = x
        if self.high:                                  # an ace also sits above the king
            for suit, top in top_of_suit.items():
                ace = suit * 16 + 1
                if ace in parent and 14 - (top & 15) <= limit + 1:
                    join(ace, top)
        order_of = {}
        for x in ids:
            order_of.setdefault(find(x), len(order_of))
        return {x: (order_of[find(x)], x) for x in ids}

    def searcher(self):
        """The search itself, best(hand, w, sink): the minimal penalty of the naturals `hand`
        with w wilds left, `sink` telling that a set is there to take spare wilds."""
        memo, value, leftover = self.memo, self.value, self.leftover
        max_wilds, all_wild_ok, can_sink = self.max_wilds, self.all_wild_ok, self.max_wilds > 1
        lone, melds = self.lone, self.melds

        def best(hand, w, sink):
            if not w:
                sink = False            # with no wild left, whether a set could take one does not matter
            key = (hand, w, sink)
            got = memo.get(key)
            if got is not None:
                return got[0]
            if not hand:
                cost = 0 if w == 0 or sink or (w >= 3 and all_wild_ok) else leftover[w]
                memo[key] = (cost, None)
                return cost
            limit = w if w < max_wilds else max_wilds
            if limit < 2:
                n = lone(hand, limit)
                if n:
                    cost = best(hand[n:], w, sink)
                    for c in hand[:n]:
                        cost += value[c]
                    memo[key] = (cost, n)
                    return cost
            c, rest = hand[0], hand[1:]
            cost, choice = value[c] + best(rest, w, sink), None
            if cost:
                for meld in melds(c, rest, w, limit):
                    used, k, is_set = meld[0], meld[1], meld[2]
                    left, now = without(rest, used) if used else rest, (sink or (is_set and can_sink)) and w > k
                    got = memo.get((left, w - k, now))
                    x = got[0] if got is not None else best(left, w - k, now)
                    if x < cost:
                        cost, choice = x, meld
                        if cost == 0:
                            break
            memo[key] = (cost, choice)
            return cost

        return best

    def lone(self, hand, limit):
        """How many naturals at the head of the hand can be in no meld, with at most one wild each."""
        high, kin = self.high, self.kin
        for i, c in enumerate(hand):
            rest = hand[i + 1:]
            if limit:
                if c + 1 in rest or c + 2 in rest or any(x in rest for x in kin[c]) or (
                        high and c & 15 == 1 and (c + 11 in rest or c + 12 in rest)):
                    return i
            elif (c + 1 in rest and c + 2 in rest) or sum(map(rest.count, kin[c])) >= 2 or (
                    high and c & 15 == 1 and c + 11 in rest and c + 12 in rest):
                return i
        return len(hand)

    def melds(self, c, rest, w, limit):
        """Every meld holding natural c, as (naturals used besides c, wilds used, is_set, run span)."""
        found = []
        self.sets(c, rest, w, found)
        base = c & ~15
        if c & 15 == 1 and self.high:
            # The ace on top: places 13, 12, ... below it, each a natural or a wild.
            self.runs(base, rest, limit, 14, -1, found)
        self.runs(base, rest, limit, c & 15, 1, found)
        return found

    def sets(self, c, rest, w, found):
        """Sets of c's rank: any of the naturals of that rank left, and the wilds needed."""
        rank = c & 15
        same = [x for x in rest if x & 15 == rank]
        if not same:
            choices = [()]
        elif len(same) == 1:
            choices = [(), (same[0],)]
        else:
            distinct = sorted(set(same))
            choices = [tuple(x for x, n in zip(distinct, counts) for _ in range(n))
                       for counts in product(*(range(same.count(x) + 1) for x in distinct))]
        one_wild = self.max_wilds == 1
        for used in choices:
            need = 2 - len(used) if len(used) < 2 else 0
            if need <= w and need <= self.max_wilds:
                found.append((used, need, True, None))
            if one_wild and need == 0 and w:      # one spare wild: a set takes it only one at a time
                found.append((used, 1, True, None))

    def runs(self, base, rest, limit, anchor, step, found):
        """Runs that hold the anchor and grow away from it (step +1 up, -1 down) by naturals or wilds.

        A run is told by (used naturals, wilds, low place, high place, anchor place): a place
        between low and high holds its natural when that natural is in `used`, else a wild.
        Below its low end a run may go on in wilds (never below the ace, never past 13 cards).
        With free wilds a natural that is there is always taken (a wild in its place could be
        swapped with it), except that a 13-card run may leave one or two out for wilds that
        have no other place.
        """
        free = self.free_wilds
        if step > 0:
            far = 13 if anchor == 1 or not self.high else 14
            fixed_low = anchor == 1
        else:
            far, fixed_low = 2, True
        shapes = [((), 0)]    # (naturals used, wilds in gaps)
        end = anchor
        while True:
            lo, hi = (anchor, end) if step > 0 else (end, anchor)
            for used, gaps in shapes:
                if step < 0:
                    used = used[::-1]
                most = 0 if fixed_low else min(limit - gaps, lo - max(1, hi - 12))
                for below in range(most + 1):
                    length = hi - lo + 1 + below
                    if length < 3:
                        continue
                    k = gaps + below
                    span = (base, lo - below, hi, anchor)
                    found.append((used, k, False, span))
                    if free and length == 13:
                        for n in (1, 2):
                            if k + n <= limit:
                                for out in sorted(set(combinations(used, n))):
                                    found.append((without(used, out), k + n, False, span))
            end += step
            if end == far + step:
                return
            natural = end != 14 and base + end in rest
            grown = []
            for used, gaps in shapes:
                if natural:
                    grown.append((used + (base + end,), gaps))
                    if free:
                        continue
                if gaps < limit:
                    grown.append((used, gaps + 1))
            if not grown:
                return
            shapes = grown

    def penalty(self):
        """Run the search: the minimal penalty alone."""
        return self.searcher()(self.start, len(self.pool), False)

    def solution(self):
        """Run the search (its memo makes a second run free) and read back one arrangement."""
        hand, w, sink = self.start, len(self.pool), False
        penalty = self.searcher()(hand, w, sink)
        layouts, deadwood = [], []
        while hand:
            _, choice = self.memo[(hand, w, sink and w > 0)]
            if isinstance(choice, int):     # that many lone naturals at the head
                deadwood += [CARD[c] for c in hand[:choice]]
                hand = hand[choice:]
                continue
            c, rest = hand[0], hand[1:]
            if choice is None:
                deadwood.append(CARD[c])
                hand = rest
                continue
            used, k, is_set, _ = choice
            layouts.append(layout(c, choice))
            hand, w = without(rest, used), w - k
            sink = sink or (is_set and self.max_wilds > 1)
        melds, spare = self.place_wilds(layouts, w, sink)
        deadwood += spare
        return Solution(penalty, tuple(melds), tuple(sorted(deadwood, key=order)))

    def ties(self, budget):
        """Every arrangement that reaches this search's minimum, following each tie (at most `budget` steps)."""
        best = self.searcher()
        target = best(self.start, len(self.pool), False)
        steps = 0
        can_sink = self.max_wilds > 1

        def walk(hand, w, sink, layouts, dead):
            nonlocal steps
            steps += 1
            if steps > budget:
                return
            if not hand:
                melds, spare = self.place_wilds(layouts, w, sink)
                yield Solution(target, tuple(melds), tuple(sorted(dead + spare, key=order)))
                return
            cost = best(hand, w, sink)
            limit = min(w, self.max_wilds)
            lone = self.lone(hand, limit) if limit < 2 else 0
            if lone:
                yield from walk(hand[lone:], w, sink, layouts, dead + [CARD[c] for c in hand[:lone]])
                return
            c, rest = hand[0], hand[1:]
            if self.value[c] + best(rest, w, sink) == cost:
                yield from walk(rest, w, sink, layouts, dead + [CARD[c]])
            for meld in self.melds(c, rest, w, limit):
                used, k, is_set, _ = meld
                left, now = without(rest, used), sink or (is_set and can_sink)
                if best(left, w - k, now) == cost:
                    yield from walk(left, w - k, now, layouts + [layout(c, meld)], dead)

        yield from walk(self.start, len(self.pool), False, [], [])

    def place_wilds(self, layouts, w, sink):
        """Give the pool's wilds to the melds' empty places: the dearest are melded, the cheapest left."""
        used_count = len(self.pool) - w
        melded, spare = self.pool[:used_count], self.pool[used_count:]
        melds = []
        for layout in layouts:
            if layout[0] == 'set':
                _, rank, naturals, k = layout
                cards = [CARD[i] for i in naturals]
                wilds = [take(melded, Card(rank, '')) for _ in range(k)]
                melds.append(Meld('set', tuple(cards + wilds), tuple(cards) + plays_in_set(wilds, rank)))
            else:
                _, base, places, k = layout
                cards, plays = [], []
                for p in sorted(places):
                    stands = CARD[base + p]
                    cards.append(CARD[places[p]] if places[p] is not None else take(melded, stands))
                    plays.append(stands)
                melds.append(Meld('run', tuple(cards), tuple(plays)))
        if spare and (sink or (len(spare) >= 3 and self.all_wild_ok)):
            sets = [i for i, m in enumerate(melds) if m.kind == 'set']
            if sets:
                m = melds[sets[0]]
                rank = m.plays[0].rank
                melds[sets[0]] = Meld('set', m.cards + tuple(spare), m.plays + plays_in_set(spare, rank))
            else:
                melds.append(Meld('set', tuple(spare), plays_in_set(spare, self.wild or 1)))
            spare = []
        return melds, spare


def layout(c, meld):
    """A meld found by the search, as a layout: ('set', rank, naturals, wilds) or ('run', suit base,
    {place: natural or None for a wild}, wilds)."""
    used, k, is_set, span = meld
    if is_set:
        return ('set', c & 15, (c,) + used, k)
    base, lo, hi, anchor = span
    naturals = set(used) | {c}
    places = {p: (c if p == anchor else base + p if p <= 13 and base + p in naturals else None)
              for p in range(lo, hi + 1)}
    return ('run', base, places, k)


def grouping(solution):
    """What tells two arrangements apart for people: the cards of each meld, and the deadwood."""
    return (tuple(sorted(tuple(sorted(map(str, m.cards))) for m in solution.melds)),
            tuple(sorted(map(str, solution.deadwood))))


def arrangements(hand, wild, rules=DEFAULT, limit=2, budget=3000):
    """Up to `limit` arrangements that reach the minimal penalty, each grouping the cards differently.

    The first is solve()'s. Ties are followed for at most `budget` steps, so a hand with a huge
    number of equivalent arrangements may show fewer than exist, never more.
    """
    first = solve(hand, wild, rules)
    found = {grouping(first): first}
    value = values(rules, wild)
    jokers, wild_cards, naturals = [], [], []
    for c in hand:
        (jokers if c.rank == 0 else wild_cards if c.rank == wild else naturals).append(c)
    ways = splits(wild_cards, naturals, rules, len(jokers))
    everyone = naturals + wild_cards if len(ways) > 1 else ()
    for as_itself in ways:
        pool = jokers + list(without(wild_cards, as_itself))
        search = Search(naturals + as_itself, pool, wild, rules, value, everyone)
        for solution in search.ties(budget):
            if solution.penalty != first.penalty:
                break
            found.setdefault(grouping(solution), solution)
            if len(found) >= limit:
                return list(found.values())
    return list(found.values())


def plays_in_set(wilds, rank):
    """What wilds in a set of `rank` play as: a card of that rank as itself, any other as the rank."""
    return tuple(c if c.rank == rank else Card(rank, '') for c in wilds)


def take(wilds, stands):
    """Take a wild for a place: the card itself if it is there (a wild-rank card as itself)."""
    for i, c in enumerate(wilds):
        if c == stands or (not stands.suit and c.rank == stands.rank):
            return wilds.pop(i)
    return wilds.pop(0)


def goes_out(hand, wild, rules=DEFAULT):
    """Whether every card of the hand melds (penalty 0)."""
    return solve(hand, wild, rules).penalty == 0


def discards_to_go_out(hand, wild, rules=DEFAULT):
    """The cards whose discard leaves a hand that melds completely."""
    return [c for c in sorted(set(hand), key=order) if goes_out(without(hand, [c]), wild, rules)]
