"""The jobs of the solver's pool (web/pool.py): a hand solved, audited or previewed for the pages
that run the solver for anyone. The slowest hand the app accepts takes a tenth of a second or so
of CPU (docs/speed.md), so these run off the server's event loop too. Each takes the page's
language, for the words its answer holds."""

from scorer import query
from scorer.referee import audit as referee_audit
from scorer.solver import solve as solve_hand

from .phone import phone


def solve(hand, wild, rules):
    """scorer.solver.solve: the hand's minimal penalty, its melds and its deadwood."""
    return solve_hand(hand, wild, rules)


def audit(language, hand, wild, rules, round, claim_score, claim_melds):
    """scorer.referee.audit, its words in this language."""
    with phone().speaking(language):
        return referee_audit(hand, wild, rules, round, claim_score, claim_melds)


def preview(language, asked):
    """scorer.query.preview (a hand as an entry page's preview shows it), its words in this language."""
    with phone().speaking(language):
        return query.preview(asked)
