"""Sharing a game: the QR code of the follower link, the big screen, and the result as a picture."""

import io
import os
import tempfile
from functools import lru_cache
from urllib.parse import urlsplit

import resvg_py
import segno
from flask import Blueprint, Response, render_template, request, send_file
from markupsafe import Markup

from scorer.i18n import language

from . import export as export_file
from . import store
from .db import get_db
from .picture import MARGIN, WIDTH, lay_out
from .sheets import load_sheet, pictures, remembered, sheet_context
from .typeface import FAMILY

bp = Blueprint('sharing', __name__)

PNG_ZOOM = 2        # the PNG at twice the picture's size: sharp on a phone's screen (two pixels a point)


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
    return Response(svg_of(picture(game_id, game, result)), mimetype='image/svg+xml',
                    headers={'Cache-Control': 'no-cache',
                             'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; font-src data:"})

@bp.get('/games/<game_id>/picture.png')
def picture_png(game_id):
    """The same picture as PNG, drawn on the server (resvg: no browser, no system library)."""
    game, result, revision = load_sheet(game_id)
    png = remembered(pictures, (game_id, revision, language(), theme()), lambda: png_of(picture(game_id, game, result)))
    return send_file(io.BytesIO(png), mimetype='image/png', download_name=export_file.filename(game, game_id, 'png'),
                     as_attachment=request.args.get('download') == '1', etag=False, max_age=0)

def theme():
    """The picture's variant: ?theme=dark, or light."""
    return 'dark' if request.args.get('theme') == 'dark' else 'light'

def picture(game_id, game, result):
    """The picture laid out from measured text, in the players' colours and the asked theme."""
    return lay_out(game, result, store.colours(get_db(), game_id), theme())

def svg_of(drawn):
    """The picture as SVG, its fonts embedded."""
    return render_template('games/picture.svg', picture=drawn, width=WIDTH, margin=MARGIN, family=FAMILY)

def png_of(drawn):
    """The picture as PNG, drawn by resvg in the same fonts (written to a folder removed at once)."""
    with tempfile.TemporaryDirectory() as folder:
        files = []
        for weight, font in drawn.fonts.items():
            if font.data:
                files.append(os.path.join(folder, f'{weight}.ttf'))
                with open(files[-1], 'wb') as out:
                    out.write(font.data)
        return bytes(resvg_py.svg_to_bytes(svg_string=svg_of(drawn), font_files=files or None, zoom=PNG_ZOOM))
