"""Offline play, its routes: the bundle a scorekeeper's phone keeps (made by web/bundle.py) and what
the phone needs of one game to play it alone.

Everything is served from this origin. The project's part (python.zip, the worker, idb-keyval) under
/offline/<release>/, where the release is a hash of that part (and of the Pyodide it runs on): a new
release is a new address, so the service worker replaces the old files cleanly. Pyodide (13 MB, 3 MB
gzipped) under /offline/pyodide/<its version>/, which a release of this project leaves as it was: the
service worker keeps it across releases, and a phone fetches only the project's part again. See
docs/internals.md for the offline path.
"""

import gzip
from functools import lru_cache
from pathlib import Path

from flask import Blueprint, Response, abort, current_app, jsonify, render_template, request, send_from_directory, url_for
from flask_babel import gettext as _
from flask_wtf.csrf import generate_csrf

from scorer.gamefile import game_data

from . import store
from .access import require_keeper
from .bundle import (PYODIDE, WORKER_CSP, available, bundle, node_modules, packages, pyodide_base,
                     pyodide_version, release, statics, urls)
from .db import get_db
from .sheets import last_change_mark, load_sheet

bp = Blueprint('offline', __name__)


def immutable(response):
    response.headers['Cache-Control'] = 'public, max-age=31536000, immutable'
    return response


def current(r):
    if r != release():
        abort(404)


@lru_cache(maxsize=len(PYODIDE) + 1)
def gzipped(path, size, mtime):
    """A bundle file compressed once (the WebAssembly shrinks from 9.6 MB to about 3 MB)."""
    return gzip.compress(Path(path).read_bytes(), compresslevel=6, mtime=0)


def sent(data_or_path, mimetype):
    """A bundle file, gzipped for a browser that takes it (every phone does), cached for a year."""
    if isinstance(data_or_path, Path):
        stat = data_or_path.stat()
        body = lambda: gzipped(str(data_or_path), stat.st_size, stat.st_mtime)      # noqa: E731
        plain = data_or_path.read_bytes
    else:
        body = lambda: gzipped_bytes(data_or_path)                                  # noqa: E731
        plain = lambda: data_or_path                                                 # noqa: E731
    if 'gzip' in request.headers.get('Accept-Encoding', ''):
        response = Response(body(), mimetype=mimetype, headers={'Content-Encoding': 'gzip'})
    else:
        response = Response(plain(), mimetype=mimetype)
    response.vary.add('Accept-Encoding')
    return immutable(response)


@lru_cache(maxsize=4)
def gzipped_bytes(data):
    return gzip.compress(data, compresslevel=6, mtime=0)


TYPES = {'.mjs': 'text/javascript', '.wasm': 'application/wasm', '.zip': 'application/zip', '.json': 'application/json'}


@bp.get('/offline/pyodide/<version>/<name>')
def pyodide(version, name):
    """A file of Pyodide, under its version's address (the service worker keeps it across releases)."""
    if version != pyodide_version() or name not in PYODIDE:
        abort(404)
    path = node_modules() / 'pyodide' / name
    return sent(path, TYPES[path.suffix])


@bp.get('/offline/<release>/python.zip')
def python(release):
    current(release)
    return sent(bundle()[0], 'application/zip')


@bp.get('/offline/packages/<digest>/packages.zip')
def packages_zip(digest):
    """The packages the phone's scorer imports, under their own address (kept across releases)."""
    if digest != packages()[1]:
        abort(404)
    return sent(packages()[0], 'application/zip')


@bp.get('/offline/<release>/idb-keyval.js')
def idb_keyval(release):
    current(release)
    return immutable(send_from_directory(node_modules() / 'idb-keyval' / 'dist', 'index.js',
                                         mimetype='text/javascript', max_age=None))


@bp.get('/offline/<release>/worker.js')
def worker(release):
    """The worker that runs the scorer (static/js/scorer-worker.js: the phone's SharedWorker, or a page's
    own), allowed to compile WebAssembly."""
    current(release)
    text = (Path(current_app.static_folder) / 'js' / 'scorer-worker.js').read_text(encoding='utf-8')
    text = text.replace('__PYODIDE__', pyodide_base()).replace('__PACKAGES__', url_for('offline.packages_zip',
                                                                                      digest=packages()[1]))
    response = Response(text, mimetype='text/javascript')
    response.headers['Content-Security-Policy'] = WORKER_CSP
    return immutable(response)


@bp.get('/games/<game_id>/offline.json')
def game(game_id):
    """What a scorekeeper's phone keeps to play this game offline: the game file, each round's
    version (a round sent later says which one it was based on), the colours, the mark of its last
    save (for the sheet the phone draws), and the bundle."""
    require_keeper(game_id)
    db = get_db()
    with db.atomic():
        game, sheet, revision = load_sheet(game_id)
        versions = {n: store.round_version(db, game_id, n) for n in game.rules.rounds}
        colours = store.colours(db, game_id)
        last_save = last_change_mark(game_id)
    return jsonify(game_id=game_id, game=game_data(game), versions=versions, colours=colours, revision=revision,
                   last_save=last_save,
                   release=release(), bundle=urls() if available() else [], static=statics())


@bp.get('/offline/made-here')
def made_here():
    """The page of any game made on a phone offline: the service worker keeps it under that game's
    addresses, and offline.js draws the sheet or the round in it with the phone's scorer."""
    response = current_app.make_response(render_template('games/made_here.html'))
    response.headers['X-Made-Here'] = '1'              # the service worker tells it from a game's own page
    return response


@bp.get('/offline/start')
def start():
    """The start page a phone shows when the server does not answer (an installed app opens on
    it): the service worker keeps it, and offline.js lists the games kept on the phone in it."""
    return render_template('games/index.html', start_here=True)


@bp.get('/offline/needs-network')
def needs_network():
    """What a phone shows, without a network, for a page that only the server can make (an audit,
    history, another language): kept by the service worker, instead of the browser's error page."""
    return render_template('error.html', title=_('No network'),
                           message=_('This page needs a network. The games kept on this phone go on without one.'))


@bp.get('/offline/how')
def how():
    """What offline play needs, for the scorekeeper whose sheet says it is not possible (docs/deploy.md)."""
    return render_template('error.html', title=_('How to play offline'), message=_(
        'A phone keeps a game to play without a network only when the page comes over HTTPS (or from '
        'this very computer) and the browser has service workers. Open the game at its https:// '
        'address; whoever runs the server puts HTTPS in front of it with Caddy, as docs/deploy.md in '
        'the package says (on a table\'s own Wi-Fi too). Without it the game goes on while the network '
        'answers.'))


@bp.get('/offline/token')
def token():
    """A fresh CSRF token for what a phone sends later (a round or a game saved offline): the pages
    it kept may be older than this browser's session."""
    response = jsonify(csrf=generate_csrf())
    response.headers['Cache-Control'] = 'no-store'
    return response
