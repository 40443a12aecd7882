"""Sharing a game: the big screen (/tv), and the result as a picture (SVG and PNG, light or dark; drawn by
the pool once per revision, within PICTURE_RATE)."""

import io

from flask import Blueprint, Response, abort, current_app, render_template, request, send_file

from scorer.gamefile import filename
from scorer.i18n import language

from . import drawing, pool, ratelimit, store
from .db import get_db
from .sheets import load_sheet, pictures, remembered, sheet_context

bp = Blueprint('sharing', __name__)

@bp.get('/games/<game_id>/tv')
def big_screen(game_id):
    """The standings and the round in very large type, for a tablet or a TV in the middle of the table."""
    context = sheet_context(game_id, keeper=False, view='tv')
    return render_template('games/tv.html', **context)

@bp.get('/games/<game_id>/picture.svg')
def picture_svg(game_id):
    """The standings and the race as one picture (SVG): what Share sends, holding no key and no private link."""
    game, svg = drawn(game_id, 'svg')
    return Response(svg, mimetype='image/svg+xml',
                    headers={'Cache-Control': 'no-cache',
                             'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; font-src data:"})

@bp.get('/games/<game_id>/picture.png')
def picture_png(game_id):
    """The same picture as PNG, drawn on the server (resvg: no browser, no system library)."""
    game, png = drawn(game_id, 'png')
    return send_file(io.BytesIO(png), mimetype='image/png', download_name=filename(game, game_id, 'png'),
                     as_attachment=request.args.get('download') == '1', etag=False, max_age=0)

def theme():
    """The picture's variant: ?theme=dark, or light."""
    return 'dark' if request.args.get('theme') == 'dark' else 'light'

drawing_once = pool.Once()

def drawn(game_id, kind):
    """The game and its picture ('svg' or 'png') at its revision, in the page's language and theme:
    remembered, else drawn once (however many ask at the same moment) by the pool's processes, within
    this client's PICTURE_RATE; 503 when the pool is busy."""
    game, result, revision = load_sheet(game_id)
    key = (game_id, revision, language(), theme(), kind)

    def draw():
        ratelimit.spend('picture')
        try:
            catalogs, words = pool.words()
            return pool.run(current_app.config, drawing.picture, game, result, store.colours(get_db(), game_id),
                            theme(), words, catalogs, current_app.config['NODE_MODULES'], kind)
        except pool.Busy:
            abort(503)
    return game, remembered(pictures, key, lambda: drawing_once(key, draw))
