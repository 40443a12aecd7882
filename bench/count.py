"""Count the instructions the solver spends on each workload of `make bench`, under valgrind's callgrind.

Time on a shared machine moves by a third from one minute to the next; instruction counts move by
less than one in a thousand, so they are how two versions of the solver are compared:

    .venv/bin/python bench/count.py                 # this checkout
    .venv/bin/python bench/count.py --root ../old   # another checkout of the project, same hands

The hands are made here, by the generators `make bench` times, and written down as text. Each
workload then runs twice under callgrind with the scorer/ of `--root`: once reading the hands
and solving them, once only reading them; the difference, divided by the number of hands, is
the solver's (for solve --jsonl: the whole line, read, solved and written).
"""

import argparse
import io
import json
import os
import random
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

WORKLOADS = {'random13': 'random 13-card two-deck deals, default rules',
             'crowded': 'crowded hands (14-15 cards, three decks), every meld setting',
             'jsonl': 'solve --jsonl on the mixed batch'}


def write_hands(kind, count, path):
    """The workload's hands as text: [cards, wild, settings] each, or the JSON lines."""
    from bench.solver import MELD_SETTINGS, crowded, mixed_batch
    from scorer.cards import SUITS, Card
    rng = random.Random(13)
    if kind == 'random13':
        pack = [Card(r, s) for r in range(1, 14) for s in SUITS] * 2
        work = [[' '.join(map(str, rng.sample(pack, 13))), 13, {}] for _ in range(count)]
    elif kind == 'crowded':
        settings = list(MELD_SETTINGS.values())
        work = []
        for i in range(count):
            hand, wild, rules = crowded(rng, settings[i % len(settings)])
            work.append([' '.join(map(str, hand)), wild, rules.to_dict()])
    else:
        work = mixed_batch(rng, count)
    Path(path).write_text(json.dumps(work))


def run(kind, path, solve_them):
    """Read the hands with the scorer/ on sys.path, and solve them (this is what callgrind watches)."""
    work = json.loads(Path(path).read_text())
    if kind == 'jsonl':
        from scorer.__main__ import solve_jsonl
        if solve_them:
            solve_jsonl(work, io.StringIO())
        return
    from scorer.reading import parse_cards
    from scorer.rules import make_rules
    from scorer.solver import solve
    deals = []
    for text, wild, settings in work:
        rules = make_rules(settings)
        deals.append((parse_cards(text, rules.decks, rules.jokers), wild, rules))
    if solve_them:
        for hand, wild, rules in deals:
            solve(hand, wild, rules)


def instructions(root, kind, path, solve_them):
    env = {**os.environ, 'PYTHONHASHSEED': '0'}
    out = subprocess.run(['valgrind', '--tool=callgrind', '--callgrind-out-file=/dev/null', sys.executable,
                          __file__, '--run', kind, path, str(int(solve_them)), '--root', str(root)],
                         env=env, capture_output=True, text=True, check=True).stderr
    return int(re.search(r'Collected : (\d+)', out).group(1))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--root', default=str(HERE.parent), help='the checkout whose scorer/ is counted')
    parser.add_argument('--hands', type=int, default=300)
    parser.add_argument('--run', nargs=3, metavar=('KIND', 'FILE', 'SOLVE'), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.run:
        sys.path[0] = str(Path(args.root).resolve())     # that checkout's scorer/, not this one's
        for name in [m for m in sys.modules if m == 'scorer' or m.startswith('scorer.')]:
            del sys.modules[name]
        run(args.run[0], args.run[1], args.run[2] == '1')
        return
    print(f'Instructions per hand (callgrind), {args.hands} hands a workload, scorer/ of {args.root}:\n')
    print('| workload | instructions per hand |\n|---|---:|')
    with tempfile.TemporaryDirectory() as tmp:
        for kind, words in WORKLOADS.items():
            path = str(Path(tmp) / f'{kind}.json')
            write_hands(kind, args.hands, path)
            cost = instructions(args.root, kind, path, True) - instructions(args.root, kind, path, False)
            print(f'| {words} | {cost / args.hands:,.0f} |')


if __name__ == '__main__':
    main()
