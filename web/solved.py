"""Every solve a request causes on a scorekeeper's or a seated player's page (a round saved or
checked, a seat's hand, a game file read), in one place: run off the server's event loop by a
pool (web/pool.py; the solver's own, or the heavy one for a game file), after `hands` of the
client's solver budget are spent (web/ratelimit.py SOLVER_RATE, one a hand with cards: OverBudget,
429, past it), and what it solved remembered by this process too (scorer/sheet.py's cache), so the
sheet drawn after a save solves none of those hands again on the event loop; a sheet holding hands
this process never solved (saved by the other process, or before a restart) is scored by the pool
too. pool.Busy when the pool can take no more."""

from flask import current_app

from scorer import sheet

from . import pool, ratelimit, solving


def solved(job, *args, hands=0, kind='solver'):
    """job(*args) (a job of web/solving.py or web/drawing.py) run by the pool of that kind, `hands` of
    this client's solver budget spent first."""
    if hands:
        ratelimit.spend('solver', hands)
    value, answers = pool.run(current_app.config, solving.noted, job, *args, kind=kind)
    sheet.solve.remember(answers)
    return value


scoring_once = pool.Once()


def scored_sheet(game, key):
    """The stored game's sheet (its broken rounds left out), scored here if this process knows every
    hand's answer already, else by the solver's pool, once for every request asking for it at the same
    `key` (a hand saved by the server's other process, or before a restart, is solved again: never on
    the event loop). pool.Busy when the pool can take no more."""
    try:
        with sheet.solve.known():
            return sheet.compute_sheet(game, skip_broken=True)
    except sheet.Unsolved:
        return scoring_once(key, lambda: solved(solving.scored_sheet, pool.words(), game))


def hands_typed(typed):
    """How many hands a page's entries hold (a seat with cards typed): what solving them costs."""
    return sum(1 for entry in typed if (entry.get('cards') or '').strip())
