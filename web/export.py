"""Exports of a game: the game file (JSON, with its sheet) and a CSV of the sheet."""

import csv
import io
import json

from scorer.cards import rank_text
from scorer.gamefile import game_data
from scorer.sheet import sheet_data


def game_json(game, sheet):
    return json.dumps({**game_data(game), 'sheet': sheet_data(sheet)}, ensure_ascii=False, indent=2)


def sheet_csv(sheet):
    """One row per round, a column per player; then totals, zero rounds and places."""
    players = list(sheet.game.players)
    out = io.StringIO()
    writer = csv.writer(out)
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
    stem = ''.join(ch if ch.isalnum() else '-' for ch in (game.title or 'three-thirteen')).strip('-').lower()
    return f'{stem or "three-thirteen"}-{game.date or game_id[:8]}.{ext}'
