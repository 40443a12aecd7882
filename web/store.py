"""The store: games and rounds in SQLite through sqlite-utils, with the history of every edit.

What people entered is kept (players, rules, first dealer, each round's entries); totals,
places and dealers are computed from it, never stored. Saving a round is one transaction;
changing a round already saved keeps a history row with what it was and what it became.
"""

import fcntl
import hashlib
import hmac
import json
import os
import secrets
import sqlite3
import time
from contextlib import contextmanager
from datetime import datetime, timezone
from functools import lru_cache

from sqlite_utils import Database, Migrations

from scorer.gamefile import entry_data, read_entry
from scorer.limits import MAX_KEPT
from scorer.rules import make_rules
from scorer.sheet import Game

migrations = Migrations('threethirteen')


@migrations()
def create_tables(db):
    db['games'].create({'id': str, 'title': str, 'players': str, 'rules': str, 'first_dealer': int,
                        'created': str, 'updated': str}, pk='id')
    db['rounds'].create({'game_id': str, 'number': int, 'entries': str, 'version': int, 'saved': str},
                        pk=('game_id', 'number'), foreign_keys=[('game_id', 'games', 'id')])
    db['history'].create({'id': int, 'game_id': str, 'number': int, 'before': str, 'after': str,
                          'changed': str}, pk='id', foreign_keys=[('game_id', 'games', 'id')])
    db['history'].create_index(['game_id', 'number'])


@migrations()
def add_edit_key_and_revision(db):
    # The scorekeeper's key (NULL: a game from before keys, open to edit) and a counter that
    # every save bumps, for the live sheet's ETag.
    db['games'].add_column('edit_key', str)
    db['games'].add_column('revision', int, not_null_default=0)


@migrations()
def add_place_date_and_aliases(db):
    # Where and when a game was played; and spellings of a player's name merged for the stats.
    db['games'].add_column('place', str)
    db['games'].add_column('date', str)
    db.execute("update games set date = substr(created, 1, 10)")
    db['aliases'].create({'spelling': str, 'name': str}, pk='spelling')


@migrations()
def drop_shared_aliases(db):
    # Merged spellings were shared by every browser (one browser's merge renamed a player in
    # everybody's stats); each browser now keeps its own, in its session.
    db['aliases'].drop()


@migrations()
def add_seats_and_drafts(db):
    # Players entering their own hands: who holds each seat (a hash of the seat's key, never the key),
    # the hands they entered for a round not yet saved, and whether the scorekeeper allows it.
    db['games'].add_column('self_entry', int, not_null_default=1)
    db['seats'].create({'game_id': str, 'seat': int, 'key_hash': str, 'taken': str},
                       pk=('game_id', 'seat'), foreign_keys=[('game_id', 'games', 'id')])
    db['drafts'].create({'game_id': str, 'number': int, 'seat': int, 'went_out': int, 'cards': str,
                         'points': str, 'updated': str},
                        pk=('game_id', 'number', 'seat'), foreign_keys=[('game_id', 'games', 'id')])


@migrations()
def add_colours(db):
    # Each player's colour on the sheet, the chart and the picture: an index into scorer.chart.COLOURS
    # per seat (NULL: seat order).
    db['games'].add_column('colours', str)


@migrations()
def add_rematch(db):
    # The game a rematch started from points at it, so the phones following it can follow on.
    db['games'].add_column('rematch', str)


@migrations()
def add_seat_browser(db):
    # Which browser holds each seat (a random id in its session): one seat per browser, checked in
    # the same transaction that gives the seat.
    db['seats'].add_column('browser', str)


@migrations()
def add_summaries(db):
    # What the history and the stats need of a game (scorer.stats.summary), for the revision it was
    # made at: those pages read it rather than score every game at every view.
    db['summaries'].create({'game_id': str, 'revision': int, 'result': str, 'rounds': str}, pk='game_id',
                           foreign_keys=[('game_id', 'games', 'id')])


@migrations()
def add_kept_games_and_merges(db):
    # A browser is known by the hash of one random token (its `browser` cookie): which games it keeps
    # score of, and the spellings of players' names it merged in its stats, live here rather than in
    # a cookie a game (which overflowed request headers past a hundred games).
    db['kept'].create({'browser': str, 'game_id': str, 'since': str}, pk=('browser', 'game_id'),
                      foreign_keys=[('game_id', 'games', 'id')])
    db['kept'].create_index(['game_id'])
    db['merges'].create({'browser': str, 'spelling': str, 'name': str}, pk=('browser', 'spelling'))


@migrations()
def hash_edit_keys(db):
    # Edit keys are kept as a hash, like seat keys: a copy of the database hands nobody a game. The
    # key itself is shown once, when the scorekeeper asks for a scorekeeper link (new_edit_key).
    db['games'].add_column('key_hash', str)
    db.execute('PRAGMA secure_delete = ON')         # the keys in clear are overwritten, not just freed
    for row in list(db.query("select id, edit_key from games where edit_key is not null and edit_key != ''")):
        db.execute('update games set key_hash = ? where id = ?', [key_hash(row['edit_key']), row['id']])
    db.execute('update games set edit_key = null')


def now():
    """The moment of a write, in UTC with its zone: 2026-11-29T18:27:56+00:00."""
    return datetime.now(timezone.utc).isoformat(timespec='seconds')


def local_day():
    """Today on this server's own calendar (a game made without the phone's date)."""
    return datetime.now().astimezone().date().isoformat()


BUSY_TIMEOUT_MS = 10_000     # a save waits this long for another save to finish before giving up
LOCK_WAIT_MS = 20            # how long SQLite itself waits for a lock before the app waits its own way


def connect(path, migrate=True, busy_timeout_ms=BUSY_TIMEOUT_MS):
    """Open the database file: WAL, foreign keys on, saves that queue behind each other rather than
    fail, and (at start-up) the schema brought up to date.

    SQLite's own wait for a lock blocks the whole process, and under gevent a process serves
    hundreds of phones: so SQLite waits at most LOCK_WAIT_MS, and a write that finds the database
    locked waits in writing(), in short sleeps that let every other request and stream go on."""
    db = Database(path)
    db.execute(f'PRAGMA busy_timeout = {int(busy_timeout_ms if migrate else min(busy_timeout_ms, LOCK_WAIT_MS))}')
    db.execute('PRAGMA foreign_keys = ON')
    db.wait_ms = busy_timeout_ms
    if migrate:
        upgrade(db, path)
    return db


def upgrade(db, path):
    """Apply pending migrations, one process at a time (several server workers start together).

    The file holds edit keys: only the app's own user may read it (0600; SQLite gives its -wal
    and -shm files the database's mode)."""
    if path == ':memory:':
        db.enable_wal()
        migrations.apply(db)
        return
    for name in (os.fspath(path), os.fspath(path) + '-wal', os.fspath(path) + '-shm'):
        if os.path.exists(name):
            os.chmod(name, 0o600)
    with open(os.fspath(path) + '.lock', 'w') as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        db.enable_wal()
        migrations.apply(db)


def new_id():
    """An unguessable game id."""
    return secrets.token_urlsafe(12)


def new_key():
    """An unguessable edit key."""
    return secrets.token_urlsafe(24)


def entries_json(entries):
    return json.dumps([entry_data(e) for e in entries], ensure_ascii=False)


def insert(db, table, row, key=()):
    """Insert one row with plain SQL: sqlite-utils' insert and upsert look the table's schema up
    first, which inside the write lock holds every other writer back. With `key` (the primary
    key's columns) a row already there under that key is updated instead."""
    columns = ', '.join(row)
    sql = f'insert into {table} ({columns}) values ({", ".join("?" for _ in row)})'
    if key:
        sql += f' on conflict ({", ".join(key)}) do update set ' + ', '.join(
            f'{c} = excluded.{c}' for c in row if c not in key)
    db.execute(sql, list(row.values()))


def create_game(db, game):
    """Store a new game (with any rounds it already has, as an import does); returns (id, edit key)."""
    game_id, key = new_id(), new_key()
    stamp = now()
    with writing(db):
        insert(db, 'games', {'id': game_id, 'title': game.title, 'players': json.dumps(list(game.players)),
                            'rules': json.dumps(game.rules.to_dict()), 'first_dealer': game.first_dealer,
                            'created': stamp, 'updated': stamp, 'key_hash': key_hash(key), 'revision': 0,
                            'place': game.place, 'date': game.date or local_day()})
        for number, entries in game.rounds.items():
            insert(db, 'rounds', {'game_id': game_id, 'number': number, 'entries': entries_json(entries),
                                  'version': 1, 'saved': stamp})
    return game_id, key


def set_rematch(db, game_id, rematch_id):
    """Say that `rematch_id` is the rematch of `game_id` (the old game's followers are told)."""
    with writing(db):
        db.execute('update games set rematch = ?, revision = revision + 1 where id = ?', [rematch_id, game_id])


def rematch_of(db, game_id):
    """The id of the game's rematch, if one was started (and still exists)."""
    rows = list(db.query('select r.id from games g join games r on r.id = g.rematch where g.id = ?', [game_id]))
    return rows[0]['id'] if rows else None


def load_game(db, game_id):
    """The Game stored under this id, or None."""
    rows = list(db.query('select * from games where id = ?', [game_id]))
    if not rows:
        return None
    row = rows[0]
    rounds = {r['number']: tuple(read_entry(e, f"round {r['number']}", lenient=True) for e in json.loads(r['entries']))
              for r in db.query('select number, entries from rounds where game_id = ? order by number', [game_id])}
    return Game(tuple(json.loads(row['players'])), make_rules(json.loads(row['rules'])),
                row['first_dealer'], rounds, row['title'] or '', row['place'] or '', row['date'] or '')


def edit_key_hash(db, game_id):
    """The hash of the game's edit key ('' for a game from before keys); None when there is no such game."""
    rows = list(db.query('select key_hash from games where id = ?', [game_id]))
    return (rows[0]['key_hash'] or '') if rows else None


def new_edit_key(db, game_id):
    """A new edit key for the game (the one before stops working): returned once, kept as a hash."""
    key = new_key()
    with writing(db):
        db.execute('update games set key_hash = ? where id = ?', [key_hash(key), game_id])
    return key


def key_and_revision(db, game_id):
    """The hash of the game's edit key and its save count in one look-up; (None, None) when there is no such game."""
    rows = list(db.query('select key_hash, revision from games where id = ?', [game_id]))
    return ((rows[0]['key_hash'] or ''), rows[0]['revision']) if rows else (None, None)


def keep(db, browser, ids):
    """This browser keeps score of these games (again: the newest first in its list)."""
    stamp = now()
    with writing(db):
        for game_id in ids:
            db.execute('insert or replace into kept (browser, game_id, since) values (?, ?, ?)', [browser, game_id, stamp])


def keeps(db, browser, game_id):
    """Whether this browser keeps score of the game."""
    return bool(list(db.query('select 1 from kept where browser = ? and game_id = ?', [browser, game_id])))


def kept(db, browser):
    """The ids of the games this browser keeps score of (at most MAX_KEPT, the most recently kept first)."""
    return [row['game_id'] for row in db.query('select game_id from kept where browser = ? order by since desc '
                                                f'limit {MAX_KEPT}', [browser])]


def merges(db, browser):
    """This browser's merged spellings: {spelling (case-folded): name}."""
    return {row['spelling']: row['name'] for row in db.query('select spelling, name from merges where browser = ?',
                                                              [browser])}


def set_merges(db, browser, merged):
    """Replace this browser's merged spellings."""
    with writing(db):
        db.execute('delete from merges where browser = ?', [browser])
        for spelling, name in merged.items():
            db.execute('insert into merges (browser, spelling, name) values (?, ?, ?)', [browser, spelling, name])


def edit_key_hashes(db, ids):
    """{game id: the hash of its edit key} for those of `ids` that exist."""
    ids = list(ids)[:MAX_KEPT]
    if not ids:
        return {}
    rows = db.query(f"select id, key_hash from games where id in ({', '.join('?' for _ in ids)})", ids)
    return {row['id']: row['key_hash'] or '' for row in rows}


def revision(db, game_id):
    """How many saves the game has had; None when there is no such game."""
    rows = list(db.query('select revision from games where id = ?', [game_id]))
    return rows[0]['revision'] if rows else None


@lru_cache(maxsize=256)
def last_round(rules_json):
    """The last round of a game with these rules as stored (a list of games asks for few kinds)."""
    return make_rules(json.loads(rules_json)).last_round


def list_games(db, ids=None):
    """Games, newest first, with their players, rules and how many rounds are in; only `ids` if given."""
    where, args = '', []
    if ids is not None:
        ids = list(ids)[:MAX_KEPT]
        if not ids:
            return []
        where = f"where g.id in ({', '.join('?' for _ in ids)})"
        args = ids
    sql = f'''select g.id, g.title, g.place, g.date, g.players, g.rules, g.created, g.updated, g.revision,
                    count(r.number) as rounds
             from games g left join rounds r on r.game_id = g.id {where}
             group by g.id order by g.updated desc, g.created desc'''
    games = []
    for row in db.query(sql, args):
        last = last_round(row['rules'])
        games.append({**row, 'players': json.loads(row['players']), 'last_round': last,
                      'finished': row['rounds'] >= last})
    return games


def cannot_write(error):
    """Whether an SQLite error means the disk is full or read-only (or the file cannot be written)."""
    text = str(error).lower()
    return isinstance(error, sqlite3.OperationalError) and any(
        why in text for why in ('disk is full', 'readonly', 'read-only', 'disk i/o', 'unable to open'))


def is_busy(error):
    """Whether an SQLite error means another writer held the database past the busy timeout."""
    return isinstance(error, sqlite3.OperationalError) and ('locked' in str(error) or 'busy' in str(error))


class Conflict(Exception):
    """The round was saved by someone else since the form was opened."""

    def __init__(self, entries, version):
        super().__init__(f'the round is at version {version}')
        self.entries, self.version = entries, version


def begin_writing(db):
    """Take the write lock, waiting for another writer in short sleeps (time.sleep yields under
    gevent, so other phones are served meanwhile) for at most the connection's wait_ms."""
    deadline = time.monotonic() + getattr(db, 'wait_ms', BUSY_TIMEOUT_MS) / 1000
    pause = 0.005
    while True:
        try:
            db.conn.execute('BEGIN IMMEDIATE')
            return
        except sqlite3.OperationalError as e:
            if not is_busy(e) or time.monotonic() + pause > deadline:
                raise
        time.sleep(pause)
        pause = min(pause * 2, 0.1)


@contextmanager
def writing(db):
    """A write transaction that takes the write lock at once, so a read-then-write cannot race."""
    begin_writing(db)
    try:
        yield db
    except BaseException:
        if db.conn.in_transaction:
            db.conn.execute('ROLLBACK')
        raise
    else:
        db.conn.execute('COMMIT')


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


SUMMARY_ROUNDS = ('went_out', 'round_numbers', 'scores')      # the part of a summary only the stats read


def summaries(db, ids, rounds=False):
    """{game id: summary data} for those of `ids` whose summary is of their current revision; the
    round-by-round part only when asked (the history needs the result alone)."""
    ids = list(ids)[:MAX_KEPT]
    if not ids:
        return {}
    rows = db.query(f"""select s.game_id, s.result, s.rounds from summaries s join games g on g.id = s.game_id
                        and g.revision = s.revision where s.game_id in ({', '.join('?' for _ in ids)})""", ids)
    return {row['game_id']: {**json.loads(row['result']), **(json.loads(row['rounds']) if rounds else {})}
            for row in rows}


def keep_summary(db, game_id, revision, data):
    """Keep a game's summary for this revision (replacing an older one)."""
    result = {k: v for k, v in data.items() if k not in SUMMARY_ROUNDS}
    rounds = {k: data[k] for k in SUMMARY_ROUNDS}
    with writing(db):
        db.execute('insert or replace into summaries (game_id, revision, result, rounds) values (?, ?, ?, ?)',
                   [game_id, revision, json.dumps(result, ensure_ascii=False), json.dumps(rounds, ensure_ascii=False)])


def delete_game(db, game_id):
    """Delete a game with its rounds, history, seats and drafts, in one transaction."""
    with writing(db):
        db.execute('delete from summaries where game_id = ?', [game_id])
        db.execute('delete from kept where game_id = ?', [game_id])
        db.execute('delete from drafts where game_id = ?', [game_id])
        db.execute('delete from seats where game_id = ?', [game_id])
        db.execute('delete from history where game_id = ?', [game_id])
        db.execute('delete from rounds where game_id = ?', [game_id])
        db.execute('delete from games where id = ?', [game_id])


# Seats and drafts: each player entering their own hand from their own phone.

def key_hash(key):
    return hashlib.sha256(key.encode()).hexdigest()


def self_entry(db, game_id):
    """Whether the game's players may enter their own hands."""
    rows = list(db.query('select self_entry from games where id = ?', [game_id]))
    return bool(rows and rows[0]['self_entry'])


def set_self_entry(db, game_id, allowed):
    with writing(db):
        db.execute('update games set self_entry = ?, revision = revision + 1 where id = ?', [int(allowed), game_id])


def seats_taken(db, game_id):
    """{seat: when it was taken} for the seats that a phone holds."""
    return {r['seat']: r['taken'] for r in db.query('select seat, taken from seats where game_id = ?', [game_id])}


def take_seat(db, game_id, seat, browser=None):
    """Give the seat to this phone: its new key, or None when the seat is taken or this browser
    already holds a seat of the game (both checked in the one transaction that gives it)."""
    key = new_key()
    with writing(db):
        if list(db.query('select 1 from seats where game_id = ? and (seat = ? or browser = ?)',
                         [game_id, seat, browser])):
            return None
        insert(db, 'seats', {'game_id': game_id, 'seat': seat, 'key_hash': key_hash(key), 'taken': now(),
                            'browser': browser})
        db.execute('update games set revision = revision + 1 where id = ?', [game_id])
    return key


def seat_of_browser(db, game_id, browser):
    """The seat this browser holds in the game, or None."""
    rows = list(db.query('select seat from seats where game_id = ? and browser = ?', [game_id, browser]))
    return rows[0]['seat'] if rows else None


def seat_holder(db, game_id, seat, key):
    """Whether `key` is the key of the phone that holds this seat (compared in constant time)."""
    rows = list(db.query('select key_hash from seats where game_id = ? and seat = ?', [game_id, seat]))
    return bool(rows) and hmac.compare_digest(rows[0]['key_hash'], key_hash(key or ''))


def free_seat(db, game_id, seat):
    with writing(db):
        db.execute('delete from seats where game_id = ? and seat = ?', [game_id, seat])
        db.execute('update games set revision = revision + 1 where id = ?', [game_id])


def save_draft(db, game_id, number, seat, went_out, cards, points):
    """Keep what a player entered for their own seat in a round not yet saved (replacing what was there)."""
    with writing(db):
        if list(db.query('select 1 from rounds where game_id = ? and number = ?', [game_id, number])):
            return False                    # the scorekeeper saved the round meanwhile
        insert(db, 'drafts', {'game_id': game_id, 'number': number, 'seat': seat, 'went_out': int(went_out),
                              'cards': cards or '', 'points': points or '', 'updated': now()},
                       key=('game_id', 'number', 'seat'))
    return True


def drafts(db, game_id, number):
    """{seat: {'went_out', 'cards', 'points', 'updated'}}: what the players entered for this round."""
    return {r['seat']: {'went_out': bool(r['went_out']), 'cards': r['cards'], 'points': r['points'],
                        'updated': r['updated']}
            for r in db.query('select * from drafts where game_id = ? and number = ?', [game_id, number])}


def colours(db, game_id):
    """The players' colours (indexes into scorer.chart.COLOURS, by seat); seat order when never chosen."""
    rows = list(db.query('select colours, players from games where id = ?', [game_id]))
    if not rows:
        return []
    players = len(json.loads(rows[0]['players']))
    chosen = json.loads(rows[0]['colours']) if rows[0]['colours'] else []
    return [chosen[i] if i < len(chosen) else i for i in range(players)]


def set_colours(db, game_id, chosen):
    with writing(db):
        db.execute('update games set colours = ?, revision = revision + 1 where id = ?', [json.dumps(chosen), game_id])
