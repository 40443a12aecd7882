"""The race as a chart: each player's running total, round by round, as geometry for an SVG.

Pure numbers, no drawing library: `race()` places every point of every line in a box of the
given size; templates draw it (the sheet, the print, the picture to share). Each player has a
colour (chosen for the game) and a marker shape (by seat), so the chart reads without colour
too; a round scored 0 gets a filled marker, and the leader's line is drawn heavier.
"""

import unicodedata
from dataclasses import dataclass
from math import cos, pi, sin

SHAPES = ('circle', 'square', 'triangle', 'diamond', 'down', 'cross', 'star', 'hexagon')
COLOURS = ('green', 'blue', 'red', 'purple', 'orange', 'teal', 'magenta', 'brown')
# Their shades on white and on black (the picture; style.css has the same pairs as .c0-.c7).
PALETTE = ('#1b7a34', '#1f5fbf', '#c0392b', '#7b3fa0', '#a35200', '#00796b', '#b0206e', '#5d4e37')
PALETTE_DARK = ('#5cc878', '#7aa9ff', '#ff7b6b', '#c99bf0', '#ffa64d', '#4fd1c1', '#ff7ac0', '#c8b89a')


@dataclass(frozen=True)
class Point:
    x: float
    y: float
    round: int
    total: int
    zero: bool


@dataclass(frozen=True)
class Line:
    player: str
    seat: int
    colour: int
    shape: str
    points: tuple
    leader: bool

    @property
    def path(self):
        """The polyline's points as SVG wants them: 'x1,y1 x2,y2 …'."""
        return ' '.join(f'{p.x:.1f},{p.y:.1f}' for p in self.points)


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    left: float
    right: float
    top: float
    bottom: float
    lines: tuple
    y_ticks: tuple          # (y, total)
    x_ticks: tuple          # (x, round)
    labels: tuple = ()      # a Label at the end of each line, where asked for (the big screen)
    size: float = 0         # the type of the ticks and labels, in the chart's units (0: the page's)


@dataclass(frozen=True)
class Label:
    """What names a line at its end: its marker, and its player's first name (label_text), or the
    words that tell it from another's (else the marker alone, with the player's colour, as the
    standings show it)."""
    line: Line
    text: str
    x: float                # the marker's centre; the text follows it
    y: float                # clear of every other label, as near the line's end as that allows

    @property
    def moved(self):
        """Whether it sits away from its line's end (moved apart from another's): then its marker is
        repeated where it sits, joined to the end."""
        return abs(self.y - self.line.points[-1].y) > 1

    def start(self, size):
        """Where its name starts, in type of `size`: past its own marker where it was moved, else
        just past the end's marker."""
        return self.x + size * 0.65 if self.moved else self.line.points[-1].x + size * 0.6

    def baseline(self, size):
        """The baseline of its name, in type of `size`: the name's middle on the label's height."""
        return self.y + size * 0.36


# Tick steps: 1, 2 and 5 times a power of ten, and 25 times one (0-250 by 50 is 5 steps of 50).
STEPS = sorted({m * 10 ** p for p in range(7) for m in (1, 2, 5)} | {25 * 10 ** p for p in range(6)})


def nice_scale(most):
    """(top, step) of the scale: 3 to 7 steps of a nice size, the top the first step at or above
    `most`, chosen so that the highest line comes closest to the top: 224 is drawn on 0-250 by 50,
    332 on 0-350 by 50; a total of 10 or more reaches at least 80 % of the height."""
    best = None
    for step in STEPS:
        steps = max(3, -(-most // step))
        if steps <= 7 and (best is None or most / (steps * step) > best[0]):
            best = (most / (steps * step), steps * step, step)
    return best[1], best[2]


# The race on the scoresheet (the server's page and the phone's alike): 12 units of type, drawn at
# 12 px or more on a 360 px phone, and tall enough there to tell eight lines apart.
ON_THE_SHEET = dict(width=340, height=250, size=12)


def shape(seat):
    """The marker of a seat's line: the same on every screen, on paper and in the picture."""
    return SHAPES[seat % len(SHAPES)]


def ems(text):
    """About how wide a text is set, in ems: wide (Chinese, Japanese, Korean) characters one, others 0.6."""
    return sum(1.0 if unicodedata.east_asian_width(ch) in 'WF' else 0.6 for ch in text)


LABEL_EMS = 6.6             # the widest first name a line's label holds (11 Latin letters, 6 Chinese characters)
SHARED_EMS = LABEL_EMS * 1.5    # a first name shared and what tells it apart ("Bartholomew Fea…", 16 letters)


def shortened(text, most):
    """`text`, or as much of it as `most` ems hold with '…' after it."""
    if ems(text) <= most + 1e-9:
        return text
    cut = ''
    for ch in text:
        if ems(cut + ch + '…') > most + 1e-9:
            break
        cut += ch
    return cut.rstrip() + '…'


def _telling(player, players):
    """The fewest first words of `player` no other player's name starts with (else the whole name), shortened:
    the first word to LABEL_EMS, first words shared to SHARED_EMS."""
    words = [w.casefold() for w in player.split()] or ['']
    others = [[w.casefold() for w in p.split()] for p in players if p != player]
    for k in range(1, len(words) + 1):
        if words[:k] not in [other[:k] for other in others]:
            return shortened(' '.join(player.split()[:k]), LABEL_EMS if k == 1 else SHARED_EMS)
    return shortened(player, LABEL_EMS if len(words) == 1 else SHARED_EMS)     # "Ana" beside "Ana Lima"


def label_text(player, players):
    """A line's name at its end: the player's first word, shortened with '…' to LABEL_EMS where it
    is longer (issue 48: a long name's line was left unnamed; the chart's margin holds a first name,
    the whole name is in the standings beside it); where another player's first word is the same,
    the words that tell them apart ("Ana Lima", "Ana Sousa"; "Bartholomew Fea…"), so that two
    players are never named alike (issue 48, screens10: "María" and "María" would be confused). None
    where even so two labels would read the same (their markers tell them apart)."""
    text = _telling(player, players)
    if text and [_telling(p, players).casefold() for p in players].count(text.casefold()) > 1:
        return ''
    return text


def label_width(text, size):
    """About how wide a line's label is set in bold at `size` (the big screen's, drawn by the browser)."""
    return size * (ems(text) * 1.15 + 0.4)


def race(sheet, colours=None, width=340, height=200, left=None, right=None, top=None, bottom=None, size=0, labels=False,
         measure=None, spacing=None):
    """The chart of a sheet: a line per player from 0 before round 1 to their total after each round.

    With `size` (the type of its figures, in the chart's units) the margins not given are made for
    that type; with `labels`, each line is named at its end (label_text), in a margin on the right
    wide enough for the longest label (`measure(text)`: its width in the chart's units, measured in
    the font it is drawn in; by default label_width's estimate), the labels moved apart where the
    lines end close together (`spacing` apart at least: the line a label's type takes; by default
    1.25 of the type)."""
    players = list(sheet.game.players)
    last = sheet.game.rules.last_round
    if size:
        most_total = max([0] + [t for r in sheet.rows for t in r.totals.values()])
        left = len(str(nice_scale(most_total)[0])) * 0.62 * size + size * 0.6 if left is None else left
        top = size * 0.7 if top is None else top
        bottom = size * 1.9 if bottom is None else bottom
        right = size * 0.8 if right is None else right
        if labels:                 # the labels need this much after the lines' end; the rounds to come give some
            measure = measure or (lambda text: label_width(text, size))
            need = size * 1.9 + max([measure(label_text(p, players)) for p in players if label_text(p, players)] + [0])
            after = (last - max([r.round for r in sheet.rows] + [0])) / last
            right = max(right, (need - (width - left) * after) / (1 - after) if after < 1 else 0)
    left, right = 34 if left is None else left, 8 if right is None else right
    top, bottom = 8 if top is None else top, 22 if bottom is None else bottom
    colours = colours or list(range(len(players)))
    most = max([0] + [t for r in sheet.rows for t in r.totals.values()])
    scale_top, scale_step = nice_scale(most)
    plot_w, plot_h = width - left - right, height - top - bottom

    def x(n):
        return left + plot_w * n / last

    def y(total):
        return top + plot_h * (1 - total / scale_top)

    leaders = set(sheet.leaders)
    lines = []
    for seat, player in enumerate(players):
        points = [Point(x(0), y(0), 0, 0, False)]
        points += [Point(x(r.round), y(r.totals[player]), r.round, r.totals[player], r.scores[player].score == 0)
                   for r in sheet.rows]
        lines.append(Line(player, seat, colours[seat] % len(COLOURS), shape(seat), tuple(points),
                          player in leaders and bool(sheet.rows)))
    lines.sort(key=lambda line: line.leader)               # the leader's line drawn last, on top
    y_ticks = tuple((y(v), v) for v in range(0, scale_top + 1, scale_step))
    x_ticks = tuple((x(n), n) for n in range(1, last + 1))
    end = max(line.points[-1].x for line in lines) if lines else left
    placed = end_labels(lines, players, end + size * 0.9, top, height - bottom, spacing or size * 1.25) if labels else ()
    return Chart(width, height, left, right, top, bottom, tuple(lines), y_ticks, x_ticks, placed, size)


def end_labels(lines, players, x, top, bottom, spacing):
    """A Label for each line at its end (at `x`), `spacing` apart at least and within top..bottom:
    each goes as near its line's last point as it can, those that end close together moved apart
    around where they end, in the order they end."""
    ends = sorted(lines, key=lambda line: (line.points[-1].y, line.seat))
    wanted = [line.points[-1].y for line in ends]
    placed = []
    for y in wanted:                                       # downwards: each below the one above
        placed.append(max(y, placed[-1] + spacing) if placed else y)
    shift = max(0.0, placed[-1] - bottom) if placed else 0
    placed = [y - shift for y in placed]
    for i in range(len(placed) - 2, -1, -1):               # and upwards again, where the bottom pushed
        placed[i] = min(placed[i], placed[i + 1] - spacing)
    lift = max(0.0, top - placed[0]) if placed else 0      # more lines than the height holds: spread evenly
    if lift:
        step = (bottom - top) / max(1, len(placed) - 1)
        placed = [top + i * step for i in range(len(placed))]
    return tuple(Label(line, label_text(line.player, players), x, round(y, 1)) for line, y in zip(ends, placed))


def marker(shape, x, y, r=3.6):
    """An SVG path for a marker of this shape centred on (x, y)."""
    def polygon(corners, start=-pi / 2, radius=r):
        pts = [(x + radius * cos(start + 2 * pi * i / corners), y + radius * sin(start + 2 * pi * i / corners))
               for i in range(corners)]
        return 'M' + ' L'.join(f'{a:.1f},{b:.1f}' for a, b in pts) + ' Z'
    if shape == 'circle':
        return f'M{x - r:.1f},{y:.1f} a{r},{r} 0 1,0 {2 * r},0 a{r},{r} 0 1,0 {-2 * r},0 Z'
    if shape == 'square':
        s = r * 0.9
        return f'M{x - s:.1f},{y - s:.1f} H{x + s:.1f} V{y + s:.1f} H{x - s:.1f} Z'
    if shape == 'triangle':
        return polygon(3, radius=r * 1.2)
    if shape == 'down':
        return polygon(3, start=pi / 2, radius=r * 1.2)
    if shape == 'diamond':
        return polygon(4, radius=r * 1.2)
    if shape == 'hexagon':
        return polygon(6)
    if shape == 'star':
        pts = [(x + (r * 1.3 if i % 2 == 0 else r * 0.55) * cos(-pi / 2 + pi * i / 5),
                y + (r * 1.3 if i % 2 == 0 else r * 0.55) * sin(-pi / 2 + pi * i / 5)) for i in range(10)]
        return 'M' + ' L'.join(f'{a:.1f},{b:.1f}' for a, b in pts) + ' Z'
    w = r * 0.45                                                   # cross
    return (f'M{x - w:.1f},{y - r:.1f} H{x + w:.1f} V{y - w:.1f} H{x + r:.1f} V{y + w:.1f} H{x + w:.1f} '
            f'V{y + r:.1f} H{x - w:.1f} V{y + w:.1f} H{x - r:.1f} V{y - w:.1f} H{x - w:.1f} Z')


def wins_race(points, players, colours=None, width=340, height=200, size=12):
    """The running count of wins at a table as a chart, as race() draws a game's totals: a line per
    player (`players`, in the standings' order, each with its colour and a marker by that order) from
    0 before the first counted game to their wins after each one (`points`: [{player: wins so far}],
    oldest first); the leaders' lines heavier, a marker at each line's end."""
    colours = colours or list(range(len(players)))
    games = len(points)
    most = max([0] + [wins for point in points for wins in point.values()])
    scale_top, scale_step = nice_scale(max(most, 1))
    x_top, x_step = nice_scale(max(games, 1))
    left = len(str(scale_top)) * 0.62 * size + size * 0.6
    top, bottom, right = size * 0.7, size * 1.9, size * 0.8
    plot_w, plot_h = width - left - right, height - top - bottom

    def x(n):
        return left + plot_w * n / max(games, 1)

    def y(wins):
        return top + plot_h * (1 - wins / scale_top)

    final = {p: (points[-1].get(p, 0) if points else 0) for p in players}
    best = max(final.values(), default=0)
    lines = []
    for seat, player in enumerate(players):
        drawn = [Point(x(0), y(0), 0, 0, False)]
        drawn += [Point(x(n), y(point.get(player, 0)), n, point.get(player, 0), False)
                  for n, point in enumerate(points, 1)]
        lines.append(Line(player, seat, colours[seat] % len(COLOURS), shape(seat), tuple(drawn),
                          best > 0 and final[player] == best))
    lines.sort(key=lambda line: line.leader)
    y_ticks = tuple((y(v), v) for v in range(0, scale_top + 1, scale_step))
    x_ticks = tuple((x(n), n) for n in range(x_step, games + 1, x_step)) if games else ()
    return Chart(width, height, left, right, top, bottom, tuple(lines), y_ticks, x_ticks, (), size)
