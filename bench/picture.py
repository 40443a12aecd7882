"""The shared picture's worst case: a game whose title, place and eight names draw each character
from another font file (what a hostile table could type), against a plain one; first and again."""

import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app import create_app                                   # noqa: E402
from scorer.limits import MAX_NAME, MAX_TEXT                 # noqa: E402
from tests.helpers import new_game_form, round_form         # noqa: E402
from web.typeface import Typeface                            # noqa: E402


def scattered(typeface, count):
    """`count` characters, each from another subset file of the CJK packages."""
    from fontTools.ttLib import TTFont
    from web.typeface import path_of
    chars = []
    for pattern, name, spans in typeface.subsets:
        if 'noto-sans-' in str(pattern) and '-wght-' in str(pattern):
            with TTFont(path_of(str(pattern), name), lazy=True) as font:
                cmap = font.getBestCmap()
            ch = next((chr(c) for c in sorted(cmap) if c > 0x3000 and chr(c) not in chars), None)
            if ch and typeface.source(ch) == (str(pattern), name):
                chars.append(ch)
        if len(chars) == count:
            return ''.join(chars)
    return ''.join(chars)


def timed(client, url, what):
    start = time.perf_counter()
    r = client.get(f'{url}/picture.{what}')
    assert r.status_code == 200
    return (time.perf_counter() - start) * 1000


def main():
    folder = tempfile.mkdtemp()
    app = create_app({'TESTING': True, 'DATABASE': os.path.join(folder, 'bench.sqlite'), 'SECRET_KEY': 'bench',
                      'WTF_CSRF_ENABLED': False})
    client = app.test_client()
    odd = scattered(Typeface(app.config['NODE_MODULES']), MAX_TEXT * 2 + 8 * MAX_NAME)
    games = {
        'plain, 4 players': (['Ana', 'Bruno', 'Carla', 'Dan'], 'Sunday game', ''),
        f'hostile, 8 players, {len(odd)} characters from as many font files': (
            [(odd[i * 23:] + odd)[:MAX_NAME] for i in range(8)], odd[:MAX_TEXT], odd[MAX_TEXT:MAX_TEXT * 2]),
    }
    for label, (players, title, place) in games.items():
        r = client.post('/games/new', data=new_game_form(players, title=title, place=place))
        assert r.status_code == 302, r.get_data(as_text=True)[-3000:]
        url = r.headers['Location']
        client.post(f'{url}/rounds/1', data=round_form(0, points=[None] + ['12'] * (len(players) - 1)))
        svg, again, png = timed(client, url, 'svg'), timed(client, url, 'svg'), timed(client, url, 'png')
        print(f'{label}: SVG {svg:.0f} ms the first time, {again:.0f} ms again; PNG {png:.0f} ms')


if __name__ == '__main__':
    main()
