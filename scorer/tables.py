"""A table's figures: the people who play together (a family, a club) and every game they play,
counted across games, one game kind at a time and one period at a time.

The input is plain data. A table's game is a dict

    {'id': 'a1b2…', 'kind': 'three_thirteen' or 'five_crowns' (rules.kind_of), 'day': 'YYYY-MM-DD',
     'summary': stats.summary(sheet)}

`day` is the day the game was finished (or played, for a game still going); `summary` is what the
history and stats pages keep beside every game. `aliases` are the table's merged names,
{spelling case-folded: name}, as stats.merge and stats.unmerge make them.

The rules of the figures (each decided once, here or in scorer/stats.py):
- Only finished games count in the standings, the head to head and the race of wins; a game still
  going is listed (with no winner line), never counted.
- A figure never mixes kinds: Three-Thirteen (every way to play it) and Five Crowns apart.
- Periods: 'month' (the calendar month of `today`), 'year' (its calendar year), 'all'.
- Players are matched through the merged names, then case-insensitively, and shown by the spelling
  of the first game counted (stats.player_stats). A merge that would make two players of one game
  one person is not applied to that game (stats.seat_names).
- A win is a first place, the game's tie-break applied; a shared win is a first place shared with
  another player (a tie the tie-break leaves tied); wins count the shared ones too.
- The standings: most wins, then the lower average penalty per round, then the name.
- Head to head: of two players in a game, the one at the better place is ahead; a shared place is level.
"""

from dataclasses import dataclass, field

from .stats import PlayerStats, player_stats, seat_names, winner_line

KINDS = ('three_thirteen', 'five_crowns')
PERIODS = ('month', 'year', 'all')

TablePlayer = PlayerStats
"""One player's standing at a table: name, games, wins, shared_wins, zero_rounds, totals; best and
worst (game totals), rounds, per_round (the average penalty per round), average (per game)."""


@dataclass(frozen=True)
class HeadToHead:
    """Two players over the games they played together: how often each finished ahead of the other."""
    first: str
    second: str
    games: int
    first_ahead: int
    second_ahead: int

    @property
    def level(self):
        """Games where they shared a place."""
        return self.games - self.first_ahead - self.second_ahead


@dataclass(frozen=True)
class GameLine:
    """A table's game in its list: its id, day, kind, whether it is finished, its players and winners
    (as the table names them) and its winner line in words ('' while it is going)."""
    id: str
    day: str
    kind: str
    finished: bool
    players: tuple
    winners: tuple
    line: str


@dataclass(frozen=True)
class RacePoint:
    """The running count of wins after one counted game: {player: wins so far}, every player of the
    standings (0 before their first win)."""
    id: str
    day: str
    wins: dict


@dataclass
class TableFigures:
    """Everything the table's page shows for one kind and one period."""
    kind: str
    period: str
    games: int                                          # finished games counted
    standings: list = field(default_factory=list)       # TablePlayer, best first
    head_to_head: list = field(default_factory=list)    # HeadToHead, each pair who played together
    race: list = field(default_factory=list)            # RacePoint, a counted game at a time, oldest first


def in_period(day, period, today):
    """Whether `day` ('YYYY-MM-DD') falls in `period` as seen on `today` (a datetime.date): 'month'
    its calendar month, 'year' its calendar year, 'all' any day."""
    if period not in PERIODS:
        raise ValueError(f'no period {period!r}')
    width = {'month': 7, 'year': 4, 'all': 0}[period]
    return day[:width] == today.isoformat()[:width]


def counted(games, kind, period, today):
    """The finished games of `kind` in `period`, oldest first (by day, then as given)."""
    if kind not in KINDS:
        raise ValueError(f'no kind {kind!r}')
    return [g for g in oldest_first(games)
            if g['summary']['finished'] and g['kind'] == kind and in_period(g['day'], period, today)]


def oldest_first(games):
    """The games by day, those of one day as given."""
    return sorted(games, key=lambda g: g['day'])


def standings(games, aliases):
    """Each player's TablePlayer over `games` (counted games, oldest first): most wins first, then the
    lower average penalty per round, then the name."""
    found = player_stats((g['summary'] for g in games), aliases)
    return sorted(found, key=lambda p: (-p.wins, p.per_round, p.name.casefold()))


def named(data, aliases, shown):
    """A game's seats by the names the table shows ({name case-folded: name shown})."""
    return [shown.setdefault(n.casefold(), n) for n in seat_names(data, aliases)]


def seat_places(data):
    """Each seat's place in a summarised game."""
    places = {player: place for player, _total, _zeros, place in data['standings']}
    return [places[p] for p in data['players']]


def head_to_head(games, aliases, order):
    """HeadToHead for every pair of players who played together in `games`, in the order of `order`
    (the standings' names): the one at the better place (the tie-break applied) is ahead."""
    rank = {name: i for i, name in enumerate(order)}
    shown = {name.casefold(): name for name in order}
    met = {}
    for g in games:
        data = g['summary']
        names = named(data, aliases, shown)
        place = dict(zip(names, seat_places(data)))
        for a in names:
            for b in names:
                if rank[a] < rank[b]:
                    count = met.setdefault((a, b), [0, 0, 0])
                    count[0] += 1
                    count[1] += place[a] < place[b]
                    count[2] += place[b] < place[a]
    return [HeadToHead(a, b, *met[a, b]) for a, b in sorted(met, key=lambda pair: (rank[pair[0]], rank[pair[1]]))]


def race(games, aliases, order):
    """The running count of wins, a RacePoint per game of `games` (counted games, oldest first), each
    naming every player of `order` (the standings' names): a shared win counts for each who shares it."""
    shown = {name.casefold(): name for name in order}
    wins = dict.fromkeys(order, 0)
    points = []
    for g in games:
        data = g['summary']
        names = named(data, aliases, shown)
        for seat, player in enumerate(data['players']):
            wins[names[seat]] += player in data['winners']
        points.append(RacePoint(g['id'], g['day'], dict(wins)))
    return points


def game_lines(games, aliases=None):
    """Every game of the table (any kind, finished or going) as a GameLine, newest first (by day, then
    the later given first); each player shown as in the first game they played."""
    shown, lines = {}, []
    for g in oldest_first(games):
        data = g['summary']
        names = named(data, aliases, shown)
        seats = {p: i for i, p in enumerate(data['players'])}
        winners, line = (), ''
        if data['finished']:
            winners = tuple(names[seats[w]] for w in data['winners'])
            line = winner_line({**data, 'standings': [[names[seats[p]], *rest] for p, *rest in data['standings']]})
        lines.append(GameLine(g['id'], g['day'], g['kind'], data['finished'], tuple(names), winners, line))
    return lines[::-1]


def table_figures(games, aliases, kind, period, today):
    """The table's figures for one kind and one period: what its page shows."""
    chosen = counted(games, kind, period, today)
    table = standings(chosen, aliases)
    order = [p.name for p in table]
    return TableFigures(kind, period, len(chosen), table, head_to_head(chosen, aliases, order),
                        race(chosen, aliases, order))


def kinds_played(games):
    """The kinds of the table's games, in KINDS' order (the page offers a filter for each)."""
    found = {g['kind'] for g in games}
    return [k for k in KINDS if k in found]
