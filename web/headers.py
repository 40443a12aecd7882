"""The headers every response carries, decided here once: the content security policy and its
companions, HSTS over HTTPS, and what no cache may keep.

A response is personal when a view, or a function it called, marked it so (`personal()`): a
scorekeeper's page or JSON (access.py marks whatever it shows a scorekeeper, offline.json and a
round's drafts included), a seated player's hand, the pages that list what this browser keeps (/,
/history, /stats, the new-game page's known names). A personal response is sent `Cache-Control:
no-store` and `Vary: Cookie`, whatever its type: no shared cache or proxy keeps it, and none hands
one browser's copy to another. So is any response that sets a cookie (no_store_when_cookies). (The service worker of a scorekeeper's phone keeps its own pages for
offline play all the same: they are that phone's.)
"""

from flask import current_app, g, request

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; manifest-src 'self'; worker-src 'self'; object-src 'none'; "
       "base-uri 'self'; form-action 'self'; frame-ancestors 'none'")
HSTS_SECONDS = 365 * 24 * 3600      # how long a browser that came over HTTPS keeps to HTTPS (SCORER_HSTS_SECONDS)


def personal():
    """Mark this request's response as this browser's own: no cache keeps it."""
    g.personal = True


def is_personal():
    return bool(g.get('personal'))


def security_headers(response):
    """No inline script or style anywhere, no framing, no sniffing; the referrer only to this site,
    where Flask-WTF's HTTPS check needs it (the edit key is in a link's fragment, never sent); over
    HTTPS (directly, or through a trusted proxy), HSTS; and personal responses kept by no cache."""
    response.headers.setdefault('Content-Security-Policy', CSP)
    response.headers.setdefault('X-Content-Type-Options', 'nosniff')
    response.headers.setdefault('Referrer-Policy', 'same-origin')
    response.headers.setdefault('X-Frame-Options', 'DENY')
    if request.is_secure:
        response.headers['Strict-Transport-Security'] = f"max-age={current_app.config['HSTS_SECONDS']}"
    if is_personal():
        response.headers['Cache-Control'] = 'no-store'
        response.vary.add('Cookie')
    return response


def no_store_when_cookies(response):
    """A response that sets a cookie (a browser token, the session) is that browser's own: no shared
    cache may keep it and hand the cookie to the next phone. Called once every hook has run (app.py's
    session interface saves the session last)."""
    if 'Set-Cookie' in response.headers:
        response.headers['Cache-Control'] = 'no-store'
        response.vary.add('Cookie')


def init_app(app):
    app.after_request(security_headers)
