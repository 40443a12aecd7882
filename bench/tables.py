"""A table of N games (default 1,000: most finished, a few going; Three-Thirteen and Five Crowns,
2 to 8 of 10 people, over two years): its page timed as a reader opens it, on a fresh database.
`make bench` (figures in docs/speed.md; goal: p95 <= 100 ms warm).

Three figures: the first view (every game's summary made and kept, then the figures); each filter's
first view (kind x period: the summaries kept, the figures counted for it); and the warm view, the
same page again and again (what a phone that reloads it, or a second phone, waits for): median and
p95 of --views views."""

import argparse
import datetime
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app import create_app                      # noqa: E402
from bench.quantiles import cut                 # noqa: E402
from scorer.rules import make_rules             # noqa: E402
from scorer.sheet import Entry, Game            # noqa: E402
from scorer.tables import KINDS, PERIODS, game_lines, table_figures    # noqa: E402
from web import store                           # noqa: E402
from web.tabling import table_games             # noqa: E402

PEOPLE = ('Anastasia', 'Bartholomew', 'Carla', 'Dominique', 'Esperanza', 'Fitzgerald', 'Guadalupe', 'Hildegard',
          'Ignacio', 'Josefina')
RANKS = ['A', '2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K']


def a_game(rng, number, today):
    """A game of 2-8 people (2-7 at Five Crowns), one in five Five Crowns, one in fifty still going;
    a round: one goes out, the others' points entered (a few as cards, for the solver's share)."""
    kind = 'five_crowns' if rng.random() < 0.2 else rng.choice(('standard', 'standard', 'short'))
    rules = make_rules({'game': kind, **({} if kind == 'five_crowns' else {'decks': 3})})
    players = tuple(rng.sample(PEOPLE, rng.randint(2, 7 if kind == 'five_crowns' else 8)))
    played = len(rules.rounds) if rng.random() > 0.02 else rng.randrange(len(rules.rounds))
    rounds = {}
    for n in list(rules.rounds)[:played]:
        out = rng.randrange(len(players))
        rounds[n] = tuple(Entry(p, True) if i == out else
                          Entry(p, False, ' '.join(rng.choice(RANKS) + rng.choice('SHDC') for _ in range(3)))
                          if kind != 'five_crowns' and rng.random() < 0.05 else
                          Entry(p, False, None, rng.randrange(40)) for i, p in enumerate(players))
    day = (today - datetime.timedelta(days=rng.randrange(730))).isoformat()
    return Game(players, rules, 0, rounds, f'Game {number}', '', day)


def timed(client, url, cpu=None):
    """Milliseconds the page took (and, into `cpu`, the milliseconds of CPU this thread spent on it:
    the share a shared machine's other work does not inflate)."""
    started, spent = time.perf_counter(), time.thread_time()
    answer = client.get(url)
    assert answer.status_code == 200, (url, answer.status_code)
    if cpu is not None:
        cpu.append((time.thread_time() - spent) * 1000)
    return (time.perf_counter() - started) * 1000


def p95(times):
    return cut(times, 95)[0]


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument('--games', type=int, default=1000)
    parser.add_argument('--views', type=int, default=60)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, 'tables.sqlite')
        app = create_app({'TESTING': True, 'DATABASE': path, 'SECRET_KEY': 'bench'})
        client = app.test_client()
        db = store.connect(path)
        rng, today = random.Random(1), datetime.date.today()
        table_id = store.create_table(db, 'Club de los jueves', 'es', 'bench-maker', '')
        for number in range(args.games):
            store.create_game(db, a_game(rng, number, today), table_id=table_id)
        db.close()
        url = f'/tables/{table_id}'
        first = timed(client, url)
        filters = [timed(client, f'{url}?kind={kind}&period={period}') for kind in KINDS for period in PERIODS]
        cpu = []
        warm = [timed(client, url, cpu) for _ in range(args.views)]
        print(f'/tables/<id> {args.games} games: first view {first:.0f} ms (summaries made); each filter\'s first '
              f'view median {statistics.median(filters):.0f} ms, slowest {max(filters):.0f} ms; warm median '
              f'{statistics.median(warm):.0f} ms, p95 {p95(warm):.0f} ms of {args.views} (goal: p95 <= 100 ms); '
              f'CPU of a warm view median {statistics.median(cpu):.0f} ms, p95 {p95(cpu):.0f} ms')
        with app.test_request_context():
            games = table_games(table_id)
        counted = []
        for kind in KINDS:
            for period in PERIODS:
                spent = time.thread_time()
                table_figures(games, {}, kind, period, today)
                counted.append((time.thread_time() - spent) * 1000)
        spent = time.thread_time()
        game_lines(games, {})
        print(f'scorer/tables.py over {args.games} games: table_figures CPU {min(counted):.0f}-{max(counted):.0f} ms '
              f'(a kind and period), game_lines {(time.thread_time() - spent) * 1000:.0f} ms')


if __name__ == '__main__':
    main()
