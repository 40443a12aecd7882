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
safe to open in a spreadsheet (scorer/spreadsheet.py: a cell that begins like a formula gets an
apostrophe).
"""

import io
import json
import re
from typing import NamedTuple

from .chart import COLOURS
from .gamefile import GameFileError, game_data, half_pair, read_date, read_earlier, read_game, shown
from .i18n import _, ngettext
from .limits import (MAX_GAME_ID, MAX_NAME, MAX_TABLE_FILE, MAX_TABLE_FILE_MB, MAX_TABLE_GAMES, MAX_TABLE_NAME,
                     MAX_TABLE_PEOPLE)
from .names import clean_name
from .reading import LANGUAGES
from .rules import kind_of, kind_words
from .sheet import compute_sheet, sheet_data
from .spreadsheet import SafeWriter
from .stats import merge, summary
from .tables import game_lines

VERSION = 1
GAME_ID = re.compile(r'[A-Za-z0-9_-]+')


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
    return {'version': VERSION,
            'table': {'name': table['name'], 'language': table['language'],
                      'aliases': dict(table.get('aliases') or {}), 'colours': dict(table.get('colours') or {})},
            'games': [{'id': g.id, 'day': g.day,
                       'game': {**game_data(g.game, g.earlier),
                                'sheet': sheet_data(compute_sheet(g.game, skip_broken=True))}} for g in games]}


def table_json(table, games):
    """The table file as text (UTF-8 JSON, one game a line)."""
    data = table_data(table, games)
    lines = ',\n'.join(json.dumps(g, ensure_ascii=False, separators=(',', ':')) for g in data['games'])
    head = json.dumps({k: v for k, v in data.items() if k != 'games'}, ensure_ascii=False)
    return head[:-1] + ', "games": [\n' + lines + '\n]}\n'


def read_table(data):
    """A TableFile from a table file (bytes, text or already-parsed JSON); raises TableFileError
    naming the first problem (the game file's own message, with the game it is in). Nothing is kept
    of a file refused: the table and its games come back together or not at all."""
    data = parsed(data)
    if not isinstance(data, dict):
        raise TableFileError(_('not a table file: expected a JSON object'))
    found = half_pair(data)
    if found:
        raise TableFileError(_('not a table file: it holds a character that is not text (%(half)s, half of a '
                               'pair) in %(text)s', half=found[0], text=found[1]))
    version = data.get('version')
    if type(version) is not int or version != VERSION:
        raise TableFileError(_('not a table file of version %(version)d (version: %(found)s)', version=VERSION,
                               found=json.dumps(shown(version), ensure_ascii=False) if isinstance(version, str)
                               else shown(version)))
    table = read_table_part(data.get('table'))
    raw_games = data.get('games')
    if not isinstance(raw_games, list):
        raise TableFileError(_('games must be a list'))
    if len(raw_games) > MAX_TABLE_GAMES:
        raise TableFileError(ngettext('a table holds at most %(most)d game, not %(count)d',
                                      'a table holds at most %(most)d games, not %(count)d', MAX_TABLE_GAMES,
                                      most=MAX_TABLE_GAMES, count=len(raw_games)))
    games, ids = [], set()
    for number, raw in enumerate(raw_games, 1):
        game = read_table_game(raw, number)
        if game.id in ids:
            raise TableFileError(_("game %(number)d: the id '%(id)s' is another game's too", number=number, id=game.id))
        ids.add(game.id)
        games.append(game)
    return TableFile(table, games)


def parsed(data):
    """The JSON of a table file, read from bytes or text no larger than MAX_TABLE_FILE."""
    if not isinstance(data, (str, bytes)):
        return data
    if len(data) > MAX_TABLE_FILE:
        raise too_large()
    try:
        return json.loads(data)
    except UnicodeDecodeError as e:
        raise TableFileError(_('not a table file: it is not UTF-8 text (byte 0x%(byte)02x at position %(at)d)',
                               byte=e.object[e.start], at=e.start)) from None
    except json.JSONDecodeError as e:        # the parser's own words are English: where it stopped
        raise TableFileError(_('not a table file: not JSON (line %(line)d, column %(column)d)',
                               line=e.lineno, column=e.colno)) from None
    except RecursionError:
        raise TableFileError(_('not a table file: nested too deep')) from None
    except ValueError:              # a number of thousands of digits
        raise TableFileError(_('not a table file: a number in it is too long')) from None


def too_large():
    """The refusal of a file larger than MAX_TABLE_FILE, naming the limit (in MB): what the file's
    reader says, and the import page for a body the server would not read at all."""
    return TableFileError(_('not a table file: larger than %(most)d MB', most=MAX_TABLE_FILE_MB))


def read_table_part(raw):
    """The table of a table file: its name (cleaned, 1 to MAX_TABLE_NAME characters), language (one
    of the app's), merged names (rebuilt with stats.merge, so a chain or a loop in the file counts as
    the app would have merged it) and colours ({name: a colour's index})."""
    if not isinstance(raw, dict):
        raise TableFileError(_('table must be an object with its name and language'))
    name = raw.get('name')
    if not isinstance(name, str) or not clean_name(name) or len(clean_name(name)) > MAX_TABLE_NAME:
        raise TableFileError(ngettext("the table's name must be text of 1 to %(most)d character",
                                      "the table's name must be text of 1 to %(most)d characters", MAX_TABLE_NAME,
                                      most=MAX_TABLE_NAME))
    language = raw.get('language')
    if language not in LANGUAGES:
        raise TableFileError(_("the table's language must be one of %(languages)s, not %(found)s",
                               languages=', '.join(LANGUAGES), found=json.dumps(shown(language), ensure_ascii=False)))
    aliases = {}
    for spelling, merged in people(raw.get('aliases', {}), 'aliases', str).items():
        aliases = merge(aliases, spelling, person_name(merged, 'aliases'))
    colours = people(raw.get('colours', {}), 'colours', int)
    for who, colour in colours.items():
        if isinstance(colour, bool) or not 0 <= colour < len(COLOURS):
            raise TableFileError(_('colours: %(name)s has no colour %(colour)s (0 to %(last)d)', name=who,
                                   colour=shown(colour), last=len(COLOURS) - 1))
    return {'name': clean_name(name), 'language': language, 'aliases': aliases, 'colours': colours}


def people(raw, key, kind):
    """A table's {name: value} of `key` (aliases, colours): at most MAX_TABLE_PEOPLE, each name a
    player's name, each value of `kind`."""
    if not isinstance(raw, dict) or len(raw) > MAX_TABLE_PEOPLE:
        raise TableFileError(ngettext('%(key)s must be an object of at most %(most)d name',
                                      '%(key)s must be an object of at most %(most)d names', MAX_TABLE_PEOPLE,
                                      key=key, most=MAX_TABLE_PEOPLE))
    found = {}
    for name, value in raw.items():
        if not isinstance(value, kind):
            quoted = json.dumps(shown(name), ensure_ascii=False)
            raise TableFileError(_('%(key)s: the value of %(name)s must be a name', key=key, name=quoted)
                                 if kind is str else
                                 _('%(key)s: the value of %(name)s must be a number', key=key, name=quoted))
        found[person_name(name, key)] = value
    return found


def person_name(text, key):
    """A name in the table's aliases or colours, cleaned as a player's; refused when empty or too long."""
    name = clean_name(text)
    if not name or len(name) > MAX_NAME:
        raise TableFileError(ngettext('%(key)s: %(name)s is no name of 1 to %(most)d character',
                                      '%(key)s: %(name)s is no name of 1 to %(most)d characters', MAX_NAME,
                                      key=key, name=json.dumps(shown(text), ensure_ascii=False), most=MAX_NAME))
    return name


def read_table_game(raw, number):
    """The `number`th game of a table file (counted from 1): its id, its day and the game file, read
    with the game file's rules (gamefile.read_game and read_earlier)."""
    if not isinstance(raw, dict):
        raise TableFileError(_('game %(number)d: must be an object with its id, day and game', number=number))
    game_id = raw.get('id')
    if not isinstance(game_id, str) or len(game_id) > MAX_GAME_ID or not GAME_ID.fullmatch(game_id):
        raise TableFileError(_('game %(number)d: its id must be 1 to %(most)d letters, digits, - or _',
                               number=number, most=MAX_GAME_ID))
    try:
        day = read_date(raw.get('day')) if isinstance(raw.get('day'), str) else read_date('')
        game = read_game(raw['game'] if isinstance(raw.get('game'), dict) else None)    # never text to parse
        earlier = read_earlier(raw.get('game'), game)
    except GameFileError as e:
        raise TableFileError(_('game %(number)d (%(id)s): %(error)s', number=number, id=game_id, error=e)) from None
    return TableGame(game_id, day, game, earlier)


def figures_input(read):
    """The table's games of a TableFile as tables.py takes them ({'id', 'kind', 'day', 'summary'}):
    the same figures as the table the file was made from."""
    return [{'id': g.id, 'kind': kind_of(g.game.rules.game), 'day': g.day,
             'summary': summary(compute_sheet(g.game, skip_broken=True))} for g in read.games]


def table_csv(games, aliases=None, delimiter=','):
    """The table's CSV (UTF-8 with a byte-order mark), a game a line, oldest first: day, kind, players
    (as the table names them), their totals (seat by seat) and the winner line ('' while going), in
    the current language. `games` as tables.py takes them; `delimiter` ';' where the page's decimal
    mark is a comma (as the game's CSV)."""
    out = io.StringIO()
    out.write('\ufeff')
    writer = SafeWriter(out, delimiter)
    writer.writerow([_('Day'), _('Game'), _('Players'), _('Totals'), _('Winner')])
    totals = {g['id']: game_totals(g['summary']) for g in games}
    for line in reversed(game_lines(games, aliases)):
        writer.writerow([line.day, kind_words(line.kind), ', '.join(line.players),
                         ', '.join(map(str, totals[line.id])), line.line])
    return out.getvalue()


def game_totals(data):
    """A summarised game's totals, seat by seat."""
    total = {player: points for player, points, _zeros, _place in data['standings']}
    return [total[p] for p in data['players']]
