"""Flask-WTF forms: a new game, one round's entries, import, delete."""

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from wtforms import FieldList, SelectField, StringField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import Length, Optional

from scorer.rules import CHOICES, EXPLAIN

MAX_PLAYERS = 8

LABELS = {
    'game': {'standard': _l('Standard: 11 rounds, 3 to 13 cards'), 'short': _l('Short: 8 rounds, 5 to 12 cards'),
             'six_fourteen': _l('Six-fourteen: 9 rounds, 6 to 14 cards')},
    'aces': {'low': _l('Low only (A-2-3)'), 'high_or_low': _l('High or low (Q-K-A too)')},
    'face_values': {'ten': _l('J, Q, K count 10'), 'ranked': _l('J 11, Q 12, K 13')},
    'max_wilds_per_meld': {'None': _l('Any number'), '1': _l('One per meld')},
    'all_wild_melds': {'True': _l('Allowed'), 'False': _l('Not allowed')},
    'double_last_round': {'False': _l('No'), 'True': _l('Yes, the last round counts double')},
    'tie_break': {'zero_rounds': _l('Most zero rounds wins a tie'), 'none': _l('Ties share the place')},
    'jokers': {'0': _l('None')},
}
TITLES = {
    'game': _l('Game'), 'decks': _l('Decks'), 'jokers': _l('Jokers'), 'aces': _l('Aces'),
    'face_values': _l('Face cards'), 'wild_penalty': _l('Unmelded wild'), 'joker_penalty': _l('Unmelded joker'),
    'ace_penalty': _l('Unmelded ace (high or low)'), 'max_wilds_per_meld': _l('Wilds per meld'),
    'all_wild_melds': _l('All-wild melds'), 'double_last_round': _l('Double last round'), 'tie_break': _l('Ties'),
}
SETTINGS = [k for k in CHOICES if k != 'decks']


def choices(key):
    labels = LABELS.get(key, {})
    return [SelectChoice(str(v), labels.get(str(v), str(v))) for v in CHOICES[key]]


def setting_field(key):
    return SelectField(TITLES[key], choices=choices(key), default=str(CHOICES[key][0]),
                       description=_l(EXPLAIN[key]))


class NewGameForm(FlaskForm):
    """Players in seating order, the first dealer and the house rules."""
    title = StringField(_l('Title (optional)'), validators=[Optional(), Length(max=80)])
    place = StringField(_l('Place (optional)'), validators=[Optional(), Length(max=80)])
    players = FieldList(StringField(_l('Player'), validators=[Length(max=30)]),
                        min_entries=MAX_PLAYERS, max_entries=MAX_PLAYERS)
    first_dealer = SelectField(_l('First dealer'), default='draw',
                               choices=[SelectChoice('draw', _l('Draw at random'))] +
                                       [SelectChoice(str(i), _l('Seat %(n)d', n=i + 1)) for i in range(MAX_PLAYERS)])
    decks = SelectField(_l('Decks'), default='auto', description=_l(EXPLAIN['decks']),
                        choices=[SelectChoice('auto', _l('2, or 3 for 7-8 players'))] +
                                [SelectChoice(str(d)) for d in CHOICES['decks']])


for _key in SETTINGS:                       # one select per setting of RULES.md
    setattr(NewGameForm, _key, setting_field(_key))


class RoundForm(FlaskForm):
    """A round: only its CSRF token here; who went out and each seat's cards or points are read
    by the view (entries-N-cards, entries-N-points, went_out), one per seat."""


class DeleteForm(FlaskForm):
    """Only the CSRF token: deleting is one confirmed POST."""


class ImportForm(FlaskForm):
    game_file = FileField(_l('Game file (JSON)'))
