"""Claims: a claimed meld is judged with the reason in words; a claimed score against the minimum."""

import pytest

from scorer.reading import parse_cards
from scorer.claims import check_claim, check_meld, parse_melds
from scorer.rules import DEFAULT, make_rules


def cards(t):
    return parse_cards(t, jokers=4)


@pytest.mark.parametrize('meld, reason', [
    ('7H 9H JH', '7♥ 9♥ J♥ is not a run: 8♥ and 10♥ are missing and it has no wild'),
    ('7H 8H', '7♥ 8♥ is not a meld: a meld needs at least 3 cards'),
    ('7H 7H 8H', '7♥ 7♥ 8♥ is not a run: 7♥ twice'),
    ('7H 8S 9H', '7♥ 8♠ 9♥ is not a meld: not all one rank (a set) nor all one suit (a run)'),
    ('QS KS AS', 'Q♠ K♠ A♠ is not a run: aces are low in this game, so A does not follow K'),
    ('KS AS 2S', 'K♠ A♠ 2♠ is not a run: a run never wraps round from K to A to 2'),
    ('6H JK 10H', '6♥ 🃏 10♥ is not a run: 7♥, 8♥ and 9♥ are missing and it has 1 wild'),
])
def test_invalid_melds_say_why(meld, reason):
    check = check_meld(cards(meld), 3, DEFAULT)
    assert not check.ok
    assert check.reason == reason


def test_limits_on_wilds_say_why():
    one = make_rules(max_wilds_per_meld=1, jokers=4)
    check = check_meld(cards('JK JK 7H'), 3, one)
    assert check.reason == '🃏 🃏 7♥ is not a meld: it has 2 wilds standing in and this game allows 1 per meld'
    no_all_wild = make_rules(all_wild_melds=False, jokers=4)
    check = check_meld(cards('JK JK JK'), 3, no_all_wild)
    assert 'needs a card used as itself' in check.reason


@pytest.mark.parametrize('meld, wild, plays', [
    ('7H 8H 9H', None, '7♥ 8♥ 9♥'),
    ('7H JK 9H', None, '7♥ 8♥ 9♥'),
    ('KS KD KC', 13, 'K♠ K♦ K♣'),
    ('9C 9C 9D', None, '9♣ 9♣ 9♦'),
    ('JK JK JK', None, 'A♠ 2♠ 3♠'),      # all wild, no wild rank: a run from the foot (docs/rules.md)
    ('5S 5D JK', 5, '5♠ 6♠ 7♠'),         # all wild, a joker in it: a run where it reads as one
    ('5S 5D 5C', 5, '5♠ 5♦ 5♣'),         # all wild-rank cards as themselves: a set
])
def test_valid_melds_tell_how_they_play(meld, wild, plays):
    check = check_meld(cards(meld), wild, make_rules(jokers=4))
    assert check.ok, check.reason
    assert ' '.join(p.pretty for p in check.meld.plays) == plays


def test_aces_high_or_low_allows_q_k_a():
    assert check_meld(cards('QS KS AS'), 3, make_rules(aces='high_or_low')).ok


def test_claimed_score_against_the_minimum():
    hand = cards('4H 5H 6H 7C QS 9D')
    assert check_claim(hand, 3, DEFAULT, score=26).holds
    too_high = check_claim(hand, 3, DEFAULT, score=43)
    assert not too_high.holds
    assert too_high.verdict == 'claimed 43, the minimum is 26: 4♥ 5♥ 6♥ also melds'


def test_claimed_melds_are_checked_and_compared():
    hand = cards('4H 5H 6H 7C QS 9D')
    holds = check_claim(hand, 3, DEFAULT, melds=parse_melds('4H 5H 6H', cards))
    assert holds.holds and holds.claimed_penalty == 26
    bad = check_claim(hand, 3, DEFAULT, melds=parse_melds('4H 5H 7C', cards))
    assert not bad.holds
    assert '4♥ 5♥ 7♣ is not a meld' in bad.verdict
    none = check_claim(hand, 3, DEFAULT, melds=[])
    assert none.minimum == 26


def test_claimed_cards_must_be_in_the_hand():
    hand = cards('4H 5H 6H 7C')
    check = check_claim(hand, 3, DEFAULT, melds=parse_melds('4H 5H 6H | 7C 7C 7D', cards))
    assert not check.holds
    assert check.verdict == '7♦ is not in the hand; 7♣ is claimed 2 times but the hand holds 1'


def test_a_worse_arrangement_is_shown_the_better_one():
    hand = cards('7H 8H 9H 7S 7D')
    check = check_claim(hand, 3, DEFAULT, melds=parse_melds('7H 7S 7D', cards))
    assert not check.holds
    assert check.verdict == 'the melds leave 17; the minimum is 14: 7♥ 8♥ 9♥ also melds'


@pytest.mark.parametrize('text, message', [
    (' | '.join(['5S 5H 5D'] * 40), 'at most 300 characters, not 437'),
    ('5S 5S 5S 5H 5H 5H 5D 5D | 5D 5C 5C 5C KS KS KS | 7H 8H 9H 10H JH QH', '21 cards in all, but a hand holds at most 15'),
], ids=['too long', 'too many cards'])
def test_a_claim_is_read_only_within_the_limits_of_a_hand(text, message):
    """Checking a claimed meld tries every role of its wild-rank cards: a claim is bounded by a hand."""
    with pytest.raises(ValueError, match=message):
        parse_melds(text, lambda t: parse_cards(t, decks=3))


@pytest.mark.parametrize('melds, score, holds, verdict', [
    ('4H 5H 6H', 26, True, 'the melds leave 26, the minimum, as claimed'),
    ('4H 5H 6H', 20, False, 'claimed 20, but these melds leave 26, which is the minimum'),
    ('', 20, False, 'claimed 20, the minimum is 26'),
    ('', 26, True, 'claimed 26: that is the minimum'),
], ids=['both right', 'score wrong', 'score only wrong', 'score only right'])
def test_a_verdict_is_one_sentence(melds, score, holds, verdict):
    """Issue 35: "Does not hold: the melds hold: …" said both of one claim. The verdict says once what
    is wrong, and never calls a part of a claim that does not hold right."""
    hand = cards('4H 5H 6H 7C QS 9D')
    check = check_claim(hand, 3, DEFAULT, melds=parse_melds(melds, cards) if melds else None, score=score)
    assert (check.holds, check.verdict) == (holds, verdict)
    if not holds:
        assert 'hold' not in check.verdict


def test_melds_that_leave_more_with_the_score_they_leave():
    hand = cards('7H 8H 9H 7S 7D')
    check = check_claim(hand, 3, DEFAULT, melds=parse_melds('7H 7S 7D', cards), score=17)
    assert not check.holds
    assert check.verdict == 'the melds leave 17, as claimed, but the minimum is 14: 7♥ 8♥ 9♥ also melds'
    check = check_claim(hand, 3, DEFAULT, melds=parse_melds('7H 7S 7D', cards), score=14)
    assert check.verdict == 'claimed 14, which is the minimum, but these melds leave 17: 7♥ 8♥ 9♥ also melds'


@pytest.mark.parametrize('hand, melds, verdict', [
    ('3H 4H 5H 6H', '3H 4H 5H', 'claimed 0, which is the minimum, but these melds leave 6: 6♥ also melds'),
    ('3H 4H 5H 6H 7H', '3H 4H 5H', 'claimed 0, which is the minimum, but these melds leave 13: 6♥ and 7♥ also meld'),
    ('7H 8H 9H 7S 7D', '7H 7S 7D', 'claimed 0 and the melds leave 17; the minimum is 14: 7♥ 8♥ 9♥ also melds'),
], ids=['one card more', 'two cards more', 'another meld'])
def test_a_claims_hint_says_only_what_is_missed(hand, melds, verdict):
    check = check_claim(cards(hand), None, DEFAULT, melds=parse_melds(melds, cards), score=0)
    assert check.verdict == verdict
