"""Every screen a table shows, checked as a person looks at it (issue 39): the sheet, the player
stats and the games list on phones and laptops, and the big screen on TVs landscape and portrait,
in English, Spanish and Portuguese, light and dark, with 2, 4 and 8 players of long, accented and
Chinese names. On each: no text cut by its box or lying on another, no sideways scroll of the page,
and what each screen promises (below); a screenshot of each under tests/artifacts/screens/, and the
figures (the smallest type, the share of the screen used) in tests/artifacts/screens/figures.json.
Dark mode changes colours only, so its boxes are checked once, in light; in dark the marks' contrast.

One app and server for the module, one browser context for each language and theme, its viewport
resized for each screen: some 150 screens in about as many seconds."""

import json

import pytest

from app import create_app
from tests.helpers import LANGUAGES, LOOSE_RATES
from tests.browser import ARTIFACTS, PHONE, SETTLED, SIZES
from tests.screens import CAST, PLACE, TITLE, WIDEST, broken_words, cookies_of, make_game, sideways, smallest_type, text_problems
from tests.server import Server

# Four names of which two are long (a 30-letter hyphenated one), and two Chinese and Japanese.
LONG_4 = ('Featherstonehaugh-Cholmondeley', 'João Gonçalves da S. Pereira', '王小明', 'さくら')
LAPTOPS = [(1280, 800), (1920, 1080)]
TVS = [(1280, 720), (1920, 1080), (720, 1280), (1080, 1920)]
SHOTS = ARTIFACTS / 'screens'
FIGURES = {}


@pytest.fixture(scope='module')
def table(tmp_path_factory):
    """The app with the games of this module: 2, 4 and 8 players in round 6 (the 8 with a title of
    80 characters), the same finished (for the stats), a game not begun, a Five Crowns game of 5
    players in round 5, and a finished one of two players of 30 broad capitals (WWW…, MMM… MMM…);
    served on loopback."""
    folder = tmp_path_factory.mktemp('screens')
    app = create_app({'TESTING': True, 'DATABASE': str(folder / 'screens.sqlite'), 'SECRET_KEY': 'screens',
                      'WTF_CSRF_ENABLED': False, **LOOSE_RATES})
    client = app.test_client()
    games = {f'playing-{n}': make_game(client, n, 5, title=TITLE) for n in (2, 4, 8)}
    games.update({f'over-{n}': make_game(client, n, 11, title=TITLE, place=PLACE) for n in (2, 4, 8)})
    games['new-4'] = make_game(client, 4, 0)
    games['crowns-5'] = make_game(client, 5, 4, game='five_crowns')
    games['last-4'] = make_game(client, 4, 10)                  # the last round to enter: two digits
    games['hand-3'] = make_game(client, 3, 5)                   # "my hand" of a 29-character name, round 6
    games['long-4'] = make_game(client, 4, 5, names=LONG_4)    # four that fit 360 px only if a mark widens no column
    make_game(client, 2, 11, names=(WIDEST[1], WIDEST[4]))     # the stats and the list with the widest names too
    seated = app.test_client()                  # a player's own phone: round 6's hand entered there
    seated.post(games['playing-4'] + '/seats/3')
    seated.post(games['playing-4'] + '/hand', data={'round': '6', 'cards': 'K♥ 5♣ 7♦'})
    with Server(app) as server:
        yield server, client, games
    SHOTS.mkdir(parents=True, exist_ok=True)
    (SHOTS / 'figures.json').write_text(json.dumps(FIGURES, indent=1, ensure_ascii=False))


# Every language in light, and dark once (in Portuguese, the longest words): dark changes colours
# only, so its boxes are checked in light, and in dark the marks' contrast, the same in every language.
# Dark is the same page seen again with the phone's setting switched, not a second walk.
DARK_TOO = 'pt'


def in_dark(page, name, check=lambda: []):
    """The page as it is, seen again in dark: what `check` finds there, its screenshot saved as `name`."""
    page.emulate_media(color_scheme='dark')
    try:
        found = check()
        look(page, name, full_page=not name.startswith('tv-'))
    finally:
        page.emulate_media(color_scheme='light')
    return found


def context_for(browser, server, client, language, dark):
    # No service worker: the scorekeeper's page would keep the offline bundle (Pyodide) in every
    # context, which is not what these screens are about (tests/test_offline*.py look at that).
    context = browser.new_context(viewport=PHONE, locale=language,
                                  color_scheme='dark' if dark else 'light', service_workers='block')
    context.add_cookies(cookies_of(client, server.url) + [{'name': 'lang', 'value': language, 'url': server.url}])
    return context


def big_screen(page, game_url, width, height):
    """The big screen of a game at this size, its names fitted to their rows (a frame after its load)."""
    page.set_viewport_size({'width': width, 'height': height})
    page.goto(game_url + '/tv')
    page.wait_for_load_state('load')
    page.evaluate('() => new Promise(requestAnimationFrame)')


def look(page, name, full_page=True):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f'{name}.png'), full_page=full_page)


STATS_FIGURES_ON_SCREEN = '''() => [...document.querySelectorAll('.player-card dd, .player-card h2')].filter((e) => {
  const r = e.getBoundingClientRect(); return r.left < 0 || r.right > document.documentElement.clientWidth; }).length'''
# The share of the page's width the stats' cards take, and in how many columns (a wide screen's
# width used: issue 39 found a table cut beside 600 px of empty margin).
STATS_WIDTH = '''() => { const main = document.querySelector('main'), cs = getComputedStyle(main);
  const inner = main.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
  const cards = [...document.querySelectorAll('.player-card')].map((c) => c.getBoundingClientRect());
  return [(Math.max(...cards.map((r) => r.right)) - Math.min(...cards.map((r) => r.left))) / inner,
          new Set(cards.map((r) => Math.round(r.left))).size]; }'''
ROUND_SUBS_WRAPPED = '''() => [...document.querySelectorAll('.sheet tbody th .sub')].filter((e) =>
  e.getClientRects().length && e.getBoundingClientRect().height > parseFloat(getComputedStyle(e).lineHeight) * 1.5).length'''
# The contrast of each mark in the sheet's cells (✓ went out, ♦ from cards, ◤ dealer) with the
# background it lies on (a leader's cell too): small type, so 4.5:1 at least.
MARK_CONTRAST = r'''() => {
  const rgb = (c) => (c.match(/[\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => [r, g, b].map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
    .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
  const behind = (e) => { for (; e; e = e.parentElement) { const c = rgb(getComputedStyle(e).backgroundColor);
    if (c.length === 3 || c[3] > 0) return c.slice(0, 3); } return [255, 255, 255]; };
  return Math.min(...[...document.querySelectorAll('.sheet .mark, .sheet .dealt')].map((m) => {
    const a = lum(rgb(getComputedStyle(m).color)), b = lum(behind(m));
    return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05); }), 21);
}'''
# The hue (degrees) of the leader's band down the sheet: in dark, amber (about 30-45°), as the
# light page's pale yellow reads; a darkened yellow (#4a3f00, 51°) reads as a muddy olive (issue 48).
LEADER_HUE = '''() => { const [r, g, b] = getComputedStyle(document.querySelector('.sheet td.leader')).backgroundColor
  .match(/[\\d.]+/g).map((v) => Number(v) / 255);
  const most = Math.max(r, g, b), span = most - Math.min(r, g, b);
  const h = most === r ? ((g - b) / span) % 6 : most === g ? (b - r) / span + 2 : (r - g) / span + 4;
  return (h * 60 + 360) % 360; }'''
# The sheet is as narrow as it can be: each column as wide as its widest word or figure, no wider.
NARROWEST = '''() => { const t = document.querySelector('table.sheet'), w = t.offsetWidth;
  t.style.width = 'min-content'; const least = t.offsetWidth; t.style.width = ''; return w <= least + 1; }'''
# Issue 48 (4): in the lists of games (home, History), a day ("Nov 28, 2026") or a name in a script
# that has no spaces ("王小明", "さくら") broken across lines where it fits on one.
LIST_BROKEN = r'''() => { const broken = [], ctx = document.createElement('canvas').getContext('2d');
  for (const list of document.querySelectorAll('ul.games')) {
    const walker = document.createTreeWalker(list, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
      const node = walker.currentNode, el = node.parentElement;
      if (!el || !el.getClientRects().length) continue;
      const text = node.textContent;
      const pieces = el.closest('.note') ? [[text.trim(), text.indexOf(text.trim())]]
        : [...text.matchAll(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu)].map((m) => [m[0], m.index]);
      ctx.font = getComputedStyle(el).font;
      for (const [piece, at] of pieces) {
        if (!piece) continue;
        const range = document.createRange(); range.setStart(node, at); range.setEnd(node, at + piece.length);
        const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0.5).map((r) => Math.round(r.top)));
        const whole = el.closest('.note') ? el.closest('.note').textContent.trim() : piece;   // a note wider than its line wraps
        if (tops.size > 1 && ctx.measureText(whole).width <= el.closest('li').clientWidth) broken.push(piece);
      }
    }
  }
  return broken; }'''
# The round card's Enter button on the line of the round ("Round 6 of 11"), as English had it.
ENTER_BESIDE = '''() => { const line = document.querySelector('.round-now .big').getBoundingClientRect();
  const enter = document.querySelector('.round-now .enter a').getBoundingClientRect();
  return enter.top < line.bottom && enter.bottom > line.top && enter.left >= line.right; }'''
# The phone's line about the game on the sheet (offline.js: "Not sent yet (2) · offline"): the room it
# takes saying nothing (the first row's top with it and without it), what moves once it speaks (every
# link, button and row of the page), whether it is then whole on the screen, and where its text starts.
STATUS_SPEAKS = '''() => { const box = document.querySelector('#offline'), line = box.querySelector('.offline-line');
  const first = () => document.querySelector('.sheet tbody tr').getBoundingClientRect().top;
  const top = first(); box.style.display = 'none'; const room = top - first(); box.style.display = '';
  const where = () => [...document.querySelectorAll('main a, main button, .sheet tbody tr')]
    .map((e) => { const r = e.getBoundingClientRect(); return `${r.left.toFixed(1)},${r.top.toFixed(1)},${r.width.toFixed(1)}`; });
  const before = where(), said = line.textContent;
  line.textContent = box.dataset.unsentOffline.replace('{n}', '2'); box.classList.add('warning');
  const moved = where().filter((b, i) => b !== before[i]).length, r = line.getBoundingClientRect();
  const range = document.createRange(); range.selectNodeContents(line); const text = range.getBoundingClientRect();
  const whole = r.height > 0 && r.top >= 0 && r.bottom <= innerHeight + 0.5 && line.scrollWidth <= line.clientWidth + 1
    && text.left >= 0 && text.right <= document.documentElement.clientWidth;
  line.textContent = said; box.classList.remove('warning');
  return { top: Math.round(top), room: Math.round(room * 10) / 10, moved, whole, x: text.left }; }'''
CUE = '''() => { const w = document.querySelector('.table-wrap'), cue = document.querySelector('.scroll-cue');
  return [w.scrollWidth > w.clientWidth + 1, Boolean(cue && !cue.hidden && cue.offsetParent)]; }'''


# On a wide screen: how much of the page's width the sheet, the race and the standings take
# together; the sheet's widest player column (in rem); and whether the race stands beside the sheet.
WIDE = '''() => { const main = document.querySelector('main'), cs = getComputedStyle(main);
  const inner = main.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
  const rem = parseFloat(getComputedStyle(document.documentElement).fontSize);
  const box = (s) => document.querySelector(s).getBoundingClientRect();
  const parts = ['.table-wrap', 'figure.race', 'ol.standings'].map(box), sheet = parts[0], race = parts[1];
  const used = Math.max(...parts.map((r) => r.right)) - Math.min(...parts.map((r) => r.left));
  const widest = Math.max(...[...document.querySelectorAll('.sheet thead th:not(.round)')].map((th) => th.getBoundingClientRect().width));
  return { used: used / inner, sheet: sheet.width / inner, column: widest / rem, beside: race.left >= sheet.right && race.top < sheet.bottom }; }'''


def wide_sheet_problems(page):
    """What a wide screen's sheet must not do (issue 39): leave the width unused (a 710 px column
    beside blank margins), stretch two players over the whole width (their figures too far apart to
    read across a row: 14rem a player at most, a 30-character name on two lines), leave the space
    beside a narrow sheet empty (the race and standings stand there)."""
    found, wide = [], page.evaluate(WIDE)
    if wide['used'] < 0.9:
        found.append(f"the sheet, race and standings use {wide['used']:.0%} of the width")
    if wide['column'] > 14.2:
        found.append(f"a player's column {wide['column']:.1f} rem wide")
    if wide['sheet'] < 0.6 and not wide['beside']:
        found.append(f"the sheet takes {wide['sheet']:.0%} of the width, and nothing stands beside it")
    return found


def colour_problems(page, dark):
    """A sheet's colours: each mark in a cell readable on what it lies on; in dark, the leader's band amber."""
    found = []
    contrast = page.evaluate(MARK_CONTRAST)
    if contrast < 4.5:
        found.append(f'a mark in a cell at {contrast:.1f}:1')
    hue = page.evaluate(LEADER_HUE)
    if dark and not 25 <= hue <= 45:
        found.append(f"the leader's band at {hue:.0f}° (olive)")
    return found


@pytest.mark.parametrize('language', LANGUAGES)
def test_the_sheet_the_stats_and_the_list_read_right_on_phones_and_laptops(browser, table, language):
    server, client, games = table
    context = context_for(browser, server, client, language, False)
    page = context.new_page()
    problems, theme = {}, 'light'
    for width, height in SIZES + LAPTOPS:
        page.set_viewport_size({'width': width, 'height': height})
        views = [('home', '/'), ('history', '/history'), ('stats', '/stats'), ('new-4', games['new-4'])]
        views += [(f'sheet-{n}', games[f'playing-{n}']) for n in (2, 4, 8)]
        views += [('sheet-last-4', games['last-4'])] if width == PHONE['width'] else []
        for name, url in views:
            case = f'{name}-{width}x{height}-{language}-{theme}'
            page.goto(server.url + url)
            page.wait_for_load_state('load')
            found = text_problems(page, 'main')
            scrolling = sideways(page)
            if scrolling[0] > 0:
                found.append(f'the page scrolls sideways by {scrolling[0]} px')
            inside = [box for box in scrolling[1:] if box != 'div.table-wrap']
            # on a phone the sheet scrolls sideways for 8 players, or for fewer whose longest words need it
            if inside or ('div.table-wrap' in scrolling[1:] and (width > 1000 or name != 'sheet-8' and not page.evaluate(NARROWEST))):
                found.append(f'scrolls sideways inside: {scrolling[1:]}')
            least, what = smallest_type(page, 'main')        # issue 48 (7): nothing a player reads under 12 px on a phone
            FIGURES.setdefault(f"{name.split('-')[0]}: smallest type, px", {})[case] = round(least, 1)
            if width < 500 and least < 12:
                found.append(f'type {least:.1f} px on a phone: {what}')
            if name == 'stats':
                if page.evaluate(STATS_FIGURES_ON_SCREEN):
                    found.append('a figure or a name off the screen')
                used, columns = page.evaluate(STATS_WIDTH)
                if width > 1000 and (used < 0.9 or columns < 3):
                    found.append(f'the stats use {used:.0%} of a wide screen, in {columns} columns')
            if name.startswith('sheet'):
                if page.evaluate(ROUND_SUBS_WRAPPED):
                    found.append('the round column wraps')
                wider, hint = page.evaluate(CUE)
                if wider != hint:
                    found.append(f'the sheet {"is" if wider else "is not"} wider than its box, the hint {"shows" if hint else "does not"}')
                if width > 1000:
                    found += wide_sheet_problems(page)
                # issue 48: a name breaks between its words or after a hyphen, at any width
                found += [f'a name broken inside a word: {word}' for word in broken_words(page, '.sheet thead th')]
                found += colour_problems(page, dark=False)
                if not page.evaluate(ENTER_BESIDE):            # issue 48: es/pt's went under "Ronda 6 de 11"
                    found.append('the Enter button is not on the round line')
                speaks = page.evaluate(STATUS_SPEAKS)          # issue 48 (2): the phone's line about the game
                FIGURES.setdefault("sheet: its first row's top, px", {})[case] = speaks['top']
                if speaks['room']:
                    found.append(f"the line about the game takes {speaks['room']:.0f} px with nothing to say")
                if speaks['moved']:
                    found.append(f"{speaks['moved']} links or rows move when the line about the game speaks")
                if not speaks['whole'] or width < 500 and abs(speaks['x'] - page.locator('h1').bounding_box()['x']) > 1:
                    found.append(f'the line about the game not whole on the screen, or out of the text: {speaks}')
                race = page.locator('svg.race-chart').bounding_box()
                race_type = smallest_type(page, 'svg.race-chart')[0]
                if race['height'] < 240 or race_type < 12:
                    found.append(f"the race {race['height']:.0f} px tall, its type {race_type:.1f} px")
            if name in ('home', 'history'):       # the games' titles, names and days whole on their lines
                found += [f'broken inside a word: {word}' for word in broken_words(page, 'ul.games')]
                found += [f'a day or a Chinese name broken: {text}' for text in page.evaluate(LIST_BROKEN)]
            if name == 'new-4' and page.locator('ol.standings .quiet').count():
                found.append('figures before round 1')
            look(page, case)
            if language == DARK_TOO:       # dark changes colours only: the boxes are the light page's, checked above
                found += in_dark(page, case.replace('-light', '-dark'),
                                 lambda: colour_problems(page, dark=True) if name.startswith('sheet') else [])
            if found:
                problems[case] = found
    context.close()
    assert problems == {}, json.dumps(problems, indent=1, ensure_ascii=False)


AREA = '''() => {
  const box = (e) => e.getBoundingClientRect();
  const chart = document.querySelector('.tv-chart');
  const drawnBoxes = chart ? [...chart.querySelectorAll('svg > *:not(title):not(desc), svg g > *')].map(box) : [];
  const drawn = drawnBoxes.length ? drawnBoxes.reduce((a, r) => ({ left: Math.min(a.left, r.left), top: Math.min(a.top, r.top),
    right: Math.max(a.right, r.right), bottom: Math.max(a.bottom, r.bottom) })) : null;
  const area = chart ? box(chart) : null;
  const parts = [...document.querySelectorAll('.tv-title, .tv-round, .tv-standings li')].map(box);
  if (drawn) parts.push(drawn);
  let used = 0, all = 0;                          // the screen's share under some part, sampled
  for (let x = 2; x < innerWidth; x += 8) for (let y = 2; y < innerHeight; y += 8) {
    all += 1;
    if (parts.some((r) => x >= r.left && x <= r.right && y >= r.top && y <= r.bottom)) used += 1;
  }
  const fill = drawn ? ((drawn.right - drawn.left) * (drawn.bottom - drawn.top)) / (area.width * area.height) : null;
  return { fill, screen: used / all };
}'''
LABELS = '''() => { const lines = document.querySelectorAll('.tv-chart g.series:not(.end)').length;
  const ends = [...document.querySelectorAll('.tv-chart g.series.end')].filter((g) => g.querySelector('text, path.mark')).length;
  const keys = document.querySelectorAll('.tv-standings li .key-mark path').length;
  return [lines, ends, keys]; }'''


@pytest.mark.parametrize('language', LANGUAGES)
def test_the_big_screen_reads_across_the_room(browser, table, language):
    """Every name whole at 720p and 1080p, landscape and portrait, 2 to 8 players; the smallest type
    at 720p 18 px or more; the race filling its part of the screen, each line named at its end and
    each name with its line's marker; the game's title shown."""
    server, client, games = table
    context = context_for(browser, server, client, language, False)
    page = context.new_page()
    problems, theme = {}, 'light'
    for width, height in TVS:
        page.set_viewport_size({'width': width, 'height': height})
        for name in ('playing-2', 'playing-4', 'playing-8', 'over-8'):
            case = f'tv-{name}-{width}x{height}-{language}-{theme}'
            page.goto(server.url + games[name] + '/tv')
            page.wait_for_load_state('load')
            page.evaluate('() => new Promise(requestAnimationFrame)')        # the names fitted to their rows
            found = text_problems(page, 'main')
            if page.evaluate('() => [document.documentElement.scrollWidth > innerWidth, '
                             'document.documentElement.scrollHeight > innerHeight]') != [False, False]:
                found.append('scrolls')
            least, what = smallest_type(page, 'main')
            FIGURES.setdefault('tv: smallest type, px', {})[case] = round(least, 1)
            if least < 18 * min(width, height) / 720 - 0.05:
                found.append(f'type {least:.1f} px: {what}')
            share = page.evaluate(AREA)
            FIGURES.setdefault('tv: share of the chart area drawn', {})[case] = round(share['fill'], 3)
            FIGURES.setdefault('tv: share of the screen used', {})[case] = round(share['screen'], 3)
            if share['fill'] < 0.8:
                found.append(f"the race fills {share['fill']:.0%} of its part of the screen")
            lines, ends, keys = page.evaluate(LABELS)
            players = int(name.split('-')[1])
            if not lines == ends == keys == players:
                found.append(f'{lines} lines, {ends} named at their end, {keys} names with a marker')
            found += [f'a name broken inside a word: {word}' for word in broken_words(page, '.tv-standings .who')]
            if TITLE not in page.locator('.tv-title').inner_text():
                found.append('no title')
            look(page, case, full_page=False)
            if language == DARK_TOO:                 # dark: the same boxes, other colours
                in_dark(page, case.replace('-light', '-dark'))
            if found:
                problems[case] = found
    context.close()
    assert problems == {}, json.dumps(problems, indent=1, ensure_ascii=False)


# Whose hand the keypad shows and its count ("5 / 9"): the count's text whole inside the boxes
# that hold it (a long name may be cut, never the count: it is the keypad's guard against a short hand).
COUNT_CUT = r'''() => {
  const status = document.querySelector('.picker .count');
  const walker = document.createTreeWalker(status, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode, m = node.textContent.match(/\d+ \/ \d+/);
    if (!m) continue;
    const range = document.createRange();
    range.setStart(node, m.index); range.setEnd(node, m.index + m[0].length);
    const r = range.getBoundingClientRect();
    for (let a = node.parentElement; a && a !== document.body; a = a.parentElement) {
      const c = getComputedStyle(a);
      if (c.overflowX === 'visible') continue;
      const b = a.getBoundingClientRect(), right = b.left + a.clientLeft + a.clientWidth;
      if (r.right > right + 0.5 || r.left < b.left - 0.5) return `${m[0]} cut by ${a.className}`;
      if (c.textOverflow === 'ellipsis' && a.scrollWidth > a.clientWidth + 1) return `${m[0]} behind an ellipsis`;
    }
    return '';
  }
  return 'no count';
}'''
# The room (px) between the wild key's word ("comodín") and the inner edges of its key's border, on
# the narrower side: a word touching the dashed border reads as cut (issue 51).
WILD_WORD_ROOM = '''() => { const key = document.querySelector('.picker .key.wild');
  const range = document.createRange(); range.selectNodeContents(key.querySelector('small:last-of-type'));
  const r = range.getBoundingClientRect(), b = key.getBoundingClientRect();
  return Math.min(r.left - (b.left + key.clientLeft), b.left + key.clientLeft + key.clientWidth - r.right); }'''
ROOM = 2


# The box of the text an element holds (its lines together), in the whole page's pixels.
NAME_BOX = '''(selector) => { const range = document.createRange();
  range.selectNodeContents(document.querySelector(selector)); const r = range.getBoundingClientRect();
  return { x: r.x + scrollX, y: r.y + scrollY, width: r.width, height: r.height }; }'''
# Each line under a field that says something (the letters, a card not read, a hand past its
# size, a hand's penalty and melds) shown whole in its place: nothing scrolls inside it.
SCROLLING_UNDER_FIELDS = '''() => [...document.querySelectorAll('.seat-hand')].filter((h) => h.offsetParent !== null
  && (h.scrollHeight > h.clientHeight + 1 || h.scrollWidth > h.clientWidth + 1))
  .map((h) => `${h.closest('fieldset')?.dataset.player}: ${h.innerText.trim().slice(0, 60)}`)'''
# A hand of eight cards, none of which melds (round 6: eights wild), typed with the suits' symbols
# every language reads; and a card whose suit letter no language has.
DEADWOOD = '9♥ 7♣ 5♥ 3♠ 10♦ 4♣ 2♠ 6♦'
NOT_A_SUIT = '5Z 7♥'


@pytest.mark.parametrize('language', LANGUAGES)
def test_the_round_page_and_its_keypad_read_whole_on_phones(browser, table, language):
    """Issue 48, on the round page of four long names (a 30-character one, Chinese) at 360 and 390
    px: the ring round the hand being entered never crosses its name (its pixels are the same with
    the keypad open on it); every line under a field says all it says, a card not read and a hand's
    penalty and melds, without scrolling inside; the keypad's count whole beside the longest name;
    no type under 12 px, the keypad's keys too. Issue 51: a hand entered on a player's own phone says
    so whole, over nothing; the wild key's word ("comodín") clear of its key's border. Spanish in
    dark, the others light."""
    server, client, games = table
    dark = language == 'es'
    context = context_for(browser, server, client, language, dark)
    page = context.new_page()
    problems, theme = {}, 'dark' if dark else 'light'
    for width, height in SIZES:
        case = f'round-4-{width}x{height}-{language}-{theme}'
        page.set_viewport_size({'width': width, 'height': height})
        page.goto(server.url + games['playing-4'] + '/rounds/6')
        page.wait_for_load_state('load')
        page.wait_for_function(SETTLED)
        found = []
        page.locator('#entries-1-cards').fill(NOT_A_SUIT)
        page.locator('#entries-2-cards').fill(DEADWOOD)
        page.locator('#entries-3-cards').click()
        page.wait_for_function(SETTLED)
        found += [f'scrolls inside: {what}' for what in page.evaluate(SCROLLING_UNDER_FIELDS)]
        found += text_problems(page, 'form.round-form')
        look(page, f'{case}-typed')
        before = page.screenshot(full_page=True, clip=page.evaluate(NAME_BOX, '#player-0 > legend'))
        page.locator('#player-0 .pick').click()
        page.wait_for_function(SETTLED)
        if page.screenshot(full_page=True, clip=page.evaluate(NAME_BOX, '#player-0 > legend')) != before:
            found.append('the ring of the hand entered crosses its name')
        found += [p for p in text_problems(page, '.picker') if CAST[0] not in p]     # the name may be cut
        cut = page.evaluate(COUNT_CUT)
        if cut:
            found.append(f'the keypad count: {cut}')
        room = page.evaluate(WILD_WORD_ROOM)
        if room < ROOM:
            found.append(f"the wild key's word {room:.1f} px from its border")
        least, what = smallest_type(page, 'body')
        FIGURES.setdefault('round page: smallest type, px', {})[case] = round(least, 1)
        if least < 12:
            found.append(f'type {least:.1f} px: {what}')
        look(page, f'{case}-keypad', full_page=False)
        if found:
            problems[case] = found
    context.close()
    assert problems == {}, json.dumps(problems, indent=1, ensure_ascii=False)


# Issue 48 (6): each player's column as its name needs (the width of its longest word, the column
# at its narrowest: the table drawn min-content) and as wide as it is; and the width the players share.
COLUMNS = '''() => { const t = document.querySelector('table.sheet'), heads = [...t.querySelectorAll('thead th:not(.round)')];
  const has = heads.map((th) => th.getBoundingClientRect().width);
  const keep = heads.map((th) => th.style.width); heads.forEach((th) => { th.style.width = ''; });
  t.style.width = 'min-content'; const needs = heads.map((th) => th.getBoundingClientRect().width);
  t.style.width = ''; heads.forEach((th, i) => { th.style.width = keep[i]; });
  const room = t.parentElement.clientWidth - t.querySelector('thead th.round').getBoundingClientRect().width;
  return { has, needs, room }; }'''
# The leader's column: how much of it the sheet's box shows (beside the round column held at its left).
LEADER_SHOWN = '''() => { const wrap = document.querySelector('.table-wrap'), box = wrap.getBoundingClientRect();
  const left = document.querySelector('.sheet thead th.round').getBoundingClientRect().right;
  const r = document.querySelector('.sheet thead th.leader').getBoundingClientRect();
  return (Math.min(r.right, box.right - wrap.clientLeft) - Math.max(r.left, left)) / r.width; }'''
# Where a row's figures stand in their cells: the largest gap, among the players' first-round cells,
# between a figure's middle and its cell's middle, as a share of the cell's width.
OFF_MIDDLE = '''() => Math.max(...[...document.querySelectorAll('.sheet tbody tr:first-child td')].map((td) => {
  const c = td.getBoundingClientRect(), s = td.querySelector('.score-link').getBoundingClientRect();
  return Math.abs((s.left + s.right) / 2 - (c.left + c.right) / 2) / c.width; }))'''
# The rounds whole on the first screen, the page as it opens once the Undo offer's minute is over
# (the fixture's saves are this browser's, and may be less than a minute old).
SHEET_SIDEWAYS = '''() => { const box = document.querySelector('.table-wrap'); return box.scrollWidth - box.clientWidth; }'''
WHOLE_ROWS = '''() => { document.querySelector('.undo-save')?.remove();
  return [...document.querySelectorAll('.sheet tbody tr')].filter((tr) => tr.getBoundingClientRect().bottom <= innerHeight).length; }'''


# The standings' rows whose name or figures wrap under the place number, or whose figure ("3 zero
# rounds") is broken across two lines.
STANDINGS_WRAPPED = '''() => [...document.querySelectorAll('ol.standings li')].filter((li) => {
  const place = li.querySelector('.place').getBoundingClientRect().right, walker = document.createTreeWalker(li, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode, range = document.createRange();
    if (node.parentElement.closest('.place') || !node.textContent.trim()) continue;
    range.selectNodeContents(node);
    if ([...range.getClientRects()].some((r) => r.width > 0.5 && r.left < place - 0.5)) return true;
  }
  return [...li.querySelectorAll('.quiet > span')].some((s) => s.getClientRects().length > 1);
}).map((li) => li.innerText)'''


# The race's key: a player's total more than a space after the end of their name (alone at the far right).
TOTALS_APART = '''() => [...document.querySelectorAll('.race-key li')].filter((li) => {
  const range = document.createRange(); range.selectNodeContents(li.querySelector('bdi'));
  const name = [...range.getClientRects()].pop();
  range.selectNodeContents(li.querySelector('bdi').nextSibling); const total = range.getBoundingClientRect();
  return total.left - name.right > 16 || total.top > name.bottom; }).map((li) => li.innerText)'''


# The sheet's buttons by weight: the filled ones, the outlined ones among its actions, and whether
# Delete stands apart from New game (another box, and more than two buttons' height below it).
BUTTONS = '''() => { const shown = (e) => e.offsetParent !== null;
  const outlined = [...document.querySelectorAll('main .actions .button:not(.primary), main .actions button:not(.primary)')].filter(shown).length;
  const primary = [...document.querySelectorAll('main .button.primary, main button.primary')].filter(shown).length;
  const drop = document.querySelector('main a.danger'), fresh = [...document.querySelectorAll('main a')].find((a) => a.pathname === '/games/new');
  const apart = drop.parentElement !== fresh.parentElement && drop.getBoundingClientRect().top - fresh.getBoundingClientRect().bottom > 96;
  return { outlined, primary, apart }; }'''


# The big screen at the game's end: how much larger "Game over." is set than the winner's words, and
# the standings' tallest row in its own type's size (a row stretched over the height: 410 px).
GAME_OVER = '''() => { const size = (e) => parseFloat(getComputedStyle(e).fontSize);
  const over = [...document.querySelectorAll('.tv-round *')].find((e) => e.childNodes.length === 1 && /\\./.test(e.textContent));
  const winner = document.querySelector('.tv-round p:last-child');
  const rows = [...document.querySelectorAll('.tv-standings li')].map((li) => li.getBoundingClientRect().height / size(li));
  return [size(over) / size(winner), Math.max(...rows)]; }'''


def shared_alike(has, needs, room):
    """The players' columns as issue 48 wants them: where every name fits, each column as wide as the
    others (a name whose longest word needs more has what it needs, and the rest share what is left
    alike); else each at its need (the sheet scrolls sideways). The problems found, in words."""
    if sum(needs) > room + 1:
        return [] if all(abs(h - n) < 2 for h, n in zip(has, needs)) else [f'{has} wider than {needs} needs']
    widest = sorted(needs, reverse=True)
    held = 0
    while held < len(needs) - 1 and widest[held] > (room - sum(widest[:held])) / (len(needs) - held):
        held += 1
    share = (room - sum(widest[:held])) / (len(needs) - held)
    return [f'{round(h)} px where {round(max(n, share))} px' for h, n in zip(has, needs) if abs(h - max(n, share)) > 2]


def test_the_sheet_shares_its_width_by_need_and_shows_its_first_rows(browser, table):
    """Issue 48 (6): the players' columns share the width alike unless a name needs more (at 768 px,
    a Five Crowns sheet of five and the others; at 360 px where they fit, four long names not
    scrolling sideways for the went-out marks beside their figures); at 360 px with eight
    players the leader's column whole on the screen beside the round column, the sheet scrolling in
    its box; two players' figures in the middle of their columns, not at the far right; and the
    first screen of a phone (360 x 740) shows more than three rounds of the sheet, under a title of
    78 characters. (8): after the last round, its page says "Game over." and the winner on the first
    screen."""
    server, client, games = table
    context = context_for(browser, server, client, 'en', False)
    page = context.new_page()
    problems = {}
    for width, height in [(768, 1024), SIZES[0]]:
        page.set_viewport_size({'width': width, 'height': height})
        for name in ('crowns-5', 'playing-2', 'playing-4', 'long-4', 'playing-8', 'over-8'):
            case = f'{name}-{width}'
            page.goto(server.url + games[name])
            page.wait_for_load_state('load')
            page.evaluate('() => new Promise(requestAnimationFrame)')      # the columns shared
            found = shared_alike(**page.evaluate(COLUMNS))
            # issue 48 (4): at 768 too (the other test's sizes are phones and laptops), no name broken inside a word
            found += [f'a name broken inside a word: {word}' for word in broken_words(page, '.sheet thead th')]
            if name.endswith('-8') and width == PHONE['width'] and page.evaluate(LEADER_SHOWN) < 0.99:
                found.append(f'the leader shown {page.evaluate(LEADER_SHOWN):.0%}')
            if name == 'playing-2' and page.evaluate(OFF_MIDDLE) > 0.2:
                found.append(f'the figures {page.evaluate(OFF_MIDDLE):.0%} of a column off its middle')
            if name == 'long-4' and width == PHONE['width'] and page.evaluate(SHEET_SIDEWAYS) > 1:
                # the names' longest words and the round column fit: the marks (✓ went out) no reason to scroll
                found.append(f'the sheet scrolls {page.evaluate(SHEET_SIDEWAYS)} px sideways')
            if name == 'playing-4' and width == PHONE['width']:
                rows = page.evaluate(WHOLE_ROWS)
                if rows < 4:
                    found.append(f'{rows} rounds whole on the first screen')
            found += [f'a standing wraps under its place: {row}' for row in page.evaluate(STANDINGS_WRAPPED)]
            found += [f"the race's key: a total apart from its name: {key}" for key in page.evaluate(TOTALS_APART)]
            buttons = page.evaluate(BUTTONS)
            if buttons != {'outlined': buttons['outlined'], 'primary': 1, 'apart': True} or buttons['outlined'] > 4:
                found.append(f'the buttons: {buttons}')
            look(page, f'shared-{case}', full_page=False)
            if found:
                problems[case] = found
    page.goto(server.url + games['over-4'] + '/rounds/11?saved=1')      # where Save leads
    winner = page.locator('.game-over strong').bounding_box()       # "Game over." and the winner under it
    if winner['y'] + winner['height'] > PHONE['height']:
        problems['over-4-round-11'] = [f"the winner named {winner['y']:.0f} px down"]
    problems.update({'over-4-round-11 standings': page.evaluate(STANDINGS_WRAPPED)} if page.evaluate(STANDINGS_WRAPPED) else {})
    look(page, 'shared-over-4-round-11-360', full_page=False)
    for width, height in [(1280, 720), (1920, 1080)]:
        page.set_viewport_size({'width': width, 'height': height})
        page.goto(server.url + games['over-2'] + '/tv')
        page.wait_for_load_state('load')
        larger, tallest = page.evaluate(GAME_OVER)
        if larger > 1.3 or tallest > 4:
            problems[f'tv-over-2-{width}'] = [f'"Game over." {larger:.1f} times the winner, a row {tallest:.1f} of its type tall']
        look(page, f'shared-tv-over-2-{width}', full_page=False)
    context.close()
    assert problems == {}, json.dumps(problems, indent=1, ensure_ascii=False)


# A hand typed past its size (round 6 deals 8; an audit allows 9 with the card drawn).
PAST_ITS_SIZE = '9♥ 7♣ 5♥ 3♠ 10♦ 4♣ 2♠ 6♦ K♠ Q♠ J♦'
# What the line under the field says (a card not read, a hand past its size, the preview): each
# message shown there, as a person reads it.
SAID_UNDER = '''() => [...document.querySelectorAll('.seat-hand .chip.bad, .seat-hand .size-warning, .seat-hand .preview-line')]
  .filter((e) => e.offsetParent !== null && e.textContent.trim()).map((e) => e.textContent.trim())'''


# The hand past its size said in the keypad's hand area (it scrolls): whole in its view, not cut to a strip.
WARNING_IN_VIEW = '''() => { const area = document.querySelector('.keypad-hand'), warn = area.querySelector('.size-warning');
  const a = area.getBoundingClientRect(), w = warn.getBoundingClientRect();
  return warn.textContent.trim() !== '' && w.top >= a.top + area.clientTop - 0.5 && w.bottom <= a.top + area.clientTop + area.clientHeight + 0.5; }'''


@pytest.mark.parametrize('language', LANGUAGES)
def test_the_audit_and_my_hand_read_whole_on_phones(browser, table, language):
    """Issue 48 (2, 3) on the audit page and "my hand" at 360 and 390 px, a 29-character name: a
    hand typed past its size says so under its field in one message (not beside a preview saying it
    again), whole, nothing scrolling inside; in the keypad, whole in its hand area's view, the keypad's
    count whole beside the name; once sent,
    the server's message is not said again under the field while the text is as sent. Spanish in
    dark, the others light."""
    server, client, games = table
    theme = 'dark' if language == 'es' else 'light'
    context = browser.new_context(viewport=PHONE, locale=language, service_workers='block',
                                  color_scheme=theme)
    context.add_cookies([{'name': 'lang', 'value': language, 'url': server.url}])
    client.post(games['hand-3'] + '/seats/0/free')          # the scorekeeper frees it (another language's test took it)
    context.request.post(server.url + games['hand-3'] + '/seats/0')       # this phone is the first player
    page = context.new_page()
    problems = {}
    for width, height in SIZES:
        page.set_viewport_size({'width': width, 'height': height})
        for name, address in (('hand', games['hand-3'] + '/hand'), ('audit', '/audit?round=6')):
            case = f'{name}-{width}x{height}-{language}-{theme}'
            page.goto(server.url + address)
            page.wait_for_function(SETTLED)
            found = []
            page.locator('input.cards-input').fill(PAST_ITS_SIZE)
            page.locator('h1').click()
            page.wait_for_function(SETTLED)
            said = page.evaluate(SAID_UNDER)
            if len(said) != 1:
                found.append(f'under the field: {said}')
            found += [f'scrolls inside: {what}' for what in page.evaluate(SCROLLING_UNDER_FIELDS)]
            # ("my hand" names its block for a screen reader only: its legend clipped on purpose, style.css)
            found += [p for p in text_problems(page, 'form') if not p.startswith('cut by legend.')]
            look(page, f'{case}-typed')
            page.locator('.pick').click()
            page.wait_for_function(SETTLED)
            cut = page.evaluate(COUNT_CUT)
            if cut:
                found.append(f'the keypad count: {cut}')
            if not page.evaluate(WARNING_IN_VIEW):
                found.append("the keypad's warning not whole in its hand area")
            look(page, f'{case}-keypad', full_page=False)
            page.locator('.picker .key.done').click()
            page.wait_for_function(SETTLED)
            with page.expect_navigation():
                page.locator('form button[type=submit]').click()
            page.wait_for_function(SETTLED)
            again = page.evaluate(SAID_UNDER)
            if again:
                found.append(f'said again under the field: {again}')
            look(page, f'{case}-sent')
            if found:
                problems[case] = found
    context.close()
    assert problems == {}, json.dumps(problems, indent=1, ensure_ascii=False)


# The round card and the block of the hand being entered, each box (top, bottom), and the keypad's top.
FIRST_BLOCK = '''() => { const box = (s) => { const r = document.querySelector(s).getBoundingClientRect(); return [r.top, r.bottom]; };
  return { card: box('.banner.now'), hand: box('#player-0'), keypad: box('.picker')[0], scrolled: scrollY }; }'''


@pytest.mark.parametrize('language', LANGUAGES)
def test_the_first_block_of_a_long_name_stands_above_the_keypad(browser, table, language):
    """Issue 48 at 360 x 740: round 1's page opens its keypad on the first hand, and the round card
    (the dealer of 29 characters named in it) and the first player's block (a name of 29 characters
    on two lines, the went-out box, points and the cards field with its lines) stand whole above it,
    the page not scrolled: the first card needs no scroll (tests/test_steady_keypad.py) for a long
    name too, in every language."""
    server, client, games = table
    context = context_for(browser, server, client, language, False)
    page = context.new_page()
    page.goto(server.url + games['new-4'] + '/rounds/1')
    page.wait_for_function(SETTLED)
    page.locator('.picker').wait_for()
    first = page.evaluate(FIRST_BLOCK)
    look(page, f'first-block-360x740-{language}', full_page=False)
    context.close()
    FIGURES.setdefault('round 1: the first block above the keypad, px', {})[language] = round(first['keypad'] - first['hand'][1], 1)
    assert first['scrolled'] == 0 and 0 <= first['card'][0] and first['hand'][1] <= first['keypad'], first


# The race's figures (its axes' labels) as drawn, in px (the SVG's units scaled to its drawn size),
# the least and the most; and the standings' type beside it.
RACE_TYPE = '''() => { const sizes = [...document.querySelectorAll('figure.race svg.race-chart text')].map((t) => {
  const m = t.getScreenCTM(); return parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b); });
  return [Math.min(...sizes), Math.max(...sizes), parseFloat(getComputedStyle(document.querySelector('ol.standings li')).fontSize)]; }'''


def test_the_race_type_follows_its_drawn_size(browser, table):
    """Issue 48 (7): the race on a sheet drawn wide (768, 1280 and 1920 px; 2, 4 and 8 players) has
    its axes' labels at 16 px beside the standings' 18, not grown with the chart to 23-34 px; on a
    phone at 12 px or more (its units as drawn at 360); and a window widened after it opened follows."""
    server, client, games = table
    context = context_for(browser, server, client, 'en', False)
    page = context.new_page()
    problems = {}
    for width, height in [SIZES[0], (768, 1024)] + LAPTOPS:
        page.set_viewport_size({'width': width, 'height': height})
        for n in (2, 4, 8):
            page.goto(server.url + games[f'playing-{n}'])
            page.wait_for_load_state('load')
            least, most, standings = page.evaluate(RACE_TYPE)
            FIGURES.setdefault('the race: its labels, px', {})[f'{n}-{width}'] = round(most, 1)
            if least < 12 or most > 16.5 or (width > 700 and least < 15.5):
                problems[f'{n}-{width}'] = f'labels {least:.1f}-{most:.1f} px beside standings of {standings:.0f} px'
    page.set_viewport_size(PHONE)
    page.goto(server.url + games['playing-4'])
    page.wait_for_load_state('load')
    page.set_viewport_size({'width': 1920, 'height': 1080})
    page.evaluate('() => new Promise(requestAnimationFrame)')      # the resize dispatched before the next frame
    least, most, _ = page.evaluate(RACE_TYPE)
    if most > 16.5:
        problems['widened'] = f'labels {least:.1f}-{most:.1f} px'
    look(page, 'race-type-1920', full_page=False)
    context.close()
    assert problems == {}, json.dumps(problems, indent=1)


# Issue 48 (a fresh look): sheets at 360 x 740 whose names' longest words are wide: four long names
# (a 30-letter hyphenated one; Portuguese's round column is the widest), three players of whom two
# have a 17-letter word, two and three players with words of thirty broad capitals (no hyphen),
# five long names, and eight. [the players, whether their figures and words fit the box at 360 px
# in 12 px names (the box then does not scroll)].
WIDE_WORDS = {
    'long-4': (LONG_4, True),
    'two-long-3': (('Featherstonehaugh-Cholmondeley', 'Bartholomew Featherstonehaugh', 'Ana'), True),
    'widest-2': ((WIDEST[1], WIDEST[4]), False),
    'widest-3': (('Featherstonehaugh-Cholmondeley', WIDEST[1], 'Ana'), False),
    'long-5': (('Featherstonehaugh-Cholmondeley', 'João Gonçalves da S. Pereira', 'Bartholomew Featherstonehaugh',
                'Christopher Montgomery-Smythe', 'Zoë'), False),
    'cast-4': (CAST[:4], True),
    'cast-8': (CAST, False),
}
# The names in the sheet's head in a script without spaces, of up to six characters (王小明, 欧阳志远),
# broken across lines: a short one is kept whole, as a word is (a longer one breaks between characters).
SHORT_CJK_BROKEN = r'''() => [...document.querySelectorAll('.sheet thead th:not(.round) bdi')].filter((name) => {
  const text = name.textContent.trim();
  if (!/^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]{1,6}$/u.test(text)) return false;
  const range = document.createRange(); range.selectNodeContents(name);
  return new Set([...range.getClientRects()].filter((r) => r.width > 0.5).map((r) => Math.round(r.top))).size > 1;
}).map((name) => name.textContent.trim())'''

# Every name on the page (on the sheet's: the title of an untitled game, the sheet's head, the
# standings, the race's key, the seats; on a round's: its blocks' names and the keypad's), with no
# leave for a word wider than the line (thirty W's): each word of it on one line, in 12 px or more,
# within the page's line; a name shortened ("WWWW…", its box cutting it: the name's own, or the
# title's line) has its whole text as its box's title, is whole in the sheet's head, whose box
# scrolls (`sheet`), and scrolls whole in its own line once tapped (names.js wholeOnTap) (issue 48:
# a 30-letter word may shrink, then wrap at a hyphen, never mid-letters, and a person can still read
# the whole name).
NAMES_WHOLE = r"""(sheet = true) => {
  const found = [], main = document.querySelector('main'), cs = getComputedStyle(main);
  const right = main.getBoundingClientRect().right - parseFloat(cs.paddingRight);
  const heads = new Set([...document.querySelectorAll('.sheet thead th bdi')].map((b) => b.textContent.trim()));
  for (const name of main.querySelectorAll('bdi')) {
    // ("my hand" names its block for a screen reader only: its legend clipped on purpose, style.css)
    if (!name.getClientRects().length || name.closest('[hidden], details:not([open]), .visually-hidden, .hand-form legend')) continue;
    const full = name.textContent.trim(), inSheet = !!name.closest('table.sheet');
    const box = name.closest('h1.names') || name, overflow = getComputedStyle(box).overflowX;
    const walker = document.createTreeWalker(name, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
      const node = walker.currentNode;
      for (const m of node.textContent.matchAll(/[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}\p{M}]+/gu)) {
        const range = document.createRange();
        range.setStart(node, m.index); range.setEnd(node, m.index + m[0].length);
        const rects = [...range.getClientRects()].filter((r) => r.width > 0.5);
        if (new Set(rects.map((r) => Math.round(r.top))).size > 1) found.push(`broken inside a word: ${m[0]}`);
        if (!inSheet && rects.some((r) => r.right > right + 1) && overflow === 'visible')
          found.push(`past the line's end: ${m[0]}`);
      }
    }
    if (parseFloat(getComputedStyle(name).fontSize) < 12) found.push(`in ${getComputedStyle(name).fontSize}: ${full}`);
    const cut = overflow !== 'visible' && box.scrollWidth > box.clientWidth + 1;
    if (cut && sheet && !heads.has(full)) found.push(`shortened, and not whole elsewhere: ${full}`);
    if (cut && box.title !== box.textContent.trim()) found.push(`shortened, its title not the whole name: ${full}`);
    if (cut && box === name && /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u.test(full)) found.push(`shortened, yet it breaks anywhere: ${full}`);
  }
  return found;
}"""


# Issue 48 (6): an untitled game of 2 and of 8 players with long names (thirty W's; the cast of
# eight), right after a save (its Undo offered): the sheet's first row of rounds starts in the top
# FIRST_ROW_BY of a 360 x 740 screen, four rows and more shown under it (it started 460-486 px down
# for two players, 650 for eight: their names on seven lines over it, the 30 Chinese characters
# three a line in the sheet's head; now 372-412 px, en/es/pt).
FIRST_SCREEN = ('widest-2', 'cast-8')
FIRST_ROW_BY = 0.57
FIRST_ROW_TOP = '''() => document.querySelector('.sheet tbody tr').getBoundingClientRect().top + scrollY'''


@pytest.mark.parametrize('language', LANGUAGES)
def test_no_sheet_scrolls_the_page_sideways_on_a_phone(browser, table, language):
    """Issue 48 (1), what a fresh reviewer still found: at 360 x 740, in every language, light and
    dark, no sheet makes the page scroll sideways (thirty W's in the standings, the race's key and
    the seats pushed it 229-294 px), and where the players' words fit the box in the 12 px names of
    a phone (the sheet edge to edge, its rows' labels short), the sheet does not scroll in its box
    either (Portuguese's four long names scrolled 10 px, three players with two 17-letter words
    4-12 px); no name broken inside a word in the sheet's head, nor a short Chinese one (欧阳志/远);
    and no name anywhere on the page (the standings, the race's key, the seats) broken inside a word,
    even thirty W's, nor under 12 px, nor past the line; a name shortened is whole in the sheet's head.
    The title of these untitled games (their players' names) is one line, shortened with "…" where
    need be, never broken inside a word (thirty W's were); and for 2 and 8 players the sheet's first
    row starts in the top FIRST_ROW_BY of the screen."""
    server, client, games = table
    made = {name: make_game(client, len(names), 5, names=names) for name, (names, _) in WIDE_WORDS.items()}
    context = context_for(browser, server, client, language, False)
    page = context.new_page()
    problems = {}
    for name, url in made.items():
        for theme in ('light', 'dark'):
            case = f'wide-words-{name}-360x740-{language}-{theme}'
            page.emulate_media(color_scheme=theme)
            page.goto(server.url + url)
            page.wait_for_load_state('load')
            page.evaluate('() => new Promise(requestAnimationFrame)')      # the columns shared
            found = []
            if sideways(page)[0] > 0:
                found.append(f'the page scrolls sideways by {sideways(page)[0]} px')
            if WIDE_WORDS[name][1] and page.evaluate(SHEET_SIDEWAYS) > 1:
                found.append(f'the sheet scrolls {page.evaluate(SHEET_SIDEWAYS)} px sideways in its box')
            found += [f'a name broken inside a word: {word}' for word in broken_words(page, '.sheet thead th')]
            found += [f'a short Chinese or Japanese name broken: {name}' for name in page.evaluate(SHORT_CJK_BROKEN)]
            found += page.evaluate(NAMES_WHOLE)
            if name in FIRST_SCREEN:        # issue 48 (6): the sheet on the first screen
                top = page.evaluate(FIRST_ROW_TOP)
                FIGURES.setdefault("sheet: its first row's top, share of the screen", {})[case] = round(top / PHONE['height'], 2)
                if top > FIRST_ROW_BY * PHONE['height']:
                    found.append(f"the sheet's first row starts {top:.0f} px down, past {FIRST_ROW_BY:.0%} of the screen")
            look(page, case)
            if found:
                problems[case] = found
    context.close()
    assert problems == {}, json.dumps(problems, indent=1, ensure_ascii=False)


@pytest.mark.parametrize('language', LANGUAGES)
def test_thirty_ws_read_whole_in_the_lists_and_on_the_big_screen(browser, table, language):
    """Issue 48: thirty W's and fifteen M's (no line at 360 px holds the W's whole even in 12 px)
    in the home and history lists (the winner's line too), light and dark: no name broken
    inside a word, none under 12 px nor past the line's end; where one is shortened ("WWWW…"), its
    title is the whole name (the list's line leads to its sheet, where its head holds it whole). And
    on the big screen, landscape and portrait, every name whole in its row, nothing cut or lying on
    another, in the big screen's least type or more."""
    server, client, games = table
    url = make_game(client, 2, 5, names=(WIDEST[1], WIDEST[4]))      # in play (home), and finished (the table's)
    context = context_for(browser, server, client, language, False)
    page = context.new_page()
    problems = {}
    for where, path in (('home', '/'), ('history', '/history')):
        for theme in ('light', 'dark'):
            case = f'thirty-w-{where}-360x740-{language}-{theme}'
            page.emulate_media(color_scheme=theme)
            page.goto(server.url + path)
            page.wait_for_load_state('load')
            page.evaluate('() => new Promise(requestAnimationFrame)')      # the names fitted
            found = page.evaluate(NAMES_WHOLE, False)
            if sideways(page)[0] > 0:
                found.append(f'the page scrolls sideways by {sideways(page)[0]} px')
            look(page, case)
            if found:
                problems[case] = found
    page.emulate_media(color_scheme='light')
    for width, height in TVS:
        case = f'thirty-w-tv-{width}x{height}-{language}-light'
        big_screen(page, server.url + url, width, height)
        found = [f'a name broken inside a word: {word}' for word in broken_words(page, '.tv-standings .who')]
        found += text_problems(page, 'main')
        least, what = smallest_type(page, 'main')
        if least < 18 * min(width, height) / 720 - 0.05:
            found.append(f'type {least:.1f} px: {what}')
        look(page, case, full_page=False)
        if found:
            problems[case] = found
    context.close()
    assert problems == {}, json.dumps(problems, indent=1, ensure_ascii=False)


# The big screen's names as set (sheet.js fitNames): [each row's name's size], and the words set
# smaller than their row's type though they fit its column in it (two players' rows are never too
# short for a name: one that wraps at its spaces needs no shrinking; only a word wider than its
# column is set smaller, alone).
TV_NAME_SIZES = r'''() => {
  const ctx = document.createElement('canvas').getContext('2d');
  const rows = [...document.querySelectorAll('.tv-standings li .who')], shrunk = [];
  for (const who of rows) {
    const cs = getComputedStyle(who), room = who.getBoundingClientRect().width, row = getComputedStyle(who.closest('li')).fontSize;
    ctx.font = `${cs.fontWeight} ${row} ${cs.fontFamily}`;
    const walker = document.createTreeWalker(who, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
      const size = parseFloat(getComputedStyle(walker.currentNode.parentElement).fontSize);
      for (const word of walker.currentNode.textContent.split(/\s+/).filter(Boolean))
        if (size < parseFloat(row) - 0.01 && ctx.measureText(word).width <= room) shrunk.push(`${word} (${size} px)`);
    }
  }
  return [rows.map((who) => parseFloat(getComputedStyle(who).fontSize)), shrunk];
}'''


def test_the_big_screens_names_wrap_at_their_spaces_in_their_rows_type(browser, table):
    """Issue 48 (screens10): on the big screen, landscape and portrait, a name with spaces wraps at
    its spaces in its row's type: two players' names of the same length (the leader's in bold) set
    the same size, and no word set smaller while it fits its column (at 1280 x 720 the leader's
    "Bartholomew Featherstonehaugh" was set 20 px beside a 44 px "María de las Nieves Ñúñez" over
    three lines: only "Featherstonehaugh", wider than its column, may be set smaller, alone)."""
    server, client, games = table
    same = make_game(client, 2, 11, names=('Bartholomew Featherstonehaugh', 'Christopher Featherstonehaugh'))
    context = context_for(browser, server, client, 'en', False)
    page = context.new_page()
    problems = {}
    for name, url in (('over-2', games['over-2']), ('same-length-2', same)):
        for width, height in TVS:
            case = f'tv-names-{name}-{width}x{height}'
            big_screen(page, server.url + url, width, height)
            sizes, shrunk = page.evaluate(TV_NAME_SIZES)
            found = [f'set smaller though it fits its column: {word}' for word in shrunk]
            if name == 'same-length-2' and len(set(sizes)) > 1:
                found.append(f'names of the same length set {sizes} px')
            found += [f'a name broken inside a word: {word}' for word in broken_words(page, '.tv-standings .who')]
            found += text_problems(page, 'main')
            look(page, case, full_page=False)
            if found:
                problems[case] = found
    context.close()
    assert problems == {}, json.dumps(problems, indent=1, ensure_ascii=False)


# A shortened name tapped (names.js wholeOnTap): its line then scrolls sideways to show it whole,
# in the same room (nothing around it moves). [the names shortened, those that do not scroll once tapped].
# (the keypad's own is tapped for keys, not read: its name is the active block's, or the title's, on the screen)
SHORTENED = '''() => [...document.querySelectorAll('main bdi.cut:not(.picker *)')].filter((n) => n.getClientRects().length).map((n) => n.textContent)'''
TAPPED_WHOLE = '''(which) => { const name = [...document.querySelectorAll('main bdi.cut:not(.picker *)')].filter((n) => n.getClientRects().length)[which];
  const box = name.getBoundingClientRect(), form = document.querySelector('fieldset.player .went-out')?.getBoundingClientRect();
  return { scrolls: ['auto', 'scroll'].includes(getComputedStyle(name).overflowX) && name.scrollWidth > name.clientWidth,
           ellipsis: getComputedStyle(name).textOverflow === 'ellipsis', box: [box.top, box.height], form: form && form.top }; }'''
# The keypad's name, shortened, is on the screen outside it too: the active block's name, or the title's.
KEYPAD_NAME_ELSEWHERE = '''() => { const who = document.querySelector('.picker .count .who');
  return !who.classList.contains('cut') || [...document.querySelectorAll('fieldset.player.active legend bdi, h1 bdi')].some((b) =>
    b.textContent === who.textContent && b.getBoundingClientRect().width > 2 && b.getBoundingClientRect().bottom <= who.getBoundingClientRect().top); }'''


# A title that names a player ("WWWW…, your hand") and the keypad's head read as one line each, in one
# type (names.js AT_ITS_SIZE): the name the size of its heading or head, the heading on one line; and a
# name shortened ends at its "…" (no blank as wide as a letter before what follows it).
ONE_TYPE = r'''() => { const found = [], size = (e) => parseFloat(getComputedStyle(e).fontSize);
  for (const [box, name] of [['main h1', 'main h1 bdi'], ['.picker .count', '.picker .count .who']]) {
    const b = document.querySelector(box), n = document.querySelector(name);
    if (!b || !n || !n.getClientRects().length) continue;
    if (Math.abs(size(n) - size(b)) > 0.01) found.push(`${box}: its name in ${size(n)} px, the rest in ${size(b)} px`);
    if (b.getBoundingClientRect().height > 2 * size(b)) found.push(`${box}: on more than one line`);
    if (n.classList.contains('cut')) {
      const text = document.createRange(); text.selectNodeContents(n);
      const ctx = document.createElement('canvas').getContext('2d'), cs = getComputedStyle(n);
      ctx.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
      const letter = ctx.measureText(n.textContent[0]).width, dots = ctx.measureText('\u2026').width;
      // the letters shown and the "…" fill the box but for a pixel or two
      const shown = Math.floor((n.clientWidth - dots) / letter) * letter + dots;
      if (n.clientWidth - shown > 3) found.push(`${box}: ${Math.round(n.clientWidth - shown)} px blank after its "…"`);
    }
  }
  return found; }'''


@pytest.mark.parametrize('language', LANGUAGES)
def test_thirty_ws_read_whole_on_the_round_page_and_my_hand(browser, table, language):
    """Issue 48 (A, screens9): thirty W's and fifteen M's on a round's page and on "my hand" at
    360 x 740, light and dark: no name broken inside a word in its block's name (the legend broke
    them mid-letters) nor in the keypad's head, none under 12 px nor past the line's end; one
    shortened ("WWWW…") has its whole name as its title and, tapped, scrolls whole in its own line
    without moving what is around it; the keypad's count is whole beside it. (screens10) The title
    ("WWWW…, your hand") and the keypad's head each one line in one type, the name not set smaller
    than its heading (it was 12 px over a 20 px ", your hand"), ending at its "…"."""
    server, client, games = table
    url = make_game(client, 2, 5, names=(WIDEST[1], WIDEST[4]))
    context = context_for(browser, server, client, language, False)
    context.request.post(server.url + url + '/seats/0')       # this phone is the first player too
    page = context.new_page()
    problems = {}
    for where, path in (('round', url + '/rounds/6'), ('hand', url + '/hand')):
        for theme in ('light', 'dark'):
            case = f'thirty-w-{where}-360x740-{language}-{theme}'
            page.emulate_media(color_scheme=theme)
            page.goto(server.url + path)
            page.wait_for_function(SETTLED)
            if page.locator('.picker').is_hidden():
                page.locator('.pick').first.click()
            page.locator('.picker .count').wait_for()
            page.wait_for_function(SETTLED)
            found = page.evaluate(NAMES_WHOLE, False)
            cut = page.evaluate(COUNT_CUT)
            if cut:
                found.append(f'the keypad count: {cut}')
            if not page.evaluate(KEYPAD_NAME_ELSEWHERE):
                found.append("the keypad's name shortened, and not on the screen above it")
            found += page.evaluate(ONE_TYPE)
            look(page, case, full_page=False)
            for which, name in enumerate(page.evaluate(SHORTENED)):
                before = page.evaluate(TAPPED_WHOLE, which)
                page.locator('main bdi.cut:not(.picker *):visible').nth(which).click()
                after = page.evaluate(TAPPED_WHOLE, which)
                if not after['scrolls'] or after['ellipsis'] or after['box'] != before['box'] or after['form'] != before['form']:
                    found.append(f'shortened, and not whole once tapped: {name} {before} {after}')
            if found:
                problems[case] = found
    context.close()
    assert problems == {}, json.dumps(problems, indent=1, ensure_ascii=False)
