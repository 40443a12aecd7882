"""The solver's answers kept beside the rounds they score: saved in the round's own transaction (a
round saved, a game file or a table file imported; an Undo or a Restore puts back a version whose
answers its own save stored), so that a sheet drawn by any process (another server worker) reads the
hands the saving one solved instead of solving them again on its event loop. Keyed by the hand's
canonical key (scorer.sheet.key_text: its cards sorted, the wild, the rules), so the same hand in
another order, in any game, finds it. Every answer is kept while a stored round or earlier version
holds its hand: the table grows as the rounds and their history do (one row a hand), and a deleted
game takes its hands' answers with it (drop_solutions; another game holding the same hand has it
solved again by the solver's pool at its next draw, web/sheets.py, never on the event loop)."""

import sqlite3

from scorer.sheet import key_text, solution_from_text, solution_text

def keep_solutions(db, answers):
    """Store {key: Solution} (scorer.sheet.Solved's keys) within the caller's write transaction."""
    if not answers:
        return
    db.conn.executemany('insert or replace into solutions (key, solution) values (?, ?)',
                        [(key_text(key), solution_text(answer)) for key, answer in answers.items()])


def drop_solutions(db, keys):
    """Delete the answers of these hands' keys within the caller's write transaction."""
    db.conn.executemany('delete from solutions where key = ?', [(key_text(key),) for key in keys])


def stored_solution(db, key):
    """The Solution stored for a hand's key, or None (not stored, or the database cannot say now: then
    the hand is solved, as it would be without this table)."""
    try:
        row = db.execute('select solution from solutions where key = ?', [key_text(key)]).fetchone()
    except sqlite3.Error:
        return None
    return solution_from_text(row[0]) if row else None
