"""A table's figures (scorer/tables.py), checked against a brute count written apart
(tests/tables_brute.py) over random tables of up to 200 games, and on small tables by hand."""

import datetime
import random

from hypothesis import given
from hypothesis import strategies as st

from scorer.rules import kind_of, make_rules
from scorer.sheet import Entry, Game
from scorer.stats import merge, summary_of
from scorer.tables import game_lines, kinds_played, table_figures
from tests import tables_brute
from tests.hands import examples

PEOPLE = ('Ana', 'Anna', 'Bruno', 'Carla', 'Dé', 'Eve', 'Zoë', 'Ömer')
SPELLINGS = (str, str.upper, str.lower)
TODAY = datetime.date(2026, 12, 3)


def played(spec):
    """A spec (as tables_brute takes it) as a Game and the table's entry for it."""
    rules = make_rules({'game': spec['game'], 'tie_break': spec['tie_break'],
                        'double_last_round': spec['double_last_round']})
    numbers = list(rules.rounds)[:len(spec['rounds'])]
    rounds = {n: tuple(Entry(p, points=entered[p]) for p in spec['players'])
              for n, entered in zip(numbers, spec['rounds'])}
    game = Game(tuple(spec['players']), rules, 0, rounds)
    return {'id': spec['id'], 'kind': spec['kind'], 'day': spec['day'], 'summary': summary_of(game)}


GAMES = ('standard', 'short', 'six_fourteen', 'five_crowns')


@st.composite
def a_game(draw, today, number):
    """A game of 2-5 of PEOPLE, each spelled one way or another, scored with points 0-3 (many ties),
    finished most times, on a day up to 400 days before `today`."""
    name = draw(st.sampled_from(GAMES))
    who = draw(st.lists(st.sampled_from(PEOPLE), min_size=2, max_size=5, unique=True))
    spellings = [draw(st.sampled_from(SPELLINGS)) for _ in who]
    finished, seed = draw(st.integers(0, 6)) > 0, draw(st.integers(0, 2 ** 32))
    days_before = draw(st.integers(-20, 400))
    tie_break, double_last_round = draw(st.sampled_from(('zero_rounds', 'none'))), draw(st.booleans())
    return played_out(name, who, spellings, finished, seed, days_before, tie_break, double_last_round, today, number)


def rolled_game(dice, today, number):
    """A game as a_game() draws it, rolled with `dice` (a table's many games: drawing each one's every
    choice through hypothesis was most of what a table of 200 cost)."""
    who = dice.sample(PEOPLE, dice.randint(2, 5))
    return played_out(dice.choice(GAMES), who, [dice.choice(SPELLINGS) for _ in who], dice.randint(0, 6) > 0,
                      dice.randint(0, 2 ** 32), dice.randint(-20, 400), dice.choice(('zero_rounds', 'none')),
                      dice.random() < 0.5, today, number)


def played_out(name, who, spellings, finished, seed, days_before, tie_break, double_last_round, today, number):
    """The spec of a game: its players spelled as chosen, its rounds of points rolled from `seed`, all
    of them if `finished`, else fewer."""
    rules = make_rules({'game': name})
    dice = random.Random(seed)
    players = [spell(p) for p, spell in zip(who, spellings)]
    length = len(rules.rounds) if finished else dice.randint(0, len(rules.rounds) - 1)
    return {'id': f'g{number}', 'game': name, 'kind': kind_of(name),
            'day': (today - datetime.timedelta(days=days_before)).isoformat(),
            'players': players, 'tie_break': tie_break, 'double_last_round': double_last_round,
            'last_round': rules.last_round, 'all_rounds': len(rules.rounds),
            'rounds': [{p: dice.choice((0, 0, 1, 2, 3)) for p in players} for _ in range(length)]}


@st.composite
def a_table(draw, most=200, drawn=12):
    """(today, the games' specs, the merged names): up to `most` games (the first `drawn` drawn one
    choice at a time, so that hypothesis shrinks a failure to them; the rest rolled from one seed),
    some names merged by stats.merge, some merges making two players of one game one person."""
    today = draw(st.sampled_from((TODAY, datetime.date(2026, 1, 1), datetime.date(2027, 12, 31))))
    count = draw(st.integers(0, most))
    specs = [draw(a_game(today, i)) for i in range(min(count, drawn))]
    dice = random.Random(draw(st.integers(0, 2 ** 32)))
    specs += [rolled_game(dice, today, i) for i in range(len(specs), count)]
    aliases = {}
    spellings = [s(p) for p in PEOPLE for s in SPELLINGS]
    for spelling, name in draw(st.lists(st.tuples(st.sampled_from(spellings), st.sampled_from(spellings)),
                                        max_size=6)):
        aliases = merge(aliases, spelling, name)
    return today, specs, aliases


def figures(games, aliases, kind, period, today):
    """tables.py's figures in the brute count's shape."""
    found = table_figures(games, aliases, kind, period, today)
    table = [{'name': p.name, 'games': p.games, 'wins': p.wins, 'shared_wins': p.shared_wins,
              'rounds': p.rounds, 'per_round': p.per_round, 'zero_rounds': p.zero_rounds, 'best': p.best,
              'worst': p.worst} for p in found.standings]
    pairs = {}
    for h in found.head_to_head:
        pairs[h.first, h.second] = (h.games, h.first_ahead, h.second_ahead)
        pairs[h.second, h.first] = (h.games, h.second_ahead, h.first_ahead)
    return table, pairs, [point.wins for point in found.race]


@given(a_table())
@examples(50)
def test_the_figures_are_the_brute_counts(table):
    today, specs, aliases = table
    games = [played(s) for s in specs]
    for kind in ('three_thirteen', 'five_crowns'):
        for period in ('month', 'year', 'all'):
            assert figures(games, aliases, kind, period, today) == \
                tables_brute.figures(specs, aliases, kind, period, today)


def spec(number, players, rounds, game='standard', day='2026-12-01', tie_break='zero_rounds'):
    """A game of `players` whose rounds are given as rows of points (seat by seat); the missing ones
    up to the game's length are all 1s (finished), unless `rounds` is None-padded."""
    rules = make_rules({'game': game})
    rows = list(rounds) + [[1] * len(players)] * (len(rules.rounds) - len(rounds)) if rounds is not None else []
    return {'id': f'g{number}', 'game': game, 'kind': kind_of(game), 'day': day, 'players': players,
            'tie_break': tie_break, 'double_last_round': False, 'last_round': rules.last_round,
            'all_rounds': len(rules.rounds), 'rounds': [dict(zip(players, row)) for row in rows]}


def test_a_tie_the_tie_break_leaves_is_a_shared_win_and_one_it_breaks_is_not():
    games = [played(spec(1, ['Ana', 'Bruno', 'Carla'], [[0, 1, 5], [1, 0, 5]], tie_break='none')),
             played(spec(2, ['Ana', 'Bruno', 'Carla'], [[0, 1, 5], [2, 1, 5]]))]
    found = {p.name: p for p in table_figures(games, {}, 'three_thirteen', 'all', TODAY).standings}
    assert (found['Ana'].wins, found['Ana'].shared_wins) == (2, 1)       # game 2: more zero rounds
    assert (found['Bruno'].wins, found['Bruno'].shared_wins) == (1, 1)
    assert found['Carla'].wins == 0


def test_kinds_are_never_mixed_and_periods_are_calendar_ones():
    games = [played(spec(1, ['Ana', 'Bruno'], [[0, 9]], game='five_crowns', day='2026-12-02')),
             played(spec(2, ['Ana', 'Bruno'], [[9, 0]], day='2026-11-30')),
             played(spec(3, ['Ana', 'Bruno'], [[9, 0]], day='2025-12-03'))]
    crowns = table_figures(games, {}, 'five_crowns', 'all', TODAY)
    assert (crowns.games, crowns.standings[0].name, crowns.standings[0].wins) == (1, 'Ana', 1)
    assert table_figures(games, {}, 'three_thirteen', 'month', TODAY).games == 0
    assert table_figures(games, {}, 'three_thirteen', 'year', TODAY).games == 1
    assert table_figures(games, {}, 'three_thirteen', 'all', TODAY).standings[0].wins == 2
    assert kinds_played(games) == ['three_thirteen', 'five_crowns']


def test_merged_names_count_as_one_person_unless_they_sat_at_one_game():
    games = [played(spec(1, ['Ana', 'Bruno'], [[0, 3]])), played(spec(2, ['anna', 'Bruno'], [[0, 3]])),
             played(spec(3, ['Anna', 'Ana'], [[0, 3]]))]
    found = {p.name: p for p in table_figures(games, {'anna': 'Ana'}, 'three_thirteen', 'all', TODAY).standings}
    assert found['Ana'].games == 3 and found['Ana'].wins == 2
    assert found['Anna'].games == 1 and found['Anna'].wins == 1     # game 3 keeps its two players apart


def test_a_game_going_is_listed_newest_first_and_never_counted():
    games = [played(spec(1, ['Ana', 'bruno'], [[0, 3]], day='2026-11-01')),
             played(spec(2, ['Ana', 'Bruno'], None, day='2026-12-02'))]
    lines = game_lines(games, {'bruno': 'Bruno'})
    assert [(line.id, line.finished, line.winners) for line in lines] == [('g2', False, ()), ('g1', True, ('Ana',))]
    assert lines[0].line == '' and 'Ana' in lines[1].line and lines[1].players == ('Ana', 'Bruno')
    assert table_figures(games, {}, 'three_thirteen', 'all', TODAY).games == 1


def test_head_to_head_and_the_race_of_wins():
    games = [played(spec(1, ['Ana', 'Bruno', 'Carla'], [[0, 3, 5]], day='2026-12-01')),
             played(spec(2, ['Bruno', 'Carla'], [[0, 3]], day='2026-12-02')),
             played(spec(3, ['Ana', 'Bruno'], [[3, 3]], day='2026-12-03', tie_break='none'))]
    found = table_figures(games, {}, 'three_thirteen', 'all', TODAY)
    pairs = {(h.first, h.second): (h.games, h.first_ahead, h.second_ahead, h.level) for h in found.head_to_head}
    assert pairs == {('Ana', 'Bruno'): (2, 1, 0, 1), ('Bruno', 'Carla'): (2, 2, 0, 0), ('Ana', 'Carla'): (1, 1, 0, 0)}
    assert [p.wins for p in found.race] == [{'Bruno': 0, 'Ana': 1, 'Carla': 0}, {'Bruno': 1, 'Ana': 1, 'Carla': 0},
                                            {'Bruno': 2, 'Ana': 2, 'Carla': 0}]
