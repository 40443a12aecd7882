"""Rounds: entering one (with the confirmations an odd round asks for), its earlier versions, restoring
one, Undo right after a save, and one score of the sheet."""

import sqlite3
from typing import NamedTuple

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import ngettext

from scorer.reading import symbols
from scorer.gamefile import read_entry
from scorer.limits import UNDO_SECONDS
from scorer.numbers import read_whole
from scorer.sheet import RoundError, doubts, doubts_key, score_round

from . import pool, ratelimit, solving, store
from .access import is_keeper, keeper_post, require_keeper
from .db import get_db
from .errors import BUSY, storage_message
from .forms import MAX_VERSION, RestoreForm, UndoForm, every_seat_posted, round_form, seat_entries
from .context import moved_back, moved_from, redo_offer, undo_offer
from .pages import round_page
from .sheets import load_sheet, without_solving
from .solved import answers, hands_typed, solved

bp = Blueprint('rounds', __name__)

MAX_VERSIONS_SHOWN = 20


def with_drafts(data, drafts):
    """The round form's data with what the seated players entered on their own phones filled in."""
    claimed = [str(seat) for seat, draft in sorted(drafts.items()) if draft['went_out']]
    for seat, draft in drafts.items():
        if seat < len(data['entries']):
            data['entries'][seat] = {'cards': symbols(draft['cards']), 'points': draft['points']}
    if not data['went_out']:
        data['went_out'] = claimed
    return data

def saved_round(game, number, version):
    """The round form's data for a round as saved (blank for a round not entered yet), its cards
    with suit symbols (which read the same in every language)."""
    saved = {e.player: e for e in game.rounds.get(number, ())}
    out = [str(i) for i, p in enumerate(game.players) if p in saved and saved[p].went_out]
    entries = [{'cards': symbols(saved[p].cards) if p in saved else '',
                'points': '' if p not in saved or saved[p].points is None else str(saved[p].points)}
               for p in game.players]
    return {'went_out': out, 'version': str(version), 'entries': entries}

class Posted(NamedTuple):
    """How a posted round went: saved, or the problem, the conflict with a newer save (and its
    version), or the doubts still to confirm."""
    saved: bool = False
    problem: RoundError | None = None
    conflict: dict | None = None
    unsure: tuple = ()
    version: int | None = None
    code: int | None = None          # the server's own reason (429 over the solver budget, 503 busy)
    retry: int | None = None         # seconds to wait before trying again, for Retry-After

    def status(self, form):
        if self.code:
            return self.code
        return 409 if self.conflict else 400 if form.went_out.errors else 422 if self.problem or self.unsure else 200

    def headers(self):
        return {'Retry-After': str(self.retry)} if self.retry else {}

def form_problem(form, players):
    """Why a posted round form did not validate, as a RoundError naming the seat and field at fault."""
    if 'csrf_token' in form.errors:
        return RoundError({'': [_('The form could not be checked; reload the page and try again.')]})
    errors, fields = {}, {}
    if form.went_out.errors:                    # a seat no page offers: a made-up form
        errors[''] = [str(e) for e in form.went_out.errors]
    for i, entry in enumerate(form.entries[:len(players)]):
        for name in ('cards', 'points'):
            for message in entry[name].errors:
                errors.setdefault(players[i], []).append(f'{players[i]}: {message}')
                fields.setdefault(players[i], set()).add(name)
    return RoundError(errors, fields)

@bp.route('/games/<game_id>/rounds/<int:number>', methods=['GET', 'POST'])
def round_entry(game_id, number):
    """A round's page: its entries (as saved, or as the seated players sent them), and saving them."""
    require_keeper(game_id)
    game, current, revision = load_sheet(game_id)
    elsewhere = not_this_round(game_id, game, current, number)
    if elsewhere:
        return elsewhere
    version = store.round_version(get_db(), game_id, number)
    drafts = store.drafts(get_db(), game_id, number) if not version else {}
    if request.method == 'POST':
        form = round_form(game.players)
        posted = save_posted(form, game_id, game, number, seat_entries(form, game.players))
        if posted.saved:
            flash(_('Round %(round)d saved.', round=number))
            return redirect(url_for('rounds.round_entry', game_id=game_id, number=number, saved=1))
        version = version if posted.version is None else posted.version
    else:
        form = round_form(game.players, data=with_drafts(saved_round(game, number, version), drafts))
        posted = Posted()
    form.version.data = str(version)
    saved = request.args.get('saved')
    history = without_solving(lambda: versions(game, number, store.round_history(get_db(), game_id, number)))
    return render_template('games/round.html', **round_page(
        game_id, game, number, current, store.colours(get_db(), game_id), typed=seat_entries(form, game.players),
        out=form.went_out.data or [], version=form.version.data, unsure=posted.unsure, drafts=drafts,
        csrf=csrf_value(form), problem=posted.problem, conflict=posted.conflict,
        row=next((r for r in current.rows if r.round == number), None) if saved else None,
        undo=undo_offer(game_id) if saved else None, redo=None if saved else redo_offer(game_id, number),
        self_entry=not version and store.self_entry(get_db(), game_id),
        playing=not version and number == current.next_round, moved_from=moved_from(number),
        moved_back=moved_back(number), revision=revision,
        history=history)), posted.status(form), posted.headers()


def not_this_round(game_id, game, current, number):
    """404 for a round the game does not have; a redirect to the round to enter first, unless this
    one is saved, next, or asked for ahead (?ahead=1: a later round's blank page, kept by a
    scorekeeper's phone for offline play)."""
    if number not in game.rules.rounds:
        abort(404)
    ahead = request.method == 'GET' and request.args.get('ahead') == '1'
    if number not in game.rounds and number != current.next_round and not ahead:
        flash(_('Enter round %(round)d first.', round=current.next_round))
        return redirect(url_for('rounds.round_entry', game_id=game_id, number=current.next_round))
    return None


def save_posted(form, game_id, game, number, typed):
    """A posted round read, checked and saved against the version its form was made from."""
    if not (form.validate_on_submit() and every_seat_posted(request.form, game.players)):
        problem = form_problem(form, game.players)
        return Posted(problem=problem if problem.errors else
                      RoundError({'': [_('The form could not be checked; reload the page and try again.')]}))
    based_on = read_whole(form.version.data, MAX_VERSION)
    try:
        clean = solved(solving.read_round, pool.words(), game, number, form.seats_out(game.players), typed,
                       request.form.get('letters'), hands=hands_typed(typed))
    except RoundError as e:
        return Posted(problem=e)
    except ratelimit.OverBudget as e:
        return Posted(problem=kept_below(number, e.description), code=429, retry=e.retry_after)
    except pool.Busy:
        return Posted(problem=kept_below(number, BUSY[2]), code=503, retry=2)
    if based_on is None:
        return Posted(problem=RoundError({'': [_('This form does not say which version of round %(round)d it was '
                                                 'made from, so it could overwrite a newer one. Check the entries '
                                                 'and save again.', round=number)]}))
    unsure = doubts(game, number, clean, seated(game_id, game))
    if unsure and form.confirm.data != doubts_key(unsure):
        return Posted(unsure=tuple(unsure))
    try:
        store.save_round(get_db(), game_id, number, clean, based_on, solutions=answers())
    except store.Conflict as e:
        return Posted(conflict={'saved': e.entries, 'mine': clean, 'version': e.version}, version=e.version)
    except sqlite3.OperationalError as e:
        why = storage_message(e)
        if why is None:
            raise
        return Posted(problem=kept_below(number, why))
    return Posted(saved=True)


def seated(game_id, game):
    """The players whose own phone enters their hand in this game (their seat taken, self-entry on)."""
    if not store.self_entry(get_db(), game_id):
        return set()
    return {game.players[seat] for seat in store.seats_taken(get_db(), game_id) if seat < len(game.players)}


def kept_below(number, why):
    """A round not saved for the server's reasons (`why`, a sentence), said over the form that keeps it."""
    return RoundError({'': [_('Round %(round)d was not saved: %(why)s Everything you entered is below.',
                              round=number, why=why)]})


def csrf_value(form):
    """The form's CSRF token, for the page to send back ('' where a test turned CSRF off)."""
    return form.csrf_token.current_token if 'csrf_token' in form else ''


def versions(game, number, history):
    """Earlier versions of a round for people: when, and each player's entry with its score."""
    shown = []
    for h in history[:MAX_VERSIONS_SHOWN]:
        entries = tuple(read_entry(e, '', lenient=True) for e in h['before'])
        try:
            scores = {p: s.score for p, s in score_round(game, number, entries).items()}
        except RoundError:
            scores = {}
        shown.append({'id': h['id'], 'changed': h['changed'], 'entries': entries, 'scores': scores})
    return shown

@bp.post('/games/<game_id>/rounds/<int:number>/restore')
@keeper_post(RestoreForm)
def restore(game_id, game, form, number):
    """Put an earlier version of a round back (it becomes the newest; the one it replaces is kept too)."""
    found = store.history_entry(get_db(), game_id, form.history.data)
    if found is None or found[0] != number:
        abort(400)
    try:
        store.save_round(get_db(), game_id, number, found[1], form.version.data)
    except store.Conflict:
        flash(_('Round %(round)d was saved from another phone meanwhile: look again before restoring.', round=number))
        return redirect(url_for('rounds.round_entry', game_id=game_id, number=number))
    flash(_('The earlier version of round %(round)d is back.', round=number))
    return redirect(url_for('rounds.round_entry', game_id=game_id, number=number, saved=1))



@bp.post('/games/<game_id>/rounds/<int:number>/undo')
@keeper_post(UndoForm)
def undo(game_id, game, form, number):
    """Undo the game's last save (a round's: back to the version it replaced, or to not entered
    yet), if nothing was saved after it and its minute is not over; else say why not."""
    try:
        store.undo_round(get_db(), game_id, number, form.version.data, UNDO_SECONDS)
    except store.NotUndone as e:
        flash(not_undone(e, number))
    else:
        flash(_('Round %(round)d is back as it was before that save.', round=number))
    return redirect(url_for('games.sheet', game_id=game_id))


def not_undone(e, number):
    """Why an Undo did nothing, in words."""
    if e.why == 'undone':
        return _('Round %(round)d was put back already: nothing was undone.', round=number)
    if e.why == 'later' and e.later is not None and e.later != number:
        return _('Round %(round)d was not undone: round %(later)d was saved after it (on this phone or '
                 'another). Its earlier versions are on its page.', round=number, later=e.later)
    if e.why == 'late':
        return ngettext('Round %(round)d was not undone: Undo lasts %(num)d second after a save. Its earlier '
                        'versions are on its page.',
                        'Round %(round)d was not undone: Undo lasts %(num)d seconds after a save. Its earlier '
                        'versions are on its page.', UNDO_SECONDS, round=number)
    return _('Round %(round)d was saved again meanwhile: nothing was undone.', round=number)


@bp.get('/games/<game_id>/scores/<int:number>/<int:seat>')
def score(game_id, number, seat):
    """One score of the sheet: what was recorded, and from here its audit or (for the scorekeeper) its round."""
    keeper = is_keeper(game_id)
    game, result, revision = load_sheet(game_id)
    row = next((r for r in result.rows if r.round == number), None)
    if row is None or not 0 <= seat < len(game.players):
        abort(404)
    player = game.players[seat]
    return render_template('games/score.html', game_id=game_id, game=game, row=row, player=player, seat=seat,
                           s=row.scores[player], keeper=keeper,
                           rules=game.rules, wild=row.wild)
