"""A second fence around the solver: each client (by address) gets at most SOLVER_RATE answers from
the pages that run it for anyone (/api/solve, /api/audit, /audit). The first fence is the limits
every query is read within (scorer/limits.py); this one keeps a single client from keeping a worker
busy with a stream of legal queries. Kept in each worker's memory (Flask-Limiter)."""

from flask import current_app, jsonify, render_template, request
from flask_babel import gettext as _
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address

# A table at one Wi-Fi (several phones behind one address) previews a hand a tap: well within this.
SOLVER_RATE = '20 per second; 600 per minute'

def client():
    """Whose questions these are: the client's address (the proxy's word for it only where
    SCORER_PROXIES says to trust it), counted per app (a test process makes many apps)."""
    return f'{id(current_app._get_current_object())}:{get_remote_address()}'


limiter = Limiter(client, storage_uri='memory://', default_limits=[])
solver_rate = limiter.shared_limit(lambda: current_app.config['SOLVER_RATE'], scope='solver')


def too_many(error):
    """429, in JSON for the API and as a page elsewhere, saying when to try again."""
    message = _('Too many questions from this address: wait a moment and try again.')
    if request.path.startswith('/api/'):
        return jsonify(error=message), 429
    return render_template('error.html', title=_('Too many requests'), message=message), 429


def init_app(app):
    app.config.setdefault('SOLVER_RATE', SOLVER_RATE)
    limiter.init_app(app)
    app.register_error_handler(429, too_many)
