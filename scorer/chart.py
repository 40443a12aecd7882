"""The race as a chart: each player's running total, round by round, as geometry for an SVG.

Pure numbers, no drawing library: `race()` places every point of every line in a box of the
given size; templates draw it (the sheet, the print, the picture to share). Each player has a
colour (chosen for the game) and a marker shape (by seat), so the chart reads without colour
too; a round scored 0 gets a filled marker, and the leader's line is drawn heavier.
"""

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


def race(sheet, colours=None, width=340, height=200, left=34, right=8, top=8, bottom=22):
    """The chart of a sheet: a line per player from 0 before round 1 to their total after each round."""
    players = list(sheet.game.players)
    colours = colours or list(range(len(players)))
    last = sheet.game.rules.last_round
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
        lines.append(Line(player, seat, colours[seat] % len(COLOURS), SHAPES[seat % len(SHAPES)], tuple(points),
                          player in leaders and bool(sheet.rows)))
    lines.sort(key=lambda line: line.leader)               # the leader's line drawn last, on top
    y_ticks = tuple((y(v), v) for v in range(0, scale_top + 1, scale_step))
    x_ticks = tuple((x(n), n) for n in range(1, last + 1))
    return Chart(width, height, left, right, top, bottom, tuple(lines), y_ticks, x_ticks)


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
