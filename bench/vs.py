"""The solver beside other trees of the code, in CPU time (user + system, so the load of a shared
machine does not count): the same seeded batch of hands through `python -m scorer solve --jsonl` in
each tree, the trees in turn, `--runs` times, with each tree's median, spread and its ratio to this
one; then, in each tree, per-hand medians (a random 13-card two-deck hand, and Five Crowns' 13 cards
where the tree has Five Crowns).

    python bench/vs.py ../old-tree ../other-tree     (make bench runs it against the trees of VS=)

A tree is a checkout of the repo (`git worktree add DIR COMMIT`). The batch is written by
bench/solver.py's `mixed_batch()` from `--seed`: a round's hand or one card more, every meld
setting, some jokers (the batch the solver was held to in issue 50).
"""

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))

from bench.machine import describe  # noqa: E402
from bench.solver import mixed_batch  # noqa: E402

PER_HAND = HERE / 'bench' / 'per_hand.py'


def cpu_seconds(command, cwd, stdin_path):
    """The CPU seconds (user + system) of one run of a command, as the kernel accounts the child."""
    with open(stdin_path, 'rb') as stdin:
        child = subprocess.Popen(command, cwd=cwd, stdin=stdin, stdout=subprocess.DEVNULL)
        _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode:
        raise SystemExit(f'{command} in {cwd} failed ({child.returncode})')
    return usage.ru_utime + usage.ru_stime


def spread(figures):
    return f'{statistics.median(figures):.3f} ({min(figures):.3f}–{max(figures):.3f})'


def batch_runs(trees, batch_path, runs):
    """Each tree's CPU seconds for the batch, `runs` times, the trees in turn (A B C A B C ...)."""
    command = [sys.executable, '-m', 'scorer', 'solve', '--jsonl']
    times = {tree: [] for tree in trees}
    for _ in range(runs):
        for tree in trees:
            times[tree].append(cpu_seconds(command, tree, batch_path))
    return times


def per_hand(tree, hands, seed):
    """The per-hand medians measured in a tree (bench/per_hand.py run there)."""
    out = subprocess.run([sys.executable, str(PER_HAND), str(tree), '--hands', str(hands), '--seed', str(seed)],
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('trees', nargs='*', help='other checkouts of the repo to run beside this one')
    parser.add_argument('--lines', type=int, default=4500, help='hands in the batch')
    parser.add_argument('--runs', type=int, default=5, help='alternated runs of the batch in each tree')
    parser.add_argument('--hands', type=int, default=2000, help='hands for each per-hand median')
    parser.add_argument('--seed', type=int, default=50)
    args = parser.parse_args()
    trees = [HERE] + [Path(t).resolve() for t in args.trees]
    names = {tree: label(tree) for tree in trees}
    print(describe() + '\n')
    with tempfile.NamedTemporaryFile('w', suffix='.jsonl', delete=False) as f:
        f.write('\n'.join(mixed_batch(random.Random(args.seed), args.lines)) + '\n')
    try:
        times = batch_runs(trees, f.name, args.runs)
    finally:
        os.unlink(f.name)
    print(f'`python -m scorer solve --jsonl`, {args.lines} hands (seed {args.seed}), CPU seconds of the whole '
          f'process, {args.runs} runs alternated: median (min–max), and this tree\'s time over the other\'s '
          'run by run:\n')
    print('| tree | CPU s | this tree ÷ it |\n|---|---:|---:|')
    for tree in trees:
        ratios = [a / b for a, b in zip(times[HERE], times[tree])]
        print(f'| {names[tree]} | {spread(times[tree])} | {spread(ratios) if tree != HERE else ""} |')
    print(f'\nPer hand, CPU ms ({args.hands} hands each, default rules): median (p99)\n')
    print('| tree | random 13 cards, two decks | Five Crowns 13 cards | Five Crowns ÷ Three-Thirteen |'
          '\n|---|---:|---:|---:|')
    for tree in trees:
        m = per_hand(tree, args.hands, args.seed)
        five = m.get('five_crowns')
        print(f'| {names[tree]} | {m["random_13"]:.3f} ({m["random_13_p99"]:.3f}) | '
              + (f'{five:.3f} ({m["five_crowns_p99"]:.3f}) | {five / m["random_13"]:.2f} |' if five else '– | – |'))


def label(tree):
    """A tree as the tables name it: its folder and commit."""
    commit = subprocess.run(['git', 'rev-parse', '--short', 'HEAD'], cwd=tree, capture_output=True, text=True).stdout
    dirty = subprocess.run(['git', 'status', '--porcelain', '--untracked-files=no'], cwd=tree, capture_output=True,
                           text=True).stdout
    return f'{tree.name} {commit.strip()}{"+" if dirty.strip() else ""}'


if __name__ == '__main__':
    main()
