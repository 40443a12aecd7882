"""Sharing a game: the QR code of the follower link, the big screen, and the result as a picture."""

import io
from functools import lru_cache
from urllib.parse import urlsplit

import resvg_py
import segno
from flask import Blueprint, Response, render_template, request, send_file
from markupsafe import Markup

from scorer.chart import PALETTE, SHAPES, race
from scorer.i18n import language
from scorer.sheet import winner_words

from . import export as export_file
from . import store
from .db import get_db
from .sheets import load_sheet, pictures, remembered, sheet_context

bp = Blueprint('sharing', __name__)


@lru_cache(maxsize=256)
def qr_svg(text):
    """A QR code of the text as inline SVG, drawn on the server (once per link)."""
    out = io.BytesIO()
    segno.make(text, error='m').save(out, kind='svg', xmldecl=False, svgns=True, border=2, omitsize=True,
                                     dark='#000', light='#fff', svgclass='qr', title='QR code of the viewer link')
    return Markup(out.getvalue().decode())

def loopback(host):
    """Whether a Host header names this machine only (127.0.0.1, localhost, [::1]): no other phone reaches it."""
    try:
        name = urlsplit('//' + host).hostname or ''
    except ValueError:
        return False
    return name == 'localhost' or name == '::1' or name.startswith('127.')

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
    png = remembered(pictures, (game_id, revision, language()),
                     lambda: resvg_py.svg_to_bytes(svg_string=picture(game_id, game, result)))
    return send_file(io.BytesIO(png), mimetype='image/png', download_name=export_file.filename(game, game_id, 'png'),
                     as_attachment=request.args.get('download') == '1', etag=False, max_age=0)

def picture(game_id, game, result):
    """The picture's SVG: title, date, standings with the winner, and the race chart, in fixed colours."""
    colours = store.colours(get_db(), game_id)
    return render_template('games/picture.svg', game=game, sheet=result, winner=winner_words(result),
                           chart=race(result, colours, width=560, height=300) if result.rows else None,
                           palette=PALETTE, shapes=SHAPES, colours=colours)
