"""A table's figures: the people who play together (a family, a club) and every game they play,
counted across games, one game kind at a time and one period at a time.

The input is plain data. A table's game is a dict

    {'id': 'a1b2…', 'kind': 'three_thirteen' or 'five_crowns' (rules.kind_of), 'day': 'YYYY-MM-DD',
     'summary': stats.summary(sheet)}

`day` is the day the game was finished (or played, for a game still going); `summary` is what the
history and stats pages keep beside every game. `aliases` are the table's merged names,
{spelling case-folded: name}, as stats.merge and stats.unmerge make them.

The rules of the figures (each in one function below):
- Only finished games count in the standings, the head to head and the race of wins; a game still
  going is listed (its line is empty), never counted.
- A figure never mixes kinds: Three-Thirteen (every way to play it) and Five Crowns apart.
- Periods: 'month' (the calendar month of `today`), 'year' (its calendar year), 'all'.
- Players are matched through the merged names, then case-insensitively; a player is shown by the
  merged name, else by the spelling of the first game they played. A merge that would make two
  players of one game one person is not applied to that game (its players count by their own names).
- A win is a first place (the game's tie-break applied); a shared win is a first place shared with
  another player (a tie the tie-break leaves tied); wins count the shared ones too.
"""

from dataclasses import dataclass, field

KINDS = ('three_thirteen', 'five_crowns')
PERIODS = ('month', 'year', 'all')


@dataclass
class TablePlayer:
    """One player's standing at a table across its counted games."""
    name: str
    games: int = 0
    wins: int = 0               # first places, shared ones included
    shared_wins: int = 0        # first places shared with another player
    rounds: int = 0             # rounds played (scored)
    penalty: int = 0            # every round's penalty added up (the game totals added up)
    zero_rounds: int = 0
    best: int | None = None     # the lowest game total
    worst: int | None = None    # the highest game total

    @property
    def average(self):
        """Average penalty per round played (0 before any round)."""
        return self.penalty / self.rounds if self.rounds else 0


@dataclass(frozen=True)
class HeadToHead:
    """Two players over the games they played together: how often each finished ahead (a better
    place: the tie-break applied), and how often they shared a place."""
    first: str
    second: str
    games: int
    first_ahead: int
    second_ahead: int

    @property
    def level(self):
        return self.games - self.first_ahead - self.second_ahead


@dataclass(frozen=True)
class GameLine:
    """A table's game in its list: its id, day, kind, whether it is finished, its winners (merged
    names) and its winner line in words (stats.winner_line; '' while it is going)."""
    id: str
    day: str
    kind: str
    finished: bool
    players: tuple
    winners: tuple
    line: str


@dataclass(frozen=True)
class RacePoint:
    """The running count of wins after one counted game: {player: wins so far} for every player of
    the standings (0 before their first win)."""
    id: str
    day: str
    wins: dict


@dataclass
class TableFigures:
    """Everything the table's page shows for one kind and one period."""
    kind: str
    period: str
    games: int                                   # finished games counted
    standings: list = field(default_factory=list)    # TablePlayer, best first
    head_to_head: list = field(default_factory=list)  # HeadToHead, for each pair who played together
    race: list = field(default_factory=list)          # RacePoint, a counted game at a time, oldest first


def in_period(day, period, today):
    """Whether `day` ('YYYY-MM-DD') falls in `period` as seen on `today` (a datetime.date)."""
    raise NotImplementedError


def counted(games, kind, period, today):
    """The finished games of `kind` in `period`, oldest first (by day, then as given)."""
    raise NotImplementedError


def seat_names(summary, aliases):
    """The name each seat of a game counts as at the table (merged names applied, unless they would
    make two of its players one)."""
    raise NotImplementedError


def standings(games, aliases):
    """Each player's TablePlayer over `games` (counted games), most wins first, then fewest shared
    wins among equal wins, then the lower average per round, then the name."""
    raise NotImplementedError


def head_to_head(games, aliases):
    """HeadToHead for every pair of players who played together in `games`, the pair in the order of
    the standings."""
    raise NotImplementedError


def race(games, aliases):
    """The running count of wins, a RacePoint per game of `games` (for the chart)."""
    raise NotImplementedError


def game_lines(games, aliases=None):
    """Every game of the table (any kind, finished or going) as a GameLine, newest first (by day,
    then the later given first)."""
    raise NotImplementedError


def table_figures(games, aliases, kind, period, today):
    """The table's figures for one kind and one period: what its page shows."""
    raise NotImplementedError


def kinds_played(games):
    """The kinds of the table's games, in KINDS' order (the page offers a filter for each)."""
    raise NotImplementedError
