"""/health: whether the app answers and its database does, and whether saves can be made (a disk
full or turned read-only, named), with the release and the offline bundle's, never cached: for a
monitor or a proxy to poll."""

import sqlite3

from flask import Blueprint, current_app, jsonify

from . import __version__, bundle, store
from .db import get_db

bp = Blueprint('health', __name__)


@bp.get('/health')
def health():
    """200 with the release and the offline bundle's when the database answers; 503 with the reason
    when it does not (too many open files when the process has none left to open it with). Whether
    saves can be made, said apart: a disk that turned read-only or is full still serves every page (200,
    `status` the cause, `saves` in words); a monitor alerts on any `status` but "ok". How many of this
    process's requests wait for a database another connection holds (`waiting_for_lock`). One read of the
    database's first page and a file made and removed beside it, never cached: cheap to poll every second."""
    answer = {'release': __version__, 'offline_release': bundle.release() if bundle.available() else None,
              'waiting_for_lock': store.waiting()}
    try:
        get_db().execute('SELECT count(*) FROM sqlite_master').fetchone()
    except (sqlite3.Error, OSError) as e:
        why = f'too many open files ({e})' if store.out_of_files() else str(e)
        response = jsonify(status='unavailable', database=f'does not answer: {why}', **answer)
        response.status_code = 503
    else:
        cause = store.disk_trouble(current_app.config['DATABASE'])
        saves = 'ok' if cause is None else (f'refused: the disk is {cause}; every page is served from what '
                                            'was saved before')
        response = jsonify(status=cause or 'ok', database='ok', saves=saves, **answer)
    response.headers['Cache-Control'] = 'no-store'
    return response
