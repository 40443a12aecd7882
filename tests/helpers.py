"""What many tests build: the new-game form and a round's form data, as a browser would post them,
a game with rounds played (new_game, play_rounds: the one way tests play a game through the forms),
and the scorekeeper link handed to another browser."""

import os
import re
import time

from scorer.rules import CHOICES, default_text
from web.i18n import LANGUAGES as SWITCHER

from web.ratelimit import RATES

# Tests and benchmarks play many tables from one address, faster than any table: every per-client
# budget (web/ratelimit.py RATES) is loosened to this unless a test sets its own
# (tests/test_budgets.py and test_api.py check the real ones). As config keys and as settings.
LOOSE_RATE = '1000 per second'
LOOSE_RATES = {key: LOOSE_RATE for key in RATES.values()}
LOOSE_RATE_SETTINGS = {f'SCORER_{key}': LOOSE_RATE for key in RATES.values()}

# The longest a test waits for one answer (a server's page, a server's start, a command's output): a
# hang guard, far beyond any answer even on a machine loaded to 40, never a pace a test asserts.
# (A page's own signal in the browser waits tests/browser.WAIT_MS; the whole test, pytest.ini's timeout.)
PATIENCE = 120


def wait_for(check, what, timeout=PATIENCE):
    """Wait until check() holds, for what only Python can see (a file made, a server answering): asked
    again every hundredth of a second, up to `timeout` (a hang guard, never a pace)."""
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f'{what} did not come within {timeout} s'
        time.sleep(0.01)

LANGUAGES = list(SWITCHER)          # every language the app speaks (web/i18n.py): "in each language" means these
# Whether this is the whole run (`make test`, hypothesis's ci profile) or the quick core (`make check`).
EVERY_RUN = os.environ.get('HYPOTHESIS_PROFILE') == 'ci'
# A test that draws a picture in each language draws it in every one in `make test`; the quick core
# draws the one whose words run longest.
LANGUAGES_DRAWN = LANGUAGES if EVERY_RUN else ['pt']
TRANSLATED = [code for code in LANGUAGES if code != 'en']     # the code's own texts are English; these have catalogs

# The new-game form as a person leaves it: seat 1 deals, the decks chosen for the table, every house
# rule as the form offers it (scorer.rules.DEFAULT).
SETTINGS_FORM = {'first_dealer': '0', 'decks': 'auto',
                 **{key: default_text(key) for key in CHOICES if key != 'decks'}}


def new_game_form(players, **settings):
    """The new-game form for these players, with the default settings unless given."""
    data = {f'players-{i}': p for i, p in enumerate(players)}
    data.update(SETTINGS_FORM)
    data.update({k: str(v) for k, v in settings.items()})
    return data


def round_form(went_out, cards=(), points=(), version=0):
    """Form data for a round: the seat of who went out, then cards and points by seat, and the
    version of the round the form was opened on (0: not saved yet)."""
    data = {'went_out': str(went_out), 'version': str(version)}
    seats = max(len(cards), len(points), int(went_out) + 1 if str(went_out).isdigit() else 0)
    for i in range(seats):          # a browser sends every field, the empty ones too
        data[f'entries-{i}-cards'] = (cards[i] if i < len(cards) else None) or ''
        data[f'entries-{i}-points'] = (points[i] if i < len(points) else None) or ''
    return data


def new_game(client, players, **settings):
    """Make a game of these players through the new-game form (new_game_form: the default settings
    unless given) as `client`, a Flask test client, who keeps it; returns its sheet's URL."""
    r = client.post('/games/new', data=new_game_form(players, **settings))
    assert r.status_code == 302, r.get_data(as_text=True)[-400:]
    return r.headers['Location']


def spread(seat, number):
    """The points a seat that did not go out scores in round `number` unless a test says otherwise:
    (13 × seat + 7 × number) mod 45, plus 1 for seat 0 (from 0 to 45, changing with seat and round)."""
    return (seat * 13 + number * 7) % 45 + (seat == 0)


def round_forms(rounds, players, went_out=None, points=spread, cards=None):
    """The forms of rounds 1..rounds of a game not yet played (version 0), as (number, form) pairs.

    players: how many seats, or the players' names. In round n:
    - who went out: went_out(n) if it is a function, the seat went_out if it is a number, and seat
      n % players if it is None (seat 1 in round 1, seat 2 in round 2, ..., seat 0 in round `players`);
    - each other seat, in seat order, holds cards(seat, n) if that is a hand, and is scored from it
      (cards may also be a list of hands by seat, the same every round; None: nobody holds cards);
    - another seat without cards scores points(seat, n): by default spread(seat, n) (points may
      also be a list by seat, the same every round, or one number for every seat; None, or None in
      the list: the field is left empty).
    The seat that went out is given neither. cards and points are called in that order (round by
    round, seat by seat, only for the seats they are asked about), so a seeded random generator
    gives the same game each time."""
    count = players if isinstance(players, int) else len(players)

    def by_seat(value, seat, number):
        if callable(value):
            return value(seat, number)
        return value[seat] if isinstance(value, (list, tuple)) else value

    for number in range(1, rounds + 1):
        out = number % count if went_out is None else went_out(number) if callable(went_out) else went_out
        hands, scores = [None] * count, [None] * count
        for seat in range(count):
            if seat == out:
                continue
            hands[seat] = by_seat(cards, seat, number) or None
            score = None if hands[seat] else by_seat(points, seat, number)
            scores[seat] = None if score is None else str(score)
        yield number, round_form(out, cards=hands, points=scores)


def play_rounds(client, url, rounds, players, went_out=None, points=spread, cards=None):
    """Save rounds 1..rounds (round_forms: who goes out, what each other seat holds or scores) on the
    game at `url`, as `client`, a Flask test client that keeps the game: each round is posted as the
    round page posts it, a doubt it raises (short hands, on purpose) confirmed as a scorekeeper
    would (save_confirmed), and must be saved. Returns the last round's response (None if none)."""
    r = None
    for number, form in round_forms(rounds, players, went_out, points, cards):
        r = save_confirmed(client, url, number, form)
        assert r.status_code == 302, f'round {number}: ' + r.get_data(as_text=True)[-600:]
    return r


def keeper_key(keeper, url):
    """The edit key in a scorekeeper link the keeper makes on the sheet (/games/<id>/keeper#<key>)."""
    page = keeper.post(url + '/keeper-link').get_data(as_text=True)
    return re.search(r'href="http://localhost/games/[^"#]+/keeper#([^"]+)"', page).group(1)


def hand_over(keeper, other, url):
    """Open the scorekeeper link on another browser: its script posts the key from the fragment."""
    return other.post(url + '/keeper', data={'key': keeper_key(keeper, url)})


def save_confirmed(client, url, number, form):
    """Save a round that holds short hands on purpose (a test's shorthand): post it, and confirm the
    doubts the page names (see test_entry_checks.py) as a scorekeeper would."""
    r = client.post(f'{url}/rounds/{number}', data=form)
    key = re.search(r'name="confirm" value="([0-9a-f]+)"', r.get_data(as_text=True))
    if r.status_code == 422 and key:
        r = client.post(f'{url}/rounds/{number}', data={**form, 'confirm': key.group(1)})
    return r
