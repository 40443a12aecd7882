"""The history and the player stats of a browser that keeps N finished 8-player games (default 500):
each page timed over several views, on a fresh database. `make history` (figures in docs/speed.md)."""

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app import create_app                      # noqa: E402
from scorer.rules import make_rules             # noqa: E402
from scorer.sheet import Entry, Game            # noqa: E402
from web import store                           # noqa: E402

PLAYERS = ('Anastasia', 'Bartholomew', 'Carla', 'Dominique', 'Esperanza', 'Fitzgerald', 'Guadalupe', 'Hildegard')
RANKS = ['A', '2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K']


def finished_game(rng, number):
    """An 8-player game of 11 rounds: one goes out, half hold cards, half entered as points."""
    rounds = {}
    for n in range(1, 12):
        out = rng.randrange(8)
        entries = []
        for i, p in enumerate(PLAYERS):
            if i == out:
                entries.append(Entry(p, True))
            elif i % 2:
                entries.append(Entry(p, False, ' '.join(rng.choice(RANKS) + rng.choice('SHDC') for _ in range(n + 2))))
            else:
                entries.append(Entry(p, False, None, rng.randrange(60)))
        rounds[n] = tuple(entries)
    return Game(PLAYERS, make_rules({'decks': 3}), 0, rounds, f'Game {number}', '', '2026-11-30')


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument('--games', type=int, default=500)
    parser.add_argument('--views', type=int, default=10)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, 'history.sqlite')
        app = create_app({'TESTING': True, 'DATABASE': path, 'SECRET_KEY': 'bench'})
        client = app.test_client()
        db = store.connect(path)
        rng = random.Random(1)
        ids = [store.create_game(db, finished_game(rng, number))[0] for number in range(args.games)]
        token = 'bench-browser-token-000000000000'
        client.set_cookie('browser', token)
        store.keep(db, store.key_hash(token), ids)
        db.close()
        for page in ('/history', '/stats'):
            started = time.perf_counter()
            assert client.get(page).status_code == 200
            first = (time.perf_counter() - started) * 1000
            times = []
            for _ in range(args.views):
                started = time.perf_counter()
                assert client.get(page).status_code == 200
                times.append((time.perf_counter() - started) * 1000)
            print(f'{page:9} {args.games} finished 8-player games: first view {first:.0f} ms (summaries made), '
                  f'then median {statistics.median(times):.0f} ms, slowest {max(times):.0f} ms of {args.views}')


if __name__ == '__main__':
    main()
