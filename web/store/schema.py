"""The schema (the list of migrations that made it: test_store.py checks their names), and connect():
the database file opened in WAL with a busy timeout, the schema brought up to date; open_file() reads
a file whose disk cannot make its -wal and -shm (full, or read-only, found by trying) as immutable."""

import errno
import fcntl
import logging
import os
import secrets
import sqlite3
from urllib.parse import quote

from sqlite_utils import Database, Migrations

from .database import BUSY_TIMEOUT_MS, LOCK_WAIT_MS, READ_WAIT_MS, cannot_write, key_hash, waited

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



@migrations()
def add_keepers(db):
    # Who keeps score of a game, as a person recognises each browser: when it joined (`since` moves
    # each time it keeps the game again), what it is ("Chrome on Android"), how it came (made the
    # game, a scorekeeper link, ...), and a random handle another keeper removes it by. A scorekeeper
    # link either shares the scorekeeping or hands it over (the browser that made it stops keeping).
    for column in ('joined', 'device', 'how', 'handle'):
        db['kept'].add_column(column, str)
    for row in list(db.query('select rowid, since from kept')):
        db.execute('update kept set joined = ?, handle = ? where rowid = ?',
                   [row['since'], secrets.token_urlsafe(9), row['rowid']])
    db['games'].add_column('link_mode', str)
    db['games'].add_column('link_giver', str)


@migrations()
def add_last_change(db):
    # The game's last change of a round (what Undo may undo, and only that): the round, the version
    # that change made, when, and whether it was itself an Undo. History rows say which version of
    # their round they made, so a round undone to nothing and saved again never reuses a version.
    db['games'].add_column('last_number', int)
    db['games'].add_column('last_version', int)
    db['games'].add_column('last_saved', str)
    db['games'].add_column('last_undo', int)
    db['history'].add_column('version', int)


@migrations()
def add_deleted_and_made_here(db):
    # The ids of deleted games stay taken (old share links and printed QR codes never open another
    # game), and where each game a phone made offline went (its id, the hash of the key the phone
    # sent with it): sent again, with or without the browser's cookie, it is the same game.
    db['deleted'].create({'id': str, 'deleted': str}, pk='id')
    db['made_here'].create({'made_id': str, 'key_hash': str, 'game_id': str, 'made': str}, pk=('made_id', 'key_hash'))


@migrations()
def add_browser_signing(db):
    # Browser tokens are signed by the server (a token it never issued gets no rights): the signing
    # key lives with the data it protects, so a new SECRET_KEY signs nobody out of their games.
    db['secrets'].create({'name': str, 'value': str}, pk='name')
    db['secrets'].insert({'name': 'browser', 'value': secrets.token_hex(32)})


@migrations()
def add_payer(db):
    # Whose budgets a scorekeeper spends: a browser that came by a scorekeeper link spends those of
    # the keeper who made the link (one budget a person, however many links it makes); empty: its own.
    db['kept'].add_column('payer', str)


@migrations()
def add_tables(db):
    # A table: a group that plays together, with its own unguessable id (a game's kind), its name,
    # language, the spellings its keepers merged and each player's colour across its games. A game
    # belongs to at most one table (games.table_id); the browsers that hold a table (its readers,
    # and its keepers, who came by its keeper link or made it) are listed as a game's keepers are.
    db['tables'].create({'id': str, 'name': str, 'language': str, 'merges': str, 'colours': str,
                         'key_hash': str, 'revision': int, 'created': str, 'updated': str}, pk='id',
                        not_null={'revision'}, defaults={'revision': 0})
    db['games'].add_column('table_id', str)
    db['games'].create_index(['table_id'])
    db['held'].create({'browser': str, 'table_id': str, 'since': str, 'joined': str, 'device': str,
                       'how': str, 'handle': str, 'keeper': int}, pk=('browser', 'table_id'),
                      foreign_keys=[('table_id', 'tables', 'id')])
    db['held'].create_index(['table_id'])


@migrations()
def add_solutions(db):
    # The solver's answers, saved with the rounds they score (store/solutions.py): a sheet drawn by
    # another worker reads them instead of solving the round's hands again on its event loop.
    db.execute('create table solutions (key text not null unique, solution text not null)')
def open_file(path, wait_ms=0, **options):
    """A sqlite3 connection to the database file (options as sqlite3.connect takes them), that reads
    even where the disk refuses every write.

    A WAL database is read through its -wal and -shm files, which SQLite removes when the last
    connection closes and makes again for the next one. Where the disk cannot make them (it turned
    read-only under the server, or it is full: the -shm cannot grow), the ordinary open fails with
    SQLITE_CANTOPEN or SQLITE_IOERR, whatever os.access says. Then, if no write-ahead log with
    frames in it lies beside the file, the file holds everything, and nothing can change it while
    its -shm cannot be made: it is opened as immutable, and every read works (every write fails
    with SQLITE_READONLY, which the app reports as a disk that cannot be written). A connection
    opened so is a ReadOnly, which a long-lived holder (live.Hub) opens again later, so that it
    sees the disk come back. With a -wal in use beside it, the ordinary open reads it.

    SQLite waits for a locked file at most LOCK_WAIT_MS unless `timeout` says otherwise (sqlite3's own
    default, 5 s, would hold a gevent worker and everyone it serves for that long, from the very first
    read of a database another connection holds exclusively). Past that, the first read is tried
    again the app's way (waited(): short sleeps that let everyone else be served) for at most
    `wait_ms`: a database held for a moment (the last connection closing checkpoints and removes
    the -wal under an exclusive lock) is then read, not refused."""
    options.setdefault('timeout', LOCK_WAIT_MS / 1000)
    conn = sqlite3.connect(os.fspath(path), **options)
    if path == ':memory:':
        return conn
    try:
        waited(lambda: conn.execute('select count(*) from sqlite_master').fetchone(), wait_ms)
    except sqlite3.OperationalError as e:
        conn.close()
        if not (cannot_write(e) and settled(path)):
            raise
        return sqlite3.connect(f'file:{quote(os.path.abspath(path))}?immutable=1', uri=True, factory=ReadOnly,
                               **options)
    return conn


class ReadOnly(sqlite3.Connection):
    """A connection open_file() made as immutable: it reads the file as it was, and writes nothing."""


def settled(path):
    """Whether the database file holds all there is: no write-ahead log with frames in it beside it."""
    wal = os.path.abspath(path) + '-wal'
    return not os.path.exists(wal) or os.path.getsize(wal) == 0


def connect(path, migrate=True, busy_timeout_ms=BUSY_TIMEOUT_MS):
    """Open the database file: WAL, foreign keys on, saves that queue behind each other rather than
    fail, and (at start-up) the schema brought up to date.

    SQLite's own wait for a lock blocks the whole process, and under gevent a process serves
    hundreds of phones: so SQLite waits at most LOCK_WAIT_MS, and a write that finds the database
    locked waits in writing(), in short sleeps that let every other request and stream go on; its first
    read, for at most READ_WAIT_MS, the same way (open_file)."""
    waits_ms = busy_timeout_ms if migrate else min(busy_timeout_ms, LOCK_WAIT_MS)    # start-up is no event loop yet
    db = Database(open_file(path, timeout=waits_ms / 1000, wait_ms=0 if migrate else READ_WAIT_MS))
    db.execute(f'PRAGMA busy_timeout = {int(waits_ms)}')
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
    try:
        prepare(db, path)
    except (OSError, sqlite3.OperationalError) as e:
        # A disk that cannot be written (found by trying, not by os.access): the app serves what is
        # there, read-only, if it is up to date.
        if not (cannot_write(e) or isinstance(e, OSError) and e.errno in UNWRITABLE):
            raise
        if migrations.pending(db):
            raise sqlite3.OperationalError(f'{path} is on a disk that cannot be written ({e}), and its schema is '
                                           'not up to date: it cannot be served') from e
        logging.getLogger(__name__).warning('%s is on a disk that cannot be written (%s): served read-only', path, e)


# What an OSError says of a disk that cannot be written: read-only, full, or not ours to write.
UNWRITABLE = (errno.EROFS, errno.ENOSPC, errno.EDQUOT, errno.EACCES, errno.EPERM)


def prepare(db, path):
    """The file made the app's own (0600), in WAL, its schema brought up to date, one process at a time."""
    for name in (os.fspath(path), os.fspath(path) + '-wal', os.fspath(path) + '-shm'):
        if os.path.exists(name):
            os.chmod(name, 0o600)
    with open(os.fspath(path) + '.lock', 'w') as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        db.enable_wal()
        migrations.apply(db)
