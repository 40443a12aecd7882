"""Every solve a request causes on a scorekeeper's or a seated player's page (a round saved or
checked, a seat's hand, a game file read), in one place: run off the server's event loop by a
pool (web/pool.py; the solver's own, or the heavy one for a game file), after `hands` of the
client's solver budget are spent (web/ratelimit.py SOLVER_RATE, one a hand with cards: OverBudget,
429, past it), and what it solved remembered by this process too (scorer/sheet.py's cache), so the
sheet drawn after a save solves none of those hands again on the event loop. pool.Busy when the
pool can take no more."""

from flask import current_app, g

from scorer import sheet

from . import pool, ratelimit, solving


def solved(job, *args, hands=0, kind='solver'):
    """job(*args) (a job of web/solving.py or web/drawing.py) run by the pool of that kind, `hands` of
    this client's solver budget spent first."""
    if hands:
        ratelimit.spend('solver', hands)
    value, found = pool.run(current_app.config, solving.noted, job, *args, kind=kind)
    sheet.solve.remember(found)
    g.solver_answers = {**answers(), **found}
    return value


def answers():
    """{key: Solution} of every hand this request's solves found (scorer.sheet.Solved's keys)."""
    return g.get('solver_answers', {})


def hands_typed(typed):
    """How many hands a page's entries hold (a seat with cards typed): what solving them costs."""
    return sum(1 for entry in typed if (entry.get('cards') or '').strip())
