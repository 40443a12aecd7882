"""A set's cards each of a different suit (the house rule `set_suits: different`, issue 52): the
new-game page offers it, the sheet's rules line says it (Five Crowns: a book), the game file keeps
it (an older file without it reads as any suits), and the audit page, the API, a claim and the
command line (`check`, `solve --jsonl`) all score by it. The solver's exactness: tests/test_solver.py."""

import json
import subprocess
import sys

from scorer.gamefile import game_data, read_game
from scorer.i18n import catalog, speaking
from scorer.rules import make_rules, rules_words
from tests.helpers import LANGUAGES, PATIENCE, new_game, round_form, save_confirmed

# Two decks: 7♥ 7♥ 7♠ 🃏 is a set of any suits (0); with each suit different, 7♥ 7♠ 🃏 is, and the
# second 7♥ is left (7).
HAND = {'cards': '7H 7H 7S JK', 'wild': 'none', 'jokers': '2'}


def test_the_audit_api_and_a_claim_score_by_it(client):
    assert client.get('/api/audit', query_string=HAND).get_json()['penalty'] == 0
    differ = {**HAND, 'set_suits': 'different', 'melds': '7H 7H 7S JK'}
    audited = client.get('/api/audit', query_string=differ).get_json()
    assert (audited['penalty'], audited['deadwood']) == (7, ['7H'])
    assert audited['claim']['melds'][0]['reason'] == ('7♥ 7♥ 7♠ 🃏 is not a set: ♥ twice, and in this game '
                                                      'each card is of a different suit')
    solved = client.get('/api/solve', query_string={k: v for k, v in differ.items() if k != 'melds'}).get_json()
    assert solved['penalty'] == 7
    page = client.get('/audit', query_string=differ).get_data(as_text=True)
    assert 'Minimal penalty: 7' in page and 'value="different" selected' in page


def test_the_command_line_scores_by_it():
    printed = subprocess.run([sys.executable, '-m', 'scorer', 'check', '7H 7H 7S JK', '--wild', 'none', '--jokers', '2',
                              '--set-suits', 'different'], capture_output=True, text=True, timeout=PATIENCE)
    assert 'Penalty: 7' in printed.stdout, printed.stdout + printed.stderr
    line = '{"cards": "7H 7S 7D 7C 7X JK", "wild": "3", "rules": {"game": "five_crowns", "set_suits": "different"}}\n'
    solved = json.loads(subprocess.run([sys.executable, '-m', 'scorer', 'solve', '--jsonl'], input=line,
                                       capture_output=True, text=True, timeout=PATIENCE).stdout)
    assert solved['penalty'] == 0 and len(solved['melds']) == 2      # five suits: 7♥ 7♠ 🃏 and 7♦ 7♣ 7★


def test_the_game_its_file_and_its_rules_line(client):
    url = new_game(client, ['Ana', 'Bruno'], set_suits='different', jokers='2')
    assert save_confirmed(client, url, 1, round_form(0, points=['', '0'])).status_code == 302
    r = save_confirmed(client, url, 2, round_form(0, cards=['', '7H 7H 7S JK']))      # 4 cards, fours wild
    assert r.status_code == 302, r.get_data(as_text=True)[-400:]
    exported = json.loads(client.get(f'{url}/export.json').get_data(as_text=True))
    assert exported['rules']['set_suits'] == 'different' and exported['sheet']['totals'] == {'Ana': 0, 'Bruno': 7}
    assert "a set's cards are each of a different suit" in client.get(url).get_data(as_text=True).replace('&#39;', "'")
    game = read_game(json.dumps({k: exported[k] for k in ('version', 'players', 'rules', 'first_dealer', 'rounds')}))
    assert game.rules.suits_differ and read_game(game_data(game)) == game
    older = {k: exported[k] for k in ('version', 'players', 'rules', 'first_dealer', 'rounds')}
    older['rules'] = {k: v for k, v in older['rules'].items() if k != 'set_suits'}   # written before the setting
    assert read_game(json.dumps(older)).rules.set_suits == 'any'


def test_the_rules_line_in_each_language():
    five = make_rules(game='five_crowns', set_suits='different')
    lines = {}
    for language in LANGUAGES:
        with speaking(catalog(language), language):
            lines[language] = (rules_words(make_rules(set_suits='different'))[-2], rules_words(five)[-2])
    assert lines['en'] == ("a set's cards are each of a different suit", "a book's cards are each of a different suit")
    assert len({lines[lang][0] for lang in lines}) == len(LANGUAGES) == len({lines[lang][1] for lang in lines})
