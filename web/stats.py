"""/stats: players across the finished games kept on this phone, and merging two spellings."""

from flask import Blueprint, flash, redirect, render_template, request, session, url_for
from flask_babel import gettext as _

from scorer.limits import MAX_ALIASES
from scorer.stats import merge as merge_names
from scorer.stats import names, player_stats
from scorer.stats import unmerge as unmerge_name

from . import store
from .access import kept_games
from .db import get_db
from .forms import EmptyForm, MergeForm

bp = Blueprint('stats', __name__)


def kept_finished():
    db = get_db()
    return [store.load_game(db, g['id']) for g in store.list_games(db, kept_games()) if g['finished']]


def chart(values, width=220, height=60):
    """Bars for the average penalty of each round, scaled to the box: a list of (x, y, w, h, round, value)."""
    if not values:
        return []
    top = max(values.values()) or 1
    step = width / max(values)
    return [(round((n - 1) * step + 1, 1), round(height - v / top * height, 1), round(step - 2, 1),
             round(v / top * height, 1), n, round(v, 1)) for n, v in values.items()]


def aliases():
    """This browser's merged spellings, kept in its own session cookie (never shared with another browser)."""
    kept = session.get('aliases')
    if not isinstance(kept, dict):
        return {}
    return {k: v for k, v in kept.items() if isinstance(k, str) and isinstance(v, str)}


def keep(merged):
    session['aliases'] = dict(list(merged.items())[:MAX_ALIASES])
    session.permanent = True


@bp.get('/stats')
def stats():
    games = kept_finished()
    merged = aliases()
    form = MergeForm()
    spellings = names(games)
    form.spelling.choices = form.name.choices = [(n, n) for n in spellings]
    return render_template('stats/stats.html', stats=player_stats(games, merged), form=form, aliases=merged,
                           chart=chart, games=len(games))


@bp.post('/stats/merge')
def merge():
    form = MergeForm()
    spellings = names(kept_finished())
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
