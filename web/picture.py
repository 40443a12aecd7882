"""The result as a picture to share, laid out from measured text, light or dark, so nothing overlaps or
is cut (no Flask: drawn in the pool).

Every line of text is measured in the font the picture is drawn in (web.typeface) before it is
placed: a title, a place or a name too wide for its room wraps onto another line (at a space,
or between characters where a word alone is too wide) and the picture grows to hold it. Lines
are a font's height apart, columns as wide as their widest text, so nothing overlaps and nothing
is cut, in any language, for any name up to MAX_NAME and any title or place up to MAX_TEXT.
"""

import base64
import re
from dataclasses import dataclass, field

from scorer.chart import PALETTE, PALETTE_DARK, SHAPES, label_text, marker, race
from scorer.i18n import _, ngettext, pgettext
from scorer.sheet import winner_words

from .templating import day

WIDTH = 600
MARGIN = 20
RIGHT = WIDTH - MARGIN          # the right edge of everything
THEMES = {                      # the leader's band is the page's --leader (style.css; test_picture)
    'light': {'bg': '#ffffff', 'fg': '#111111', 'muted': '#4a4a4a', 'accent': '#0b5d1e', 'band': '#0b5d1e',
              'row': '#f3f3f0', 'leader': '#fff2b3', 'grid': '#d0d0d0', 'palette': PALETTE},
    'dark': {'bg': '#101214', 'fg': '#f2f2f2', 'muted': '#b8b8b8', 'accent': '#5cc878', 'band': '#3fa35a',
             'row': '#1c2024', 'leader': '#5a3d00', 'grid': '#3d4247', 'palette': PALETTE_DARK},
}
SEPARATOR = ' · '
LABEL_SIZE = 13               # the type of a line's name at its end, as the zero rounds' beside the totals


@dataclass(frozen=True)
class Text:
    x: float
    y: float                    # the baseline
    text: str
    size: float
    weight: int = 400
    fill: str = 'fg'            # a role of the theme
    anchor: str = 'start'
    halo: bool = False          # edged in the background's colour: no grid line or other line runs through it


@dataclass(frozen=True)
class Box:
    x: float
    y: float
    width: float
    height: float
    fill: str
    rx: float = 0


@dataclass
class Picture:
    theme: dict
    title: str
    fonts: dict                 # weight -> Font
    texts: list = field(default_factory=list)
    boxes: list = field(default_factory=list)
    marks: list = field(default_factory=list)     # (svg path, colour)
    chart: object = None
    chart_top: float = 0
    height: float = 0

    @property
    def font_faces(self):
        """@font-face rules embedding the cut fonts, so a browser draws the widths that were measured."""
        return [(weight, base64.b64encode(font.data).decode()) for weight, font in self.fonts.items() if font.data]


def words(game, sheet):
    """Every string the picture shows, in the page's language: what it is laid out from."""
    status = (pgettext('a part of a line', 'Game over') if sheet.finished else
              _('after round %(n)d of %(last)d', n=len(sheet.rows), last=game.rules.last_round))
    return {
        'title': game.title or ', '.join(game.players),
        'subtitle': [day(game.date)] + ([game.place] if game.place else []) + [game.rules.kind, status],
        'winner': winner_words(sheet) + '.' if winner_words(sheet) else '',
        'zeros': [ngettext('%(num)d zero round', '%(num)d zero rounds', st.zero_rounds) for st in sheet.standings],
    }


def lay_out(game, sheet, colours, typeface, theme='light'):
    """The picture in this typeface (web.typeface): every text, box and mark placed, and its height."""
    said = words(game, sheet)
    drawn = [said['title'], SEPARATOR.join(said['subtitle']), said['winner'], '0123456789–'] + said['zeros']
    drawn += [f'{st.place}{st.player}{st.total}' for st in sheet.standings]
    drawn += [label_text(player, game.players) for player in game.players]
    chars = ''.join(sorted(set(''.join(drawn))))
    fonts = {weight: typeface.cut(chars, weight) for weight in (400, 700)}
    regular, bold = fonts[400], fonts[700]
    picture = Picture(THEMES[theme], said['title'], fonts)
    picture.boxes.append(Box(0, 0, WIDTH, 8, 'band'))
    top = 22
    top = paragraph(picture, wrap(said['title'], bold, 26, RIGHT - MARGIN), top, 26, bold, 'fg')
    top = paragraph(picture, wrap_pieces(said['subtitle'], regular, 15, RIGHT - MARGIN), top + 4, 15, regular, 'muted')
    if said['winner']:
        top = paragraph(picture, wrap(said['winner'], bold, 18, RIGHT - MARGIN), top + 6, 18, bold, 'accent')
    top = standings(picture, game, sheet, colours, said['zeros'], top + 12)
    if sheet.rows:
        picture.chart_top = top + 16
        picture.chart = race_of(picture, sheet, colours, regular)
        top = picture.chart_top + picture.chart.height
    picture.height = round(top + MARGIN)
    return picture


def paragraph(picture, lines, top, size, font, fill, x=MARGIN):
    """Set the lines one under another from `top`; return where the last one ends."""
    for line in lines:
        picture.texts.append(Text(x, top + font.ascent * size, line, size, font.weight, fill))
        top += font.line(size)
    return top


def standings(picture, game, sheet, colours, zeros, top):
    """A row a player: place, marker, name (wrapped to its room), total and zero rounds."""
    regular, bold = picture.fonts[400], picture.fonts[700]
    palette = picture.theme['palette']
    zero_room = max(regular.width(z, 13) for z in zeros)
    total_room = max(bold.width(str(st.total), 18) for st in sheet.standings)
    total_right = RIGHT - 10 - zero_room - 16
    name_left = MARGIN + 56
    name_room = total_right - total_room - 14 - name_left
    for st, zero in zip(sheet.standings, zeros):
        seat = game.players.index(st.player)
        colour = palette[colours[seat] % len(palette)]
        names = wrap(st.player, regular, 18, name_room)
        height = 12 + max(regular.line(18) * len(names), bold.line(18))
        leader = st.place == 1 and bool(sheet.rows)
        picture.boxes.append(Box(MARGIN, top, RIGHT - MARGIN, height, 'leader' if leader else 'row', 6))
        picture.boxes.append(Box(MARGIN, top, 6, height, colour))
        baseline = top + 6 + regular.ascent * 18
        picture.texts.append(Text(MARGIN + 20, baseline, str(st.place) if sheet.rows else '–', 18, 700))
        picture.marks.append((marker(SHAPES[seat % len(SHAPES)], MARGIN + 42, baseline - 6, 5), colour))
        paragraph(picture, names, top + 6, 18, regular, 'fg', x=name_left)
        picture.texts.append(Text(total_right, baseline, str(st.total), 18, 700, anchor='end'))
        picture.texts.append(Text(RIGHT - 10, baseline, zero, 13, 400, 'muted', anchor='end'))
        top += height + 4
    return top


def race_of(picture, sheet, colours, font):
    """The race, its left margin as wide as its widest total, its tick labels placed as texts, and
    each line named at its end as the big screen names it (scorer.chart's labels), the room on the
    right as wide as the widest label measured in the picture's bold type."""
    bold = picture.fonts[700]
    chart = dict(width=RIGHT - MARGIN, height=300, size=LABEL_SIZE, top=8, bottom=22, labels=True,
                 measure=lambda text: bold.width(text, LABEL_SIZE), spacing=bold.line(LABEL_SIZE))
    drawn = race(sheet, colours, left=34, **chart)
    left = max(drawn.left, 10 + max(font.width(str(v), 11) for y, v in drawn.y_ticks))
    if left > drawn.left:
        drawn = race(sheet, colours, left=left, **chart)
    for y, v in drawn.y_ticks:
        picture.texts.append(Text(MARGIN + drawn.left - 5, picture.chart_top + y + 4, str(v), 11, 400, 'muted', 'end'))
    for x, n in drawn.x_ticks:
        picture.texts.append(Text(MARGIN + x, picture.chart_top + drawn.height - 6, str(n), 11, 400, 'muted', 'middle'))
    for label in drawn.labels:
        if label.text:
            picture.texts.append(Text(MARGIN + label.start(LABEL_SIZE), picture.chart_top + label.baseline(LABEL_SIZE),
                                      label.text, LABEL_SIZE, 700, halo=True))
    return drawn


def wrap(text, font, size, room):
    """The text as lines no wider than `room`: broken at spaces, inside a word only when the word
    alone is too wide (a name with no space, or Chinese, which has none); never at a no-break space
    (a score like '6 to 4' stays on one line)."""
    lines, line = [], ''
    for word in re.split(r'[^\S\u00a0\u202f]+', text.strip()):
        tried = f'{line} {word}' if line else word
        if font.width(tried, size) <= room:
            line = tried
            continue
        if line:
            lines.append(line)
            line = ''
        for ch in word:
            if line and font.width(line + ch, size) > room:
                lines.append(line)
                line = ''
            line += ch
    return lines + [line] if line or not lines else lines


def wrap_pieces(pieces, font, size, room):
    """Pieces joined by ' · ' as lines no wider than `room`, broken between pieces (no line
    starts with '·'); a piece too wide for a line of its own is wrapped itself."""
    lines = []
    for piece in pieces:
        if lines and font.width(lines[-1] + SEPARATOR + piece, size) <= room:
            lines[-1] += SEPARATOR + piece
        else:
            lines += wrap(piece, font, size, room)
    return lines
