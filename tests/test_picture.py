"""The shared picture reads right: laid out from measured text in the font it is drawn in, so that in
every language, with 2 to 8 players, the longest names, titles and places and the largest totals,
no text overlaps another or is cut, and Chinese, Japanese and Korean names are drawn, not boxes."""

import io
import itertools
import os
import tempfile

import pytest
import resvg_py
from PIL import Image

from scorer.chart import label_text
from scorer.limits import MAX_NAME, MAX_POINTS, MAX_TEXT
from tests.helpers import LANGUAGES, LANGUAGES_DRAWN, new_game, new_game_form, play_rounds

# Long names of wide letters, and of the scripts the picture's fonts cover: each MAX_NAME long.
NAMES = [(base * MAX_NAME)[:MAX_NAME] for base in (
    'Wolfgang Maximilian Wagner ', 'MMMMMMMMMM', '王小明张伟李娜', 'さくらサクラ桜', '김민준서연',
    'Жора Жоржевич Жуковский ', 'Ωμέγα Ψυχή Ψψψ ', 'Ñandú Gonçalves da Conceição ')]
TITLES = {'latin': ('Campeonato anual de Three-Thirteen da família Gonçalves e amigos — WWW ' * 2)[:MAX_TEXT],
          'cjk': ('三十三扑克牌年度锦标赛第一届决赛' * 6)[:MAX_TEXT]}
PLACE = ('Casa de campo dos avós em São João da Madeira, ao pé do rio, Portugal ' * 2)[:MAX_TEXT]


def play(client, players, title, rounds=11):
    """A game of these players played to its end (or `rounds`): seat 0 goes out each round, seat 1
    scores 0 too (a tie, broken in words), the others score as much as a round takes."""
    url = new_game(client, players, title=title, place=PLACE)
    play_rounds(client, url, rounds, players, went_out=0, points=lambda seat, n: 0 if seat == 1 else MAX_POINTS - seat)
    return url


BOXES = """() => [...document.querySelectorAll('text')].map(t => {
  const b = t.getBBox();
  return {text: t.textContent, x: b.x, y: b.y, w: b.width, h: b.height};
})"""


def overlaps(a, b, slack=0.5):
    """Whether two boxes share more than a hair."""
    return (min(a['x'] + a['w'], b['x'] + b['w']) - max(a['x'], b['x']) > slack and
            min(a['y'] + a['h'], b['y'] + b['h']) - max(a['y'], b['y']) > slack)


CASES = [(language, count, title) for language in LANGUAGES for count in (2, 4, 8)
         for title in ('latin', 'cjk')]


@pytest.mark.browser
@pytest.mark.long
def test_no_text_overlaps_or_is_cut(app, browser):
    """Chromium draws each picture in its embedded font; every text box lies inside the picture and
    clear of every other one, the names at the lines' ends included."""
    from tests.server import Server
    client = app.test_client()
    games = {(count, title): play(client, NAMES[:count], TITLES[title]) for count in (2, 4, 8) for title in TITLES}
    games['short'] = play(client, ['Ana', 'Bo'], '', rounds=1)
    with Server(app) as server:
        context = browser.new_context(viewport={'width': 640, 'height': 900})
        page = context.new_page()
        for language, count, title in CASES + [('es', 'short', None)]:
            url = games[(count, title)] if title else games[count]
            for theme in ('light', 'dark'):
                page.goto(f'{server.url}{url}/picture.svg?lang={language}&theme={theme}')
                page.evaluate('document.fonts.ready')
                faces = page.evaluate("[...document.fonts].map(f => f.family.replaceAll('\"', '') + ' ' + f.weight + ' ' + f.status)")
                assert sorted(faces) == ['Three-Thirteen Picture 400 loaded', 'Three-Thirteen Picture 700 loaded']
                width, height = page.evaluate('[document.documentElement.width.baseVal.value, document.documentElement.height.baseVal.value]')
                boxes = page.evaluate(BOXES)
                for box in boxes:
                    assert box['w'] > 0 and 0 <= box['x'] and box['x'] + box['w'] <= width, (language, count, box)
                    assert 0 <= box['y'] and box['y'] + box['h'] <= height, (language, count, box)
                for a, b in itertools.combinations(boxes, 2):
                    assert not overlaps(a, b), (language, count, title, a, b)
                text = ''.join(b['text'] for b in boxes)
                names = NAMES[:count] if title else ['Ana', 'Bo']
                for name in names:
                    assert name.replace(' ', '') in text.replace(' ', ''), name     # every name whole, maybe wrapped
                    said = label_text(name, names)            # and its line named at its end (issue 48), clear of all
                    assert not said or said in [b['text'] for b in boxes], (language, count, said)
                page.screenshot(path=str(shot_path(f'picture-{language}-{count}-{title}-{theme}.png')))
        context.close()


def shot_path(name):
    folder = os.path.join(os.path.dirname(__file__), 'artifacts')
    os.makedirs(folder, exist_ok=True)
    return os.path.join(folder, name)


def test_the_png_is_drawn_light_or_dark_in_every_language(client):
    """The server's PNG (resvg) for the three languages (the quick core: one) and both themes; saved to look at."""
    url = play(client, NAMES[:8], TITLES['latin'])
    for language in LANGUAGES_DRAWN:
        light = client.get(f'{url}/picture.png?lang={language}').data
        dark = client.get(f'{url}/picture.png?lang={language}&theme=dark').data
        assert light[:8] == dark[:8] == b'\x89PNG\r\n\x1a\n' and light != dark
        assert corner(light) == (255, 255, 255) and corner(dark) == (0x10, 0x12, 0x14)
        for theme, png in (('light', light), ('dark', dark)):
            with open(shot_path(f'picture-png-{language}-8-{theme}.png'), 'wb') as out:
                out.write(png)


def corner(png):
    """The colour of the pixel at (20, 30): the picture's background."""
    return Image.open(io.BytesIO(png)).convert('RGB').getpixel((20, 30))


def test_the_svg_may_load_only_its_own_fonts(client):
    url = play(client, ['Ana', 'Bo'], '', rounds=1)
    r = client.get(url + '/picture.svg')
    assert r.headers['Content-Security-Policy'] == "default-src 'none'; style-src 'unsafe-inline'; font-src data:"
    assert 'url(data:font/ttf;base64,' in r.get_data(as_text=True)


def ink(svg, fonts):
    """The PNG resvg draws of the SVG in only these fonts, as rows of grey levels."""
    with tempfile.TemporaryDirectory() as folder:
        files = []
        for font in fonts:
            files.append(os.path.join(folder, f'{font.weight}.ttf'))
            with open(files[-1], 'wb') as out:
                out.write(font.data)
        png = bytes(resvg_py.svg_to_bytes(svg_string=svg, font_files=files, skip_system_fonts=True))
    return Image.open(io.BytesIO(png)).convert('L')


@pytest.mark.parametrize('text', ['WWW Ww', '王小明', 'さくら', '김민준', 'Жора Ψυχή', 'Ñandú 109989', 'i.l|'])
@pytest.mark.parametrize('weight', [400, 700])
def test_resvg_draws_within_the_measured_width_in_the_cut_font(app, text, weight):
    """What the layout measures is what the server draws: the ink of a text set at x=10 ends
    within its measured width, and reaches near it (the font really is the one measured)."""
    from web.typeface import FAMILY, Typeface
    font = Typeface(app.config['NODE_MODULES']).cut(''.join(sorted(set(text))), weight)
    assert font.data and set(text) - {' '} <= set(font.advances)
    size, measured = 40, font.width(text, 40)
    svg = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{int(measured) + 40}" height="80">'
           f'<rect width="100%" height="100%" fill="#fff"/><text x="10" y="55" font-family="{FAMILY}" '
           f'font-size="{size}" font-weight="{weight}">{text}</text></svg>')
    image = ink(svg, [font])
    columns = [x for x in range(image.width) if any(image.getpixel((x, y)) < 128 for y in range(image.height))]
    assert columns, 'nothing drawn'
    assert 10 - 1 <= columns[0] and columns[-1] <= 10 + measured + 1
    assert columns[-1] >= 10 + measured - size * 0.35        # no more than one side bearing short


def test_each_character_is_its_own_glyph_not_a_box(app):
    """Different characters draw differently: a missing glyph would draw the same empty box."""
    from web.typeface import FAMILY, Typeface
    typeface = Typeface(app.config['NODE_MODULES'])
    pictures = {}
    for ch in '王明さ김Жψ':
        font = typeface.cut(ch, 400)
        svg = (f'<svg xmlns="http://www.w3.org/2000/svg" width="60" height="60"><rect width="100%" height="100%" '
               f'fill="#fff"/><text x="5" y="45" font-family="{FAMILY}" font-size="40">{ch}</text></svg>')
        pictures[ch] = ink(svg, [font]).tobytes()
        assert min(pictures[ch]) < 64, ch                   # something dark was drawn
    assert len(set(pictures.values())) == len(pictures)


def test_a_picture_takes_its_characters_from_a_bounded_number_of_font_files(app):
    """Text chosen so that each character lives in another font file can't make a cut slow: past
    MAX_PICTURE_FONTS files, characters are reserved a full em (and left to the system's fonts)."""
    from bench.picture import scattered
    from scorer.limits import MAX_PICTURE_FONTS
    from web.typeface import UNKNOWN_WIDTH, Typeface
    typeface = Typeface(app.config['NODE_MODULES'])
    odd = scattered(typeface, MAX_PICTURE_FONTS + 10)
    assert len({typeface.source(ch) for ch in odd}) == len(odd) == MAX_PICTURE_FONTS + 10
    font = typeface.cut(''.join(sorted(odd)), 700)
    assert font.files == MAX_PICTURE_FONTS
    left_out = [ch for ch in odd if ch not in font.advances]
    assert len(left_out) == 10 and font.width(''.join(left_out), 20) == 10 * 20 * UNKNOWN_WIDTH


def test_hostile_names_and_titles_stay_text_in_the_picture(client):
    r = client.post('/games/new', data=new_game_form(['<script>a</script>', 'B&"x'], title='</text><x y="1">'))
    svg = client.get(r.headers['Location'] + '/picture.svg').get_data(as_text=True)
    assert '<script>' not in svg and '<x ' not in svg
    assert '&lt;script&gt;a&lt;/script&gt;' in svg and '&lt;/text&gt;&lt;x y=&#34;1&#34;&gt;' in svg


def test_the_png_is_drawn_at_twice_the_pictures_size(client):
    """Issue 39: the PNG was as wide as the picture (600 px), soft on a phone's screen; it is drawn at
    two pixels a unit of the SVG, so a phone shows it sharp, and the same picture, not cropped."""
    import re
    url = play(client, NAMES[:4], TITLES['latin'])
    svg = client.get(f'{url}/picture.svg').get_data(as_text=True)
    width, height = (float(v) for v in re.search(r'viewBox="0 0 ([\d.]+) ([\d.]+)"', svg).groups())
    png = Image.open(io.BytesIO(client.get(f'{url}/picture.png').data))
    assert width >= 600 and png.size == (round(width * 2), round(height * 2))


@pytest.mark.parametrize('language, phrase', [('en', '6\u00a0to\u00a04'), ('es', '6\u00a0a\u00a04'), ('pt', '6\u00a0a\u00a04')])
def test_a_score_phrase_stays_on_one_line(app, language, phrase):
    """A tie broken on zero rounds says '… 6 a 4.': however narrow its room, the picture's lines
    never part '6' from 'a 4' (no-break spaces, which wrap() never breaks at)."""
    from scorer.i18n import speaking
    from scorer.sheet import tie_break_words
    from web.phone import phone
    from web.picture import wrap
    from web.typeface import Typeface

    class Standing:
        def __init__(self, player, total, zero_rounds, place):
            self.player, self.total, self.zero_rounds, self.place = player, total, zero_rounds, place
    standings = [Standing('Inés Gonçalves', 48, 6, 1), Standing('Bruno Oliveira', 48, 4, 2)]
    with speaking(phone().translations(language), language):
        words = tie_break_words(standings, 'zero_rounds', final=True) + '.'
    assert phrase in words
    font = Typeface(app.config['NODE_MODULES']).cut(''.join(sorted(set(words))), 700)
    widest = max(font.width(word, 18) for word in words.split(' '))      # a word is never wider than its room
    for room in range(int(widest) + 1, int(font.width(words, 18)) + 20, 3):
        lines = wrap(words, font, 18, room)
        assert any(phrase in line for line in lines), (room, lines)
        assert ''.join(lines).replace(' ', '') == words.replace(' ', ''), lines


def test_every_line_of_the_picture_is_named_at_its_end(app):
    """Issue 48 (8): the picture's race named no line at its end, though the big screen's does. Now
    each line is named by the big screen's rule (scorer.chart.label_text: the first word, a long one
    shortened with '…', the words that tell two apart where they share it), in the picture's bold type, right of
    every line's end and inside the picture, in glyphs its font holds ('…' included)."""
    import dataclasses

    from scorer.sheet import compute_sheet
    from tests.test_race import played
    from web.picture import MARGIN, RIGHT, lay_out
    from web.typeface import Typeface
    players = ['诸葛亮孔明之卧龙先生南阳躬耕于隆中好为梁父吟每自比于管仲', 'Featherstonehaughington Smythe', 'Zoë',
               'Ana Lima', 'Ana Sousa']
    for rounds in (4, 11):
        sheet = compute_sheet(dataclasses.replace(played(players, rounds).game, date='2026-12-03'))
        picture = lay_out(sheet.game, sheet, list(range(len(players))), Typeface(app.config['NODE_MODULES']))
        said = {label.line.player: label.text for label in picture.chart.labels}
        assert said == {players[0]: '诸葛亮孔明之…', players[1]: 'Feathersto…', 'Zoë': 'Zoë', 'Ana Lima': 'Ana Lima',
                        'Ana Sousa': 'Ana Sousa'}
        bold = picture.fonts[700]
        ends = MARGIN + max(line.points[-1].x for line in picture.chart.lines)
        for text in ('诸葛亮孔明之…', 'Feathersto…', 'Zoë'):
            drawn = [t for t in picture.texts if t.text == text and t.weight == 700]      # a name in the standings is 400
            assert len(drawn) == 1, (rounds, text)
            assert ends < drawn[0].x and drawn[0].x + bold.width(text, drawn[0].size) <= RIGHT, (rounds, text)
            assert set(text) <= set(bold.advances), text


def test_the_pictures_leader_band_is_the_pages():
    """Issue 48 (8): dark mode's leader band was a muddy olive (#4a3f00) and became amber on the page;
    the picture kept the olive. Its leader colours are the page's own (style.css --leader, light and dark)."""
    import re
    from pathlib import Path

    from web.picture import THEMES
    css = (Path(__file__).resolve().parent.parent / 'static' / 'style.css').read_text()
    light, dark = re.search(r'--leader: light-dark\((#[0-9a-f]{6}), (#[0-9a-f]{6})\)', css).groups()
    assert (THEMES['light']['leader'], THEMES['dark']['leader']) == (light, dark)
