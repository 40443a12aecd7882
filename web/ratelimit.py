"""Per-client budgets (SOLVER_RATE, HAND_RATE, PICTURE_RATE, GAME_RATE, ADDRESS_GAME_RATE, IMPORT_RATE): how much one client may ask of
the server in a while, counted by Flask-Limiter in SQLite (scorer-limits.sqlite), where every worker
sees the same count and a restart keeps it; a scorekeeper's solver budget is its own.

- SOLVER_RATE: hands solved for a client (/api/solve, /api/audit, /audit and the entry pages'
  preview, /audit/preview, one a request; a round saved or checked on its page and a seated
  player's hand, one a hand: web/solved.py), together;
- HAND_RATE: hands a seat sends ("my hand"), counted by the seat (players at one table share an
  address): a player sends a hand a round and corrects it now and then, while each send is a hand
  solved, a draft written and a page drawn, so a few seats sending as fast as they are answered took
  a bystander's p95 to 7x its quiet one (issue 47). Counted by the second: within the seconds a
  bench or an attack lasts it holds, where a budget by the minute is not reached;
- PICTURE_RATE: shared pictures drawn afresh (one already drawn for its revision costs nothing);
- GAME_RATE: games made (a new game, a rematch, a game made offline and sent);
- ADDRESS_GAME_RATE: games made from one address, every browser there together (keepers, strangers and
  fresh browsers alike): the address's ceiling over GAME_RATE (CEILINGS), ADDRESS_GAMES times a keeper's
  own. A browser's first game is counted by its address and after it the browser is a keeper with a
  budget of its own, so fresh browsers from one address would each bring a fresh budget, without
  bound (issue 47: 12 games in a minute with GAME_RATE at 3). The trade-off: a stranger behind the
  keeper's address can lock the keeper out, but only by making that many games on purpose;
- IMPORT_RATE: game files and table files imported, one for each IMPORT_BYTES of the file begun (a
  table file of 32 MB is 8 imports: checking it holds the pool's process as long as that many do).

A client is a person: a scorekeeper (a browser the store knows keeps a game) by its browser, anyone
else by address (web/clients.py: the proxy's word for it only where SCORER_PROXIES says so). So
another phone behind the same address (the table's Wi-Fi, or someone misbehaving on it) never locks
the scorekeeper's preview, pictures, rematches or imports out. A scorekeeper that came by a
scorekeeper link spends the budgets of the keeper who made the link (store.payer): links cost
nothing, so a budget per keeper would be a fresh budget per link. A browser's first game is counted
by its address (it keeps nothing yet: each new token would otherwise bring a fresh budget).

The counts live in SQLite, in a file of their own beside the database (`scorer-limits.sqlite`), as a
storage of the `limits` library that Flask-Limiter counts with (Counts). Flask-Limiter's own storages
are memory (one count per worker, gone at a restart: what issue 37 found), Redis, Memcached, MongoDB
and etcd: each one more server to run next to this one. SQLite is what the app already runs on, seen
alike by every worker, and kept across restarts. A file of its own because a count must never wait
for a game's save to let go of the database's write lock, nor make a save wait; and it is written
with `synchronous = OFF`: a power cut may lose the last counts, which costs nothing. A count that
cannot be written (a full or read-only disk) refuses no one: the request goes through, and the
error is logged.
"""

import os
import sqlite3
import threading
import time
from datetime import timedelta

from flask import current_app, jsonify, render_template, request
from flask_babel import format_timedelta
from flask_babel import gettext as _
from flask_limiter import Limiter
from limits import parse_many
from limits.storage import Storage
from werkzeug.exceptions import TooManyRequests

from . import store
from .access import browser
from .clients import client_of
from .db import get_db
from .settings import setting

# A table at one Wi-Fi (several phones behind one address) previews a hand a tap: well within this.
SOLVER_RATE = '20 per second; 600 per minute'
# A seat sends its hand, then corrects it: a tap and a look take more than two seconds.
HAND_RATE = '1 per 2 seconds; 20 per minute'
# Share after every round at a table of eight, each phone its own: well within this.
PICTURE_RATE = '20 per minute; 200 per hour'
# A club's tables behind one address making games all evening, and a phone sending the games it made offline.
GAME_RATE = '10 per minute; 60 per hour; 300 per day'
# Every browser behind one address together (a café of tables at one Wi-Fi makes a game a table an hour):
# this many times a keeper's own GAME_RATE.
ADDRESS_GAMES = 5


def ceiling(rate, times=ADDRESS_GAMES):
    """`rate` (a budget in Flask-Limiter's words) `times` over, window by window: the address's ceiling
    over a keeper's GAME_RATE, unless ADDRESS_GAME_RATE is set on its own."""
    return '; '.join(f'{item.amount * times} per {item.multiples} {item.GRANULARITY.name}' for item in parse_many(rate))


ADDRESS_GAME_RATE = ceiling(GAME_RATE)
IMPORT_RATE = '10 per minute; 60 per hour'
IMPORT_BYTES = 4 * 1024 * 1024             # an import spends one of IMPORT_RATE for each 4 MB of its file begun
RATES = {'solver': 'SOLVER_RATE', 'hand': 'HAND_RATE', 'picture': 'PICTURE_RATE', 'game': 'GAME_RATE',
         'address_game': 'ADDRESS_GAME_RATE', 'import': 'IMPORT_RATE'}
# A budget spent by a client also spends its address's ceiling, every browser there together.
CEILINGS = {'game': 'address_game'}
COUNT_WAIT = 2.0                           # seconds a count waits for another worker's write of the counts


def address():
    """The client's address (after ProxyFix, where a proxy is trusted), IPv6 by its /64."""
    return 'address:' + client_of(request.remote_addr or '')


def client():
    """Whose budget a request spends: a scorekeeper's (by the browser whose budgets it spends:
    store.payer), else its address's."""
    who = browser()
    payer = store.payer(get_db(), who) if who else None
    return 'keeper:' + payer if payer else address()


def import_cost(size):
    """What importing a file of `size` bytes spends of IMPORT_RATE: one for each IMPORT_BYTES begun
    (every game file, and a table file of a few hundred games, is one)."""
    return max(1, -(-size // IMPORT_BYTES))


class Counts(Storage):
    """The `limits` storage of fixed windows in the app's own file of counts (LIMITS_DATABASE), one
    connection a process: `scorer://` in Flask-Limiter's terms."""

    STORAGE_SCHEME = ['scorer']
    CLEAN_EVERY = 1000                     # counts made between two clear-outs of the expired ones

    def __init__(self, uri=None, wrap_exceptions=False, **options):
        super().__init__(uri, wrap_exceptions=wrap_exceptions)
        self.lock = threading.Lock()
        self.connections = {}              # (pid, path) -> connection
        self.made = 0

    @property
    def base_exceptions(self):
        return sqlite3.Error

    def execute(self, sql, args=()):
        """Run one statement on this process's connection; a file another worker is writing is waited
        for in short sleeps (they yield under gevent), at most COUNT_WAIT seconds: a count given up
        would let the request through uncounted, and a flood must not buy its way past its budget."""
        path = current_app.config['LIMITS_DATABASE']
        deadline, pause = time.monotonic() + COUNT_WAIT, 0.002
        while True:
            try:
                with self.lock:
                    conn = self.connections.get((os.getpid(), path))
                    if conn is None:
                        conn = self.connections[(os.getpid(), path)] = open_counts(path)
                    return conn.execute(sql, args).fetchall()
            except sqlite3.OperationalError as e:
                if not store.is_busy(e) or time.monotonic() + pause > deadline:
                    raise
            time.sleep(pause)
            pause = min(pause * 2, 0.05)

    def incr(self, key, expiry, amount=1):
        now = time.time()
        self.made += 1
        if self.made % self.CLEAN_EVERY == 0:
            self.execute('delete from counts where expires <= ?', [now])
        rows = self.execute(
            '''insert into counts (key, count, expires) values (?, ?, ?) on conflict (key) do update set
                   count = case when expires <= ? then excluded.count else count + excluded.count end,
                   expires = case when expires <= ? then excluded.expires else expires end
               returning count''', [key, amount, now + expiry, now, now])
        return rows[0][0]

    def get(self, key):
        rows = self.execute('select count from counts where key = ? and expires > ?', [key, time.time()])
        return rows[0][0] if rows else 0

    def get_expiry(self, key):
        rows = self.execute('select expires from counts where key = ? and expires > ?', [key, time.time()])
        return rows[0][0] if rows else time.time()

    def check(self):
        self.execute('select 1')
        return True

    def reset(self):
        return len(self.execute('delete from counts returning key'))

    def clear(self, key):
        self.execute('delete from counts where key = ?', [key])


def open_counts(path):
    """The file of counts (made if missing, the app's user's only), in WAL, written without waiting for the disk."""
    conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=0)
    if path != ':memory:':
        os.chmod(path, 0o600)
    conn.execute('PRAGMA journal_mode = WAL')
    conn.execute('PRAGMA synchronous = OFF')
    conn.execute('create table if not exists counts (key text primary key, count integer not null, '
                 'expires real not null) without rowid')
    return conn


def limits_file(database):
    """Where the counts live: beside the database, `scorer-limits.sqlite` for `scorer.sqlite`."""
    if database == ':memory:':
        return database
    stem, _ext = os.path.splitext(database)
    return stem + '-limits.sqlite'


limiter = Limiter(client, storage_uri='scorer://', default_limits=[], swallow_errors=True, strategy='fixed-window')
solver_rate = limiter.shared_limit(lambda: current_app.config['SOLVER_RATE'], scope='solver')


class OverBudget(TooManyRequests):
    """A budget spent (see spend()): the message says which, and when to try again."""

    def __init__(self, message, wait):
        super().__init__(description=message, retry_after=max(1, int(wait)))


def spend(name, cost=1, who=None):
    """`cost` of this client's budget `name` (RATES), or of `who`'s (a seat's: 'seat:<game>:<n>'), or
    OverBudget (429) saying in the page's language which budget ran out and when it comes back. Counted
    as Flask-Limiter counts (the client, then the budget's name): the solver's budget spent here and by
    solver_rate is one. A budget with a ceiling (CEILINGS) spends the address's ceiling first."""
    key = who or client()
    spent = ([(CEILINGS[name], address())] if name in CEILINGS and who is None else []) + [(name, key)]
    try:
        for budget, whose in spent:
            for item in parse_many(current_app.config[RATES[budget]]):
                if not limiter.limiter.hit(item, whose, budget, cost=cost):
                    wait = limiter.limiter.get_window_stats(item, whose, budget).reset_time - time.time()
                    raise OverBudget(refusal(budget, wait, whose.startswith('keeper:')), wait)
    except (sqlite3.Error, OSError) as e:
        uncounted(e)


_told = set()


def uncounted(error):
    """Log, once a process and kind of error, that a count could not be kept (nobody is refused for it)."""
    if str(error) not in _told:
        _told.add(str(error))
        current_app.logger.error('a count could not be kept, nobody is refused: %s', error)


def refusal(name, wait, keeper=False):
    """What a client over its budget is told, in the page's language: a scorekeeper's budget is its
    own (and its links'), anyone else's is its address's."""
    when = format_timedelta(timedelta(seconds=max(1, wait)), threshold=1.1, add_direction=True)
    if keeper:
        return {
            'solver': _('Too many hands were worked out for this scorekeeper: try again %(when)s.', when=when),
            'picture': _('Too many pictures were drawn for this scorekeeper: try again %(when)s.', when=when),
            'game': _('Too many games were made by this scorekeeper: try again %(when)s.', when=when),
            'import': _('Too many game files were imported by this scorekeeper: try again %(when)s.', when=when),
        }[name]
    return {
        'solver': _('Too many hands were worked out for this address: try again %(when)s.', when=when),
        'hand': _('Too many hands were sent from this seat: try again %(when)s.', when=when),
        'picture': _('Too many pictures were drawn for this address: try again %(when)s.', when=when),
        'game': _('Too many games were made from this address: try again %(when)s.', when=when),
        'address_game': _('Too many games were made from this address, by every browser on it together: '
                          'try again %(when)s.', when=when),
        'import': _('Too many game files were imported from this address: try again %(when)s.', when=when),
    }[name]


def too_many(error):
    """429, in JSON for the API and as a page elsewhere, saying what to wait for."""
    message = error.description if isinstance(error, OverBudget) else \
        _('Too many questions from this address: wait a moment and try again.')
    headers = {'Retry-After': str(error.retry_after)} if getattr(error, 'retry_after', None) else {}
    if request.path.startswith('/api/'):
        return jsonify(error=message), 429, headers
    return render_template('error.html', title=_('Too many requests'), message=message), 429, headers


def init_app(app):
    for name, key in RATES.items():             # GAME_RATE first: the address's ceiling follows it by default
        default = ceiling(app.config['GAME_RATE']) if key == 'ADDRESS_GAME_RATE' else globals()[key]
        app.config.setdefault(key, setting(key, default))
    app.config.setdefault('LIMITS_DATABASE', limits_file(app.config['DATABASE']))
    limiter.init_app(app)
    app.register_error_handler(429, too_many)
