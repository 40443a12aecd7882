"""Who may edit a game: the scorekeeper, who holds its edit key in a cookie. Everyone else follows."""

import hmac

from flask import abort, g, request

from . import store
from .db import get_db

PREFIX = 'keeper_'
TWO_YEARS = 2 * 365 * 24 * 3600


def cookie_name(game_id):
    return PREFIX + game_id


def key_matches(given, key):
    """Compare a key in constant time."""
    return hmac.compare_digest((given or '').encode(), key.encode())


def is_keeper(game_id):
    """Whether this browser holds the game's edit key (404 when there is no such game)."""
    return keeper_and_revision(game_id)[0]


def keeper_and_revision(game_id):
    """Whether this browser holds the game's key, and the game's save count, in one look-up."""
    key, revision = store.key_and_revision(get_db(), game_id)
    if key is None:
        abort(404)
    keeper = key == '' or key_matches(request.cookies.get(cookie_name(game_id)), key)
    if keeper:
        g.personal = True                  # the page may show the key: no cache keeps it (app.py)
    return keeper, revision


def require_keeper(game_id):
    if not is_keeper(game_id):
        abort(403)


def remember(response, game_id, key):
    """Keep the edit key in this browser for two years."""
    response.set_cookie(cookie_name(game_id), key, max_age=TWO_YEARS, httponly=True, samesite='Lax',
                        secure=request.is_secure)
    return response


def kept_games():
    """The ids of the games this browser keeps score of: those whose edit-key cookie holds the right key
    (a cookie named after a game with any other value lists nothing)."""
    claimed = {name[len(PREFIX):]: value for name, value in request.cookies.items() if name.startswith(PREFIX)}
    keys = store.edit_keys(get_db(), claimed)
    return [game_id for game_id, key in keys.items() if key == '' or key_matches(claimed[game_id], key)]
