"""From the steps the search took to the melds of actual cards: the runners played as themselves,
the wilds left at the end, then the stand-ins, every meld held to the meld rule (scorer/melds.py)."""

from .cards import ACE_ON_TOP, JOKER, Card, order
from .melds import Meld, MeldError, meld_of, valid
from .positions import CARD, EVERY_SUIT, NATURAL, Solution, natural, place_of, suit_of


class Arrangement:
    """How a Deal's best line of steps plays as melds (scorer/deal.py)."""

    def arrange(self, penalty, steps, end):
        """The Solution that a line of steps from the start reaches, with the wild cards dealt out:
        the runners played as themselves, the wilds left at the end, then the stand-ins."""
        deadwood, layouts = [], []
        for step in steps:
            deadwood += [CARD[n] for n in step.deadwood]
            layouts += [self.layout(meld) for meld in step.melds]
        tail = self.leftover(end.wilds, end.owed, end.sink)
        for n in self.singles[:tail.singles]:
            layouts.append(('set', [(CARD[n], CARD[n])] + [(Card(place_of(n), ''), None)] * 2))
        deadwood += [CARD[n] for n in self.singles[tail.singles:]]
        wild_cards = list(self.wild_cards)
        for _, places in layouts:
            for plays, card in places:
                if card is not None and card.rank == self.wild:
                    wild_cards.remove(card)
        left_jokers = [JOKER] * tail.jokers
        left_wilds = wild_cards[len(wild_cards) - tail.wilds:]
        pool = [JOKER] * (len(self.jokers) - tail.jokers) + wild_cards[:len(wild_cards) - tail.wilds]
        melds = [self.meld(kind, places, pool) for kind, places in layouts]
        if tail.to_sink:
            spare = left_jokers + left_wilds
            sets = [i for i, m in enumerate(melds) if m.kind == 'set']
            if sets:
                m = melds[sets[0]]
                melds[sets[0]] = Meld('set', m.cards + tuple(spare), m.plays + plays_in_set(spare, m.plays[0].rank))
            else:
                i = next(i for i, m in enumerate(melds) if len(m.cards) + len(spare) <= self.longest)
                melds[i] = self.lengthen(melds[i], spare)
            left_jokers, left_wilds = [], []
        elif tail.sets:
            for n_jokers, n_wilds in tail.sets:
                cards = [left_wilds.pop() for _ in range(n_wilds)] + [left_jokers.pop() for _ in range(n_jokers)]
                melds.append(meld_of(cards, self.wild, self.rules)    # a set, or a run as the table reads it
                             or Meld('set', tuple(cards), plays_in_set(cards, self.wild or 1)))
        deadwood += left_wilds + left_jokers
        for m in melds:               # every meld the search makes is held to the one meld rule
            if not valid(m, self.wild, self.rules):
                raise MeldError(f'the solver made {m.kind} {" ".join(map(str, m.cards))}, which is no meld')
        return Solution(penalty, tuple(melds), tuple(sorted(deadwood, key=order)))

    def layout(self, meld):
        """A meld as its kind and places: (the card each plays as, the card there, or None for a stand-in to come)."""
        c = meld.first
        if meld.kind == 'set':
            stand = Card(place_of(c), '')
            return 'set', [(CARD[n], CARD[n]) for n in (c,) + meld.naturals] + [(stand, None)] * meld.stand_ins
        suit, (low, top) = suit_of(c), meld.span
        naturals = set(meld.naturals) | {c}
        own = {place: r for r in meld.runners for place in self.runner_places if low <= place <= top}
        places = []
        for place in range(low, top + 1):
            plays = CARD[natural(suit, place)]
            if natural(suit, place) in naturals or (place == ACE_ON_TOP and place_of(c) == 1):
                places.append((plays, plays))
            else:
                places.append((plays, CARD[own[place]] if place in own else None))
        return 'run', places

    def lengthen(self, run, wilds):
        """A run with wilds more on its ends: below its foot while there is room, then above its top."""
        suit, places = EVERY_SUIT.index(run.plays[0].suit), [place_of(NATURAL[p]) for p in run.plays]
        if places[-1] == 1:
            places[-1] = ACE_ON_TOP
        low, top = places[0], places[-1]
        cards, plays = list(run.cards), list(run.plays)
        for wild in wilds:
            if low > self.foot + (1 if top == ACE_ON_TOP else 0):
                low -= 1
                cards.insert(0, wild)
                plays.insert(0, CARD[natural(suit, low)])
            else:
                top += 1
                cards.append(wild)
                plays.append(CARD[natural(suit, top)])
        return Meld('run', tuple(cards), tuple(plays))

    @staticmethod
    def meld(kind, places, pool):
        """A Meld from its places, taking each stand-in from the pool (the card itself when it is there)."""
        cards = tuple(card if card is not None else take(pool, plays) for plays, card in places)
        return Meld(kind, cards, tuple(plays for plays, _ in places))


def plays_in_set(wilds, rank):
    """What wilds in a set of `rank` play as: a card of that rank as itself, any other as the rank."""
    return tuple(c if c.rank == rank else Card(rank, '') for c in wilds)


def take(wilds, stands):
    """Take a wild for a place: the card itself if it is there (a wild-rank card as itself)."""
    for i, c in enumerate(wilds):
        if c == stands or (not stands.suit and c.rank == stands.rank):
            return wilds.pop(i)
    return wilds.pop(0)
