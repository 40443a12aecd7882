"""Rules: every setting of docs/rules.md with its default, the rounds it deals and their wild ranks."""

import math
from functools import lru_cache
from typing import NamedTuple

from .cards import KING, STARS, SUITS
from .i18n import N_, _, ngettext
from .limits import MAX_HAND, MAX_NUMBER_DIGITS, MAX_PLAYERS, MIN_PLAYERS

# game: (first hand size, last hand size). The wild rank equals the hand size; 14 cards: aces.
GAMES = {'standard': (3, 13), 'short': (5, 12), 'six_fourteen': (6, 14), 'five_crowns': (3, 13)}
GAME_NAMES = {'standard': N_('standard'), 'short': N_('short'), 'six_fourteen': N_('six-fourteen'),
              'five_crowns': N_('Five Crowns')}
# What a game is called where the page names it (a heading, a print, the picture), and the mark at
# the top of its pages: Five Crowns is a game of its own; the others are ways to play Three-Thirteen.
KINDS = {'five_crowns': (N_('Five Crowns'), '5♛')}
THREE_THIRTEEN_KIND = (N_('Three-Thirteen'), '3–13')


def kind_of(game):
    """A game's kind by its `game` setting, as a table counts it apart: 'five_crowns', or
    'three_thirteen' for every way to play Three-Thirteen (standard, short, six-fourteen)."""
    return 'five_crowns' if game in KINDS else 'three_thirteen'


def kind_words(kind):
    """A kind ('three_thirteen', 'five_crowns') in the page's language: Three-Thirteen, Five Crowns."""
    return _(KINDS.get(kind, THREE_THIRTEEN_KIND)[0])


class Deck(NamedTuple):
    """What a game is played with: its suits and ranks, the settings the game itself decides (never
    offered as house rules), the most cards a hand holds, the most players, and its word for a set
    (Five Crowns says book: scorer.referee.kind_word)."""
    suits: str
    ranks: tuple
    fixed: dict
    most_cards: int
    most_players: int
    set_word: str = 'set'


THREE_THIRTEEN = Deck(SUITS, tuple(range(1, KING + 1)), {}, MAX_HAND, MAX_PLAYERS)
# Five Crowns (docs/rules.md): two 58-card decks, five suits of 3 to K and 6 jokers; J 11, Q 12,
# K 13, a wild-rank card 20, a joker 50; 13 cards and the one drawn; 2 to 7 players.
FIVE_CROWNS = Deck(SUITS + STARS, tuple(range(3, KING + 1)),
                   {'decks': 2, 'jokers': 6, 'aces': 'low', 'face_values': 'ranked', 'wild_penalty': 20,
                    'joker_penalty': 50, 'ace_penalty': 15}, 14, 7, 'book')
DECKS = {'standard': THREE_THIRTEEN, 'short': THREE_THIRTEEN, 'six_fourteen': THREE_THIRTEEN,
         'five_crowns': FIVE_CROWNS}

CHOICES = {
    'game': tuple(GAMES),
    'decks': (1, 2, 3),
    'jokers': (0, 1, 2, 3, 4, 5, 6),
    'aces': ('low', 'high_or_low'),
    'face_values': ('ten', 'ranked'),
    'wild_penalty': (15, 0, 20),
    'joker_penalty': (20, 25),
    'ace_penalty': (15, 1),
    'max_wilds_per_meld': (None, 1),
    'all_wild_melds': (True, False),
    'wild_rank_as_itself': (True, False),
    'set_suits': ('any', 'different'),
    'leftovers': ('minimum', 'as_they_lie'),
    'double_last_round': (False, True),
    'tie_break': ('zero_rounds', 'none'),
}

# Every setting described once: its title, and what it changes. The new-game form shows these,
# `python -m scorer check --help` prints them, and docs/rules.md's table says the same words
# (tests/test_docs.py checks it). A run of cards in a text (Q‑K‑A, A‑2‑3, and the ranks 2‑10) is
# written with non-breaking hyphens (U+2011): no line breaks inside it (tests/test_i18n.py).
ABOUT = {
    'game': (N_('Game'), N_('Standard: 11 rounds. Short: 8 rounds. Six-fourteen: 9 rounds, and aces are wild in the 14-card round. Five Crowns: 11 rounds with its own deck of five suits.')),
    'decks': (N_('Decks'), N_('Decks shuffled together: usually 2, and 3 for 7 or 8 players.')),
    'jokers': (N_('Jokers'), N_('Jokers in play; every joker is wild.')),
    'aces': (N_('Aces'), N_('Whether an ace may also sit above the king (Q‑K‑A). A run never wraps round (K‑A‑2).')),
    'face_values': (N_('Face cards'), N_('What jacks, queens and kings cost when left unmelded.')),
    'wild_penalty': (N_('Unmelded wild'), N_('Points for a wild card left unmelded.')),
    'joker_penalty': (N_('Unmelded joker'), N_('Points for a joker left unmelded.')),
    'ace_penalty': (N_('Unmelded ace (high or low)'), N_('Points for an ace left unmelded, when aces are high or low.')),
    'max_wilds_per_meld': (N_('Wilds per meld'), N_('How many cards in one meld may stand in for another card.')),
    'all_wild_melds': (N_('All-wild melds'), N_('Whether a meld may be made of wild cards only.')),
    'wild_rank_as_itself': (N_('Wild-rank cards'), N_('Whether a card of the wild rank may also play as itself, or is always wild.')),
    'set_suits': (N_('Suits in a set'), N_('Whether the cards of a set may share a suit (two decks give identical cards), or must each be of a different suit.')),
    'leftovers': (N_('Cards left in hand'), N_('What a hand left with cards scores: the least its cards can leave, or the cards entered counted as they lie.')),
    'double_last_round': (N_('Double last round'), N_('Every score of the last round counts double.')),
    'tie_break': (N_('Ties'), N_('When two players end on the same total, the one with more rounds at zero ranks higher; or they share the place.')),
}


class RulesError(ValueError):
    """An unknown setting or a value that setting does not take."""


class Rules(NamedTuple):
    """The house rules a table plays by; the defaults are the standard game of docs/rules.md. A named
    tuple: frozen, and hashed and compared by its settings, as a frozen dataclass would be, without
    the import of dataclasses (and of inspect, which it imports: a quarter of the instructions
    `python -m scorer solve --jsonl` spent starting, callgrind)."""
    game: str = 'standard'
    decks: int = 2
    jokers: int = 0
    aces: str = 'low'
    face_values: str = 'ten'
    wild_penalty: int = 15
    joker_penalty: int = 20
    ace_penalty: int = 15
    max_wilds_per_meld: int | None = None
    all_wild_melds: bool = True
    wild_rank_as_itself: bool = True
    set_suits: str = 'any'
    leftovers: str = 'minimum'
    double_last_round: bool = False
    tie_break: str = 'zero_rounds'

    @property
    def rounds(self):
        """Round numbers, 1 to the last."""
        first, last = GAMES[self.game]
        return range(1, last - first + 2)

    def hand_size(self, round):
        """Cards dealt to each player in a round."""
        self.check_round(round)
        return GAMES[self.game][0] + round - 1

    def most_held(self, round=None, drawn=False):
        """The most cards a hand may hold: what `round` deals, and with `drawn` the card a player draws
        before going out (an audit); with no round, the most any hand of the game holds."""
        return self.hand_size(round) + bool(drawn) if round else self.deck.most_cards

    def most_held_why(self, round=None, drawn=False):
        """Why a hand holds no more than most_held, in words: 'round 3 deals 5'."""
        if not round:
            return _('a hand holds at most %(most)d', most=self.deck.most_cards)
        if drawn:
            return _('round %(n)d deals %(size)d, and an audit adds the card drawn', n=round, size=self.hand_size(round))
        return _('round %(n)d deals %(size)d', n=round, size=self.hand_size(round))

    @property
    def kind(self):
        """The game's own name, in the page's language: Five Crowns, or Three-Thirteen (KINDS)."""
        return kind_words(kind_of(self.game))

    @property
    def own_kind(self):
        """The game's name where a list or a sheet's line says what is played: a game of its own
        (Five Crowns, KINDS) is named; Three-Thirteen, the app's own game, goes without saying ('')."""
        return self.kind if self.game in KINDS else ''

    @property
    def mark(self):
        """The short mark of the game at the top of its pages: '5♛' for Five Crowns, '3–13' for the others."""
        return KINDS.get(self.game, THREE_THIRTEEN_KIND)[1]

    @property
    def deck(self):
        """The game's deck: its suits, ranks and what the game decides itself."""
        return DECKS[self.game]

    def wild_rank(self, round):
        """The wild rank of a round: the hand size, and aces in a 14-card round."""
        size = self.hand_size(round)
        return 1 if size == 14 else size

    def check_round(self, round):
        if not isinstance(round, int) or isinstance(round, bool) or round not in self.rounds:
            raise RulesError(_('round %(round)s is not in a %(game)s game (rounds 1-%(last)d)',
                               round=round, game=_(GAME_NAMES[self.game]), last=len(self.rounds)))

    @property
    def last_round(self):
        return len(self.rounds)

    @property
    def wilds_limited(self):
        """True when a meld's wilds are limited (one per meld, or not all wild)."""
        return self.max_wilds_per_meld is not None or not self.all_wild_melds

    def value(self, card, wild):
        """What a card costs when it is left unmelded (deadwood)."""
        if card.rank == 0:
            return self.joker_penalty
        if card.rank == wild:
            return self.wild_penalty
        if card.rank == 1 and self.aces == 'high_or_low':
            return self.ace_penalty
        if card.rank > 10 and self.face_values == 'ten':
            return 10
        return card.rank

    @property
    def suits_differ(self):
        """True when a set's cards must each be of a different suit (`set_suits`): a wild standing in
        stands for a card of a suit not yet in the set, so a set holds at most one card a suit."""
        return self.set_suits == 'different'

    @property
    def as_they_lie(self):
        """True when the cards entered for a hand are counted as they lie (`leftovers`), not arranged."""
        return self.leftovers == 'as_they_lie'

    def lying(self, hand, wild):
        """What cards left in hand cost as they lie: the plain sum of their values, none melded."""
        return sum(self.value(c, wild) for c in hand)

    def to_dict(self):
        return self._asdict()

    def idle(self, wild=...):
        """Notes on the settings changed from their game's default (Five Crowns' own values are its
        defaults) that cannot take effect: with these other settings (or, given `wild`, in a round
        with that wild rank), no card is valued by them."""
        notes = []
        default = PRESETS[self.game]           # game_defaults(self.game), made once
        if self.ace_penalty != default.ace_penalty:
            if self.aces == 'low':
                notes.append(_('ace_penalty counts only when aces are high or low: an ace counts 1'))
            elif wild == 1:
                notes.append(_('ace_penalty does not count in a round where aces are wild: an unmelded ace '
                               'costs the wild_penalty'))
        if self.joker_penalty != default.joker_penalty and not self.jokers:
            notes.append(_('joker_penalty counts only with jokers in play'))
        if self.wild_penalty != default.wild_penalty and wild is None:
            notes.append(_('wild_penalty counts only with a wild rank'))
        return notes


def deal_problem(players, rules):
    """Why the game cannot be dealt to this many players: more than it is for (Five Crowns: 7), or a
    pack too small for the biggest round (docs/rules.md: players x hand size + 1 cards are needed);
    '' when it can."""
    if players > rules.deck.most_players:
        return ngettext('%(game)s is for %(least)d to %(most)d player', '%(game)s is for %(least)d to %(most)d players',
                        rules.deck.most_players, game=_(GAME_NAMES[rules.game]),
                        least=MIN_PLAYERS, most=rules.deck.most_players)
    biggest = GAMES[rules.game][1]
    need = players * biggest + 1
    per_deck = len(rules.deck.suits) * len(rules.deck.ranks)
    pack = per_deck * rules.decks + rules.jokers
    if need <= pack:
        return ''
    decks_needed = next((d for d in choices('decks', rules.game) if per_deck * d + rules.jokers >= need), None)
    problem = ngettext('%(players)d players need %(need)d cards in the last round (%(players)d x %(size)d + 1), '
                       'but %(num)d deck holds %(pack)d',
                       '%(players)d players need %(need)d cards in the last round (%(players)d x %(size)d + 1), '
                       'but %(num)d decks hold %(pack)d', rules.decks,
                       players=players, need=need, size=biggest, pack=pack)
    return problem + (ngettext(': choose %(decks)d deck', ': choose %(decks)d decks', decks_needed, decks=decks_needed) if decks_needed else '')


def rules_words(rules):
    """The settings of a game in words, one line each, for the sheet and the printout."""
    first, last = GAMES[rules.game]
    lines = [ngettext('%(rounds)d round of %(first)d to %(last)d cards; the wild rank is the hand size',
                      '%(rounds)d rounds of %(first)d to %(last)d cards; the wild rank is the hand size',
                      len(rules.rounds), rounds=len(rules.rounds), first=first, last=last)
             + (_(', aces at 14 cards') if last == 14 else '')]
    if rules.deck.fixed:
        lines.append(ngettext("Five Crowns' deck: five suits (★ ♥ ♣ ♠ ♦) of 3 to K, two decks, %(jokers)d joker "
                              "(wild)",
                              "Five Crowns' deck: five suits (★ ♥ ♣ ♠ ♦) of 3 to K, two decks, %(jokers)d jokers "
                              "(wild)", rules.jokers, jokers=rules.jokers))
    else:
        lines += [ngettext('%(num)d deck', '%(num)d decks', rules.decks)
                  + (ngettext(', %(jokers)d joker (wild)', ', %(jokers)d jokers (wild)', rules.jokers, jokers=rules.jokers) if rules.jokers else _(', no jokers')),
                  _('aces low only (A‑2‑3)') if rules.aces == 'low' else
                  _('aces high or low (Q‑K‑A too, never K‑A‑2); an unmelded ace costs %(points)d', points=rules.ace_penalty)]
    lines += [_('J, Q, K count 10') if rules.face_values == 'ten' else _('J counts 11, Q 12, K 13'),
              _('an unmelded wild costs %(points)d', points=rules.wild_penalty)
              + (_(', an unmelded joker %(points)d', points=rules.joker_penalty) if rules.jokers else ''),
              _('any number of wilds in a meld') if rules.max_wilds_per_meld is None else _('at most one wild per meld'),
              _('melds of wilds only are allowed') if rules.all_wild_melds and rules.max_wilds_per_meld is None
              else _('every meld needs a card used as itself')]
    if not rules.wild_rank_as_itself:
        lines.append(_('a card of the wild rank is always wild, never itself'))
    if rules.suits_differ:
        lines.append(_("a book's cards are each of a different suit") if rules.deck.set_word == 'book'
                     else _("a set's cards are each of a different suit"))
    if rules.as_they_lie:
        lines.append(_('cards left in hand count as they lie (the cards entered, none melded)'))
    if rules.double_last_round:
        lines.append(_('the last round counts double'))
    lines.append(_('a tie on total goes to the player with more zero rounds') if rules.tie_break == 'zero_rounds'
                 else _('players tied on total share the place'))
    if rules.deck.fixed and rules.tie_break == 'zero_rounds':
        lines[-1] += _(" (the app's choice: the printed rules name no tie-break)")
    return lines


DEFAULT = Rules()


def game_defaults(game):
    """A game's rules where nobody chose a house rule: DEFAULT, with what the game decides itself."""
    return DEFAULT._replace(game=game, **DECKS[game].fixed)


PRESETS = {name: game_defaults(name) for name in GAMES}


def default_text(key):
    """A setting's value where nobody chose one (DEFAULT's, the Rules class's), as a form sends it."""
    return str(getattr(DEFAULT, key))


def choices(key, game='standard'):
    """The values a setting takes in a game: its one value where the game decides it (Five Crowns'
    deck and card values), else every choice of CHOICES."""
    fixed = DECKS[game].fixed if game in DECKS else {}
    return (fixed[key],) if key in fixed else CHOICES[key]


def coerce(key, value):
    """Turn a setting's value as typed (a form field, a command-line option) into its type."""
    if key not in CHOICES:
        raise RulesError(_("unknown setting '%(key)s'", key=key))
    if isinstance(value, str):
        word = value.strip().lower()
        if word in ('none', 'null', '') and None in CHOICES[key]:
            return None
        if word in ('true', 'yes', 'on', 'false', 'no', 'off') and True in CHOICES[key]:
            return word in ('true', 'yes', 'on')
        if word.isascii() and word.lstrip('-').isdigit() and len(word) <= MAX_NUMBER_DIGITS:
            return int(word)
        return word[:MAX_NUMBER_DIGITS + 14] + ('…' if len(word) > MAX_NUMBER_DIGITS + 14 else '')
    return value


def quoted(value, most=20):
    """A setting's value as a message shows it: true, null, 5, 'word', a long number or text cut short
    (a number of thousands of digits is not written out: Python refuses to, past 4,300)."""
    if value is None or isinstance(value, bool):
        return 'null' if value is None else str(value).lower()
    if isinstance(value, int) and value.bit_length() > 64:
        digits = int(math.log10(abs(value))) + 1
        return ngettext('a number of about %(digits)d digit', 'a number of about %(digits)d digits', digits,
                        digits=digits)
    text = str(value)
    return text if len(text) <= most else text[:most] + '…'


def make_rules(settings=None, base=None, **more):
    """Rules from a dict of settings on top of `base` (the defaults); an unknown key or value raises
    RulesError naming it. A game that decides a setting itself (Five Crowns' deck) sets it, and a
    house rule it does not take is refused."""
    if settings is not None and not isinstance(settings, dict):
        raise RulesError(_('rules must be an object of settings, like %(example)s', example='{"aces": "high_or_low"}'))
    settings = {**(settings or {}), **more}
    base = base or DEFAULT
    # The same settings make the same rules: a batch of queries under one table's rules reads them once.
    # Each value's type is in the key, so that true is not read as 1 (make_rules refuses it).
    try:
        return rules_made(tuple((key, type(value), value) for key, value in settings.items()), base)
    except TypeError:              # a value that is no setting's (a list, an object): told apart below
        return rules_from(settings, base)


@lru_cache(maxsize=256)
def rules_made(typed, base):
    """make_rules() of settings given as (key, type, value) triples, remembered (see make_rules)."""
    return rules_from({key: value for key, _, value in typed}, base)


def rules_from(settings, base):
    """The Rules of a dict of settings on top of `base` (see make_rules)."""
    values = {}
    game = coerce('game', settings['game']) if 'game' in settings else base.game
    for key, value in settings.items():
        value = coerce(key, value)
        allowed = choices(key, game if key != 'game' else 'standard')
        ok = any(value == a and type(value) is type(a) for a in allowed)
        if not ok:
            shown = ', '.join(quoted(a) for a in allowed)
            if key in DECKS.get(game, THREE_THIRTEEN).fixed and key != 'game':
                raise RulesError(_('%(game)s plays with %(key)s %(value)s: it is no house rule there',
                                   game=_(GAME_NAMES[game]), key=key, value=shown))
            raise RulesError(_("'%(value)s' is not a value of %(key)s (one of: %(choices)s)",
                               value=quoted(value), key=key, choices=shown)
                             if not isinstance(value, (dict, list)) else
                             _('%(key)s takes one of: %(choices)s', key=key, choices=shown))
        values[key] = value
    if game != base.game:                  # a game's own settings come with it, and go with it
        for key in {**base.deck.fixed, **DECKS[game].fixed}:
            values.setdefault(key, DECKS[game].fixed.get(key, getattr(DEFAULT, key)))
    rules = base._replace(**values)
    if rules.jokers > 2 * rules.decks and not rules.deck.fixed:
        raise RulesError(ngettext('%(jokers)d jokers, but %(num)d deck holds at most %(most)d',
                                  '%(jokers)d jokers, but %(num)d decks hold at most %(most)d', rules.decks,
                                  jokers=rules.jokers, most=2 * rules.decks))
    return rules
