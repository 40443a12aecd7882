"""Five Crowns on the same exact solver: its deck (five suits of 3 to K, six jokers), its runs from 3
to K, its card values; every penalty checked against the brute force, every arrangement valid."""

import pytest
from hypothesis import given

from scorer.cards import JOKER, Card, CardError
from scorer.claims import check_meld
from scorer.melds import meld_of
from scorer.reading import parse_hand
from scorer.rules import RulesError, make_rules
from scorer.solver import solve
from tests.brute import is_meld
from tests.hands import examples, five_crowns_deals, solves_exactly

FIVE_CROWNS = make_rules(game='five_crowns')


def hand(text):
    return parse_hand(text, FIVE_CROWNS)


@examples(400)
@given(five_crowns_deals())
def test_a_five_crowns_penalty_is_the_brute_force_minimum(deal):
    h, wild, rules = deal
    solves_exactly(h, wild, rules)


@examples(600)
@given(five_crowns_deals(sizes=__import__('hypothesis').strategies.integers(3, 8)))
def test_a_five_crowns_group_is_a_meld_exactly_when_the_brute_force_says_so(deal):
    h, wild, rules = deal
    assert (meld_of(h, wild, rules) is not None) == is_meld([tuple(c) for c in h], wild, rules)


@pytest.mark.parametrize('text, wild, penalty', [
    ('3X 4X 5X', 7, 0),                         # a run of stars
    ('3S 4S JK', 10, 0),                        # a joker above: never a 2 below the 3
    ('QH KH JK', 3, 0),                         # ... and below the queen, never an ace above the king
    ('QH KH', 3, 25),                           # J 11... Q 12, K 13
    ('7X 7H 7C', 3, 0),                         # a book
    ('3S 4S 5S 6S 7S 8S 9S 10S JS QS KS', 3, 0),    # eleven cards, 3 to K, the threes wild too
    ('5D 5D', 5, 40),                           # two wild-rank cards left: 20 each
    ('JK 9H', 3, 59),                           # a joker left: 50
    ('KS 3S 4S', 10, 20),                       # a run never wraps round from K to 3: 13 + 3 + 4
])
def test_five_crowns_rules_by_hand(text, wild, penalty):
    assert solve(hand(text), wild, FIVE_CROWNS).penalty == penalty


def test_a_run_of_stars_holds_at_most_eleven_cards_and_never_wraps():
    assert not check_meld(hand('KS 3S 4S'), 10, FIVE_CROWNS).ok
    assert check_meld(hand('KS 3S 4S'), 10, FIVE_CROWNS).reason == 'K♠ 3♠ 4♠ is not a run: a run never wraps round from K to 3'
    long = [Card(r, 'X') for r in range(3, 14)] + [JOKER]
    assert meld_of(long, 5, FIVE_CROWNS) is None
    assert check_meld(long, 5, FIVE_CROWNS).reason.endswith('a run holds at most 11 cards')


@pytest.mark.parametrize('text, message', [
    ('AS 3S 4S', 'A♠: this game has no aces'),
    ('2H 3H 4H', '2♥: this game has no twos'),
    ('7X 7X 7X', 'three 7★ but only 2 decks'),
    ('JK JK JK JK JK JK JK', '7 jokers, but only 6 in play'),
    (' '.join(['3S 4S 5S 6S 7S'] * 3), '15 cards, but a hand holds at most 14'),
])
def test_a_card_five_crowns_has_no_such_card_of_is_refused_naming_it(text, message):
    with pytest.raises(CardError) as e:
        hand(text)
    assert str(e.value) == message


def test_stars_are_no_suit_of_three_thirteen():
    with pytest.raises(CardError, match=r'7★: this game has no ★ cards'):
        parse_hand('7X 8H 9H', make_rules())


def test_the_game_decides_its_deck_and_values_and_offers_the_house_rules_that_apply():
    assert (FIVE_CROWNS.decks, FIVE_CROWNS.jokers, FIVE_CROWNS.wild_penalty, FIVE_CROWNS.joker_penalty) == (2, 6, 20, 50)
    assert FIVE_CROWNS.value(Card(11, 'X'), 3) == 11 and FIVE_CROWNS.value(Card(13, 'H'), 3) == 13
    for setting, value in [('decks', 3), ('jokers', 2), ('aces', 'high_or_low'), ('wild_penalty', 15),
                           ('face_values', 'ten'), ('joker_penalty', 20)]:
        with pytest.raises(RulesError, match='it is no house rule there'):
            make_rules({setting: value}, base=FIVE_CROWNS)
    house = make_rules(game='five_crowns', max_wilds_per_meld=1, double_last_round=True, tie_break='none')
    assert house.deck.suits == 'SHDCX' and house.max_wilds_per_meld == 1
    assert make_rules(game='standard', base=FIVE_CROWNS) == make_rules()


def test_five_crowns_is_for_two_to_seven_players():
    from scorer.rules import deal_problem
    assert deal_problem(7, FIVE_CROWNS) == ''
    assert deal_problem(8, FIVE_CROWNS) == 'Five Crowns is for 2 to 7 players'
    assert deal_problem(8, make_rules(decks=3)) == ''


def test_a_five_crowns_game_is_made_on_the_new_game_form(client):
    """The form sends every setting; the ones Five Crowns decides are its own, whatever they say."""
    from tests.helpers import new_game_form
    page = client.get('/games/new').get_data(as_text=True)
    assert 'value="five_crowns"' in page and 'data-fixed-in="five_crowns"' in page
    r = client.post('/games/new', data=new_game_form(['Ana', 'Bruno', 'Carla'], game='five_crowns', decks='3',
                                                      jokers='2', wild_penalty='15'))
    assert r.status_code == 302, r.get_data(as_text=True)[-500:]
    rules = client.get(r.headers['Location'] + '/export.json').get_json()['rules']
    assert (rules['game'], rules['decks'], rules['jokers'], rules['wild_penalty'], rules['joker_penalty']) == \
        ('five_crowns', 2, 6, 20, 50)
    eight = client.post('/games/new', data=new_game_form([f'P{i}' for i in range(8)], game='five_crowns'))
    assert eight.status_code == 422 and 'Five Crowns is for 2 to 7 players' in eight.get_data(as_text=True)
