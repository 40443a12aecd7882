"""The solver is exact: it agrees with the brute-force referee, and every arrangement it gives is valid."""

import random
from unittest import mock

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorer.cards import JOKER, SUITS, Card

from scorer.reading import parse_cards
from scorer.limits import MAX_HAND
from scorer.rules import DEFAULT, make_rules
from scorer.solver import Search, best_discard, discards_to_go_out, goes_out, solve, without
from tests.brute import brute_penalty, could_be_melds, is_meld
from tests.hands import (FIVE_CROWNS_SETTINGS, MELD_SETTINGS, check_arrangement, clustered_deals, crowded_deals,
                         deals, examples, five_crowns_deals, solves_exactly)


def hand(text):
    return parse_cards(text, decks=3, jokers=6)


def penalty(text, wild, **settings):
    return solve(hand(text), wild, make_rules(settings, decks=3, jokers=6)).penalty


# --- Against the brute force -------------------------------------------------------------

def without_wilds(deal):
    """A deal with its jokers and wild-rank cards taken out."""
    h, wild, rules = deal
    return [c for c in h if c.rank not in (0, wild)], wild, rules


@examples(400)
@given(deals())
def test_penalty_is_the_brute_force_minimum(deal):
    h, wild, rules = deal
    assert solve(h, wild, rules).penalty == brute_penalty(h, wild, rules)


@examples(400)
@given(deals())
def test_a_search_cut_short_by_a_bound_leaves_floors_a_wider_search_may_trust(deal):
    """penalty(below=b) stops early and keeps, for the positions it cut, a number their penalty is not
    below; the same search asked again with ever wider bounds, and then with none, still finds the
    brute force's minimum (a floor set too high would hide the best line)."""
    from scorer.solver import Search, deal_out, table_for
    h, wild, rules = deal
    search = Search(deal_out(h, table_for(rules, wild)))
    for below in (1, 2, 3, 5, 8, 13, 21, 34):
        search.penalty(below)
    assert search.penalty() == brute_penalty(h, wild, rules)


@examples(400)
@given(deals())
def test_the_certain_deadwood_floor_cuts_nothing_the_best_line_needs(deal):
    """A big search (more than BIG positions met) answers a position whose naturals that can meld no
    more already cost the bound with that cost, a floor, unsearched. Asked of every position from the
    first (BIG 0), with bounds that cut and then none, the search still finds the brute force's
    minimum, and the arrangement it reads back is valid."""
    from scorer import solver
    h, wild, rules = deal
    with mock.patch.object(solver, 'BIG', 0):
        search = solver.Search(solver.deal_out(h, solver.table_for(rules, wild)))
        for below in (1, 2, 3, 5, 8, 13, 21, 34):
            search.penalty(below)
        assert search.penalty() == brute_penalty(h, wild, rules)
        check_arrangement(search.solution(), h, wild, rules)


def test_the_slowest_hand_found_is_cut_by_its_certain_deadwood():
    """The slowest hand make worst found (three decks, aces wild and high, one wild per meld, no
    all-wild melds): once the search is big, a position whose certain deadwood already costs what
    the best line found does is not searched. It met 739 positions before; now under 600."""
    from scorer.solver import Search, deal_out, table_for
    rules = make_rules(decks=3, aces='high_or_low', max_wilds_per_meld=1, all_wild_melds=False)
    h = parse_cards('QD 2S 2C 4D 3D 2C 2D AC AS AD 4S 4C 3S KC 3C', rules.decks, rules.jokers)
    search = Search(deal_out(h, table_for(rules, 1)))
    assert search.penalty() == brute_penalty(h, 1, rules)
    assert len(search.known) < 600


def test_a_position_whose_singles_cost_its_bound_is_not_searched():
    """Kings wild, two of them: 8D, AH and QD share no meld with another card (singles), and each melds
    only with two stand-ins, so with two wilds left at most one does, and the other two (9 points at
    least) are deadwood in every line. Asked below 9, the search answers 9 from that floor, meeting no
    position but the first (it met 8 before the floor); and a hand whose best line costs its floor
    stops trying moves once a line reaches it (9 positions met, 15 before)."""
    from scorer.solver import Search, deal_out, table_for
    h = parse_cards('8D 9C 9H 4C AH 2C 6H QD KD 3S 3C KC 4C', DEFAULT.decks, DEFAULT.jokers)
    search = Search(deal_out(h, table_for(DEFAULT, 13)))
    assert search.best(search.opening.after, 9) == 9
    assert len(search.known) == 1
    assert search.penalty() == brute_penalty(h, 13, DEFAULT) == 32
    h = parse_cards('QD 8D AH 2C 3C 4C KD KC 9H 9C 9S 5S 6S', DEFAULT.decks, DEFAULT.jokers)
    search = Search(deal_out(h, table_for(DEFAULT, 13)))
    assert search.penalty() == brute_penalty(h, 13, DEFAULT) == 19
    assert len(search.known) <= 9


def test_a_set_of_one_natural_is_not_tried_when_a_dearer_natural_would_be_deadwood_for_it():
    """Kings wild, two of them. A set of 4S alone on both kings leaves no wild: in the first hand JD,
    a single (it shares no meld with another card), is then deadwood in every line, in the second 9D
    and 9C, which make no meld without a wild. That line with JD (or 9D) set alone on the kings
    instead, and 4S deadwood, costs less, so the search does not try the set of 4S alone (it did
    before), and still finds the brute force's minimum."""
    from scorer.positions import CARD
    from scorer.solver import Search, deal_out, table_for
    for text, best in (('4S 5S JD KD KC', 9), ('4S 5S 9D 9C KD KC', 0)):
        h = parse_cards(text, DEFAULT.decks, DEFAULT.jokers)
        search = Search(deal_out(h, table_for(DEFAULT, 13)))
        start = search.opening.after
        assert str(CARD[start.hand[0]]) == '4S' and start.wilds == 2
        alone = [m for step in search.steps(start) for m in step.melds if m.kind == 'set' and not m.naturals]
        assert alone == []
        assert search.penalty() == brute_penalty(h, 13, DEFAULT) == best


class MeldsMade(Search):
    """The search, with the melds of every step it makes kept (what a cut must leave unmade)."""

    def __init__(self, deal):
        self.melds = []
        super().__init__(deal)

    def step(self, cost, deadwood, melds, left):
        self.melds += melds
        return super().step(cost, deadwood, melds, left)


def test_a_set_of_two_on_the_one_wild_left_beside_a_third_of_its_rank_is_walked_for_ties_not_searched():
    """Kings wild, one of them, free wilds: 8H 8D 8C and 9C 10C, 2C 3C. A set of two eights on the king
    leaves 8C for the run 8C 9C 10C, which only ties the set of the three eights with the king in 9C
    10C's run (fewest_untied()): best() does not make that set (it did before) and finds the brute force's
    minimum; with no 2C 3C (both lines then meld every card), the walk through ties still makes it, so
    both arrangements are shown."""
    from scorer.solver import arrangements, deal_out, grouping, table_for

    h = parse_cards('8H 8D 8C 9C 10C 2C 3C KS', DEFAULT.decks, DEFAULT.jokers)
    search = MeldsMade(deal_out(h, table_for(DEFAULT, 13)))
    assert search.penalty() == brute_penalty(h, 13, DEFAULT) == 5
    two_on_the_wild = [m for m in search.melds if m.kind == 'set' and len(m.naturals) == 1 and m.stand_ins == 1]
    assert two_on_the_wild == []
    h = parse_cards('8H 8D 8C 9C 10C KS', DEFAULT.decks, DEFAULT.jokers)
    shown = {grouping(a)[0] for a in arrangements(h, 13, DEFAULT, count=5)}
    assert shown == {(('10C', '9C', 'KS'), ('8C', '8D', '8H')), (('10C', '8C', '9C'), ('8D', '8H', 'KS'))}


def test_with_two_wilds_left_a_set_on_stand_ins_beside_another_of_its_rank_is_not_searched():
    """Kings wild, two of them, free wilds: 3H 3D 3C, 7D 9D. A set of two threes on a king leaves the
    third deadwood (no run takes it), which at best ties the set of the three threes, the king sunk
    in it (fewest_untied(), with two wilds left as with one): best() does not make that set (it did
    before) and finds the brute force's minimum, 10 (10S)."""
    from scorer.solver import deal_out, table_for

    h = parse_cards('3C 3H 3D 7D 10S 9D KS KH', DEFAULT.decks, DEFAULT.jokers)
    search = MeldsMade(deal_out(h, table_for(DEFAULT, 13)))
    assert search.penalty() == brute_penalty(h, 13, DEFAULT) == 10
    assert [m for m in search.melds if m.kind == 'set' and m.stand_ins] == []


def test_the_sets_that_only_tie_are_not_listed_for_the_best_line():
    """Kings wild, two of them, free wilds: AH AC first, with 8H JH and 4C of their suits left. A set of
    one ace on the two kings, the other ace left out, at best ties the set of both aces on one king
    (fewest_untied()): set_choices() does not list it for best(), so nothing is worked out about it
    (alone_loses() was asked of each ace before, and the set then dropped) and the penalty is still the
    brute force's."""
    from scorer.positions import place_of
    from scorer.solver import deal_out, table_for
    asked = []

    class Asked(Search):
        def alone_loses(self, n, spare, after, runners):
            asked.append(n)
            return super().alone_loses(n, spare, after, runners)

    h = parse_cards('AH 8H 4C JH AC 3D KS KH', DEFAULT.decks, DEFAULT.jokers)
    search = Asked(deal_out(h, table_for(DEFAULT, 13)))
    assert search.penalty() == brute_penalty(h, 13, DEFAULT) == 9
    assert [n for n in asked if place_of(n) == 1] == []


@pytest.mark.parametrize('game', ['standard', 'five_crowns'])
def test_the_places_below_a_run_with_no_runner_are_what_the_walk_down_yields(game):
    """limited_runs() lists the places below c, where its suit has no runner, without walking them
    (stand_ins_below()): the same list grow() yields walking down with no natural there."""
    from scorer.positions import natural
    from scorer.solver import deal_out, stand_ins_below, table_for
    rules = make_rules(game=game, max_wilds_per_meld=1)
    table = table_for(rules, None)
    search = Search(deal_out(parse_cards('7H', rules.decks, rules.jokers), table))
    for place in range(table.foot, 14):
        for limit in range(3):
            c = natural(0, place)
            walked = list(search.grow((c, (), None, limit, {}), (place, -1, table.foot), ()))
            assert stand_ins_below(place, limit, table.foot) == walked, (place, limit)


def test_the_first_natural_is_not_tried_as_deadwood_when_its_value_and_the_singles_cost_the_best_found():
    """Kings wild, two of them: 7S and 5C are singles, so with both kings left at least 5 points of
    them are deadwood in every line. The run 9C JC QC on one king reaches 12; 9C as deadwood costs
    its 9 and those 5 at least, 14, so it is not searched (it was before, meeting JC QC's position:
    3 positions met, now 2)."""
    from scorer.solver import Search, deal_out, table_for
    h = parse_cards('QC 7S 5C 9C JC KD KC', DEFAULT.decks, DEFAULT.jokers)
    search = Search(deal_out(h, table_for(DEFAULT, 13)))
    assert search.penalty() == brute_penalty(h, 13, DEFAULT) == 12
    assert len(search.known) == 2


@examples(200)
@given(st.one_of(deals(), five_crowns_deals(), crowded_deals()))
def test_the_set_choices_of_a_rank_with_no_copies_are_the_sub_multisets_in_their_order(deal):
    """set_choices() lists the subsets of a rank's naturals with no copies itself (combinations, the
    suits of the rest listed once when wilds are free): at every position a search meets where the sets
    are not made, the same choices in the same order as the sub-multisets of the general case, which
    the read-back's ties depend on."""
    from scorer.positions import sub_multisets
    from scorer.solver import Search, deal_out, kin_at_head, table_for
    h, wild, rules = deal
    search = Search(deal_out(h, table_for(rules, wild)))
    search.penalty()
    for position in search.known:
        if not position.hand or position.sets_made:
            continue
        kin = kin_at_head(position.hand)
        same, rest = position.hand[:kin], position.hand[kin:]
        spare = search.spare(position.wilds, position.runners, position.owed)
        smallest = 3 - min(spare, search.table.set_stand_ins)
        if len(set(same)) < len(same) or len(same) <= smallest:
            continue
        least = {n: max(0, same.count(n) - search.runs_through(n, rest, position.runners)) for n in same}
        assert search.set_choices(same, rest, position.runners, spare) == [
            used for used in sub_multisets(same, least) if len(used) >= smallest]


def test_with_no_stand_in_left_a_hand_that_can_make_no_meld_of_naturals_is_not_looked_through():
    """Kings wild, one of them: no three of these naturals make a meld (no three of a rank, no run of
    three), so once a move has taken the king, every natural left is deadwood. lone() knows it from the
    deal's naturals (never_meld(), once), and asks can_meld() nothing with no stand-in left (it asked
    7 times before, once for each natural it met)."""
    from scorer import solver
    h = parse_cards('8D 9C 2H 4C AH 2C 6H QD KD 3S 5C JC 4S', DEFAULT.decks, DEFAULT.jokers)
    with mock.patch.object(solver, 'can_meld', wraps=solver.can_meld) as can_meld:
        search = solver.Search(solver.deal_out(h, solver.table_for(DEFAULT, 13)))
        assert search.penalty() == brute_penalty(h, 13, DEFAULT) == 45
    assert can_meld.call_count > 0
    assert [call for call in can_meld.call_args_list if call.args[2] == 0] == []


@examples(200)
@given(st.one_of(deals(), five_crowns_deals(), crowded_deals(), deals().map(without_wilds)))
def test_lone_drops_the_head_naturals_that_can_meld_with_nothing_left(deal):
    """lone() looks only at the naturals that can meld with the deal's (the others never will): at every
    position a search meets, with no stand-in and with one, it drops just the naturals at the head
    that can_meld() says can be in no meld with the hand and runners left."""
    from scorer.solver import Search, can_meld, deal_out, table_for
    h, wild, rules = deal
    search = Search(deal_out(h, table_for(rules, wild)))
    search.penalty()
    table, near = search.table, search.deal.near
    for position in search.known:
        hand, runners = position.hand, position.runners
        for limit in (0, 1):
            head = next((i for i, n in enumerate(hand) if can_meld(n, hand, limit, runners, table, near)), len(hand))
            assert search.lone(hand, limit, runners) == head


@examples(400)
@given(st.one_of(deals(), five_crowns_deals(), deals().map(without_wilds), five_crowns_deals().map(without_wilds)))
def test_the_naturals_set_aside_from_the_start_are_those_that_can_meld_with_nothing(deal):
    """deal_out() leaves out, as deadwood from the start, the naturals that no meld of the hand could
    hold: with no stand-in it asks can_meld() of each; with one, it takes the singles of its groups (a
    natural melds then only with a card of its group). Either way they are the naturals can_meld() says
    cannot meld with the whole hand, every copy; with two stand-ins or more, none."""
    from scorer.solver import can_meld, deal_out, sort_out, table_for
    h, wild, rules = deal
    table = table_for(rules, wild)
    dealt = deal_out(h, table)
    naturals = tuple(sort_out(h, table)[2])
    limit = dealt.stand_ins
    never = [n for n in naturals if limit < 2 and not can_meld(n, naturals, limit, dealt.runners, table, dealt.near)]
    assert sorted(dealt.never) == sorted(never)
    assert not dealt.singles or limit >= 2


EVERY_MELD_RULE = ([make_rules(s, decks=d) for s in MELD_SETTINGS for d in (1, 2, 3)]
                   + [make_rules(s) for s in FIVE_CROWNS_SETTINGS])      # both games, every meld setting


@st.composite
def dense_plain_deals(draw):
    """(hand, wild, rules): a hand with no wild, dense with melds that share cards (one to three suits of
    a few ranks side by side, an ace beside the king too, one to three decks), so that many arrangements
    tie and the order the moves are tried in decides which is given."""
    rules = draw(st.sampled_from(EVERY_MELD_RULE))
    ranks = rules.deck.ranks
    low = draw(st.integers(0, len(ranks) - 3))
    window = ranks[low:low + draw(st.integers(3, 6))] + ((1,) if 1 in ranks and draw(st.booleans()) else ())
    suits = draw(st.sampled_from([rules.deck.suits[:k] for k in (1, 2, 3)]))
    pack = [Card(r, s) for r in set(window) for s in suits for _ in range(rules.decks)]
    wild = draw(st.sampled_from([None] + [r for r in ranks if r not in window]))
    return draw(st.permutations(pack))[:draw(st.integers(3, MAX_HAND))], wild, rules


def can_meld_at_all(hand, wild, rules):
    """Whether any meld can be made from the hand's cards (tests/brute.py's melds, every one)."""
    cards = tuple(sorted(tuple(c) for c in hand))
    return any(is_meld([c for i, c in enumerate(cards) if mask >> i & 1], wild, rules)
               for mask in could_be_melds(cards, wild))


@examples(400)
@given(st.one_of(dense_plain_deals(), deals().map(without_wilds), five_crowns_deals().map(without_wilds),
                 clustered_deals().map(without_wilds), deals(), five_crowns_deals()).filter(lambda deal: deal[0]))
def test_the_short_path_answers_exactly_the_hands_that_can_make_no_meld_and_answers_as_the_search(deal):
    """solve_plain() (solver.py's section 5) answers a hand exactly when it holds no wild and no meld can be
    made of its cards (tests/brute.py's is_meld() over every subset that could be one; when a set's suits
    must differ, only such hands, not all of them: three of a rank in two suits go to the search), under every meld
    setting of both games, one to three decks; its answer is the brute force's penalty, a valid
    arrangement, and the general search's answer card for card. Any other hand: None, for the search."""
    from scorer.solver import Search, deal_out, solve_plain, table_for
    h, wild, rules = deal
    table = table_for(rules, wild)
    plain = solve_plain(h, deal_out(h, table))
    declined = any(c.rank == 0 or c.rank == wild for c in h) or can_meld_at_all(h, wild, rules)
    if rules.suits_differ:               # three of a rank in two suits: no book, yet left to the search
        assert plain is None or not declined
    else:
        assert (plain is None) == declined
    if plain is not None:
        assert plain.penalty == brute_penalty(h, wild, rules)
        check_arrangement(plain, h, wild, rules)
        assert plain == Search(deal_out(h, table)).solution()
        assert solve(h, wild, rules) == plain


@examples(1500)
@given(deals())
def test_arrangement_is_valid_and_adds_up(deal):
    h, wild, rules = deal
    check_arrangement(solve(h, wild, rules), h, wild, rules)


@pytest.mark.parametrize('size', range(3, 15))
@pytest.mark.parametrize('settings_', MELD_SETTINGS, ids=lambda s: '-'.join(str(v) for v in s.values()))
def test_every_size_under_every_meld_setting(size, settings_):
    """Random two-deck deals and one-suit deals with wilds, for each hand size and meld rule."""
    rng = random.Random(size * 100 + MELD_SETTINGS.index(settings_))
    rules = make_rules(settings_, jokers=2)
    wild = 1 if size == 14 else size
    pack = [Card(r, s) for r in range(1, 14) for s in SUITS] * 2 + [JOKER] * 2
    suit = rng.choice(SUITS)
    narrow = [Card(r, suit) for r in range(1, 14)] * 2 + [Card(wild, s) for s in SUITS] + [JOKER] * 2
    for h in (rng.sample(pack, size), rng.sample(narrow, size)):
        solves_exactly(h, wild, rules)


@examples(60)
@given(st.data())
def test_adversarial_one_suit_many_wilds(data):
    """13-14 cards of one suit with duplicates and 3-8 wilds, under any meld setting."""
    rules = make_rules(data.draw(st.sampled_from(MELD_SETTINGS)), jokers=2)
    size = data.draw(st.sampled_from([13, 14]))
    wild = 1 if size == 14 else size
    n_wilds = data.draw(st.integers(3, 8))
    suit = data.draw(st.sampled_from(SUITS))
    wilds = data.draw(st.permutations([Card(wild, s) for s in SUITS] * 2 + [JOKER] * 2))[:n_wilds]
    naturals = [Card(r, suit) for r in range(1, 14) if r != wild] * 2
    h = wilds + data.draw(st.permutations(naturals))[:size - n_wilds]
    solves_exactly(h, wild, rules)


@examples(150)
@given(crowded_deals())
def test_crowded_hands_agree_with_the_brute_force(deal):
    """Many wild-rank cards under limited wilds: which of them play as themselves is decided inside
    the search (issue 15), and the minimum is still the brute force's."""
    h, wild, rules = deal
    solves_exactly(h, wild, rules)


@examples(30)
@given(crowded_deals(sizes=st.integers(14, MAX_HAND)))
def test_crowded_hands_of_the_largest_size_agree_and_do_not_depend_on_order(deal):
    """The largest hands the app accepts: the minimum is the brute force's, the arrangement is
    valid, and shuffling the hand changes nothing."""
    h, wild, rules = deal
    solution = solves_exactly(h, wild, rules)
    assert solve(list(reversed(h)), wild, rules).penalty == solution.penalty


@examples(120)
@given(clustered_deals())
def test_many_copies_of_a_rank_beside_the_wild_rank_agree_with_the_brute_force(deal):
    """Issue 24's kind: the sets of a crowded rank are made in one step, whichever copies go to runs."""
    h, wild, rules = deal
    solves_exactly(h, wild, rules)


@pytest.mark.slow
@pytest.mark.parametrize('text, wild, settings, best', [
    ('5S 8C 6H 10D 5H QC 5D 4C 5C 6D 7C 5S 6C 5H 5S QD 6C 5D 6S 5C', 6,
     dict(decks=3, max_wilds_per_meld=1), 10),
    ('3S 3C 3H 3D AS AH AS 6H 7H AH 4S 2S 9H 6D AD QH AD 2C AC AC', 3,
     dict(decks=2, jokers=2, aces='high_or_low', max_wilds_per_meld=1), 2),
], ids=['nine fives beside wild sixes', 'eight aces beside wild threes'])
def test_the_hands_that_took_a_second_agree_with_the_brute_force(text, wild, settings, best):
    """Issue 24: 20 cards (more than a hand holds now) that took 0.6-2 s. The brute force takes
    seconds on each; the solver, tens of milliseconds (make bench)."""
    rules = make_rules(settings)
    h = parse_cards(text, rules.decks, rules.jokers, max_cards=20)
    solution = solve(h, wild, rules)
    assert solution.penalty == brute_penalty(h, wild, rules) == best
    check_arrangement(solution, h, wild, rules)


@pytest.mark.parametrize('text, wild, settings', [
    ('JK QC 5H 6H 10D 7H 2H 9C QC QD 5S 4H 8H 5H 4H', 12,
     dict(decks=3, jokers=2, aces='high_or_low', all_wild_melds=False)),
    ('JS JD 10C 8C 8S 8C KC QS JC 10D 8D 8C 9C 10S 9S', 11,
     dict(decks=3, jokers=6, max_wilds_per_meld=1, all_wild_melds=False)),
    ('3C 4H 4C 2C 2D 3H 5S AH AD 3D 3C 7D AC 5D 2H', 1, dict(decks=3, max_wilds_per_meld=1)),
    ('QD 2S 2C 4D 3D 2C 2D AC AS AD 4S 4C 3S KC 3C', 1,
     dict(decks=3, aces='high_or_low', max_wilds_per_meld=1, all_wild_melds=False)),
    ('3S 5D 4S 4D 3C 4S 6D 6S 5S 4C 5C 8D 7C 6C 3D', 6,
     dict(decks=3, jokers=2, max_wilds_per_meld=1, all_wild_melds=False)),
])
def test_the_slowest_hands_make_worst_found_agree_with_the_brute_force(text, wild, settings):
    """The slowest hands of MAX_HAND cards a hill-climb on solve time found (bench/worst.py)."""
    rules = make_rules(settings)
    h = parse_cards(text, rules.decks, rules.jokers)
    solves_exactly(h, wild, rules)


def test_the_hand_that_took_two_seconds():
    """Issue 15: kings wild, three decks, one wild per meld, aces high or low. The twelve kings meld
    as a set of kings, the seven queens as a set of queens; the 8♦ has no other 8 and no diamond
    within two places, and a meld takes one stand-in at most, so it is the deadwood."""
    rules = make_rules(decks=3, max_wilds_per_meld=1, aces='high_or_low')
    h = parse_cards('KH KS KC KD KH KS KC KD KH KS KC KD QS QH QD QC QD QH QD 8D', 3, 0, max_cards=20)
    solution = solve(h, 13, rules)
    assert solution.penalty == 8 and [str(c) for c in solution.deadwood] == ['8D']
    check_arrangement(solution, h, 13, rules)


# --- The rules, case by case (docs/rules.md) ---------------------------------------------

def test_set_of_identical_cards():
    assert penalty('9C 9C 9D', None) == 0


def test_run_cannot_hold_a_rank_twice():
    assert penalty('5H 5H 6H 7H', None) == 5


def test_card_that_fits_a_set_or_a_run_goes_where_it_saves_most():
    assert penalty('7H 7S 7D 8H 9H', None) == 14          # run 7-8-9♥, 7♠ 7♦ left
    assert penalty('7H 7S 7D 7C 8H 9H', None) == 0        # set 7♠ 7♦ 7♣ and run 7-8-9♥


def test_ace_is_low_unless_the_table_says_high_or_low():
    assert penalty('AH 2H 3H', None) == 0
    assert penalty('QH KH AH', None) == 21
    assert penalty('QH KH AH', None, aces='high_or_low') == 0
    assert penalty('AH 2H 3H', None, aces='high_or_low') == 0


def test_a_run_never_wraps():
    assert penalty('KH AH 2H', None) == 13
    assert penalty('KH AH 2H', None, aces='high_or_low') == 27    # the unmelded ace costs 15


def test_a_wild_never_goes_past_a_full_run():
    thirteen = ' '.join(f'{r}H' for r in 'A 2 3 4 5 6 7 8 9 10 J Q K'.split())
    assert penalty(thirteen, None) == 0
    # The joker cannot extend A-K, but the run splits in two (A-6, 7-K) and it extends one.
    assert penalty(thirteen + ' JK', None) == 0
    assert penalty(thirteen + ' JK', None, aces='high_or_low') == 0
    # Two cards and a wild past the king: nothing melds.
    assert penalty('KH AH JK', None) == 31
    assert penalty('KH AH JK', None, aces='high_or_low') == 0


def test_a_run_holds_an_ace_at_one_end_only():
    """Two aces, aces high or low, wilds limited (all-wild melds barred, jokers in the hand): a run
    down from the ace on top stops at the 2, and never reaches the other ace (found by hypothesis)."""
    rules = make_rules(decks=3, jokers=2, aces='high_or_low', all_wild_melds=False)
    h = parse_cards('JK 2H 2D 2C 2S 2H 2D 2C 2S 2H 2D AS 3S AS 3S 3H 3H', 3, 2, max_cards=17)
    check_arrangement(solve(h, 2, rules), h, 2, rules)


def test_wilds_extend_a_run_at_either_end_and_fill_gaps():
    assert penalty('QH KH JK', None) == 0
    assert penalty('AH JK 3H', None) == 0
    assert penalty('4H 6H 8H JK JK', None) == 0


def test_wild_rank_cards_are_wild_and_can_be_themselves():
    assert penalty('4H 5S 6H', 5) == 0                    # 5♠ stands for 5♥
    assert penalty('4H 5H 6H 7H JK', 5, max_wilds_per_meld=1) == 0    # 5♥ as itself, joker as 8♥
    assert penalty('KH KS KD', 13, all_wild_melds=False) == 0         # three kings are a set of kings


def test_wild_rank_cards_always_wild_never_themselves():
    """The house rule `wild_rank_as_itself` false: a card of the wild rank always stands in, so it counts
    against one wild per meld and makes no meld of its own when every meld needs a card as itself."""
    always = dict(wild_rank_as_itself=False)
    assert penalty('4H 5H 6H 7H JK', 5, max_wilds_per_meld=1, **always) == 15      # 4♥ 🃏 6♥ 7♥, 5♥ left
    assert penalty('4H 5H 6H', 5, max_wilds_per_meld=1, **always) == 0             # 5♥ stands in for itself
    assert penalty('KH KS KD', 13, all_wild_melds=False, **always) == 45           # no king is a king
    assert penalty('JK JK 3S', 3, all_wild_melds=False, **always) == 55
    assert penalty('JK JK 3S', 3, **always) == 0                                    # all wilds may meld
    assert penalty('5H 5S 5D', 5, max_wilds_per_meld=1, **always) == 45            # three stand-ins
    assert penalty('5H 5S 5D', 5, max_wilds_per_meld=1) == 0                        # three fives


def test_all_wild_melds_on_and_off():
    assert penalty('JK JK JK', None) == 0
    assert penalty('JK JK JK', None, all_wild_melds=False) == 60
    assert penalty('JK JK 3S', 3, all_wild_melds=False) == 0          # 3♠ as itself


def test_one_wild_per_meld():
    assert penalty('7H JK JK', None, max_wilds_per_meld=1) == 47
    assert penalty('7H 8H JK JK', None, max_wilds_per_meld=1) == 20
    assert penalty('7H 8H JK JK', None) == 0


def test_eight_wilds():
    kings = 'KH KH KS KS KD KD KC KC'
    assert penalty(kings + ' 2C 7D 9S', 13) == 0
    # One wild per meld: each natural would need two; the kings meld as themselves.
    assert penalty(kings + ' 2C 7D 9S', 13, max_wilds_per_meld=1) == 18
    assert penalty(kings + ' 2C 7D 9S', 13, all_wild_melds=False) == 0


def test_card_values_and_penalty_settings():
    assert penalty('KS', None) == 10
    assert penalty('KS', None, face_values='ranked') == 13
    assert penalty('5S', 5) == 15
    assert penalty('5S', 5, wild_penalty=20) == 20
    assert penalty('5S', 5, wild_penalty=0) == 0
    assert penalty('JK', None) == 20
    assert penalty('JK', None, joker_penalty=25) == 25
    assert penalty('AS', None) == 1
    assert penalty('AS', None, aces='high_or_low') == 15
    assert penalty('AS', None, aces='high_or_low', ace_penalty=1) == 1
    assert penalty('AS', 1, aces='high_or_low') == 15                  # aces wild at 14 cards


@pytest.mark.parametrize('settings', [{}, dict(aces='high_or_low'), dict(face_values='ranked', wild_penalty=20),
                                      dict(aces='high_or_low', ace_penalty=1, wild_penalty=0),
                                      dict(game='five_crowns', max_wilds_per_meld=1)])
def test_the_tables_values_are_the_rules_values_of_every_card(settings):
    # The search's values (positions.natural_values(), worked out once a rank) are what the rules
    # say each card of every suit costs as deadwood, in every round's wild rank and with none.
    from scorer.positions import CARD, natural_values
    rules = make_rules(settings)
    for wild in (None, *range(1, 14)):
        assert natural_values(rules, wild) == {n: rules.value(c, wild) for n, c in CARD.items()}

def test_unmelded_wilds_left_are_the_cheapest():
    # Fives wild, one joker in play (20) and a 5♦ (15); one wild per meld, so 7♥ 8♥ takes one of
    # them and the other is left over: the dearer joker is melded, the cheaper five is deadwood.
    rules = make_rules(jokers=2, max_wilds_per_meld=1)
    s = solve(hand('7H 8H 5D JK'), 5, rules)
    assert s.penalty == 15 and [str(c) for c in s.deadwood] == ['5D']
    assert [str(c) for c in s.melds[0].cards] == ['JK', '7H', '8H']
    # Two jokers and a five beside a pair of sevens: one joker melds, a joker and the five are left.
    s = solve(hand('7H 7S 5D JK JK'), 5, rules)
    assert s.penalty == 35 and sorted(str(c) for c in s.deadwood) == ['5D', 'JK']
    # With any number of wilds per meld, the set takes them all.
    assert solve(hand('7H 7S 5D JK'), 5, make_rules(jokers=2)).penalty == 0


def test_arrangement_tells_what_each_wild_stands_for():
    s = solve(hand('7H 8H 9H KS 5C'), 5, DEFAULT)
    assert s.penalty == 10
    (run,) = s.melds
    assert run.kind == 'run'
    assert [str(p) for p in run.plays] in (['6H', '7H', '8H', '9H'], ['7H', '8H', '9H', '10H'])
    assert [str(c) for c in run.stand_ins] == ['5C']
    assert [str(c) for c in s.deadwood] == ['KS']


def test_go_out_check_and_discards():
    assert goes_out(hand('4H 5H 6H KS KD KC'), 3)
    assert not goes_out(hand('4H 5H 6H KS KD 2C'), 3)
    # Round 1 deals 3; with a fourth card drawn, which discards go out?
    assert [str(c) for c in discards_to_go_out(hand('4H 5H 6H 9C'), 3)] == ['9C']
    assert [str(c) for c in discards_to_go_out(hand('4H 5H 6H 7H'), 3)] == ['4H', '7H']
    assert discards_to_go_out(hand('4H 6H 8C 9C'), 3) == []


@examples(200)
@given(deals(sizes=st.integers(4, 12)))
def test_the_best_discard_is_the_one_each_discard_solved_in_turn_finds(deal):
    """best_discard() skips discards by a bound (the hand's penalty less the card's value); solving
    every discard to the end, with the brute force, finds the same cards and the same penalty."""
    h, wild, rules = deal
    left = {c: brute_penalty(without(h, [c]), wild, rules) for c in set(h)}
    out, best, least = best_discard(h, wild, rules)
    assert sorted(map(str, out)) == sorted(str(c) for c, p in left.items() if p == 0)
    if not out:
        assert (least, str(best)) == min((p, str(c)) for c, p in left.items())


@examples(150)
@given(deals(sizes=st.integers(3, 10)))
def test_every_arrangement_offered_is_optimal_valid_and_distinct(deal):
    from scorer.solver import arrangements, grouping
    h, wild, rules = deal
    found = arrangements(h, wild, rules, count=3)
    minimum = brute_penalty(h, wild, rules)
    assert len({grouping(s) for s in found}) == len(found)
    for solution in found:
        assert solution.penalty == minimum
        check_arrangement(solution, h, wild, rules)


def test_ties_are_found():
    from scorer.solver import arrangements
    # Round 11 (kings wild): 2♥ 3♥ 4♥ or three threes leave 18 either way.
    found = arrangements(hand('2S 3H 3H 2H 10S 3S 4H'), 13)
    assert len(found) == 2 and {s.penalty for s in found} == {18}
    assert len(arrangements(hand('7H 8H 9H KS'), 5)) == 1


def test_a_sets_cards_each_of_a_different_suit():
    """The house rule `set_suits` different (docs/rules.md): two decks' identical cards are no set
    together, a wild stands for a suit not yet in the set, so a set holds one card a suit at most."""
    differ = dict(set_suits='different', jokers=2)
    assert penalty('7H 7H 7S', None, **differ) == 21                 # 7♥ twice: no set
    assert penalty('7H 7H 7S', None, jokers=2) == 0
    assert penalty('7H 7S 7D JK', None, **differ) == 0                # the joker a club
    assert penalty('7H 7S 7D 7C JK', None, **differ) == 7             # no fifth suit: 7♥ 7♠ 7♦ 🃏, 7♣ left
    assert penalty('7H 7H 7S 7S JK JK', None, **differ) == 0          # two sets: 7♥ 7♠ 🃏 twice
    assert penalty('7H 7H 7S 7S 7D', None, **differ) == 14             # 7♥ 7♠ 7♦, and 7♥ 7♠ left
    assert penalty('KH KH KS', 13, max_wilds_per_meld=1, **differ) == 0   # K♥ K♠ as themselves, a K♥ standing in
    assert penalty('5H 5H 5S 5D', 5, max_wilds_per_meld=1, all_wild_melds=False, **differ) == 0    # a 5♥ stands in
    assert penalty('5H 5H 5S 5S 5D', 5, max_wilds_per_meld=1, **differ) == 15   # four cards a set at most
    for one in (None, 1):
        five = make_rules(game='five_crowns', set_suits='different', max_wilds_per_meld=one)
        books = solve(parse_cards('7H 7S 7D 7C 7X JK', 2, 6, deck=five.deck), 3, five)
        assert books.penalty == 0 and len(books.melds) == 2          # 7♥ 7♠ 🃏 and 7♦ 7♣ 7★: five suits a book


def test_a_run_of_wilds_takes_what_a_set_whose_suits_differ_cannot():
    """With `set_suits` different a set holds one card a suit, so it takes no wild left over: a
    single and its two stand-ins are a run, which takes ten more, and the wilds no meld has room
    for are deadwood, the cheapest (15 a five, 20 a joker)."""
    fourteen = '9H 5H 5H 5H 5S 5S 5S 5D 5D JK JK JK JK JK JK'
    always_wild = dict(all_wild_melds=False, wild_rank_as_itself=False)
    assert penalty(fourteen, 5, **always_wild) == 0                                    # one set takes them all
    solution = solve(hand(fourteen), 5, make_rules(always_wild, decks=3, jokers=6, set_suits='different'))
    assert solution.penalty == 30 and [len(m.cards) for m in solution.melds] == [13]
    assert sorted(map(str, solution.deadwood)) == ['5D', '5D']


@pytest.mark.parametrize('text, settings', [
    ('AC AH AH AC AH JK AS QC 3S KC 2H', dict(all_wild_melds=False, jokers=2)),
    ('AS JK JK JK AH AH 3S KC', dict(aces='high_or_low', all_wild_melds=False, jokers=6)),
    ('AD AH AC AH AC AH 4C 2D KS', dict(aces='high_or_low', all_wild_melds=False)),
    ('AC AS AD AS AD 3C 2C', dict(all_wild_melds=False)),
    ('AD AS AD JK JK 3S 4D 4C 2S 2S KS 4C', dict(aces='high_or_low', all_wild_melds=False, jokers=6)),
])
def test_books_of_wild_aces_in_three_decks_agree_with_the_brute_force(text, settings):
    """Aces wild, three decks, one stand-in per meld, a set's suits different: which aces play
    themselves in runs (A-2-3, Q-K-A) decides the books the others make, so the search keeps each
    such ace by its suit to the end (hands an earlier solver got wrong)."""
    rules = make_rules(settings, decks=3, max_wilds_per_meld=1, set_suits='different')
    solves_exactly(parse_cards(text, 3, rules.jokers), 1, rules)
