"""Who may edit a game: the scorekeeper's browser. Everyone else follows.

A browser is told apart by one small cookie, `browser`: a random token made the first time it
keeps a game, HttpOnly, for two years. The store keeps only the token's hash, and which games
that browser keeps score of, so a scorekeeper with hundreds of games still sends one short
cookie. A game is handed to another browser with its edit key (the scorekeeper link). Browsers of
earlier versions held one `keeper_<id>` cookie a game (the game's edit key): each is checked
once, the game is added to the browser's own, and the cookie is removed (adopt_old_cookies).
The store keeps edit keys as hashes: a key is shown once, when the scorekeeper makes a link.
"""

import functools
import hmac
import secrets

from flask import abort, g, request

from scorer.limits import MAX_KEY

from . import store
from .db import get_db
from .forms import EmptyForm

BROWSER = 'browser'         # the cookie holding this browser's own token
OLD_PREFIX = 'keeper_'      # the per-game cookies of earlier versions
TWO_YEARS = 2 * 365 * 24 * 3600


def key_matches(given, stored_hash):
    """Whether a key given is the one whose hash the store keeps (compared in constant time)."""
    return hmac.compare_digest(store.key_hash(given or '').encode(), stored_hash.encode())


MADE = 'scorer.browser_token'   # where a request keeps a token made for it (in its own environ)


def browser_token(make=False):
    """This browser's token (made now, and sent with the response, when asked to and it has none)."""
    token = request.environ.get(MADE) or request.cookies.get(BROWSER, '')
    if not (16 <= len(token) <= MAX_KEY and token.isascii() and token.replace('-', '').replace('_', '').isalnum()):
        token = ''
    if not token and make:
        token = request.environ[MADE] = secrets.token_urlsafe(24)
    return token


def browser():
    """The hash the store knows this browser by ('' when it has no token)."""
    token = browser_token()
    return store.key_hash(token) if token else ''


def is_keeper(game_id):
    """Whether this browser keeps score of the game (404 when there is no such game)."""
    return keeper_and_revision(game_id)[0]


def keeper_and_revision(game_id):
    """Whether this browser keeps score of the game, and the game's save count, in one look-up."""
    key, revision = store.key_and_revision(get_db(), game_id)
    if key is None:
        abort(404)
    keeper = key == '' or bool(browser()) and store.keeps(get_db(), browser(), game_id)
    if keeper:
        g.personal = True                  # the page may show the key: no cache keeps it (web/headers.py)
    return keeper, revision


def require_keeper(game_id):
    if not is_keeper(game_id):
        abort(403)


def keeper_post(form=EmptyForm):
    """A scorekeeper's POST: 404 when there is no such game, 403 for anyone but its scorekeeper, 400
    when the form does not validate (its CSRF token included). `form` is a FlaskForm class, or a
    function of the game that makes one. The view is called with the game and the valid form."""
    def wrap(view):
        @functools.wraps(view)
        def checked(game_id, **kwargs):
            require_keeper(game_id)
            game = store.load_game(get_db(), game_id)
            if game is None:
                abort(404)
            posted = form() if isinstance(form, type) else form(game)
            if not posted.validate_on_submit():
                abort(400)
            return view(game_id, game, posted, **kwargs)
        return checked
    return wrap


def remember(response, game_id):
    """This browser keeps score of the game from now on (its token is sent if it is new)."""
    browser_token(make=True)
    store.keep(get_db(), browser(), [game_id])
    return response


def kept_games():
    """The ids of the games this browser keeps score of, the most recently kept first."""
    g.personal = True                      # a page listing them is this browser's own (web/headers.py)
    return store.kept(get_db(), browser()) if browser() else []


def adopt_old_cookies():
    """Before a request: games kept in the per-game cookies of earlier versions become this browser's
    (each cookie whose value is the game's edit key); the cookies are removed with the response."""
    old = {name[len(OLD_PREFIX):]: value for name, value in request.cookies.items() if name.startswith(OLD_PREFIX)}
    if not old:
        return
    hashes = store.edit_key_hashes(get_db(), old)
    mine = [game_id for game_id, stored in hashes.items() if stored and key_matches(old[game_id], stored)]
    if mine:
        browser_token(make=True)
        store.keep(get_db(), browser(), mine)
    request.environ['scorer.old_cookies'] = [OLD_PREFIX + game_id for game_id in old]


def send_cookies(response):
    """After a request: a new token goes to the browser; the old per-game cookies go away."""
    if request.environ.get(MADE):
        response.set_cookie(BROWSER, request.environ[MADE], max_age=TWO_YEARS, httponly=True, samesite='Lax',
                            secure=request.is_secure)
    for name in request.environ.get('scorer.old_cookies', ()):
        response.delete_cookie(name)
    return response


def init_app(app):
    app.before_request(adopt_old_cookies)
    app.after_request(send_cookies)
