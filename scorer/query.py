"""A solve query: cards, the wild rank or the round, and the rules, as one JSON line or URL gives them.

Used by `python -m scorer solve --jsonl` and by the web API, so both read the same names
(`cards`, `wild` or `round`, `rules`, `decks`, `jokers`, `lang`) and give the same messages.
Cards are read in canonical letters (S H D C) unless the query names the letters it is typed
in (`lang` or `letters`: en, es, pt); settings are read by their type (true is not 1), and the
same query gets the same answer whatever was asked before it.
"""

from functools import partial
from typing import NamedTuple

from .cards import TEXT, CardError, rank_text

from .reading import LANGUAGES, parse_hand, parse_rank
from .i18n import _, ngettext
from .limits import MAX_FIELD, MAX_ROUNDS
from .numbers import read_whole
from .rules import CHOICES, DEFAULT, GAMES, RulesError, make_rules, quoted
from .solver import counted, solve


class QueryError(ValueError):
    """A query that cannot be solved, with a message naming what is wrong."""


class Query(NamedTuple):
    hand: list
    wild: int | None
    rules: object
    round: int | None
    notes: list = []     # settings given that cannot take effect (Rules.idle)
    letters: str = 'en'  # the language whose letters the cards were read in


# A Query as read_query() makes one a line: straight from a tuple of its fields in order (tuple.__new__, in
# C), not through the named tuple's own __new__, a Python function (0.2 % of a batch's instructions, callgrind).
query_from = partial(tuple.__new__, Query)


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
    try:
        return make_rules(given, base)
    except RulesError as e:
        raise QueryError(str(e)) from None


def read_letters(fields):
    """The language whose letters the cards of a query are typed in: `letters`, else `lang`, else the
    canonical English ones; QueryError for a language the app does not read."""
    for key in ('letters', 'lang'):
        value = fields.get(key)
        if value not in (None, ''):
            if not isinstance(value, str) or value not in LANGUAGES:
                raise QueryError(_("%(key)s: '%(value)s' is not a language of the app (one of: %(choices)s)",
                                   key=key, value=str(value)[:20], choices=', '.join(LANGUAGES)))
            return value
    return 'en'


def read_wild(wild, round, rules, letters='en'):
    """(wild rank, round number or None) from `wild` ('5', 'K', 'none'; a rank word of the `letters`
    language too) and/or the round number. One is needed; given both, they must agree (the round
    also limits the hand's size)."""
    named = read_rank(wild, letters) if wild not in (None, '') else ...
    if round in (None, ''):
        if named is ...:
            raise QueryError(_('give the wild rank (wild) or the round (round)'))
        return named, None
    number = read_whole(round, MAX_ROUNDS)
    if number is None:
        raise QueryError(_("round '%(round)s' is not a number", round=quoted(round))) from None
    try:
        rank = rules.wild_rank(number)
    except RulesError as e:
        raise QueryError(str(e)) from None
    if named is not ... and named != rank:
        raise QueryError(_('wild %(wild)s does not match round %(round)d, whose wild rank is %(rank)s: give '
                           'one of them', wild=quoted(wild).strip(), round=number, rank=rank_text(rank)))
    return rank, number


def read_rank(wild, letters='en'):
    """A wild rank as typed ('5', 'K', 'none': no wild rank)."""
    if not isinstance(wild, (str, int)) or isinstance(wild, bool):
        raise QueryError(_("wild: '%(text)s' is not a rank (use A, 2‑10, J, Q or K)", text=quoted(wild)))
    if quoted(wild).strip().lower() in ('none', 'no', '-'):
        return None
    try:
        return parse_rank(quoted(wild, most=40), letters)
    except CardError as e:
        raise QueryError(_('wild: %(error)s', error=e)) from None


def read_query(fields, base=DEFAULT):
    """A Query from a dict of fields; raises QueryError with a clear message."""
    if not isinstance(fields, dict):
        raise QueryError(_('a query is an object like %(example)s', example='{"cards": "7H 8H 9H", "wild": "5"}'))
    rules, letters, wild, round, dealt = read_settings(fields, base)
    cards = fields.get('cards')
    if isinstance(cards, list) and all(isinstance(c, str) for c in cards):
        cards = ' '.join(cards)
    if not isinstance(cards, str) or not cards:
        raise QueryError(_('no cards given (%(example)s)', example='cards: "7H 8H 9H"'))
    try:
        hand = read_cards_field(cards, rules, letters)
    except CardError as e:
        raise QueryError(str(e)) from None
    if not hand:
        raise QueryError(_('no cards given (%(example)s)', example='cards: "7H 8H 9H"'))
    check_size(hand, round, rules, dealt)
    return query_from((hand, wild, rules, round, rules.idle(wild), letters))


SETTINGS_HELD = 256      # the settings read_settings() keeps (a batch's lines share a few dozen)
_settings = {}


def read_settings(fields, base=DEFAULT):
    """(rules, letters, wild rank, round, the cards the round deals) of a query's fields, read once for
    every query that gives the same fields besides its cards and id: those depend on nothing else (the
    cards are read and checked for each query), and on the default rules only, so only queries on them
    are kept. A key holds each value with its type, as make_rules() reads settings (true is not 1); a
    value that is no key (a list) is read anew. Only settings read without error are kept: a message is
    made in the language of its query."""
    key = read = None
    if base is DEFAULT:
        key = []
        for k, v in fields.items():
            if k != 'cards' and k != 'id':          # a dict of settings as its items, then their types
                key += (k, type(v), (*v.items(), *map(type, v.values())) if type(v) is dict else v)
        try:
            read = _settings.get(key := tuple(key))
        except TypeError:         # a value that is no key (a list)
            key = None
    if read is None:
        rules = read_rules(fields.get('rules'), fields.get('decks'), fields.get('jokers'), base)
        letters = read_letters(fields)
        wild, round = read_wild(fields.get('wild'), fields.get('round'), rules, letters)
        read = (rules, letters, wild, round, None if round is None else rules.hand_size(round))
        if key is not None:
            if len(_settings) >= SETTINGS_HELD:
                _settings.clear()
            _settings[key] = read
    return read


def answer_data(query, solution):
    """What the API and `solve --jsonl` answer for a query: the solution, the letters its cards were
    read in, notes if any, and with leftovers counted as they lie what the cards count so
    (`as_they_lie`, beside the minimal penalty)."""
    answer = as_data(solution)
    answer['letters'] = query.letters
    if query.notes:
        answer['notes'] = query.notes
    if query.rules.as_they_lie:
        answer['as_they_lie'] = counted(query.hand, query.wild, query.rules).penalty
    return answer


def as_data(solution):
    """A solution as JSON-ready data with canonical card text (the answer of
    answer_data(), and the solution of /api/audit: referee.audit_data())."""
    return {
        'penalty': solution.penalty,
        'melds': [{'kind': m.kind, 'cards': list(map(TEXT.__getitem__, m.cards)),
                   'as': list(map(TEXT.__getitem__, m.plays))} for m in solution.melds],
        'deadwood': list(map(TEXT.__getitem__, solution.deadwood)),
    }


def read_cards_field(text, rules, letters):
    """The cards of a query's `cards` (at most MAX_FIELD characters, as every cards field), read in
    the `letters` language and checked against the rules' pack."""
    if len(text) > MAX_FIELD:
        raise CardError(ngettext('at most %(most)d character, not %(count)d', 'at most %(most)d characters, not %(count)d',
                MAX_FIELD, most=MAX_FIELD, count=len(text)))
    return parse_hand(text, rules, letters)


def check_size(hand, round, rules, dealt=None):
    """Raise QueryError when a hand holds more cards than its round deals, plus the one drawn. `dealt`:
    what the round deals, when known (read_settings() keeps it for a batch's lines)."""
    if round is not None:
        size = rules.hand_size(round) if dealt is None else dealt
        if len(hand) > size + 1:
            raise QueryError(ngettext('%(count)d card, but round %(round)d deals %(size)d (at most %(most)d with '
                                      'the card drawn)',
                                      '%(count)d cards, but round %(round)d deals %(size)d (at most %(most)d with '
                                      'the card drawn)', len(hand), count=len(hand), round=round, size=size, most=size + 1))


class Asked(NamedTuple):
    """A hand as a URL gives it: the game it is from (if any), its rules, wild rank and round, the
    cards, and what is wrong with any of it, field by field."""
    game_id: str | None
    rules: object
    wild: int | None
    round: int | None
    hand: list
    errors: dict


def game_asked(args):
    """The id of the game a hand in a URL is from: `game_id=`. `game=` is the kind of game (a setting:
    standard, short, ...); an address made before the id had its own name said `game=<id>`, so a
    `game=` that is no kind of game is still read as an id."""
    if args.get('game_id'):
        return args['game_id']
    game = args.get('game')
    return game if game and game not in GAMES else None


def old_address(args):
    """Whether a URL names its game the old way (`game=<id>`): its page moves to `game_id=`."""
    return not args.get('game_id') and game_asked(args) is not None


def settings_from(args):
    """The settings among a URL's parameters (an unknown preset name is left out)."""
    return {k: v for k, v in args.items() if k in CHOICES and v != '' and (k != 'game' or v in GAMES)}


def read_hand(args, base=DEFAULT, game_id=None, letters='en'):
    """The hand asked about by these URL parameters (cards, round or wild, settings), on the rules
    `base` (the game's, when the hand is from one), its cards read in the `letters` language."""
    errors = {}
    try:
        rules = read_rules(settings_from(args), base=base)
    except QueryError as e:
        errors['rules'], rules = str(e), base
    wild = round = None
    if args.get('wild') or args.get('round'):
        try:
            wild, round = read_wild(args.get('wild'), args.get('round'), rules, letters)
        except QueryError as e:
            errors['round'] = str(e)
    hand = []
    if args.get('cards', '').strip():
        try:
            hand = read_cards_field(args['cards'], rules, letters)
            check_size(hand, round, rules)
        except (CardError, QueryError) as e:
            errors['cards'] = str(e)
    return Asked(game_id, rules, wild, round, hand, errors)


def preview(asked, out=False):
    """(solution, error) of the entry pages' live preview of a hand: what it scores (its minimal
    penalty, or as it lies: solver.counted), or what is wrong. The hand of one who went `out` must
    meld completely: its minimal penalty, whatever the rules."""
    error = '; '.join(asked.errors.values())
    if not error and not asked.hand:
        error = _('no cards given (%(example)s)', example='7H 8H 9H')
    if error:
        return None, error
    return (solve if out else counted)(asked.hand, asked.wild, asked.rules), ''
