"""Writing to the database: one transaction at a time, waiting for the lock without blocking
anyone else (waited(): short sleeps, SQLite itself waiting at most LOCK_WAIT_MS, also for the reads
the live hub makes on the event loop); the ids, keys, hashes and times that writes store."""

import errno
import hashlib
import os
import re
import secrets
import sqlite3
import string
import threading
import time
from contextlib import contextmanager
from datetime import datetime, timezone


def now():
    """The moment of a write, in UTC with its zone: 2026-11-29T18:27:56+00:00."""
    return datetime.now(timezone.utc).isoformat(timespec='seconds')


def local_day():
    """Today on this server's own calendar (a game made without the phone's date)."""
    return datetime.now().astimezone().date().isoformat()


BUSY_TIMEOUT_MS = 10_000     # a save waits this long for another save to finish before giving up


LOCK_WAIT_MS = 20            # how long SQLite itself waits for a lock before the app waits its own way
READ_WAIT_MS = 2_000         # a read the event loop makes (a stream's set-up) waits this long for a held database, then 503


# A game's id, decided once: ID_LENGTH characters drawn from base64url's alphabet (96 random bits).
# The browser gets it as data (GAME_ID): the phone makes the ids of games it makes offline with it
# (static/js/offline/ids.js, from the new-game page's data-game-id) and the service worker tells a
# game's address by its pattern (static/sw.js, from web/pwa.py).
ID_ALPHABET = string.ascii_uppercase + string.ascii_lowercase + string.digits + '-_'
ID_LENGTH = 16
ID_PATTERN = f'[A-Za-z0-9_-]{{{ID_LENGTH}}}'
GAME_ID = {'alphabet': ID_ALPHABET, 'length': ID_LENGTH, 'pattern': ID_PATTERN}


def new_id():
    """An unguessable game id: ID_LENGTH characters of ID_ALPHABET, each drawn at random."""
    return ''.join(secrets.choice(ID_ALPHABET) for _ in range(ID_LENGTH))


def is_game_id(text):
    """Whether a phone's id for a game it made offline is one new_id() could have made."""
    return isinstance(text, str) and re.fullmatch(ID_PATTERN, text, re.ASCII) is not None


def new_key():
    """An unguessable edit key."""
    return secrets.token_urlsafe(24)


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


# SQLite's own names for a write (or the opening of a database's -wal or -shm file) that the disk
# refused: read-only (EROFS), full (ENOSPC), or failing underneath.
CANNOT_WRITE = ('SQLITE_READONLY', 'SQLITE_CANTOPEN', 'SQLITE_FULL', 'SQLITE_IOERR')


def cannot_write(error):
    """Whether an SQLite error means the disk is full or read-only (or the file cannot be written):
    by SQLite's name for the error, or by its words for one the app raised itself."""
    if not isinstance(error, sqlite3.OperationalError):
        return False
    name = getattr(error, 'sqlite_errorname', None)
    if name:
        return name.startswith(CANNOT_WRITE)
    text = str(error).lower()
    return any(why in text for why in ('disk is full', 'readonly', 'read-only', 'disk i/o', 'unable to open',
                                       'cannot be written'))


def out_of_files():
    """Whether this process has no file left to open (every one taken, most likely by connections):
    SQLite then says 'unable to open database file', which is not the disk's fault."""
    try:
        os.close(os.open(os.devnull, os.O_RDONLY))
    except OSError as e:
        return e.errno in (errno.EMFILE, errno.ENFILE)
    return False


def is_busy(error):
    """Whether an SQLite error means another writer held the database past the busy timeout."""
    return isinstance(error, sqlite3.OperationalError) and ('locked' in str(error) or 'busy' in str(error))


class Conflict(Exception):
    """The round was saved by someone else since the form was opened."""

    def __init__(self, entries, version):
        super().__init__(f'the round is at version {version}')
        self.entries, self.version = entries, version


_waiting = 0                 # how many of this process's attempts sleep in waited() now
_counting = threading.Lock()


def waiting():
    """How many requests of this process wait for a database another connection holds, now (in
    waited()'s sleeps): /health says it (`waiting_for_lock`), for a monitor and for the tests, which
    see by it that a save waits without the process being held."""
    return _waiting


def _count_waiting(change):
    global _waiting
    with _counting:
        _waiting += change


def waited(attempt, wait_ms):
    """attempt() again while the database is locked by another connection, in short sleeps (time.sleep
    yields under gevent, so other phones are served meanwhile), for at most `wait_ms`; then the
    busy error (errors.py: 503, "try again in a moment"). SQLite's own wait (busy_timeout) would
    hold the whole process instead: every connection waits there at most LOCK_WAIT_MS."""
    deadline = time.monotonic() + wait_ms / 1000
    pause = 0.005
    sleeping = False
    try:
        while True:
            try:
                return attempt()
            except sqlite3.OperationalError as e:
                if not is_busy(e) or time.monotonic() + pause > deadline:
                    raise
            if not sleeping:
                sleeping = True
                _count_waiting(+1)
            time.sleep(pause)
            pause = min(pause * 2, 0.1)
    finally:
        if sleeping:
            _count_waiting(-1)


def begin_writing(db):
    """Take the write lock, waiting for another writer (waited) for at most the connection's wait_ms."""
    waited(lambda: db.conn.execute('BEGIN IMMEDIATE'), getattr(db, 'wait_ms', BUSY_TIMEOUT_MS))


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


def key_hash(key):
    return hashlib.sha256(key.encode()).hexdigest()
