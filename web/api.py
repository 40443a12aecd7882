"""The JSON API: /api/solve, answering like one line of `python -m scorer solve --jsonl`.

The API reads cards in the canonical letters (S H D C) and answers in English, whatever the
request's Accept-Language or cookies say; `lang=es` (or pt) asks for that language's letters and
words, and `letters=` for the letters alone. Every answer says which letters it read.
"""

from flask import Blueprint, current_app, jsonify, request
from flask_babel import gettext as _

from scorer.query import QueryError, answer_data, game_asked, read_letters, read_query, settings_from
from scorer.rules import CHOICES

from . import pool, solving, store
from .db import get_db
from .ratelimit import solver_rate

bp = Blueprint('api', __name__, url_prefix='/api')


@bp.get('/solve')
@solver_rate
def solve_hand():
    """GET /api/solve?cards=7H+8H+9H&wild=5 (or round=N; game_id=<id> for that game's rules; any setting,
    `game` the kind of game: standard, short, ...)."""
    args = request.args
    base = None
    game_id = game_asked(args)
    if game_id:
        game = store.load_game(get_db(), game_id)
        if game is None:
            return jsonify(error=_("no game '%(game)s'", game=game_id[:40])), 404
        base = game.rules
    fields = {'cards': args.get('cards', ''), 'wild': args.get('wild'), 'round': args.get('round'),
              'lang': args.get('lang'), 'letters': args.get('letters'),
              'rules': settings_from(args)}
    try:
        letters = read_letters(fields)
    except QueryError as e:
        return jsonify(error=str(e)), 400
    try:
        query = read_query(fields, base) if base else read_query(fields)
    except QueryError as e:
        return jsonify(error=str(e), letters=letters), 400
    unknown = sorted(set(args) - set(CHOICES) - {'cards', 'wild', 'round', 'game', 'game_id', 'lang', 'letters'})
    if unknown:
        return jsonify(error=_("unknown parameter '%(name)s'", name=unknown[0][:40]), letters=letters), 400
    try:                                       # solved off the event loop (web/pool.py)
        solution = pool.run(current_app.config, solving.solve, query.hand, query.wild, query.rules, kind='solver')
    except pool.Busy:
        return jsonify(error=_('The server was too busy to answer: nothing was changed. Try again in a moment.'),
                       letters=letters), 503
    return jsonify(answer_data(query, solution))
