"""Exports of a game: the game file (JSON, with its sheet) and a CSV of the sheet.

The CSV is read by spreadsheet programs: it starts with a UTF-8 byte-order mark (so Zoë is not
ZoÃ«), and a text cell that begins like a formula (=, +, -, @, tab, CR) is written with a
leading apostrophe, as OWASP advises, so opening the file never runs anything.
"""

import csv
import io
import json
import re

from scorer.cards import rank_text
from scorer.gamefile import game_data
from scorer.sheet import sheet_data


def game_json(game, sheet):
    return json.dumps({**game_data(game), 'sheet': sheet_data(sheet)}, ensure_ascii=False, indent=2)


FORMULA_START = ('=', '+', '-', '@', '\t', '\r')


def cell(value):
    """A CSV cell that a spreadsheet shows as text, never runs as a formula."""
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


class SafeWriter:
    """csv.writer whose text cells are made safe for spreadsheets."""

    def __init__(self, out):
        self.writer = csv.writer(out)

    def writerow(self, row):
        self.writer.writerow([cell(v) for v in row])


def sheet_csv(sheet):
    """One row per round, a column per player; then totals, zero rounds and places."""
    players = list(sheet.game.players)
    out = io.StringIO()
    out.write('\ufeff')
    writer = SafeWriter(out)
    writer.writerow(['Round', 'Cards', 'Wild', 'Dealer', 'Went out', *players])
    for r in sheet.rows:
        went_out = next((p for p, s in r.scores.items() if s.went_out), '')
        writer.writerow([r.round, r.hand_size, rank_text(r.wild), r.dealer, went_out,
                         *(r.scores[p].score for p in players)])
    writer.writerow(['Total', '', '', '', '', *(sheet.totals[p] for p in players)])
    writer.writerow(['Zero rounds', '', '', '', '', *(sheet.zero_rounds[p] for p in players)])
    writer.writerow(['Place', '', '', '', '', *(sheet.places[p] for p in players)])
    return out.getvalue()


def filename(game, game_id, ext):
    """The file's name: the title (in any script) and the date, 'ωmega-2026-11-29.csv'."""
    stem = re.sub(r'-+', '-', ''.join(ch if ch.isalnum() else '-' for ch in (game.title or 'three-thirteen')))
    return f'{stem.strip("-").lower() or "three-thirteen"}-{game.date or game_id[:8]}.{ext}'
