"""Flask-WTF forms: a new game, and one round's entries."""

from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from wtforms import FieldList, Form, FormField, RadioField, SelectField, StringField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import Length, Optional

from scorer.rules import CHOICES, EXPLAIN

MAX_PLAYERS = 8

LABELS = {
    'game': {'standard': 'Standard: 11 rounds, 3 to 13 cards', 'short': 'Short: 8 rounds, 5 to 12 cards',
             'six_fourteen': 'Six-fourteen: 9 rounds, 6 to 14 cards'},
    'aces': {'low': 'Low only (A-2-3)', 'high_or_low': 'High or low (Q-K-A too)'},
    'face_values': {'ten': 'J, Q, K count 10', 'ranked': 'J 11, Q 12, K 13'},
    'max_wilds_per_meld': {'None': 'Any number', '1': 'One per meld'},
    'all_wild_melds': {'True': 'Allowed', 'False': 'Not allowed'},
    'double_last_round': {'False': 'No', 'True': 'Yes, the last round counts double'},
    'tie_break': {'zero_rounds': 'Most zero rounds wins a tie', 'none': 'Ties share the place'},
    'jokers': {'0': 'None'},
}
TITLES = {
    'game': 'Game', 'decks': 'Decks', 'jokers': 'Jokers', 'aces': 'Aces', 'face_values': 'Face cards',
    'wild_penalty': 'Unmelded wild', 'joker_penalty': 'Unmelded joker', 'ace_penalty': 'Unmelded ace (high or low)',
    'max_wilds_per_meld': 'Wilds per meld', 'all_wild_melds': 'All-wild melds',
    'double_last_round': 'Double last round', 'tie_break': 'Ties',
}
SETTINGS = [k for k in CHOICES if k != 'decks']


def choices(key):
    labels = LABELS.get(key, {})
    return [SelectChoice(str(v), labels.get(str(v), str(v))) for v in CHOICES[key]]


def setting_field(key):
    return SelectField(TITLES[key], choices=choices(key), default=str(CHOICES[key][0]), description=EXPLAIN[key])


class NewGameForm(FlaskForm):
    """Players in seating order, the first dealer and the house rules."""
    title = StringField('Title (optional)', validators=[Optional(), Length(max=80)])
    place = StringField('Place (optional)', validators=[Optional(), Length(max=80)])
    players = FieldList(StringField('Player', validators=[Length(max=30)]),
                        min_entries=MAX_PLAYERS, max_entries=MAX_PLAYERS)
    first_dealer = SelectField('First dealer', default='draw',
                               choices=[SelectChoice('draw', 'Draw at random')] +
                                       [SelectChoice(str(i), f'Seat {i + 1}') for i in range(MAX_PLAYERS)])
    decks = SelectField('Decks', default='auto', description=EXPLAIN['decks'],
                        choices=[SelectChoice('auto', '2, or 3 for 7-8 players')] +
                                [SelectChoice(str(d)) for d in CHOICES['decks']])


for _key in SETTINGS:                       # one select per setting of RULES.md
    setattr(NewGameForm, _key, setting_field(_key))


class EntryForm(Form):
    """One player's entry: the cards left in hand, or plain points."""
    cards = StringField('Cards left', validators=[Length(max=200)])
    points = StringField('Points', validators=[Length(max=40)])


class RoundForm(FlaskForm):
    """A round: who went out, and every player's cards or points."""
    went_out = RadioField('Went out', choices=[], validate_choice=False)
    entries = FieldList(FormField(EntryForm), max_entries=MAX_PLAYERS)


class DeleteForm(FlaskForm):
    """Only the CSRF token: deleting is one confirmed POST."""


class ImportForm(FlaskForm):
    game_file = FileField('Game file (JSON)')
