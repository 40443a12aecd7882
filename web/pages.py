"""What a page shows, built once for the server's views and the phone's offline scorer alike
(web/phone.py runs this module in Pyodide): each function gives a template its whole context from
the game, its sheet and what the page was asked. No Flask here."""

from scorer.chart import ON_THE_SHEET, race
from scorer.sheet import doubts_key, winner_words

# The race on the big screen: about the shape of the part of the screen it has (landscape or
# portrait, see style.css), in type of 19 units, which that part draws at 18 px or more at 720p,
# each line named at its end.
TV_CHART = dict(width=640, height=500, size=19, labels=True)


def live_part(game_id, sheet, colours, keeper, editable, view='sheet', **more):
    """The context of a sheet's live part (games/_live.html, or games/_tv.html for the big screen)."""
    chart = race(sheet, colours, **(TV_CHART if view == 'tv' else ON_THE_SHEET)) if sheet.rows else None
    return dict(game_id=game_id, sheet=sheet, winner=winner_words(sheet), keeper=keeper, editable=editable,
                colours=colours, chart=chart, **more)


def blank_entries(players):
    """A round's fields as a new page shows them: nothing typed for anyone."""
    return [{'cards': '', 'points': ''} for _player in players]


def round_page(game_id, game, number, sheet, colours, typed=None, out=(), version=0, unsure=(), drafts=None,
               **more):
    """The context of a round's page (games/_round_page.html): the round's hand size, wild and dealer,
    what was typed, and the doubts to confirm (`doubted`: the players whose hand is short)."""
    rules = game.rules
    return dict(game_id=game_id, game=game, number=number, version=str(version),
                typed=blank_entries(game.players) if typed is None else typed, out=list(out),
                unsure=list(unsure), unsure_key=doubts_key(list(unsure)),
                doubted={d.player for d in unsure if d.player}, drafts=drafts or {},
                hand_size=rules.hand_size(number), wild=rules.wild_rank(number), dealer=game.dealer(number),
                sheet=sheet, winner=winner_words(sheet), colours=colours, **more)
