"""A slow, obviously correct referee, written apart from scorer.solver and sharing no code with it.

It lists every subset of the hand that could be a meld (all of one rank or of one suit, but for
its wild-rank cards and jokers), keeps those that are melds (trying every role for every
wild-rank card), and finds the cheapest way to cover the hand with disjoint melds and
deadwood by trying, for the first card left, "deadwood" and every meld that holds it.
Cards are (rank, suit) pairs as in scorer.cards.Card; a joker has rank 0.
"""

from functools import lru_cache
from itertools import combinations, product


def card_value(card, wild, rules):
    """docs/rules.md 'Scoring a round' and its variants, spelled out again."""
    rank = card[0]
    if rank == 0:
        return rules.joker_penalty
    if rank == wild:
        return rules.wild_penalty
    if rank == 1 and rules.aces == 'high_or_low':
        return rules.ace_penalty
    if rank >= 11:
        return rank if rules.face_values == 'ranked' else 10
    return rank


def is_set(naturals, size, rules):
    """Naturals of one rank; with set_suits different, each of its own suit, and no more cards than
    the deck has suits (a wild stands for a card of a suit not yet in the set)."""
    if len({rank for rank, _ in naturals}) > 1:
        return False
    if rules.set_suits == 'different':
        suits = 5 if rules.game == 'five_crowns' else 4
        return len({suit for _, suit in naturals}) == len(naturals) and size <= suits
    return True


def is_run(naturals, size, rules):
    """Naturals of one suit, distinct ranks, that fit in `size` consecutive places (aces low, or high
    too; Five Crowns' runs go from 3 to K, at most 11 cards)."""
    five_crowns = rules.game == 'five_crowns'
    if size > (11 if five_crowns else 13) or len({suit for _, suit in naturals}) > 1:
        return False
    top = 14 if rules.aces == 'high_or_low' else 13
    foot = 3 if five_crowns else 1
    ace_places = [1, 14] if rules.aces == 'high_or_low' else [1]
    choices = [ace_places if rank == 1 else [rank] for rank, _ in naturals]
    for places in product(*choices):
        if len(set(places)) < len(places):
            continue
        for low in range(foot, top - size + 2):
            if all(low <= p < low + size for p in places):
                return True
    return False


def is_meld(cards, wild, rules):
    """Whether the cards form one set or one run under the rules, for some choice of wild roles."""
    if len(cards) < 3:
        return False
    flexible = [c for c in cards if c[0] == wild]
    fixed = [c for c in cards if c[0] != wild]
    own_roles = (True, False) if rules.wild_rank_as_itself else (False,)   # always wild: never itself
    for roles in product(own_roles, repeat=len(flexible)):   # True: used as itself
        naturals = [c for c in fixed if c[0] != 0] + [c for c, own in zip(flexible, roles) if own]
        standing_in = len(cards) - len(naturals)
        if rules.max_wilds_per_meld is not None and standing_in > rules.max_wilds_per_meld:
            continue
        if not naturals and not rules.all_wild_melds:
            continue
        if is_set(naturals, len(cards), rules) or is_run(naturals, len(cards), rules):
            return True
    return False


def could_be_melds(hand, wild):
    """Every subset of 3 or more cards (as a bit mask of the hand) that is all of one rank or all of
    one suit but for its wild-rank cards and jokers: a meld's other cards are a set's (one rank) or
    a run's (one suit), so every meld is among these."""
    free = [i for i, (rank, _) in enumerate(hand) if rank in (0, wild)]
    groups = [free]
    for key in (0, 1):                    # by rank, by suit
        for value in {card[key] for card in hand if card[0] not in (0, wild)}:
            groups.append(free + [i for i, card in enumerate(hand) if card[0] not in (0, wild) and card[key] == value])
    found = set()
    for group in groups:
        for size in range(3, len(group) + 1):
            for chosen in combinations(group, size):
                found.add(sum(1 << i for i in chosen))
    return sorted(found)


def brute_penalty(hand, wild, rules):
    """The smallest deadwood total over every way of splitting the hand into melds and deadwood."""
    hand = tuple(sorted((tuple(c) for c in hand)))
    n = len(hand)
    meld_cache = {}

    def meld_ok(mask):
        cards = tuple(hand[i] for i in range(n) if mask >> i & 1)
        if cards not in meld_cache:
            meld_cache[cards] = is_meld(cards, wild, rules)
        return meld_cache[cards]

    melds_with = {i: [] for i in range(n)}
    for mask in could_be_melds(hand, wild):
        if meld_ok(mask):
            first = (mask & -mask).bit_length() - 1
            melds_with[first].append(mask)

    @lru_cache(maxsize=None)
    def best(left):
        if not left:
            return 0
        first = (left & -left).bit_length() - 1
        cost = card_value(hand[first], wild, rules) + best(left & ~(1 << first))
        for m in melds_with[first]:
            if m & left == m:
                cost = min(cost, best(left & ~m))
        return cost

    return best((1 << n) - 1)
