"""/audit: settle a disputed hand with the optimal melds, card by card, and check a claim.

The whole audit lives in the URL (GET, the same names as /api/solve), so a link reproduces it.
"""

from flask import Blueprint, abort, render_template, request
from flask_babel import gettext as _

from scorer.cards import CardError, parse_cards
from scorer.claims import check_claim, parse_melds
from scorer.query import QueryError, read_rules, read_wild
from scorer.referee import wild_words
from scorer.rules import CHOICES, DEFAULT, GAMES
from scorer.solver import arrangements, discards_to_go_out, list_minus, solve

from . import store
from .db import get_db
from .forms import TITLES, choices

bp = Blueprint('audit', __name__)


def settings_from(args):
    return {k: v for k, v in args.items() if k in CHOICES and v != '' and (k != 'game' or v in GAMES)}


@bp.get('/audit')
def audit():
    args = request.args
    errors, result = {}, None
    base, game_id = DEFAULT, args.get('game') if args.get('game') not in GAMES else None
    if game_id:
        game = store.load_game(get_db(), game_id)
        if game is None:
            abort(404)
        base = game.rules
    try:
        rules = read_rules(settings_from(args), base=base)
    except QueryError as e:
        errors['rules'], rules = str(e), base
    wild = round = None
    if args.get('wild') or args.get('round'):
        try:
            wild, round = read_wild(args.get('wild') if not args.get('round') else None, args.get('round'), rules)
        except QueryError as e:
            errors['round'] = str(e)
    text = args.get('cards', '')
    hand = []
    if text.strip():
        try:
            hand = parse_cards(text, rules.decks, rules.jokers)
        except CardError as e:
            errors['cards'] = str(e)
    claim_score = None
    if args.get('claim', '').strip():
        try:
            claim_score = int(args['claim'].strip())
            if not 0 <= claim_score <= 9999:
                raise ValueError
        except ValueError:
            errors['claim'] = _("'%(text)s' is not a score (a whole number of points)", text=args['claim'].strip())
    claim_melds = None
    if args.get('melds', '').strip():
        try:
            claim_melds = parse_melds(args['melds'], lambda t: parse_cards(t, rules.decks, rules.jokers))
        except CardError as e:
            errors['melds'] = _('claimed melds: %(error)s', error=e)
    if hand and not errors and (args.get('wild') or args.get('round')):
        result = judge(hand, wild, round, rules, claim_score, claim_melds)
    elif text.strip() and not errors and not (args.get('wild') or args.get('round')):
        errors['round'] = _('choose the round (or the wild rank)')
    return render_template('audit/audit.html', args=args, errors=errors, result=result, rules=rules,
                           wild=wild, round=round, game_id=game_id, settings=[k for k in CHOICES],
                           choices=choices, titles=TITLES, printable=args.get('view') == 'print')


def judge(hand, wild, round, rules, claim_score, claim_melds):
    """Everything the audit page says about a hand."""
    found = arrangements(hand, wild, rules, limit=2)
    solution = found[0]
    words = wild_words(wild, rules)
    intro = (_('Round %(round)d: %(size)d cards, %(wild)s.', round=round, size=rules.hand_size(round), wild=words)
             if round else words + '.')
    result = {'hand': hand, 'solution': solution, 'others': len(found) > 1, 'claim': None, 'go_out': None,
              'intro': intro[0].upper() + intro[1:]}
    if claim_score is not None or claim_melds is not None:
        result['claim'] = check_claim(hand, wild, rules, melds=claim_melds, score=claim_score)
    if round and len(hand) == rules.hand_size(round) + 1:
        discards = discards_to_go_out(hand, wild, rules)
        if discards:
            result['go_out'] = {'can': True, 'discards': discards}
        else:
            leaves = min(((solve(list_minus(hand, [c]), wild, rules).penalty, c) for c in set(hand)),
                         key=lambda t: (t[0], str(t[1])))
            result['go_out'] = {'can': False, 'best': leaves}
    return result
