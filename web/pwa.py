"""The installable app: the service worker, served from the root so that it covers every page."""

from flask import Blueprint, current_app, send_from_directory

bp = Blueprint('pwa', __name__)


@bp.get('/sw.js')
def service_worker():
    return send_from_directory(current_app.static_folder, 'sw.js', mimetype='text/javascript', max_age=0)
