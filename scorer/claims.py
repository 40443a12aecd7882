"""Claims: is a claimed meld valid (and if not, why, in words), and does a claimed score hold?

A meld (docs/rules.md, "Melds") is a set (three or more cards of one rank) or a run (three or
more cards of one suit in rank order, no rank twice, at most 13). Wilds stand for any card;
a wild-rank card may also be itself. Settings may limit wilds to one per meld or bar
melds made only of wilds.
"""

from collections import Counter
from itertools import product
from typing import NamedTuple

from .cards import ACE_ON_TOP, KING, MAX_RUN, RANK_TEXT, SYMBOL, Card, CardError, order, pretty, rank_at, run_places
from .i18n import _, listing, ngettext
from .limits import MAX_HAND, MAX_MELDS_FIELD
from .rules import DEFAULT
from .solver import Meld, solve


NOT_ONE_SUIT = object()     # a reason that gives way to any other


class MeldCheck(NamedTuple):
    """The verdict on one claimed meld: the meld as it plays when valid, else the reason."""
    cards: tuple
    ok: bool
    meld: Meld | None
    reason: str


class ClaimCheck(NamedTuple):
    """The verdict on a claim about a hand: each claimed meld, and whether the claim holds."""
    holds: bool
    verdict: str
    melds: tuple          # MeldCheck for each claimed meld
    claimed_penalty: int | None    # what the claimed melds leave, when they are all valid
    minimum: int
    solution: object


def place_name(suit, place):
    return RANK_TEXT[rank_at(place)] + SYMBOL[suit]


def as_set(naturals, stand_ins):
    """A set of the naturals' rank, or None."""
    ranks = {c.rank for c in naturals}
    if len(ranks) != 1:
        return None
    rank = ranks.pop()
    return Meld('set', tuple(naturals) + tuple(stand_ins),
                tuple(naturals) + tuple(Card(rank, '') for _ in stand_ins))


def places_in_run(naturals, size, rules):
    """Places (1 to ACE_ON_TOP) for the naturals in a run of `size` cards, as (low place, {place:
    card}), or a reason."""
    suits = {c.suit for c in naturals}
    if len(suits) > 1:
        return None, NOT_ONE_SUIT
    if size > MAX_RUN:
        return None, _('a run holds at most %(most)d cards', most=MAX_RUN)
    aces_high = rules.aces == 'high_or_low'
    top = ACE_ON_TOP if aces_high else KING
    counts = Counter(c.rank for c in naturals)
    twice = [r for r, n in counts.items() if n > 1]
    if twice:
        suit = suits.pop()
        return None, _('%(card)s twice', card=place_name(suit, twice[0]))
    options = [run_places(c.rank, aces_high) for c in naturals]
    reasons = []
    ranks = set(counts)
    if 1 in ranks and ranks & {12, KING}:
        if not aces_high and not ranks & {2, 3}:
            return None, _('aces are low in this game, so A does not follow K')
        if ranks & {2, 3}:
            return None, _('a run never wraps round from K to A to 2')
    for places in product(*options):
        if len(set(places)) < len(places):
            continue
        lo, hi = min(places), max(places)
        span = hi - lo + 1
        if span > size:
            suit = naturals[0].suit
            missing = [place_name(suit, p) for p in range(lo, hi) if p not in places]
            wilds = size - len(naturals)
            has = _('it has no wild') if wilds == 0 else ngettext('it has %(num)d wild', 'it has %(num)d wilds', wilds)
            reasons.append((len(missing), ngettext('%(cards)s is missing and %(has)s',
                                                   '%(cards)s are missing and %(has)s', len(missing),
                                                   cards=listing(missing), has=has)))
            continue
        low = max(1, min(lo, top - size + 1))
        return (low, dict(zip(places, naturals))), ''
    return None, min(reasons)[1] if reasons else _('no such run')


def as_run(naturals, stand_ins, rules):
    """A run made of the naturals with the stand-ins filling its gaps, or (None, reason)."""
    size = len(naturals) + len(stand_ins)
    found, reason = places_in_run(naturals, size, rules)
    if not found:
        return None, reason
    low, taken = found
    suit = naturals[0].suit
    free = list(stand_ins)
    cards, plays = [], []
    for place in range(low, low + size):
        plays.append(Card(rank_at(place), suit))
        cards.append(taken[place] if place in taken else free.pop(0))
    return Meld('run', tuple(cards), tuple(plays)), ''


def check_meld(cards, wild, rules=DEFAULT):
    """Whether the cards form one valid meld; the meld as it plays, or the reason in words."""
    cards = tuple(cards)
    shown = pretty(cards)
    if len(cards) < 3:
        return MeldCheck(cards, False, None, _('%(cards)s is not a meld: %(reason)s', cards=shown,
                                               reason=_('a meld needs at least 3 cards')))
    flexible = [c for c in cards if c.rank == wild]
    run_reasons, limit_reasons = [], []
    # Try the most cards used as themselves first: it needs the fewest stand-ins.
    for roles in sorted(product((True, False), repeat=len(flexible)), key=lambda r: -sum(r)):
        own_roles = dict(zip(range(len(flexible)), roles))
        naturals, stand_ins, i = [], [], 0
        for c in cards:                       # in the order claimed
            if c.rank == wild:
                (naturals if own_roles[i] else stand_ins).append(c)
                i += 1
            else:
                (stand_ins if c.is_joker else naturals).append(c)
        if rules.max_wilds_per_meld is not None and len(stand_ins) > rules.max_wilds_per_meld:
            limit_reasons.append(_('it has %(count)d wilds standing in and this game allows %(most)d per meld',
                                   count=len(stand_ins), most=rules.max_wilds_per_meld))
            continue
        if not naturals:
            if rules.all_wild_melds:
                return MeldCheck(cards, True, Meld('set', cards, tuple(Card(wild or 1, '') for c in cards)), '')
            limit_reasons.append(_('it is only wilds and this game needs a card used as itself in every meld'))
            continue
        meld = as_set(naturals, stand_ins)
        if meld:
            return MeldCheck(cards, True, meld, '')
        meld, why = as_run(naturals, stand_ins, rules)
        if meld:
            return MeldCheck(cards, True, meld, '')
        run_reasons.append(why)
    what, reason = why_not(cards, wild, run_reasons, limit_reasons)
    message = (_('%(cards)s is not a run: %(reason)s', cards=shown, reason=reason) if what == 'run' else
               _('%(cards)s is not a meld: %(reason)s', cards=shown, reason=reason))
    return MeldCheck(cards, False, None, message)


def why_not(cards, wild, run_reasons, limit_reasons):
    """The clearest reason among those found while trying every role of the wilds."""
    if not run_reasons:
        return 'meld', limit_reasons[0]
    naturals = [c for c in cards if not c.is_joker and c.rank != wild]
    if len({c.suit for c in naturals}) <= 1:
        useful = [r for r in run_reasons if r is not NOT_ONE_SUIT]
        return 'run', useful[0] if useful else _('not all one suit')
    if limit_reasons:
        return 'meld', limit_reasons[0]
    return 'meld', _('not all one rank (a set) nor all one suit (a run)')


def parse_melds(text, parse):
    """Claimed melds typed as cards with '|' between melds: '7H 8H 9H | KS KD KC'.

    A claim is read only within the limits a hand has (MAX_MELDS_FIELD characters, MAX_HAND cards
    in all), checked here for every reader (form, API, command line): checking a claim tries every
    role of its wild-rank cards, so an unbounded one could keep a server busy for seconds.
    """
    if len(text) > MAX_MELDS_FIELD:
        raise CardError(_('at most %(most)d characters, not %(count)d', most=MAX_MELDS_FIELD, count=len(text)))
    melds = [parse(part) for part in text.split('|') if part.strip()]
    held = sum(len(m) for m in melds)
    if held > MAX_HAND:
        raise CardError(_('%(count)d cards in all, but a hand holds at most %(most)d', count=held, most=MAX_HAND))
    return melds


def check_claim(hand, wild, rules=DEFAULT, melds=None, score=None, solution=None):
    """Check a claimed arrangement (melds) and/or a claimed score against the minimal penalty
    (`solution`: the hand's, when it is solved already)."""
    solution = solution or solve(hand, wild, rules)
    minimum = solution.penalty
    checks = tuple(check_meld(m, wild, rules) for m in (melds or []))
    lines, holds = [], True
    claimed_penalty = None
    if melds:
        bad = [c for c in checks if not c.ok]
        extra = Counter(c for m in melds for c in m) - Counter(hand)
        if bad:
            holds = False
            lines.append('; '.join(c.reason for c in bad))
        if extra:
            holds = False
            held = Counter(hand)
            for c in sorted(extra, key=order):
                if not held[c]:
                    lines.append(_('%(card)s is not in the hand', card=c.pretty))
                else:
                    claimed = held[c] + extra[c]
                    lines.append(_('%(card)s is claimed %(claimed)d times but the hand holds %(held)d',
                                   card=c.pretty, claimed=claimed, held=held[c]))
        if not bad and not extra:
            left = Counter(hand) - Counter(c for m in melds for c in m)
            leftover = sorted(left.elements(), key=order)
            claimed_penalty = sum(rules.value(c, wild) for c in leftover)
            if claimed_penalty == minimum:
                lines.append(_('the melds hold: they leave %(points)d, the minimum', points=claimed_penalty))
            else:
                holds = False
                lines.append(_('the melds leave %(points)d; the minimum is %(minimum)d',
                               points=claimed_penalty, minimum=minimum) + also_melds(solution, melds))
    if score is not None:
        if score == minimum:
            lines.append(_('claimed %(score)d: that is the minimum', score=score))
        else:
            holds = False
            hint = also_melds(solution, melds or []) if score > minimum else ''
            lines.append(_('claimed %(score)d, the minimum is %(minimum)d', score=score, minimum=minimum) + hint)
    return ClaimCheck(holds, '; '.join(lines), checks, claimed_penalty, minimum, solution)


def also_melds(solution, claimed):
    """': 4♥ 5♥ 6♥ also melds' — the best arrangement's melds that the claim did not make."""
    claimed = [Counter(m) for m in claimed]
    others = [m for m in solution.melds if Counter(m.cards) not in claimed]
    if not others:
        return ''
    return ': ' + ngettext('%(melds)s also melds', '%(melds)s also meld', len(others),
                           melds=listing(pretty(m.cards) for m in others))
