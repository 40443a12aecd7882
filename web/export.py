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
from pathlib import Path

from flask import Blueprint, abort, current_app, flash, redirect, render_template, send_from_directory, url_for
from flask_babel import get_locale
from flask_babel import gettext as _

from scorer.cards import rank_text
from scorer.chart import race
from scorer.gamefile import filename, game_data, game_json
from scorer.sheet import RoundError, score_round, winner_words
from scorer.spreadsheet import SafeWriter

from . import drawing, pool, store
from .solved import answers, solved
from .access import browser, remember
from .context import PRINT_FONTS, download, print_fonts, read_upload
from .db import get_db
from .forms import ImportForm
from .sheets import readable_sheet, without_solving

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
    game_id, key = store.create_game(get_db(), game, earlier=earlier, solutions=answers())
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
    earlier = store.earlier_versions(get_db(), game_id)
    return download(without_solving(lambda: sheet_csv(result, earlier)), 'text/csv', filename(game, game_id, 'csv'))


# The race on paper: the shape of its box in print.css (the page's width by 30 mm), in type of 9.5
# units, which that box prints at 8 pt.
PRINT_CHART = dict(width=620, height=100, size=9.5)


# The printed sheet's names (issue 48), each upright over its column and broken only between its
# words or after a hyphen, never inside a word; the round, cards and wild columns as narrow as their
# words (in NARROW_PT, tight, wrapped between words) and two figures. Whether the names cross the page is
# decided here, once, by the width their longest words need, measured: each word's advances in the
# picture's Noto Sans (web/typeface.py), the print's own type (context.PRINT_FONTS: the same files, served by
# the app itself, so the estimate is of the font the browser prints in; kerning left out, it errs
# wide; before, DejaVu Sans printed Latin up to 10 % wider than Noto, its bold up to 16 %), against
# PRINT_ROOM (A4's width inside its margins, the narrower paper). In the headings' own type (HEADING_PT, bold) where they
# cross it; else in TIGHT_PT, regular and tight ('tight'); where not even so (eight names each with
# a word of 12-17 letters, or one word of thirty W's) the widest words are shortened alike to what
# crosses it, a full stop for the letters left out (shortened()), and the page names those players
# in full under the sheet. So the sheet never runs past the paper's edge, and no name breaks inside
# a word (tests/test_print_pages.py prints A4 and Letter). The figures are print.css's.
PRINT_ROOM = 186           # mm: A4 (210 mm) less print.css's @page margins of 12 mm
HEADING_PT, TIGHT_PT, TIGHT_SPACING, NARROW_PT, FIGURES_PT = 8.5, 7, -0.02, 7, 13
CELL = 0.8 * 2 + 0.3       # mm: a cell's padding each side and its border (print.css)
TIGHT_CELL = 0.4 * 2 + 0.3
NAME_LINES = 4             # the most lines a name takes (print.css budgets the page's height for five)
WIDEST_FIGURES = '100*'    # a player's widest figure at FIGURES_PT: a round of 100 or more, went out
WORD = re.compile(r'[^\s-]+')             # a word (a line may break after a hyphen: PIECE keeps it with it)
PIECE = re.compile(r'[^\s-]+-?')
MM_A_PT = 25.4 / 72


def wide(text):
    return any(unicodedata.east_asian_width(c) in 'WF' for c in text)


def measured(text, pt, weight=400, spacing=0.0):
    """The width of a text set in the print's type at this size, in mm (an estimate that errs wide)."""
    face = drawing.typeface(current_app.config['NODE_MODULES'])
    return (face.ems(text, weight) + spacing * len(text)) * pt * MM_A_PT


def words_of(name):
    """The pieces of a name no line may break inside: its words (a hyphen kept with the word before
    it); Chinese and Japanese, which break anywhere, a character each."""
    return [piece for word in PIECE.findall(name) for piece in (list(word) if wide(word) else [word])]


def headings_need(players, pt, weight, spacing, cell):
    """Each player's column's width in mm: its name's widest word in this type, or its figures, or
    what holds the whole name on NAME_LINES lines (thirty Chinese characters, which break anywhere,
    on no more lines than the page's height has room for)."""
    figures = measured(WIDEST_FIGURES, FIGURES_PT)
    return [cell + max([figures, measured(p, pt, weight, spacing) / NAME_LINES]
                       + [measured(w, pt, weight, spacing) for w in words_of(p)]) for p in players]


def shortened(players, room):
    """The players' names as headed where their widest words, in the tight type, side by side, pass
    `room` mm: each word wider than the most a column can have (the widest shortened alike, the
    narrow ones kept, all within `room`) cut to what that holds, its last a full stop
    ('Featherstonehaugh' -> 'Featherston.'); never Chinese; {player: heading} for the players shortened."""
    tight = lambda text: measured(text, TIGHT_PT, 400, TIGHT_SPACING)
    needs = headings_need(players, TIGHT_PT, 400, TIGHT_SPACING, TIGHT_CELL)
    most = max(needs)
    while most > 1 and sum(min(n, most) for n in needs) > room:
        most -= 0.25
    def cut(match):
        word = match.group(0)
        if wide(word) or tight(word) + TIGHT_CELL <= most:
            return word
        kept = len(word) - 1
        while kept > 1 and tight(word[:kept] + '.') + TIGHT_CELL > most:
            kept -= 1
        return word[:kept] + '.'
    headings = {p: WORD.sub(cut, p) for p in players}
    return {p: h for p, h in headings.items() if h != p}


def shared(needs, room):
    """Each column's width, in mm, shared as the screen's sheet shares its width (shares()), the
    needs first scaled down to the room where they pass it (names that break anywhere, on more lines:
    paper has no sideways scroll, so never past its edge)."""
    if sum(needs) > room:
        needs = [n * room / sum(needs) for n in needs]
    return shares(needs, room)


def shares(needs, room):
    """static/js/shares.js shares(), the screen's rule, in Python for paper (tests/test_shares.py
    runs both on the same cases): the widest held at their need while above an even share of what
    the others leave, the rest alike; where the needs pass the room, each its need."""
    held, left, rest = set(), len(needs), room
    for i in sorted(range(len(needs)), key=lambda i: -needs[i]):
        if left == 1 or needs[i] <= rest / left:
            break
        held.add(i)
        rest -= needs[i]
        left -= 1
    return [needs[i] if i in held else max(needs[i], rest / left) for i in range(len(needs))]


def names_set(players, narrow, rows=()):
    """How the printed sheet sets its players' names, beside the round, cards and wild columns'
    headings `narrow` (in the page's language), which together hold the labels of the rows under
    them, `rows` (Total, Zero rounds, Place: 11 pt, wrapped between words): {'sheet': the table's class ('' or 'tight'),
    'short': {player: heading} for the players whose widest words are shortened to cross the page
    (named in full below it), 'widths': every column's share of the sheet's width, in %: the three
    narrow ones, then each player's}."""
    figures = measured('13', 11)
    columns = [max(CELL + figures, TIGHT_CELL + max(measured(w, NARROW_PT, 400, TIGHT_SPACING) for w in words_of(h)))
               for h in narrow]
    label = CELL + max([0] + [measured(w, 11, 700) for h in rows for w in words_of(h)])
    columns[-1] += max(0, label - sum(columns))
    room = PRINT_ROOM - sum(columns)
    sheet, short = '', {}
    needs = headings_need(players, HEADING_PT, 700, 0.0, CELL)
    if sum(needs) > room:
        sheet, needs = 'tight', headings_need(players, TIGHT_PT, 400, TIGHT_SPACING, TIGHT_CELL)
    if sum(needs) > room:
        short = shortened(players, room)
        needs = headings_need([short.get(p, p) for p in players], TIGHT_PT, 400, TIGHT_SPACING, TIGHT_CELL)
    widths = columns + shared(needs, room)
    return {'sheet': sheet, 'short': short, 'widths': [round(w / PRINT_ROOM * 100, 2) for w in widths]}


@bp.get('/print/fonts/<name>/<path:filename>')
def print_font(name, filename):
    """A file of the print's type (web/context.py PRINT_FONTS): a package's stylesheet, or a font
    file it names (./files/...), from node_modules, by the app itself: no outside server."""
    if name not in PRINT_FONTS or not filename.endswith(('.css', '.woff2')):
        abort(404)
    return send_from_directory(Path(current_app.config['NODE_MODULES']) / PRINT_FONTS[name], filename, max_age=86400)


@bp.get('/games/<game_id>/print')
def print_sheet(game_id):
    """The scoresheet on one printed page."""
    game, result = readable_sheet(game_id)
    colours = store.colours(get_db(), game_id)
    return render_template('games/print.html', game=game, game_id=game_id, sheet=result, colours=colours,
                           winner=winner_words(result), chart=race(result, colours, **PRINT_CHART), fonts=print_fonts(),
                           names=names_set(game.players, (_('Rd'), _('Cards'), _('Wild')),
                                           (_('Total'), _('Zero rounds'), _('Place'))))
