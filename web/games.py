"""Games: the list, a new game, the live scoresheet, entering a round, export and import."""

import io
import secrets
import sqlite3
import threading
from collections import OrderedDict
from datetime import datetime, timedelta, timezone
from functools import lru_cache
from urllib.parse import urlsplit

import resvg_py
import segno
from flask import (Blueprint, Response, abort, current_app, flash, redirect, render_template, request, send_file,
                   stream_with_context, url_for)
from flask_babel import gettext as _
from markupsafe import Markup
from werkzeug.exceptions import NotFound

from scorer.chart import COLOURS, PALETTE, SHAPES, race
from scorer.gamefile import GameFileError, check_players, game_data, read_date, read_entry, read_game
from scorer.i18n import language
from scorer.limits import MAX_ROUNDS, UNDO_SECONDS
from scorer.numbers import read_whole
from scorer.rules import RulesError, deal_problem, make_rules
from scorer.stats import winner_line
from scorer.sheet import (Entry, Game, RoundError, clean_entries, compute_sheet, doubts, doubts_key, score_round,
                          winner_words)

from . import store
from . import export as export_file
from .access import is_keeper, keeper_and_revision, key_matches, kept_games, remember, require_keeper
from .db import get_db, release_db
from .errors import storage_message
from .live import Gone, hub_for, stream
from .stats import kept_finished
from .forms import SETTINGS, EmptyForm, HandoverForm, RematchForm, RestoreForm, ImportForm, NewGameForm, every_seat_posted, round_form, seat_entries

bp = Blueprint('games', __name__)
MAX_VERSION = 10 ** 9   # a round's version number (or a history row's id), as a form sends it back
MAX_VERSIONS_SHOWN = 20


def load(game_id):
    """The stored game, or 404."""
    game = store.load_game(get_db(), game_id)
    if game is None:
        abort(404)
    return game


class Remembered:
    """A small per-process memory of what was computed for a game at a given revision (save count)."""

    def __init__(self, size=256):
        self.size, self.items, self.lock = size, OrderedDict(), threading.Lock()

    def get(self, key, make):
        with self.lock:
            if key in self.items:
                self.items.move_to_end(key)
                return self.items[key]
        value = make()
        with self.lock:
            self.items[key] = value
            while len(self.items) > self.size:
                self.items.popitem(last=False)
        return value


sheets, fragments, pictures = Remembered(2048), Remembered(4096), Remembered(64)
pushed = Remembered(4096)          # the live sheet by revision, as streams send it (web/live.py)


def load_sheet(game_id):
    """The game, its sheet and its revision, read in one snapshot; the sheet is computed once per save."""
    db = get_db()
    with db.atomic():
        revision = store.revision(db, game_id)
        if revision is None:
            abort(404)
        # The sheet holds words (the tie-break), so it is kept per language too.
        game, sheet = sheets.get((game_id, revision, language()),
                                 lambda: (lambda g: (g, compute_sheet(g, skip_broken=True)))(load(game_id)))
    return game, sheet, revision


@bp.get('/')
def index():
    return render_template('games/index.html', games=store.list_games(get_db(), kept_games()), form=ImportForm())


@bp.post('/import')
def import_game():
    form = ImportForm()
    error = ''
    if not form.validate_on_submit():
        error = _('The form could not be checked; reload the page and try again.')
    elif not form.game_file.data or not form.game_file.data.filename:
        error = _('Choose a game file to import.')
    else:
        try:
            game = read_game(form.game_file.data.read())
        except GameFileError as e:
            error = _('Nothing was imported: %(error)s.', error=e)
        else:
            kept = already_kept(game)
            if kept:
                flash(_('This game is already kept on this phone: here it is. Nothing was imported.'))
                return redirect(url_for('games.sheet', game_id=kept))
            game_id, key = store.create_game(get_db(), game)
            flash(_('Game imported. This phone keeps score.'))
            return remember(redirect(url_for('games.sheet', game_id=game_id)), game_id)
    return render_template('games/index.html', games=store.list_games(get_db(), kept_games()), form=form,
                           import_error=error), 400


def already_kept(game):
    """The id of a game this browser keeps that is the same game as `game` (same players, rules,
    dates and rounds), so importing its file again opens it instead of making a twin."""
    same = game_data(game)
    for game_id in kept_games():
        kept = store.load_game(get_db(), game_id)
        if kept is not None and game_data(kept) == same:
            return game_id
    return None


def game_from_form(form):
    """A new Game from the form, or ValueError with a message for the field at fault."""
    typed = [f.data.strip() for f in form.players if (f.data or '').strip()]
    try:
        players = check_players(typed)
    except GameFileError as e:
        raise FieldError('players', str(e)) from None
    settings = {key: getattr(form, key).data for key in SETTINGS}
    settings['decks'] = (3 if len(players) >= 7 else 2) if form.decks.data == 'auto' else form.decks.data
    try:
        rules = make_rules(settings)
    except RulesError as e:
        raise FieldError('rules', str(e)) from None
    problem = deal_problem(len(players), rules)
    if problem:
        raise FieldError('decks', problem)
    if form.first_dealer.data == 'draw':
        first = secrets.randbelow(len(players))
    else:
        first = int(form.first_dealer.data)
        if first >= len(players):
            raise FieldError('first_dealer', _('seat %(n)d has no player', n=first + 1))
    return Game(players, rules, first, {}, (form.title.data or '').strip(), (form.place.data or '').strip(),
                phone_date(form.today.data))


def phone_date(text):
    """The day the game is played on the phone's own calendar (sent by app.js); without script, the
    server's local day (never the UTC one, which is tomorrow on an evening in the Americas)."""
    try:
        return read_date(text or '')
    except GameFileError:
        return store.local_day()


class FieldError(ValueError):
    def __init__(self, field, message):
        super().__init__(message)
        self.field = field


@bp.route('/games/new', methods=['GET', 'POST'])
def new_game():
    form = NewGameForm()
    errors, status = {}, 200
    if form.validate_on_submit():
        try:
            game = game_from_form(form)
            game_id, key = store.create_game(get_db(), game)
        except FieldError as e:
            errors[e.field], status = str(e), 422
        except sqlite3.OperationalError as e:
            errors['form'], status = storage_message(e), 503      # what was typed stays in the form
            if errors['form'] is None:
                raise
        else:
            flash(_('Game created. %(dealer)s deals round 1.', dealer=game.dealer(1)))
            return remember(redirect(url_for('games.sheet', game_id=game_id)), game_id)
    elif request.method == 'POST':
        errors['form'], status = _('Some fields need a look.'), 422
    known = sorted({p for g in store.list_games(get_db(), kept_games()) for p in g['players']}, key=str.casefold)
    return render_template('games/new.html', form=form, errors=errors, settings=SETTINGS, known=known), status


@bp.post('/games/<game_id>/rematch')
def rematch(game_id):
    """A new game with the same players in the same seats, the same rules, and the next dealer."""
    require_keeper(game_id)
    game = load(game_id)
    form = RematchForm()
    if not form.validate_on_submit():
        abort(400)
    after_last = (game.first_dealer + game.rules.last_round) % len(game.players)
    new = Game(game.players, game.rules, after_last, {}, game.title, game.place, phone_date(form.today.data))
    new_id, key = store.create_game(get_db(), new)
    store.set_rematch(get_db(), game_id, new_id)
    flash(_('Rematch! %(dealer)s deals round 1.', dealer=new.dealer(1)))
    return remember(redirect(url_for('games.sheet', game_id=new_id)), new_id)


@lru_cache(maxsize=256)
def qr_svg(text):
    """A QR code of the text as inline SVG, drawn on the server (once per link)."""
    out = io.BytesIO()
    segno.make(text, error='m').save(out, kind='svg', xmldecl=False, svgns=True, scale=5, border=2,
                                     dark='#000', light='#fff', svgclass='qr', title='QR code of the viewer link')
    return Markup(out.getvalue().decode())


def live_etag(revision, keeper):
    edit = ('-e' if request.args.get('edit') == '1' else '') + ('-tv' if request.args.get('view') == 'tv' else '')
    return f'"{revision}-{"k" if keeper else "v"}{edit}-{language()}"'


def sheet_context(game_id, keeper, view=None):
    game, result, revision = load_sheet(game_id)
    # A finished game opens read-only; its scorekeeper may still ask to correct a round.
    editable = keeper and (not result.finished or request.args.get('edit') == '1')
    colours = store.colours(get_db(), game_id)
    context = dict(game_id=game_id, sheet=result, winner=winner_words(result), keeper=keeper,
                   rematch=store.rematch_of(get_db(), game_id) if result.finished else None,
                   editable=editable, etag=live_etag(revision, keeper), revision=revision, colours=colours,
                   chart=race(result, colours) if result.rows else None)
    view = view or ('tv' if request.args.get('view') == 'tv' else 'sheet')
    fragment = 'games/_tv.html' if view == 'tv' else 'games/_live.html'
    context['live_html'] = fragments.get((game_id, revision, keeper, editable, language(), view),
                                         lambda: Markup(render_template(fragment, **context)))
    return context


def loopback(host):
    """Whether a Host header names this machine only (127.0.0.1, localhost, [::1]): no other phone reaches it."""
    try:
        name = urlsplit('//' + host).hostname or ''
    except ValueError:
        return False
    return name == 'localhost' or name == '::1' or name.startswith('127.')


@bp.get('/games/<game_id>')
def sheet(game_id, key=None):
    """The scoresheet; for its scorekeeper also the share link, Undo, and (just made) a scorekeeper link."""
    from .seats import seat_context
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
def keeper_link(game_id):
    """A new scorekeeper link: its key is shown this once (the store keeps only its hash), and the
    link made before it stops working."""
    require_keeper(game_id)
    if not EmptyForm().validate_on_submit():
        abort(400)
    return sheet(game_id, key=store.new_edit_key(get_db(), game_id))


@bp.get('/games/<game_id>/live')
def live(game_id):
    """The live part of the sheet; 304 while nothing changed (ETag from the game's save counter)."""
    keeper, revision = keeper_and_revision(game_id)
    etag = live_etag(revision, keeper)
    if etag in request.headers.get('If-None-Match', ''):
        return Response(status=304, headers={'ETag': etag, 'Cache-Control': 'no-cache'})
    context = sheet_context(game_id, keeper)
    return Response(context['live_html'], headers={'ETag': context['etag'], 'Cache-Control': 'no-cache'})


@bp.get('/games/<game_id>/tv')
def big_screen(game_id):
    """The standings and the round in very large type, for a tablet or a TV in the middle of the table."""
    context = sheet_context(game_id, keeper=False, view='tv')
    return render_template('games/tv.html', **context)


@bp.get('/games/<game_id>/picture.svg')
def picture_svg(game_id):
    """The standings and the race as one picture (SVG): what Share sends, holding no key and no private link."""
    game, result, revision = load_sheet(game_id)
    return Response(picture(game_id, game, result), mimetype='image/svg+xml',
                    headers={'Cache-Control': 'no-cache', 'Content-Security-Policy': "default-src 'none'"})


@bp.get('/games/<game_id>/picture.png')
def picture_png(game_id):
    """The same picture as PNG, drawn on the server (resvg: no browser, no system library)."""
    game, result, revision = load_sheet(game_id)
    png = pictures.get((game_id, revision, language()),
                       lambda: resvg_py.svg_to_bytes(svg_string=picture(game_id, game, result)))
    return send_file(io.BytesIO(png), mimetype='image/png', download_name=export_file.filename(game, game_id, 'png'),
                     as_attachment=request.args.get('download') == '1', etag=False, max_age=0)


def picture(game_id, game, result):
    """The picture's SVG: title, date, standings with the winner, and the race chart, in fixed colours."""
    colours = store.colours(get_db(), game_id)
    return render_template('games/picture.svg', game=game, sheet=result, winner=winner_words(result),
                           chart=race(result, colours, width=560, height=300) if result.rows else None,
                           palette=PALETTE, shapes=SHAPES, colours=colours)


@bp.post('/games/<game_id>/colours')
def colours(game_id):
    """The scorekeeper chooses each player's colour."""
    require_keeper(game_id)
    game = load(game_id)
    form = EmptyForm()
    chosen = [read_whole(request.form.get(f'colour-{i}', ''), len(COLOURS) - 1) for i in range(len(game.players))]
    if not form.validate_on_submit() or None in chosen:
        abort(400)
    store.set_colours(get_db(), game_id, chosen)
    flash(_('Colours saved.'))
    return redirect(url_for('games.sheet', game_id=game_id))


@bp.get('/games/<game_id>/events')
def events(game_id):
    """The live sheet pushed as Server-Sent Events (see web/live.py); with ?drafts=N (the scorekeeper's
    round page) also what the seated players entered for round N."""
    from .seats import drafts_data
    keeper, revision = keeper_and_revision(game_id)
    number = read_whole(request.args.get('drafts', ''), MAX_ROUNDS)
    if number is not None and not keeper:
        abort(403)
    hub = hub_for(current_app.config['DATABASE'])

    def unless_gone(make):
        """What `make` gives, or Gone when the game was deleted meanwhile (its look-up answers 404)."""
        def made(*args):
            try:
                return make(*args)
            except NotFound:
                raise Gone from None
        return made

    last = request.headers.get('Last-Event-ID') or request.args.get('since')
    view = 'tv' if request.args.get('view') == 'tv' else 'sheet'

    def live_html(revision):
        """The live sheet at this revision: drawn once, then the same for every follower (no look-up)."""
        key = (game_id, revision, keeper, request.args.get('edit') == '1', language(), view)
        return pushed.get(key, lambda: sheet_context(game_id, keeper)['live_html'])

    body = stream(hub, game_id, last, unless_gone(live_html),
                       drafts=unless_gone(lambda: drafts_data(game_id, number)) if number is not None else None,
                       release=release_db, keepalive=current_app.config['LIVE_KEEPALIVE'])
    return Response(stream_with_context(body), mimetype='text/event-stream',
                    headers={'Cache-Control': 'no-cache', 'X-Accel-Buffering': 'no'})


@bp.route('/games/<game_id>/keeper', methods=['GET', 'POST'])
def keeper(game_id):
    """The private scorekeeper link, /games/<id>/keeper#<key>: the key rides in the fragment, which
    no browser sends, and handover.js posts it; so no request line, and no access log, ever holds it."""
    stored = store.edit_key_hash(get_db(), game_id)
    if stored is None:
        abort(404)
    form = HandoverForm()
    if form.validate_on_submit():
        if stored and key_matches(form.key.data.strip(), stored):
            flash(_('This phone keeps score of this game now.'))
            return remember(redirect(url_for('games.sheet', game_id=game_id)), game_id)
        form.key.errors = [_('That is not the key of this game: open the scorekeeper link again.')]
    status = 403 if form.key.errors else 200
    return render_template('games/keeper.html', game_id=game_id, form=form), status


def with_drafts(data, drafts):
    """The round form's data with what the seated players entered on their own phones filled in."""
    claimed = [str(seat) for seat, draft in sorted(drafts.items()) if draft['went_out']]
    for seat, draft in drafts.items():
        if seat < len(data['entries']):
            data['entries'][seat] = {'cards': draft['cards'], 'points': draft['points']}
    if not data['went_out']:
        data['went_out'] = claimed
    return data


def saved_round(game, number, version):
    """The round form's data for a round as saved (blank for a round not entered yet)."""
    saved = {e.player: e for e in game.rounds.get(number, ())}
    out = [str(i) for i, p in enumerate(game.players) if p in saved and saved[p].went_out]
    entries = [{'cards': saved[p].cards or '' if p in saved else '',
                'points': '' if p not in saved or saved[p].points is None else str(saved[p].points)}
               for p in game.players]
    return {'went_out': out, 'version': str(version), 'entries': entries}


class Unsure(Exception):
    """A round that can be scored but looks like an entry mistake, not confirmed yet."""


def form_problem(form, players):
    """Why a posted round form did not validate, as a RoundError naming the seat and field at fault."""
    if 'csrf_token' in form.errors:
        return RoundError({'': [_('The form could not be checked; reload the page and try again.')]})
    errors, fields = {}, {}
    for i, entry in enumerate(form.entries[:len(players)]):
        for name in ('cards', 'points'):
            for message in entry[name].errors:
                errors.setdefault(players[i], []).append(f'{players[i]}: {message}')
                fields.setdefault(players[i], set()).add(name)
    return RoundError(errors, fields)


@bp.route('/games/<game_id>/rounds/<int:number>', methods=['GET', 'POST'])
def round_entry(game_id, number):
    require_keeper(game_id)
    game, current, revision = load_sheet(game_id)
    rules = game.rules
    if number not in rules.rounds:
        abort(404)
    if number not in game.rounds and number != current.next_round:
        flash(_('Enter round %(round)d first.', round=current.next_round))
        return redirect(url_for('games.round_entry', game_id=game_id, number=current.next_round))
    version = store.round_version(get_db(), game_id, number)
    drafts = store.drafts(get_db(), game_id, number) if not version else {}
    if request.method == 'POST':
        form = round_form(game.players)
    else:
        form = round_form(game.players, data=with_drafts(saved_round(game, number, version), drafts))
    typed = seat_entries(form, game.players)
    problem, conflict, unsure = None, None, []
    if form.validate_on_submit() and every_seat_posted(request.form, game.players):
        based_on = read_whole(form.version.data, MAX_VERSION)
        out = form.seats_out(game.players)
        entries = [Entry(p, i in out, typed[i]['cards'] or None, typed[i]['points'] or None)
                   for i, p in enumerate(game.players)]
        try:
            clean = clean_entries(game, number, entries)
            if based_on is None:
                raise RoundError({'': [_('This form does not say which version of round %(round)d it was made '
                                         'from, so it could overwrite a newer one. Check the entries and save '
                                         'again.', round=number)]})
            unsure = doubts(game, number, clean)
            if unsure and form.confirm.data != doubts_key(unsure):
                raise Unsure
            unsure = []
            store.save_round(get_db(), game_id, number, clean, based_on)
        except Unsure:
            pass
        except RoundError as e:
            problem = e
        except store.Conflict as e:
            conflict = {'saved': e.entries, 'mine': clean, 'version': e.version}
            version = e.version
        except sqlite3.OperationalError as e:
            why = storage_message(e)
            if why is None:
                raise
            problem = RoundError({'': [_('Round %(round)d was not saved: %(why)s Everything you entered is '
                                         'below.', round=number, why=why)]})
        else:
            flash(_('Round %(round)d saved.', round=number))
            return redirect(url_for('games.round_entry', game_id=game_id, number=number, saved=1))
    elif request.method == 'POST':
        problem = form_problem(form, game.players)
        if not problem.errors:
            problem = RoundError({'': [_('The form could not be checked; reload the page and try again.')]})
    form.version.data = str(version)
    row = next((r for r in current.rows if r.round == number), None)
    status = 409 if conflict else 422 if problem or unsure else 200
    return render_template('games/round.html', game_id=game_id, game=game, number=number, form=form,
                           problem=problem, conflict=conflict, unsure=unsure, unsure_key=doubts_key(unsure),
                           doubted={what.split(':', 1)[1].rsplit(':', 1)[0] for what, _m in unsure if what.startswith('short:')},
                           row=row if request.args.get('saved') else None,
                           undo=undo_offer(game_id) if request.args.get('saved') else None,
                           hand_size=rules.hand_size(number), wild=rules.wild_rank(number),
                           dealer=game.dealer(number), sheet=current, winner=winner_words(current),
                           drafts=drafts, self_entry=not version and store.self_entry(get_db(), game_id),
                           playing=not version and number == current.next_round,
                           moved_from=moved_from(number),
                           revision=revision, colours=store.colours(get_db(), game_id),
                           history=versions(game, number, store.round_history(get_db(), game_id, number))), status


def moved_from(number):
    """The round a page was following when that round was saved elsewhere (?after=N), if not this one."""
    after = read_whole(request.args.get('after', ''), MAX_ROUNDS)
    return after if after is not None and after != number else None


def readable_sheet(game_id):
    """The game and its sheet for an export or a printout; a round that cannot be scored stops them
    with a page that says which round and how to correct it (never a file that lies by omission)."""
    game, result, revision = load_sheet(game_id)
    if result.broken:
        number, why = min(result.broken.items())
        abort(Response(render_template('games/broken.html', game_id=game_id, number=number, why=why,
                                       keeper=is_keeper(game_id)), status=409))
    return game, result


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
def restore(game_id, number):
    """Put an earlier version of a round back (it becomes the newest; the one it replaces is kept too)."""
    require_keeper(game_id)
    form = RestoreForm()
    found = store.history_entry(get_db(), game_id, read_whole(form.history.data or '', MAX_VERSION))
    based_on = read_whole(form.version.data or '', MAX_VERSION)
    if not form.validate_on_submit() or found is None or found[0] != number or based_on is None:
        abort(400)
    try:
        store.save_round(get_db(), game_id, number, found[1], based_on)
    except store.Conflict:
        flash(_('Round %(round)d was saved from another phone meanwhile: look again before restoring.', round=number))
        return redirect(url_for('games.round_entry', game_id=game_id, number=number))
    flash(_('The earlier version of round %(round)d is back.', round=number))
    return redirect(url_for('games.round_entry', game_id=game_id, number=number, saved=1))


def undo_offer(game_id):
    """The scorekeeper's last save if it was made in the last UNDO_SECONDS: {'number', 'version', 'until'}."""
    last = store.last_save(get_db(), game_id)
    if last is None:
        return None
    try:
        saved = datetime.fromisoformat(last['saved'])
    except (TypeError, ValueError):
        return None
    until = saved + timedelta(seconds=UNDO_SECONDS)
    if datetime.now(timezone.utc) >= until:
        return None
    return {'number': last['number'], 'version': last['version'], 'form': EmptyForm(),
            'seconds': int((until - datetime.now(timezone.utc)).total_seconds()) + 1}


@bp.post('/games/<game_id>/rounds/<int:number>/undo')
def undo(game_id, number):
    """Undo the last save of a round: back to the version it replaced (or to not entered yet)."""
    require_keeper(game_id)
    load(game_id)
    based_on = read_whole(request.form.get('version', ''), MAX_VERSION)
    if not EmptyForm().validate_on_submit() or based_on is None:
        abort(400)
    try:
        store.undo_round(get_db(), game_id, number, based_on)
    except store.Conflict:
        flash(_('Round %(round)d was saved again meanwhile: nothing was undone.', round=number))
    else:
        flash(_('Round %(round)d is back as it was before that save.', round=number))
    return redirect(url_for('games.sheet', game_id=game_id))


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


@bp.get('/games/<game_id>/export.json')
def export(game_id):
    game, result = readable_sheet(game_id)
    return download(export_file.game_json(game, result), 'application/json',
                    export_file.filename(game, game_id, 'json'))


@bp.get('/games/<game_id>/export.csv')
def export_csv(game_id):
    game, result = readable_sheet(game_id)
    return download(export_file.sheet_csv(result), 'text/csv', export_file.filename(game, game_id, 'csv'))


def download(text, mimetype, name):
    """A file to save, named in any script: werkzeug writes the RFC 6266 header (an ASCII
    fallback, and filename* in UTF-8), so a title like 日本語 never breaks it."""
    return send_file(io.BytesIO(text.encode('utf-8')), mimetype=mimetype,
                     as_attachment=True, download_name=name, etag=False, max_age=0)


@bp.get('/games/<game_id>/print')
def print_sheet(game_id):
    """The scoresheet on one printed page."""
    game, result = readable_sheet(game_id)
    colours = store.colours(get_db(), game_id)
    return render_template('games/print.html', game=game, game_id=game_id, sheet=result, colours=colours,
                           winner=winner_words(result), chart=race(result, colours, width=560, height=150))


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
    finished = [{**g, 'winner': winner_line(g['summary'])} for g in kept_finished()]
    return render_template('games/history.html', games=finished)
