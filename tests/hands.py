"""Hypothesis strategies and helpers shared by the solver tests: deals, rules, validity of an arrangement."""

from collections import Counter

from hypothesis import settings
from hypothesis import strategies as st

from scorer.cards import JOKER, SUITS, Card
from scorer.limits import MAX_HAND
from scorer.melds import valid
from scorer.claims import check_meld
from scorer.rules import make_rules
from tests.brute import brute_penalty, card_value, is_meld


def share():
    """How much of a property test the running profile asks for: all of it in `make test` (the ci
    profile), a tenth in the quick core (the dev profile, tests/conftest.py)."""
    return settings.default.max_examples / settings.get_profile('ci').max_examples


def examples(n):
    """A property test's settings: n examples in `make test`, the profile's share of them in the quick core."""
    return settings(max_examples=max(5, round(n * share())))


def steps(n):
    """A state machine's steps a run: n in `make test`, fewer (at least 10) in the quick core."""
    return max(10, round(n * share()))


# A wild-rank card always wild (never itself) makes a difference only where wilds are limited.
# A set's suits each different (`set_suits`) with every other meld setting.
MELD_SETTINGS = [dict(aces=a, max_wilds_per_meld=m, all_wild_melds=w, wild_rank_as_itself=i, set_suits=d)
                 for a in ('low', 'high_or_low') for m in (None, 1) for w in (True, False) for i in (True, False)
                 for d in ('any', 'different') if i or m or not w]


@st.composite
def rules_st(draw):
    """Any rules a table could choose (two decks, 0-4 jokers)."""
    return make_rules(
        aces=draw(st.sampled_from(['low', 'high_or_low'])),
        face_values=draw(st.sampled_from(['ten', 'ranked'])),
        wild_penalty=draw(st.sampled_from([15, 0, 20])),
        joker_penalty=draw(st.sampled_from([20, 25])),
        ace_penalty=draw(st.sampled_from([15, 1])),
        max_wilds_per_meld=draw(st.sampled_from([None, 1])),
        all_wild_melds=draw(st.booleans()),
        wild_rank_as_itself=draw(st.booleans()),
        set_suits=draw(st.sampled_from(['any', 'different'])),
        jokers=draw(st.sampled_from([0, 2, 4])),
    )


@st.composite
def deals(draw, sizes=st.integers(3, 14)):
    """(hand, wild, rules): a hand dealt from the rules' pack, often a narrow slice of it so melds are common."""
    rules = draw(rules_st())
    size = draw(sizes)
    wild = draw(st.sampled_from([None] + list(range(1, 14))))
    suits = draw(st.sampled_from([SUITS, 'H', 'HS', 'HSD']))
    low = draw(st.integers(1, 13))
    ranks = [r for r in range(1, 14) if low <= r <= low + draw(st.integers(2, 12)) or
             (r == 1 and draw(st.booleans()))]
    pack = [Card(r, s) for r in set(ranks) for s in suits for _ in range(rules.decks)]
    if wild:
        pack += [Card(wild, s) for s in SUITS for _ in range(rules.decks) if Card(wild, s) not in pack]
    pack += [JOKER] * rules.jokers
    size = min(size, len(pack))
    hand = draw(st.permutations(pack))[:size]
    return hand, wild, rules


def solves_exactly(hand, wild, rules):
    """The solver's penalty is the brute force's minimum, and its arrangement holds (check_arrangement)."""
    from scorer.solver import solve
    solution = solve(hand, wild, rules)
    assert solution.penalty == brute_penalty(hand, wild, rules)
    check_arrangement(solution, hand, wild, rules)
    return solution


def check_arrangement(solution, hand, wild, rules):
    """The solution's melds are valid, use each card of the hand once with the deadwood, and sum to the penalty."""
    used = Counter(c for m in solution.melds for c in m.cards) + Counter(solution.deadwood)
    assert used == Counter(hand), 'the arrangement does not use exactly the hand'
    for meld in solution.melds:
        cards = [tuple(c) for c in meld.cards]
        assert is_meld(cards, wild, rules), f'{meld} is not a meld'
        assert check_meld(meld.cards, wild, rules).ok, f'the claim check refuses {meld}'
        assert valid(meld, wild, rules), f'the meld rule refuses {meld} as it plays'
        assert len(meld.plays) == len(meld.cards)
        for card, plays in zip(meld.cards, meld.plays):
            if card != plays:
                assert card.rank in (0, wild), f'{card} stands in for {plays} but is not wild'
        stand_ins = sum(c != p or (c.rank == wild and not rules.wild_rank_as_itself)
                        for c, p in zip(meld.cards, meld.plays))
        if rules.max_wilds_per_meld is not None:
            assert stand_ins <= rules.max_wilds_per_meld
        if not rules.all_wild_melds:
            assert stand_ins < len(meld.cards)
        if meld.kind == 'set':
            assert len({p.rank for p in meld.plays}) == 1
        else:
            assert len({p.suit for p in meld.plays}) == 1
            places = [p.rank for p in meld.plays]
            if places[-1] == 1 and len(places) > 1:
                places[-1] = 14
            assert places == list(range(places[0], places[0] + len(places))), f'{meld} is out of order'
    assert sum(card_value(tuple(c), wild, rules) for c in solution.deadwood) == solution.penalty


@st.composite
def clustered_deals(draw, sizes=st.integers(8, MAX_HAND)):
    """(hand, wild, rules): the kind issue 24 found slow. Three decks, many copies of one rank (every
    suit, duplicated) beside the wild rank, wild-rank cards of those suits, naturals of those suits
    near them, and a few other cards."""
    rules = make_rules(draw(st.sampled_from(MELD_SETTINGS)), decks=3, jokers=draw(st.sampled_from([0, 2])))
    wild = draw(st.integers(1, 13))
    rank = draw(st.sampled_from([r for r in range(wild - 2, wild + 3) if r != wild and 1 <= r <= 13]))
    size = draw(sizes)
    copies = draw(st.permutations([Card(rank, s) for s in SUITS] * 3))[:draw(st.integers(3, size // 2))]
    wilds = draw(st.permutations([Card(wild, s) for s in SUITS] * 3 + [JOKER] * rules.jokers))
    wilds = wilds[:draw(st.integers(1, 5))]
    near = [Card(r, s) for r in range(wild - 3, wild + 4) if 1 <= r <= 13 and r not in (wild, rank)
            for s in SUITS] * 3
    others = draw(st.permutations(near))[:max(0, size - len(copies) - len(wilds) - 2)]
    rest = [Card(r, s) for r in range(1, 14) for s in SUITS if r not in (wild, rank)]
    hand = copies + wilds + others + draw(st.permutations(rest))[:2]
    return hand[:size], wild, rules


@st.composite
def crowded_deals(draw, sizes=st.integers(8, 13)):
    """(hand, wild, rules): the hands that were once slow. Three decks, many cards of the wild rank
    (and jokers), limited wilds, and naturals of every suit close to the wild rank, so that a
    wild-rank card may play as itself in a run of its suit or stand in for another card."""
    rules = make_rules(draw(st.sampled_from([s for s in MELD_SETTINGS
                                             if s['max_wilds_per_meld'] or not s['all_wild_melds']])),
                       decks=3, jokers=draw(st.sampled_from([0, 2, 6])))
    wild = draw(st.integers(1, 13))
    wilds = [Card(wild, s) for s in SUITS] * 3 + [JOKER] * rules.jokers
    near = [Card(r, s) for r in range(wild - 2, wild + 3) if r != wild and 1 <= r <= 13 for s in SUITS] * 3
    if wild >= 12:                    # an ace on top is near a wild queen or king
        near += [Card(1, s) for s in SUITS] * 3
    size = draw(sizes)
    n_wilds = draw(st.integers(size // 3, size * 2 // 3))
    hand = draw(st.permutations(wilds))[:n_wilds] + draw(st.permutations(near))[:size - n_wilds]
    return hand, wild, rules


FIVE_CROWNS_SETTINGS = [dict(game='five_crowns', max_wilds_per_meld=m, all_wild_melds=w, wild_rank_as_itself=i,
                             set_suits=d)
                        for m in (None, 1) for w in (True, False) for i in (True, False) for d in ('any', 'different')]


@st.composite
def five_crowns_deals(draw, sizes=st.integers(3, 14)):
    """(hand, wild, rules): a Five Crowns hand (five suits of 3 to K, two of each card, six jokers),
    the round's wild rank, often a narrow slice of the deck so that books and runs are common."""
    rules = make_rules(draw(st.sampled_from(FIVE_CROWNS_SETTINGS)))
    size = draw(sizes)
    wild = min(size, 13)
    suits = draw(st.sampled_from(['SHDCX', 'X', 'XS', 'HXC']))
    low = draw(st.integers(3, 13))
    ranks = [r for r in range(3, 14) if low <= r <= low + draw(st.integers(2, 10))]
    pack = [Card(r, s) for r in set(ranks) for s in suits for _ in range(2)]
    pack += [Card(wild, s) for s in 'SHDCX' for _ in range(2) if Card(wild, s) not in pack]
    pack += [JOKER] * draw(st.integers(0, 6))
    size = min(size, len(pack))
    return draw(st.permutations(pack))[:size], wild, rules
