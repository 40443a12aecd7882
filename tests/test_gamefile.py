"""The game file, version 1: read, validate with clear errors, write, and the sheet command."""

import json
import subprocess
import sys

import pytest

from scorer.gamefile import GameFileError, game_data, read_game
from tests.helpers import PATIENCE

GAME = {'version': 1, 'players': ['Ana', 'Bruno', 'Carla'], 'rules': {}, 'first_dealer': 0,
        'rounds': [{'round': 1, 'entries': [{'player': 'Ana', 'went_out': True},
                                            {'player': 'Bruno', 'cards': 'KH 5C 7D'},
                                            {'player': 'Carla', 'points': 12}]}]}


def test_read_and_write_round_trip():
    game = read_game(json.dumps(GAME))
    assert game.players == ('Ana', 'Bruno', 'Carla')
    data = game_data(game)
    assert read_game(data) == game
    assert data['rounds'] == GAME['rounds']


@pytest.mark.parametrize('change, message', [
    ({'version': 2}, 'not a game file of version 1'),
    ({'players': ['Ana']}, 'a game has 2 to 8 players, not 1'),
    ({'players': ['Ana', 'ana', 'Carla']}, "two players are called 'ana'"),
    ({'players': ['Ana', 'B' * 31, 'Carla']}, 'is longer than 30 characters'),
    ({'rules': {'aces': 'up'}}, "rules: 'up' is not a value of aces"),
    ({'first_dealer': 3}, 'first_dealer must be a seat number from 0 to 2'),
    ({'rounds': [{'round': 12, 'entries': []}]}, 'round 12 is not in a standard game'),
    ({'rounds': [{'round': 1, 'entries': [{'player': 'Ana', 'went_out': True},
                                          {'player': 'Bruno', 'cards': '1X'}, {'player': 'Carla', 'points': 1}]}]},
     "round 1: Bruno: '1X' is not a card"),
    ({'rounds': [{'round': 1, 'entries': [{'player': 'Ana', 'points': 3}]}]}, 'round 1: Bruno has no entry'),
])
def test_bad_files_get_clear_errors(change, message):
    with pytest.raises(GameFileError) as e:
        read_game({**GAME, **change})
    assert message in str(e.value)


def test_not_json():
    with pytest.raises(GameFileError, match='not JSON'):
        read_game('{nope')
    with pytest.raises(GameFileError, match='expected a JSON object'):
        read_game('[1, 2]')


def run_sheet(*args, stdin=None):
    return subprocess.run([sys.executable, '-m', 'scorer', 'sheet', *args], input=stdin, capture_output=True,
                          text=True, timeout=PATIENCE)


def test_sheet_command_text_and_json(tmp_path):
    path = tmp_path / 'game.json'
    path.write_text(json.dumps(GAME))
    r = run_sheet(str(path))
    assert r.returncode == 0
    assert 'Total' in r.stdout and 'Next: round 2, 4 cards, 4 wild, Bruno deals' in r.stdout
    r = run_sheet('--json', '-', stdin=json.dumps(GAME))
    data = json.loads(r.stdout)
    assert data['rounds'] == [{'round': 1, 'hand_size': 3, 'wild': '3', 'dealer': 'Ana', 'went_out': 'Ana',
                               'scores': {'Ana': 0, 'Bruno': 22, 'Carla': 12}}]
    assert data['standings'][0] == {'player': 'Ana', 'total': 0, 'zero_rounds': 1, 'place': 1}
    assert data['winners'] == []


def test_sheet_command_bad_file_exits_2(tmp_path):
    r = run_sheet('-', stdin='{"version": 1, "players": ["A"]}')
    assert r.returncode == 2
    assert r.stderr == 'error: a game has 2 to 8 players, not 1\n'
    r = run_sheet(str(tmp_path / 'missing.json'))
    assert r.returncode == 2 and 'cannot read' in r.stderr


def test_an_imported_file_is_kept_as_the_forms_keep_a_round():
    """Whitespace and case normalised, points summed: what the round form would have stored."""
    rounds = [{'round': 1, 'entries': [{'player': 'Ana', 'went_out': True},
                                       {'player': 'Bruno', 'cards': '  kh\t5c   7d '},
                                       {'player': 'Carla', 'points': 3}]}]
    game = read_game({**GAME, 'rounds': rounds})
    assert game.rounds[1][1].cards == 'KH 5C 7D'


@pytest.mark.parametrize('change, message', [
    ({'rounds': [{'round': 1, 'entries': [{'player': 'Ana', 'went_out': True},
                                          {'player': 'Bruno', 'cards': 'KH' + ' ' * 100_000 + '5C'},
                                          {'player': 'Carla', 'points': 1}]}]},
     'round 1: cards must be text of at most 200 characters'),
    ({'players': ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H'], 'rules': {'decks': 1}},
     '8 players need 105 cards in the last round'),
])
def test_an_imported_file_is_checked_like_the_forms(change, message):
    with pytest.raises(GameFileError, match=message):
        read_game({**GAME, **change})


SMALL = {'version': 1, 'players': ['Ana', 'Bruno'], 'rules': {}, 'first_dealer': 0,
         'rounds': [{'round': 1, 'entries': [{'player': 'Ana', 'went_out': True},
                                             {'player': 'Bruno', 'cards': 'KH 5C 7D'}]}]}


@pytest.mark.parametrize('data, message', [
    (json.dumps({**SMALL, 'version': '1'}).encode(), 'not a game file of version 1 (version: "1", text, not a number)'),
    (json.dumps({**SMALL, 'players': ['A\ud800', 'Bruno'], 'rounds': [],
                 'sheet': {'totals': {'A\ud800': 0, 'Bruno': 0}}}).encode(),
     'not a game file: it holds a character that is not text (\\ud800, half of a pair) in "A\\ud800"'),
    (json.dumps(SMALL).encode().replace(b'KH 5C 7D', b'KH \xff5C 7D'),
     'not a game file: it is not UTF-8 text (byte 0xff at position'),
])
def test_an_odd_file_is_told_what_is_odd_about_it(data, message):
    """A version given as text, a name with half of a UTF-16 pair in it, bytes that are not UTF-8:
    each told as such (once: 'version: 1', 'a total of None', 'not JSON')."""
    with pytest.raises(GameFileError) as refused:
        read_game(data)
    assert message in str(refused.value)
