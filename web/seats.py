"""Players entering their own hands from the share link: take a seat, enter my hand, and the
scorekeeper's round page filling in as they do. Nothing reaches the sheet until the scorekeeper
saves the round.

A seat belongs to the phone that took it: its key lives in an HttpOnly cookie (never in a URL),
and the store keeps only the key's hash.
"""

import sqlite3

from flask import Blueprint, abort, flash, jsonify, redirect, render_template, request, session, url_for
from flask_babel import gettext as _

from scorer.reading import symbols
from scorer.limits import MAX_ROUNDS
from scorer.numbers import read_whole
from scorer.sheet import Entry, EntryError, typed_cards

from . import pool, ratelimit, solving, store
from .access import TWO_YEARS, browser, browser_token, keeper_post, my_seat, require_keeper, seat_cookie
from .db import get_db
from .errors import BUSY, storage_message
from .forms import EmptyForm, HandForm, SelfEntryForm
from .context import drafts_data, moved_back, moved_from
from .sheets import load_sheet
from .solved import solved

bp = Blueprint('seats', __name__)
CATEGORY = 'message'       # flask's category of a flash given none






@bp.post('/games/<game_id>/seats/<int:seat>')
def take(game_id, seat):
    """'I'm Zoë': this phone takes a seat of the game."""
    game, sheet, revision = load_sheet(game_id)
    if not EmptyForm().validate_on_submit() or not 0 <= seat < len(game.players):
        abort(400)
    if not store.self_entry(get_db(), game_id):
        flash(_('The scorekeeper enters every hand in this game.'))
        return redirect(url_for('games.sheet', game_id=game_id))
    if my_seat(game_id) is not None:
        flash(_('This phone already holds a seat of this game.'))
        return redirect(url_for('seats.hand', game_id=game_id))
    browser_token(make=True)           # one seat a browser: known by its token, even on its first visit
    key = store.take_seat(get_db(), game_id, seat, browser())
    if key is None:
        if store.seat_of_browser(get_db(), game_id, browser()) is not None:
            flash(_('This phone already holds a seat of this game.'))
        else:
            flash(_("%(player)s's seat is taken by another phone. If that is wrong, the scorekeeper can free it.",
                    player=game.players[seat]))
        return redirect(url_for('games.sheet', game_id=game_id))
    flash(_('This phone is %(player)s now: enter your hand here each round.', player=game.players[seat]))
    response = redirect(url_for('seats.hand', game_id=game_id))
    give_seat(response, game_id, seat, key)
    return response


@bp.post('/games/<game_id>/follow-rematch')
def follow_rematch(game_id):
    """One tap from a finished game to its rematch; a phone that held a seat takes the same seat there."""
    if not EmptyForm().validate_on_submit():
        abort(400)
    new_id = store.rematch_of(get_db(), game_id)
    if new_id is None:
        abort(404)
    seat = my_seat(game_id)
    response = redirect(url_for('games.sheet', game_id=new_id))
    if seat is not None and store.self_entry(get_db(), new_id) and my_seat(new_id) is None:
        browser_token(make=True)
        key = store.take_seat(get_db(), new_id, seat, browser())
        if key is not None:
            game = store.load_game(get_db(), new_id)
            flash(_('This phone is %(player)s again: enter your hand here each round.', player=game.players[seat]))
            give_seat(response, new_id, seat, key)
    return response


def give_seat(response, game_id, seat, key):
    """The seat's key in this phone's HttpOnly cookie (never in a URL)."""
    response.set_cookie(seat_cookie(game_id), f'{seat}.{key}', max_age=TWO_YEARS, httponly=True, samesite='Lax',
                        secure=request.is_secure)


@bp.post('/games/<game_id>/seats/<int:seat>/free')
@keeper_post()
def free(game_id, game, form, seat):
    """The scorekeeper frees a seat (a phone lost, or the wrong player took it)."""
    if not 0 <= seat < len(game.players):
        abort(400)
    store.free_seat(get_db(), game_id, seat)
    flash(_("%(player)s's seat is free again.", player=game.players[seat]))
    return redirect(url_for('games.sheet', game_id=game_id))


@bp.post('/games/<game_id>/self-entry')
@keeper_post(SelfEntryForm)
def self_entry(game_id, game, form):
    """The scorekeeper turns players' own entry on or off for the game."""
    store.set_self_entry(get_db(), game_id, form.allowed.data == '1')
    flash(_('Players enter their own hands now.') if form.allowed.data == '1'
          else _('Only the scorekeeper enters hands now.'))
    return redirect(url_for('games.sheet', game_id=game_id))


@bp.route('/games/<game_id>/hand', methods=['GET', 'POST'])
def hand(game_id):
    """My hand: the seated player enters their own cards (or went out, or points) for the round being played."""
    game, sheet, revision = load_sheet(game_id)
    seat = my_seat(game_id)
    if seat is None:
        flash(_('Take your seat first: tap your name.'))
        return redirect(url_for('games.sheet', game_id=game_id))
    player, number = game.players[seat], sheet.next_round
    allowed = store.self_entry(get_db(), game_id)
    drafts = store.drafts(get_db(), game_id, number) if number else {}
    mine = drafts.get(seat)
    form = HandForm(data={'went_out': mine['went_out'], 'cards': symbols(mine['cards']), 'points': mine['points']}
                    if mine else None)
    result, problem, status, late, headers = None, None, 200, None, {}
    sent = bool(number and allowed and form.validate_on_submit())
    if sent and read_whole(form.round.data or '', MAX_ROUNDS) != number:
        # A hand for a round that was saved meanwhile (or a form that does not say which round):
        # refused, shown back as sent, and the form is blank for the round being played now.
        late = {'round': read_whole(form.round.data or '', MAX_ROUNDS), 'went_out': form.went_out.data,
                'cards': form.cards.data, 'points': form.points.data}
        form = HandForm(formdata=None)
        status = 409
    elif sent:
        try:
            ratelimit.spend('hand', who=f'seat:{game_id}:{seat}')       # before anything is solved or written
            entry = Entry(player, form.went_out.data, typed_cards(player, form.cards.data, request.form.get('letters')), form.points.data or None)
            # Checked as a hand on its own (the pack included): the other seats' hands are not saved
            # yet and are theirs to show, so nothing said here depends on them. The scorekeeper's
            # round page checks the whole round.
            solved(solving.score_entry, pool.words(), game, number, entry, hands=int(bool(entry.cards)))
            kept = store.save_draft(get_db(), game_id, number, seat, entry.went_out, entry.cards, entry.points)
        except EntryError as e:
            problem, status = e, 422
        except ratelimit.OverBudget as e:
            problem, status, headers = EntryError(e.description), 429, {'Retry-After': str(e.retry_after)}
        except pool.Busy:
            problem, status = EntryError(BUSY[2]), 503                 # what was typed stays in the form
        except sqlite3.OperationalError as e:
            if storage_message(e) is None:
                raise
            problem, status = EntryError(storage_message(e)), 503     # what was typed stays in the form
        else:
            told(_('Sent to the scorekeeper. You can change it until the round is saved.') if kept
                 else _('The scorekeeper saved round %(round)d meanwhile.', round=number))
            return redirect(url_for('seats.hand', game_id=game_id), 303)    # the page drawn by its GET
    elif request.method == 'POST' and not allowed:
        problem, status = EntryError(_('The scorekeeper enters every hand in this game.')), 403
    elif request.method == 'POST' and number:
        problem, status = EntryError(_('The form could not be checked; reload the page and try again.')), 400
    elif mine:
        try:
            result = solved(solving.score_entry, pool.words(), game, number,
                            Entry(player, mine['went_out'], mine['cards'] or None, mine['points'] or None))[0]
        except (EntryError, pool.Busy):
            result = None
    form.round.data = str(number or '')
    return render_template('games/hand.html', game_id=game_id, game=game, sheet=sheet, seat=seat, player=player,
                           number=number, form=form, result=result, problem=problem, allowed=allowed,
                           rules=game.rules, late=late, moved_from=moved_from(number), moved_back=moved_back(number),
                           revision=revision), status, headers




def told(message):
    """`message` flashed for the page the redirect draws, once however often it is said before that page
    is drawn: a client that sends and never follows the redirect does not grow its session cookie."""
    if (CATEGORY, message) not in session.get('_flashes', []):
        flash(message)


@bp.get('/games/<game_id>/rounds/<int:number>/drafts')
def drafts(game_id, number):
    """For the scorekeeper's round page (when a stream can't be held): the drafts as JSON."""
    require_keeper(game_id)
    return jsonify(drafts_data(game_id, number))




