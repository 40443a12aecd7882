"""Claims: is a claimed meld valid (and if not, why, in words), and does a claimed score hold?

Whether a group of cards is a meld is decided by the meld rule (scorer/melds.py), the same that
every arrangement of the solver is held to; this module only puts its verdict and its faults
into words, and compares what the claimed melds leave with the minimal penalty.
"""

from collections import Counter
from typing import NamedTuple

from .cards import RANK_TEXT, SYMBOL, CardError, order, pretty, rank_at
from .i18n import _, listing, ngettext
from .limits import MAX_HAND, MAX_MELDS_FIELD
from .melds import Meld, faults, meld_of
from .rules import DEFAULT
from .solver import solve


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


RUN_FAULTS = {'twice', 'long', 'gap', 'aces_low', 'wrap'}
LIMIT_FAULTS = {'wilds', 'all_wild'}
SET_FAULTS = {'suit_twice', 'set_long'}       # a set whose suits must differ (`set_suits`)


def check_meld(cards, wild, rules=DEFAULT):
    """Whether the cards form one valid meld (the meld rule, scorer/melds.py): the meld as it plays,
    or the reason in words."""
    cards = tuple(cards)
    meld = meld_of(cards, wild, rules)
    if meld is not None:
        return MeldCheck(cards, True, meld, '')
    fault = clearest(faults(cards, wild, rules))
    template = (_('%(cards)s is not a run: %(reason)s') if fault[0] in RUN_FAULTS else
                (_('%(cards)s is not a book: %(reason)s') if rules.deck.set_word == 'book' else
                 _('%(cards)s is not a set: %(reason)s')) if fault[0] in SET_FAULTS else
                _('%(cards)s is not a meld: %(reason)s'))
    return MeldCheck(cards, False, None, template % {'cards': pretty(cards), 'reason': fault_words(fault)})


def clearest(found):
    """The fault that says most: the rules' limit on wilds, where the cards would meld without it
    (the fewest stand-ins), else what stops a run of their suit, else that they share no rank or suit."""
    limits = [f for f in found if f[0] in LIMIT_FAULTS]
    if limits:
        return min(limits, key=lambda f: f[1] if f[0] == 'wilds' else 0)
    runs = [f for f in found if f[0] in RUN_FAULTS]
    return runs[0] if runs else found[0]


def fault_words(fault):
    """A fault of scorer.melds in words."""
    kind = fault[0]
    if kind == 'short':
        return _('a meld needs at least 3 cards')
    if kind == 'wilds':
        return ngettext('it has %(count)d wild standing in and this game allows %(most)d per meld',
                        'it has %(count)d wilds standing in and this game allows %(most)d per meld', fault[1],
                        count=fault[1], most=fault[2])
    if kind == 'all_wild':
        return _('it is only wilds and this game needs a card used as itself in every meld')
    if kind == 'twice':
        return _('%(card)s twice', card=fault[1].pretty)
    if kind == 'suit_twice':
        return _('%(suit)s twice, and in this game each card is of a different suit', suit=SYMBOL[fault[1].suit])
    if kind == 'set_long':
        return ngettext('at most %(most)d card, one of each suit', 'at most %(most)d cards, one of each suit',
                        fault[1], most=fault[1])
    if kind == 'long':
        return ngettext('a run holds at most %(most)d card', 'a run holds at most %(most)d cards', fault[1], most=fault[1])
    if kind == 'aces_low':
        return _('aces are low in this game, so A does not follow K')
    if kind == 'wrap':
        return _('a run never wraps round from K to A to 2') if fault[1] == 1 else \
            _('a run never wraps round from K to %(foot)s', foot=RANK_TEXT[fault[1]])
    if kind == 'gap':
        _kind, missing, suit, wilds = fault
        names = [place_name(suit, p) for p in missing]
        has = _('it has no wild') if wilds == 0 else ngettext('it has %(num)d wild', 'it has %(num)d wilds', wilds)
        return ngettext('%(cards)s is missing and %(has)s', '%(cards)s are missing and %(has)s', len(names),
                        cards=listing(names), has=has)
    return _('not all one rank (a set) nor all one suit (a run)')


def parse_melds(text, parse):
    """Claimed melds typed as cards with '|' between melds: '7H 8H 9H | KS KD KC'.

    A claim is read only within the limits a hand has (MAX_MELDS_FIELD characters, MAX_HAND cards
    in all), checked here for every reader (form, API, command line): checking a claim tries every
    role of its wild-rank cards, so an unbounded one could keep a server busy for seconds.
    """
    if len(text) > MAX_MELDS_FIELD:
        raise CardError(ngettext('at most %(most)d character, not %(count)d', 'at most %(most)d characters, not %(count)d',
                MAX_MELDS_FIELD, most=MAX_MELDS_FIELD, count=len(text)))
    melds = [parse(part) for part in text.split('|') if part.strip()]
    held = sum(len(m) for m in melds)
    if held > MAX_HAND:
        raise CardError(ngettext('%(count)d card in all, but a hand holds at most %(most)d',
                                 '%(count)d cards in all, but a hand holds at most %(most)d', held,
                                 count=held, most=MAX_HAND))
    return melds


def check_claim(hand, wild, rules=DEFAULT, melds=None, score=None, solution=None):
    """Check a claimed arrangement (melds) and/or a claimed score against the minimal penalty
    (`solution`: the hand's, when it is solved already). The verdict is one sentence: what is wrong
    when the claim does not hold, and never that a part of it holds beside that."""
    solution = solution or solve(hand, wild, rules)
    minimum = solution.penalty
    checks = tuple(check_meld(m, wild, rules) for m in (melds or []))
    claimed_penalty = None
    problems = []
    if melds:
        problems = [c.reason for c in checks if not c.ok] + not_in_hand(hand, melds)
        if not problems:
            left = Counter(hand) - Counter(c for m in melds for c in m)
            claimed_penalty = sum(rules.value(c, wild) for c in left.elements())
    holds, verdict = judge(claimed_penalty, score, minimum, problems)
    worse = claimed_penalty > minimum if claimed_penalty is not None else score is not None and score > minimum
    if not holds and worse:
        verdict += also_melds(solution, melds or [])
    return ClaimCheck(holds, verdict, checks, claimed_penalty, minimum, solution)


def judge(left, score, minimum, problems):
    """(holds, the verdict's one sentence) from what is wrong with the claimed melds (`problems`),
    what they leave (`left`: None when no melds are claimed), the claimed score and the minimum."""
    if problems:
        wrong = '; '.join(problems)
        if score is not None and score != minimum:
            wrong += '; ' + _('claimed %(score)d, the minimum is %(minimum)d', score=score, minimum=minimum)
        return False, wrong
    if left is None:
        if score is None:
            return True, ''
        if score == minimum:
            return True, _('claimed %(score)d: that is the minimum', score=score)
        return False, _('claimed %(score)d, the minimum is %(minimum)d', score=score, minimum=minimum)
    if score is None:
        if left == minimum:
            return True, _('the melds leave %(points)d, the minimum', points=left)
        return False, _('the melds leave %(points)d; the minimum is %(minimum)d', points=left, minimum=minimum)
    if left == minimum == score:
        return True, _('the melds leave %(points)d, the minimum, as claimed', points=left)
    if left == minimum:
        return False, _('claimed %(score)d, but these melds leave %(points)d, which is the minimum',
                        score=score, points=left)
    if score == left:
        return False, _('the melds leave %(points)d, as claimed, but the minimum is %(minimum)d',
                        points=left, minimum=minimum)
    if score == minimum:
        return False, _('claimed %(score)d, which is the minimum, but these melds leave %(points)d',
                        score=score, points=left)
    return False, _('claimed %(score)d and the melds leave %(points)d; the minimum is %(minimum)d',
                    score=score, points=left, minimum=minimum)


def not_in_hand(hand, melds):
    """What the claimed melds take that the hand does not hold, in words."""
    extra = Counter(c for m in melds for c in m) - Counter(hand)
    held = Counter(hand)
    lines = []
    for c in sorted(extra, key=order):
        if not held[c]:
            lines.append(_('%(card)s is not in the hand', card=c.pretty))
        else:
            lines.append(ngettext('%(card)s is claimed %(claimed)d time but the hand holds %(held)d',
                                  '%(card)s is claimed %(claimed)d times but the hand holds %(held)d',
                                  held[c] + extra[c], card=c.pretty, claimed=held[c] + extra[c], held=held[c]))
    return lines


def also_melds(solution, claimed):
    """': 6♥ also melds' — what the best arrangement melds that the claim missed: the cards a best
    meld adds to a claimed meld it holds (3♥ 4♥ 5♥ claimed, 3♥ 4♥ 5♥ 6♥ best: 6♥), or else the
    whole best meld the claim did not make (the punctuation is the message's: Spanish puts it in
    brackets)."""
    claimed = [Counter(m) for m in claimed]
    missed = []
    for m in solution.melds:
        cards = Counter(m.cards)
        if cards in claimed:
            continue
        inside = [c for c in claimed if not c - cards]
        if inside:
            missed += [c.pretty for c in sorted((cards - max(inside, key=lambda c: c.total())).elements(), key=order)]
        else:
            missed.append(pretty(m.cards))
    if not missed:
        return ''
    return ngettext(': %(melds)s also melds', ': %(melds)s also meld', len(missed), melds=listing(missed))
