"""Rounds: saved in one transaction against the version they were made from (a version is never used
twice), Undo of the game's last save only, and their history."""

import json
from datetime import datetime, timedelta, timezone

from scorer.gamefile import read_entry
from scorer.limits import MAX_EARLIER

from .database import Conflict, insert, now, writing
from .games import entries_json, last_change
from .solutions import keep_solutions


def round_version(db, game_id, number):
    """The version of a saved round; 0 when it has not been saved."""
    rows = list(db.query('select version from rounds where game_id = ? and number = ?', [game_id, number]))
    return rows[0]['version'] if rows else 0


def next_version(db, game_id, number, old):
    """The version a change of a round makes: one past the last it had, even if it was undone to
    nothing since (a version is never used twice, so a form made from an undone save is refused)."""
    if old:
        return old[0]['version'] + 1
    rows = list(db.query('select max(version) as made, count(*) as changes from history where game_id = ? and number = ?',
                         [game_id, number]))
    return max(rows[0]['made'] or 0, rows[0]['changes'] or 0) + 1


def changed(db, game_id, number, version, stamp, undo=False):
    """The game's last change of a round is this one (what Undo may undo); its revision moves."""
    db.execute('update games set updated = ?, revision = revision + 1, last_number = ?, last_version = ?, '
               'last_saved = ?, last_undo = ? where id = ?', [stamp, number, version, stamp, int(undo), game_id])


def save_round(db, game_id, number, entries, based_on=None, solutions=None):
    """Save a round in one transaction; a changed round keeps a history row. Returns its new version.
    `solutions`, the solver's answers for its hands ({key: Solution}), are stored in the same
    transaction (store/solutions.py), for the sheet another process draws.

    `based_on` is the version the entries were made from: if the round has moved on since,
    nothing is saved and Conflict tells what is there now. The hands the seated players sent for it
    (drafts) stay: shown only while the round is not saved, they come back if an Undo puts it back
    to not entered.
    """
    after = entries_json(entries)
    stamp = now()
    with writing(db):
        old = list(db.query('select entries, version from rounds where game_id = ? and number = ?',
                            [game_id, number]))
        current = old[0]['version'] if old else 0
        if based_on is not None and based_on != current and not (old and old[0]['entries'] == after):
            raise Conflict(tuple(read_entry(e, f'round {number}', lenient=True) for e in json.loads(old[0]['entries']))
                           if old else (), current)
        if old and old[0]['entries'] == after:
            return current
        version = next_version(db, game_id, number, old)
        if old:
            insert(db, 'history', {'game_id': game_id, 'number': number, 'before': old[0]['entries'],
                                   'after': after, 'changed': stamp, 'version': version})
        insert(db, 'rounds', {'game_id': game_id, 'number': number, 'entries': after, 'version': version,
                              'saved': stamp}, key=('game_id', 'number'))
        keep_solutions(db, solutions)
        changed(db, game_id, number, version, stamp)
    return version


class NotUndone(Exception):
    """Why an Undo was refused: `why` is 'moved' (the round was saved again), 'later' (another round
    was changed after it: `later` is that round), 'undone' (it was undone already) or 'late' (past
    UNDO_SECONDS)."""

    def __init__(self, why, later=None):
        super().__init__(why)
        self.why, self.later = why, later


def undo_round(db, game_id, number, based_on, seconds=None):
    """Put a round back as it was before its last save, in one transaction: the version that save
    replaced, or not entered at all when it was the round's first save. What is undone is kept in
    the history (so it can be restored in turn). Only the game's last change of a round is undone
    (an Undo may itself be undone), and only within `seconds` of it: else NotUndone says why."""
    stamp = now()
    with writing(db):
        rows = list(db.query('select entries, version from rounds where game_id = ? and number = ?', [game_id, number]))
        last = last_change(db, game_id) or {}
        if not rows or rows[0]['version'] != based_on:
            raise NotUndone('undone' if last.get('number') == number and last.get('undo') else 'moved')
        if last.get('number') != number or last.get('version') != based_on:
            raise NotUndone('later', last.get('number'))
        if seconds is not None and not within(last.get('saved'), seconds):
            raise NotUndone('late')
        current = rows[0]['entries']
        previous = list(db.query('select before, after from history where game_id = ? and number = ? '
                                 'order by id desc limit 1', [game_id, number]))
        version = based_on + 1
        if previous and previous[0]['after'] == current and previous[0]['before'] != '[]':
            db.execute('update rounds set entries = ?, version = ?, saved = ? where game_id = ? and number = ?',
                       [previous[0]['before'], version, stamp, game_id, number])
            after = previous[0]['before']
        else:
            db.execute('delete from rounds where game_id = ? and number = ?', [game_id, number])
            after = '[]'
        insert(db, 'history', {'game_id': game_id, 'number': number, 'before': current, 'after': after,
                               'changed': stamp, 'version': version})
        changed(db, game_id, number, version, stamp, undo=True)


def within(saved, seconds):
    """Whether a change made at `saved` (its stored time) was less than `seconds` ago."""
    try:
        return datetime.now(timezone.utc) - datetime.fromisoformat(saved) < timedelta(seconds=seconds)
    except (TypeError, ValueError):
        return False


def round_history(db, game_id, number=None):
    """Earlier versions of a game's rounds, newest first."""
    sql = 'select id, number, before, after, changed from history where game_id = ?'
    args = [game_id]
    if number is not None:
        sql += ' and number = ?'
        args.append(number)
    return [{**h, 'before': json.loads(h['before']), 'after': json.loads(h['after'])}
            for h in db.query(sql + ' order by id desc', args)]


def history_entry(db, game_id, history_id):
    """One earlier version of a round: (round number, its entries), or None."""
    rows = list(db.query('select number, before from history where game_id = ? and id = ?', [game_id, history_id]))
    if not rows:
        return None
    number = rows[0]['number']
    return number, tuple(read_entry(e, f'round {number}', lenient=True) for e in json.loads(rows[0]['before']))


def earlier_versions(db, game_id):
    """Every earlier version of the game's rounds, for its game file and CSV: {round: [(entries, when
    it was replaced)]}, oldest first (the newest MAX_EARLIER of a round): a version set aside in a
    conflict, corrected, undone or restored over."""
    found = {}
    for h in reversed(round_history(db, game_id)):
        if h['before']:
            found.setdefault(h['number'], []).append(
                (tuple(read_entry(e, f"round {h['number']}", lenient=True) for e in h['before']), h['changed']))
    return {number: versions[-MAX_EARLIER:] for number, versions in found.items()}
