"""/audit settles a disputed hand: optimal melds card by card, claims checked, go-out, permalinks."""

import html
import re

import pytest

from tests.helpers import PATIENCE, round_form


def alerts(page):
    return re.findall(r'role="alert">([^<]*)<', page)


def test_empty_audit_shows_the_form(client):
    page = client.get('/audit').get_data(as_text=True)
    assert 'Audit a hand' in page and 'name="cards"' in page and 'Minimal penalty' not in page


def test_melds_deadwood_and_sum_card_by_card(client):
    page = client.get('/audit?cards=7H 8H 9H KS 5C QD&round=3').get_data(as_text=True)
    assert 'Round 3: 5 cards, fives are wild.' in page
    assert 'Minimal penalty: 20' in page
    assert '5♣<small> as 6♥</small>' in page or '5♣<small> as 10♥</small>' in page
    assert 'Deadwood: K♠ 10 + Q♦ 10 = 20' in page
    assert 'Other arrangements' not in page


def test_other_arrangements_are_mentioned(client):
    page = client.get('/audit?cards=2S 3H 3H 2H 10S 3S 4H&wild=K').get_data(as_text=True)
    assert 'Minimal penalty: 18' in page
    assert 'Other arrangements also leave 18; this is one of them.' in page


def test_claimed_score_and_melds(client):
    page = client.get('/audit?cards=4H 5H 6H 7C QS 9D&wild=3&claim=43').get_data(as_text=True)
    assert 'Does not hold' in page and 'claimed 43, the minimum is 26: 4♥ 5♥ 6♥ also melds' in page
    page = client.get('/audit?cards=4H 5H 6H 7C QS 9D&wild=3&claim=26&melds=4H 5H 6H').get_data(as_text=True)
    assert 'Holds' in page and '✓ run 4♥ 5♥ 6♥' in page
    page = client.get('/audit?cards=7H 9H JH 2C&wild=3&melds=7H 9H JH').get_data(as_text=True)
    assert '✗ 7♥ 9♥ J♥ is not a run: 8♥ and 10♥ are missing and it has no wild' in page


def test_go_out_check_with_one_card_more_than_the_round_deals(client):
    page = client.get('/audit?cards=4H 5H 6H 9C&round=1').get_data(as_text=True)
    assert 'Goes out by discarding 9♣.' in page
    page = client.get('/audit?cards=4H 6H 8C 9C&round=1').get_data(as_text=True)
    assert 'Cannot go out: the best discard' in page


def test_settings_come_from_the_url(client):
    assert 'Minimal penalty: 21' in client.get('/audit?cards=QH KH AH&wild=3').get_data(as_text=True)
    page = client.get('/audit?cards=QH KH AH&wild=3&aces=high_or_low').get_data(as_text=True)
    assert 'Minimal penalty: 0' in page


def test_bad_input_gets_clear_messages_and_keeps_what_was_typed(client):
    cases = [('cards=7H 1X&round=3', "&#39;1X&#39; is not a card"),
             ('cards=7H 7H 7H&round=3', 'three 7♥ but only 2 decks'),
             ('cards=7H&round=99', 'round 99 is not in a standard game'),
             ('cards=7H', 'choose the round (or the wild rank)'),
             ('cards=7H&wild=3&claim=lots', '&#39;lots&#39; is not a score'),
             ('cards=7H&wild=3&melds=7H 8Z', 'claimed melds: &#39;8Z&#39;: which suit is Z?'),
             ('cards=7H&wild=3&melds=7H 8X', 'claimed melds: 8★: this game has no ★ cards'),
             ('cards=7H&wild=3&melds=7H 1X', 'claimed melds: &#39;1X&#39; is not a card'),
             ('cards=7H&wild=3&aces=up', '&#39;up&#39; is not a value of aces'),
             ('cards=7H&wild=Z', 'wild: &#39;Z&#39; is not a rank'),
             ('cards=2H 3H 4H 5H 6H&round=1', '5 cards, but round 1 deals 3 (at most 4 with the card drawn)')]
    for query, message in cases:
        r = client.get('/audit?' + query)
        assert r.status_code == 200
        page = r.get_data(as_text=True)
        assert message[0].upper() + message[1:] in ' '.join(alerts(page)), query     # each a sentence
        assert 'Minimal penalty' not in page
    page = client.get('/audit?cards=7H 1X&round=3').get_data(as_text=True)
    assert 'value="7H 1X"' in page


def test_from_the_sheet_a_hand_opens_in_the_audit_with_the_games_rules(client, make_game):
    url = make_game(('Ana', 'Bruno'), jokers=2, aces='high_or_low')
    r = client.post(url + '/rounds/1', data=round_form(0, cards=[None, 'QH KH AH']))
    assert r.status_code == 302
    sheet = client.get(url).get_data(as_text=True)
    score = re.search(r'href="([^"]+/scores/1/1)"', sheet).group(1)    # tapping Bruno's score
    offered = client.get(score).get_data(as_text=True)
    assert 'Recorded: the cards Q♥ K♥ A♥' in offered and 'Edit round 1' in offered
    link = re.search(r'href="(/audit\?[^"]+)"', offered).group(1).replace('&amp;', '&')
    assert 'round=1' in link and f'game_id={url.rsplit("/", 1)[1]}' in link and 'game=' not in link
    page = client.get(link).get_data(as_text=True)
    assert "With this game's rules." in page
    assert "<bdi>Bruno</bdi>'s hand in round 1</strong>: recorded as the cards Q♥ K♥ A♥" in page
    assert 'Minimal penalty: 0' in page                     # Q-K-A with aces high: this game's rules
    assert client.get('/audit?cards=7H&round=1&game_id=nope').status_code == 404
    # An address made before the id had its own name (game=<id>) moves to game_id=, the same audit.
    old = client.get(link.replace('game_id=', 'game='))
    assert old.status_code == 302 and 'game_id=' in old.headers['Location'] and '&game=' not in old.headers['Location']
    moved = client.get(old.headers['Location']).get_data(as_text=True)
    assert "With this game's rules." in moved and 'Minimal penalty: 0' in moved and 'recorded as the cards Q♥ K♥ A♥' in moved
    assert client.get('/audit?cards=7H&round=1&game=nope').status_code == 404


def test_printable_view_has_no_form(client):
    page = client.get('/audit?cards=7H 8H 9H KS 5C&round=3&view=print').get_data(as_text=True)
    assert 'Minimal penalty: 10' in page and '<form' not in page


def test_api_audit_is_the_json_twin_of_the_page(client):
    query = 'cards=4H 5H 6H 7C QS 9D&wild=3&claim=43&melds=4H 5H 7C'
    page = client.get('/audit?' + query).get_data(as_text=True)
    data = client.get('/api/audit?' + query).get_json()
    assert data['intro'] == 'Threes are wild.' and data['intro'] in page
    assert data['penalty'] == 26 and 'Minimal penalty: 26' in page
    assert data['melds'] == [{'kind': 'run', 'cards': ['4H', '5H', '6H'], 'as': ['4H', '5H', '6H']}]
    assert data['deadwood'] == ['QS', '9D', '7C'] and data['deadwood_values'] == [10, 9, 7]
    assert data['claim']['holds'] is False and data['claim']['minimum'] == 26
    assert data['claim']['melds'] == [{'cards': ['4H', '5H', '7C'], 'ok': False, 'kind': None,
                                       'reason': '4♥ 5♥ 7♣ is not a meld: not all one rank (a set) nor all one suit (a run)'}]
    assert data['claim']['verdict'] in page.replace('&#39;', "'")


def test_api_audit_says_how_to_go_out(client):
    data = client.get('/api/audit?cards=4H 5H 6H 9C&round=1').get_json()
    assert data['go_out'] == {'can': True, 'discards': ['9C'], 'best': None, 'left': 0}
    data = client.get('/api/audit?cards=4H 6H 8C 9C&round=1').get_json()
    assert data['go_out']['can'] is False and data['go_out']['left'] > 0
    assert data['go_out']['best'] in ('4H', '6H', '8C', '9C')


def test_api_audit_refuses_bad_input_with_the_pages_messages(client):
    for query, message in [('cards=7H 1X&round=3', "'1X' is not a card"),
                           ('cards=7H&wild=3&claim=٣', "'٣' is not a score"),
                           ('cards=7H', 'choose the round (or the wild rank)'),
                           ('round=3', 'no cards given'),
                           ('cards=7H&round=3&colour=red', "unknown parameter 'colour'"),
                           ('cards=2H 3H 4H 5H 6H&round=1', '5 cards, but round 1 deals 3')]:
        r = client.get('/api/audit?' + query)
        assert r.status_code == 400, query
        assert message in r.get_json()['error'], query
    assert client.get('/api/audit?cards=7H&round=1&game=nope').status_code == 404


def test_the_command_line_and_the_api_say_the_same(client):
    from scorer.reading import parse_cards
    from scorer.referee import audit, lines
    from scorer.rules import DEFAULT
    data = client.get('/api/audit?cards=7H 8H 9H KS 5C&round=3&claim=10').get_json()
    said = lines(audit(parse_cards('7H 8H 9H KS 5C'), 5, DEFAULT, 3, claim_score=10))
    assert said[0] == data['intro'] and 'Claim holds: ' + data['claim']['verdict'] in said


def test_a_claim_longer_than_a_hand_is_refused_at_once(client):
    """The query of issue 24: 94 copies of a 13-card meld, 3.9 KB, took seconds; now one message."""
    melds = '+|+'.join(['5S+5S+5S+5H+5H+5H+5D+5D+5D+5C+5C+5C+KS'] * 94)
    r = client.get(f'/api/audit?cards=5S+5H+KS&wild=5&decks=3&melds={melds}')
    assert r.status_code == 400 and 'at most 300 characters' in r.get_json()['errors']['melds']
    page = client.get(f'/audit?cards=5S+5H+KS&wild=5&decks=3&melds={melds}').get_data(as_text=True)
    assert 'at most 300 characters' in page


@pytest.mark.parametrize('query', ['cards=7H 8H 9H KS 5C&round=3', 'cards=QS QD 2C 9C&round=2',
                                   'cards=4H 5H 6H KS KD KC JK&round=5&jokers=2'])
def test_the_entry_preview_draws_a_hand_as_the_result_pages_do(client, query):
    """One renderer of a solved hand: the live preview of the entry pages is _hand.html, drawn by the
    server, the very fragment the audit (and a score) shows."""
    preview = client.get('/audit/preview?' + query)
    page = client.get('/audit?' + query).get_data(as_text=True)
    hand = re.compile(r'<div class="hand">.*?\n</div>', re.S)
    assert preview.status_code == 200
    assert hand.search(preview.get_data(as_text=True)).group(0) == hand.search(page).group(0)
    penalty = re.search(r'Minimal penalty: (\d+)', page).group(1)
    assert f'data-penalty="{penalty}"' in preview.get_data(as_text=True)


def test_the_preview_says_what_is_wrong_and_that_a_hand_gone_out_does_not_meld(client):
    r = client.get('/audit/preview?cards=7H 8H 1X&round=3')
    assert r.status_code == 400 and "&#39;1X&#39; is not a card" in r.get_data(as_text=True)
    out = client.get('/audit/preview?cards=QS QD 2C 9C&round=2&out=1').get_data(as_text=True)
    assert 'preview-line error' in out and 'went out, but these do not meld' in out


def test_a_spanish_audit_becomes_an_address_every_phone_reads_alike(client):
    """Issue 35: on a Spanish page 7C 8C 9C JC reads as hearts, and the "Link to this audit" copied the
    text as typed, which an English phone reads as clubs. The form says which letters it was typed in;
    the answer is the same audit written in suit symbols."""
    client.set_cookie('lang', 'es')
    r = client.get('/audit', query_string={'letters': 'es', 'cards': '7C 8C 9C JC', 'round': '1',
                                           'melds': '7C 8C 9C', 'claim': '10'})
    assert r.status_code == 302
    target = r.headers['Location']
    assert 'letters' not in target
    spanish = client.get(target).get_data(as_text=True)
    client.delete_cookie('lang')
    english = client.get(target, headers={'Accept-Language': 'en'}).get_data(as_text=True)
    for page in (spanish, english):
        assert '7♥ 8♥ 9♥ J♥' in page
    assert 'Claim holds' in english or 'Holds' in english
    link = re.search(r'href="([^"]+)">Link to this audit', english).group(1)
    assert html.unescape(link) == target
    assert 'name="letters" value="en"' in english and 'name="letters" value="es"' in spanish


def test_the_page_reads_the_letters_its_form_says_and_keeps_what_was_typed(client):
    client.set_cookie('lang', 'es')
    page = client.get('/audit', query_string={'letters': 'es', 'cards': '7C 8C 9C 7S', 'round': '1'}).get_data(as_text=True)
    assert 'value="7C 8C 9C 7S"' in page and '¿qué palo es S?' in html.unescape(page)
    assert 'Letras: P o E\u00a0♠ · C\u00a0♥ · D\u00a0♦ · T\u00a0♣ · R\u00a0=\u00a0K' in page


def test_a_group_of_wilds_only_is_named_a_run_everywhere(client):
    """Issue 52: KH KS JK with kings wild reads as a run (docs/rules.md); the audit page, /api/audit,
    /api/solve and the command line take the name from the one meld rule (scorer.melds.meld_of)."""
    import subprocess
    import sys
    asked = {'cards': 'KH KS JK', 'wild': 'K', 'jokers': '2', 'melds': 'KH KS JK'}
    audited = client.get('/api/audit', query_string=asked).get_json()
    assert [m['kind'] for m in audited['melds']] == ['run'] and audited['claim']['melds'][0]['kind'] == 'run'
    solved = client.get('/api/solve', query_string={k: v for k, v in asked.items() if k != 'melds'}).get_json()
    assert solved['melds'] == audited['melds']
    page = html.unescape(re.sub(r'<[^>]+>', ' ', client.get('/audit', query_string=asked).get_data(as_text=True)))
    assert re.search(r'✓\s+run ', page)
    printed = subprocess.run([sys.executable, '-m', 'scorer', 'check', 'KH KS JK', '--wild', 'K', '--jokers', '2'],
                             capture_output=True, text=True, timeout=PATIENCE)
    assert 'Run K♠ 🃏 K♥, K♠ as J♥, 🃏 as Q♥' in printed.stdout, printed.stdout + printed.stderr
