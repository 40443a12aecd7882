"""The command line: the referee's words for one hand, and JSON lines in and out.

The commands run in process through main(argv, stdin, stdout, stderr), as a shell would call them.
"""

import io
import json
import os
import select

import pytest
import subprocess
import sys
from types import SimpleNamespace

from scorer.__main__ import main
from tests.helpers import LANGUAGES, PATIENCE


def scorer(*args, stdin=''):
    """Run `python -m scorer ARGS` in process: its exit status and what it printed."""
    out, err = io.StringIO(), io.StringIO()
    code = main(list(args), io.StringIO(stdin), out, err)
    return SimpleNamespace(returncode=code, stdout=out.getvalue(), stderr=err.getvalue())


def test_python_m_scorer_runs_as_a_program():
    r = subprocess.run([sys.executable, '-m', 'scorer', 'check', '7H 8H 9H', '--round', '1'],
                       capture_output=True, text=True, timeout=PATIENCE)
    assert r.returncode == 0 and 'Every card melds: penalty 0' in r.stdout


def test_a_solve_jsonl_batch_starts_without_pathlib_dataclasses_or_shutil():
    """A batch's process pays its start once a batch: `python -m scorer solve --jsonl` imports no
    pathlib (with what it imports, 8 % of the instructions the start took: the catalogs' folder is
    a plain path), no dataclasses (with inspect, a quarter: Rules is a named tuple, the solver's Table
    a class with slots), no shutil (argparse imports it to build a parser, and solve --jsonl has
    nothing to parse), and still answers in the languages of its catalogs."""
    r = subprocess.run([sys.executable, '-X', 'importtime', '-m', 'scorer', 'solve', '--jsonl'],
                       input='{"id": 1, "cards": "7H 8H 9H KS", "wild": "5", "lang": "es"}\n',
                       capture_output=True, text=True, timeout=PATIENCE)
    imported = {line.split('|')[-1].strip() for line in r.stderr.splitlines() if line.startswith('import time:')}
    assert r.returncode == 0 and 'scorer.solver' in imported
    assert not {'pathlib', 'dataclasses', 'inspect', 'shutil'} & imported
    assert 'palo' in json.loads(r.stdout)['error']


def test_solve_jsonl_answers_a_co_process_line_by_line():
    """A program that talks to `python -m scorer solve --jsonl` through pipes, writing one line and
    waiting for its answer before the next, gets each answer as soon as it is made: each answer is
    flushed as it is written, not only at the end of the input (its output buffered as a program's
    is, not unbuffered by PYTHONUNBUFFERED)."""
    buffered = {k: v for k, v in os.environ.items() if k != 'PYTHONUNBUFFERED'}
    child = subprocess.Popen([sys.executable, '-m', 'scorer', 'solve', '--jsonl'], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True, env=buffered)
    try:
        for ident, cards in enumerate(['7H 8H 9H KS', 'QS QD', 'not cards', '2C 3C 4C']):
            child.stdin.write(json.dumps({'id': ident, 'cards': cards, 'wild': '5'}) + '\n')
            child.stdin.flush()
            ready, _, _ = select.select([child.stdout], [], [], PATIENCE)     # its answer, or none in time
            assert ready, f'no answer to line {ident} while the next waits to be written'
            assert json.loads(child.stdout.readline())['id'] == ident
        child.stdin.close()
        assert child.wait(timeout=PATIENCE) == 0 and child.stdout.read() == ''
    finally:
        child.kill()
        child.wait()


def test_check_says_melds_deadwood_and_penalty():
    r = scorer('check', '7H 8H 9H KS 5C', '--round', '3')
    assert r.returncode == 0
    assert r.stdout.splitlines() == [
        'Round 3: 5 cards, fives are wild.',
        'Hand: 7♥ 8♥ 9♥ K♠ 5♣',
        'Run 5♣ 7♥ 8♥ 9♥, 5♣ as 6♥',
        'Deadwood: K♠ 10',
        'Penalty: 10',
    ]


def test_check_with_wild_and_settings():
    r = scorer('check', 'QH KH AH', '--wild', '5', '--aces', 'high_or_low')
    assert r.returncode == 0
    assert 'Every card melds: penalty 0' in r.stdout


def test_check_claims_and_go_out():
    r = scorer('check', '4H 5H 6H 9C', '--round', '1', '--claim', '9')
    assert 'Goes out by discarding 9♣' in r.stdout
    assert 'Claim holds: claimed 9: that is the minimum' in r.stdout
    r = scorer('check', '4H 5H 6H 7C QS 9D', '--wild', '3', '--melds', '4H 5H 7C')
    assert 'Claim does not hold: 4♥ 5♥ 7♣ is not a meld' in r.stdout


def test_check_bad_input_is_a_clear_error_without_traceback():
    for args, message in [
        (('7H 8H 1X', '--round', '3'), "error: '1X' is not a card"),
        (('7H 7H 7H', '--round', '3'), 'error: three 7♥ but only 2 decks'),
        (('7H', '--round', '12'), 'error: round 12 is not in a standard game (rounds 1-11)'),
        (('7H', '--wild', 'X'), "error: wild: 'X' is not a rank"),
        (('7H', '--round', '2', '--aces', 'sideways'), "error: 'sideways' is not a value of aces"),
        (('7H',), 'error: give --round N or --wild RANK'),
        (('2H 3H 4H 5H 6H', '--round', '1'), 'error: 5 cards, but round 1 deals 3 (at most 4 with the card drawn)'),
    ]:
        r = scorer('check', *args)
        assert r.returncode == 2
        assert r.stderr.startswith(message)
        assert 'Traceback' not in r.stderr
        assert r.stdout == '' or 'Traceback' not in r.stdout


def test_solve_jsonl_answers_each_line_in_order():
    lines = [
        {'id': 1, 'cards': '4H 5H 6H 7C QS', 'wild': '5'},
        'not json',
        {'id': 'b', 'cards': '4H 1X', 'round': 3},
        {'id': 3, 'cards': 'QH KH AH', 'round': 1, 'rules': {'aces': 'high_or_low'}},
        {'id': 4, 'cards': 'JK JK 3S', 'round': 1, 'jokers': 2},
        {'id': 5, 'cards': 'QH', 'wild': 3, 'rules': {'colour': 'red'}},
        [1, 2],
        {'id': 7, 'cards': '2H 3H 4H 5H 6H', 'round': 1},
    ]
    stdin = '\n'.join(x if isinstance(x, str) else json.dumps(x) for x in lines) + '\n'
    r = scorer('solve', '--jsonl', stdin=stdin)
    assert r.returncode == 0 and r.stderr == ''
    out = [json.loads(line) for line in r.stdout.splitlines()]
    assert len(out) == len(lines)
    assert out[0] == {'id': 1, 'penalty': 17, 'deadwood': ['QS', '7C'], 'letters': 'en',
                      'melds': [{'kind': 'run', 'cards': ['4H', '5H', '6H'], 'as': ['4H', '5H', '6H']}]}
    assert out[1]['id'] is None and out[1]['error'].startswith('not JSON')
    assert out[2] == {'id': 'b', 'error': "'1X' is not a card"}
    assert out[3]['penalty'] == 0
    assert out[4]['penalty'] == 0
    assert out[5] == {'id': 5, 'error': "unknown setting 'colour'"}
    assert out[6]['id'] is None and 'error' in out[6]
    assert out[7] == {'id': 7, 'error': '5 cards, but round 1 deals 3 (at most 4 with the card drawn)'}


def test_check_refuses_a_wild_rank_the_round_contradicts_and_notes_idle_settings():
    r = scorer('check', '3S 3H KD', '--round', '1', '--wild', '5')
    assert r.returncode != 0 and 'wild 5 does not match round 1, whose wild rank is 3' in r.stderr
    r = scorer('check', 'AS 7D', '--wild', '5', '--ace-penalty', '1')
    assert r.returncode == 0 and r.stdout.splitlines()[-1] == (
        'Note: ace_penalty counts only when aces are high or low: an ace counts 1')
    line = json.loads(scorer('solve', '--jsonl', stdin='{"cards": "3S 3H KD", "wild": "5", "round": 1}\n').stdout)
    assert line['error'] == 'wild 5 does not match round 1, whose wild rank is 3: give one of them'


HOSTILE_LINES = [
    '[' * 100_000 + ']' * 100_000,                                   # nested 100,000 deep
    '{"id": 1' + '0' * 5000 + ', "cards": "7H 8H 9H", "wild": "5"}',   # an id of 5,000 digits
    '{"id": 2, "cards": "7H 8H 9H", "round": 1' + '0' * 5000 + '}',  # a round of 5,000 digits
    '{"id": 3, "cards": "7H 8H 9H", "wild": 5' + '0' * 5000 + '}',
    '{"id": 4, "cards": "7H 8H 9H", "wild": "5", "decks": 1' + '0' * 5000 + '}',
    '{"id": NaN, "cards": "7H 8H 9H", "wild": "5"}',
    '{"id": Infinity, "cards": "7H 8H 9H", "wild": "5"}',
    '{"id": 1e999, "cards": "7H 8H 9H", "wild": "5"}',
    '{"id": {"deep": [1, 2]}, "cards": "7H 8H 9H", "wild": "5"}',
    '{"id": 5, "cards": ["7H", ["8H"]], "wild": "5"}',
    '{"id": 6, "cards": "7H 8H 9H", "wild": ["5"]}',
    '{"id": 7, "cards": "7H 8H 9H", "wild": true}',
    '{"id": 8, "cards": "7H 8H 9H", "wild": "5", "rules": {"aces": {"a": [[[]]]}}}',
    '{"id": 9, "cards": "' + '7H ' * 5000 + '", "wild": "5"}',
    '{"id": 10, "cards": "7H 8H 9H", "wild": "5", "lang": "xx"}',
    '\ufeff{"id": 11, "cards": "7H 8H 9H", "wild": "5"}',           # a byte order mark first: no JSON
    '"just a string"', '12', 'null', '{"id": "x" ' , '\ud800',
]


def test_solve_jsonl_answers_every_line_with_valid_json_whatever_it_holds():
    """Issue 35: a line nested 100,000 deep or a number of 5,000 digits ended the process with a
    traceback, and NaN was echoed as NaN (not JSON). Every line gets one line of valid JSON, and the
    next line is still solved."""
    good = '{"id": "last", "cards": "7H 8H 9H KS", "wild": "5"}'
    r = scorer('solve', '--jsonl', stdin='\n'.join(HOSTILE_LINES + [good]) + '\n')
    assert r.returncode == 0 and r.stderr == ''
    lines = r.stdout.splitlines()
    assert len(lines) == len(HOSTILE_LINES) + 1
    answers = [json.loads(line, parse_constant=lambda name: pytest.fail(f'{name} in the output')) for line in lines]
    for line, answer in zip(HOSTILE_LINES, answers):
        assert 'error' in answer, (line[:60], answer)
        assert len(json.dumps(answer)) < 400, 'an answer quotes what it refuses, briefly'
    assert answers[-1] == {'id': 'last', 'penalty': 10, 'deadwood': ['KS'], 'letters': 'en',
                           'melds': [{'kind': 'run', 'cards': ['7H', '8H', '9H'], 'as': ['7H', '8H', '9H']}]}


SETTINGS_BATCH = [
    {'id': 'true decks', 'cards': '7H 8H 9H', 'wild': '5', 'decks': True},
    {'id': 'one deck', 'cards': '7H 8H 9H', 'wild': '5', 'decks': 1},
    {'id': 'all wild 1', 'cards': 'KS KH 5C', 'wild': '5', 'rules': {'all_wild_melds': 1}},
    {'id': 'all wild true', 'cards': 'KS KH 5C', 'wild': '5', 'rules': {'all_wild_melds': True}},
    {'id': 'max wilds true', 'cards': 'JK JK 7H', 'wild': '5', 'jokers': 2, 'rules': {'max_wilds_per_meld': True}},
    {'id': 'max wilds 1', 'cards': 'JK JK 7H', 'wild': '5', 'jokers': 2, 'rules': {'max_wilds_per_meld': 1}},
    {'id': 'decks 1.0', 'cards': '7H 8H 9H', 'wild': '5', 'decks': 1.0},
    {'id': 'spanish', 'cards': '7C 8C 9C', 'wild': '5', 'lang': 'es'},
    {'id': 'english', 'cards': '7C 8C 9C', 'wild': '5'},
]


def test_the_same_line_gets_the_same_answer_in_any_order():
    """Issue 35: a settings cache took true, 1 and 1.0 as one key, so {"decks": true} was refused alone
    but accepted after a line with "decks": 1. Settings are read by type, with no memory of earlier lines."""
    import random

    def answers(batch):
        stdin = '\n'.join(json.dumps(line) for line in batch) + '\n'
        return {a['id']: a for a in map(json.loads, scorer('solve', '--jsonl', stdin=stdin).stdout.splitlines())}
    first = answers(SETTINGS_BATCH)
    assert 'error' in first['true decks'] and 'error' in first['all wild 1'] and 'error' in first['max wilds true']
    assert 'error' in first['decks 1.0'] and 'error' not in first['one deck']
    assert first['spanish']['deadwood'] == [] and first['spanish']['melds'][0]['cards'] == ['7H', '8H', '9H']
    assert first['english']['melds'][0]['cards'] == ['7C', '8C', '9C']
    rng = random.Random(35)
    for _ in range(6):
        batch = SETTINGS_BATCH[:]
        rng.shuffle(batch)
        assert answers(batch) == first
        assert answers([line for line in batch for _ in (1, 2)]) == first


def test_five_crowns_own_values_are_no_note_of_a_setting_nobody_set():
    """Rules.idle compares with the game's own defaults: Five Crowns' fixed 20 for a wild is no change."""
    r = scorer('check', '3S', '--wild', 'none', '--game', 'five_crowns')
    assert r.returncode == 0 and 'Note' not in r.stdout, r.stdout
    line = json.loads(scorer('solve', '--jsonl', stdin='{"cards": "3S", "wild": "none", "rules": {"game": "five_crowns"}}\n').stdout)
    assert 'error' not in line and not line.get('notes'), line
    r = scorer('check', '3S', '--wild', 'none', '--wild-penalty', '20')
    assert r.stdout.splitlines()[-1] == 'Note: wild_penalty counts only with a wild rank'


@pytest.mark.parametrize('language', LANGUAGES)
def test_the_helps_examples_are_cards_in_the_languages_own_letters(language):
    """The examples of check's help ("the hand, e.g. …", the claimed melds) are typed as a player of
    the help's language types: read back in that language, they are the cards the English example names."""
    from scorer.reading import read_cards, typed
    for example in ('7H 8H 9H KS 5C', '7H 8H 9H', 'KS KD KC'):
        assert read_cards(typed(example, language), language) == read_cards(example, 'en')
    out = subprocess.run([sys.executable, '-m', 'scorer', 'check', '--lang', language, '--help'],
                         capture_output=True, text=True, timeout=PATIENCE).stdout
    assert typed('7H 8H 9H KS 5C', language) in out


# The command lines a person types in another language: the help of the program and of each
# command (--lang before the command too), and the errors argparse and the referee answer.
SAID = [('--lang', '{lang}', '--help'), ('--help', '--lang', '{lang}'), ('--lang', '{lang}'), ('--lang', '{lang}', 'chec'),
        ('check', '--help', '--lang', '{lang}'), ('sheet', '--help', '--lang', '{lang}'),
        ('solve', '--help', '--lang', '{lang}'), ('--lang', '{lang}', 'solve'), ('check', '--lang', '{lang}'),
        ('check', '7H', '--round', '1', '--claim', 'x', '--lang', '{lang}'),
        ('check', '7H', '--rules', '{{"aces": }}', '--lang', '{lang}'), ('check', '7H', '--lang', '{lang}'),
        ('check', '7H', '--bogus', '--lang', '{lang}'), ('check', '7H', '--r', '1', '--lang', '{lang}'),
        ('check', '7H', '--round', '--lang', '{lang}'), ('sheet', '/nada/partida.json', '--lang', '{lang}'),
        ('check', '7H', '--aces', 'up', '--lang', '{lang}')]


def said_in(lang):
    """{command line: what it printed (the help, or the usage and the error)} for each of SAID in `lang`."""
    said = {}
    for line in SAID:
        args = [a.format(lang=lang) for a in line]
        r = scorer(*args)
        said[' '.join(args)] = r.stdout + r.stderr
    return said


@pytest.mark.parametrize('lang', [code for code in LANGUAGES if code != 'en'])
def test_the_command_line_speaks_without_code_marks(lang):
    """Issue 51: `python -m scorer --lang es --help` answered "argument {check,solve,sheet}: invalid
    choice: 'es' (choose from 'check', 'solve', 'sheet')". --lang comes before the command too, and
    in es and pt no help or error says argparse's words: no straight quotes, no braces, no
    "argumento" in an error or the program's help (a command's own help may title what it takes so)."""
    import re
    said = said_in(lang)
    assert scorer('--lang', lang, '--help').returncode == 0
    marks = {line: re.findall(r"['\"{}]", out) for line, out in said.items()}
    assert {line: found for line, found in marks.items() if found} == {}
    jargon = {line: [row for row in out.splitlines() if 'argument' in row.lower()] for line, out in said.items()
              if not line.endswith('--help --lang ' + lang) or line.startswith('--help')}
    assert {line: rows for line, rows in jargon.items() if rows} == {}


@pytest.mark.parametrize('lang', [code for code in LANGUAGES if code != 'en'])
def test_the_lang_option_names_the_language_it_answers_in_without_it(lang):
    """Issue 51's last review: "(por omisión en, con las letras S H D C)" reads as "by default in,
    with the letters…": without --lang the answer is in English, said as the help's language names it."""
    from babel import Locale
    english = Locale.parse(lang).languages['en']
    for line in (('--lang', lang, '--help'), ('check', '--help', '--lang', lang), ('sheet', '--help', '--lang', lang)):
        assert english in ' '.join(scorer(*line).stdout.split()), line


# Queries in pairs that differ in one field besides their cards: a settings cache that took the two for
# one would answer the second with the first's rules, wild rank, round or letters.
ONE_FIELD_APART = [
    ({'cards': '7H 8H 9H', 'wild': '5'}, {'cards': '7H 8H 9H', 'wild': '6'}),
    ({'cards': '7H 8H 9H', 'round': 3}, {'cards': '7H 8H 9H', 'round': 4}),
    ({'cards': '7H 8H 9H', 'round': 3}, {'cards': '7H 8H 9H', 'round': '3'}),
    ({'cards': '7H 7H 7H', 'wild': '5', 'decks': 3}, {'cards': '7H 7H 7H', 'wild': '5', 'decks': 2}),
    ({'cards': 'JK 7H', 'wild': '5', 'jokers': 2}, {'cards': 'JK 7H', 'wild': '5', 'jokers': 0}),
    ({'cards': '7H 8H 9H', 'wild': '5', 'decks': 1}, {'cards': '7H 8H 9H', 'wild': '5', 'decks': True}),
    ({'cards': '7H 8H 9H', 'wild': '5', 'decks': 1}, {'cards': '7H 8H 9H', 'wild': '5', 'decks': 1.0}),
    ({'cards': 'KS KH 5C', 'wild': '5', 'rules': {'all_wild_melds': True}},
     {'cards': 'KS KH 5C', 'wild': '5', 'rules': {'all_wild_melds': 1}}),
    ({'cards': 'KS AS 2S', 'wild': '5', 'rules': {'aces': 'high_or_low'}},
     {'cards': 'KS AS 2S', 'wild': '5', 'rules': {'aces': 'low'}}),
    ({'cards': 'KS AS 2S', 'wild': '5', 'rules': {'max_wilds_per_meld': 1}},
     {'cards': 'KS AS 2S', 'wild': '5', 'rules': {'max_wilds_per_meld': None}}),
    ({'cards': '7C 8C 9C', 'wild': '5', 'lang': 'es'}, {'cards': '7C 8C 9C', 'wild': '5', 'lang': 'en'}),
    ({'cards': '7C 8C 9C', 'wild': '5', 'letters': 'es'}, {'cards': '7C 8C 9C', 'wild': '5'}),
    ({'cards': '7H 8H 9H', 'wild': '5'}, {'cards': '2S 2D 2C', 'wild': '5'}),
    ({'cards': '7H 8H 9H', 'wild': '5'}, {'cards': '7H 8H 9H', 'wild': '5', 'rules': {'bogus': 1}}),
    ({'cards': '7H 8H 9H', 'wild': '5', 'rules': {'aces': ['low']}}, {'cards': '7H 8H 9H', 'wild': '5'}),
]


@pytest.mark.parametrize('first,second', ONE_FIELD_APART + [(b, a) for a, b in ONE_FIELD_APART])
def test_a_query_read_after_another_reads_as_it_does_alone(first, second):
    """Issue 50: a query's settings (its fields but the cards and id) are read once for every query that
    gives the same (query.read_settings()). A query read right after one that differs in one field, a
    value or only a value's type, reads as it does with nothing read before it: the same rules, wild
    rank, round, letters and cards, or the same error."""
    from scorer import query

    def read(fields):
        try:
            return query.read_query(dict(fields, id=1))
        except query.QueryError as e:
            return str(e)
    query._settings.clear()
    alone = read(second)
    query._settings.clear()
    read(first)
    assert read(second) == alone
    assert read(second) == alone          # and read again, from what is kept
