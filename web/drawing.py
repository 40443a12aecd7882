"""The jobs of the pool (web/pool.py): the shared picture drawn (SVG or PNG) and a game file read to
import. Each takes all it needs as arguments (the game, its sheet, the page's language, the fonts'
folder) and uses no Flask, so a pool process runs it as the server would: the words from the same
catalogs, the SVG from the same template (through web/phone.py's Jinja, as the phone draws its pages).
"""

import json
import os
import tempfile
from functools import lru_cache

import resvg_py
from babel.support import Translations

import scorer.i18n
from scorer.gamefile import read_earlier, read_game
from scorer.tablefile import read_table

from .phone import phone
from .picture import MARGIN, WIDTH, lay_out
from .typeface import FAMILY, Typeface

PNG_ZOOM = 2        # the PNG at twice the picture's size: sharp on a phone's screen (two pixels a point)

_typefaces = {}


@lru_cache(maxsize=16)
def translations(catalogs, language):
    """The compiled catalog of a language from the app's folders of catalogs (the first that has it)."""
    for folder in catalogs:
        found = Translations.load(folder, [language])
        if isinstance(found, Translations):
            return found
    return Translations.load(catalogs[0] if catalogs else '.', [language])


def speaking(catalogs, language):
    """The words of scorer/ (and so of the picture and the referee) in this language, from these catalogs."""
    return scorer.i18n.speaking(translations(tuple(catalogs), language), language)


def typeface(fonts, warm=False):
    """The Typeface of the Noto packages under this folder, read once a process (and with `warm`, its
    Latin files read ahead: create_app does, so no printed sheet's request reads them)."""
    if fonts not in _typefaces:
        _typefaces[fonts] = Typeface(fonts)
    if warm:
        _typefaces[fonts].warm()        # once: after that, what it reads is kept (its caches)
    return _typefaces[fonts]


def picture(game, sheet, colours, theme, language, catalogs, fonts, kind):
    """The result picture of a game in the page's language and theme: SVG text (its fonts embedded),
    or PNG bytes drawn by resvg in the same fonts."""
    with speaking(catalogs, language):
        drawn = lay_out(game, sheet, colours, typeface(fonts), theme)
        svg = phone().render('games/picture.svg', picture=drawn, width=WIDTH, margin=MARGIN, family=FAMILY)
    return svg if kind == 'svg' else png(drawn, svg)


def png(drawn, svg):
    """The SVG drawn by resvg, its fonts written to a folder removed at once."""
    with tempfile.TemporaryDirectory() as folder:
        files = []
        for weight, font in drawn.fonts.items():
            if font.data:
                files.append(os.path.join(folder, f'{weight}.ttf'))
                with open(files[-1], 'wb') as out:
                    out.write(font.data)
        return bytes(resvg_py.svg_to_bytes(svg_string=svg, font_files=files or None, zoom=PNG_ZOOM))


def game_file(data, language, catalogs):
    """A game file read and checked whole (scorer.gamefile.read_game, and the earlier versions of its
    rounds: read_earlier), its messages in this language: (game, earlier)."""
    with speaking(catalogs, language):
        game = read_game(data)
        return game, read_earlier(json.loads(data), game)


def table_file(data, language, catalogs):
    """A table file read and checked whole (scorer.tablefile.read_table: every game by the game file's
    rules), its messages in this language: a TableFile."""
    with speaking(catalogs, language):
        return read_table(data)
