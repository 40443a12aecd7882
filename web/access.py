"""Who may edit a game: the scorekeepers' browsers, each told by its `browser` cookie, and which seat a
browser holds (my_seat); the edit key for sharing or handing a game over; 403 for everyone else, who
follows. keeper_post is the gate of a scorekeeper's POST (404, 403, the form or 400); the round page,
GET and POST, asks require_keeper itself (tests/test_keeper_posts.py holds every POST route of
app.url_map to one or the other, or names it as open).

A browser is told apart by one small cookie: a random token made the first time it keeps a game,
signed by the server (a token it never issued, planted by another site or a network, gets no
rights: the browser is given a new one), HttpOnly, for two years; under HTTPS it is named
`__Host-browser`, which no other host and no plain-HTTP page can set. The store keeps only the
token's hash, and which games that browser keeps score of (when it joined, what it is, how it came),
so a scorekeeper with hundreds of games still sends one short cookie, and every scorekeeper sees
who else keeps score and can remove them. A game is shared with another browser, or handed over to
it, with its edit key (the scorekeeper link). Browsers of earlier versions held one `keeper_<id>`
cookie a game (the game's edit key), or an unsigned token: each is checked once, what it held
becomes the browser's own under a new token, and the old cookie is removed (adopt_old_cookies).
The store keeps edit keys as hashes: a key is shown once, when the scorekeeper makes a link.
"""

import base64
import functools
import hashlib
import hmac
import re
import secrets

from flask import abort, current_app, g, request


from . import store
from .db import get_db
from .forms import EmptyForm
from .templating import DEVICE_JOIN

BROWSER = 'browser'                 # the cookie holding this browser's own token (plain HTTP)
SECURE_BROWSER = '__Host-browser'   # ... under HTTPS: only this host, over HTTPS, can set it
OLD_PREFIX = 'keeper_'              # the per-game cookies of earlier versions
SEAT_PREFIX = 'seat_'               # the cookie of a seat this browser holds in a game: seat_<game id>
TWO_YEARS = 2 * 365 * 24 * 3600
TOKEN = re.compile(r'[A-Za-z0-9_-]{32}\.[A-Za-z0-9_-]{22}')   # 24 random bytes, a dot, the signature's 16
OLD_TOKEN = re.compile(r'[A-Za-z0-9_-]{16,64}')                 # a token of an earlier version (unsigned)


def key_matches(given, stored_hash):
    """Whether a key given is the one whose hash the store keeps (compared in constant time)."""
    return hmac.compare_digest(store.key_hash(given or '').encode(), stored_hash.encode())


MADE = 'scorer.browser_token'   # where a request keeps a token made for it (in its own environ)
SIGNING = {}                    # database path -> the key its browser tokens are signed with


def signature(random_part):
    """The server's signature of a token's random part."""
    path = current_app.config['DATABASE']
    if path not in SIGNING:
        SIGNING[path] = store.signing_key(get_db())
    mac = hmac.new(SIGNING[path], random_part.encode(), hashlib.sha256).digest()[:16]
    return base64.urlsafe_b64encode(mac).decode().rstrip('=')


def issued(token):
    """Whether this server issued the token (its signature checks out)."""
    if not token or not TOKEN.fullmatch(token):
        return False
    random_part, mac = token.split('.')
    return hmac.compare_digest(signature(random_part), mac)


def new_token():
    random_part = secrets.token_urlsafe(24)
    return f'{random_part}.{signature(random_part)}'


def cookie_name():
    """The browser cookie's name for this request: `__Host-browser` under HTTPS."""
    return SECURE_BROWSER if request.is_secure else BROWSER


def browser_token(make=False):
    """This browser's token, if the server issued it (made now, and sent with the response, when
    asked to and it has none)."""
    token = request.environ.get(MADE) or request.cookies.get(cookie_name(), '')
    if not issued(token):
        token = ''
    if not token and make:
        token = request.environ[MADE] = new_token()
    return token


def browser():
    """The hash the store knows this browser by ('' when it has no token)."""
    token = browser_token()
    return store.key_hash(token) if token else ''


def device():
    """This browser in words a person recognises ('Chrome on Android'), from its User-Agent."""
    return device_words(request.headers.get('User-Agent', ''))


SYSTEMS = (('iPhone', 'iPhone'), ('iPad', 'iPad'), ('Android', 'Android'), ('CrOS', 'ChromeOS'),
           ('Windows', 'Windows'), ('Macintosh', 'Mac'), ('Linux', 'Linux'))
BROWSERS = (('SamsungBrowser', 'Samsung Internet'), ('Edg', 'Edge'), ('OPR', 'Opera'), ('Firefox', 'Firefox'),
            ('FxiOS', 'Firefox'), ('CriOS', 'Chrome'), ('Chrome', 'Chrome'), ('Chromium', 'Chromium'),
            ('Safari', 'Safari'))


def device_words(agent):
    """'Chrome on Android', 'Safari on iPhone', 'Firefox', '': kept so, and shown in the page's
    language by web.templating.device ('Chrome en Android')."""
    system = next((name for mark, name in SYSTEMS if mark in agent), '')
    program = next((name for mark, name in BROWSERS if mark in agent), '')
    return DEVICE_JOIN.join(part for part in (program, system) if part)[:80]


def is_keeper(game_id):
    """Whether this browser keeps score of the game (404 when there is no such game)."""
    return keeper_and_revision(game_id)[0]


def keeper_and_revision(game_id, look=None):
    """Whether this browser keeps score of the game, and the game's save count, in one look-up: the
    request's connection's, or `look(game_id, browser)`'s (store.key_revision_kept elsewhere: a live
    stream reads on its hub's connection, web/live.py Hub.look)."""
    key, revision, kept = (look or functools.partial(store.key_revision_kept, get_db()))(game_id, browser())
    if key is None:
        abort(404)
    keeper = key == '' or bool(browser()) and kept
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


def seat_cookie(game_id):
    """The name of the cookie holding this browser's seat in a game (its key is HttpOnly, never in a URL)."""
    return SEAT_PREFIX + game_id


def my_seat(game_id):
    """The seat this phone holds in the game (checked against the store), or None."""
    seat, _, key = request.cookies.get(seat_cookie(game_id), '').partition('.')
    if not (seat.isascii() and seat.isdigit() and len(seat) == 1):
        return None
    if not store.seat_holder(get_db(), game_id, int(seat), key):
        return None
    g.personal = True                      # a seat's page: no cache keeps it (web/headers.py)
    return int(seat)

def remember(response, game_id, how='made'):
    """This browser keeps score of the game from now on (its token is sent if it is new)."""
    browser_token(make=True)
    store.keep(get_db(), browser(), [game_id], device(), how)
    return response


def kept_games():
    """The ids of the games this browser keeps score of, the most recently kept first."""
    g.personal = True                      # a page listing them is this browser's own (web/headers.py)
    return store.kept(get_db(), browser()) if browser() else []


def adopt_old_cookies():
    """Before a request: what the cookies of earlier versions held becomes this browser's, under a
    token of its own: the games in per-game cookies (each whose value is the game's edit key), and
    what an unsigned token held (or, under HTTPS, a plain `browser` cookie: any site on the network
    could have set it, so its games are copied to a new token rather than it being taken as this
    browser's). The old cookies are removed with the response."""
    old = {name[len(OLD_PREFIX):]: value for name, value in request.cookies.items() if name.startswith(OLD_PREFIX)}
    if old:
        hashes = store.edit_key_hashes(get_db(), old)
        mine = [game_id for game_id, stored in hashes.items() if stored and key_matches(old[game_id], stored)]
        if mine:
            browser_token(make=True)
            store.keep(get_db(), browser(), mine, device(), 'old')
        request.environ['scorer.old_cookies'] = [OLD_PREFIX + game_id for game_id in old]
    plain = request.cookies.get(BROWSER, '')
    if plain and (request.is_secure or not issued(plain)) and OLD_TOKEN.fullmatch(plain.replace('.', '')):
        if store.known(get_db(), store.key_hash(plain)):
            browser_token(make=True)
            store.copy_browser(get_db(), store.key_hash(plain), browser())
        if request.is_secure:
            request.environ.setdefault('scorer.old_cookies', []).append(BROWSER)


def send_cookies(response):
    """After a request: a new token goes to the browser; the old cookies go away."""
    if request.environ.get(MADE):
        response.set_cookie(cookie_name(), request.environ[MADE], max_age=TWO_YEARS, httponly=True, samesite='Lax',
                            secure=request.is_secure, path='/')
    for name in request.environ.get('scorer.old_cookies', ()):
        response.delete_cookie(name)
    return response


def init_app(app):
    app.before_request(adopt_old_cookies)
    app.after_request(send_cookies)


# A table (web/tables.py): whoever holds its link reads it, as a game's follow link; its keepers
# (who made it, imported it, or came by its keeper link and were not removed) change it. Every
# rule of who may change a table is here, and nowhere else.

def table_or_404(table_id):
    """The table, or 404 (an id nobody was given is no table: nothing says whether it exists)."""
    table = store.load_table(get_db(), table_id)
    if table is None:
        abort(404)
    return table


def is_table_keeper(table_id):
    """Whether this browser keeps the table (404 when there is no such table)."""
    table_or_404(table_id)
    keeper = bool(browser()) and store.keeps_table(get_db(), browser(), table_id)
    if keeper:
        g.personal = True                  # the page may show the keeper link: no cache keeps it
    return keeper


def require_table_keeper(table_id):
    """403 for anyone but the table's keepers (404 when there is no such table)."""
    if not is_table_keeper(table_id):
        abort(403)


def may_add_to_table(game_id, table_id):
    """A game joins a table by its keeper only with the table's keeper rights too, and only a game
    in no table yet: the rule of a game added to a table, and of a game started in one."""
    return is_table_keeper(table_id) and (game_id is None or is_keeper(game_id))


def table_keeper_post(form=EmptyForm):
    """A table keeper's POST: 404 when there is no such table, 403 for anyone but its keepers, 400
    when the form does not validate (CSRF included). The view is called with the table and the form."""
    def wrap(view):
        @functools.wraps(view)
        def checked(table_id, **kwargs):
            require_table_keeper(table_id)
            posted = form() if isinstance(form, type) else form(table_or_404(table_id))
            if not posted.validate_on_submit():
                abort(400)
            return view(table_id, table_or_404(table_id), posted, **kwargs)
        return checked
    return wrap


def hold(table_id):
    """This browser holds the table from now on (it is listed on its start page)."""
    browser_token(make=True)
    store.hold_table(get_db(), browser(), table_id, device())


def held_tables():
    """The tables this browser holds, the newest first."""
    g.personal = True
    return store.held_tables(get_db(), browser()) if browser() else []
