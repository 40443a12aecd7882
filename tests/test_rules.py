"""Rules: every setting with its default, rounds, hand sizes and wild ranks, and errors that name the setting."""

from html.parser import HTMLParser

import pytest

from scorer.cards import Card
from scorer.rules import DEFAULT, RulesError, make_rules
from tests.helpers import new_game_form


def test_defaults_are_the_standard_game():
    assert DEFAULT.to_dict() == {
        'game': 'standard', 'decks': 2, 'jokers': 0, 'aces': 'low', 'face_values': 'ten',
        'wild_penalty': 15, 'joker_penalty': 20, 'ace_penalty': 15, 'max_wilds_per_meld': None,
        'all_wild_melds': True, 'wild_rank_as_itself': True, 'set_suits': 'any', 'leftovers': 'minimum',
        'double_last_round': False, 'tie_break': 'zero_rounds'}


class Choices(HTMLParser):
    """What a browser sends from a page's selects left alone: the option marked selected, else the first."""

    def __init__(self):
        super().__init__()
        self.sent, self.select = {}, None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == 'select':
            self.select = attrs['name']
        elif tag == 'option' and self.select and (self.select not in self.sent or 'selected' in attrs):
            self.sent[self.select] = attrs['value']

    def handle_endtag(self, tag):
        if tag == 'select':
            self.select = None


def rules_of_a_game_made_with(client, form):
    from web import store
    from web.db import get_db
    r = client.post('/games/new', data=form)
    assert r.status_code == 302, r.get_data(as_text=True)
    with client.application.app_context():
        return store.load_game(get_db(), r.headers['Location'].rsplit('/', 1)[1]).rules


def test_a_game_made_with_every_setting_left_alone_plays_by_the_defaults(client):
    """The new-game form's first choices, and the form the tests post (tests/helpers.py), are DEFAULT."""
    page = Choices()
    page.feed(client.get('/games/new').get_data(as_text=True))
    assert set(page.sent) >= set(DEFAULT.to_dict())
    assert rules_of_a_game_made_with(client, {**page.sent, 'players-0': 'Ana', 'players-1': 'Bruno'}) == DEFAULT
    assert rules_of_a_game_made_with(client, new_game_form(['Ana', 'Bruno'])) == DEFAULT


@pytest.mark.parametrize('game, sizes, wilds', [
    ('standard', list(range(3, 14)), list(range(3, 14))),
    ('short', list(range(5, 13)), list(range(5, 13))),
    ('six_fourteen', list(range(6, 15)), list(range(6, 14)) + [1]),   # aces wild at 14 cards
])
def test_rounds_hand_sizes_and_wild_ranks(game, sizes, wilds):
    rules = make_rules(game=game)
    assert [rules.hand_size(r) for r in rules.rounds] == sizes
    assert [rules.wild_rank(r) for r in rules.rounds] == wilds


def test_round_out_of_range_is_an_error():
    with pytest.raises(RulesError, match='round 12 is not in a standard game'):
        DEFAULT.hand_size(12)
    with pytest.raises(RulesError):
        DEFAULT.wild_rank(0)


def test_unknown_setting_or_value_is_named():
    with pytest.raises(RulesError, match="unknown setting 'colour'"):
        make_rules(colour='red')
    with pytest.raises(RulesError, match="'sideways' is not a value of aces"):
        make_rules(aces='sideways')
    with pytest.raises(RulesError, match='wild_penalty'):
        make_rules(wild_penalty=7)
    with pytest.raises(RulesError, match='2 decks hold at most 4'):
        make_rules(jokers=6)


def test_values_as_typed_are_read():
    rules = make_rules({'decks': '3', 'all_wild_melds': 'false', 'max_wilds_per_meld': '1'})
    assert (rules.decks, rules.all_wild_melds, rules.max_wilds_per_meld) == (3, False, 1)
    assert make_rules(max_wilds_per_meld='none').max_wilds_per_meld is None


def test_rules_are_immutable():
    with pytest.raises(AttributeError):
        DEFAULT.decks = 3


def test_card_values():
    ranked = make_rules(face_values='ranked')
    assert [DEFAULT.value(Card(r, 'S'), None) for r in (1, 2, 10, 11, 12, 13)] == [1, 2, 10, 10, 10, 10]
    assert [ranked.value(Card(r, 'S'), None) for r in (11, 12, 13)] == [11, 12, 13]
    assert DEFAULT.value(Card(5, 'S'), 5) == 15
    assert DEFAULT.value(Card(0, ''), 5) == 20


def test_a_superscript_digit_is_not_a_number():
    with pytest.raises(RulesError, match="'²' is not a value of decks"):
        make_rules(decks='²')


def test_rules_made_once_still_tell_true_from_1():
    """make_rules remembers the Rules of settings it has made; a remembered 1 never answers for true
    (equal in Python, and alike as a key but for its type), nor 2 for '2'."""
    assert make_rules({'decks': 1}).decks == 1
    with pytest.raises(RulesError):
        make_rules({'decks': True})
    assert make_rules({'decks': 1}) is make_rules({'decks': 1})
    assert make_rules({'decks': '2'}).decks == 2 == make_rules({'decks': 2}).decks
