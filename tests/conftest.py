"""Fixtures: an app on a fresh database file, its test client, and helpers to make games."""

import pytest

from app import create_app

SETTINGS_FORM = {'first_dealer': '0', 'game': 'standard', 'decks': 'auto', 'jokers': '0', 'aces': 'low',
                 'face_values': 'ten', 'wild_penalty': '15', 'joker_penalty': '20', 'ace_penalty': '15',
                 'max_wilds_per_meld': 'None', 'all_wild_melds': 'True', 'double_last_round': 'False',
                 'tie_break': 'zero_rounds'}


@pytest.fixture
def app(tmp_path):
    return create_app({'TESTING': True, 'DATABASE': str(tmp_path / 'test.sqlite'), 'SECRET_KEY': 'test',
                       'WTF_CSRF_ENABLED': False})


@pytest.fixture
def client(app):
    return app.test_client()


def new_game_form(players, **settings):
    data = {f'players-{i}': p for i, p in enumerate(players)}
    data.update(SETTINGS_FORM)
    data.update({k: str(v) for k, v in settings.items()})
    return data


@pytest.fixture
def make_game(client):
    """Create a game through the form; returns its sheet URL."""
    def make(players=('Ana', 'Bruno', 'Carla'), **settings):
        r = client.post('/games/new', data=new_game_form(players, **settings))
        assert r.status_code == 302, r.get_data(as_text=True)
        return r.headers['Location']
    return make


def round_form(went_out, cards=(), points=()):
    """Form data for a round: the index of who went out, then cards and points by seat."""
    data = {'went_out': str(went_out)}
    for i, c in enumerate(cards):
        if c is not None:
            data[f'entries-{i}-cards'] = c
    for i, p in enumerate(points):
        if p is not None:
            data[f'entries-{i}-points'] = p
    return data


@pytest.fixture(scope='session')
def browser():
    """Debian's Chromium through Playwright, once for the whole run."""
    sync_api = pytest.importorskip('playwright.sync_api')
    from tests.browser import launch
    with sync_api.sync_playwright() as p:
        b = launch(p)
        yield b
        b.close()


@pytest.fixture
def server(tmp_path):
    """The app on a fresh database, served on a loopback port for the browser."""
    from tests.browser import Server
    app = create_app({'TESTING': True, 'DATABASE': str(tmp_path / 'served.sqlite'), 'SECRET_KEY': 'served'})
    with Server(app) as s:
        yield s
