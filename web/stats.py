"""/stats: players across the finished games kept on this phone, and merging two spellings."""

import sqlite3

from flask import Blueprint, flash, redirect, render_template, request, session, url_for
from flask_babel import gettext as _

from scorer.limits import MAX_ALIASES
from scorer.stats import merge as merge_names
from scorer.stats import names, player_stats, summary_of, winner_line
from scorer.stats import unmerge as unmerge_name

from . import store
from .access import browser, browser_token, kept_games
from .db import get_db
from .forms import EmptyForm, MergeForm

bp = Blueprint('stats', __name__)


def kept_finished(rounds=False):
    """The finished games this browser keeps, newest first: their list entries, each with its summary
    (scorer.stats.summary; round by round only when asked) read from the store, or made once per
    revision and kept there."""
    db = get_db()
    games = [g for g in store.list_games(db, kept_games()) if g['finished']]
    kept = store.summaries(db, [g['id'] for g in games], rounds)
    for g in games:
        if g['id'] not in kept:
            kept[g['id']] = summary_of(store.load_game(db, g['id']))
            try:
                store.keep_summary(db, g['id'], g['revision'], kept[g['id']])
            except sqlite3.OperationalError:
                pass                           # a disk that cannot be written: made again next time
        g['summary'] = kept[g['id']]
        g['winner'] = winner_line(g['summary'])
    return games


def chart(values, width=220, height=60):
    """Bars for the average penalty of each round, scaled to the box: a list of (x, y, w, h, round, value)."""
    if not values:
        return []
    top = max(values.values()) or 1
    step = width / max(values)
    return [(round((n - 1) * step + 1, 1), round(height - v / top * height, 1), round(step - 2, 1),
             round(v / top * height, 1), n, round(v, 1)) for n, v in values.items()]


def aliases():
    """This browser's merged spellings, kept on the server under its token (never shared with another
    browser). Merges an earlier version kept in the session cookie move there on first view."""
    old = session.pop('aliases', None)
    if isinstance(old, dict) and old:
        keep({k: v for k, v in old.items() if isinstance(k, str) and isinstance(v, str)})
    return store.merges(get_db(), browser()) if browser() else {}


def keep(merged):
    browser_token(make=True)
    store.set_merges(get_db(), browser(), dict(list(merged.items())[:MAX_ALIASES]))


@bp.get('/stats')
def stats():
    done = [g['summary'] for g in kept_finished(rounds=True) if g['summary']['finished']]
    merged = aliases()
    form = MergeForm()
    spellings = names(done)
    form.spelling.choices = form.name.choices = [(n, n) for n in spellings]
    return render_template('stats/stats.html', stats=player_stats(done, merged), form=form, aliases=merged,
                           chart=chart, games=len(done))


@bp.post('/stats/merge')
def merge():
    form = MergeForm()
    spellings = names(g['summary'] for g in kept_finished())
    if form.validate_on_submit() and form.spelling.data in spellings and form.name.data in spellings:
        if form.spelling.data.casefold() == form.name.data.casefold():
            flash(_('Those are the same name already (names are matched regardless of case).'))
        elif len(aliases()) >= MAX_ALIASES:
            flash(_('This phone keeps at most %(most)d merged spellings: undo one first.', most=MAX_ALIASES))
        else:
            keep(merge_names(aliases(), form.spelling.data, form.name.data))
            flash(_('%(spelling)s now counts as %(name)s.', spelling=form.spelling.data, name=form.name.data))
    else:
        flash(_('Choose two names from the list.'))
    return redirect(url_for('stats.stats'))


@bp.post('/stats/unmerge')
def unmerge():
    form = EmptyForm()
    spelling = request.form.get('spelling', '')
    if form.validate_on_submit() and spelling.casefold() in aliases():
        keep(unmerge_name(aliases(), spelling))
        flash(_('%(spelling)s counts on its own again.', spelling=spelling))
    return redirect(url_for('stats.stats'))
