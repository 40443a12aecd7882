"""Each decision is stated once, in Python, and the browser gets it as data: these tests fail as
soon as the browser's scripts and the server disagree (issue 38)."""

import re
from pathlib import Path

from web.live import TIMINGS

STATIC = Path(__file__).resolve().parent.parent / 'static'


def camel(key):
    """LIVE_POLL_MS -> livePollMs: a data-live-poll-ms attribute as a script's dataset reads it."""
    first, *rest = key.lower().split('_')
    return first + ''.join(word.capitalize() for word in rest)


def test_the_live_timings_are_the_servers_and_the_script_has_none_of_its_own(client, make_game):
    url = make_game(('Ana', 'Bruno'))
    page = client.get(url).get_data(as_text=True)
    given = dict(re.findall(r'data-(live-[a-z-]+)="([^"]*)"', page))
    assert {f'live-{k.lower()[5:].replace("_", "-")}': float(v) for k, v in TIMINGS.items()} == \
        {k: float(v) for k, v in given.items() if k not in ('live-url',)}
    script = (STATIC / 'js' / 'live.js').read_text()
    read = set(re.findall(r"number\('(\w+)'\)", script))
    assert read == {camel(key) for key in TIMINGS}
    assert not re.search(r'\b(1500|10000|300000|2500)\b', script), 'a timing written into live.js again'
