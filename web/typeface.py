"""The shared picture's type: Noto Sans from npm, cut down to the characters one picture uses (from
at most MAX_PICTURE_FONTS files), measured, embedded in the SVG and given to resvg; and the
measure of a printed name's words (Typeface.ems, web/export.names_set).

Latin, Greek and Cyrillic come from Noto Sans; Chinese, Japanese and Korean from Noto Sans SC, JP
and KR (in that order, the first that has a character draws it). The packages split each font
into small files by range of characters; a picture takes only the files its text needs, keeps only
its own characters from them, fixes the weight (400 or 700) and merges them into one small font
per weight. That same font is measured for the layout, embedded in the SVG and handed to resvg
for the PNG, so the widths the layout reserved are the widths drawn, in the browser and on the
server alike: no system font decides.

The packages ship WOFF2, which takes most of a cut's time to unpack; `python -m web.typeface
node_modules` (run by make after npm ci) unpacks every file to TTF once, beside them. A picture
takes its characters from at most MAX_PICTURE_FONTS files, so no text, however chosen, makes a
cut slow; characters beyond are reserved a full em and left to the system's fonts.

Kerning and other layout features are left out, so a text's width is the sum of its advances.
Scripts that need shaping (Arabic, Hebrew, the Indic scripts) are not covered; a character no
package has is reserved a full em and left to the system's fonts.
"""

import io
import json
import os
import sys
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from fontTools import merge, subset
from fontTools.ttLib import TTFont
from fontTools.varLib import instancer

from scorer.limits import MAX_PICTURE_FONTS

FAMILY = 'Three-Thirteen Picture'
WEIGHTS = (400, 700)
# (npm package, its file for a subset and a weight): the fallback order for every character.
PACKAGES = (
    ('@fontsource/noto-sans', 'noto-sans-{subset}-{weight}-normal.woff2'),
    ('@fontsource-variable/noto-sans-sc', 'noto-sans-sc-{subset}-wght-normal.woff2'),
    ('@fontsource-variable/noto-sans-jp', 'noto-sans-jp-{subset}-wght-normal.woff2'),
    ('@fontsource-variable/noto-sans-kr', 'noto-sans-kr-{subset}-wght-normal.woff2'),
)
UNKNOWN_WIDTH = 1.0   # ems reserved for a character no package draws
LEFT_OUT = ['GSUB', 'GPOS', 'GDEF', 'BASE', 'STAT', 'vhea', 'vmtx', 'gasp', 'prep', 'fpgm', 'cvt ']


@dataclass(frozen=True)
class Font:
    """One weight of the picture's font: its file (TTF bytes, or None without the packages) and advances."""
    weight: int
    data: bytes | None
    advances: dict      # character -> advance in ems
    ascent: float = 1.07  # ems above the baseline and below it that a line of this font takes
    descent: float = 0.3
    files: int = 0        # subset files its characters came from

    def line(self, size):
        """The height of a line at this size, in px: lines this far apart never touch."""
        return size * (self.ascent + self.descent)

    def width(self, text, size):
        """The width of the text set in this font at this size, in px."""
        return size * sum(self.advances.get(ch, UNKNOWN_WIDTH) for ch in text)


class Typeface:
    """The Noto packages under an npm node_modules folder, read on demand."""

    def __init__(self, node_modules):
        self.root = Path(node_modules)
        self.subsets = tuple(self._subsets())

    @property
    def available(self):
        """Whether the packages are installed (without them, text is measured at a full em a character)."""
        return bool(self.subsets)

    def _subsets(self):
        """(file pattern, subset name, ranges) of every subset file, in fallback order."""
        for package, pattern in PACKAGES:
            table = self.root / package / 'unicode.json'
            if not table.exists():
                continue
            for name, spec in json.loads(table.read_text()).items():
                yield self.root / package / 'files' / pattern, name.strip('[]'), tuple(ranges(spec))

    def warm(self):
        """Read ahead what measuring a printed name reads of the first package (Noto Sans: Latin,
        Greek, Cyrillic, Vietnamese): each file's characters and its advances at both weights, so
        that no request pays it (issue 48: the first printed sheet of a process read them on the
        event loop, 17-64 ms of CPU). Chinese, Japanese and Korean (some 350 files, about 0.9 s) are
        still read a file at a time, as a name first needs one."""
        first = PACKAGES[0][1]
        for pattern, name, _ in self.subsets:
            if pattern.name == first:
                characters(str(pattern), name)
                for weight in WEIGHTS:
                    advances(str(pattern), name, weight)

    @lru_cache(maxsize=4096)
    def source(self, ch):
        """The first subset (pattern, name) whose file really draws the character, or None."""
        code = ord(ch)
        for pattern, name, spans in self.subsets:
            if any(low <= code <= high for low, high in spans) and code in characters(str(pattern), name):
                return str(pattern), name
        return None

    def ems(self, text, weight=400):
        """The width of the text in this typeface, in ems: each character's advance from the first
        file that draws it, read from that file alone (no cut made); a full em where none does."""
        total = 0.0
        for ch in text:
            found = self.source(ch) if self.available else None
            total += advances(*found, weight).get(ord(ch), UNKNOWN_WIDTH) if found else UNKNOWN_WIDTH
        return total

    @lru_cache(maxsize=64)
    def cut(self, text, weight):
        """The font of this weight drawing the characters of the text (a sorted string of them)."""
        if not self.available:
            return Font(weight, None, {})
        parts = {}
        for ch in text:
            found = self.source(ch)
            if found and (found in parts or len(parts) < MAX_PICTURE_FONTS):
                parts.setdefault(found, []).append(ch)
        if not parts:
            return Font(weight, None, {})
        fonts = [piece(pattern, name, weight, ''.join(chars)) for (pattern, name), chars in parts.items()]
        font = merge.Merger().merge([io.BytesIO(f) for f in fonts]) if len(fonts) > 1 else TTFont(io.BytesIO(fonts[0]))
        rename(font, weight)
        out = io.BytesIO()
        font.save(out)
        em = font['head'].unitsPerEm
        glyphs, metrics = font.getBestCmap(), font['hmtx']
        advances = {ch: metrics[glyphs[ord(ch)]][0] / em for ch in text if ord(ch) in glyphs}
        return Font(weight, out.getvalue(), advances, *extent(font), len(fonts))


def ranges(spec):
    """'U+0000-00FF,U+0131' -> (0, 255), (305, 305)."""
    for part in spec.split(','):
        low, _, high = part.strip().removeprefix('U+').partition('-')
        yield int(low, 16), int(high or low, 16)

UNPACKED = '.picture-fonts'        # beside the packages: their files as TTF


def path_of(pattern, name, weight=400):
    """The subset file at this weight: unpacked to TTF if it has been, else the package's WOFF2."""
    packed = Path(pattern.format(subset=name, weight=weight))
    unpacked = packed.parents[3] / UNPACKED / (packed.stem + '.ttf')
    return str(unpacked if unpacked.exists() else packed)

@lru_cache(maxsize=512)
def characters(pattern, name):
    """The code points a subset file draws (its cmap: the package's ranges promise a few it lacks)."""
    with TTFont(path_of(pattern, name), lazy=True) as font:
        return frozenset(font.getBestCmap())

@lru_cache(maxsize=512)
def advances(pattern, name, weight):
    """{code point: advance in ems} of a subset file at this weight (a variable one at its default)."""
    with TTFont(path_of(pattern, name, weight), lazy=True) as font:
        em, metrics = font['head'].unitsPerEm, font['hmtx']
        return {code: metrics[glyph][0] / em for code, glyph in font.getBestCmap().items()}


def piece(pattern, name, weight, chars):
    """The characters from one subset file, at this weight, as TTF bytes with no layout tables."""
    font = TTFont(path_of(pattern, name, weight), lazy=True)
    options = subset.Options()
    options.layout_features = []
    options.drop_tables += LEFT_OUT
    options.notdef_outline = True
    options.name_IDs = ['*']
    cutter = subset.Subsetter(options)
    cutter.populate(text=chars)
    cutter.subset(font)
    if 'fvar' in font:
        font = instancer.instantiateVariableFont(font, {'wght': weight})
    for tag in LEFT_OUT:
        if tag in font:
            del font[tag]
    font.flavor = None
    out = io.BytesIO()
    font.save(out)
    return out.getvalue()

def extent(font):
    """(ascent, descent) in ems: the largest the font states anywhere (hhea, typo or win)."""
    em, hhea, os2 = font['head'].unitsPerEm, font['hhea'], font['OS/2']
    ascent = max(hhea.ascent, os2.sTypoAscender, os2.usWinAscent)
    descent = max(-hhea.descent, -os2.sTypoDescender, os2.usWinDescent)
    return ascent / em, descent / em

def unpack(node_modules):
    """Write every subset file of the packages as TTF under node_modules/.picture-fonts (once, at install)."""
    root = Path(node_modules)
    folder = root / UNPACKED
    folder.mkdir(exist_ok=True)
    count = 0
    packed_files = {packed for package, pattern in PACKAGES for weight in WEIGHTS
                    for packed in (root / package / 'files').glob(pattern.format(subset='*', weight=weight))}
    for packed in sorted(packed_files):
        target = folder / (packed.stem + '.ttf')
        if target.exists():
            continue
        font = TTFont(packed)
        font.flavor = None
        font.save(str(target) + '.part')
        os.replace(str(target) + '.part', target)
        count += 1
    return count


def rename(font, weight):
    """Name the merged font FAMILY at this weight, so the SVG and resvg both find it by name."""
    style = 'Bold' if weight >= 700 else 'Regular'
    names = font['name']
    names.names = [n for n in names.names if n.nameID not in (1, 2, 3, 4, 6, 16, 17)]
    for nid, value in ((1, FAMILY), (2, style), (3, f'{FAMILY} {style}'), (4, f'{FAMILY} {style}'),
                       (6, f'{FAMILY.replace(" ", "")}-{style}')):
        names.setName(value, nid, 3, 1, 0x409)
    font['OS/2'].usWeightClass = weight
    bold = weight >= 700
    font['OS/2'].fsSelection = (font['OS/2'].fsSelection & ~0b1100001) | (0b100000 if bold else 0b1000000)
    font['head'].macStyle = (font['head'].macStyle & ~1) | (1 if bold else 0)


if __name__ == '__main__':
    print(f'{unpack(sys.argv[1])} font files unpacked to TTF')
