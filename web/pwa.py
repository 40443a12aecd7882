"""The installable app: the service worker, served from the root so that it covers every page, and
the web manifest in the page's language."""

import json
from pathlib import Path

from flask import Blueprint, Response, current_app, url_for
from flask_babel import get_locale
from flask_babel import gettext as _

from . import store
from .bundle import release
from .i18n import language_tag

bp = Blueprint('pwa', __name__)

# What does not change with the language; the name and description are added in the page's.
MANIFEST = {"short_name": "3-13", "start_url": "/", "scope": "/", "display": "standalone", "background_color": "#ffffff", "theme_color": "#0b5d1e"}
ICONS = (192, 512)            # static/icons/icon-<size>.png


@bp.get('/sw.js')
def service_worker():
    """static/sw.js with the offline bundle's release in it (a new release is a new service worker),
    and the pattern of a game's id (store.GAME_ID)."""
    text = (Path(current_app.static_folder) / 'sw.js').read_text().replace('__RELEASE__', release()).replace(
        '__GAME_ID__', store.GAME_ID['pattern'])
    return Response(text, mimetype='text/javascript', headers={'Cache-Control': 'no-cache'})


@bp.get('/manifest.webmanifest')
def manifest():
    """The web manifest, its name and description in the page's language (the phone shows them
    when the app is installed)."""
    data = {'name': _('Three-Thirteen scorekeeper'), 'lang': language_tag(get_locale()),
            'description': _('Keep score of Three-Thirteen at the table, with an exact meld checker.'), **MANIFEST,
            'icons': [{'src': url_for('static', filename=f'icons/icon-{size}.png'), 'sizes': f'{size}x{size}',
                       'type': 'image/png', 'purpose': 'any maskable'} for size in ICONS]}
    return Response(json.dumps(data, ensure_ascii=False), mimetype='application/manifest+json',
                    headers={'Cache-Control': 'no-cache', 'Vary': 'Accept-Language, Cookie'})
