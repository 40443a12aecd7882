"""A disk that breaks while the production recipe runs on it: an ext4 disk that turns read-only under
the server (errors=remount-ro tripped, the mount still saying rw and `os.access` still saying
writable), and a disk that fills up. Every read is still served (the sheet, its live part, the
CSV, the picture, the start page), /health says what is wrong, a save is refused with a message
that names the cause and keeps what was typed, nothing saved is lost, and a restart on that disk
serves the reads too. A full disk recovers by itself once space comes back.

The disks are the test's own (tests/disks.py), mounted where only the server sees them."""

import html
import json
import urllib.error

import pytest

from tests.browser import Browser
from tests.disks import Disk
from tests.helpers import PATIENCE, round_form
from tests.server import Gunicorn

pytestmark = pytest.mark.slow       # the production recipe, in its own processes, on a disk of its own


def reads(game):
    """Every page a follower or the scorekeeper reads, that a broken disk must not take away."""
    return (game, game + '/live', game + '/export.csv', game + '/export.json', game + '/picture.png', '/')


def status(who, path):
    try:
        with who.opener.open(who.base + path, timeout=PATIENCE) as r:
            return r.status
    except urllib.error.HTTPError as e:
        return e.code


def health(who):
    try:
        with who.opener.open(who.base + '/health', timeout=PATIENCE) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def play_two_rounds(server):
    """A scorekeeper's game of three, two rounds saved through the server; (keeper, game's path)."""
    keeper = Browser(server.url)
    game = keeper.new_game(['Ana', 'Bruno', 'Chiara']).replace(server.url, '')
    scores = {1: [None, 4, 9], 2: [None, 0, 12]}
    keeper.play_rounds(game, 2, 3, went_out=0, points=lambda seat, n: scores[n][seat])
    return keeper, game


def all_served(server, keeper, game):
    """Every read answers 200, for the scorekeeper and for a phone that never came before."""
    follower = Browser(server.url)
    for who in (keeper, follower):
        who.base = server.url
        assert {path: status(who, path) for path in reads(game)} == {path: 200 for path in reads(game)}
    assert 'Chiara' in follower.get(game)[1]


def save_refused(keeper, game, cause):
    """Round 3 is not saved, the page says why in words naming the cause, and what was typed stays."""
    _, page = keeper.get(game + '/rounds/3')
    code, body = keeper.post(game + '/rounds/3', {**round_form(0, points=[None, '17', '23']),
                                                  'csrf_token': Browser.token(page)})
    assert code == 422 and f'Round 3 was not saved: {cause}' in html.unescape(body)
    assert 'value="17"' in body and 'value="23"' in body
    _, page = keeper.get('/games/new')
    code, body = keeper.post('/games/new', {'csrf_token': Browser.token(page), 'players-0': 'Zoë', 'players-1': 'Yann',
                                            'first_dealer': '0', 'decks': 'auto'})
    assert code == 503 and cause in html.unescape(body) and 'value="Zoë"' in body


def rounds_kept(keeper, game):
    return [r['round'] for r in json.loads(keeper.get(game + '/export.json')[1])['rounds']]


def test_a_disk_turning_read_only_under_the_server_still_serves_every_read(tmp_path):
    disk = Disk.make(tmp_path / 'disk', 'ext4')
    database = disk.folder / 'scorer.sqlite'
    server = Gunicorn(database, workers=2, prefix=disk.prefix).start()
    try:
        keeper, game = play_two_rounds(server)
        disk.trip()
        all_served(server, keeper, game)
        code, said = health(keeper)
        assert code == 200 and said['status'] == 'read-only' and 'read-only' in said['saves']
        save_refused(keeper, game, "The server's disk has turned read-only")
        server.stop()
        server = Gunicorn(database, workers=2, prefix=disk.prefix).start()        # a restart on that disk
        all_served(server, keeper, game)
        assert rounds_kept(keeper, game) == [1, 2]
        code, said = health(keeper)
        assert code == 200 and said['status'] == 'read-only'
    finally:
        server.stop()
        disk.remove()


def test_a_full_disk_still_serves_every_read_and_saves_again_once_space_comes_back(tmp_path):
    disk = Disk.make(tmp_path / 'disk', 'tmpfs', size_mb=4)
    database = disk.folder / 'scorer.sqlite'
    server = Gunicorn(database, workers=2, prefix=disk.prefix).start()
    try:
        keeper, game = play_two_rounds(server)
        disk.fill()
        all_served(server, keeper, game)
        code, said = health(keeper)
        assert code == 200 and said['status'] == 'full' and 'full' in said['saves']
        save_refused(keeper, game, "The server's disk is full")
        server.stop()
        server = Gunicorn(database, workers=2, prefix=disk.prefix).start()        # a restart on the full disk
        all_served(server, keeper, game)
        disk.free()                                                                # space comes back
        assert health(keeper) == (200, {**health(keeper)[1], 'status': 'ok', 'saves': 'ok'})
        _, page = keeper.get(game + '/rounds/3')
        assert keeper.post(game + '/rounds/3', {**round_form(0, points=[None, '17', '23']),
                                                'csrf_token': Browser.token(page)})[0] == 302
        assert rounds_kept(keeper, game) == [1, 2, 3]
    finally:
        server.stop()
        disk.remove()
