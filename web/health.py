"""/health: whether the app answers and its database does, with the release and the offline
bundle's, never cached: for a monitor or a proxy to poll."""

import sqlite3

from flask import Blueprint, jsonify

from . import __version__, bundle
from . import store
from .db import get_db

bp = Blueprint('health', __name__)


@bp.get('/health')
def health():
    """200 with the release and the offline bundle's when the database answers; 503 with the reason
    when it does not (too many open files when the process has none left to open it with). One read of the database's first page, never cached: cheap to poll every second."""
    answer = {'release': __version__, 'offline_release': bundle.release() if bundle.available() else None}
    try:
        get_db().execute('SELECT count(*) FROM sqlite_master').fetchone()
    except (sqlite3.Error, OSError) as e:
        why = f'too many open files ({e})' if store.out_of_files() else str(e)
        response = jsonify(status='unavailable', database=f'does not answer: {why}', **answer)
        response.status_code = 503
    else:
        response = jsonify(status='ok', database='ok', **answer)
    response.headers['Cache-Control'] = 'no-store'
    return response
