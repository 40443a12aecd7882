"""Player stats across finished games: players matched by name (case-insensitively, and through
merged spellings), games played, wins and shared wins, average, best and worst total, zero rounds,
rounds gone out, and the average penalty per round and by round number."""

from dataclasses import dataclass, field

from .sheet import Standing, compute_sheet, final_words


@dataclass
class PlayerStats:
    name: str
    games: int = 0
    wins: int = 0               # first places, shared ones included
    shared_wins: int = 0        # first places shared with another player (a tie the tie-break left)
    totals: list = field(default_factory=list)
    zero_rounds: int = 0
    went_out: int = 0
    by_round: dict = field(default_factory=dict)      # round number -> list of scores

    @property
    def average(self):
        return sum(self.totals) / len(self.totals) if self.totals else 0

    @property
    def best(self):
        return min(self.totals) if self.totals else None

    @property
    def worst(self):
        return max(self.totals) if self.totals else None

    @property
    def rounds(self):
        """Rounds played, in every game."""
        return sum(len(v) for v in self.by_round.values())

    @property
    def per_round(self):
        """The average penalty per round played (0 before any)."""
        return sum(map(sum, self.by_round.values())) / self.rounds if self.rounds else 0

    def average_by_round(self):
        return {n: sum(v) / len(v) for n, v in sorted(self.by_round.items())}


def summary(sheet):
    """What the history and the stats need of a game, as JSON-ready data: kept beside the game for
    its revision, so those pages read it instead of scoring every game at every view."""
    players = list(sheet.game.players)
    return {
        'players': players,
        'finished': sheet.finished and not sheet.broken,
        'tie_break': sheet.game.rules.tie_break,
        'standings': [[s.player, s.total, s.zero_rounds, s.place] for s in sheet.standings],
        'winners': list(sheet.winners),
        'went_out': [sum(r.scores[p].went_out for r in sheet.rows) for p in players],
        'round_numbers': [r.round for r in sheet.rows],
        'scores': [[r.scores[p].score for r in sheet.rows] for p in players],     # by seat, then round
    }


def summary_of(game):
    return summary(compute_sheet(game, skip_broken=True))


def winner_line(data):
    """The end of a summarised game in words (as winner_words says it of a sheet)."""
    return final_words([Standing(*s) for s in data['standings']], data['tie_break'])


def seat_names(data, aliases):
    """The name each seat of a summarised game counts as, by seat: its merged name (`aliases`), unless
    the merged names would make two of its players one person (then each counts by its own name)."""
    merged = [(aliases or {}).get(p.casefold(), p) for p in data['players']]
    return merged if len({m.casefold() for m in merged}) == len(merged) else list(data['players'])


def player_stats(summaries, aliases=None):
    """Stats of every player of the finished games (given by their summaries), most wins first
    (then best average). A player is matched by their name as seat_names gives it, case-insensitively,
    and shown as first met."""
    found = {}
    for data in summaries:
        if not data['finished']:
            continue
        seats = {player: i for i, player in enumerate(data['players'])}
        named = seat_names(data, aliases)
        for player, total, zero_rounds, _place in data['standings']:
            name = named[seats[player]]
            stats = found.setdefault(name.casefold(), PlayerStats(name))
            stats.games += 1
            stats.wins += player in data['winners']
            stats.shared_wins += player in data['winners'] and len(data['winners']) > 1
            stats.totals.append(total)
            stats.zero_rounds += zero_rounds
            stats.went_out += data['went_out'][seats[player]]
            for number, score in zip(data['round_numbers'], data['scores'][seats[player]]):
                stats.by_round.setdefault(number, []).append(score)
    return sorted(found.values(), key=lambda s: (-s.wins, s.average, s.name.casefold()))


def names(summaries):
    """Every spelling of a player's name in these games (their summaries), sorted."""
    return sorted({p for data in summaries for p in data['players']}, key=str.casefold)


def merge(aliases, spelling, name):
    """The merged spellings {spelling (case-folded): name} after counting `spelling` as `name`.

    Names match ignoring case (Unicode case folding: 'ÉLIA' is 'élia'). A merge follows what is
    already merged, both ways: if `name` already counts as another name, `spelling` counts as that
    one; and whatever counted as `spelling` now counts as the end of the chain too.
    """
    aliases = dict(aliases)
    target, seen = name, set()
    while target.casefold() in aliases and target.casefold() not in seen:
        seen.add(target.casefold())
        target = aliases[target.casefold()]
    if target.casefold() == spelling.casefold():       # that would make a loop: nothing to merge
        return aliases
    aliases[spelling.casefold()] = target
    for key, value in aliases.items():
        if value.casefold() == spelling.casefold():
            aliases[key] = target
    return aliases


def unmerge(aliases, spelling):
    """The merged spellings without `spelling`."""
    return {k: v for k, v in aliases.items() if k != spelling.casefold()}
