"""A Five Crowns game goes everywhere a game goes: the keypad of every entry page keys its deck,
and the sheet, the round page and my hand, the big screen, print, the picture, history and stats,
the game file and CSV, and the phone's scorer offline all show the game scored by hand in
tests/five_crowns_game.py, in every language."""

import html
import io
import json
import re

import pytest

from scorer.cards import SYMBOL, rank_text
from scorer.reading import symbols
from scorer.rules import DECKS, make_rules
from tests.five_crowns_game import PLAYERS, ROUNDS, STANDINGS, TOTALS, scores
from tests.helpers import LANGUAGES, new_game_form, play_rounds, round_form
from web import phone

FIVE_CROWNS = make_rules(game='five_crowns')
STARS = {'en': 'stars', 'es': 'estrellas', 'pt': 'estrelas'}
TOTAL = {'en': 'Total', 'es': 'Total', 'pt': 'Total'}


def new_five_crowns(client, players=PLAYERS):
    r = client.post('/games/new', data=new_game_form(players, game='five_crowns'))
    assert r.status_code == 302, r.get_data(as_text=True)[-400:]
    return r.headers['Location']


def typed(cards):
    """A round's cards as the keypad writes them, in suit symbols (every page's language reads them)."""
    return [symbols(cards.get(i, '')) for i in range(3)]


def save(client, url, rounds=ROUNDS):
    """The first len(rounds) rounds of the game (numbered from 1), each seat's hand as the keypad types it."""
    play_rounds(client, url, len(rounds), PLAYERS, went_out=lambda n: rounds[n - 1][1],
                cards=lambda seat, n: typed(rounds[n - 1][2])[seat], points=None)


@pytest.fixture
def played(client):
    """The whole game of tests/five_crowns_game.py, saved round by round as the round page posts it."""
    url = new_five_crowns(client)
    save(client, url)
    return url


def text_of(page):
    """A page's words as a person reads them (tags gone, entities read, spaces folded)."""
    return re.sub(r'\s+', ' ', html.unescape(re.sub(r'<[^>]+>', ' ', page)))


def deck_block(page):
    found = re.search(r'<script type="application/json" id="card-deck">(.*?)</script>', page, re.S)
    assert found, 'no keys of the deck on the page'
    return json.loads(found.group(1))


# The keypad: its keys are the game's deck, from scorer/rules.py

def keys_of(game, language):
    deck = DECKS[game]
    words = {'en': ['spades', 'hearts', 'diamonds', 'clubs', 'stars'],
             'es': ['picas', 'corazones', 'diamantes', 'tréboles', 'estrellas'],
             'pt': ['espadas', 'copas', 'ouros', 'paus', 'estrelas']}[language]
    return {'suits': [[s, SYMBOL[s], words['SHDCX'.index(s)]] for s in deck.suits],
            'ranks': [rank_text(r) for r in deck.ranks]}


@pytest.mark.parametrize('language', LANGUAGES)
def test_every_entry_page_keys_the_games_deck(app, client, language):
    client.set_cookie('lang', language)
    crowns = new_five_crowns(client)
    standard = client.post('/games/new', data=new_game_form(PLAYERS)).headers['Location']
    for url, game in ((crowns, 'five_crowns'), (standard, 'standard')):
        follower = app.test_client()
        follower.set_cookie('lang', language)
        follower.post(url + '/seats/1')
        for page in (client.get(url + '/rounds/1'), follower.get(url + '/hand'), client.get(f'/audit?game={game}')):
            assert page.status_code == 200
            assert deck_block(page.get_data(as_text=True)) == keys_of(game, language)
    keys = keys_of('five_crowns', language)
    assert [s for s, _symbol, _word in keys['suits']] == list('SHDCX') and keys['suits'][-1][1:] == ['★', STARS[language]]
    assert keys['ranks'] == ['3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K']


# The sheet, the round page, my hand

def test_the_sheet_scores_each_round_as_worked_out_by_hand(client, played):
    sheet = client.get(played + '/export.json').get_json()['sheet']
    assert sheet['totals'] == TOTALS
    for seat, player in enumerate(PLAYERS):
        assert [row['scores'][player] for row in sheet['rounds']] == scores(seat)
    assert [row['wild'] for row in sheet['rounds']] == ['3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K']
    assert [row['hand_size'] for row in sheet['rounds']] == list(range(3, 14))
    assert [(p['player'], p['place']) for p in sheet['standings']] == [(name, i + 1) for i, name in enumerate(STANDINGS)]
    assert sheet['zero_rounds'] == {'Ana': 4, 'Bruno': 4, 'Carla': 3} and sheet['winners'] == ['Ana']


@pytest.mark.parametrize('language', LANGUAGES)
def test_the_sheet_the_round_page_and_my_hand_in_each_language(app, client, language):
    client.set_cookie('lang', language)
    url = new_five_crowns(client)
    save(client, url, ROUNDS[:10])
    sheet = text_of(client.get(url).get_data(as_text=True))
    assert 'Five Crowns' in sheet and '★ ♥ ♣ ♠ ♦' in sheet                # the rules in words name the deck
    assert f"{TOTAL[language]} {sum(scores(0)[:10])} {sum(scores(1)[:10])} {sum(scores(2)[:10])}" in sheet
    round_page = client.get(url + '/rounds/11').get_data(as_text=True)
    assert 'X ★' in text_of(round_page)                             # the legend's letter for stars
    follower = app.test_client()
    follower.set_cookie('lang', language)
    follower.post(url + '/seats/2')
    carla = ROUNDS[10][2][2]
    r = follower.post(url + '/hand', data={'round': '11', 'cards': symbols(carla)}, follow_redirects=True)
    assert r.status_code == 200 and '13' in text_of(r.get_data(as_text=True))
    assert 'X ★' in text_of(follower.get(url + '/hand').get_data(as_text=True))
    drafts = client.get(url + '/rounds/11/drafts').get_json()
    assert drafts['2']['cards'] == '🃏 K♥ 3♠ 3♠ 3♦ 5♥ 6♥ 7♥ 8♥ Q♣ Q★ 9♠ 4♣'
    # A card Five Crowns has none of is refused by name, and what was typed stays in the form.
    r = client.post(url + '/rounds/11', data=round_form(1, cards=['AS 3X 4X 5X 6X 7X 8X 9X 10X JX QX KX 3H', '', carla]))
    page = r.get_data(as_text=True)
    assert r.status_code == 422 and 'A♠' in text_of(page) and 'AS 3X 4X' in page


# The big screen, print, the picture

@pytest.mark.parametrize('language', LANGUAGES)
def test_the_big_screen_print_and_picture_show_the_final_standings(client, played, language):
    client.set_cookie('lang', language)
    for path in ('/tv', '/print'):
        page = text_of(client.get(played + path).get_data(as_text=True))
        assert all(str(TOTALS[p]) in page for p in PLAYERS), path
    printed = text_of(client.get(played + '/print').get_data(as_text=True))
    assert 'Five Crowns' in printed and f"{TOTAL[language]} 88 145 164" in printed
    picture = client.get(played + f'/picture.svg?lang={language}')
    svg = picture.get_data(as_text=True)
    assert picture.status_code == 200 and all(name in svg for name in PLAYERS)
    assert [int(t) for t in re.findall(r'>(88|145|164)<', svg)][:3] == [88, 145, 164]
    png = client.get(played + '/picture.png')
    assert png.status_code == 200 and png.data[:8] == b'\x89PNG\r\n\x1a\n'


# History and stats

@pytest.mark.parametrize('language', LANGUAGES)
def test_history_and_stats_count_a_five_crowns_game(client, played, language):
    client.set_cookie('lang', language)
    history = text_of(client.get('/history').get_data(as_text=True))
    assert 'Ana' in history and '88' in history
    stats = client.get('/stats').get_data(as_text=True)
    cards = re.findall(r'<article.*?</article>', stats, re.S) or [stats]
    ana = next(c for c in cards if '>Ana<' in c or '<bdi>Ana</bdi>' in c)
    assert '88' in text_of(ana)
    words = text_of(stats)
    assert all(name in words for name in PLAYERS)


# The game file and CSV

def test_the_game_file_goes_and_comes_back_whole(app, client, played):
    exported = client.get(played + '/export.json').get_json()
    assert exported['rules']['game'] == 'five_crowns' and exported['rules']['jokers'] == 6
    other = app.test_client()
    r = other.post('/import', data={'game_file': (io.BytesIO(json.dumps(exported).encode()), 'g.json')},
                   content_type='multipart/form-data')
    assert r.status_code == 302
    assert other.get(r.headers['Location'] + '/export.json').get_json() == exported
    # A file whose hand holds a card Five Crowns has none of is refused, naming it; nothing is kept.
    exported['rounds'][0]['entries'][1]['cards'] = 'AH 9S KX'
    r = other.post('/import', data={'game_file': (io.BytesIO(json.dumps(exported).encode()), 'g.json')},
                   content_type='multipart/form-data')
    assert r.status_code == 400 and 'A♥' in text_of(r.get_data(as_text=True))
    assert text_of(other.get('/').get_data(as_text=True)).count('Ana, Bruno, Carla') <= 1


def test_the_csv_is_the_sheet_worked_out_by_hand(client, played):
    lines = client.get(played + '/export.csv').get_data(as_text=True).lstrip('\ufeff').splitlines()
    assert lines[0] == 'Round,Cards,Wild,Dealer,Went out,Ana,Bruno,Carla'
    for (number, out, _cards, _p), line in zip(ROUNDS, lines[1:12]):
        row = line.split(',')
        assert row[:3] == [str(number), str(number + 2), rank_text(FIVE_CROWNS.wild_rank(number))]
        assert row[4] == PLAYERS[out] and [int(v) for v in row[5:]] == [scores(s)[number - 1] for s in range(3)]
    assert lines[12:] == ['Total,,,,,88,145,164', 'Zero rounds,,,,,4,4,3', 'Place,,,,,1,2,3']


# Offline: the phone's scorer

def on_phone(name, language='en', **args):
    return json.loads(phone.call(name, json.dumps({'language': language, 'args': args})))


@pytest.mark.parametrize('language', LANGUAGES)
def test_the_phone_plays_a_five_crowns_game_as_the_server_does(client, language):
    url = new_five_crowns(client)
    game_id = url.rsplit('/', 1)[1]
    for number, out, cards, _p in ROUNDS:
        data = client.get(url + '/offline.json').get_json()
        entries = [{'cards': text, 'points': ''} for text in typed(cards)]
        args = {'cards': symbols(cards[(out + 1) % 3]), 'round': str(number), 'game': game_id}
        preview = client.get('/audit/preview', query_string={**args, 'lang': language})
        assert on_phone('preview', language, game=data['game'], args=args)['ok']['html'] == preview.get_data(as_text=True)
        mine = on_phone('enter', language, game=data['game'], number=number, out=[out], typed=entries)['ok']
        client.post(f'{url}/rounds/{number}', data=round_form(out, cards=typed(cards)))
        data = client.get(url + '/offline.json').get_json()
        assert mine['game'] == data['game'], number
    assert on_phone('sheet', game=data['game'])['ok']['totals'] == TOTALS
    assert on_phone('live', language, game=data['game'], game_id=game_id, colours=data['colours'],
                    last_save=data['last_save'])['ok'] == client.get(f'{url}/live?lang={language}').get_data(as_text=True)
    drawn = on_phone('made_page', language, game=data['game'], game_id=game_id, number=5)['ok']
    assert deck_block(drawn['above']) == keys_of('five_crowns', language)


def test_a_five_crowns_game_is_called_five_crowns_wherever_its_kind_is_named(app, client):
    """Issue 48: an untitled Five Crowns game is not called Three-Thirteen: the mark at the top of its
    sheet and round page (5♛, not 3–13), the print's heading and title, the picture's subtitle; a
    Three-Thirteen game keeps its own."""
    from web.picture import words
    from web.sheets import load_sheet
    five = new_five_crowns(client)
    three = client.post('/games/new', data=new_game_form(PLAYERS)).headers['Location']
    for url, kind, mark, other in ((five, 'Five Crowns', '5♛', '3–13'), (three, 'Three-Thirteen', '3–13', '5♛')):
        for page in (url, url + '/rounds/1'):
            brand = re.search(r'<a class="brand"[^>]*>([^<]*)</a>', client.get(page).get_data(as_text=True)).group(1)
            assert brand == mark, page
        printed = client.get(url + '/print').get_data(as_text=True)
        assert re.search(r'<h1>\s*' + kind, printed) and f'<title>{kind}' in printed
        assert 'Five Crowns' not in printed if kind != 'Five Crowns' else 'Three-Thirteen' not in printed
        with app.test_request_context():
            game, sheet, _ = load_sheet(url.rsplit('/', 1)[1])
            assert kind in words(game, sheet)['subtitle'] and other not in words(game, sheet)['subtitle']
    # The sheet's line under its heading and the lists (home, history, the phone's own) name a game of
    # its own kind (Five Crowns); Three-Thirteen, the app's own game, goes without saying.
    game = client.get(five + '/offline.json').get_json()['game']
    kept = on_phone('game_list', games=[{'id': five.rsplit('/', 1)[1], 'game': game, 'unsent': 0}])['ok']
    assert '<span class="note">Five Crowns ·</span>' in kept
    for page in ('/', '/history'):        # playing, then over
        if page == '/history':
            for url in (five, three):
                play_rounds(client, url, 11, PLAYERS)
        listed = re.findall(r'<li><a href="([^"]+)">(.*?)</a></li>', client.get(page).get_data(as_text=True), re.S)
        said = {href: 'Five Crowns' in text_of(item) for href, item in listed}
        assert said == {five: True, three: False}, page
    for url, named in ((five, True), (three, False)):
        line = re.search(r'</h1>\s*<p class="quiet">(.*?)</p>', client.get(url).get_data(as_text=True), re.S).group(1)
        assert ('Five Crowns' in line) == named, line
