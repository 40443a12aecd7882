"""A disk that cannot be written, on the production recipe: every page that only reads still works
(the sheet, the live part, the picture, the exports, the solver), and a write says the true reason.

SQLite removes a WAL database's -wal and -shm files when its last connection closes, and on a
read-only disk it cannot make them again: opened the ordinary way, such a file cannot even be read.
The disk is made read-only for the server alone: a read-only bind mount in a mount namespace of its
own (as root), or a folder it may not write (as anyone else)."""

import html
import os
import shutil
import sqlite3
import stat
import subprocess

import pytest

from tests.browser import Browser
from tests.helpers import PATIENCE, round_form
from tests.server import Gunicorn

pytestmark = pytest.mark.slow       # the production recipe, in its own processes


def read_only(folder):
    """A command prefix that runs the server with `folder` read-only (or None if this machine cannot)."""
    if os.geteuid() != 0:
        return []                    # the folder's mode does it (see made_read_only)
    if not shutil.which('unshare'):
        return None
    probe = subprocess.run(['unshare', '--mount', 'true'], capture_output=True)
    if probe.returncode:
        return None
    return ['unshare', '--mount', '--propagation', 'private', 'sh', '-c',
            'mount --bind "$0" "$0" && mount -o remount,ro,bind "$0" && exec "$@"', str(folder)]


@pytest.fixture
def played(tmp_path):
    """A game with two rounds saved through the server, which is then stopped (nothing left beside the file)."""
    folder = tmp_path / 'disk'
    folder.mkdir()
    database = folder / 'scorer.sqlite'
    server = Gunicorn(database, workers=1).start()
    try:
        keeper = Browser(server.url)
        game = keeper.new_game(['Ana', 'Bruno', '王小明']).replace(server.url, '')
        scores = {1: [None, 4, 9], 2: [None, 0, 12]}
        keeper.play_rounds(game, 2, 3, went_out=0, points=lambda seat, n: scores[n][seat])
    finally:
        server.stop()
    assert not (folder / 'scorer.sqlite-wal').exists() and not (folder / 'scorer.sqlite-shm').exists()
    return folder, database, keeper, game


def test_a_read_only_disk_serves_every_read_and_says_why_a_write_fails(played):
    folder, database, keeper, game = played
    prefix = read_only(folder)
    if prefix is None:
        pytest.skip('this machine cannot make a read-only mount')
    mode = folder.stat().st_mode
    if not prefix:
        folder.chmod(stat.S_IRUSR | stat.S_IXUSR)
    server = Gunicorn(database, workers=2, prefix=prefix).start()
    try:
        keeper.base = server.url
        follower = Browser(server.url)
        for who in (keeper, follower):
            for path in (game, game + '/live', game + '/picture.png', game + '/picture.svg?theme=dark',
                         game + '/export.json', game + '/export.csv', game + '/print', game + '/tv', '/', '/history',
                         '/api/solve?cards=7H+8H+9H&wild=5', f'/audit?cards=7H+8H+9H+KS&round=3&game_id={game[7:]}'):
                with who.opener.open(server.url + path, timeout=PATIENCE) as r:
                    assert r.status == 200, path
        assert '王小明' in follower.get(game)[1]
        _, page = keeper.get(game + '/rounds/3')
        status, body = keeper.post(game + '/rounds/3', {**round_form(0, points=[None, '1', '2']),
                                                        'csrf_token': Browser.token(page)})
        # The cause named: a read-only mount (root) says so; a folder it may not write, the disk's words.
        cause = "The server's disk has turned read-only" if prefix else 'The server cannot write to its disk'
        assert status == 422 and f'Round 3 was not saved: {cause}' in html.unescape(body)
        assert 'value="1"' in body and 'value="2"' in body                  # what was typed stays
        _, page = keeper.get('/games/new')
        status, body = keeper.post('/games/new', {'csrf_token': Browser.token(page), 'players-0': 'Zoë',
                                                  'players-1': 'Yann', 'first_dealer': '0', 'decks': 'auto'})
        assert status == 503 and cause in html.unescape(body) and 'value="Zoë"' in body
        assert not (folder / 'scorer.sqlite-wal').exists()
    finally:
        server.stop()
        folder.chmod(mode)
    with sqlite3.connect(database) as db:                       # nothing was changed
        assert db.execute('select count(*) from rounds').fetchone()[0] == 2
