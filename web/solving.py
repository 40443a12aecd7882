"""The jobs of the solver's pool (web/pool.py): a hand solved, audited or previewed for the pages
that run the solver for anyone. The slowest hand the app accepts takes a tenth of a second or so
of CPU (docs/speed.md), so these run off the server's event loop too. Each takes the page's
catalogs and language (pool.words()), for the words its answer holds."""

from scorer import query
from scorer.referee import audit as referee_audit
from scorer.solver import solve as solve_hand

from .drawing import speaking


def solve(hand, wild, rules):
    """scorer.solver.solve: the hand's minimal penalty, its melds and its deadwood."""
    return solve_hand(hand, wild, rules)


def audit(words, hand, wild, rules, round, claim_score, claim_melds):
    """scorer.referee.audit, its words in the page's language ((catalogs, language))."""
    with speaking(*words):
        return referee_audit(hand, wild, rules, round, claim_score, claim_melds)


def preview(words, asked, out=False):
    """scorer.query.preview (a hand as an entry page's preview shows it), its words in the page's language."""
    with speaking(*words):
        return query.preview(asked, out)
