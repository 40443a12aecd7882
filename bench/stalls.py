"""Stalls: what a bystander's live sheet costs while other clients try to stall the server, on the
production recipe (gunicorn.conf.py: 2 gevent workers, 100 connections a worker as in issue 37's
probe), the load generator on the same machine. Run with `make stalls`.

A bystander (its own address, 127.0.0.2, in a process of its own) asks for a game's live part,
GET /games/<id>/live, every 50 ms, keeping its connection. Its times are taken quiet, then while:

- pictures: four clients each fetch fresh pictures (PNG and SVG, three languages, two themes) of
  games whose eight long names and title are Chinese, Japanese and Korean characters drawn at
  random, so that no picture, and no cut of its fonts, was made before;
- imports: four clients of a browser that keeps 400 games each import game files over and over;
- chunked: one address keeps 220 connections sending a chunked body's first chunk and then nothing
  (each one let go is opened again);
- streams: one address keeps 210 live streams open, idle;
- solver: four clients, from four addresses, ask /api/solve for the slowest hand the app accepts,
  each as fast as its budget (SOLVER_RATE, the real one) lets it;
- rounds: four scorekeepers, from four addresses, post round 11 of an eight-player game (three
  decks, the slowest rules) with eight shuffles of a slow 13-card hand, more copies than three decks
  hold (issue 47: each hand was solved before the round was refused), as fast as they are answered;
- hands: eight seated players of such a game, each from its own address, send "my hand" for round 11
  (a shuffle of the slow hand each time) as fast as they are answered, with the real HAND_RATE;
- keepers: a keeper and the three browsers it made keepers by share links, behind one address, ask
  for fresh pictures (the budget is the link maker's: one for the four);
- strangers: a stranger behind a keeper's address makes games as fast as the address may, while the
  keeper asks for a rematch every 2 s (a keeper's games are counted by its browser);
- read-only: the server's disk (a small ext4 on a loop device, errors=remount-ro, as tests/disks.py
  makes it) turns read-only under the running server, and a keeper tries to save rounds as fast as it
  is answered (each refused, the form given back saying why: 422) while the bystander reads;
- full: the same on a small tmpfs filled to its last byte.

The disks need root (mount namespaces, loop devices: tests/disks.py, the tests' own); elsewhere those two
scenarios are left out, saying why. Each runs on a fresh server of its own, on its own disk.

The per-client budgets are loosened for pictures, imports and games (SCORER_*_RATE), so that what
is measured is where the work runs, not the budget refusing it (the solver's and a seat's are the real
ones); keepers and strangers, attacks on the
budgets themselves, run on a second fresh server of the run with the real budgets (its bystander's
p95 is compared with the run's quiet phase, on the first). `--root` runs the server from another
checkout (the code before, to compare); `--runs` repeats the whole, each time on a fresh server.
"""

import argparse
import http.client
import json
import multiprocessing
import os
import random
import re
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlencode

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.machine import describe  # noqa: E402
from bench.quantiles import cut  # noqa: E402
from tests.disks import Disk  # noqa: E402
from tests.helpers import LOOSE_RATE_SETTINGS, new_game_form  # noqa: E402
from tests.server import ROOT, Gunicorn  # noqa: E402
from web import ratelimit  # noqa: E402

SCENARIOS = ('quiet', 'pictures', 'imports', 'chunked', 'streams', 'solver', 'rounds', 'hands', 'keepers',
             'strangers', 'read-only', 'full')
CJK = [chr(c) for c in range(0x4E00, 0x9FA5)] + [chr(c) for c in range(0xAC00, 0xD7A3)] + \
      [chr(c) for c in range(0x3041, 0x3096)]


class Client:
    """A browser on one keep-alive connection from a loopback address of its own (cookies kept)."""

    def __init__(self, port, source='127.0.0.1', timeout=30):
        self.port, self.source, self.timeout, self.cookies, self.conn = port, source, timeout, {}, None

    def request(self, method, path, body=None, headers=None):
        for attempt in (1, 2):
            if self.conn is None:
                self.conn = http.client.HTTPConnection('127.0.0.1', self.port, timeout=self.timeout,
                                                       source_address=(self.source, 0))
            try:
                sent = {'Cookie': '; '.join(f'{k}={v}' for k, v in self.cookies.items()), **(headers or {})}
                self.conn.request(method, path, body, sent)
                r = self.conn.getresponse()
                data = r.read()
                for cookie in r.headers.get_all('Set-Cookie') or []:
                    name, _, value = cookie.split(';', 1)[0].partition('=')
                    self.cookies[name] = value
                if r.headers.get('Connection', '').lower() == 'close':
                    self.close()
                return r.status, data, r.headers
            except (OSError, http.client.HTTPException):
                self.close()
                if attempt == 2:
                    raise
        return None

    def close(self):
        if self.conn is not None:
            self.conn.close()
        self.conn = None

    def token(self, path):
        page = self.request('GET', path)[1].decode()
        return re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)

    def new_game(self, players, title=''):
        fields = {'csrf_token': self.token('/games/new'), 'first_dealer': '0', 'decks': 'auto', 'game': 'standard',
                  'title': title, **{f'players-{i}': p for i, p in enumerate(players)}}
        status, _, headers = self.request('POST', '/games/new', urlencode(fields),
                                          {'Content-Type': 'application/x-www-form-urlencoded'})
        assert status == 302, status
        return headers['Location'].replace(f'http://127.0.0.1:{self.port}', '')

    def save_round(self, game, number, points):
        fields = {'csrf_token': self.token(f'{game}/rounds/{number}'), 'version': '0', 'went_out': '0',
                  **{f'entries-{i}-cards': '' for i in range(len(points) + 1)},
                  **{f'entries-{i + 1}-points': p for i, p in enumerate(points)}, 'entries-0-points': ''}
        return self.request('POST', f'{game}/rounds/{number}', urlencode(fields),
                            {'Content-Type': 'application/x-www-form-urlencoded'})[0]


def bystander(port, game, seconds, out):
    """The bystander's process: GET the live part every 50 ms for `seconds`; its times (ms) and failures."""
    client = Client(port, '127.0.0.2', timeout=10)
    times, failures = [], 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        started = time.perf_counter()
        try:
            status = client.request('GET', f'{game}/live')[0]
            if status == 200:
                times.append((time.perf_counter() - started) * 1000)
            else:
                failures += 1
        except OSError:
            failures += 1
        time.sleep(0.05)
    out.put((times, failures))


def cjk_name(rng, length):
    return ''.join(rng.choice(CJK) for _ in range(length))


def pictures(server, stop, rng, counts, game):
    """Four clients fetching fresh pictures of games with random CJK names until `stop`."""
    maker = Client(server.port, '127.0.0.3')
    games = []
    for n in range(12):
        game = maker.new_game([cjk_name(rng, 28) for _ in range(8)], title=cjk_name(rng, 80))
        maker.save_round(game, 1, [str(rng.randint(0, 40)) for _ in range(7)])
        games.append(game)
    asks = iter([f'{g}/picture.{kind}?lang={lang}&theme={theme}' for g in games for lang in ('en', 'es', 'pt')
                 for theme in ('light', 'dark') for kind in ('png', 'svg')])
    lock = threading.Lock()

    def fetch(n):
        client = Client(server.port, f'127.0.1.{n}')
        while not stop.is_set():
            with lock:
                path = next(asks, None)
            if path is None:
                return
            status = client.request('GET', path)[0]
            counts[status] = counts.get(status, 0) + 1
    return [threading.Thread(target=fetch, args=(n,), daemon=True) for n in range(4)]


def imports(server, stop, rng, counts, game):
    """A browser keeping 400 games; four of its tabs import game files over and over."""
    keeper = Client(server.port, '127.0.0.4')
    games = [keeper.new_game([f'P{n}', f'Q{n}', f'R{n}']) for n in range(400)]
    data = keeper.request('GET', games[0] + '/export.json')[1]

    def upload(n):
        client = Client(server.port, '127.0.0.4')
        client.cookies = dict(keeper.cookies)
        i = 0
        while not stop.is_set():
            i += 1
            token = json.loads(client.request('GET', '/offline/token')[1])['csrf']
            boundary = 'bench-boundary'
            body = (f'--{boundary}\r\nContent-Disposition: form-data; name="csrf_token"\r\n\r\n{token}\r\n'
                    f'--{boundary}\r\nContent-Disposition: form-data; name="game_file"; filename="g.json"\r\n'
                    'Content-Type: application/json\r\n\r\n').encode() + \
                data.replace(b'"P0"', f'"T{n}-{i}"'.encode()) + f'\r\n--{boundary}--\r\n'.encode()
            status = client.request('POST', '/import', body,
                                    {'Content-Type': f'multipart/form-data; boundary={boundary}'})[0]
            counts[status] = counts.get(status, 0) + 1
    return [threading.Thread(target=upload, args=(n,), daemon=True) for n in range(4)]


def holders(server, stop, make, many, counts):
    """One address keeping `many` connections made by `make` open, each one let go opened again a
    second later (what it was told to wait, and more, it does not wait)."""
    def hold():
        open_, again = [], []
        while not stop.is_set():
            now = time.monotonic()
            again = [t for t in again if t > now]
            while len(open_) + len(again) < many and not stop.is_set():
                try:
                    open_.append(make())
                except OSError:
                    time.sleep(0.05)
            for sock in list(open_):
                sock.setblocking(False)
                try:
                    answer = sock.recv(65536)
                except BlockingIOError:
                    continue
                except OSError:
                    answer = b''
                if not answer or answer.startswith(b'HTTP/1.1 4'):
                    status = answer[9:12].decode() or 'closed'
                    counts[status] = counts.get(status, 0) + 1
                    sock.close()
                    open_.remove(sock)
                    again.append(time.monotonic() + 1)
            time.sleep(0.05)
        for sock in open_:
            sock.close()
    return [threading.Thread(target=hold, daemon=True)]


def chunked(server, stop, rng, counts, game):
    def make():
        sock = socket.create_connection(('127.0.0.1', server.port), timeout=5)
        sock.sendall(b'POST /games/new HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n'
                     b'Content-Type: application/x-www-form-urlencoded\r\n\r\n8\r\nplayers-\r\n')
        return sock
    return holders(server, stop, make, 220, counts)


def streams(server, stop, rng, counts, game):
    def make():
        sock = socket.create_connection(('127.0.0.1', server.port), timeout=5)
        sock.sendall(f'GET {game}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'.encode())
        return sock
    return holders(server, stop, make, 210, counts)


# The slowest hand the app accepts that bench/solver.py knows (27 ms), with its rules.
HARD = ('/api/solve?cards=QD+2S+2C+4D+3D+2C+2D+AC+AS+AD+4S+4C+3S+KC+3C&wild=A&decks=3&aces=high_or_low'
        '&max_wilds_per_meld=1&all_wild_melds=false')


def solver(server, stop, rng, counts, game):
    """Four clients, each from an address of its own, asking the slowest hand as fast as they may."""
    def ask(n):
        client = Client(server.port, f'127.0.2.{n}')
        while not stop.is_set():
            status = client.request('GET', HARD)[0]
            counts[status] = counts.get(status, 0) + 1
            if status == 429:
                time.sleep(0.05)
    return [threading.Thread(target=ask, args=(n,), daemon=True) for n in range(4)]


# Eight shuffles of the slowest hand: round 11 (13 cards) of an eight-player game under the slowest rules.
SLOW = 'QD 2S 2C 4D 3D 2C 2D AC AS AD 4S 4C 3S'.split()


def rounds(server, stop, rng, counts, game):
    """Four scorekeepers, each from an address of its own, posting round 11's page with eight shuffles
    of a slow hand (more copies than the decks: 422), or 429 past their solver budget."""
    def post(n):
        client = Client(server.port, f'127.0.3.{n}')
        fields = {**new_game_form([f'P{i}' for i in range(8)], decks=3, aces='high_or_low', max_wilds_per_meld=1),
                  'csrf_token': client.token('/games/new')}
        mine = client.request('POST', '/games/new', urlencode(fields),
                              {'Content-Type': 'application/x-www-form-urlencoded'})[2]['Location']
        mine = mine.replace(f'http://127.0.0.1:{server.port}', '')
        for number in range(1, 11):                 # rounds 1-10 by points: round 11 deals 13 cards
            client.save_round(mine, number, ['5'] * 7)
        token = client.token(f'{mine}/rounds/11')
        while not stop.is_set():
            order = SLOW[:]
            form = {'csrf_token': token, 'version': '0', 'went_out': '0'}
            for i in range(8):
                rng.shuffle(order)
                form.update({f'entries-{i}-cards': ' '.join(order), f'entries-{i}-points': ''})
            status = client.request('POST', f'{mine}/rounds/11', urlencode(form),
                                    {'Content-Type': 'application/x-www-form-urlencoded'})[0]
            counts[status] = counts.get(status, 0) + 1
            if status == 429:
                time.sleep(0.05)
    return [threading.Thread(target=post, args=(n,), daemon=True) for n in range(4)]


def eight_player_game(client, rounds_saved=10):
    """An eight-player game under the slowest rules (three decks), its first rounds saved by points:
    the next deals 13 cards. Its path."""
    fields = {**new_game_form([f'P{i}' for i in range(8)], decks=3, aces='high_or_low', max_wilds_per_meld=1),
              'csrf_token': client.token('/games/new')}
    game = client.request('POST', '/games/new', urlencode(fields),
                          {'Content-Type': 'application/x-www-form-urlencoded'})[2]['Location']
    game = game.replace(f'http://127.0.0.1:{client.port}', '')
    for number in range(1, rounds_saved + 1):
        client.save_round(game, number, ['5'] * 7)
    return game


def hands(server, stop, rng, counts, game):
    """Eight seated players, each from an address of its own, sending 'my hand' for round 11 (a shuffle
    of a slow 13-card hand each time, so no answer is kept), as fast as they are answered: each hand is
    solved, in the solver's pool, within the seat's budgets (SOLVER_RATE; HAND_RATE, 429 past it). A send
    is answered by a redirect to the hand's page (303), which a real phone then asks for: this client
    does not, as an attacker would not."""
    table = eight_player_game(Client(server.port, '127.0.5.100'))

    def send(seat):
        client = Client(server.port, f'127.0.5.{seat}')
        client.request('POST', f'{table}/seats/{seat}', urlencode({'csrf_token': client.token(table)}),
                       {'Content-Type': 'application/x-www-form-urlencoded'})
        token = client.token(f'{table}/hand')
        while not stop.is_set():
            order = SLOW[:]
            rng.shuffle(order)
            status = client.request('POST', f'{table}/hand', urlencode({'csrf_token': token, 'round': '11',
                                                                          'cards': ' '.join(order)}),
                                    {'Content-Type': 'application/x-www-form-urlencoded'})[0]
            counts[status] = counts.get(status, 0) + 1
            if status == 429:
                time.sleep(0.05)
    return [threading.Thread(target=send, args=(seat,), daemon=True) for seat in range(8)]


def share_links(keeper, game, many):
    """`many` more browsers behind the keeper's address, each made a scorekeeper of `game` by a share link
    of its own (each new link ends the one before, once used)."""
    others = []
    for n in range(many):
        page = keeper.request('POST', f'{game}/keeper-link',
                              urlencode({'csrf_token': keeper.token(game), 'mode': 'share'}),
                              {'Content-Type': 'application/x-www-form-urlencoded'})[1].decode()
        key = re.search(r'/keeper#([^"<]+)"', page).group(1)
        other = Client(keeper.port, keeper.source)
        status = other.request('POST', f'{game}/keeper', urlencode({'csrf_token': other.token(f'{game}/keeper'),
                                                                    'key': key}),
                               {'Content-Type': 'application/x-www-form-urlencoded'})[0]
        assert status == 302, status
        others.append(other)
    return others


def keepers(server, stop, rng, counts, game):
    """A keeper and three more browsers it made keepers by share links, behind one address, asking for
    fresh pictures (each revision, language, theme and kind drawn afresh) with the real picture budget
    (PICTURE_RATE): the four draw on the budget of the keeper who made the links, not one budget each.
    The keeper saves the next round whenever this one's pictures are all asked for."""
    maker = Client(server.port, '127.0.6.1')
    mine = maker.new_game(['Ana', 'Bruno', 'Carla', 'Dan'])
    everyone = [maker, *share_links(maker, mine, 3)]
    lock = threading.Lock()
    asks = []
    state = {'round': 0}

    def next_ask():
        with lock:
            if not asks and state['round'] < 11:
                state['round'] += 1
                maker.save_round(mine, state['round'], [str(rng.randint(0, 40)) for _ in range(3)])
                asks.extend(f'{mine}/picture.{kind}?lang={lang}&theme={theme}' for lang in ('en', 'es', 'pt')
                            for theme in ('light', 'dark') for kind in ('png', 'svg'))
            return asks.pop() if asks else None

    def fetch(client):
        client = Client(server.port, client.source) if client is maker else client
        client.cookies = client.cookies or dict(maker.cookies)
        while not stop.is_set():
            path = next_ask()
            if path is None:
                return
            status = client.request('GET', path)[0]
            counts[status] = counts.get(status, 0) + 1
            if status == 429:
                time.sleep(0.5)
    return [threading.Thread(target=fetch, args=(client,), daemon=True) for client in everyone]


def strangers(server, stop, rng, counts, game):
    """A stranger behind a keeper's address makes new games as fast as the address's budget (GAME_RATE)
    lets it, while the keeper (its own browser) asks for a rematch every 2 s: the keeper's games are
    counted by its browser, so the stranger cannot use them up. Answers: the keeper's and the stranger's."""
    keeper = Client(server.port, '127.0.7.1')
    mine = keeper.new_game(['Ana', 'Bruno'])
    for number in range(1, 12):
        keeper.save_round(mine, number, [str(rng.randint(0, 40))])

    def stranger():
        client = Client(server.port, '127.0.7.1')
        while not stop.is_set():
            fields = {'csrf_token': client.token('/games/new'), **new_game_form(['X', 'Y'])}
            status = client.request('POST', '/games/new', urlencode(fields),
                                    {'Content-Type': 'application/x-www-form-urlencoded'})[0]
            counts[f'stranger {status}'] = counts.get(f'stranger {status}', 0) + 1
            if status == 429:
                time.sleep(0.2)

    def rematches():
        while not stop.is_set():
            status = keeper.request('POST', f'{mine}/rematch', urlencode({'csrf_token': keeper.token(mine)}),
                                    {'Content-Type': 'application/x-www-form-urlencoded'})[0]
            counts[f'keeper {status}'] = counts.get(f'keeper {status}', 0) + 1
            stop.wait(2)
    return [threading.Thread(target=stranger, daemon=True), threading.Thread(target=rematches, daemon=True)]


def saves(server, stop, rng, counts, game):
    """A keeper (its game made while the disk was whole) saving rounds over and over as fast as it is
    answered, on a disk broken meanwhile (DISKS): each save refused, saying why."""
    keeper = Client(server.port, '127.0.8.1')
    mine = keeper.new_game(['Ana', 'Bruno'])

    def save():
        while not stop.is_set():
            token = json.loads(keeper.request('GET', '/offline/token')[1])['csrf']
            fields = {'csrf_token': token, 'version': '0', 'went_out': '0', 'entries-0-cards': '',
                      'entries-1-cards': '', 'entries-0-points': '', 'entries-1-points': str(rng.randint(0, 40))}
            status = keeper.request('POST', f'{mine}/rounds/1', urlencode(fields),
                                    {'Content-Type': 'application/x-www-form-urlencoded'})[0]
            counts[status] = counts.get(status, 0) + 1
    return [threading.Thread(target=save, daemon=True)]


NICE = {'SCORER_POOL_NICE': os.environ['SCORER_POOL_NICE']} if 'SCORER_POOL_NICE' in os.environ else {}
ATTACKS = {'pictures': pictures, 'imports': imports, 'chunked': chunked, 'streams': streams, 'solver': solver,
           'rounds': rounds, 'hands': hands, 'keepers': keepers, 'strangers': strangers, 'read-only': saves,
           'full': saves}
# The attacks on the budgets themselves run on a server with the real budgets (each run's second server).
REAL_BUDGETS = ('keepers', 'strangers')
# The broken disks (items 3 and 4 of issue 47): each on a server of its own, on a disk of tests/disks.py's
# (its kind, size in MB, and how it breaks under the running server).
DISKS = {'read-only': ('ext4', 16, Disk.trip), 'full': ('tmpfs', 4, Disk.fill)}


def one_run(root, seconds, seed, scenarios=SCENARIOS):
    """One run on a fresh server: {scenario: (bystander times, failures, attackers' answers)}."""
    rng = random.Random(seed)
    found = {}
    loose = {**LOOSE_RATE_SETTINGS, 'SCORER_SOLVER_RATE': ratelimit.SOLVER_RATE,    # the solver's real budget,
             'SCORER_HAND_RATE': ratelimit.HAND_RATE}                               # and a seat's
    real = {**loose, 'SCORER_PICTURE_RATE': ratelimit.PICTURE_RATE, 'SCORER_GAME_RATE': ratelimit.GAME_RATE,
            'SCORER_ADDRESS_GAME_RATE': ratelimit.ADDRESS_GAME_RATE}
    for rates, names in ((loose, [s for s in scenarios if s not in REAL_BUDGETS and s not in DISKS]),
                         (real, [s for s in scenarios if s in REAL_BUDGETS])):
        if names:
            found.update(on_server(root, seconds, rng, names, rates))
    for name in [s for s in scenarios if s in DISKS]:
        found.update(on_disk(root, seconds, rng, name, loose))
    return found


def on_disk(root, seconds, rng, scenario, rates):
    """One broken-disk scenario on a fresh server on a disk of its own, or nothing where this machine
    cannot make one (said on stderr)."""
    kind, size, breaks = DISKS[scenario]
    with tempfile.TemporaryDirectory() as tmp:
        try:
            disk = Disk.make(Path(tmp) / 'disk', kind, size_mb=size)
        except pytest.skip.Exception as e:
            print(f'{scenario}: left out: {e.msg}', file=sys.stderr)
            return {}
        try:
            return on_server(root, seconds, rng, [scenario], rates, disk.folder, disk.prefix, lambda: breaks(disk))
        finally:
            disk.remove()


def on_server(root, seconds, rng, scenarios, rates, folder=None, prefix=(), breaks=None):
    """The scenarios one after the other on one fresh server with these budgets (its database in
    `folder`, run under `prefix`, and `breaks` called once each attack is set up, before it begins:
    a broken disk)."""
    found = {}
    with tempfile.TemporaryDirectory() as tmp:
        server = Gunicorn(Path(folder or tmp) / 'stalls.sqlite', workers=2, root=root, prefix=prefix,
                          env={**rates, 'SCORER_WORKER_CONNECTIONS': '100', 'SCORER_BODY_SECONDS': '10',
                               'SCORER_NODE_MODULES': str(ROOT / 'node_modules'), **NICE}).start(timeout=90)
        try:
            game = Client(server.port, '127.0.0.2').new_game(['Ana', 'Bruno', 'Carla', 'Dan'])
            Client(server.port, '127.0.0.2').request('GET', f'{game}/live')
            for scenario in scenarios:
                stop, counts = threading.Event(), {}
                attackers = ATTACKS[scenario](server, stop, rng, counts, game) if scenario in ATTACKS else []
                if breaks is not None:
                    breaks()
                for t in attackers:
                    t.start()
                time.sleep(2 if attackers else 0)        # the attack under way
                out = multiprocessing.Queue()
                watcher = multiprocessing.Process(target=bystander, args=(server.port, game, seconds, out))
                watcher.start()
                times, failures = out.get()
                watcher.join()
                stop.set()
                for t in attackers:
                    t.join(30)
                found[scenario] = (times, failures, counts)
                time.sleep(3)                            # what the attack left goes (streams see their phones gone)
        finally:
            server.stop()
    return found


def quantiles(times):
    """(p50, p95, the slowest) of a bystander's times (bench/quantiles.py); None each when there is none."""
    return (*cut(times, 50, 95), max(times, default=None))


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument('--seconds', type=int, default=20, help='seconds the bystander is timed in each scenario')
    parser.add_argument('--runs', type=int, default=3)
    parser.add_argument('--root', default=str(ROOT), help='the checkout to serve (another one, to compare)')
    parser.add_argument('--json', help='also write the figures to this file')
    parser.add_argument('--only', nargs='*', default=SCENARIOS[1:], help='the attacks to time (quiet always)')
    args = parser.parse_args()
    runs = [one_run(args.root, args.seconds, seed, ('quiet', *args.only)) for seed in range(1, args.runs + 1)]
    print(f'A bystander (127.0.0.2) GETs /games/<id>/live every 50 ms for {args.seconds} s in each scenario, against '
          f'the production recipe (2 gevent workers, 100 connections a worker) served from {args.root}; '
          f'{args.runs} runs, each on a fresh server. {describe()}\n')
    print('| scenario | run | bystander p50 ms | p95 ms | max ms | failed | p95 / quiet p95 | attackers\' answers |')
    print('|---|---:|---:|---:|---:|---:|---:|---|')
    figures = []
    for n, found in enumerate(runs, 1):
        quiet = quantiles(found['quiet'][0])[1]
        for scenario in found:
            times, failures, counts = found[scenario]
            p50, p95, most = quantiles(times)
            ratio = f'{p95 / quiet:.1f}×' if p95 and quiet else '–'
            answers = ', '.join(f'{k}: {v}' for k, v in sorted(counts.items(), key=str)) or '–'
            cells = [f'{v:.1f}' if v is not None else '–' for v in (p50, p95)] + [f'{most:.0f}' if most else '–']
            print(f'| {scenario} | {n} | {" | ".join(cells)} | {failures} | {ratio} | {answers} |')
            figures.append({'run': n, 'scenario': scenario, 'p50': p50, 'p95': p95, 'max': most, 'failed': failures,
                            'requests': len(times), 'answers': {str(k): v for k, v in counts.items()}})
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=1))
    pictures_ok = all(f['p95'] is not None and f['p95'] <= 2 * q for f in figures if f['scenario'] == 'pictures'
                      for q in [next(g['p95'] for g in figures if g['run'] == f['run'] and g['scenario'] == 'quiet')])
    print(f'\nWith four clients fetching fresh CJK pictures, the bystander\'s p95 within 2× its quiet p95 in every run: '
          f'{"yes" if pictures_ok else "no"}.')
    return 0 if pictures_ok else 1


if __name__ == '__main__':
    sys.exit(main())
