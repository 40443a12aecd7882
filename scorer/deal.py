"""A hand made ready for the search: its naturals sorted out from its wilds, the runners, the naturals
that can never meld left out, the singles set aside, and the rest in search order, group by group
(scorer/solver.py's glossary names the words)."""

from .arrange import Arrangement
from .cards import ACE_ON_TOP, order, run_places
from .melds import foot_place, longest_run
from .moves import End, Moves
from .positions import NATURAL, natural_values, place_of, run_tables, search_order, suit_of, without

ANY = 99                 # stand-ins a meld may take when the rules set no limit


class Deal(Moves, End, Arrangement):
    """A hand made ready for the search: naturals in search order, runners, plain wilds, values."""

    def __init__(self, hand, wild, rules):
        self.wild, self.rules = wild, rules
        self.aces_high = rules.aces == 'high_or_low'
        self.most = ANY if rules.max_wilds_per_meld is None else rules.max_wilds_per_meld
        self.jokers, self.wild_cards, naturals = self.sort_out(hand)
        # Free wilds: any wild may stand for any card in any meld, and three wilds left over make a
        # set of their own. So it is when melds may hold any number of wilds, and either all-wild
        # melds are allowed or there is no joker (wild-rank cards left over make a set of their rank,
        # playing as themselves: `wild_rank_as_itself`).
        self.as_itself = rules.wild_rank_as_itself
        self.free = self.most > 1 and (rules.all_wild_melds or (not self.jokers and self.as_itself))
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
        if self.most == 1 and self.wild and self.as_itself:
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
