"""A slow, obviously correct count of a table's figures, written apart from scorer/tables.py and
scorer/stats.py and sharing no code with them: straight from the definitions of docs/rules.md
("Winning and ties") and issue 53, over games given as what was entered, round by round.

A game here is a dict: id, kind ('three_thirteen'/'five_crowns'), day ('YYYY-MM-DD'), players
(seating order), tie_break ('zero_rounds'/'none'), double_last_round, last_round (its number),
all_rounds (how many rounds the game deals) and rounds: a list, in order, of {player: points}
(0 for who went out).
"""


def scores(game):
    """Each player's score in each round, by player: points as entered, doubled in the last round
    when the rules say so."""
    out = {p: [] for p in game['players']}
    first = game['last_round'] - game['all_rounds'] + 1
    for i, entered in enumerate(game['rounds']):
        double = game['double_last_round'] and first + i == game['last_round']
        for p in game['players']:
            out[p].append(entered[p] * (2 if double else 1))
    return out


def better(game, a, b, totals, zeros):
    """Whether player a finished ahead of player b."""
    if totals[a] != totals[b]:
        return totals[a] < totals[b]
    return game['tie_break'] == 'zero_rounds' and zeros[a] > zeros[b]


def results(game):
    """{player: (total, zero rounds, place, rounds played, sum of round scores)}."""
    s = scores(game)
    totals = {p: sum(s[p]) for p in s}
    zeros = {p: s[p].count(0) for p in s}
    return {p: (totals[p], zeros[p], 1 + sum(better(game, q, p, totals, zeros) for q in s), len(s[p]), sum(s[p]))
            for p in s}


def person(game, player, aliases):
    """Who a seat is at the table: the merged name, unless two seats of this game would then be one."""
    merged = {p: aliases.get(p.casefold(), p) for p in game['players']}
    keys = [m.casefold() for m in merged.values()]
    if len(set(keys)) < len(keys):
        return player
    return merged[player]


def in_period(day, period, today):
    year, month = int(day[:4]), int(day[5:7])
    if period == 'all':
        return True
    if period == 'year':
        return year == today.year
    return (year, month) == (today.year, today.month)


def chosen(games, kind, period, today):
    """The games that count, oldest first (a stable sort by day)."""
    picked = [g for g in games if len(g['rounds']) == g['all_rounds'] and g['kind'] == kind
              and in_period(g['day'], period, today)]
    return sorted(picked, key=lambda g: g['day'])


def figures(games, aliases, kind, period, today):
    """(standings rows, head to head {(a, b): (games, a ahead, b ahead)} keyed by shown names, race)."""
    games = chosen(games, kind, period, today)
    shown, rows = {}, {}
    for g in games:
        for p in g['players']:
            name = person(g, p, aliases)
            shown.setdefault(name.casefold(), name)
    for key, name in shown.items():
        played = [(g, p) for g in games for p in g['players'] if person(g, p, aliases).casefold() == key]
        res = [results(g)[p] for g, p in played]
        places_1 = [(g, p) for g, p in played if results(g)[p][2] == 1]
        shared = [(g, p) for g, p in places_1 if sum(r[2] == 1 for r in results(g).values()) > 1]
        rounds = sum(r[3] for r in res)
        rows[key] = {'name': name, 'games': len(played), 'wins': len(places_1), 'shared_wins': len(shared),
                     'rounds': rounds, 'per_round': sum(r[4] for r in res) / rounds if rounds else 0,
                     'zero_rounds': sum(r[1] for r in res), 'best': min(r[0] for r in res),
                     'worst': max(r[0] for r in res)}
    table = sorted(rows.values(), key=lambda r: (-r['wins'], r['per_round'], r['name'].casefold()))
    pairs = {}
    for a in rows:
        for b in rows:
            if a == b:
                continue
            together = ahead_a = ahead_b = 0
            for g in games:
                seat = {person(g, p, aliases).casefold(): p for p in g['players']}
                if a in seat and b in seat:
                    r = results(g)
                    together += 1
                    ahead_a += r[seat[a]][2] < r[seat[b]][2]
                    ahead_b += r[seat[b]][2] < r[seat[a]][2]
            if together:
                pairs[rows[a]['name'], rows[b]['name']] = (together, ahead_a, ahead_b)
    race, wins = [], {r['name']: 0 for r in table}
    for g in games:
        for p, r in results(g).items():
            if r[2] == 1:
                wins[shown[person(g, p, aliases).casefold()]] += 1
        race.append(dict(wins))
    return table, pairs, race
