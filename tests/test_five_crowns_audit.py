"""The audit of a Five Crowns hand, with the kind of game as a parameter (`game=five_crowns`, or a
Five Crowns game's id): the page, /api/audit, /api/solve and `python -m scorer check --game
five_crowns` give the one answer, and refuse alike a card Five Crowns has none of."""

import html
import re
import subprocess
import sys

import pytest

from scorer.reading import symbols

from tests.five_crowns_game import ROUNDS
from tests.helpers import PATIENCE, new_game_form

# Carla's hand of round 11 (kings wild), worked out in tests/five_crowns_game.py: 9♠ 4♣ left, 13.
CARLA = ROUNDS[10][2][2]
ASKED = {'cards': CARLA, 'round': '11', 'game': 'five_crowns'}


def cli(*args):
    return subprocess.run([sys.executable, '-m', 'scorer', 'check', *args], capture_output=True, text=True, timeout=PATIENCE)


def text_of(page):
    return re.sub(r'\s+', ' ', html.unescape(re.sub(r'<[^>]+>', ' ', page)))


def test_page_api_and_command_line_judge_a_five_crowns_hand_alike(client):
    audited = client.get('/api/audit', query_string={**ASKED, 'claim': '13'}).get_json()
    assert audited['penalty'] == 13 and audited['deadwood'] == ['9S', '4C'] and audited['claim']['holds']
    assert audited['intro'] == 'Round 11: 13 cards, kings and jokers are wild.'
    solved = client.get('/api/solve', query_string=ASKED).get_json()
    assert (solved['penalty'], solved['melds'], solved['deadwood']) == (13, audited['melds'], audited['deadwood'])
    page = text_of(client.get('/audit', query_string={**ASKED, 'claim': '13'}).get_data(as_text=True))
    assert 'Minimal penalty: 13' in page and 'Deadwood: 9♠ 9 + 4♣ 4 = 13' in page
    printed = cli(CARLA, '--round', '11', '--game', 'five_crowns', '--claim', '13')
    assert printed.returncode == 0, printed.stderr
    assert 'Deadwood: 9♠ 9 + 4♣ 4 = 13' in printed.stdout and 'Penalty: 13' in printed.stdout
    assert 'Claim holds' in printed.stdout
    # On Three-Thirteen's rules the same cards are another hand (no stars, no sixth joker...): 13 is wrong there.
    standard = client.get('/api/audit', query_string={'cards': '3S 4S 5S QX', 'round': '2'})
    assert standard.status_code == 400 and 'this game has no ★ cards' in standard.get_json()['error']


def test_the_game_of_a_five_crowns_game_id_is_the_audits(client):
    url = client.post('/games/new', data=new_game_form(['Ana', 'Bruno', 'Carla'], game='five_crowns')).headers['Location']
    game_id = url.rsplit('/', 1)[1]
    # Three jokers and a star: a hand only Five Crowns' deck deals (six jokers, five suits).
    asked = {'cards': 'JK JK JK 3X 9H', 'round': '3', 'game_id': game_id}
    audited = client.get('/api/audit', query_string=asked).get_json()
    # 3★ and 9♥ share no suit or rank: the jokers meld one of them (9♥ with two, the third joins):
    # 3★ left, 3.
    assert (audited['penalty'], audited['deadwood']) == (3, ['3X']), audited
    assert client.get('/api/solve', query_string=asked).get_json()['penalty'] == 3
    assert 'Minimal penalty: 3' in text_of(client.get('/audit', query_string=asked).get_data(as_text=True))


@pytest.mark.parametrize('cards, message', [
    ('AS 3X 4X', 'A♠: this game has no aces'),
    ('2H 3X 4X', '2♥: this game has no twos'),
    ('7X 7X 7X', 'three 7★ but only 2 decks'),
])
def test_a_card_five_crowns_has_none_of_is_refused_alike(client, cards, message):
    asked = {'cards': cards, 'round': '1', 'game': 'five_crowns'}
    for path in ('/api/audit', '/api/solve'):
        r = client.get(path, query_string=asked)
        assert r.status_code == 400 and message in r.get_json()['error'], path
    page = client.get('/audit', query_string=asked)
    assert page.status_code == 200 and message[0].upper() + message[1:] in text_of(page.get_data(as_text=True))   # a line
    assert f'value="{symbols(cards)}"' in page.get_data(as_text=True)        # what was typed stays, with symbols
    printed = cli(cards, '--round', '1', '--game', 'five_crowns')
    assert printed.returncode == 2 and printed.stderr.strip() == f'error: {message}'


def test_a_setting_five_crowns_decides_is_no_house_rule_of_an_audit(client):
    message = 'Five Crowns plays with decks 2: it is no house rule there'
    r = client.get('/api/audit', query_string={**ASKED, 'decks': '3'})
    assert r.status_code == 400 and message in r.get_json()['error']
    assert client.get('/api/solve', query_string={**ASKED, 'decks': '3'}).get_json()['error'] == message
    printed = cli(CARLA, '--round', '11', '--game', 'five_crowns', '--decks', '3')
    assert printed.returncode == 2 and printed.stderr.strip() == f'error: {message}'
    # A house rule Five Crowns takes is taken: at most one wild a meld, and 🃏 K♥ 9♠ is no meld.
    one = client.get('/api/audit', query_string={**ASKED, 'max_wilds_per_meld': '1'}).get_json()
    assert one['penalty'] == 13 and all(len([c for c in m['cards'] if c in ('JK', 'KH')]) <= 1 for m in one['melds'])
    hand = {**ASKED, 'cards': 'JK KH 9S', 'round': '11'}
    assert client.get('/api/solve', query_string=hand).get_json()['penalty'] == 0
    assert client.get('/api/solve', query_string={**hand, 'max_wilds_per_meld': '1'}).get_json()['penalty'] == 79


@pytest.mark.parametrize('language, typed', [('es', '3X 4X 5X 5C 6C 7C'), ('pt', '3X 4X 5X 5C 6C 7C'),
                                             ('en', '3X 4X 5X 5H 6H 7H')])
def test_stars_are_x_in_every_language(client, language, typed):
    """X is stars on every page (the canonical letters of en, and es and pt, where C is hearts)."""
    asked = {'cards': typed, 'round': '4', 'game': 'five_crowns', 'letters': language}
    audited = client.get('/api/audit', query_string=asked).get_json()
    assert audited['hand'] == ['3X', '4X', '5X', '5H', '6H', '7H'] and audited['penalty'] == 0
    printed = cli(typed, '--round', '4', '--game', 'five_crowns', '--lang', language)
    assert printed.returncode == 0 and '3★ 4★ 5★ 5♥ 6♥ 7♥' in printed.stdout


def test_five_crowns_says_book_where_three_thirteen_says_set(client):
    """Five Crowns' word for a set is book (docs/glossary.md: trío, trinca): in the referee's lines,
    on the audit page and at the command line; Three-Thirteen keeps set."""
    asked = {'cards': '9X 9H JK 5S 6S 7S', 'round': '5', 'game': 'five_crowns', 'claim': '0'}
    printed = cli('9X 9H JK 5S 6S 7S', '--round', '5', '--game', 'five_crowns')
    assert 'Book 9♥ 9★ 🃏, 🃏 as 9' in printed.stdout and 'Set' not in printed.stdout
    page = text_of(client.get('/audit', query_string={**asked, 'melds': '9X 9H JK'}).get_data(as_text=True))
    assert 'book 9★ 9♥ 🃏' in page and 'set ' not in page.lower().replace('settings', '').replace('suits in a set', '')
    spanish = text_of(client.get('/audit', query_string={**asked, 'lang': 'es'}).get_data(as_text=True))
    assert 'trío' in spanish
    standard = cli('9S 9H JK 5S 6S 7S', '--round', '5', '--jokers', '2')
    assert 'Set 9♠ 9♥ 🃏, 🃏 as 9' in standard.stdout
