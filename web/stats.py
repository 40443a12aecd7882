"""/stats: players across the finished games kept on this phone, and merging two spellings."""

from dataclasses import dataclass

from flask import Blueprint, flash, redirect, render_template, request, session, url_for
from flask_babel import gettext as _
from flask_babel import ngettext

from scorer.limits import MAX_ALIASES
from scorer.stats import merge as merge_names
from scorer.stats import names, player_stats
from scorer.stats import unmerge as unmerge_name

from . import store
from .access import browser, browser_token
from .context import kept_finished
from .db import get_db
from .forms import EmptyForm, MergeForm

bp = Blueprint('stats', __name__)

# The bars of a player's card: the box in the chart's own units (the card is at least this many
# px wide at 360 px, so a unit is at least a pixel) and the type of its figures.
CHART_WIDTH, CHART_HEIGHT, CHART_TYPE = 280, 70, 12




@dataclass(frozen=True)
class Bar:
    x: float
    y: float
    w: float
    h: float
    round: int
    value: float
    label: str          # the value as the bar says it, in whole points
    label_y: float

    @property
    def middle(self):
        return round(self.x + self.w / 2, 1)


@dataclass(frozen=True)
class Bars:
    bars: list
    width: int
    height: int         # of the bars, from the axis up
    top: float          # room above the bars for their values
    bottom: float       # room below the axis for the round numbers
    size: int           # the type, in the chart's own units


def round_bars(values, width=CHART_WIDTH, height=CHART_HEIGHT, size=CHART_TYPE):
    """The average penalty of each round as bars in a box `width` wide, each with its value above
    it and its round below, in type of `size` units. The chart is drawn at least as wide as its box
    on every page (a card on a 360 px phone is wider), so a unit is never less than a pixel. Where
    the values are too wide to stand side by side, every other one stands a line higher."""
    if not values:
        return Bars([], width, height, size + 3, size + 4, size)
    top = max(values.values()) or 1
    step = width / max(values)
    labels = {n: '%d' % (v + 0.5) for n, v in values.items()}
    crowded = max(len(text) for text in labels.values()) * 0.62 * size + 2 > step
    bars = []
    for n, v in values.items():
        h = round(v / top * height, 1)
        lift = size + 1 if crowded and n % 2 == 0 else 0
        bars.append(Bar(round((n - 1) * step + 1, 1), round(height - h, 1), round(step - 2, 1), h, n, round(v, 1),
                        labels[n], round(height - h - 3 - lift, 1)))
    return Bars(bars, width, height, (2 if crowded else 1) * (size + 1) + 3, size + 4, size)


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
                           typed=as_typed(spellings), round_bars=round_bars, games=len(done))


def as_typed(spellings):
    """Each merged spelling (kept case-folded) as a player typed it in these games: {'ana': 'Ana'}
    (a page shows 'Ana counts as Bruno', not the kept 'ana')."""
    return {n.casefold(): n for n in spellings}


@bp.post('/stats/merge')
def merge():
    form = MergeForm()
    spellings = names(g['summary'] for g in kept_finished())
    if form.validate_on_submit() and form.spelling.data in spellings and form.name.data in spellings:
        if form.spelling.data.casefold() == form.name.data.casefold():
            flash(_('Those are the same name already (names are matched regardless of case).'))
        elif len(aliases()) >= MAX_ALIASES:
            flash(ngettext('This phone keeps at most %(num)d merged spelling: undo it first.',
                           'This phone keeps at most %(num)d merged spellings: undo one first.', MAX_ALIASES))
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
        typed = as_typed(names(g['summary'] for g in kept_finished())).get(spelling.casefold(), spelling)
        flash(_('%(spelling)s counts on its own again.', spelling=typed))
    return redirect(url_for('stats.stats'))
