"""Leftovers counted as they lie (the house rule `leftovers: as_they_lie`): a hand left with cards
scores the plain sum of the cards entered, wilds at the rules' price, never a new minimum; the
sheet, the entry preview, the audit (with the minimum beside it), the API and the command line."""

import json
import subprocess
import sys

from scorer.cards import Card
from scorer.rules import make_rules
from scorer.sheet import Entry, Game, doubts, score_round
from tests.helpers import PATIENCE, new_game, round_form, save_confirmed

# Round 5 of Five Crowns: sevens wild. 9★ 7♥ 🃏 would meld (a book of nines), but as they lie
# they count 9 + 20 (a wild) + 50 (a joker) = 79.
FIVE_CROWNS = make_rules(game='five_crowns', leftovers='as_they_lie')


def test_a_hand_as_it_lies_scores_the_sum_of_its_cards():
    game = Game(('Ana', 'Bruno', 'Carla'), FIVE_CROWNS)
    entries = [Entry('Ana', went_out=True), Entry('Bruno', cards='9X 7H JK'), Entry('Carla', cards='KS')]
    assert {p: s.score for p, s in score_round(game, 5, entries).items()} == {'Ana': 0, 'Bruno': 79, 'Carla': 13}
    assert doubts(game, 5, entries) == []            # a hand's melds were laid down: fewer cards is no doubt
    standard = make_rules(leftovers='as_they_lie', jokers=2)    # round 3, fives wild: 15 + 20 + 4 + 3
    assert score_round(Game(('A', 'B'), standard), 3, [Entry('A', went_out=True),
                                                       Entry('B', cards='5H JK 4S 3S')])['B'].score == 42


def test_who_went_out_still_melds_every_card():
    game = Game(('Ana', 'Bruno'), FIVE_CROWNS)
    assert score_round(game, 5, [Entry('Ana', went_out=True, cards='9X 7H JK'), Entry('Bruno', cards='3S')])['Ana'].score == 0


def test_the_game_sheet_the_preview_and_the_audit_count_as_they_lie(client):
    url = new_game(client, ['Ana', 'Bruno'], game='five_crowns', leftovers='as_they_lie')
    game_id = url.rsplit('/', 1)[1]
    for n in range(1, 5):
        assert save_confirmed(client, url, n, round_form(0, points=['', '0'])).status_code == 302
    r = save_confirmed(client, url, 5, round_form(0, cards=['', '9X 7H JK']))
    assert r.status_code == 302, r.get_data(as_text=True)[-400:]
    exported = json.loads(client.get(f'{url}/export.json').get_data(as_text=True))
    assert exported['rules']['leftovers'] == 'as_they_lie'
    assert 'as they lie' in client.get(url).get_data(as_text=True)       # the sheet's rules say so
    assert exported['sheet']['totals'] == {'Ana': 0, 'Bruno': 79}
    preview = client.get('/audit/preview', query_string={'cards': '9X 7H JK', 'round': '5', 'game_id': game_id})
    assert 'data-penalty="79"' in preview.get_data(as_text=True)
    went_out = client.get('/audit/preview', query_string={'cards': '9X 7H JK', 'round': '5', 'game_id': game_id, 'out': '1'})
    assert 'data-penalty="0"' in went_out.get_data(as_text=True)
    audited = client.get('/api/audit', query_string={'cards': '9X 7H JK', 'round': '5', 'game_id': game_id}).get_json()
    assert (audited['as_they_lie'], audited['penalty']) == (79, 0)
    page = client.get('/audit', query_string={'cards': '9X 7H JK', 'round': '5', 'game_id': game_id}).get_data(as_text=True)
    assert 'Counted as they lie: 79' in page and 'Minimal penalty: 0' in page
    solved = client.get('/api/solve', query_string={'cards': '9X 7H JK', 'round': '5', 'game_id': game_id}).get_json()
    assert (solved['as_they_lie'], solved['penalty']) == (79, 0)


def test_the_new_game_page_offers_it():
    from web.forms import choices
    assert [c.value for c in choices('leftovers')] == ['minimum', 'as_they_lie']


def test_the_command_line_counts_as_they_lie_beside_the_minimum():
    run = subprocess.run([sys.executable, '-m', 'scorer', 'check', '9X 7H JK', '--round', '5', '--game', 'five_crowns',
                          '--leftovers', 'as_they_lie'], capture_output=True, text=True, timeout=PATIENCE)
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines()[-1] == 'Counted as they lie: 7♥ 20 + 9★ 9 + 🃏 50 = 79 (the minimum: 0)'
    line = '{"cards": "9X 7H JK", "round": 5, "rules": {"game": "five_crowns", "leftovers": "as_they_lie"}}\n'
    solved = json.loads(subprocess.run([sys.executable, '-m', 'scorer', 'solve', '--jsonl'], input=line,
                                       capture_output=True, text=True, timeout=PATIENCE).stdout)
    assert (solved['as_they_lie'], solved['penalty']) == (79, 0)
