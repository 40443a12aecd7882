"""Where a hand's search goes, counted: per hand, the positions the search is asked for (`best()`
calls), those it searched (not answered by the memo nor at the end), the distinct positions it
met, the distinct remaining-cards states among them (the hand, the wilds, the runners and the
stand-ins owed: the position but for `sink` and `sets_made`), and the steps it made.

    .venv/bin/python bench/positions.py [--hands 2000]

The counters wrap the search's methods in a subclass made here; nothing is counted in
scorer/solver.py itself (its hot loop stays as it is). The workloads: random 13-card two-deck
hands (default rules, kings wild), the lines of the mixed `solve --jsonl` batch, and the known hard
hands (`HARD`) one by one.
"""

import argparse
import json
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.solver import HARD, mixed_batch  # noqa: E402
from scorer import solver  # noqa: E402
from scorer.cards import SUITS, Card  # noqa: E402
from scorer.query import read_query  # noqa: E402
from scorer.reading import read_cards  # noqa: E402
from scorer.rules import make_rules  # noqa: E402


class Counted(solver.Search):
    """The search, its calls counted."""

    def __init__(self, deal):
        self.asked = self.searched = self.made = 0
        super().__init__(deal)

    def best(self, position, bound=solver.INFINITY):
        self.asked += 1
        known = self.known.get(position)
        if position.hand and not (known is not None and (known[1] or known[0] >= bound)):
            self.searched += 1
        return super().best(position, bound)

    def step(self, cost, deadwood, melds, left):
        self.made += 1
        return super().step(cost, deadwood, melds, left)


def counts(hand, wild, rules):
    """(asked, searched, distinct positions, distinct states, steps) of one solve."""
    search = Counted(solver.deal_out(hand, solver.table_for(rules, wild)))
    search.solution()
    states = {p[:4] for p in search.known}
    return search.asked, search.searched, len(search.known), len(states), search.made


def summary(name, rows):
    columns = list(zip(*rows))
    means = [statistics.mean(c) for c in columns]
    medians = [statistics.median(c) for c in columns]
    print(f'| {name} | ' + ' | '.join(f'{a:.1f} ({m:g}, max {max(c)})' for a, m, c in zip(means, medians, columns))
          + ' |')


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--hands', type=int, default=2000)
    parser.add_argument('--seed', type=int, default=50)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    rules = make_rules()
    pack = [Card(r, s) for r in range(1, 14) for s in SUITS] * 2
    print('Per hand, mean (median, max):\n')
    print('| workload | best() asked | searched | distinct positions | distinct states | steps made |'
          '\n|---|---:|---:|---:|---:|---:|')
    summary('random 13 cards, two decks', [counts(rng.sample(pack, 13), 13, rules) for _ in range(args.hands)])
    five = make_rules(game='five_crowns')
    pack5 = [Card(r, s) for r in five.deck.ranks for s in five.deck.suits] * five.decks
    summary('Five Crowns 13 cards', [counts(rng.sample(pack5, 13), 13, five) for _ in range(args.hands)])
    rows = []
    for line in mixed_batch(random.Random(args.seed), args.hands):
        query = read_query(json.loads(line))
        rows.append(counts(query.hand, query.wild, query.rules))
    summary('solve --jsonl batch lines', rows)
    for i, (text, wild, settings) in enumerate(HARD):
        hard = make_rules(settings)
        summary(f'HARD[{i}]', [counts(read_cards(text), wild, hard)])


if __name__ == '__main__':
    main()
