"""The scoresheet: round scores, totals, zero rounds, places with the tie-break, winners, validation."""

import pytest

from scorer.rules import make_rules
from scorer.sheet import (Entry, Game, RoundError, compute_sheet, doubts, doubts_key, read_points, score_round,
                          tie_break_words)

PLAYERS = ('Ana', 'Bruno', 'Carla')


def out(p):
    return Entry(p, went_out=True)


def pts(p, n):
    return Entry(p, points=n)


def cards(p, text):
    return Entry(p, cards=text)


def test_round_scores_went_out_cards_and_points():
    game = Game(PLAYERS)
    scores = score_round(game, 1, [out('Ana'), cards('Bruno', 'KH 5C 7D'), pts('Carla', 12)])
    assert {p: s.score for p, s in scores.items()} == {'Ana': 0, 'Bruno': 22, 'Carla': 12}
    assert scores['Ana'].went_out and scores['Bruno'].from_cards and not scores['Carla'].from_cards
    # Round 1: threes wild; 4H 3S 6H is a run (the three stands for 5H).
    assert score_round(game, 1, [out('Ana'), cards('Bruno', '4H 3S 6H'), pts('Carla', 0)])['Bruno'].score == 0


def test_dealer_passes_to_the_left_each_round():
    game = Game(PLAYERS, first_dealer=2)
    assert [game.dealer(r) for r in range(1, 6)] == ['Carla', 'Ana', 'Bruno', 'Carla', 'Ana']


def full_game(scores_by_round, rules=None):
    """A game from a list of {player: points}, the player with 0 (the first one) going out."""
    rounds = {}
    for n, scores in enumerate(scores_by_round, 1):
        outer = next(p for p, s in scores.items() if s == 0)
        rounds[n] = tuple(out(p) if p == outer else pts(p, s) for p, s in scores.items())
    return Game(tuple(scores_by_round[0]), rules or make_rules(), 0, rounds)


def test_totals_zero_rounds_and_running_totals():
    sheet = compute_sheet(full_game([{'Ana': 0, 'Bruno': 5, 'Carla': 9}, {'Ana': 3, 'Bruno': 0, 'Carla': 0}]))
    assert sheet.totals == {'Ana': 3, 'Bruno': 5, 'Carla': 9}
    assert sheet.zero_rounds == {'Ana': 1, 'Bruno': 1, 'Carla': 1}
    assert [r.totals for r in sheet.rows] == [{'Ana': 0, 'Bruno': 5, 'Carla': 9}, {'Ana': 3, 'Bruno': 5, 'Carla': 9}]
    assert sheet.next_round == 3 and not sheet.finished and sheet.winners == []
    assert [(s.player, s.place) for s in sheet.standings] == [('Ana', 1), ('Bruno', 2), ('Carla', 3)]


def test_tie_on_total_goes_to_more_zero_rounds():
    rounds = [{'Ana': 0, 'Bruno': 10, 'Carla': 20}] * 5 + [{'Bruno': 0, 'Ana': 10, 'Carla': 20}] * 6
    sheet = compute_sheet(full_game(rounds))
    # Ana: 6 x 10 = 60 with 5 zero rounds; Bruno: 5 x 10 = 50 with 6 zero rounds.
    assert sheet.finished and sheet.winners == ['Bruno']
    rounds = ([{'Ana': 0, 'Bruno': 10, 'Carla': 30}] * 4 + [{'Bruno': 0, 'Ana': 20, 'Carla': 30}] * 2
              + [{'Carla': 0, 'Ana': 0, 'Bruno': 0}] * 5)
    sheet = compute_sheet(full_game(rounds))
    # Ana 40 with 9 zero rounds, Bruno 40 with 7: Ana wins on zero rounds.
    assert sheet.totals['Ana'] == sheet.totals['Bruno'] == 40
    assert sheet.winners == ['Ana']
    assert [(s.player, s.place) for s in sheet.standings] == [('Ana', 1), ('Bruno', 2), ('Carla', 3)]
    assert sheet.tie_break == 'Ana and Bruno tie on 40; Ana leads on zero rounds, 9\u00a0to\u00a07'
    from scorer.sheet import winner_words
    assert winner_words(sheet) == 'Ana and Bruno tie on 40; Ana wins on zero rounds, 9\u00a0to\u00a07'


def test_still_tied_players_share_the_place_and_the_win():
    rounds = [{'Ana': 0, 'Bruno': 5, 'Carla': 9}, {'Bruno': 0, 'Ana': 5, 'Carla': 9}] * 5 + [
        {'Carla': 0, 'Ana': 3, 'Bruno': 3}]
    sheet = compute_sheet(full_game(rounds))
    assert sheet.totals['Ana'] == sheet.totals['Bruno'] == 28
    assert [(s.player, s.place) for s in sheet.standings] == [('Ana', 1), ('Bruno', 1), ('Carla', 3)]
    assert sheet.winners == ['Ana', 'Bruno']
    assert sheet.tie_break == 'Ana and Bruno tie on 28 and on zero rounds (5\u00a0to\u00a05); they share first place'


def test_tie_break_none_shares_places_on_equal_totals():
    rounds = ([{'Ana': 0, 'Bruno': 10, 'Carla': 30}] * 4 + [{'Bruno': 0, 'Ana': 20, 'Carla': 30}] * 2
              + [{'Carla': 0, 'Ana': 0, 'Bruno': 0}] * 5)
    sheet = compute_sheet(full_game(rounds, make_rules(tie_break='none')))
    assert [(s.player, s.place) for s in sheet.standings] == [('Ana', 1), ('Bruno', 1), ('Carla', 3)]
    assert sheet.winners == ['Ana', 'Bruno']
    assert sheet.tie_break == 'Ana and Bruno tie on 40; they share first place'


def test_double_last_round():
    rounds = [{'Ana': 0, 'Bruno': 1, 'Carla': 2}] * 10 + [{'Ana': 0, 'Bruno': 7, 'Carla': 8}]
    sheet = compute_sheet(full_game(rounds, make_rules(double_last_round=True)))
    assert sheet.rows[-1].scores['Bruno'].score == 14
    assert sheet.totals == {'Ana': 0, 'Bruno': 24, 'Carla': 36}


def test_places_shown_after_every_round():
    sheet = compute_sheet(full_game([{'Ana': 0, 'Bruno': 5, 'Carla': 5}]))
    assert [(s.player, s.place) for s in sheet.standings] == [('Ana', 1), ('Bruno', 2), ('Carla', 2)]
    assert tie_break_words(sheet.standings, 'zero_rounds') == ''


@pytest.mark.parametrize('entries, who, message', [
    ([out('Ana'), cards('Bruno', 'KH 5C 7D 8D'), pts('Carla', 3)], 'Bruno', 'Bruno holds 4 cards, but round 1 deals 3'),
    ([Entry('Ana', True, '7C 9D'), pts('Bruno', 1), pts('Carla', 3)], 'Ana', 'Ana went out but 9♦ 7♣ do not meld'),
    ([out('Ana'), cards('Bruno', '7H 7H'), cards('Carla', '7H 2C')], '', 'three 7♥ in this round (Bruno and Carla) but only 2 decks'),
    ([out('Ana'), cards('Bruno', '1X'), pts('Carla', 3)], 'Bruno', "Bruno: '1X' is not a card"),
    ([out('Ana'), Entry('Bruno'), pts('Carla', 3)], 'Bruno', "enter Bruno's cards or points"),
    ([out('Ana'), Entry('Bruno', points='ten'), pts('Carla', 3)], 'Bruno', "Bruno: 'ten' is not a number of points"),
    ([out('Ana'), Entry('Bruno', cards='7H', points=3), pts('Carla', 3)], 'Bruno', 'Bruno: enter cards or points, not both'),
])
def test_round_errors_name_the_player_and_the_problem(entries, who, message):
    with pytest.raises(RoundError) as e:
        score_round(Game(PLAYERS), 1, entries)
    assert any(m.startswith(message) for m in e.value.errors[who]), e.value.errors


def test_points_may_be_typed_as_a_sum():
    assert read_points('10+15+8') == 33
    assert read_points(' 12 ') == 12
    assert read_points('') is None
    for bad in ('-3', '1.5', '10+', 'x', '99999'):
        with pytest.raises(ValueError):
            read_points(bad)


@pytest.mark.parametrize('entries, found', [
    ([out('Ana'), cards('Bruno', '7H 8H 9H'), pts('Carla', 3)], []),
    ([out('Ana'), cards('Bruno', '7H 8H'), pts('Carla', 3)], ['Bruno: 2 of 3 cards']),
    ([out('Ana'), cards('Bruno', 'KH'), cards('Carla', '2C 5D')], ['Bruno: 1 of 3 cards', 'Carla: 2 of 3 cards']),
    ([Entry('Ana', True, '3S 4S'), cards('Bruno', '7H 8H 9H'), pts('Carla', 3)], []),   # went out: discarded
    ([pts('Ana', 1), pts('Bruno', 2), pts('Carla', 3)], ['nobody went out']),
    ([out('Ana'), out('Bruno'), pts('Carla', 3)], ['Ana and Bruno both went out']),
    ([out('Ana'), out('Bruno'), out('Carla')], ['all three went out: Ana, Bruno and Carla']),
])
def test_doubts_name_what_looks_like_an_entry_mistake(entries, found):
    """docs/rules.md: every player who did not go out holds the round's hand size, and one player goes out."""
    assert [d.message for d in doubts(Game(PLAYERS), 1, entries)] == found


def test_odd_rounds_still_score_so_a_confirmed_one_is_kept():
    scores = score_round(Game(PLAYERS), 1, [out('Ana'), out('Bruno'), cards('Carla', '7H 8H')])
    assert {p: s.score for p, s in scores.items()} == {'Ana': 0, 'Bruno': 0, 'Carla': 15}
    assert {p: s.score for p, s in score_round(Game(PLAYERS), 1, [pts('Ana', 1), pts('Bruno', 2), pts('Carla', 3)]).items()} \
        == {'Ana': 1, 'Bruno': 2, 'Carla': 3}


def test_a_confirmation_holds_only_for_the_doubts_it_was_given_for():
    game = Game(PLAYERS)
    ten = doubts(game, 1, [out('Ana'), cards('Bruno', '7H 8H'), pts('Carla', 3)])
    nine = doubts(game, 1, [out('Ana'), cards('Bruno', '7H'), pts('Carla', 3)])
    again = doubts(game, 1, [out('Ana'), cards('Bruno', 'KS QS'), pts('Carla', 3)])
    assert doubts_key(ten) == doubts_key(again) != doubts_key(nine)
    assert doubts_key([]) == ''


def counting_solver(monkeypatch):
    """The hands scorer/sheet.py hands to the solver from now on (its cache emptied first), as a list."""
    import scorer.sheet
    asked = []
    real = scorer.sheet.solve_hand
    monkeypatch.setattr(scorer.sheet, 'solve_hand', lambda hand, wild, rules: asked.append(hand) or real(hand, wild, rules))
    (getattr(scorer.sheet.solve, 'clear', None) or scorer.sheet.solve.cache_clear)()
    return asked


def test_the_solver_is_asked_once_for_a_hand_in_any_order(monkeypatch):
    """The sheet's cache knows a hand by its canonical form (its cards sorted): the same hand posted
    in another order is not solved again."""
    from scorer.reading import parse_hand
    from scorer.sheet import solve
    asked = counting_solver(monkeypatch)
    hand = parse_hand('KH 7S 7C 2D 10D 9H 8H QS QD 5C 4C', make_rules())
    first = solve(tuple(hand), 11, make_rules())
    again = [solve(tuple(reversed(hand)), 11, make_rules()), solve(tuple(hand[3:] + hand[:3]), 11, make_rules())]
    assert len(asked) == 1 and all(s.penalty == first.penalty for s in again)


def test_a_round_with_more_copies_than_the_decks_is_refused_before_any_hand_is_solved(monkeypatch):
    """Eight shuffles of one 13-card hand cannot come from three decks: refused, no hand solved."""
    asked = counting_solver(monkeypatch)
    players = tuple(f'P{n}' for n in range(8))
    game = Game(players, make_rules(decks=3))
    hand = 'KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H AH'.split()
    entries = [Entry(p, False, ' '.join(hand[n:] + hand[:n])) for n, p in enumerate(players)]
    with pytest.raises(RoundError) as refused:
        score_round(game, 11, entries)
    assert 'decks' in str(refused.value) and asked == []


def test_a_refused_round_and_entry_travel_whole_between_processes():
    """The solver's pool sends a job's exception back pickled: a RoundError keeps its messages by
    player and its fields, an EntryError its field."""
    import pickle
    from scorer.sheet import EntryError
    error = pickle.loads(pickle.dumps(RoundError({'Ana': ['Ana: no'], '': ['two out']}, {'Ana': {'cards'}})))
    assert error.errors == {'Ana': ['Ana: no'], '': ['two out']} and error.fields == {'Ana': {'cards'}}
    entry = pickle.loads(pickle.dumps(EntryError('Bo: no', 'points')))
    assert str(entry) == 'Bo: no' and entry.field == 'points'


def test_read_through_solves_nothing_here_and_asks_once_for_the_hands_known_nowhere(monkeypatch):
    """A sheet drawn by read_through: hands remembered or looked up are used; the rest go to
    solve_elsewhere in one call (the server's pool), never to this process's solver; the sheet is
    compute_sheet's; a sheet whose hands are all known asks for nothing."""
    import scorer.sheet
    from scorer.reading import parse_hand
    from scorer.sheet import read_through, solve, solve_hand
    game = Game(PLAYERS, make_rules(), 0, {1: (out('Ana'), cards('Bruno', 'KH 5C 7D'), cards('Carla', '4H 3S 6H')),
                                           2: (cards('Ana', '9D 9C 2S 5H'), out('Bruno'), pts('Carla', 7))})
    expected = compute_sheet(game, skip_broken=True)
    known = {}
    for hand, wild in (('KH 5C 7D', 3), ('4H 3S 6H', 3), ('9D 9C 2S 5H', 4)):
        key = solve.key(tuple(parse_hand(hand, game.rules)), wild, game.rules)
        known[key] = solve_hand(key[0], wild, game.rules)
    stored = dict(list(known.items())[:1])                     # one hand in the table, two nowhere
    asked, sent = [], []
    monkeypatch.setattr(scorer.sheet, 'solve_hand', lambda *a: asked.append(a))
    solve.clear()

    def elsewhere(keys):
        sent.append(sorted(map(scorer.sheet.key_text, keys)))
        return {key: known[key] for key in keys}
    sheet, found = read_through(lambda: compute_sheet(game, skip_broken=True), stored.get, elsewhere)
    assert asked == [] and sent == [sorted(map(scorer.sheet.key_text, list(known)[1:]))]
    assert set(found) == set(list(known)[1:])
    assert sheet.totals == expected.totals and [r.scores for r in sheet.rows] == [r.scores for r in expected.rows]
    sent.clear()
    solve.clear()
    again, found = read_through(lambda: compute_sheet(game, skip_broken=True), known.get, elsewhere)
    assert sent == [] and found == {} and again.totals == expected.totals and asked == []
