"""Per-hand CPU time of the solver in one tree of the code: the median and p99 of a random 13-card
hand from two decks (kings wild, default rules), and of Five Crowns' 13 cards from its 116 (kings
wild) where the tree has Five Crowns. Prints one JSON object.

    python bench/per_hand.py TREE [--hands N] [--seed S]      (bench/vs.py runs it in each tree)

It imports nothing but the tree's scorer/ (and this checkout's bench/quantiles.py, before the tree is
looked in), so it runs against code older than this file.
"""

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.quantiles import cut  # noqa: E402


def median_and_p99(solve, deals):
    """(median, p99) CPU ms of one solve of each deal, after a warm-up pass."""
    for hand, wild, rules in deals[:50]:
        solve(hand, wild, rules)
    times = []
    for hand, wild, rules in deals:
        start = time.process_time()
        solve(hand, wild, rules)
        times.append((time.process_time() - start) * 1000)
    return cut(times, 50, 99)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument('tree')
    parser.add_argument('--hands', type=int, default=2000)
    parser.add_argument('--seed', type=int, default=50)
    args = parser.parse_args()
    sys.path.insert(0, args.tree)
    from scorer.cards import JOKER, SUITS, Card
    from scorer.rules import make_rules
    from scorer.solver import solve
    rng = random.Random(args.seed)
    rules = make_rules()
    pack = [Card(r, s) for r in range(1, 14) for s in SUITS] * 2
    found = {}
    found['random_13'], found['random_13_p99'] = median_and_p99(
        solve, [(rng.sample(pack, 13), 13, rules) for _ in range(args.hands)])
    try:
        five = make_rules(game='five_crowns')
    except Exception:             # a tree from before Five Crowns
        five = None
    if five is not None:
        pack = [Card(r, s) for r in five.deck.ranks for s in five.deck.suits] * five.decks + [JOKER] * five.jokers
        found['five_crowns'], found['five_crowns_p99'] = median_and_p99(
            solve, [(rng.sample(pack, 13), 13, five) for _ in range(args.hands)])
    print(json.dumps(found))


if __name__ == '__main__':
    main()
