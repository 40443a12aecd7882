"""The jobs of the solver's pool (web/pool.py): a hand solved, audited or previewed for the pages
that run the solver for anyone, a round read on its page, a seated player's hand. The slowest hand
the app accepts takes a tenth of a second or so of CPU (docs/speed.md), so these run off the
server's event loop too. Each takes the page's catalogs and language (pool.words()), for the words
its answer holds; `noted` runs one and hands back what it solved, for the server to remember."""

from scorer import query, sheet
from scorer.referee import audit as referee_audit
from scorer.solver import solve as solve_hand

from .drawing import speaking


def solve(hand, wild, rules):
    """scorer.solver.solve: the hand's minimal penalty, its melds and its deadwood."""
    return solve_hand(hand, wild, rules)


def solutions(keys):
    """{key: Solution} of hands known by their keys (scorer.sheet.Solved.key): the hands of a sheet
    whose answers were stored nowhere (scorer.sheet.read_through)."""
    return {key: sheet.solve(*key) for key in keys}


def audit(words, hand, wild, rules, round, claim_score, claim_melds):
    """scorer.referee.audit, its words in the page's language ((catalogs, language))."""
    with speaking(*words):
        return referee_audit(hand, wild, rules, round, claim_score, claim_melds)


def preview(words, asked, out=False):
    """scorer.query.preview (a hand as an entry page's preview shows it), its words in the page's language."""
    with speaking(*words):
        return query.preview(asked, out)


def read_round(words, game, number, out, typed, letters):
    """scorer.sheet.read_round: a round as typed on its page, checked and clean (RoundError if not)."""
    with speaking(*words):
        return sheet.read_round(game, number, out, typed, letters)


def score_entry(words, game, number, entry):
    """scorer.sheet.score_entry: a seated player's hand scored on its own (EntryError if it cannot be)."""
    with speaking(*words):
        return sheet.score_entry(game, number, entry)


def noted(job, *args):
    """(job(*args), the hands scorer/sheet.py solved for it): the server remembers them too, so the
    sheet it draws next solves none of them again in its own process."""
    with sheet.solve.noting() as answers:
        value = job(*args)
    return value, answers
