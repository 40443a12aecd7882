"""A solve query: cards, the wild rank or the round, and the rules, as one JSON line or URL gives them.

Used by `python -m scorer solve --jsonl` and by the web API, so both read the same names
(`cards`, `wild` or `round`, `rules`, `decks`, `jokers`) and give the same messages.
"""

from functools import lru_cache
from typing import NamedTuple

from .cards import CardError, parse_cards, parse_rank
from .i18n import _
from .limits import MAX_ROUNDS
from .numbers import read_whole
from .rules import DEFAULT, RulesError, make_rules


class QueryError(ValueError):
    """A query that cannot be solved, with a message naming what is wrong."""


class Query(NamedTuple):
    hand: list
    wild: int | None
    rules: object
    round: int | None


def read_rules(settings=None, decks=None, jokers=None, base=DEFAULT):
    """Rules from a dict of settings, with decks and jokers given apart overriding them."""
    if settings is not None and not isinstance(settings, dict):
        raise QueryError(_('rules must be an object of settings, like %(example)s', example='{"aces": "high_or_low"}'))
    given = dict(settings or {})
    for key, value in (('decks', decks), ('jokers', jokers)):
        if value is not None and value != '':
            given[key] = value
    if not given:
        return base
    key = tuple(sorted(given.items()))
    try:
        hash(key)
    except TypeError:                 # a value that is a list or an object: not kept (make_rules refuses it)
        key = None
    try:
        return rules_of(key, base) if key else make_rules(given, base)
    except RulesError as e:
        raise QueryError(str(e)) from None


@lru_cache(maxsize=256)               # a batch or a table asks for the same few rules again and again
def rules_of(settings, base):
    """make_rules() for settings given as sorted (key, value) pairs."""
    return make_rules(dict(settings), base)


def read_wild(wild, round, rules):
    """The wild rank from `wild` ('5', 'K', 'none') or from the round number; one is needed."""
    if wild not in (None, ''):
        if str(wild).strip().lower() in ('none', 'no', '-'):
            return None, None
        try:
            return parse_rank(wild), None
        except CardError as e:
            raise QueryError(_('wild: %(error)s', error=e)) from None
    if round not in (None, ''):
        number = read_whole(round if isinstance(round, int) else str(round), MAX_ROUNDS)
        if number is None:
            raise QueryError(_("round '%(round)s' is not a number", round=str(round)[:20])) from None
        try:
            return rules.wild_rank(number), number
        except RulesError as e:
            raise QueryError(str(e)) from None
    raise QueryError(_('give the wild rank (wild) or the round (round)'))


def read_query(fields, base=DEFAULT):
    """A Query from a dict of fields; raises QueryError with a clear message."""
    if not isinstance(fields, dict):
        raise QueryError(_('a query is an object like %(example)s', example='{"cards": "7H 8H 9H", "wild": "5"}'))
    rules = read_rules(fields.get('rules'), fields.get('decks'), fields.get('jokers'), base)
    wild, round = read_wild(fields.get('wild'), fields.get('round'), rules)
    cards = fields.get('cards')
    if not isinstance(cards, (str, list)) or not cards:
        raise QueryError(_('no cards given (%(example)s)', example='cards: "7H 8H 9H"'))
    text = cards if isinstance(cards, str) else ' '.join(map(str, cards))
    try:
        hand = parse_cards(text, rules.decks, rules.jokers)
    except CardError as e:
        raise QueryError(str(e)) from None
    if not hand:
        raise QueryError(_('no cards given (%(example)s)', example='cards: "7H 8H 9H"'))
    check_size(hand, round, rules)
    return Query(hand, wild, rules, round)


def check_size(hand, round, rules):
    """Raise QueryError when a hand holds more cards than its round deals, plus the one drawn."""
    if round is not None:
        size = rules.hand_size(round)
        if len(hand) > size + 1:
            raise QueryError(_('%(count)d cards, but round %(round)d deals %(size)d (at most %(most)d with the '
                               'card drawn)', count=len(hand), round=round, size=size, most=size + 1))
