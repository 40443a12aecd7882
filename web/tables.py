"""Tables: a group that plays together and every game it plays. Making one, its page (its games,
standings, head to head and the running count of wins, by kind and period; scorer/tables.py
computes them), its big screen and printout in the table's language, its keeper link and keepers,
names joined, a finished game added, its file and CSV, and a table file imported whole. Who may
do what is web/access.py's."""

import re
import sqlite3
from datetime import date

from babel.numbers import get_decimal_symbol
from cachetools import LRUCache
from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from werkzeug.exceptions import RequestEntityTooLarge
from flask_babel import get_locale
from flask_babel import gettext as _

from scorer.chart import wins_race
from scorer.gamefile import GameFileError
from scorer.rules import kind_words
from scorer.stats import merge as merge_names
from scorer.stats import names
from scorer.stats import unmerge as unmerge_name
from scorer.tablefile import TableGame, table_csv, table_json, too_large
from scorer.tables import KINDS, PERIODS, game_lines, kinds_played, table_figures

from . import drawing, errors, pool, store
from .access import (browser, device, hold, is_table_keeper, kept_games, may_add_to_table, table_keeper_post,
                     table_or_404)
from .context import download, print_fonts, qr_svg, read_upload
from .db import get_db
from .forms import EmptyForm, KeeperForm, MergeForm, TableForm, TableGameForm, TableImportForm
from .sheets import remembered, without_solving
from .solved import answers
from .tabling import colours_of, join_table, table_games
from .solved import solved

bp = Blueprint('tables', __name__)

figures_cache = LRUCache(256)     # (table, its stamp, kind, period, today, language) -> what its page shows
LATEST_GAMES = 20                  # the finished games the page lists, the newest (all: the CSV and the file)


def chosen(value, allowed, default):
    """A filter as the page's link or form gave it, or its default (anything else is no filter)."""
    return value if value in allowed else default


def shown(table_id, table):
    """What the table's page shows (its games, the figures of one kind and period, the chart), made
    once for the table's state and kept: a save, a game joining or deleted, a merge moves the stamp."""
    stamp = store.table_stamp(get_db(), table_id)
    period = chosen(request.args.get('period'), PERIODS, 'all')
    asked = chosen(request.args.get('kind'), KINDS, None)
    today = date.today()
    made = remembered(figures_cache, (table_id, stamp, asked, period, today, str(get_locale())),
                      lambda: figures(table_id, table, asked, period, today))
    return {**made, 'period_words': period_words()}


def period_words():
    """The periods a table's figures are counted over, in words, in PERIODS' order."""
    return dict(zip(PERIODS, (_('This month'), _('This year'), _('All time'))))


def figures(table_id, table, asked, period, today):
    games = table_games(table_id)
    kinds = kinds_played(games) or [KINDS[0]]
    kind = chosen(asked, kinds, kinds[0])
    counted = table_figures(games, table['merges'], kind, period, today)
    players = [p.name for p in counted.standings]
    lines = game_lines(games, table['merges'])
    rounds = {g['id']: (g['next_round'], g['last_round']) for g in games}
    return {'kinds': kinds, 'kind': kind, 'period': period, 'figures': counted,
            'chart': wins_race([point.wins for point in counted.race], players, colours_of(table, players)),
            'chart_colours': dict(zip(players, colours_of(table, players))),
            'live': [(line, rounds[line.id]) for line in lines if not line.finished],
            'finished': [line for line in lines if line.finished][:LATEST_GAMES],
            'more': max(0, sum(line.finished for line in lines) - LATEST_GAMES),
            'names': names(g['summary'] for g in games)}


def language_options():
    from .i18n import LANGUAGES
    return list(LANGUAGES.items())


@bp.route('/tables/new', methods=['GET', 'POST'])
def new_table():
    """A new table: its name and language; this browser keeps it."""
    form = TableForm()
    form.language.choices = language_options()
    if request.method == 'GET':
        form.language.data = str(get_locale())
    status = 200
    if form.validate_on_submit():
        table_id = store.create_table(get_db(), form.name.data, form.language.data, browser_made(), device())
        flash(_('Table made. Share its link: whoever opens it sees the table\'s games and standings.'))
        return redirect(url_for('tables.page', table_id=table_id))
    if request.method == 'POST':
        status = 422                                 # what was typed stays in the form, the fault named
    return new_page(form), status


def new_page(form=None, import_form=None, import_error=None):
    """The new-table page: its form (a fresh one unless given) and the table file's import form,
    with what the import was refused for."""
    if form is None:
        form = TableForm(formdata=None)              # never read from a request (one too large, say)
        form.language.choices = language_options()
        form.language.data = str(get_locale())
    return render_template('tables/new.html', form=form, import_form=import_form or TableImportForm(formdata=None),
                           import_error=import_error)


def browser_made():
    from .access import browser_token
    browser_token(make=True)
    return browser()


@bp.get('/tables/<table_id>')
def page(table_id, key=None):
    """The table's page: anyone with its link reads it (and holds it: on its start page from now on);
    its keepers see what they may change."""
    table = table_or_404(table_id)
    keeper = is_table_keeper(table_id)
    if not keeper:
        try:
            hold(table_id)
        except sqlite3.OperationalError:
            pass                                   # a disk that cannot be written: still read
    context = {'table': table, 'table_id': table_id, 'keeper': keeper, 'kind_words': kind_words,
               **shown(table_id, table)}
    if keeper:
        viewer = url_for('tables.page', table_id=table_id, _external=True)
        context.update(viewer_link=viewer, qr=qr_svg(viewer), link_form=EmptyForm(), keeper_form=KeeperForm(),
                       keepers=store.table_keepers(get_db(), table_id, browser()), merge_form=merge_form(context),
                       add_form=add_form(), keeper_link=url_for('tables.keeper', table_id=table_id,
                                                                _external=True) + '#' + key if key else None)
    return render_template('tables/table.html', **context)


def merge_form(context):
    form = MergeForm()
    form.spelling.choices = form.name.choices = [(n, n) for n in context['names']]
    return form


def addable():
    """The finished games this browser keeps score of that are in no table yet: [(id, words)]."""
    db = get_db()
    return [(g['id'], f"{g['date']} · {', '.join(g['players'])}") for g in store.list_games(db, kept_games())
            if g['finished'] and store.table_of(db, g['id']) is None]


def add_form():
    form = TableGameForm()
    form.game.choices = addable()
    return form


@bp.get('/tables/<table_id>/tv')
def big_screen(table_id):
    """The table's standings on a big screen, in the table's language."""
    table = table_or_404(table_id)
    return render_template('tables/tv.html', table=table, table_id=table_id, kind_words=kind_words,
                           **shown(table_id, table))


@bp.get('/tables/<table_id>/print')
def print_table(table_id):
    """The table's standings on one printed page, in the table's language."""
    table = table_or_404(table_id)
    return render_template('tables/print.html', table=table, table_id=table_id, kind_words=kind_words,
                           fonts=print_fonts(), **shown(table_id, table))


@bp.post('/tables/<table_id>/keeper-link')
@table_keeper_post()
def keeper_link(table_id, table, form):
    """A new keeper link for the table: its key shown this once, the link before it ended."""
    return page(table_id, key=store.new_table_key(get_db(), table_id))


@bp.route('/tables/<table_id>/keeper', methods=['GET', 'POST'])
def keeper(table_id):
    """The table's keeper link, /tables/<id>/keeper#<key>: the key rides in the fragment, which
    handover.js posts, so no request line holds it."""
    from .forms import HandoverForm
    table_or_404(table_id)
    form = HandoverForm()
    status = 200
    if form.validate_on_submit():
        if not form.key.data:
            form.key.errors, status = [_('No key was sent: open the keeper link again.')], 400
        elif store.take_table_keeping(get_db(), table_id, form.key.data.strip(), browser_made(), device()):
            flash(_('This phone keeps this table now.'))
            return redirect(url_for('tables.page', table_id=table_id))
        else:
            form.key.errors, status = [_('That is not the key of this table: open the keeper link again.')], 403
    elif form.key.errors:
        status = 400
    return render_template('tables/keeper.html', table_id=table_id, form=form), status


@bp.post('/tables/<table_id>/keepers/remove')
@table_keeper_post(KeeperForm)
def remove_keeper(table_id, table, form):
    """A keeper takes another browser's keeping of the table away, for good (it still reads)."""
    done = store.remove_table_keeper(get_db(), table_id, form.handle.data or '', browser())
    flash({'removed': _('That phone no longer keeps this table. The keeper link stopped working too.'),
           'maker': _('That phone made this table: no other phone can take its keeping away. Nothing changed.')}.get(
        done, _('That phone did not keep this table any more: nothing changed.')))
    return redirect(url_for('tables.page', table_id=table_id) + '#keepers')


@bp.post('/tables/<table_id>/games')
@table_keeper_post(lambda table: add_form())
def add_game(table_id, table, form):
    """A finished game this browser keeps score of joins the table (the form lists only those)."""
    if not may_add_to_table(form.game.data, table_id):
        abort(403)
    game = store.load_game(get_db(), form.game.data)
    join_table(form.game.data, table_id, game.players)
    flash(_('The game is in the table now.'))
    return redirect(url_for('tables.page', table_id=table_id))


@bp.post('/tables/<table_id>/merge')
@table_keeper_post()
def merge(table_id, table, form):
    """Two spellings of the table's players count as one person, at this table (for every phone)."""
    spellings = names(g['summary'] for g in table_games(table_id))
    spelling, name = request.form.get('spelling', ''), request.form.get('name', '')
    if spelling in spellings and name in spellings and spelling.casefold() != name.casefold():
        store.set_table_merges(get_db(), table_id, merge_names(table['merges'], spelling, name))
        flash(_('%(spelling)s now counts as %(name)s.', spelling=spelling, name=name))
    else:
        flash(_('Choose two names from the list.'))
    return redirect(url_for('tables.page', table_id=table_id))


@bp.post('/tables/<table_id>/unmerge')
@table_keeper_post()
def unmerge(table_id, table, form):
    spelling = request.form.get('spelling', '')
    if spelling.casefold() in table['merges']:
        store.set_table_merges(get_db(), table_id, unmerge_name(table['merges'], spelling))
        flash(_('%(spelling)s counts on its own again.', spelling=spelling))
    return redirect(url_for('tables.page', table_id=table_id))


def file_games(table_id):
    """The table's games as its file carries them: TableGame(id, day, game, earlier) of each."""
    db = get_db()
    return [TableGame(g['id'], g['date'], store.load_game(db, g['id']), store.earlier_versions(db, g['id']))
            for g in reversed(store.list_games(db, table_id=table_id))]


def file_table(table):
    return {'name': table['name'], 'language': table['language'], 'aliases': table['merges'],
            'colours': table['colours']}


@bp.get('/tables/<table_id>/export.json')
def export(table_id):
    """The table and all its games as one file, to import back whole."""
    table = table_or_404(table_id)
    try:
        games = file_games(table_id)
        text = without_solving(lambda: table_json(file_table(table), games))
    except GameFileError as e:
        abort(409, str(e))
    return download(text, 'application/json', table_filename(table['name'], 'json'))


@bp.get('/tables/<table_id>/export.csv')
def export_csv(table_id):
    """The table's games, a game a line."""
    table = table_or_404(table_id)
    comma = get_decimal_symbol(str(get_locale())) == ','
    return download(table_csv(table_games(table_id), table['merges'], ';' if comma else ','), 'text/csv',
                    table_filename(table['name'], 'csv'))


@bp.post('/tables/import')
def import_table():
    """A table file imported: read and checked whole in the pool (its hands solved there), then the
    table and every game stored in one transaction; a file with anything wrong imports nothing."""
    form = TableImportForm()
    read, refused = read_upload(form, form.table_file, drawing.table_file, _('Choose a table file to import.'))
    if not refused:
        table_id = store.import_table(get_db(), read.table['name'], read.table['language'], read.table['aliases'],
                                      read.table['colours'], [(g.game, g.earlier) for g in read.games],
                                      browser_made(), device(), solutions=answers())
        flash(_('Table imported. This phone keeps it.'))
        return redirect(url_for('tables.page', table_id=table_id))
    error, status, headers = refused
    return new_page(import_form=form, import_error=error), status, headers


@bp.errorhandler(RequestEntityTooLarge)
def too_large_body(e):
    """A body past its route's limit (web/deadline.py body_limit): at the import, the import page
    naming the table file's limit, nothing imported; at any other route of tables, the app's page."""
    if request.endpoint != 'tables.import_table':
        return errors.page(*errors.PAGES[413])(e)
    return new_page(import_error=_('Nothing was imported: %(error)s.', error=too_large())), 413


def table_filename(name, ext):
    """A file's name for a table: its name (in any script), 'club-de-los-jueves.json'."""
    stem = re.sub(r'-+', '-', ''.join(ch if ch.isalnum() else '-' for ch in name)).strip('-').lower()
    return f'{stem or "table"}.{ext}'
