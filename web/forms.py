"""Flask-WTF forms: a new game, one round's entries (RoundForm, an EntryForm a seat), import, merging
names, the restore, undo and colours forms, CSRF-only POSTs (EmptyForm); WholeField, a posted whole
number."""

import functools

from babel import support
from flask import current_app
from flask_babel import get_locale
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from wtforms import BooleanField, FieldList, Form, FormField, HiddenField, SelectField, SelectMultipleField, StringField
from wtforms.fields.choices import SelectChoice
from wtforms.i18n import messages_path
from wtforms.utils import unset_value
from wtforms.validators import AnyOf, Length, Optional, StopValidation, ValidationError
from wtforms.widgets import CheckboxInput, ListWidget

from scorer.limits import MAX_FIELD, MAX_KEY, MAX_NAME, MAX_PLAYERS, MAX_TABLE_NAME, MAX_TEXT
from scorer.gamefile import FieldError, GameFileError, new_game, read_date
from scorer.numbers import read_whole
from scorer.rules import ABOUT, CHOICES, default_text

from . import store

@functools.lru_cache(maxsize=None)
def wtforms_words(locale):
    """wtforms' own messages ("Not a valid choice") in this language, read from disk once a process:
    flask_wtf reads the catalog again for every request that makes a form, and a follower's sheet
    page makes the seats' forms."""
    return support.Translations.load(messages_path(), [locale], domain='wtforms')


class PageForm(FlaskForm):
    """A page's form (Flask-WTF: its CSRF token), wtforms' own messages in the page's language."""

    class Meta:
        def get_translations(self, form):
            if not current_app.config.get('WTF_I18N_ENABLED', True):
                return super().get_translations(form)
            return wtforms_words(str(get_locale()))


class TextOnly:
    """A field that reads text only: a file sent in its place is refused with a message, never a crash."""

    def process_formdata(self, valuelist):
        if valuelist and not isinstance(valuelist[0], str):
            raise ValueError(_l('this field takes text, not a file'))
        super().process_formdata(valuelist)


class TextField(TextOnly, StringField):
    """A line of text."""


class HiddenText(TextOnly, HiddenField):
    """A hidden line of text the page sends back (a version, a round, a date)."""


MAX_VERSION = 10 ** 9   # a round's version number (or a history row's id), as a form sends it back


class WholeField(TextOnly, HiddenField):
    """A hidden whole number the page sends back (a version, a history row, a colour): `data` is the
    number, and anything else, or a number past `most`, does not validate."""

    def __init__(self, label=None, validators=None, most=MAX_VERSION, **kwargs):
        super().__init__(label, validators, **kwargs)
        self.most = most

    def process_formdata(self, valuelist):
        super().process_formdata(valuelist)
        self.data = read_whole(self.data or '', self.most)

    def pre_validate(self, form):
        if self.data is None:
            raise StopValidation(_l('not a whole number'))


class SeatList(FieldList):
    """A list of fields numbered by seat: only ASCII digits count as a seat number ('players-²' is no
    seat), and a number past the largest table (players-99999…) is no seat either: it is kept in
    `strays`, for the form to refuse."""

    def process(self, formdata, data=unset_value, extra_filters=None):
        self.strays = []
        super().process(formdata, data, extra_filters)

    def _extract_indices(self, prefix, formdata):
        offset = len(prefix) + 1
        for key in formdata:
            if key.startswith(prefix):
                index = key[offset:].split('-', 1)[0]
                if index.isascii() and index.isdigit():
                    seat = read_whole(index, MAX_PLAYERS - 1)
                    if seat is None:
                        self.strays.append(key)
                    else:
                        yield seat


LABELS = {
    'game': {'standard': _l('Standard: 3 to 13 cards'), 'short': _l('Short: 5 to 12 cards'),
             'six_fourteen': _l('Six-fourteen: 6 to 14 cards'),
             'five_crowns': _l('Five Crowns: 3 to 13 cards')},
    'aces': {'low': _l('Low only (A‑2‑3)'), 'high_or_low': _l('High or low (Q‑K‑A too)')},
    'face_values': {'ten': _l('J, Q, K count 10'), 'ranked': _l('J 11, Q 12, K 13')},
    'max_wilds_per_meld': {'None': _l('Any number'), '1': _l('One per meld')},
    'all_wild_melds': {'True': _l('Allowed'), 'False': _l('Not allowed')},
    'wild_rank_as_itself': {'True': _l('Wild, or themselves'), 'False': _l('Always wild, never themselves')},
    'set_suits': {'any': _l('Any suits (identical cards too)'), 'different': _l('Each of a different suit')},
    'leftovers': {'minimum': _l('The least they can leave'), 'as_they_lie': _l('As they lie: the cards entered')},
    'double_last_round': {'False': _l('No'), 'True': _l('Yes, it counts double')},
    'tie_break': {'zero_rounds': _l('Most zero rounds wins'), 'none': _l('Ties share the place')},
    'jokers': {'0': _l('None')},
}
SETTINGS = [k for k in CHOICES if k != 'decks']
# What each setting does, in words, under its field (the setting keys are for files and the command line).


def title(key):
    """A setting's title in the page's language."""
    return _l(ABOUT[key][0])


def choices(key):
    labels = LABELS.get(key, {})
    return [SelectChoice(str(v), labels.get(str(v), str(v))) for v in CHOICES[key]]


def setting_field(key):
    title, about = ABOUT[key]
    return SelectField(_l(title), choices=choices(key), default=default_text(key), description=_l(about))


class NewGameForm(PageForm):
    """Players in seating order, the first dealer and the house rules. Valid when the fields make a
    game (`self.made`): players with no two alike, rules, a pack big enough for the last round, a
    first dealer at the table; else `self.problems` names the field at fault. (`self.game` is the
    game setting's field.)"""
    title = TextField(_l('Title (optional)'), validators=[Optional(), Length(max=MAX_TEXT)])
    place = TextField(_l('Place (optional)'), validators=[Optional(), Length(max=MAX_TEXT)])
    today = HiddenText()                   # the phone's own date (YYYY-MM-DD), set by app.js
    made_here = HiddenText()               # the id a phone gave the game it made offline (offline.js)
    made_key = HiddenText()                # ... and a key of its own: sent again, it is the same game
    table = HiddenText(validators=[Optional(), Length(max=MAX_KEY)])   # the table it is started in (web/tables.py)
    players = SeatList(TextField(_l('Player'), validators=[Length(max=MAX_NAME)]),
                        min_entries=MAX_PLAYERS, max_entries=MAX_PLAYERS)
    first_dealer = SelectField(_l('First dealer'), default='draw',
                               choices=[SelectChoice('draw', _l('Draw at random'))] +
                                       [SelectChoice(str(i), _l('Seat %(n)d', n=i + 1)) for i in range(MAX_PLAYERS)])
    decks = SelectField(_l(ABOUT['decks'][0]), default='auto', description=_l(ABOUT['decks'][1]),
                        choices=[SelectChoice('auto', _l('2, or 3 for 7‑8 players'))] +
                                [SelectChoice(str(d)) for d in CHOICES['decks']])


    def validate(self, extra_validators=None):
        self.made, self.problems = None, {}
        if not super().validate(extra_validators):
            return False
        if self.players.strays:
            self.problems['form'] = str(_l('This form has a field for a seat no table has: reload the page and '
                                           'try again.'))
            return False
        try:
            self.made = self.make_game()
        except FieldError as e:
            self.problems[e.field] = str(e)
        return self.made is not None

    def make_game(self):
        return new_game([f.data or '' for f in self.players], {key: self[key].data for key in SETTINGS},
                        self.decks.data, self.first_dealer.data, self.title.data or '', self.place.data or '',
                        self.date())

    def date(self):
        """The day the game is played on the phone's own calendar (sent by app.js); without script,
        the server's local day (never the UTC one, which is tomorrow on an evening in the Americas)."""
        return phone_date(self.today.data)


def phone_date(text):
    """A date as the phone sent it (YYYY-MM-DD), or the server's local day."""
    try:
        return read_date(text or '')
    except GameFileError:
        return store.local_day()


for _key in SETTINGS:                       # one select per setting of docs/rules.md
    setattr(NewGameForm, _key, setting_field(_key))


def strip(text):
    return text.strip() if isinstance(text, str) else text


class EntryForm(Form):
    """One seat's entry: the cards left in hand, or plain points (who went out is the round's)."""
    cards = TextField(_l('Cards left'), filters=[strip], validators=[Length(max=MAX_FIELD)])
    points = TextField(_l('or points'), filters=[strip], validators=[Length(max=MAX_FIELD)])


class CheckboxesField(SelectMultipleField):
    """A choice of several as checkboxes, one per choice (WTForms' own widgets)."""
    widget = ListWidget(prefix_label=False)
    option_widget = CheckboxInput()


class RoundForm(PageForm):
    """A round: who went out (seat numbers: normally one), an entry per seat, the version it was
    based on, and the doubts the scorekeeper confirmed (see scorer.sheet.doubts)."""
    went_out = CheckboxesField(_l('went out'), choices=[], validate_choice=False)
    version = HiddenText()
    confirm = HiddenText()
    entries = SeatList(FormField(EntryForm), max_entries=MAX_PLAYERS)

    def validate_went_out(self, field):
        """Who went out names seats at the table (the page sends nothing else)."""
        for value in field.data or ():
            if value.strip() and read_whole(value, len(field.choices) - 1) is None:
                raise ValidationError(_l('Who went out must be a seat at this table: reload the page and try again.'))

    def seats_out(self, players):
        """The seats marked as gone out, as a set of indexes."""
        return {seat for seat in (read_whole(v, len(players) - 1) for v in self.went_out.data or ()) if seat is not None}


def round_form(players, **kwargs):
    """The round form for these players: one entry a seat, in seat order."""
    form = RoundForm(**kwargs)
    form.went_out.choices = [(str(i), p) for i, p in enumerate(players)]
    while len(form.entries) < len(players):
        form.entries.append_entry()
    return form


def seat_entries(form, players):
    """What was typed for each seat, in seat order: [{'cards': ..., 'points': ...}]."""
    return [{'cards': entry.cards.data or '', 'points': entry.points.data or ''}
            for entry in form.entries[:len(players)]]


def every_seat_posted(formdata, players):
    """Whether a posted round's seats run 0, 1, 2, ... with no gap and none past the last player: the
    page sends them all, and WTForms numbers what it finds from 0, so a gap would hand one seat's
    cards to another. (Seats missing at the end are blank.)"""
    seats = {key.split('-')[1] for key in formdata if key.startswith('entries-') and key.count('-') == 2}
    return seats == {str(i) for i in range(len(seats))} and len(seats) <= len(players)


class HandForm(PageForm):
    """A seated player's own hand: went out, the cards left, or plain points."""
    went_out = BooleanField(_l('I went out'))
    cards = TextField(_l('Cards left'), filters=[strip], validators=[Length(max=MAX_FIELD)])
    points = TextField(_l('Points'), filters=[strip], validators=[Length(max=MAX_FIELD)])
    round = HiddenText()                   # the round the hand is for: it may have been saved meanwhile


class SelfEntryForm(PageForm):
    """The scorekeeper allows players to enter their own hands (1), or not (0)."""
    allowed = HiddenText()


class RematchForm(PageForm):
    """Start the next game with the same table: only the phone's date (set by app.js)."""
    today = HiddenText()

    def date(self):
        return phone_date(self.today.data)


class RestoreForm(PageForm):
    """Put an earlier version of a round back: which one, and the round's version it replaces."""
    history = WholeField()
    version = WholeField()


class UndoForm(PageForm):
    """Undo a round's last save: the round's version that save made."""
    version = WholeField()


def colours_form(players, colours):
    """A colour for each seat (`colour-0`, `colour-1`, …), each one of `colours` (0 to colours - 1)."""
    class ColoursForm(PageForm):
        pass
    for seat in range(players):
        setattr(ColoursForm, f'colour-{seat}', WholeField(most=colours - 1))
    return ColoursForm()


class EmptyForm(PageForm):
    """Only the CSRF token: for a POST that is a confirmed action (delete a game, undo a merge)."""


class MergeForm(PageForm):
    """Count one spelling of a player's name as another, in the stats."""
    spelling = SelectField(_l('Count this spelling'), choices=[], validate_choice=False)
    name = SelectField(_l('as'), choices=[], validate_choice=False)


class HandoverForm(PageForm):
    """Taking over the scorekeeping: the game's edit key, posted (never in a URL a log could keep)."""
    key = TextField(_l('Scorekeeper key'), filters=[strip], validators=[Length(max=MAX_KEY)])


class KeeperLinkForm(PageForm):
    """A new scorekeeper link: whoever opens it keeps score too (share), or instead (handover)."""
    mode = HiddenText(validators=[Optional(), AnyOf(['share', 'handover'])])


class KeeperForm(PageForm):
    """Another browser's scorekeeping taken away: its handle in the list of who keeps score."""
    handle = HiddenText(validators=[Length(max=MAX_KEY)])


class ImportForm(PageForm):
    game_file = FileField(_l('Game file (JSON)'))


class TableForm(FlaskForm):
    """A new table: its name, and the language its big screen and printout speak."""
    name = TextField(_l('Name of the table'), filters=[strip], validators=[Length(min=1, max=MAX_TABLE_NAME)])
    language = SelectField(_l('Its language'), choices=[], validate_choice=True)


class TableGameForm(FlaskForm):
    """A finished game this browser keeps score of, added to a table."""
    game = SelectField(_l('A finished game'), choices=[], validate_choice=True)


class TableImportForm(FlaskForm):
    table_file = FileField(_l('Table file (JSON)'))
