"""What a referee says about a hand: the melds, what each wild stands for, the deadwood, the
penalty; whether the hand can go out; and whether a claimed score or claimed melds hold: audit()
-> Audit, what the command line, /audit and /api/audit say.

audit() gathers it all into one Audit value: the command line prints it (lines()), /audit
shows it and /api/audit sends it as JSON (audit_data(), the solution as query.as_data() writes it).
"""

from typing import NamedTuple

from .cards import Card, pretty, rank_plural, rank_text
from .claims import ClaimCheck, check_claim
from .i18n import _, listing, ngettext
from .rules import DEFAULT, Rules
from .query import as_data
from .solver import Solution, arrangements, best_discard, counted


class GoOut(NamedTuple):
    """A hand of one card more than the round deals: which discards go out, or the best one."""
    discards: tuple             # every card whose discard leaves a hand that melds completely
    best: Card | None = None    # the best discard, when none goes out
    left: int = 0               # the penalty the best discard still leaves

    @property
    def can(self):
        return bool(self.discards)


class Audit(NamedTuple):
    """Everything the referee says about one hand."""
    hand: tuple
    wild: int | None
    round: int | None
    rules: Rules
    solution: Solution
    others: bool                # another arrangement also reaches the minimal penalty
    claim: ClaimCheck | None
    go_out: GoOut | None

    @property
    def notes(self):
        """Settings given that cannot take effect on this hand (Rules.idle)."""
        return self.rules.idle(self.wild)

    @property
    def lying(self):
        """The hand counted as it lies (leftovers `as_they_lie`: every card deadwood, their plain sum),
        beside the minimal penalty; None when the rules count the minimum."""
        return counted(self.hand, self.wild, self.rules) if self.rules.as_they_lie else None

    @property
    def intro(self):
        """'Round 3: 5 cards, fives are wild.'"""
        words = wild_words(self.wild, self.rules)
        size = self.rules.hand_size(self.round) if self.round else 0
        line = (ngettext('Round %(round)d: %(size)d card, %(wild)s.', 'Round %(round)d: %(size)d cards, %(wild)s.',
                         size, round=self.round, size=size, wild=words) if self.round else words + '.')
        return line[0].upper() + line[1:]


def audit(hand, wild, rules=DEFAULT, round=None, claim_score=None, claim_melds=None):
    """The referee's whole word on a hand; `round` (when known) also checks going out."""
    hand = tuple(hand)
    found = arrangements(hand, wild, rules, count=2)
    claim = None
    if claim_score is not None or claim_melds is not None:
        claim = check_claim(hand, wild, rules, melds=claim_melds, score=claim_score, solution=found[0])
    go_out = None
    if round and len(hand) == rules.hand_size(round) + 1:
        go_out = go_out_check(hand, wild, rules, found[0].penalty)
    return Audit(hand, wild, round, rules, found[0], len(found) > 1, claim, go_out)


def go_out_check(hand, wild, rules=DEFAULT, whole=None):
    """Which discards leave a hand that melds completely; if none, the discard that leaves least."""
    discards, best, left = best_discard(hand, wild, rules, whole)
    return GoOut(tuple(discards), best, left)


def wild_words(wild, rules):
    """'fives are wild' / 'jokers are wild' / 'fives and jokers are wild'."""
    if wild and rules.jokers:
        return _('%(rank)s and jokers are wild', rank=rank_plural(wild))
    if wild:
        return _('%(rank)s are wild', rank=rank_plural(wild))
    return _('jokers are wild') if rules.jokers else _('nothing is wild')


def kind_word(kind, rules=DEFAULT):
    """'set' or 'run', in the table's language; Five Crowns' word for a set is 'book' (its deck's set_word)."""
    if kind != 'set':
        return _('run')
    return _('book') if rules.deck.set_word == 'book' else _('set')


def meld_words(meld, rules=DEFAULT):
    """'run 5♣ 7♥ 8♥ 9♥, 5♣ as 6♥' — a meld and what each wild in it stands for."""
    line = f'{kind_word(meld.kind, rules)} {pretty(meld.cards)}'
    stands = [_('%(card)s as %(plays)s', card=c.pretty, plays=p.pretty) for c, p in zip(meld.cards, meld.plays) if c != p]
    return line + (', ' + ', '.join(stands) if stands else '')


def deadwood_words(solution, wild, rules):
    """'K♠ 10 + 5♣ 15 = 25'."""
    parts = [f'{c.pretty} {rules.value(c, wild)}' for c in solution.deadwood]
    if len(parts) == 1:
        return parts[0]
    return ' + '.join(parts) + f' = {solution.penalty}'


def solution_lines(solution, wild, rules):
    """The referee's lines for one solved hand."""
    lines = [capital(meld_words(m, rules)) for m in solution.melds]
    if solution.deadwood:
        lines.append(_('Deadwood: %(cards)s', cards=deadwood_words(solution, wild, rules)))
        lines.append(_('Penalty: %(points)d', points=solution.penalty))
    else:
        lines.append(_('Every card melds: penalty 0'))
    return lines


def capital(line):
    return line[:1].upper() + line[1:]


def lines(result):
    """The audit as lines of text, for the command line."""
    out = [result.intro, _('Hand: %(cards)s', cards=pretty(result.hand))]
    out += solution_lines(result.solution, result.wild, result.rules)
    if result.lying:
        out.append(lying_line(result))
    if result.go_out:
        if result.go_out.can:
            out.append(_('Goes out by discarding %(cards)s.',
                         cards=listing((c.pretty for c in result.go_out.discards), alternatives=True)))
        else:
            out.append(_('Cannot go out: the best discard, %(card)s, still leaves %(points)d.',
                         card=result.go_out.best.pretty, points=result.go_out.left))
    if result.claim:
        verdict = _('Claim holds: %(why)s') if result.claim.holds else _('Claim does not hold: %(why)s')
        out.append(verdict % {'why': result.claim.verdict})
    out += [_('Note: %(note)s', note=note) for note in result.notes]
    return out


def lying_line(result):
    """'Counted as they lie: 9♥ 9 + 7♥ 20 + 🃏 50 = 79 (the minimum: 0)'."""
    return _('Counted as they lie: %(cards)s (the minimum: %(minimum)d)',
             cards=deadwood_words(result.lying, result.wild, result.rules), minimum=result.solution.penalty)


def audit_data(result):
    """The audit as JSON-ready data: what /audit shows, with canonical card text."""
    value = result.rules.value
    data = {
        'intro': result.intro,
        'hand': [str(c) for c in result.hand],
        'wild': rank_text(result.wild) if result.wild else None,
        'round': result.round,
        **as_data(result.solution),
        'deadwood_values': [value(c, result.wild) for c in result.solution.deadwood],
        **({'notes': result.notes} if result.notes else {}),
        **({'as_they_lie': result.lying.penalty} if result.lying else {}),
        'other_arrangements': result.others,
        'go_out': None,
        'claim': None,
    }
    if result.go_out:
        data['go_out'] = {'can': result.go_out.can, 'discards': [str(c) for c in result.go_out.discards],
                          'best': str(result.go_out.best) if result.go_out.best else None,
                          'left': result.go_out.left}
    if result.claim:
        c = result.claim
        data['claim'] = {'holds': c.holds, 'verdict': c.verdict, 'minimum': c.minimum,
                         'claimed_penalty': c.claimed_penalty,
                         'melds': [{'cards': [str(x) for x in m.cards], 'ok': m.ok, 'reason': m.reason,
                                    'kind': m.meld.kind if m.meld else None} for m in c.melds]}
    return data
