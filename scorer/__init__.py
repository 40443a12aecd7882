"""Three-Thirteen: cards, rules, the exact meld solver, claims and the scoresheet. No Flask here."""

from .cards import JOKER, Card, CardError, pretty, text
from .melds import Meld
from .reading import parse_cards
from .rules import DEFAULT, PRESETS, Rules, RulesError, make_rules
from .solver import Solution, discards_to_go_out, goes_out, penalty, solve

__all__ = ['Card', 'CardError', 'JOKER', 'parse_cards', 'pretty', 'text', 'DEFAULT', 'PRESETS',
           'Rules', 'RulesError', 'make_rules', 'Meld', 'Solution', 'solve', 'penalty',
           'goes_out', 'discards_to_go_out']
