"""Games: the list, a new game, the scoresheet, the scorekeeper link, colours, rematch, delete, history."""

import sqlite3

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _

from scorer.chart import COLOURS
from scorer.sheet import Game

from . import ratelimit, store
from .access import browser, is_keeper, keeper_post, key_matches, kept_games, remember, require_keeper
from .db import get_db
from .errors import storage_message
from .headers import personal
from .forms import SETTINGS, EmptyForm, HandoverForm, ImportForm, NewGameForm, RematchForm, colours_form
from .rounds import undo_offer
from .seats import seat_context
from .sharing import loopback, qr_svg
from .sheets import load, sheet_context
from .stats import kept_finished

bp = Blueprint('games', __name__)


@bp.get('/')
def index():
    playing = [g for g in store.list_games(get_db(), kept_games()) if not g['finished']]
    return render_template('games/index.html', playing=playing, done=kept_finished(), form=ImportForm())

@bp.route('/games/new', methods=['GET', 'POST'])
def new_game():
    form = NewGameForm()
    errors, status, headers = {}, 200, {}
    if form.validate_on_submit():
        game = form.made
        made_here = form.made_here.data if store.is_game_id(form.made_here.data) else None
        try:
            ratelimit.spend('game')
            game_id = create(game, made_here)
        except ratelimit.OverBudget as e:
            errors['form'], status = e.description, 429            # what was typed stays in the form
            headers = {'Retry-After': str(e.retry_after)}
        except sqlite3.OperationalError as e:
            errors['form'], status = storage_message(e), 503      # what was typed stays in the form
            if errors['form'] is None:
                raise
        else:
            if game_id is None:
                errors['form'], status = _('This game was already sent from another phone.'), 409
            else:
                if not request.headers.get('X-Keep'):            # a phone sending a game it made offline: no news
                    flash(_('Game created. %(dealer)s deals round 1.', dealer=game.dealer(1)))
                return remember(redirect(url_for('games.sheet', game_id=game_id)), game_id)
    elif request.method == 'POST':
        errors = form.problems or {'form': _('Some fields need a look.')}
        status = 400 if form.players.strays else 422             # a field no page sends: a made-up form
    known = sorted(store.kept_players(get_db(), browser()) if browser() else [], key=str.casefold)
    personal()                                 # the names this browser played with
    return render_template('games/new.html', form=form, errors=errors, settings=SETTINGS, known=known), status, headers


def create(game, made_here=None):
    """The new game's id. A game a phone made offline keeps the id the phone gave it; sent again
    (its first answer lost on the way), it is the same game, if this browser made it; None if not."""
    try:
        return store.create_game(get_db(), game, made_here)[0]
    except sqlite3.IntegrityError:
        if made_here is None:
            raise
    mine = browser() and store.keeps(get_db(), browser(), made_here)
    return made_here if mine else None

@bp.post('/games/<game_id>/rematch')
@keeper_post(RematchForm)
def rematch(game_id, game, form):
    """A new game with the same players in the same seats, the same rules, and the next dealer."""
    ratelimit.spend('game')
    after_last = (game.first_dealer + game.rules.last_round) % len(game.players)
    new = Game(game.players, game.rules, after_last, {}, game.title, game.place, form.date())
    new_id, key = store.create_game(get_db(), new)
    store.set_rematch(get_db(), game_id, new_id)
    flash(_('Rematch! %(dealer)s deals round 1.', dealer=new.dealer(1)))
    return remember(redirect(url_for('games.sheet', game_id=new_id)), new_id)

@bp.get('/games/<game_id>')
def sheet(game_id, key=None):
    """The scoresheet; for its scorekeeper also the share link, Undo, and (just made) a scorekeeper link."""
    keeper = is_keeper(game_id)
    context = sheet_context(game_id, keeper)
    context.update(seat_context(game_id, context['sheet'].game, keeper))
    if keeper:
        viewer = url_for('games.sheet', game_id=game_id, _external=True)
        context.update(undo=undo_offer(game_id), link_form=EmptyForm(), viewer_link=viewer, qr=qr_svg(viewer),
                       local_only=loopback(request.host),
                       keeper_link=url_for('games.keeper', game_id=game_id, _external=True) + '#' + key if key else None)
    return render_template('games/sheet.html', **context)

@bp.post('/games/<game_id>/keeper-link')
@keeper_post()
def keeper_link(game_id, game, form):
    """A new scorekeeper link: its key is shown this once (the store keeps only its hash), and the
    link made before it stops working."""
    return sheet(game_id, key=store.new_edit_key(get_db(), game_id))

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
        elif stored and key_matches(form.key.data, stored):
            flash(_('This phone keeps score of this game now.'))
            return remember(redirect(url_for('games.sheet', game_id=game_id)), game_id)
        else:
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
        flash(_('Deleted the game of %(players)s.', players=', '.join(game.players)))
        return redirect(url_for('games.history'))
    return render_template('games/delete.html', game=game, game_id=game_id, form=form)

@bp.get('/history')
def history():
    """The finished games this phone kept score of, newest first, with their winners."""
    finished = kept_finished()
    return render_template('games/history.html', games=finished)
