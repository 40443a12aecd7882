"""The table file (scorer/tablefile.py): export and import give back the same table and the same
figures, 20-odd hostile files are each refused with a message naming what is wrong, and the table's
CSV is a game a line, safe to open in a spreadsheet."""

import copy
import csv
import datetime
import io
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorer.gamefile import read_game
from scorer.limits import MAX_TABLE_FILE, MAX_TABLE_GAMES, MAX_TABLE_NAME, MAX_TABLE_PEOPLE
from scorer.tablefile import TableFileError, TableGame, figures_input, read_table, table_csv, table_json
from scorer.tables import KINDS, PERIODS, table_figures
from tests import test_tables

TODAY = test_tables.TODAY
EXAMPLE = json.loads(open('docs/example-game.json', encoding='utf-8').read())
TABLE = {'name': 'Club de los jueves', 'language': 'es', 'aliases': {'anna': 'Ana'}, 'colours': {'Ana': 2, 'Bruno': 5}}


def a_file(**changes):
    """A good table file (two games, one with cards and points) as parsed JSON, with `changes`."""
    game = read_game(EXAMPLE)
    data = json.loads(table_json(TABLE, [TableGame('g1', '2026-11-29', game, {}),
                                         TableGame('g-2_', '2026-12-01', game, {})]))
    data.update(changes)
    return data


def figures(games, aliases):
    return [table_figures(games, aliases, kind, period, TODAY) for kind in KINDS for period in PERIODS]


@given(test_tables.a_table(most=30))
def test_a_table_comes_back_whole_with_the_same_figures(table):
    today, specs, aliases = table
    games = [test_tables.played(s) for s in specs]
    kept = [TableGame(s['id'], s['day'], game_of(s), {}) for s in specs]
    read = read_table(table_json({**TABLE, 'aliases': aliases}, kept).encode())
    assert read.table == {**TABLE, 'aliases': aliases}
    assert read.games == kept
    assert figures(figures_input(read), read.table['aliases']) == figures(games, aliases)


def game_of(spec):
    """The Game tests/test_tables.py plays from a spec."""
    from scorer.rules import make_rules
    from scorer.sheet import Entry, Game
    rules = make_rules({'game': spec['game'], 'tie_break': spec['tie_break'],
                        'double_last_round': spec['double_last_round']})
    return Game(tuple(spec['players']), rules, 0,
                {n: tuple(Entry(p, points=row[p]) for p in spec['players'])
                 for n, row in zip(rules.rounds, spec['rounds'])})


def test_cards_and_earlier_versions_come_back():
    game = read_game(EXAMPLE)
    earlier = {1: [(game.rounds[2], '2026-11-29 21:04')]}
    read = read_table(table_json(TABLE, [TableGame('g1', '2026-11-29', game, earlier)]))
    assert read.games == [TableGame('g1', '2026-11-29', game, earlier)]


def many(count):
    return [{}] * count


def half_in_name():
    data = a_file()
    data['games'][0]['game']['players'][0] = 'Ana\ud800'
    return data


def changed_sheet():
    data = a_file()
    data['games'][1]['game']['sheet']['totals']['Ana'] += 1
    return data


def nth_game(number, **changes):
    data = a_file()
    data['games'][number - 1] = {**data['games'][number - 1], **changes}
    return data


def game_players(players):
    data = a_file()
    data['games'][1]['game'] = {**data['games'][1]['game'], 'players': players}
    data['games'][1]['game'].pop('sheet')
    return data


HOSTILE = {
    'not JSON': (b'{"version": 1, "table": ', 'not a table file: not JSON (line 1, column 25)'),
    'not UTF-8': (b'{"version": 1, "table": {"name": "Caf\xe9"}}', 'not UTF-8 text (byte 0xe9'),
    'too big': (b' ' * (MAX_TABLE_FILE + 1), 'not a table file: larger than 32 MB'),
    'nested too deep': (b'[' * 100_000 + b']' * 100_000, 'nested too deep'),
    'a number too long': (b'{"version": 1' + b'0' * 5000 + b'}', 'a number in it is too long'),
    'not an object': ('[1, 2]', 'not a table file: expected a JSON object'),
    'wrong version': (a_file(version=2), 'not a table file of version 1 (version: 2)'),
    'version as text': (a_file(version='1'), 'not a table file of version 1 (version: "1")'),
    'no table': (a_file(table=None), 'table must be an object with its name and language'),
    'a name of spaces and controls': (a_file(table={**TABLE, 'name': ' \x00\u202e '}), "the table's name must be text of 1 to 60"),
    'a name too long': (a_file(table={**TABLE, 'name': 'x' * (MAX_TABLE_NAME + 1)}), "the table's name must be text of 1 to 60"),
    'a language the app does not speak': (a_file(table={**TABLE, 'language': 'fr'}), "the table's language must be one of en, es, pt, not \"fr\""),
    'a lone surrogate in the table': (a_file(table={**TABLE, 'name': 'Club \udc00'}), 'half of a pair) in "Club \\udc00"'),
    'a lone surrogate in a game': (half_in_name(), 'half of a pair) in "Ana\\ud800"'),
    'merged names not an object': (a_file(table={**TABLE, 'aliases': ['Ana']}), 'aliases must be an object of at most 200 names'),
    'too many merged names': (a_file(table={**TABLE, 'aliases': {f'p{i}': 'Ana' for i in range(MAX_TABLE_PEOPLE + 1)}}),
                              'aliases must be an object of at most 200 names'),
    'a merged name too long': (a_file(table={**TABLE, 'aliases': {'anna': 'A' * 31}}), 'aliases: "AAAAAAAAAAAAAAAAAAAA…" is no name of 1 to 30'),
    'a colour as a word': (a_file(table={**TABLE, 'colours': {'Ana': 'red'}}), 'colours: the value of "Ana" must be a number'),
    'a merged name as a number': (a_file(table={**TABLE, 'aliases': {'anna': 7}}), 'aliases: the value of "anna" must be a name'),
    'a colour that is none': (a_file(table={**TABLE, 'colours': {'Ana': 8}}), 'colours: Ana has no colour 8 (0 to 7)'),
    'games not a list': (a_file(games={'g1': {}}), 'games must be a list'),
    'too many games': (a_file(games=many(MAX_TABLE_GAMES + 1)), 'a table holds at most 2000 games, not 2001'),
    'a game not an object': (a_file(games=['g1']), 'game 1: must be an object with its id, day and game'),
    'an id that is a path': (nth_game(2, id='../g1'), 'game 2: its id must be 1 to 64 letters, digits, - or _'),
    'duplicate ids': (nth_game(2, id='g1'), "game 2: the id 'g1' is another game's too"),
    'a day the calendar has not': (nth_game(1, day='2026-02-30'), "game 1 (g1): '2026-02-30' is not a day of the calendar"),
    'a game as text': (nth_game(1, game=json.dumps(EXAMPLE)), 'game 1 (g1): not a game file: expected a JSON object'),
    'a game with two players alike': (game_players(['Ana', 'Bruno', 'ana']), "game 2 (g-2_): two players are called 'ana'"),
    'a sheet changed by hand': (changed_sheet(), 'game 2 (g-2_): the file\'s sheet gives Ana a total of'),
}


@pytest.mark.parametrize('what', HOSTILE)
def test_a_hostile_table_file_is_refused_naming_what_is_wrong(what):
    data, message = HOSTILE[what]
    with pytest.raises(TableFileError) as refused:
        read_table(copy.deepcopy(data) if isinstance(data, dict) else data)
    assert message in str(refused.value)


def test_the_good_file_the_hostile_ones_are_made_from_is_read():
    read = read_table(json.dumps(a_file()))
    assert [g.id for g in read.games] == ['g1', 'g-2_'] and read.table == TABLE


def test_the_csv_is_a_game_a_line_safe_for_spreadsheets():
    specs = [test_tables.spec(1, ['=HYPERLINK("x")', 'Bruno'], [[0, 3]], day='2026-11-02'),
             test_tables.spec(2, ['Ana', 'bruno'], [[3, 0]], game='five_crowns', day='2026-11-01'),
             test_tables.spec(3, ['Ana', 'Bruno'], None, day='2026-12-01')]
    text = table_csv([test_tables.played(s) for s in specs], {'bruno': 'Bruno'}, ';')
    assert text.startswith('\ufeff')
    rows = list(csv.reader(io.StringIO(text[1:]), delimiter=';'))
    assert rows == [['Day', 'Game', 'Players', 'Totals', 'Winner'],
                    ['2026-11-01', 'Five Crowns', 'Ana, Bruno', '13, 10', 'Bruno wins with 10'],
                    ['2026-11-02', 'Three-Thirteen', '\'=HYPERLINK("x"), Bruno', '10, 13', '\'=HYPERLINK("x") wins with 10'],
                    ['2026-12-01', 'Three-Thirteen', 'Ana, Bruno', '0, 0', '']]


def test_a_table_of_the_most_games_fits_in_the_largest_file():
    """MAX_TABLE_FILE holds MAX_TABLE_GAMES games of 8 players, every round entered card by card."""
    players = ('Ana', 'Bruno', 'Carla', 'Dé', 'Eve', 'Zoë', 'Ömer', 'Paulo')
    pack = [rank + suit for rank in 'A23456789TJQK' for suit in 'SHDC'] * 3
    game = read_game({'version': 1, 'players': list(players), 'rules': {'decks': 3}, 'rounds': [
        {'round': n, 'entries': [{'player': p, 'cards': ' '.join(pack[seat::8][:n + 2])} for seat, p in enumerate(players)]}
        for n in range(1, 12)]})
    text = table_json(TABLE, [TableGame('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUV', '2026-12-01', game, {})])
    assert len(text.encode()) * MAX_TABLE_GAMES < MAX_TABLE_FILE
