"""Bad input never crashes: thousands of random cards, game files and form posts, always a clear
answer (a message, a 4xx) and never a 500."""

import io
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorer.cards import CardError

from scorer.reading import parse_cards
from scorer.gamefile import GameFileError, read_game
from scorer.limits import MAX_HAND
from tests.helpers import LOOSE_RATES
from tests.hands import examples
from tests.helpers import new_game_form

MANY, SOME = examples(1500), examples(400)

card_like = st.text(alphabet='AaKkQqJjTt0123456789SsHhDdCcXx♠♥♦♣🃏 ,;+-\n\t\ufe0f', max_size=40)
anything = st.one_of(card_like, st.text(max_size=60))


@MANY
@given(anything, st.integers(1, 3), st.integers(0, 4))
def test_card_parser(text, decks, jokers):
    try:
        hand = parse_cards(text, decks, jokers)
    except CardError as e:
        assert str(e) and '\n' not in str(e)
    else:
        assert len(hand) <= MAX_HAND


GAME = {'version': 1, 'players': ['Ana', 'Bruno'], 'rules': {}, 'first_dealer': 0,
        'rounds': [{'round': 1, 'entries': [{'player': 'Ana', 'went_out': True},
                                            {'player': 'Bruno', 'cards': 'KH 5C'}]}]}
json_values = st.recursive(st.one_of(st.none(), st.booleans(), st.integers(-5, 30), st.text(max_size=12)),
                           lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                   st.dictionaries(st.text(max_size=8), inner, max_size=4)),
                           max_leaves=12)


@st.composite
def game_files(draw):
    """A valid game file with one part replaced by something random."""
    data = json.loads(json.dumps(GAME))
    where = draw(st.sampled_from(['version', 'players', 'rules', 'first_dealer', 'rounds', 'entry', 'title',
                                 'sheet', 'rules.aces', 'entry.cards', 'entry.points', 'whole']))
    value = draw(json_values)
    if where == 'whole':
        return value
    if where == 'entry':
        data['rounds'][0]['entries'][1] = value
    elif where.startswith('entry.'):
        data['rounds'][0]['entries'][1][where[6:]] = value
    elif where == 'rules.aces':
        data['rules']['aces'] = value
    else:
        data[where] = value
    return data


# Literals no json.dumps makes: a number of 4,301 digits (past Python's int limit), nesting 2,000
# deep (past its recursion limit), and values of the wrong type that compare equal to right ones.
HOSTILE = ['9' * 4301, '[' * 2000 + ']' * 2000, '{"a":' * 2000 + '1' + '}' * 2000, 'true', '1.0', '1e400',
           '"３"', '"٣"', '"1_0"', '"\\u0000"', '"2026-13-45"', '-0']


@st.composite
def hostile_game_files(draw):
    """A game file as text, with one value replaced by a hostile literal."""
    where = draw(st.sampled_from(['version', 'decks', 'first_dealer', 'round', 'points', 'date', 'player']))
    marker = '"@HOSTILE@"'
    data = json.loads(json.dumps(GAME))
    if where == 'decks':
        data['rules']['decks'] = '@HOSTILE@'
    elif where == 'round':
        data['rounds'][0]['round'] = '@HOSTILE@'
    elif where == 'points':
        data['rounds'][0]['entries'][1] = {'player': 'Bruno', 'points': '@HOSTILE@'}
    elif where == 'player':
        data['players'][0] = '@HOSTILE@'
    else:
        data[where] = '@HOSTILE@'
    return json.dumps(data).replace(marker, draw(st.sampled_from(HOSTILE)))


@MANY
@given(st.one_of(game_files().map(json.dumps), hostile_game_files()))
def test_game_file_reader(text):
    try:
        read_game(text)
    except GameFileError as e:
        assert str(e) and len(str(e)) < 400


@pytest.fixture(scope='module')
def shared_client(tmp_path_factory):
    from app import create_app
    app = create_app({'TESTING': True, 'WTF_CSRF_ENABLED': False, 'SECRET_KEY': 'f', **LOOSE_RATES,
                      'DATABASE': str(tmp_path_factory.mktemp('fuzz') / 'fuzz.sqlite')})
    client = app.test_client()
    url = client.post('/games/new', data=new_game_form(['Ana', 'Bruno', 'Carla'])).headers['Location']
    return client, url


@SOME
@given(st.one_of(game_files(), hostile_game_files(), st.binary(max_size=200)))
def test_import_route(shared_client, data):
    client, _ = shared_client
    body = data if isinstance(data, bytes) else data.encode() if isinstance(data, str) else json.dumps(data).encode()
    r = client.post('/import', data={'game_file': (io.BytesIO(body), 'g.json')}, content_type='multipart/form-data')
    assert r.status_code in (302, 400)


form_text = st.one_of(st.text(max_size=40), card_like,
                      st.sampled_from(['', ' ', '0', '10+5', '-1', '1e9', 'None', 'draw', 'auto', '99', 'True',
                                       '9' * 4301, '5000+5000', '9999+1', '３', '٣', '1_0', '1.0', '\x00', '\u202e',
                                       '/%09/evil.example', '/\r\nx']))


@SOME
@given(st.dictionaries(st.sampled_from(['players-0', 'players-1', 'players-2', 'players-7', 'players-9',
                                        'first_dealer', 'game', 'decks', 'jokers', 'aces', 'face_values',
                                        'wild_penalty', 'joker_penalty', 'ace_penalty', 'max_wilds_per_meld',
                                        'all_wild_melds', 'double_last_round', 'tie_break', 'title', 'place']),
                       form_text, max_size=12))
def test_new_game_form(shared_client, data):
    client, _ = shared_client
    assert client.post('/games/new', data=data).status_code in (302, 400, 422)


@SOME
@given(st.dictionaries(st.sampled_from(['went_out', 'version', 'entries-0-cards', 'entries-1-cards',
                                        'entries-2-cards', 'entries-0-points', 'entries-1-points',
                                        'entries-2-points', 'entries-5-cards']), form_text, max_size=8),
       st.integers(-2, 14))
def test_round_form(shared_client, data, number):
    client, url = shared_client
    r = client.post(f'{url}/rounds/{number}', data=data)
    assert r.status_code in (302, 400, 404, 409, 422)


@SOME
@given(st.dictionaries(st.sampled_from(['cards', 'wild', 'round', 'claim', 'melds', 'aces', 'decks', 'jokers',
                                        'game', 'max_wilds_per_meld', 'view', 'face_values', 'wild_penalty',
                                        'joker_penalty', 'ace_penalty']),
                       form_text, max_size=7))
def test_audit_and_api(shared_client, params):
    client, _ = shared_client
    assert client.get('/audit', query_string=params).status_code in (200, 404)
    r = client.get('/api/audit', query_string=params)
    assert r.status_code in (200, 400, 404) and ('error' in r.get_json()) == (r.status_code != 200)
    r = client.get('/api/solve', query_string=params)
    assert r.status_code in (200, 400, 404)
    assert ('error' in r.get_json()) == (r.status_code != 200)


@SOME
@given(form_text)
def test_language_switcher(shared_client, target):
    client, _ = shared_client
    r = client.get('/language/es', query_string={'next': target})
    assert r.status_code == 302 and not r.headers['Location'].startswith('//')
