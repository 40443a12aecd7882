"""/audit settles a disputed hand: optimal melds card by card, claims checked, go-out, permalinks."""

import re

from tests.helpers import round_form


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
    cases = [('cards=7H 1X&round=3', "&#39;1X&#39; is not a card (2nd card)"),
             ('cards=7H 7H 7H&round=3', 'three 7♥ but only 2 decks'),
             ('cards=7H&round=99', 'round 99 is not in a standard game'),
             ('cards=7H', 'choose the round (or the wild rank)'),
             ('cards=7H&wild=3&claim=lots', '&#39;lots&#39; is not a score'),
             ('cards=7H&wild=3&melds=7H 8X', 'claimed melds: &#39;8X&#39; is not a card (2nd card)'),
             ('cards=7H&wild=3&aces=up', '&#39;up&#39; is not a value of aces'),
             ('cards=7H&wild=Z', 'wild: &#39;Z&#39; is not a rank')]
    for query, message in cases:
        r = client.get('/audit?' + query)
        assert r.status_code == 200
        page = r.get_data(as_text=True)
        assert message in ' '.join(alerts(page)), query
        assert 'Minimal penalty' not in page
    page = client.get('/audit?cards=7H 1X&round=3').get_data(as_text=True)
    assert 'value="7H 1X"' in page


def test_from_the_sheet_a_hand_opens_in_the_audit_with_the_games_rules(client, make_game):
    url = make_game(('Ana', 'Bruno'), jokers=2, aces='high_or_low')
    r = client.post(url + '/rounds/1', data=round_form(0, cards=[None, 'QH KH AH']))
    assert r.status_code == 302
    sheet = client.get(url).get_data(as_text=True)
    link = re.search(r'href="(/audit\?[^"]+)"', sheet).group(1).replace('&amp;', '&')
    assert 'round=1' in link and 'game=' in link
    page = client.get(link).get_data(as_text=True)
    assert "With this game's rules." in page
    assert 'Minimal penalty: 0' in page                     # Q-K-A with aces high: this game's rules
    assert client.get('/audit?cards=7H&round=1&game=nope').status_code == 404


def test_printable_view_has_no_form(client):
    page = client.get('/audit?cards=7H 8H 9H KS 5C&round=3&view=print').get_data(as_text=True)
    assert 'Minimal penalty: 10' in page and '<form' not in page
