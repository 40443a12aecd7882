"""Sheets for every page: a game and its scored sheet read in one snapshot (its hands' answers read
through those stored with the rounds), and the few caches that keep what was computed for a game at a
revision (its save counter): the sheet, the live part of the page, what streams push, and the
picture. No hand is solved on the event loop: `without_solving` (the sheet, a round's earlier
versions, a summary, a table's file) runs scorer.sheet.read_through, whose hands stored nowhere (a
round saved before answers were stored) go to the solver's pool, pool.SOLVER_HANDS a job, and are
stored."""

import sqlite3
import threading
from datetime import datetime, timezone

from cachetools import LRUCache
from flask import Response, abort, render_template, request
from markupsafe import Markup

from scorer.i18n import language
from scorer.sheet import compute_sheet, read_through

from . import pool, solving, store
from .access import is_keeper
from .db import get_db
from .pages import live_part
from .solved import solved


def load(game_id):
    """The stored game, or 404."""
    game = store.load_game(get_db(), game_id)
    if game is None:
        abort(404)
    return game

# The caches, per process, least recently used out first. Every key holds the game's revision
# (its save counter), so nothing kept is ever stale: a save makes new keys.
sheets = LRUCache(2048)       # (game, revision, language) -> (game, sheet)
fragments = LRUCache(4096)    # the live part of a page, as each kind of viewer sees it
pushed = LRUCache(4096)       # the live sheet's event as every stream sends it, in bytes (web/live.py)
pictures = LRUCache(64)       # the result picture (web/sharing.py)
LOCK = threading.Lock()


def remembered(cache, key, make):
    """cache[key], made when missing (outside the lock: two requests may both make it, alike)."""
    with LOCK:
        value = cache.get(key)
    if value is None:
        value = make()
        with LOCK:
            cache[key] = value
    return value


def load_sheet(game_id):
    """The game, its sheet and its revision, read in one snapshot; the sheet is computed once per save."""
    db, found = get_db(), {}
    with db.atomic():
        revision = store.revision(db, game_id)
        if revision is None:
            abort(404)
        # The sheet holds words (the tie-break), so it is kept per language too.
        game, sheet = remembered(sheets, (game_id, revision, language()), lambda: scored(load(game_id), db, found))
    keep_found(db, found)
    return game, sheet, revision


def scored(game, db, found):
    """(the game, its sheet) drawn by read_here: the answers the pool found added to `found`."""
    sheet, answers = read_here(lambda: compute_sheet(game, skip_broken=True), db)
    found.update(answers)
    return game, sheet


def read_here(compute, db):
    """(compute(), the answers the pool found for it): a computation of the sheet's (scorer.sheet's
    solve answers its hands) with no hand solved on this process's event loop. Each hand's answer is
    the one this process remembers, else the one stored with the rounds (web/store/solutions.py:
    another worker saved and solved it), else solved by the solver's pool, every such hand of the
    computation at once (a round saved before answers were stored, or whose answers were trimmed); a
    busy pool: 503, nothing solved here."""
    return read_through(compute, lambda key: store.stored_solution(db, key), solved_elsewhere)


def without_solving(compute):
    """compute() as read_here makes it, and the answers the pool found stored for the next time."""
    db = get_db()
    value, found = read_here(compute, db)
    keep_found(db, found)
    return value


def solved_elsewhere(keys):
    """{key: Solution} of those hands, from the solver's pool, pool.SOLVER_HANDS a job (no client's
    budget: the hands of stored rounds, solved once, then stored)."""
    found = {}
    try:
        for start in range(0, len(keys), pool.SOLVER_HANDS):
            found.update(solved(solving.solutions, keys[start:start + pool.SOLVER_HANDS]))
    except pool.Busy:
        abort(503)
    return found


def keep_found(db, found):
    """Store the answers the pool found, for every process's next draw; not within a caller's
    transaction (the next draw stores them), nor where the disk cannot write (the page is served all
    the same)."""
    if not found or db.conn.in_transaction:
        return
    try:
        with store.writing(db):
            store.keep_solutions(db, found)
    except sqlite3.Error:
        pass

def last_change_mark(game_id):
    """What the live sheet says of the game's last save ('3:2': round 3 at version 2; '' after an
    Undo): a page offering to undo another save hides the offer (static/js/app.js)."""
    last = store.last_change(get_db(), game_id)
    return f"{last['number']}:{last['version']}" if last and not last['undo'] else ''


def live_etag(revision, keeper):
    edit = ('-e' if request.args.get('edit') == '1' else '') + ('-tv' if request.args.get('view') == 'tv' else '')
    return f'"{revision}-{"k" if keeper else "v"}{edit}-{language()}"'

def sheet_context(game_id, keeper, view=None):
    game, result, revision = load_sheet(game_id)
    view = view or ('tv' if request.args.get('view') == 'tv' else 'sheet')
    # A finished game opens read-only; its scorekeeper may still ask to correct a round.
    editable = keeper and (not result.finished or request.args.get('edit') == '1')
    colours = store.colours(get_db(), game_id)
    context = live_part(game_id, result, colours, keeper, editable, view,
                        at=datetime.now(timezone.utc).isoformat(timespec='seconds'),     # when the page was drawn
                        rematch=store.rematch_of(get_db(), game_id) if result.finished else None,
                        etag=live_etag(revision, keeper), revision=revision,
                        last_save=last_change_mark(game_id) if keeper else '')
    fragment = 'games/_tv.html' if view == 'tv' else 'games/_live.html'
    context['live_html'] = remembered(fragments, (game_id, revision, keeper, editable, language(), view),
                                      lambda: Markup(render_template(fragment, **context)))
    return context

def readable_sheet(game_id):
    """The game and its sheet for an export or a printout; a round that cannot be scored stops them
    with a page that says which round and how to correct it (never a file that lies by omission)."""
    game, result, revision = load_sheet(game_id)
    if result.broken:
        number, why = min(result.broken.items())
        abort(Response(render_template('games/broken.html', game_id=game_id, number=number, why=why,
                                       keeper=is_keeper(game_id)), status=409))
    return game, result
