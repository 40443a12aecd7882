"""Parts of a page's context that pages of several blueprints show, each read once here for this
request: the Undo offer after a save, the round a page was following, the seats of a game, the
drafts its players entered, the finished games this browser keeps, the follower link's QR code, a
file to download. No
routes: the blueprints call it. No blueprint imports another (tests/test_one_place.py): what two
share lives here, in sheets.py or in access.py."""

import io
import sqlite3
from datetime import datetime, timedelta, timezone
from functools import lru_cache
from pathlib import Path
from urllib.parse import urlsplit

import segno
from flask import request, send_file, url_for
from flask_babel import gettext as _
from markupsafe import Markup

from scorer.gamefile import GameFileError
from scorer.limits import MAX_ROUNDS, UNDO_SECONDS
from scorer.numbers import read_whole
from scorer.reading import symbols
from scorer.stats import summary_of, winner_line

from . import pool, ratelimit, store
from .access import browser_token, kept_games, my_seat
from .db import get_db
from .forms import EmptyForm, SelfEntryForm
from .sheets import load_sheet, without_solving
from .solved import solved
from .templating import bdi
from .typeface import PACKAGES


def moved_from(number):
    """The round a page was following when that round was saved elsewhere (?after=N, an earlier round)."""
    after = read_whole(request.args.get('after', ''), MAX_ROUNDS)
    return after if after is not None and after < number else None


def moved_back(number):
    """Whether the page was following a later round when an Undo put this one back to be entered
    again (?after=N, a later round: nothing was saved, so nothing may say it was)."""
    after = read_whole(request.args.get('after', ''), MAX_ROUNDS)
    return after is not None and after > number


def undo_offer(game_id):
    """The game's last save if it was made in the last UNDO_SECONDS and is not itself an Undo:
    {'number', 'version', 'seconds', 'form'}. Whichever phone made it, any of the game's
    scorekeepers is offered it; once anything else is saved, nobody is (sheets.last_change_mark)."""
    last = store.last_change(get_db(), game_id)
    if last is None or last['undo']:
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


def redo_offer(game_id, number=None):
    """The way back from an Undo, while the game's last change is that Undo (of round `number`, if
    given) and its UNDO_SECONDS are not over: {'number', 'history', 'version', 'seconds', 'form'}, the
    version undone (its history row) to restore on top of the round's version now, in one tap."""
    last = store.last_change(get_db(), game_id)
    if last is None or not last['undo'] or number not in (None, last['number']):
        return None
    try:
        until = datetime.fromisoformat(last['saved']) + timedelta(seconds=UNDO_SECONDS)
    except (TypeError, ValueError):
        return None
    undone = store.round_history(get_db(), game_id, last['number'])
    if datetime.now(timezone.utc) >= until or not undone:
        return None
    return {'number': last['number'], 'history': undone[0]['id'],
            'version': store.round_version(get_db(), game_id, last['number']), 'form': EmptyForm(),
            'seconds': int((until - datetime.now(timezone.utc)).total_seconds()) + 1}


def seat_context(game_id, game, keeper):
    """What the sheet page says about seats: this phone's seat, which are taken, and forms to act."""
    if not keeper:
        browser_token(make=True)           # so that concurrent taps on "I'm Ana" carry the same token
    return {'self_entry': store.self_entry(get_db(), game_id), 'taken': store.seats_taken(get_db(), game_id),
            'my_seat': None if keeper else my_seat(game_id), 'seat_form': EmptyForm(),
            'rematch_id': store.rematch_of(get_db(), game_id),
            'self_entry_form': SelfEntryForm()}


def drafts_data(game_id, number):
    """What each seated player entered for round `number` (if it is the round being played): {seat: entry}."""
    game, sheet, revision = load_sheet(game_id)
    found = store.drafts(get_db(), game_id, number) if number == sheet.next_round else {}
    return {str(seat): {**d, 'cards': symbols(d['cards']), 'player': game.players[seat]}
            for seat, d in found.items() if seat < len(game.players)}


def kept_finished(rounds=False):
    """The finished games this browser keeps, newest first: their list entries, each with its summary
    (scorer.stats.summary; round by round only when asked) read from the store, or made once per
    revision and kept there."""
    db = get_db()
    games = [g for g in store.list_games(db, kept_games()) if g['finished']]
    kept = store.summaries(db, [g['id'] for g in games], rounds)
    for g in games:
        g['summary'] = summary_kept(db, g, kept)
        g['winner'] = winner_named(g['summary'])
    return games


def winner_named(summary):
    """winner_line of a summarised game with each name in it isolated (<bdi>), as a page sets a name
    (and fits it to its line: static/js/names.js): the line is made with a stand-in for each name,
    then each stand-in set back as the name, so no word of the sentence is taken for a name. A
    stand-in is the name and a mark after it, so the sentence's words that follow the sound of a
    name (Spanish "Ana e Inés") are chosen as for the name itself."""
    stand_in = {p: f'{p}\ue000{i}\ue001' for i, p in enumerate(summary['players'])}
    line = Markup.escape(winner_line({**summary, 'standings': [[stand_in.get(s[0], s[0]), *s[1:]]
                                                               for s in summary['standings']]}))
    for player, mark in stand_in.items():
        line = line.replace(Markup.escape(mark), bdi(player))
    return Markup(line)


def qr_svg(text):
    """A QR code of the text as inline SVG, its <title> in the page's language."""
    return qr_drawn(text, _('QR code of the viewer link'))


@lru_cache(maxsize=256)
def qr_drawn(text, title):
    """A QR code of the text as inline SVG, drawn on the server (once per link and language)."""
    out = io.BytesIO()
    segno.make(text, error='m').save(out, kind='svg', xmldecl=False, svgns=True, border=2, omitsize=True,
                                     dark='#000', light='#fff', svgclass='qr', title=title)
    return Markup(out.getvalue().decode())


def reach_advice(host, server_software):
    """What the share box tells a scorekeeper whose address names this machine only (loopback(host)):
    how the other phones reach the server, true of the server it runs on. The development server
    (make run) listens on this machine alone unless started with HOST=0.0.0.0; gunicorn (three-thirteen
    serve) on SCORER_BIND, 0.0.0.0:8000 unless told otherwise. The example address has the page's
    port. None where the address is reachable."""
    if not loopback(host):
        return None
    try:
        port = urlsplit('//' + host).port or 80
    except ValueError:
        port = 80
    example, setting = f'http://192.168.1.20:{port}', f'SCORER_BIND=0.0.0.0:{port}'
    if server_software.startswith('gunicorn'):
        return _("This address only works on this computer. Open the app by the computer's network address (like "
                 "%(example)s) so other phones can reach it: the server listens there when %(setting)s (its default).",
                 example=example, setting=setting)
    return _("This address only works on this computer. Start the server with %(command)s and open the app by the "
             "computer's network address (like %(example)s) so other phones can reach it.",
             command='HOST=0.0.0.0 make run', example=example)


def loopback(host):
    """Whether a Host header names this machine only (127.0.0.1, localhost, [::1]): no other phone reaches it."""
    try:
        name = urlsplit('//' + host).hostname or ''
    except ValueError:
        return False
    return name == 'localhost' or name == '::1' or name.startswith('127.')


def download(text, mimetype, name):
    """A file to save, named in any script: werkzeug writes the RFC 6266 header (an ASCII
    fallback, and filename* in UTF-8), so a title like 日本語 never breaks it."""
    return send_file(io.BytesIO(text.encode('utf-8')), mimetype=mimetype,
                     as_attachment=True, download_name=name, etag=False, max_age=0)


def read_upload(form, upload, reader, choose):
    """A file sent by an import form (a game file, a table file), read and checked whole in the pool
    (its hands solved there, web/solved.py) by `reader`, within this client's import budget (a big
    file spends more of it: ratelimit.import_cost): (what it read, None) or (None, (the message, its
    status, its headers)). `choose` is the message when no file was chosen."""
    if not form.validate_on_submit():
        return None, (_('The form could not be checked; reload the page and try again.'), 400, {})
    if not upload.data or not upload.data.filename:
        return None, (choose, 400, {})
    try:
        data = upload.data.read()
        ratelimit.spend('import', ratelimit.import_cost(len(data)))
        catalogs, words = pool.words()
        return solved(reader, data, words, catalogs, kind='heavy'), None
    except ratelimit.OverBudget as e:
        return None, (e.description, 429, {'Retry-After': str(e.retry_after)})
    except pool.Busy:
        return None, (_('The server was too busy to read the file: nothing was imported. Try again in a '
                        'moment.'), 503, {})
    except GameFileError as e:
        return None, (_('Nothing was imported: %(error)s.', error=e), 400, {})


def summary_kept(db, game, kept):
    """The game's summary (scorer.stats.summary) from `kept`, as read from the store, or made now and
    kept there for the game's revision."""
    if game['id'] not in kept:
        played = store.load_game(db, game['id'])
        kept[game['id']] = without_solving(lambda: summary_of(played))
        try:
            store.keep_summary(db, game['id'], game['revision'], kept[game['id']])
        except sqlite3.OperationalError:
            pass                               # a disk that cannot be written: made again next time
    return kept[game['id']]


# The print's type (print.css): the picture's Noto packages (web/typeface.py PACKAGES, in its order of
# fallback), their stylesheets and font files served from node_modules by the app itself
# (export.print_font), so that a printed page (a game's, web/export.py, or a table's) is set in the
# type names_set measures. {folder in the address: package}.
PRINT_FONTS = {Path(package).name: package for package, _ in PACKAGES}


def print_fonts():
    """The stylesheets of the print's type, in order: Noto Sans's regular and bold, then the variable
    Chinese, Japanese and Korean ones (a face's files fetched only for the characters shown)."""
    sheets = []
    for name, package in PRINT_FONTS.items():
        files = ('400.css', '700.css') if package.startswith('@fontsource/') else ('index.css',)
        sheets += [url_for('export.print_font', name=name, filename=f) for f in files]
    return sheets
