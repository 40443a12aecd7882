"""Games: the list, a new game, the scoresheet, the scorekeeper link and the handover it leads to,
colours, rematch, delete, history."""

import sqlite3

from flask import Blueprint, abort, flash, jsonify, redirect, render_template, request, url_for
from flask_babel import gettext as _

from scorer.chart import COLOURS
from scorer.i18n import listing
from scorer.limits import MAX_KEY
from scorer.sheet import Game

from . import ratelimit, store
from .access import (browser, browser_token, device, held_tables, is_keeper, keeper_post, kept_games, may_add_to_table,
                     remember, require_keeper, table_or_404)
from .db import get_db
from .errors import storage_message
from .headers import personal
from .forms import (SETTINGS, EmptyForm, HandoverForm, ImportForm, KeeperForm, KeeperLinkForm, NewGameForm, RematchForm,
                    colours_form)
from .context import kept_finished, qr_svg, reach_advice, redo_offer, seat_context, undo_offer
from .sheets import load, sheet_context
from .tabling import join_table

bp = Blueprint('games', __name__)


@bp.get('/')
def index():
    playing = [g for g in store.list_games(get_db(), kept_games()) if not g['finished']]
    return render_template('games/index.html', playing=playing, done=kept_finished(), form=ImportForm(),
                           tables=held_tables())

@bp.route('/games/new', methods=['GET', 'POST'])
def new_game():
    form = NewGameForm()
    errors, status, headers = {}, 200, {}
    answer_json = 'application/json' in request.headers.get('Accept', '')     # offline.js sending a game
    if request.method == 'GET' and request.args.get('table'):
        form.table.data = request.args['table']
    made_here = form.made_here.data if request.method == 'POST' and store.is_game_id(form.made_here.data) else None
    table = in_table(form.table.data, sent=made_here is not None)
    if form.validate_on_submit():
        game = form.made
        try:
            ratelimit.spend('game')
            game_id, how = create(game, made_here, form.made_key.data, table and table['id'])
        except ratelimit.OverBudget as e:
            errors['form'], status = e.description, 429            # what was typed stays in the form
            headers = {'Retry-After': str(e.retry_after)}
        except sqlite3.OperationalError as e:
            errors['form'], status = storage_message(e), 503      # what was typed stays in the form
            if errors['form'] is None:
                raise
        else:
            if how == 'gone':
                errors['form'], status = _('This game was sent before, and deleted since on the server.'), 410
            else:
                if not request.headers.get('X-Keep'):            # a phone sending a game it made offline: no news
                    flash(_('Game created. %(dealer)s deals round 1.', dealer=game.dealer(1)))
                sheet_url = url_for('games.sheet', game_id=game_id)
                response = (jsonify(id=game_id, sheet=sheet_url, made_here=made_here, moved=how == 'moved',
                                    table=table and table['id'])
                            if answer_json else redirect(sheet_url))
                return remember(response, game_id)
    elif request.method == 'POST':
        errors = form.problems or {'form': _('Some fields need a look.')}
        status = 400 if form.players.strays else 422             # a field no page sends: a made-up form
    if answer_json and request.method == 'POST':
        return jsonify(errors={k: str(v) for k, v in errors.items()}), status, headers
    known = sorted(store.kept_players(get_db(), browser()) if browser() else [], key=str.casefold)
    personal()                                 # the names this browser played with
    return render_template('games/new.html', form=form, errors=errors, settings=SETTINGS, known=known,
                           game_id_format=store.GAME_ID, table=table), status, headers


def in_table(table_id, sent=False):
    """The table a new game is started in (from the table's page), if any: 404 for no such table, 403
    without the table's keeper rights (web/access.py may_add_to_table, proved by this browser's cookie
    as every keeper's right is). A game a phone made offline and `sent` now is made all the same: with
    those rights in the table, without them (or with no such table any more) outside it (None), which
    the phone says; refused, it would be left on the phone."""
    if not table_id:
        return None
    if sent:
        found = store.load_table(get_db(), table_id)
        return found if found and may_add_to_table(None, table_id) else None
    table = table_or_404(table_id)
    if not may_add_to_table(None, table_id):
        abort(403)
    return table


def create(game, made_here=None, made_key=None, table_id=None):
    """The new game's id, and how it was made (store.create_made_here). A game a phone made offline
    keeps the id the phone gave it, unless that id is taken (or was a deleted game's): then it gets
    a new one. Sent again (its first answer lost on the way), it is the same game, known by the
    key the phone sent with it, with or without this browser's cookie."""
    if made_here is None:
        game_id = store.create_game(get_db(), game)[0]
        if table_id:
            join_table(game_id, table_id, game.players)
        return game_id, 'new'
    key = made_key if made_key and 16 <= len(made_key) <= MAX_KEY else None
    game_id, how = store.create_made_here(get_db(), game, made_here, key, browser())
    if table_id and how != 'gone':
        join_table(game_id, table_id, game.players)      # sent again: already in it, nothing changes
    return game_id, how


@bp.post('/games/<game_id>/rematch')
@keeper_post(RematchForm)
def rematch(game_id, game, form):
    """A new game with the same players in the same seats, the same rules, and the next dealer."""
    ratelimit.spend('game')
    after_last = (game.first_dealer + game.rules.last_round) % len(game.players)
    new = Game(game.players, game.rules, after_last, {}, game.title, game.place, form.date())
    new_id, key = store.create_game(get_db(), new)
    store.set_rematch(get_db(), game_id, new_id)
    table_id = store.table_of(get_db(), game_id)
    if table_id:                                   # a rematch stays in its table
        join_table(new_id, table_id, new.players)
    flash(_('Rematch! %(dealer)s deals round 1.', dealer=new.dealer(1)))
    return remember(redirect(url_for('games.sheet', game_id=new_id)), new_id, 'rematch')

@bp.get('/games/<game_id>')
def sheet(game_id, key=None, mode=None):
    """The scoresheet; for its scorekeepers also the share link, Undo, who keeps score, and (just
    made) a scorekeeper link."""
    keeper = is_keeper(game_id)
    context = sheet_context(game_id, keeper)
    context.update(seat_context(game_id, context['sheet'].game, keeper))
    if keeper:
        viewer = url_for('games.sheet', game_id=game_id, _external=True)
        context.update(undo=undo_offer(game_id), redo=redo_offer(game_id), link_form=EmptyForm(), viewer_link=viewer, qr=qr_svg(viewer),
                       local_only=reach_advice(request.host, request.environ.get('SERVER_SOFTWARE', '')), keepers=store.keepers(get_db(), game_id, browser()),
                       keeper_form=KeeperForm(), link_mode=mode,
                       keeper_link=url_for('games.keeper', game_id=game_id, _external=True) + '#' + key if key else None)
    return render_template('games/sheet.html', **context)

@bp.post('/games/<game_id>/keeper-link')
@keeper_post(KeeperLinkForm)
def keeper_link(game_id, game, form):
    """A new scorekeeper link: its key is shown this once (the store keeps only its hash), and the
    link made before it stops working. Whoever opens it keeps score too (`share`), or instead of
    this browser (`handover`)."""
    mode = form.mode.data or 'share'
    return sheet(game_id, key=store.new_edit_key(get_db(), game_id, mode, browser()), mode=mode)

@bp.post('/games/<game_id>/keepers/remove')
@keeper_post(KeeperForm)
def remove_keeper(game_id, game, form):
    """A scorekeeper takes another browser's scorekeeping away (a phone lost, or lent), for good: the
    scorekeeper link stops working with it. The game's maker no other keeper can remove."""
    done = store.remove_keeper(get_db(), game_id, form.handle.data or '', browser())
    if done == 'removed':
        flash(_('That phone no longer keeps score of this game. The scorekeeper link stopped working too: '
                'make a new one to let another phone keep score.'))
    elif done == 'maker':
        flash(_('That phone made this game: no other phone can take its scorekeeping away. Nothing changed.'))
    else:
        flash(_('That phone did not keep score of this game any more: nothing changed.'))
    return redirect(url_for('games.sheet', game_id=game_id) + '#keepers')

@bp.post('/games/<game_id>/colours')
@keeper_post(lambda game: colours_form(len(game.players), len(COLOURS)))
def colours(game_id, game, form):
    """The scorekeeper chooses each player's colour."""
    chosen = [form[f'colour-{seat}'].data for seat in range(len(game.players))]
    store.set_colours(get_db(), game_id, chosen)
    flash(_('Colours saved.'))
    return redirect(url_for('games.sheet', game_id=game_id))

@bp.route('/games/<game_id>/keeper', methods=['GET', 'POST'])
def keeper(game_id):
    """The private scorekeeper link, /games/<id>/keeper#<key>: the key rides in the fragment, which
    no browser sends, and handover.js posts it; so no request line, and no access log, ever holds it."""
    stored = store.edit_key_hash(get_db(), game_id)
    if stored is None:
        abort(404)
    form = HandoverForm()
    status = 200
    if form.validate_on_submit():
        if not form.key.data:                  # a post with no key at all: nothing to check
            form.key.errors, status = [_('No key was sent: open the scorekeeper link again.')], 400
        else:
            browser_token(make=True)
            mode = store.take_keeping(get_db(), game_id, form.key.data.strip(), browser(), device())
            if mode == 'handover':
                flash(_('This phone keeps score of this game now. The phone that handed it over no longer does.'))
                return redirect(url_for('games.sheet', game_id=game_id))
            if mode == 'share':
                flash(_('This phone keeps score of this game now. The phone that shared the link does too.'))
                return redirect(url_for('games.sheet', game_id=game_id))
            form.key.errors, status = [_('That is not the key of this game: open the scorekeeper link again.')], 403
    elif form.key.errors:                      # a key past MAX_KEY, or a file where the key goes
        status = 400
    return render_template('games/keeper.html', game_id=game_id, form=form), status

@bp.route('/games/<game_id>/delete', methods=['GET', 'POST'])
def delete(game_id):
    """Delete a game, after a confirmation."""
    require_keeper(game_id)
    game = load(game_id)
    form = EmptyForm()
    if form.validate_on_submit():
        store.delete_game(get_db(), game_id)
        flash(_('Deleted the game of %(players)s.', players=listing(game.players)))
        return redirect(url_for('games.history'))
    return render_template('games/delete.html', game=game, game_id=game_id, form=form)

@bp.get('/history')
def history():
    """The finished games this phone kept score of, newest first, with their winners."""
    finished = kept_finished()
    return render_template('games/history.html', games=finished)
