"""Saves pushed to every phone: Server-Sent Events from /games/<id>/events (and /games/<id>/live, the
poll), woken by one hub a process that watches SQLite's data_version.

Each server process has one Hub: a thread that looks at SQLite's `PRAGMA data_version` every
TICK seconds. That number changes whenever another connection commits, whichever worker
process it belongs to, so a save made through one worker reaches streams held by another.
When it changes, the hub reads the save counters of the games someone follows (one query) and
wakes the streams of the games that moved. A stream then sends the new live sheet (the same
HTML the polling fallback gets), or what the seated players entered, or that the game is gone.
A save is drawn and made into its event once a process (per language and kind of viewer), and
the same text is then written to every stream that follows the game: a stream's share of the
fan-out is its write, which waits (in its own greenlet) for its phone, never holding the others. While it waits a stream holds no database
connection, and every KEEPALIVE seconds it sends a ping, so proxies keep it open and the phone
can tell a stream that silently died (a phone that lost its network) from a quiet game.

A phone that sleeps or loses the network reconnects by itself (EventSource), sending the id
of the last sheet it got (Last-Event-ID): the stream starts by sending the sheet again unless
that id is the current one, so a stale sheet is never shown as current.
"""

import ctypes
import json
import os
import sqlite3
import threading
import time

from flask import Blueprint, Response, abort, current_app, request, stream_with_context
from werkzeug.exceptions import NotFound

from scorer.i18n import language
from scorer.limits import MAX_ROUNDS
from scorer.numbers import read_whole

from . import store
from .access import is_keeper, keeper_and_revision
from .db import release_db
from .context import drafts_data
from .sheets import live_etag, pushed, remembered, sheet_context

bp = Blueprint('live', __name__)

TICK = 0.1              # seconds between looks at data_version
MAX_STREAM = 3600       # seconds one stream lives before the phone reconnects (workers get recycled)
# Every timing of the live connection, once: the server's stream keeps them, and static/js/live.js
# is handed them all (live_timing()), having none of its own. Each is a config key of its own.
TIMINGS = {
    'LIVE_KEEPALIVE': 15,                   # seconds between pings on a quiet stream
    'LIVE_SILENT_PINGS': 2.5,               # pings missed before a phone takes its stream for dead
    'LIVE_GIVE_UP_STREAM_AFTER': 3,         # failed stream attempts in a row before polling instead
    'LIVE_POLL_MS': 1500,                   # how often a page without a stream asks for the sheet
    'LIVE_BACK_TO_STREAM_MS': 10_000,       # how soon a polling page tries a stream again ...
    'LIVE_MOST_BACK_TO_STREAM_MS': 300_000,  # ... then less often each time, up to this
}
KEEPALIVE = TIMINGS['LIVE_KEEPALIVE']
COME_BACK_MS = 500      # a stream ended by a restart: how soon its phone asks again (the new workers answer)
ENDING = threading.Event()   # set in a worker that is stopping: every stream ends at once (end_streams)


class Follower:
    """One open stream: woken when its game moves."""

    def __init__(self, game_id):
        self.game_id = game_id
        self.moved = threading.Event()


class Hub:
    """The process's watcher of the database: who follows which game, and each game's counters."""

    def __init__(self, path):
        self.path = path
        self.lock = threading.Lock()
        self.followers = {}           # game id -> set of Followers
        self.counters = {}            # game id -> (revision, drafts stamp), or None once deleted
        self.thread, self.pid, self._conn = None, None, None
        self.reading = threading.Lock()   # one read at a time on the hub's connection (the streams' set-ups)

    def read(self, query):
        """query(connection) on the hub's connection: the reads a stream's set-up makes, on the event
        loop, with no connection of the stream's own (opening one cost more than the stream's look). A
        database another connection holds is waited for the app's way (store.waited: short sleeps that
        let the process serve everyone else) for at most READ_WAIT_MS, then the busy error: 503, try
        again (web/errors.py); never SQLite's own wait, which would hold the whole worker."""
        def attempt():
            with self.reading:
                return query(self.connection())
        return store.waited(attempt, store.READ_WAIT_MS)

    def look(self, game_id, browser):
        """What a stream's set-up asks first (access.keeper_and_revision's look): the game's key hash,
        save count and whether `browser` keeps score of it, on the hub's connection."""
        return self.read(lambda conn: store.key_revision_kept(conn, game_id, browser))

    def follow(self, game_id):
        follower = Follower(game_id)
        with self.lock:
            known = game_id in self.counters
        counters = None if known else self.read(lambda conn: read_counters(conn, [game_id]).get(game_id))
        with self.lock:
            self.followers.setdefault(game_id, set()).add(follower)
            if game_id not in self.counters:
                self.counters[game_id] = counters
        self.start()
        return follower

    def leave(self, follower):
        with self.lock:
            followers = self.followers.get(follower.game_id, set())
            followers.discard(follower)
            if not followers:
                self.followers.pop(follower.game_id, None)
                self.counters.pop(follower.game_id, None)
            last = not self.followers
        if last:
            give_back_memory()

    def counters_of(self, game_id):
        with self.lock:
            return self.counters.get(game_id)

    def connection(self):
        """The hub's connection for a first look at a game's counters; one opened read-only on a disk
        that refused the ordinary open (store.ReadOnly) is opened again next time, to see the disk back.
        SQLite itself waits for a lock at most LOCK_WAIT_MS on it (store.open_file): read() waits the rest."""
        if self._conn is None or self.pid != os.getpid() or isinstance(self._conn, store.ReadOnly):
            self._conn = None
            self._conn = store.open_file(self.path, check_same_thread=False, isolation_level=None)
        return self._conn

    def start(self):
        """Start the watching thread once per process (a forked worker starts its own)."""
        if self.thread is None or not self.thread.is_alive() or self.pid != os.getpid():
            with self.lock:
                if self.thread is None or not self.thread.is_alive() or self.pid != os.getpid():
                    self._conn, self.pid = None, os.getpid()
                    self.thread = threading.Thread(target=self.watch, daemon=True, name='live-hub')
                    self.thread.start()

    def watch(self):
        conn, seen = None, None
        while True:
            try:
                conn = conn or store.open_file(self.path, isolation_level=None)
                version = conn.execute('PRAGMA data_version').fetchone()[0]
                if version != seen:
                    seen = version
                    self.wake(read_counters(conn, self.followed()))
            except sqlite3.Error:
                seen = None               # the file was busy or replaced: look again next tick
            if isinstance(conn, store.ReadOnly):
                conn.close()              # a disk refusing writes: opened again next tick, to see it come back
                conn, seen = None, None
            time.sleep(TICK)

    def followed(self):
        with self.lock:
            return list(self.followers)

    def wake(self, now):
        with self.lock:
            for game_id, followers in self.followers.items():
                counters = now.get(game_id)
                if counters != self.counters.get(game_id):
                    self.counters[game_id] = counters
                    for f in followers:
                        f.moved.set()


def end_streams():
    """The worker is stopping (a restart): every stream of this process tells its phone to come back
    in COME_BACK_MS and ends now, instead of holding the worker until its graceful timeout."""
    ENDING.set()
    with _hubs_lock:
        hubs = list(_hubs.values())
    for hub in hubs:
        with hub.lock:
            followers = [f for fs in hub.followers.values() for f in fs]
        for follower in followers:
            follower.moved.set()


@bp.record_once
def offer_end_streams(state):
    """The app carries end_streams for the production recipe's worker (web/worker.py), which calls it
    when it is told to stop."""
    state.app.extensions['end_streams'] = end_streams


def give_back_memory():
    """Hand the memory freed by streams back to the system once the last one has left: glibc
    keeps freed memory for the process otherwise, and a crowd that came and went would stay
    in its resident size."""
    try:
        ctypes.CDLL(None).malloc_trim(0)
    except (OSError, AttributeError):      # not glibc: nothing to do
        pass


def read_counters(conn, game_ids):
    """{game id: (save counter, what the seated players entered as a stamp)} for the games that exist."""
    found = {}
    for start in range(0, len(game_ids), 500):
        ids = game_ids[start:start + 500]
        if not ids:
            continue
        marks = ', '.join('?' for _ in ids)
        rows = conn.execute(
            f'''select g.id, g.revision, (select count(*) || '/' || coalesce(max(d.updated), '')
                                          from drafts d where d.game_id = g.id)
                from games g where g.id in ({marks})''', ids).fetchall()
        found.update({game_id: (revision, drafts) for game_id, revision, drafts in rows})
    return found


def live_timing():
    """The timings of static/js/live.js, given once by the server: data attributes of the page's live
    element (data-live-poll-ms="1500", …), each as the app's config has it."""
    from markupsafe import Markup, escape
    config = current_app.config
    return Markup(' '.join(f'data-{key.lower().replace("_", "-")}="{escape(config[key])}"' for key in TIMINGS))


_hubs = {}
_hubs_lock = threading.Lock()


def hub_for(path):
    """The hub watching this database file, one per process."""
    with _hubs_lock:
        if path not in _hubs:
            _hubs[path] = Hub(path)
        return _hubs[path]


def event(name, data, ident=None):
    """One Server-Sent Event: every line of the data on its own 'data:' line."""
    lines = [f'event: {name}'] + ([f'id: {ident}'] if ident is not None else [])
    lines += [f'data: {line}' for line in (data.splitlines() or [''])]
    return '\n'.join(lines) + '\n\n'


class Gone(Exception):
    """The followed game was deleted while its sheet was being drawn (render_sheet may raise it)."""


def stream(hub, game_id, last_id, sheet_event, drafts=None, release=lambda: None, keepalive=KEEPALIVE):
    """The events of one follower: the sheet when it changes (and first unless `last_id` is current;
    `sheet_event(revision)` gives it as its event, made once for every follower),
    the drafts when asked (`drafts()` gives them as data), 'gone' once the game is deleted.

    Whichever way it ends (the phone gone before the first event or after, the game deleted, the
    worker shutting down), it leaves the hub and gives back its database connection."""
    follower = hub.follow(game_id)
    sent_sheet, sent_drafts = last_id, None
    ends = time.monotonic() + MAX_STREAM
    try:
        release()                          # the request's look-ups are done: nothing held from here
        yield 'retry: 2000\n\n'
        while time.monotonic() < ends:
            if ENDING.is_set():
                yield f'retry: {COME_BACK_MS}\n\n'
                return
            follower.moved.clear()
            counters = hub.counters_of(game_id)
            if counters is None:
                yield event('gone', '')
                return
            revision, drafted = counters
            try:
                if str(revision) != sent_sheet:
                    sheet = sheet_event(revision)
                    release()
                    yield sheet
                    sent_sheet = str(revision)
                if drafts is not None and drafted != sent_drafts:
                    data = json.dumps(drafts(), ensure_ascii=False)
                    release()
                    yield event('drafts', data)
                    sent_drafts = drafted
            except Gone:
                yield event('gone', '')
                return
            finally:
                release()                  # hold no database connection while waiting
            if not follower.moved.wait(keepalive) and not ENDING.is_set():
                yield event('ping', '')
    finally:
        release()
        hub.leave(follower)


# The views: the live part of the sheet for polling, and the stream itself.

@bp.get('/games/<game_id>/live')
def live(game_id):
    """The live part of the sheet; 304 while nothing changed (ETag from the game's save counter), read
    on the hub's connection (Hub.look: no connection of the request's own unless the sheet is drawn)."""
    keeper, revision = keeper_and_revision(game_id, hub_for(current_app.config['DATABASE']).look)
    etag = live_etag(revision, keeper)
    if etag in request.headers.get('If-None-Match', ''):
        return Response(status=304, headers={'ETag': etag, 'Cache-Control': 'no-cache'})
    context = sheet_context(game_id, keeper)
    return Response(context['live_html'], headers={'ETag': context['etag'], 'Cache-Control': 'no-cache'})


@bp.get('/games/<game_id>/events')
def events(game_id):
    """The live sheet pushed as Server-Sent Events (see web/live.py); with ?drafts=N (the scorekeeper's
    round page) also what the seated players entered for round N."""
    hub = hub_for(current_app.config['DATABASE'])
    keeper, revision = keeper_and_revision(game_id, hub.look)
    number = read_whole(request.args.get('drafts', ''), MAX_ROUNDS)
    if number is not None and not keeper:
        abort(403)

    def unless_gone(make):
        """What `make` gives, or Gone when the game was deleted meanwhile (its look-up answers 404)."""
        def made(*args):
            try:
                return make(*args)
            except NotFound:
                raise Gone from None
        return made

    last = request.headers.get('Last-Event-ID') or request.args.get('since')
    view = 'tv' if request.args.get('view') == 'tv' else 'sheet'
    edit = request.args.get('edit') == '1'

    def sheet_event(revision):
        """The live sheet at this revision as its event: drawn, formatted and encoded once, then the
        same bytes for every follower. A scorekeeper's stream asks again whether it still is one (another may
        have removed it)."""
        now_keeper = keeper and keeper_and_revision(game_id, hub.look)[0]
        key = (game_id, revision, now_keeper, edit, language(), view)
        return remembered(pushed, key, lambda: event('sheet', sheet_context(game_id, now_keeper)['live_html'],
                                                     ident=revision).encode())

    def drafts():
        """What the seated players entered, for a scorekeeper still (else nothing)."""
        return drafts_data(game_id, number) if is_keeper(game_id) else {}

    body = stream(hub, game_id, last, unless_gone(sheet_event),
                       drafts=unless_gone(drafts) if number is not None else None,
                       release=release_db, keepalive=current_app.config['LIVE_KEEPALIVE'])
    return Response(stream_with_context(body), mimetype='text/event-stream',
                    headers={'Cache-Control': 'no-cache', 'X-Accel-Buffering': 'no'})
