"""The language switcher: /language/<code> remembers the table's choice in a cookie and goes back to
the page it was chosen on (web/i18n.py reads the cookie)."""

from urllib.parse import urlsplit

from flask import Blueprint, current_app, redirect, request

ONE_YEAR = 365 * 24 * 3600

bp = Blueprint('switcher', __name__)


def same_site(target):
    """`target` when it is a path on this site, else '/': no scheme, no host, no backslash or control character."""
    if not isinstance(target, str) or not target.startswith('/') or any(c in target for c in '\\\r\n\t\x00'):
        return '/'
    if any(ord(c) < 32 or ord(c) == 127 for c in target):
        return '/'
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or target.startswith('//'):
        return '/'
    return target


@bp.get('/language/<code>')
def choose_language(code):
    """The language switcher: remembered in a cookie; back to the page it was chosen on (on this site only)."""
    response = redirect(same_site(request.args.get('next', '/')))
    if code in current_app.config['LANGUAGES']:
        response.set_cookie('lang', code, max_age=ONE_YEAR, samesite='Lax', secure=request.is_secure, httponly=True)
    return response
