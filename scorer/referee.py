"""What a referee says about a hand: the melds, what each wild stands for, the deadwood, the penalty.

Plain words with suit symbols, for the command line and the pages; and the same facts as
plain data (canonical card text) for JSON.
"""

from .cards import pretty, rank_plural
from .i18n import _


def wild_words(wild, rules):
    """'fives are wild' / 'jokers are wild' / 'fives and jokers are wild'."""
    if wild and rules.jokers:
        return _('%(rank)s and jokers are wild', rank=rank_plural(wild))
    if wild:
        return _('%(rank)s are wild', rank=rank_plural(wild))
    return _('jokers are wild') if rules.jokers else _('nothing is wild')


def kind_word(kind):
    """'set' or 'run', in the table's language."""
    return _('set') if kind == 'set' else _('run')


def meld_words(meld):
    """'run 5♣ 7♥ 8♥ 9♥, 5♣ as 6♥' — a meld and what each wild in it stands for."""
    line = f'{kind_word(meld.kind)} {pretty(meld.cards)}'
    stands = [_('%(card)s as %(plays)s', card=c.pretty, plays=p.pretty) for c, p in zip(meld.cards, meld.plays) if c != p]
    return line + (', ' + ', '.join(stands) if stands else '')


def deadwood_words(solution, wild, rules):
    """'K♠ 10 + 5♣ 15 = 25'."""
    parts = [f'{c.pretty} {rules.value(c, wild)}' for c in solution.deadwood]
    if len(parts) == 1:
        return parts[0]
    return ' + '.join(parts) + f' = {solution.penalty}'


def say(solution, wild, rules):
    """The referee's lines for one solved hand."""
    lines = [meld_words(m)[0].upper() + meld_words(m)[1:] for m in solution.melds]
    if solution.deadwood:
        lines.append(_('Deadwood: %(cards)s', cards=deadwood_words(solution, wild, rules)))
        lines.append(_('Penalty: %(points)d', points=solution.penalty))
    else:
        lines.append(_('Every card melds: penalty 0'))
    return lines


def as_data(solution):
    """The solution as JSON-ready data with canonical card text."""
    return {
        'penalty': solution.penalty,
        'melds': [{'kind': m.kind, 'cards': [str(c) for c in m.cards], 'as': [str(p) for p in m.plays]}
                  for m in solution.melds],
        'deadwood': [str(c) for c in solution.deadwood],
    }
