"""/stats: players across the finished games kept on this phone, and merging two spellings."""

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import SelectField

from scorer.stats import names, player_stats

from . import store
from .access import kept_games
from .db import get_db

bp = Blueprint('stats', __name__)


class MergeForm(FlaskForm):
    spelling = SelectField(_l('Count this spelling'), choices=[], validate_choice=False)
    name = SelectField(_l('as'), choices=[], validate_choice=False)


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


@bp.get('/stats')
def stats():
    games = kept_finished()
    aliases = store.aliases(get_db())
    form = MergeForm()
    spellings = names(games)
    form.spelling.choices = form.name.choices = [(n, n) for n in spellings]
    return render_template('stats/stats.html', stats=player_stats(games, aliases), form=form, aliases=aliases,
                           chart=chart, games=len(games))


@bp.post('/stats/merge')
def merge():
    form = MergeForm()
    spellings = names(kept_finished())
    if form.validate_on_submit() and form.spelling.data in spellings and form.name.data in spellings:
        if form.spelling.data.casefold() == form.name.data.casefold():
            flash(_('Those are the same name already (names are matched regardless of case).'))
        else:
            store.merge_names(get_db(), form.spelling.data, form.name.data)
            flash(_('%(spelling)s now counts as %(name)s.', spelling=form.spelling.data, name=form.name.data))
    else:
        flash(_('Choose two names from the list.'))
    return redirect(url_for('stats.stats'))


@bp.post('/stats/unmerge')
def unmerge():
    form = FlaskForm()
    if form.validate_on_submit() and request.form.get('spelling'):
        store.unmerge(get_db(), request.form['spelling'])
        flash(_('%(spelling)s counts on its own again.', spelling=request.form['spelling']))
    return redirect(url_for('stats.stats'))
