"""The static files' addresses: /static/<release>/<file>, where the release is a digest of the static
files themselves (their names and contents), the same in every process of every server.

A page's stylesheet, its scripts and every module they import (a relative import resolves under the
same release) are then kept by the browser, and by any cache between, for a year and never asked for
again (`immutable`): a page view is one request, not one and twenty-odd revalidations of files that
did not change (on a phone, each a round trip, level after level of imports). A change to any file
is a new release, so a new address for all of them.

An address of another release (a page kept from before, still open or in the back-forward cache,
importing a module late) or of none (the web manifest's icons) still gets today's file, asked for
again each time (`no-cache`)."""

import hashlib
import re
from pathlib import Path

from flask import Blueprint, current_app, request, send_from_directory

YEAR = 365 * 24 * 3600
IMMUTABLE = f'public, max-age={YEAR}, immutable'
RELEASE = re.compile(r'[0-9a-f]{12}')      # what a release looks like in an address (static/sw.js too)

bp = Blueprint('statics', __name__)
_digests = {}                               # folder -> (its files' names, times and sizes; its release)


def release(folder):
    """The release of the static files under `folder`: 12 hex digits of a digest of every file's name
    and contents (read again only when a file's time or size changed)."""
    folder = Path(folder)
    files = sorted(p for p in folder.rglob('*') if p.is_file())
    seen = tuple((p.relative_to(folder).as_posix(), p.stat().st_mtime_ns, p.stat().st_size) for p in files)
    if _digests.get(folder, (None,))[0] != seen:
        digest = hashlib.sha256()
        for name, *_ in seen:
            digest.update(name.encode() + b'\0' + (folder / name).read_bytes() + b'\0')
        _digests[folder] = (seen, digest.hexdigest()[:12])
    return _digests[folder][1]


def url_path(folder):
    """The static files' address in this release (Flask's static_url_path)."""
    return f'/static/{release(folder)}'


@bp.get('/static/<path:filename>')
def any_release(filename):
    """A static file asked for under another release's address, or under none: today's file, asked
    for again each time."""
    first, _, rest = filename.partition('/')
    folder = Path(current_app.static_folder)
    if rest and RELEASE.fullmatch(first) and not (folder / first).exists():
        filename = rest
    response = send_from_directory(folder, filename, max_age=0)
    response.headers['Cache-Control'] = 'no-cache'
    return response


def kept_a_year(response):
    """A static file under this release's address is kept a year by any cache (not while debugging:
    an edited file keeps its address until the server starts again)."""
    if request.endpoint == 'static' and response.status_code in (200, 304) and not current_app.debug:
        response.headers['Cache-Control'] = IMMUTABLE
    return response


def init_app(app):
    app.register_blueprint(bp)
    app.after_request(kept_a_year)
