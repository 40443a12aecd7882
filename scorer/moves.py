"""The moves of the search: the sets of a rank made all at once, the runs holding a natural (with
wilds free, or limited), the position each move leads to, and the end, when only singles and wilds
are left (scorer/solver.py's glossary names the words)."""

from itertools import combinations

from .cards import ACE_ON_TOP, KING
from .positions import (KIN, Candidate, Leftover, Position, Step, natural, naturals_taken, place_of, set_of,
                        sub_multisets, suit_of, without)


class Moves:
    """The moves from a position of a Deal (scorer/deal.py holds the hand they work on)."""

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


class End:
    """The end of the search: the stand-ins owed drawn from the wilds, the singles melded or not, and
    the wilds left over."""

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
        one joker. A wild-rank card always wild (`wild_rank_as_itself` false) never plays itself.
        """
        if not jokers and not wilds:
            return Leftover(cost=0)
        if self.most > 1 and jokers + wilds >= 3 and ((wilds and self.as_itself) or self.rules.all_wild_melds):
            return Leftover(cost=0, jokers=jokers, wilds=wilds, sets=((jokers, wilds),))
        if sink:
            return Leftover(cost=0, jokers=jokers, wilds=wilds, to_sink=True)
        if self.most == 1 and self.as_itself and (wilds >= 3 or (wilds == 2 and jokers)):
            with_joker = min(jokers, wilds // 2)
            if not with_joker:
                return Leftover(cost=0, jokers=jokers, wilds=wilds, sets=((0, wilds),))
            sets = ((1, wilds - 2 * (with_joker - 1)),) + ((1, 2),) * (with_joker - 1)
            return Leftover(cost=(jokers - with_joker) * self.joker_value, jokers=jokers, wilds=wilds, sets=sets)
        return Leftover(cost=jokers * self.joker_value + wilds * self.wild_value, jokers=jokers, wilds=wilds)
