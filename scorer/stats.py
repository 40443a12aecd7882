"""Player stats across finished games: players matched by name (case-insensitively, and through
merged spellings), games played, wins, average and best total, zero rounds, rounds gone out,
and the average penalty by round number."""

from dataclasses import dataclass, field

from .sheet import compute_sheet


@dataclass
class PlayerStats:
    name: str
    games: int = 0
    wins: int = 0
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

    def average_by_round(self):
        return {n: sum(v) / len(v) for n, v in sorted(self.by_round.items())}


def player_stats(games, aliases=None):
    """Stats of every player of the finished games, most wins first (then best average)."""
    aliases = aliases or {}
    found = {}
    for game in games:
        sheet = compute_sheet(game, skip_broken=True)
        if not sheet.finished or sheet.broken:
            continue
        for player in game.players:
            name = aliases.get(player.casefold(), player)
            stats = found.setdefault(name.casefold(), PlayerStats(name))
            stats.games += 1
            stats.wins += player in sheet.winners
            stats.totals.append(sheet.totals[player])
            stats.zero_rounds += sheet.zero_rounds[player]
            for row in sheet.rows:
                score = row.scores[player]
                stats.went_out += score.went_out
                stats.by_round.setdefault(row.round, []).append(score.score)
    return sorted(found.values(), key=lambda s: (-s.wins, s.average, s.name.casefold()))


def names(games):
    """Every spelling of a player's name in these games, sorted."""
    return sorted({p for g in games for p in g.players}, key=str.casefold)


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
