"""What many tests build: the new-game form and a round's form data, as a browser would post them,
and the scorekeeper link handed to another browser."""

import os
import re

from scorer.rules import CHOICES, default_text
from web.i18n import LANGUAGES as SWITCHER

from web.ratelimit import RATES

# Tests and benchmarks play many tables from one address, faster than any table: every per-client
# budget (web/ratelimit.py RATES) is loosened to this unless a test sets its own
# (tests/test_budgets.py and test_api.py check the real ones). As config keys and as settings.
LOOSE_RATE = '1000 per second'
LOOSE_RATES = {key: LOOSE_RATE for key in RATES.values()}
LOOSE_RATE_SETTINGS = {f'SCORER_{key}': LOOSE_RATE for key in RATES.values()}

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
