"""A table's parts that pages of several blueprints use: its games as scorer/tables.py takes them
(each summary kept per revision, as the history's), each player's colour across the table's games,
and a game joining a table (a new game started from its page, a rematch, a finished game added)."""

from scorer.chart import COLOURS

from . import store
from .context import summary_kept
from .db import get_db


def table_games(table_id):
    """The table's games as scorer/tables.py takes them ({'id', 'kind', 'day', 'summary'}), the oldest
    first (a day's games in the order they were started), each summary read from the store, or made
    once per revision and kept there."""
    db = get_db()
    listed = sorted(reversed(store.list_games(db, table_id=table_id)), key=lambda g: g['created'])   # oldest first
    kept = store.table_summaries(db, table_id)
    games = []
    for g in listed:
        games.append({'id': g['id'], 'kind': g['kind'], 'day': g['date'], 'summary': summary_kept(db, g, kept),
                      'next_round': g['next_round'], 'last_round': g['last_round']})
    return games


def colours_of(table, players):
    """Each player's colour at the table: the one the table gave them, else the first colour no one
    there has (in the order given), so that a player keeps one colour across the table's games."""
    given = {name.casefold(): colour for name, colour in table['colours'].items()}
    taken = set(given.values())
    free = (c for c in list(range(len(COLOURS))) * 2 if c not in taken)
    out = []
    for player in players:
        if player.casefold() not in given:
            given[player.casefold()] = next(free, len(out) % len(COLOURS))
        out.append(given[player.casefold()])
    return out


def seat_colours(table, players):
    """A game's colours by seat as the table gives them, and the table's colours with any new player
    of the game given one (kept, so that they keep it in the next game)."""
    colours = colours_of(table, list(players))
    known = dict(table['colours'])
    for player, colour in zip(players, colours):
        if not any(name.casefold() == player.casefold() for name in known):
            known[player] = colour
    return colours, known


def join_table(game_id, table_id, players):
    """A game joins the table and takes the table's colours for its players."""
    if store.join_table(get_db(), game_id, table_id):
        table = store.load_table(get_db(), table_id)
        colours, known = seat_colours(table, players)
        store.set_colours(get_db(), game_id, colours)
        store.set_table_colours(get_db(), table_id, known)
