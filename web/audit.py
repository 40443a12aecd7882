"""/audit and its JSON twin /api/audit: settle a disputed hand with the optimal melds, card by card, and
check a claim; and /audit/preview, the entry pages' preview of one hand.

The whole audit lives in the URL (GET, the same names as /api/solve), so a link reproduces it;
/api/audit takes the same parameters and answers the same facts as JSON. Cards in a URL are read
in the canonical letters (S H D C), or in those of `letters=` (the audit form says which letters
its page reads: 7C is 7♥ on a Spanish page); a form sent in a language's letters is answered with
a redirect to the same audit written in suit symbols, so its address, and the "Link to this audit",
mean the same hand on every phone.
"""

from flask import Blueprint, abort, current_app, jsonify, redirect, render_template, request, url_for
from flask_babel import gettext as _


from scorer.cards import CardError, pretty, rank_text
from scorer.reading import letters_of, parse_hand
from scorer.claims import parse_melds
from scorer.limits import MAX_PLAYERS, MAX_POINTS
from scorer.numbers import read_whole
from scorer import query
from scorer.referee import audit_data
from scorer.rules import CHOICES, DEFAULT

from . import pool, solving, store
from .db import get_db
from .ratelimit import solver_rate
from .forms import choices, title

bp = Blueprint('audit', __name__)
PARAMETERS = {'cards', 'round', 'wild', 'claim', 'melds', 'game', 'game_id', 'view', 'player', 'lang', 'letters', *CHOICES}


def letters(args):
    """The language whose letters the URL's cards are typed in (`letters=`), canonical by default;
    an unknown one reads the canonical letters too."""
    return letters_of(args.get('letters'))


def asked_hand(args, letters='en'):
    """The hand asked about by these URL parameters, on the rules of the game it is from (404 if none)."""
    game_id = query.game_asked(args)
    base = DEFAULT
    if game_id:
        game = store.load_game(get_db(), game_id)
        if game is None:
            abort(404)
        base = game.rules
    return query.read_hand(args, base, game_id, letters)


def read_audit(args, letters='en'):
    """The audit asked for by these URL parameters: (game id, rules, wild, round, Audit or None, errors)."""
    asked = asked_hand(args, letters)
    game_id, rules, wild, round, hand, errors = asked
    result = None
    claim_score = None
    if args.get('claim', '').strip():
        claim_score = read_whole(args['claim'], MAX_POINTS)
        if claim_score is None:
            errors['claim'] = _("'%(text)s' is not a score (a whole number of points)", text=args['claim'].strip())
    claim_melds = None
    if args.get('melds', '').strip():
        try:
            claim_melds = parse_melds(args['melds'], lambda t: parse_hand(t, rules, letters))
        except CardError as e:
            errors['melds'] = _('claimed melds: %(error)s', error=e)
    chosen = args.get('wild') or args.get('round')
    if hand and not errors and chosen:
        result = solved(solving.audit, pool.words(), hand, wild, rules, round, claim_score, claim_melds)
    elif args.get('cards', '').strip() and not errors and not chosen:
        errors['round'] = _('choose the round (or the wild rank)')
    return game_id, rules, wild, round, result, errors, claim_melds


def address(args, result, claim_melds, **more):
    """The address of this audit with its cards in suit symbols, which every phone reads alike."""
    fields = {k: v for k, v in args.items() if k not in ('letters', 'lang', 'view', 'cards', 'melds', 'wild') and v != ''}
    if query.old_address(args):
        fields['game_id'] = fields.pop('game')
    fields['cards'] = pretty(result.hand)
    if claim_melds:
        fields['melds'] = ' | '.join(pretty(m) for m in claim_melds)
    if args.get('wild'):
        fields['wild'] = rank_text(result.wild) if result.wild else 'none'
    return url_for('audit.audit', **fields, **more)


def solved(job, *args):
    """A job of web/solving.py, run off the event loop by the solver's pool; 503 when it is full."""
    try:
        return pool.run(current_app.config, job, *args, kind='solver')
    except pool.Busy:
        if request.path.startswith('/api/'):
            busy = jsonify(error=_('The server was too busy to answer: nothing was changed. Try again in a moment.'))
            busy.status_code = 503
            abort(busy)
        abort(503)


def recorded(game_id, round, seat):
    """Whose hand this is and what the sheet recorded for it, when the audit was opened from a score."""
    number = read_whole(seat or '', MAX_PLAYERS - 1)
    if not game_id or round is None or number is None:
        return None
    game = store.load_game(get_db(), game_id)
    if game is None or number >= len(game.players):
        return None
    player = game.players[number]
    entry = next((e for e in game.rounds.get(round, ()) if e.player == player), None)
    if entry is None:
        return None
    return {'player': player, 'round': round, 'entry': entry}


@bp.get('/audit')
@solver_rate
def audit():
    game_id, rules, wild, round, result, errors, claim_melds = read_audit(request.args, letters(request.args))
    if result and ('letters' in request.args or query.old_address(request.args)):
        return redirect(address(request.args, result, claim_melds))
    links = {'link': address(request.args, result, claim_melds),
             'printable': address(request.args, result, claim_melds, view='print')} if result else {}
    return render_template('audit/audit.html', args=request.args, errors=errors, result=result, rules=rules, links=links,
                           recorded=recorded(game_id, round, request.args.get('player')),
                           wild=wild, round=round, game_id=game_id, settings=list(CHOICES),
                           choices=choices, title=title, printable=request.args.get('view') == 'print')


@bp.get('/audit/preview')
@solver_rate
def preview():
    """GET /audit/preview?cards=...&round=N&game_id=<id>&out=1: one hand's minimal penalty as the saved
    result shows it, an HTML fragment for the entry pages' live preview (the same _hand.html the
    result pages use, so the two never differ)."""
    asked = asked_hand(request.args, letters(request.args))
    out = request.args.get('out') == '1'
    solution, error = solved(solving.preview, pool.words(), asked, out)
    html = render_template('games/_preview.html', solution=solution, error=error, rules=asked.rules,
                           wild=asked.wild, out=out)
    return html, 400 if error else 200


@bp.get('/api/audit')
@solver_rate
def audit_api():
    """GET /api/audit?cards=...&round=N (or wild=R), claim=, melds=, game_id=, any setting (game= the kind): the audit as JSON."""
    unknown = sorted(set(request.args) - PARAMETERS)
    if unknown:
        return jsonify(error=_("unknown parameter '%(name)s'", name=unknown[0])), 400
    game_id = query.game_asked(request.args)
    if game_id and store.load_game(get_db(), game_id) is None:
        return jsonify(error=_("no game '%(game)s'", game=game_id[:40])), 404
    try:
        read = query.read_letters(request.args)
    except query.QueryError as e:
        return jsonify(error=str(e), errors={'letters': str(e)}), 400
    game_id, rules, wild, round, result, errors, _melds = read_audit(request.args, read)
    if not errors and result is None:
        errors['cards'] = _('no cards given (%(example)s)', example='cards=7H+8H+9H')
    if errors:
        return jsonify(error='; '.join(errors.values()), errors=errors, letters=read), 400
    return jsonify({**audit_data(result), 'letters': read})
