"""Benchmark the meld solver: time per hand on random two-deck deals and on adversarial hands.

Run with `make bench`. Prints a Markdown table for the README.
"""

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.machine import describe  # noqa: E402
from scorer.cards import JOKER, SUITS, Card, pretty  # noqa: E402
from scorer.rules import make_rules  # noqa: E402
from scorer.solver import solve  # noqa: E402

SETTINGS = {
    'default': {},
    'one wild per meld': {'max_wilds_per_meld': 1},
    'no all-wild melds': {'all_wild_melds': False},
    'aces high or low': {'aces': 'high_or_low'},
}


def wild_for(size):
    return 1 if size == 14 else size


def timed(hand, wild, rules, repeat):
    """Best-of-`repeat` wall time of one solve, in ms (each a fresh search: nothing is cached)."""
    best = float('inf')
    for _ in range(repeat):
        t = time.perf_counter()
        solve(hand, wild, rules)
        best = min(best, time.perf_counter() - t)
    return best * 1000


def random_deals(rng, hands, rules):
    pack = [Card(r, s) for r in range(1, 14) for s in SUITS] * 2 + [JOKER] * rules.jokers
    rows = []
    for size in range(3, 15):
        times = sorted(timed(rng.sample(pack, size), wild_for(size), rules, 3) for _ in range(hands))
        rows.append((size, statistics.median(times), times[int(0.99 * (len(times) - 1))], times[-1]))
    return rows


def adversarial(rng, count):
    """13-14 cards: one suit (or two), many duplicates, 3-8 wilds."""
    hands = []
    for _ in range(count):
        size = rng.choice([13, 14])
        wild = wild_for(size)
        n_wild = rng.randint(3, 8)
        wilds = [Card(wild, s) for s in SUITS for _ in range(2)]
        rng.shuffle(wilds)
        suits = rng.sample(SUITS, rng.choice([1, 1, 2]))
        naturals = [Card(r, s) for r in range(1, 14) if r != wild for s in suits] * 2
        lo = rng.randint(1, 6)
        naturals = [c for c in naturals if lo <= c.rank <= lo + rng.randint(5, 12)]
        hand = wilds[:n_wild] + rng.sample(naturals, min(len(naturals), size - n_wild))
        hands.append((hand, wild))
    return hands


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument('--hands', type=int, default=2000, help='random hands per size')
    parser.add_argument('--adversarial', type=int, default=300)
    parser.add_argument('--seed', type=int, default=13)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    rules = make_rules()
    print(describe() + '\n')
    print(f'Random two-deck deals, default rules, {args.hands} hands per size (ms per hand):\n')
    print('| cards | median | p99 | max |\n|---:|---:|---:|---:|')
    for size, med, p99, worst in random_deals(rng, args.hands, rules):
        print(f'| {size} | {med:.3f} | {p99:.3f} | {worst:.2f} |')
    hands = adversarial(rng, args.adversarial)
    print(f'\nAdversarial hands ({args.adversarial}: 13-14 cards, one or two suits, '
          'duplicates, 3-8 wilds), ms per hand:\n')
    print('| rules | median | p99 | worst | worst hand |\n|---|---:|---:|---:|---|')
    for name, settings in SETTINGS.items():
        rules = make_rules(settings)
        times = sorted((timed(h, w, rules, 3), i) for i, (h, w) in enumerate(hands))
        worst_ms, worst_i = times[-1]              # as measured: the same figure the p99 comes from
        ms = [t for t, _ in times]
        print(f'| {name} | {statistics.median(ms):.2f} | {ms[int(0.99 * (len(ms) - 1))]:.2f} | '
              f'{worst_ms:.2f} | {pretty(hands[worst_i][0])} |')
    hard_hands()


# Hands known to be hard (issue 15): kings wild, three decks, one wild per meld, aces high or low.
HARD = [('KH KS KC KD KH KS KC KD KH KS KC KD QS QH QD QC QD QH QD 8D', 13,
         {'decks': 3, 'max_wilds_per_meld': 1, 'aces': 'high_or_low'})]


def hard_hands():
    from scorer.cards import parse_cards
    print('\nKnown hard hands, ms (best of 3):\n')
    print('| hand | rules | ms |\n|---|---|---:|')
    for text, wild, settings in HARD:
        rules = make_rules(settings)
        hand = parse_cards(text, rules.decks, rules.jokers)
        print(f'| {pretty(hand)} | {settings} | {timed(hand, wild, rules, 3):.1f} |')


if __name__ == '__main__':
    main()
