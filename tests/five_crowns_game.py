"""A whole Five Crowns game for three players, each hand scored by hand (docs/rules.md, "Five
Crowns"): the round's wild rank is its hand size, every joker is wild, 3-10 count their face, J 11,
Q 12, K 13, a wild-rank card left 20, a joker 50. One player goes out each round (0); the others'
cards are what they held. tests/test_five_crowns_game.py taps it in at 360 x 740 and
tests/test_five_crowns_everywhere.py posts it and follows it to every screen."""

PLAYERS = ['Ana', 'Bruno', 'Carla']

# (round, who went out, {seat: cards}, {seat: penalty}), with the reasoning in the comments.
ROUNDS = [
    # Round 1: 3 cards, 3s wild.
    # Bruno 4♥ 9♠ K★: three ranks, three suits, no wild: 4 + 9 + 13 = 26.
    # Carla 3♦ 7♣ 8♠: 3♦ is wild, but 7♣ and 8♠ share no suit or rank: 20 + 7 + 8 = 35.
    (1, 0, {1: '4H 9S KX', 2: '3D 7C 8S'}, {1: 26, 2: 35}),
    # Round 2: 4 cards, 4s wild.
    # Ana 7★ 8★ 9★ K♥: the run 7-8-9★, the king left: 13.
    # Carla 🃏 5♠ 5♥ Q♦: the book 5♠ 5♥ 🃏, the queen left: 12.
    (2, 1, {0: '7X 8X 9X KH', 2: 'JK 5S 5H QD'}, {0: 13, 2: 12}),
    # Round 3: 5 cards, 5s wild.
    # Ana 3♠ 4♠ 5♥ 10♦ 10♣: the wild 5♥ makes the run 3-4-5♠ (10 + 10 left, 20) or the book
    #   10♦ 10♣ 5♥ (3 + 4 left): 7.
    # Bruno 6♥ 7♥ 9♥ J★ Q★: no 8♥ and no wild: 6 + 7 + 9 + 11 + 12 = 45.
    (3, 2, {0: '3S 4S 5H 10D 10C', 1: '6H 7H 9H JX QX'}, {0: 7, 1: 45}),
    # Round 4: 6 cards, 6s wild.
    # Bruno 8♦ 8♣ 8★ 6♠ K♥ 4♠: the book of eights takes the wild 6♠ too (a wild left costs 20);
    #   K♥ 4♠ left: 17.
    # Carla 10★ J★ Q★ K★ 3♣ 4♦: the run 10-K★, 3 + 4 left: 7.
    (4, 0, {1: '8D 8C 8X 6S KH 4S', 2: '10X JX QX KX 3C 4D'}, {1: 17, 2: 7}),
    # Round 5: 7 cards, 7s wild.
    # Ana 3♥ 3♦ 3★ 9♣ 10♣ J♣ 5♠: the book of threes, the run 9-10-J♣, 5♠ left: 5.
    # Carla 🃏 🃏 4♦ 9♠ K★ Q♥ 8♣: no two of the five naturals share a suit or a rank, so the jokers
    #   meld one of them (the costliest, K★): 4 + 9 + 12 + 8 = 33.
    (5, 1, {0: '3H 3D 3X 9C 10C JC 5S', 2: 'JK JK 4D 9S KX QH 8C'}, {0: 5, 2: 33}),
    # Round 6: 8 cards, 8s wild.
    # Ana 4★ 5★ 6★ 7★ 8♥ 10★ K♠ K♦: the run 4-7★; the wild 8♥ makes the book K♠ K♦ 8♥ (10★ left)
    #   or the run 4-8★ (its 9 missing for 10★; the kings left, 26): 10.
    # Bruno 3♣ 3♣ 5♦ 5♦ 7♥ 7♥ 9♠ 🃏: the joker makes a book of one pair, the dearest (7♥ 7♥):
    #   3 + 3 + 5 + 5 + 9 = 25.
    (6, 2, {0: '4X 5X 6X 7X 8H 10X KS KD', 1: '3C 3C 5D 5D 7H 7H 9S JK'}, {0: 10, 1: 25}),
    # Round 7: 9 cards, 9s wild.
    # Bruno 3♠ 4♠ 5♠ 6♠ 7♠ Q♠ 10♥ 10♦ 10★: the run 3-7♠, the book of tens, Q♠ left: 12.
    # Carla 9♦ 9♥ K♣ K♣ J♠ J♦ 4♥ 6♥ 8♥: two wilds; the books K♣ K♣ 9 and J♠ J♦ 9 leave
    #   4♥ 6♥ 8♥ (18); the run 4-8♥ takes both (the kings and jacks left, 48): 18.
    (7, 0, {1: '3S 4S 5S 6S 7S QS 10H 10D 10X', 2: '9D 9H KC KC JS JD 4H 6H 8H'}, {1: 12, 2: 18}),
    # Round 8: 10 cards, 10s wild.
    # Ana 🃏 🃏 🃏 3♥ 4♣ 5♦ 6♠ 7★ 9♥ K♦: three jokers, but no two naturals share a rank, and the only
    #   two of a suit (3♥ 9♥) need five between them: the jokers meld K♦ alone;
    #   3 + 4 + 5 + 6 + 7 + 9 = 34.
    # Carla 10♠ 5♠ J★ Q★ 3♦ 3♣ 3♥ 8♣ 8♦ 9♥: the book of threes; the wild 10♠ makes J★ Q★ a run
    #   (8 + 8 + 5 + 9 left, 30) or 8♣ 8♦ a book (11 + 12 + 5 + 9 left, 37): 30.
    (8, 1, {0: 'JK JK JK 3H 4C 5D 6S 7X 9H KD', 2: '10S 5S JX QX 3D 3C 3H 8C 8D 9H'}, {0: 34, 2: 30}),
    # Round 9: 11 cards, jacks wild.
    # Ana 3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9★ 10♠ J♠ Q♠ K♠: the runs 3-8♠ and 10-K♠ (J♠ as itself), 9★ left: 9
    #   (the jack standing in for 9♠ leaves Q♠ K♠ 9★, 34).
    # Bruno 3★ 3★ 4♥ 4♥ 5♦ 5♦ J♣ J♦ 6♣ 7♣ 8♣: the run 6-8♣; the two wild jacks make books of two
    #   of the three pairs: the threes left, 3 + 3 = 6.
    (9, 2, {0: '3S 4S 5S 6S 7S 8S 9X 10S JS QS KS', 1: '3X 3X 4H 4H 5D 5D JC JD 6C 7C 8C'}, {0: 9, 1: 6}),
    # Round 10: 12 cards, queens wild.
    # Bruno Q♥ 🃏 3♣ 5♣ 7♣ 9♣ K♥ K♦ K★ 10♠ 10♦ 6♦: two wilds; the book of kings; a wild makes
    #   10♠ 10♦ a book, or stands in a gap of the clubs (3♣ _ 5♣, 7♣ _ 9♣: two runs, one wild each);
    #   the tens' book and 7-8-9♣ leave 3 + 5 + 6 = 14 (3-5♣ and 7-9♣ leave the tens and 6♦, 26).
    # Carla 4♦ 4♦ 4♠ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ 3★ 8♠ 8★: the book of fours; the run 6-J♥ leaves
    #   3★ 8♠ 8★ (19); the book 8♠ 8★ 8♥ with the run 9-J♥ leaves 6♥ 7♥ 3★: 16.
    (10, 0, {1: 'QH JK 3C 5C 7C 9C KH KD KX 10S 10D 6D', 2: '4D 4D 4S 6H 7H 8H 9H 10H JH 3X 8S 8X'},
     {1: 14, 2: 16}),
    # Round 11: 13 cards, kings wild.
    # Ana K♠ K♠ 3★ 4★ 5★ 6★ 7★ 9♦ 9♣ 9♥ Q♦ J♦ 10♠: the run 3-7★; with the two wild kings, the
    #   book of nines and J♦ Q♦ K (or 9♦ K J♦ Q♦ and 9♣ 9♥ K): 10♠ left, 10 (10♠ K♠ K♠ leaves
    #   J♦ Q♦, 23).
    # Carla 🃏 K♥ 3♠ 3♠ 3♦ 5♥ 6♥ 7♥ 8♥ Q♣ Q★ 9♠ 4♣: the book of threes, the run 5-8♥, Q♣ Q★ and a
    #   wild; the other wild joins a meld: 9♠ 4♣ left, 13 (both wilds with 9♠ leave the queens, 24).
    (11, 1, {0: 'KS KS 3X 4X 5X 6X 7X 9D 9C 9H QD JD 10S', 2: 'JK KH 3S 3S 3D 5H 6H 7H 8H QC QX 9S 4C'},
     {0: 10, 2: 13}),
]

# Ana   0 + 13 + 7 + 0 + 5 + 10 + 0 + 34 + 9 + 0 + 10 = 88, four rounds at zero
# Bruno 26 + 0 + 45 + 17 + 0 + 25 + 12 + 0 + 6 + 14 + 0 = 145, four rounds at zero
# Carla 35 + 12 + 0 + 7 + 33 + 0 + 18 + 30 + 0 + 16 + 13 = 164, three rounds at zero
TOTALS = {'Ana': 88, 'Bruno': 145, 'Carla': 164}
STANDINGS = ['Ana', 'Bruno', 'Carla']


def scores(seat):
    """A player's score of each round, in order (0 in the rounds they went out)."""
    return [penalties.get(seat, 0) for _n, _out, _cards, penalties in ROUNDS]
