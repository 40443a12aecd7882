"""Exports of a game: the game file (JSON, with its sheet), a CSV of the sheet, the printed sheet; and
importing a game file.

The CSV is read by spreadsheet programs: it starts with a UTF-8 byte-order mark (so Zoë is not
ZoÃ«), and a text cell that begins like a formula (=, +, -, @, tab, CR) is written with a
leading apostrophe, as OWASP advises, so opening the file never runs anything (scorer/spreadsheet.py).
"""

import io
import re
import unicodedata

from babel.numbers import get_decimal_symbol
from flask import Blueprint, flash, redirect, render_template, url_for
from flask_babel import get_locale
from flask_babel import gettext as _

from scorer.cards import rank_text
from scorer.chart import race
from scorer.gamefile import filename, game_data, game_json
from scorer.sheet import RoundError, score_round, winner_words
from scorer.spreadsheet import SafeWriter

from . import drawing, pool, store
from .solved import solved
from .access import browser, remember
from .context import download, read_upload
from .db import get_db
from .forms import ImportForm
from .sheets import readable_sheet
from .templating import longest_word

bp = Blueprint('export', __name__)


def sheet_csv(sheet, earlier=None):
    """One row per round, a column per player; then totals, zero rounds and places; then each
    earlier version of a round (`earlier`: {round: [(entries, when replaced)]}, a version set aside in
    a conflict, corrected or undone), with when it was replaced, who went out and its scores. The
    words are the page's language, and the separator its spreadsheets': `;` where the decimal mark is
    a comma (Spanish, Portuguese), `,` in English. Every figure is a whole number."""
    players = list(sheet.game.players)
    out = io.StringIO()
    out.write('\ufeff')
    comma = get_decimal_symbol(str(get_locale())) == ','
    writer = SafeWriter(out, ';' if comma else ',')
    writer.writerow([_('Round'), _('Cards'), _('Wild'), _('Dealer'), _('Went out'), *players])
    for r in sheet.rows:
        went_out = next((p for p, s in r.scores.items() if s.went_out), '')
        writer.writerow([r.round, r.hand_size, rank_text(r.wild), r.dealer, went_out,
                         *(r.scores[p].score for p in players)])
    writer.writerow([_('Total'), '', '', '', '', *(sheet.totals[p] for p in players)])
    writer.writerow([_('Zero rounds'), '', '', '', '', *(sheet.zero_rounds[p] for p in players)])
    writer.writerow([_('Place'), '', '', '', '', *(sheet.places[p] for p in players)])
    for number, versions in sorted((earlier or {}).items()):
        for entries, replaced in versions:
            writer.writerow([_('Earlier version of round %(round)d', round=number), replaced, '', '',
                             next((e.player for e in entries if e.went_out), ''), *version_scores(sheet.game, number,
                                                                                                entries, players)])
    return out.getvalue()


def version_scores(game, number, entries, players):
    """Each player's score in an earlier version of a round (what was typed, where it no longer scores)."""
    try:
        scored = score_round(game, number, entries)
        return [scored[p].score if p in scored else '' for p in players]
    except RoundError:
        typed = {e.player: e for e in entries}
        return [(typed[p].cards or typed[p].points or '') if p in typed else '' for p in players]


# The views: the game file and the CSV to download, the printed sheet, and a game file imported.

@bp.post('/import')
def import_game():
    """A game file imported: read and checked whole by the pool (web/pool.py; its hands solved there
    and remembered here, web/solved.py), within this client's IMPORT_RATE; the same game kept here
    already opens instead."""
    form = ImportForm()
    read, refused = read_upload(form, form.game_file, drawing.game_file, _('Choose a game file to import.'))
    if refused:
        error, status, headers = refused
        return render_template('games/index.html', form=form, import_error=error), status, headers
    game, earlier = read
    kept = already_kept(game)
    if kept:
        flash(_('This game is already kept on this phone: here it is. Nothing was imported.'))
        return redirect(url_for('games.sheet', game_id=kept))
    game_id, key = store.create_game(get_db(), game, earlier=earlier)
    flash(_('Game imported. This phone keeps score.'))
    return remember(redirect(url_for('games.sheet', game_id=game_id)), game_id, 'import')


def already_kept(game):
    """The id of a game this browser keeps that is the same game as `game` (same players, rules,
    dates and rounds), so importing its file again opens it instead of making a twin. Only the kept
    games at the same table (players and rules) are loaded to compare: however many it keeps, an
    import looks at few."""
    same = game_data(game)
    for game_id in store.kept_alike(get_db(), browser(), game) if browser() else ():
        kept = store.load_game(get_db(), game_id)
        if kept is not None and game_data(kept) == same:
            return game_id
    return None


@bp.get('/games/<game_id>/export.json')
def export(game_id):
    game, result = readable_sheet(game_id)
    return download(game_json(game, result, store.earlier_versions(get_db(), game_id)), 'application/json',
                    filename(game, game_id, 'json'))


@bp.get('/games/<game_id>/export.csv')
def export_csv(game_id):
    game, result = readable_sheet(game_id)
    return download(sheet_csv(result, store.earlier_versions(get_db(), game_id)), 'text/csv', filename(game, game_id, 'csv'))


# The race on paper: the shape of its box in print.css (the page's width by 30 mm), in type of 9.5
# units, which that box prints at 8 pt.
PRINT_CHART = dict(width=620, height=100, size=9.5)


# The printed sheet's names (issue 48), each upright over its column and broken only between its
# words or after a hyphen (web/templating.longest_word), so a column is at least as wide as its
# name's longest word. A word of more than LONGEST_WORD letters ('Featherstonehaugh' has 17; thirty
# W's) no column holds whole: it alone breaks inside and the players share the width alike. The
# players' longest words side by side cross the page in the headings' own type up to
# WORDS_ON_A_LINE letters (round, cards and wild as narrow as their words, print.css); past that the
# names are set in 7 pt, tight, which holds up to WORDS_ON_A_TIGHT_LINE. Past that too (eight names
# each with a word of 12-17 letters), the longest words are shortened to what the line holds
# (shortened()), never broken inside, and the page names those players in full under the sheet; so
# the sheet never runs past the paper's edge (tests/test_print_pages.py, A4 and Letter).
LONGEST_WORD = 18
WORDS_ON_A_LINE = 50
WORDS_ON_A_TIGHT_LINE = 90
WORD = re.compile(r'[^\s-]+')


def shortened(players, letters=WORDS_ON_A_TIGHT_LINE):
    """The players' names as headed where their longest words side by side pass `letters`: each word
    longer than the most letters a column can have (the longest words shortened alike, the short
    ones kept, all within `letters`) cut to that many, its last a full stop ('Featherstonehaugh' ->
    'Featherston.'); {player: heading} for the players shortened."""
    words = sorted(longest_word(p) for p in players)
    most = max(words, default=0)
    while most > 1 and sum(min(n, most) for n in words) > letters:
        most -= 1
    cut = lambda m: m[0] if len(m[0]) <= most or any(unicodedata.east_asian_width(c) in 'WF' for c in m[0]) \
        else m[0][:most - 1] + '.'
    return {p: WORD.sub(cut, p) for p in players if longest_word(p) > most}


def names_set(players):
    """How the printed sheet sets its players' names: {'sheet': the table's class ('', 'tight' or
    'alike'), 'too_long': the players whose longest word breaks inside, 'short': {player: heading}
    for the players whose longest words are shortened to cross the page (named in full below it)}."""
    words = [longest_word(p) for p in players]
    too_long = {p for p, n in zip(players, words) if n > LONGEST_WORD}
    letters = sum(words)
    crowded = not too_long and letters > WORDS_ON_A_TIGHT_LINE
    sheet = ('alike' if too_long else 'tight' if letters > WORDS_ON_A_LINE else '')
    return {'sheet': sheet, 'too_long': too_long, 'short': shortened(players) if crowded else {}}


@bp.get('/games/<game_id>/print')
def print_sheet(game_id):
    """The scoresheet on one printed page."""
    game, result = readable_sheet(game_id)
    colours = store.colours(get_db(), game_id)
    return render_template('games/print.html', game=game, game_id=game_id, sheet=result, colours=colours,
                           winner=winner_words(result), chart=race(result, colours, **PRINT_CHART),
                           names=names_set(game.players))
