"""The meld rule is decided once (scorer/melds.py): it agrees with the brute force on every group of
cards, long runs included, and the claims and the solver are both held to it."""

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from scorer.cards import JOKER, SUITS, Card

from scorer.reading import parse_cards
from scorer.claims import check_claim, check_meld
from scorer.melds import Meld, meld_of, valid
from scorer.rules import make_rules
from scorer.solver import solve
from tests.brute import is_meld
from tests.hands import MELD_SETTINGS, deals, examples

ACES_HIGH = make_rules(aces='high_or_low')


def cards(text):
    return parse_cards(text, decks=3, jokers=6)


def rules_for(settings):
    return make_rules(settings, decks=3, jokers=6)


@st.composite
def groups(draw):
    """(cards, wild, rules): a group of 3 to 14 cards that is often a meld, or nearly one: a run of
    one suit along a window of places (up to all 13, the ace on top too), or a set, with some cards
    turned into wilds and jokers, and now and then a card of another suit or rank, or a rank twice."""
    rules = rules_for(draw(st.sampled_from(MELD_SETTINGS)))
    wild = draw(st.sampled_from([None] + list(range(1, 14))))
    suit = draw(st.sampled_from(SUITS))
    if draw(st.booleans()):
        size = draw(st.integers(3, 14))
        top = 14 if rules.aces == 'high_or_low' else 13
        foot = draw(st.integers(1, max(1, top - size + 1)))
        group = [Card(1 if place == 14 else place, suit) for place in range(foot, foot + size)]
    else:
        rank = draw(st.integers(1, 13))
        group = [Card(rank, draw(st.sampled_from(SUITS))) for _ in range(draw(st.integers(3, 9)))]
    for i in draw(st.lists(st.integers(0, len(group) - 1), max_size=4)):
        group[i] = draw(st.sampled_from([JOKER] + ([Card(wild, s) for s in SUITS] if wild else [])))
    if draw(st.integers(0, 3)) == 0:
        i = draw(st.integers(0, len(group) - 1))
        group[i] = Card(draw(st.integers(1, 13)), draw(st.sampled_from(SUITS)))
    if draw(st.integers(0, 5)) == 0 and len(group) > 3:
        group.pop(draw(st.integers(0, len(group) - 1)))
    return tuple(draw(st.permutations(group))), wild, rules


def agrees_with_brute(group, wild, rules):
    found = meld_of(group, wild, rules)
    assert (found is not None) == is_meld([tuple(c) for c in group], wild, rules), (group, wild, rules)
    if found is not None:
        assert sorted(found.cards) == sorted(group), 'the meld uses exactly the group'
        assert valid(found, wild, rules)
        assert check_meld(group, wild, rules).ok
    else:
        check = check_meld(group, wild, rules)
        assert not check.ok and ' is not a ' in check.reason


@examples(3000)
@given(groups())
def test_a_group_is_a_meld_exactly_when_the_brute_force_says_so(group):
    agrees_with_brute(*group)


@examples(600)
@given(deals(sizes=st.integers(3, 8)))
def test_random_groups_from_a_deal_agree_with_the_brute_force(deal):
    hand, wild, rules = deal
    agrees_with_brute(tuple(hand), wild, rules)


@pytest.mark.parametrize('text, wild, rules', [
    ('AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH', 13, make_rules()),            # A-Q, aces low
    ('AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH', None, make_rules()),       # A-K, nothing wild
    ('2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS', None, ACES_HIGH),          # 2-A, aces high or low
    ('AD 2D 3D 4D 5D 7C 7D 8D 9D 10D JD QD', 7, make_rules()),             # A-Q, a wild in the gap
    ('AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC 5H', 5, make_rules()),          # A-K, a wild five as the king
    ('JK 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH', None, make_rules(jokers=2)),
], ids=['A-Q', 'A-K', '2-A high', 'A-Q wild gap', 'A-K wild top', 'joker ace'])
def test_long_runs_are_melds(text, wild, rules):
    group = cards(text)
    assert meld_of(group, wild, rules) is not None
    assert check_meld(group, wild, rules).ok
    assert is_meld([tuple(c) for c in group], wild, rules)


@pytest.mark.parametrize('text, wild, rules', [
    ('AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH JK', None, make_rules(jokers=2)),   # 14 cards
    ('KS AS 2S', None, ACES_HIGH),
    ('AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS', None, ACES_HIGH),              # the ace at both ends
])
def test_runs_never_wrap_nor_pass_thirteen_cards(text, wild, rules):
    group = parse_cards(text, decks=2, jokers=2)
    assert meld_of(group, wild, rules) is None
    assert not check_meld(group, wild, rules).ok


def test_a_long_claimed_run_holds_in_the_claim_check():
    """Issue 35: the claim checker refused a valid 12-card run that the solver itself makes."""
    hand = cards('AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH 5C')
    claim = check_claim(hand, 13, make_rules(), melds=[cards('AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH')])
    assert claim.holds, claim.verdict
    assert claim.verdict == 'the melds leave 5, the minimum'


@examples(500)
@given(deals())
def test_the_solvers_own_arrangement_always_holds_as_a_claim(deal):
    hand, wild, rules = deal
    solution = solve(hand, wild, rules)
    for meld in solution.melds:
        assert valid(meld, wild, rules)
    claim = check_claim(hand, wild, rules, melds=[m.cards for m in solution.melds], score=solution.penalty,
                        solution=solution)
    assert claim.holds, claim.verdict


def test_valid_judges_what_each_card_plays_as():
    h7, h8, h9, jk = Card(7, 'H'), Card(8, 'H'), Card(9, 'H'), JOKER
    rules = make_rules(jokers=2)
    assert valid(Meld('run', (h7, jk, h9), (h7, h8, h9)), None, rules)
    assert not valid(Meld('run', (h7, h9, jk), (h7, h9, h8)), None, rules), 'out of order'
    assert not valid(Meld('run', (h7, Card(8, 'S'), h9), (h7, h8, h9)), None, rules), 'a natural standing in'
    assert valid(Meld('set', (h7, Card(7, 'S'), jk), (h7, Card(7, 'S'), Card(7, ''))), None, rules)
    one = make_rules(jokers=2, max_wilds_per_meld=1)
    assert not valid(Meld('set', (h7, jk, jk), (h7, Card(7, ''), Card(7, ''))), None, one)
    five = Card(5, 'H')                                 # a wild-rank card as itself is no stand-in
    assert valid(Meld('run', (Card(4, 'H'), five, jk), (Card(4, 'H'), five, Card(6, 'H'))), 5, one)


@examples(300)
@given(groups())
def test_a_meld_stays_a_meld_in_any_order(group):
    cards_, wild, rules = group
    assume(len(cards_) >= 3)
    first = meld_of(cards_, wild, rules)
    assert (first is None) == (meld_of(tuple(reversed(cards_)), wild, rules) is None)


@pytest.mark.parametrize('text, wild, settings, kind, plays', [
    ('JK JK 7H', 7, {}, 'run', '7H 8H 9H'),          # the seven as itself, the jokers after it
    ('KH JK JK', 13, {}, 'run', 'JH QH KH'),         # a king can only end a run
    ('KH KS JK', 13, {}, 'run', 'JH QH KH'),         # the first king as itself, the other standing in
    ('JK JK JK', 7, {}, 'run', 'AS 2S 3S'),          # no card as itself: from the foot of the first suit
    ('JK JK JK', None, {'game': 'five_crowns'}, 'run', '3S 4S 5S'),
    ('7H 7H JK', 7, {}, 'run', '7H 8H 9H'),
    ('KS KD KC', 13, {}, 'set', 'KS KD KC'),         # three kings as themselves: a set of kings
    ('KS KD KC', 13, {'wild_rank_as_itself': False}, 'run', 'JS QS KS'),   # none is itself: a run
    ('KH KS JK', 13, {'max_wilds_per_meld': 1}, 'set', 'KH KS K'),        # a run would need two stand-ins
], ids=['seven and jokers', 'king and jokers', 'two kings and a joker', 'three jokers', 'three jokers, Five Crowns',
        'two sevens alike', 'three kings', 'three kings always wild', 'one wild per meld'])
def test_a_group_of_wilds_only_is_named_as_the_table_reads_it(text, wild, settings, kind, plays):
    """docs/rules.md: a meld may be all wilds; it is a run where it reads as one (the score is the
    same), a set where every card is a wild-rank card playing itself or where no run is valid."""
    rules = make_rules({'jokers': 4, **settings} if settings.get('game') != 'five_crowns' else settings)
    meld = meld_of(parse_cards(text, 2, rules.jokers, deck=rules.deck), wild, rules)
    from scorer.cards import rank_text
    shown = ' '.join(str(p) if p.suit else rank_text(p.rank) for p in meld.plays)
    assert (meld.kind, shown) == (kind, plays)


def test_the_solver_names_a_group_of_wilds_left_over_as_the_table_reads_it():
    solution = solve(parse_cards('JK JK 7H KS KD KC', 2, 2), 7, make_rules(jokers=2))
    assert sorted(m.kind for m in solution.melds) == ['run', 'set'] and solution.penalty == 0
