"""From the steps the search took to the melds of actual cards: the runners played as themselves,
the wilds left at the end, then the stand-ins (the tests hold every meld it makes to the meld rule,
scorer/melds.py).

Every meld made here is valid by the meld rule: tests/hands.py's check_arrangement() holds each
arrangement the tests get to melds.valid(), so a hand's answer is not checked again as it is written
(that was 4 % of a random hand's instructions, callgrind)."""

from functools import partial

from .cards import ACE_ON_TOP, CARDS, JOKER, KING, ORDER, Card
from .melds import Meld, meld_of
from .positions import CARD, EVERY_SUIT, NATURAL, PLACE, natural, place_of, solution_from, suit_of, without

# What a wild standing in a set of each rank plays as: the rank alone (Card(rank, ''), its one object).
AS_RANK = {rank: CARDS[Card(rank, '')] for rank in range(1, KING + 1)}

# A Meld as each line's answer makes it: from a tuple of its fields (tuple.__new__, in C), not through the named
# tuple's own __new__, a Python function (as positions.solution_from()).
meld_from = partial(tuple.__new__, Meld)


def arrange(deal, penalty, steps, tail):
    """The Solution that a line of steps from the start reaches, with the wild cards of the deal
    (scorer/solver.py's Deal) dealt out: the runners played as themselves, the wilds left at the
    end (`tail`, the search's Leftover), then the stand-ins."""
    table = deal.table
    deadwood = [CARD[n] for step in steps for n in step.deadwood]
    layouts = [layout(meld, table.runner_places) for step in steps for meld in step.melds]
    if deal.singles:
        for n in deal.singles[:tail.singles]:
            layouts.append(single_run(n, table) if table.suits_differ else
                           ('set', (CARD[n], AS_RANK[place_of(n)], AS_RANK[place_of(n)]), (CARD[n], None, None)))
        deadwood += [CARD[n] for n in deal.singles[tail.singles:]]
    wild_cards = list(deal.wild_cards)
    for _, _, cards in layouts if deal.runners else ():     # only a runner is a wild-rank card in a layout
        for card in cards:
            if card is not None and card.rank == table.wild:
                wild_cards.remove(card)
    if tail.kept:                 # the wild-rank cards the end keeps for books, last (`Search.books_left()`)
        wild_cards = list(without(wild_cards, tail.kept) + tail.kept)
    left_jokers = [JOKER] * tail.jokers
    left_wilds = wild_cards[len(wild_cards) - tail.wilds:]
    pool = [JOKER] * (deal.jokers - tail.jokers) + wild_cards[:len(wild_cards) - tail.wilds]
    melds = [meld(kind, plays, cards, pool) for kind, plays, cards in layouts]
    if tail.to_sink and table.suits_differ:
        left_jokers, left_wilds = [], sink_in_turn(melds, left_jokers + left_wilds, table)
    elif tail.to_sink:
        spare = left_jokers + left_wilds
        sets = [i for i, m in enumerate(melds) if m.kind == 'set']
        if sets:
            m = melds[sets[0]]
            melds[sets[0]] = Meld('set', m.cards + tuple(spare), m.plays + plays_in_set(spare, m.plays[0].rank))
        else:
            i = next(i for i, m in enumerate(melds) if len(m.cards) + len(spare) <= table.longest)
            melds[i] = lengthen(melds[i], spare, table.foot)
        left_jokers, left_wilds = [], []
    elif tail.sets:
        for n_jokers, n_wilds in tail.sets:
            cards = [left_wilds.pop() for _ in range(n_wilds)] + [left_jokers.pop() for _ in range(n_jokers)]
            for group in in_runs(cards, table):
                melds.append(meld_of(group, table.wild, table.rules)    # a set, or a run as the table reads it
                             or Meld('set', tuple(group), plays_in_set(group, table.wild or 1)))
    if left_wilds or left_jokers:
        deadwood += left_wilds + left_jokers
    return solution_from((penalty, tuple(melds), tuple(sorted(deadwood, key=ORDER.__getitem__))))


def single_run(n, table):
    """A single melded with two stand-ins when a set's suits must differ: laid out as a run (from its
    place, or ending at the top), which has room for the wilds left over that a set has not."""
    top = table.foot + table.longest - 1 + table.aces_high
    low, suit = max(table.foot, min(place_of(n), top - 2)), suit_of(n)
    places = range(natural(suit, low), natural(suit, low + 3))
    return 'run', tuple(map(CARD.__getitem__, places)), tuple(
        CARD[n] if p == n or (place_of(p) == ACE_ON_TOP and place_of(n) == 1) else None for p in places)


def sink_in_turn(melds, spare, table):
    """The wilds left over, dearest first, each on the first meld with room, when a set's suits must
    differ: a run shorter than the longest on an end, a set with fewer cards than suits (a wild
    stands for a suit not yet in it). Returns those no meld has room for: deadwood."""
    left = []
    for wild in sorted(spare, key=lambda c: table.joker_value if c.is_joker else table.wild_value, reverse=True):
        for i, m in enumerate(melds):
            if m.kind == 'run' and len(m.cards) < table.longest:
                melds[i] = lengthen(m, [wild], table.foot)
                break
            if m.kind == 'set' and len(m.cards) < table.suits:
                melds[i] = Meld('set', m.cards + (wild,), m.plays + (Card(m.plays[0].rank, ''),))
                break
        else:
            left.append(wild)
    return left


def in_runs(cards, table):
    """A group of wilds left over, in groups a run holds when a set's suits must differ (a set holds
    one card a suit): as many as it takes, each with a wild-rank card first when there is one for each."""
    if not table.suits_differ or len(cards) <= table.longest:
        return [cards]
    count = -(-len(cards) // table.longest)
    ordered = sorted(cards, key=lambda c: c.is_joker)
    return [ordered[i::count] for i in range(count)]


def layout(meld, runner_places):
    """A candidate meld as (its kind, the cards its places play as, the card at each place or None for
    a stand-in to come); a runner plays as itself at one of `runner_places`."""
    c = meld.first
    if meld.kind == 'set':
        naturals = tuple(map(CARD.__getitem__, (c,) + meld.naturals))
        if not meld.stand_ins:
            return 'set', naturals, naturals
        return 'set', naturals + (AS_RANK[place_of(c)],) * meld.stand_ins, naturals + (None,) * meld.stand_ins
    base, (low, top) = c & ~PLACE, meld.span      # base + place: the natural at that place (natural(suit_of(c), 0))
    places = range(base + low, base + top + 1)
    taken = {c, *meld.naturals}
    if c & PLACE == 1:                      # place_of(), inline
        taken.add(base + ACE_ON_TOP)        # the ace on top is the ace itself
    cards = [CARD[n] if n in taken else None for n in places]
    for r in meld.runners:
        for place in runner_places:
            if low <= place <= top and cards[place - low] is None:
                cards[place - low] = CARD[r]
    return 'run', tuple(map(CARD.__getitem__, places)), tuple(cards)


def lengthen(run, wilds, foot):
    """A run with wilds more on its ends: below its foot while there is room (down to the place
    `foot`), then above its top."""
    suit, places = EVERY_SUIT.index(run.plays[0].suit), [place_of(NATURAL[p]) for p in run.plays]
    if places[-1] == 1:
        places[-1] = ACE_ON_TOP
    low, top = places[0], places[-1]
    cards, plays = list(run.cards), list(run.plays)
    for wild in wilds:
        if low > foot + (1 if top == ACE_ON_TOP else 0):
            low -= 1
            cards.insert(0, wild)
            plays.insert(0, CARD[natural(suit, low)])
        else:
            top += 1
            cards.append(wild)
            plays.append(CARD[natural(suit, top)])
    return Meld('run', tuple(cards), tuple(plays))


def meld(kind, plays, cards, pool):
    """A Meld from its places (the cards they play as, the card at each or None), taking each stand-in
    from the pool (the card itself when it is there)."""
    if None in cards:
        cards = tuple([card if card is not None else take(pool, p) for p, card in zip(plays, cards)])
    return meld_from((kind, cards, plays))


def plays_in_set(wilds, rank):
    """What wilds in a set of `rank` play as: a card of that rank as itself, any other as the rank."""
    return tuple(c if c.rank == rank else Card(rank, '') for c in wilds)


def take(wilds, stands):
    """Take a wild for a place: the card itself if it is there (a wild-rank card as itself)."""
    for i, c in enumerate(wilds):
        if c == stands or (not stands.suit and c.rank == stands.rank):
            return wilds.pop(i)
    return wilds.pop(0)
