"""Rounds: saved in one transaction against the version they were made from, undone, and their history."""

import json

from scorer.gamefile import read_entry

from .database import Conflict, insert, now, writing
from .games import entries_json


def round_version(db, game_id, number):
    """The version of a saved round; 0 when it has not been saved."""
    rows = list(db.query('select version from rounds where game_id = ? and number = ?', [game_id, number]))
    return rows[0]['version'] if rows else 0


def save_round(db, game_id, number, entries, based_on=None):
    """Save a round in one transaction; a changed round keeps a history row. Returns its new version.

    `based_on` is the version the entries were made from: if the round has moved on since,
    nothing is saved and Conflict tells what is there now.
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
        version = old[0]['version'] + 1 if old else 1
        if old:
            insert(db, 'history', {'game_id': game_id, 'number': number, 'before': old[0]['entries'],
                                   'after': after, 'changed': stamp})
        insert(db, 'rounds', {'game_id': game_id, 'number': number, 'entries': after, 'version': version,
                              'saved': stamp}, key=('game_id', 'number'))
        db.execute('delete from drafts where game_id = ? and number = ?', [game_id, number])
        db.execute('update games set updated = ?, revision = revision + 1 where id = ?', [stamp, game_id])
    return version


def undo_round(db, game_id, number, based_on):
    """Put a round back as it was before its last save, in one transaction: the version that save
    replaced, or not entered at all when it was the round's first save. What is undone is kept in
    the history (so it can be restored in turn). Conflict when the round moved on since `based_on`."""
    stamp = now()
    with writing(db):
        rows = list(db.query('select entries, version from rounds where game_id = ? and number = ?', [game_id, number]))
        if not rows or rows[0]['version'] != based_on:
            raise Conflict(tuple(read_entry(e, f'round {number}', lenient=True) for e in json.loads(rows[0]['entries']))
                           if rows else (), rows[0]['version'] if rows else 0)
        current = rows[0]['entries']
        last = list(db.query('select before, after from history where game_id = ? and number = ? order by id desc limit 1',
                             [game_id, number]))
        if last and last[0]['after'] == current and last[0]['before'] != '[]':
            db.execute('update rounds set entries = ?, version = version + 1, saved = ? where game_id = ? and number = ?',
                       [last[0]['before'], stamp, game_id, number])
            after = last[0]['before']
        else:
            db.execute('delete from rounds where game_id = ? and number = ?', [game_id, number])
            after = '[]'
        db.execute('insert into history (game_id, number, before, after, changed) values (?, ?, ?, ?, ?)',
                   [game_id, number, current, after, stamp])
        db.execute('update games set updated = ?, revision = revision + 1 where id = ?', [stamp, game_id])


def last_save(db, game_id):
    """The game's most recent round save: {'number', 'version', 'saved'}, or None."""
    rows = list(db.query('select number, version, saved from rounds where game_id = ? order by saved desc, number desc '
                         'limit 1', [game_id]))
    return rows[0] if rows else None


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
