"""The table file, version 1: a table (its name, language, merged names and colours) and all its
games, as one JSON file to export and import whole.

    {"version": 1,
     "table": {"name": "Club de los jueves", "language": "es",
               "aliases": {"anna": "Ana"}, "colours": {"Ana": 0, "Bruno": 3}},
     "games": [{"id": "a1b2c3", "day": "2026-11-29", "game": {<a game file, version 1>}}]}

`aliases` are the table's merged names as stats.merge keeps them ({spelling case-folded: name});
`colours` give each of the table's people a colour (an index of chart.COLOURS). Each game is read
with the game file's rules (gamefile.read_game, gamefile.read_earlier): its sheet, when it carries
one, is checked against its rounds. `id` names a game within the file (letters, digits, - and _),
`day` is the day it was finished or played (YYYY-MM-DD). Reading checks everything and names the
first problem found; nothing is half read. The limits are scorer/limits.py's (MAX_TABLE_*).

The table's CSV is a game a line: its day, kind, players, totals and winner line, each text cell
safe to open in a spreadsheet (safe_cell: a cell that begins like a formula gets an apostrophe).
"""

from typing import NamedTuple

from .gamefile import GameFileError

VERSION = 1


class TableFileError(GameFileError):
    """A table file that cannot be read, with a message naming what is wrong and where."""


class TableGame(NamedTuple):
    """A game of a table file: its id in the file, its day, the Game and its rounds' earlier versions
    ({round: [(entries, when replaced)]}, as gamefile.read_earlier gives them)."""
    id: str
    day: str
    game: object
    earlier: dict


class TableFile(NamedTuple):
    """A table file read: the table {'name', 'language', 'aliases', 'colours'} and its games
    (TableGame), in the file's order."""
    table: dict
    games: list


def table_data(table, games):
    """The table file (a dict ready for JSON) of a table ({'name', 'language', 'aliases', 'colours'})
    and its games (TableGame), each game as the game file writes it, with its sheet."""
    raise NotImplementedError


def table_json(table, games):
    """The table file as text (UTF-8 JSON)."""
    raise NotImplementedError


def read_table(data):
    """A TableFile from a table file (bytes, text or already-parsed JSON); raises TableFileError
    naming the first problem (the game file's own message, with the game it is in)."""
    raise NotImplementedError


def figures_input(read):
    """The table's games of a TableFile as tables.py takes them ({'id', 'kind', 'day', 'summary'}):
    the same figures as the table the file was made from."""
    raise NotImplementedError


def safe_cell(value):
    """A CSV cell that a spreadsheet shows as text, never runs as a formula (OWASP: a text cell that
    begins with =, +, -, @, tab or CR gets a leading apostrophe)."""
    raise NotImplementedError


def table_csv(games, aliases=None, delimiter=','):
    """The table's CSV (UTF-8 with a byte-order mark), a game a line, oldest first: day, kind, players,
    their totals (seat by seat) and the winner line, in the current language. `games` as tables.py
    takes them; `delimiter` ';' where the page's decimal mark is a comma."""
    raise NotImplementedError
