"""A sheet people want to look at: the race as a chart, player colours, the big-screen view and
the result as a picture to share."""

import struct

import pytest

from scorer.chart import SHAPES, nice_scale, race
from scorer.rules import make_rules
from scorer.sheet import Entry, Game, compute_sheet
from tests.helpers import LANGUAGES, keeper_key, play_rounds, round_form

PLAYERS = ['Ana', 'Bruno', 'Carla', 'Dan', 'Eva', 'Fer', 'Gil', 'Hugo']


def played(players, rounds):
    """A game whose round n is won by seat n % players; the others score seat + n."""
    game = Game(tuple(players), make_rules())
    entries = {n: tuple(Entry(p, went_out=(i == n % len(players)), points=None if i == n % len(players) else i + n)
                        for i, p in enumerate(players)) for n in range(1, rounds + 1)}
    return compute_sheet(Game(game.players, game.rules, 0, entries))


def test_the_race_has_a_line_per_player_from_zero_to_each_total():
    sheet = played(PLAYERS[:4], 3)
    chart = race(sheet)
    assert len(chart.lines) == 4
    for line in chart.lines:
        assert [p.total for p in line.points] == [0] + [r.totals[line.player] for r in sheet.rows]
        assert [p.zero for p in line.points[1:]] == [r.scores[line.player].score == 0 for r in sheet.rows]
        assert line.shape == SHAPES[line.seat]
    leader = [line for line in chart.lines if line.leader]
    assert [line.player for line in leader] == sheet.leaders and chart.lines[-1].leader     # drawn last, on top
    top_y = min(p.y for line in chart.lines for p in line.points)
    assert chart.top <= top_y and max(p.y for line in chart.lines for p in line.points) <= chart.height - chart.bottom


def test_every_line_of_the_big_screen_is_named_at_its_end():
    """Issue 48 (8): a name whose first word is long (thirty Chinese characters, a 22-letter word)
    still names its line at the end, shortened with '…' to the room a label has; a short first word
    whole; two players of the same first word by the words that tell them apart (screens10: they were
    left to their markers alone, and "María" beside "María" would be confused), shortened with '…'
    to SHARED_EMS; only where even so two would read alike, by their markers."""
    players = ['诸葛亮孔明之卧龙先生南阳躬耕于隆中好为梁父吟每自比于管仲乐毅', 'Featherstonehaughington Smythe', 'Zoë', 'Ana Lima', 'Ana Sousa']
    chart = race(played(players, 3), size=18, width=1200, height=600, labels=True)
    said = {label.line.player: label.text for label in chart.labels}
    assert said == {players[0]: '诸葛亮孔明之…', players[1]: 'Feathersto…', 'Zoë': 'Zoë', 'Ana Lima': 'Ana Lima', 'Ana Sousa': 'Ana Sousa'}
    players = ['María de las Nieves Ñúñez', 'María José Pereira', 'Bartholomew Featherstonehaugh', 'Bartholomew Fowler',
               'Ana', 'Ana Lima', 'Featherstonehaughington Smythe', 'Featherstonehaughington Jones']
    said = {label.line.player: label.text for label in race(played(players, 3), size=18, width=1200, height=600, labels=True).labels}
    assert said == {'María de las Nieves Ñúñez': 'María de', 'María José Pereira': 'María José',
                    'Bartholomew Featherstonehaugh': 'Bartholomew Fea…', 'Bartholomew Fowler': 'Bartholomew Fow…',
                    'Ana': 'Ana', 'Ana Lima': 'Ana Lima',
                    'Featherstonehaughington Smythe': '', 'Featherstonehaughington Jones': ''}     # both "Featherstonehaughi…"
    texts = [text for text in said.values() if text]
    assert len(set(texts)) == len(texts)                                        # no two lines named alike


def test_the_scale_fits_the_data_in_nice_steps():
    """Issue 27: totals of 214-332 were drawn on 0-500. Now the scale is a few nice steps just above
    the highest total, which reaches at least 80 % of the height."""
    assert [nice_scale(v) for v in (7, 99, 214, 224, 332, 480)] == [
        (7, 1), (100, 20), (250, 50), (250, 50), (350, 50), (500, 100)]
    for most in range(10, 120001, 7):             # up to 11 rounds of the most points a round takes
        top, step = nice_scale(most)
        assert most / top >= 0.8 and top % step == 0 and 3 <= top // step <= 7


def test_the_sheet_and_the_print_carry_the_chart_and_colours(client, make_game):
    url = make_game(('Ana', 'Bruno', 'Carla'))
    assert 'race-chart' not in client.get(url).get_data(as_text=True)          # nothing to draw yet
    client.post(url + '/rounds/1', data=round_form(0, points=[None, '7', '0']))
    page = client.get(url).get_data(as_text=True)
    assert 'race-chart' in page and '<title id="race-title">Running totals by round</title>' in page
    assert '<desc id="race-desc">Ana: 0; Bruno: 7; Carla: 0</desc>' in page
    assert page.count('class="mark zero"') >= 2                                 # Ana and Carla scored 0
    client.post(url + '/colours', data={'colour-0': '3', 'colour-1': '0', 'colour-2': '7'})
    page = client.get(url).get_data(as_text=True)
    assert '<th scope="col" class="c3 leader"><bdi>Ana</bdi></th>' in page and 'series c7' in page
    assert 'class="player c3' in client.get(url + '/rounds/2').get_data(as_text=True)
    assert client.post(url + '/colours', data={'colour-0': '9'}).status_code == 400
    assert 'race-chart' in client.get(url + '/print').get_data(as_text=True)


def test_only_the_scorekeeper_chooses_colours(app, make_game):
    url = make_game(('Ana', 'Bruno'))
    assert app.test_client().post(url + '/colours', data={'colour-0': '1', 'colour-1': '0'}).status_code == 403


def png_size(data):
    assert data[:8] == b'\x89PNG\r\n\x1a\n'
    return struct.unpack('>II', data[16:24])


def test_the_picture_holds_the_standings_and_no_key(client, make_game):
    url = make_game(('Zoë', 'Bruno', 'أحمد'))
    play_rounds(client, url, 2, 3, points=lambda seat, n: seat + 2)
    svg = client.get(url + '/picture.svg').get_data(as_text=True)
    for name in ('Zoë', 'Bruno', 'أحمد'):
        assert f'>{name}</text>' in svg
    assert '<polyline' in svg and 'after round 2 of 11' in svg
    key = keeper_key(client, url)
    assert key not in svg and 'keeper' not in svg
    png = client.get(url + '/picture.png')
    width, height = png_size(png.data)
    assert png.mimetype == 'image/png' and width == 1200 and 600 < height < 2400 and len(png.data) > 5000   # 2 px a point
    download = client.get(url + '/picture.png?download=1')
    assert 'attachment' in download.headers['Content-Disposition']


def test_the_big_screen_is_read_only_and_live(app, client, make_game):
    url = make_game(('Ana', 'Bruno'))
    viewer = app.test_client()
    page = viewer.get(url + '/tv').get_data(as_text=True)
    assert 'tv-big' in page and 'Round 1' in page and '/rounds/' not in page and 'view=tv' in page
    assert 'Big screen' in client.get(url).get_data(as_text=True)
    client.post(url + '/rounds/1', data=round_form(0, points=[None, '12']))
    fragment = viewer.get(url + '/live?view=tv').get_data(as_text=True)
    assert 'Round 2' in fragment and '<span class="total">12</span>' in fragment


# Each language once, and dark once (it changes colours only: the lines' contrast is axe's to check).
# Each language once, the last in dark (the languages from the app, not listed here).
LOOKS = [(language, language == LANGUAGES[-1]) for language in LANGUAGES]


@pytest.mark.parametrize('language, dark', LOOKS, ids=[f"{l}-{'dark' if d else 'light'}" for l, d in LOOKS])
def test_the_race_at_a_phone_and_on_a_big_screen(browser, server, language, dark):
    from tests.browser import axe_violations, expect, no_horizontal_scroll, phone_in, shot, start_game
    context = phone_in(browser, server, language, dark, bypass_csp=True)
    page = context.new_page()
    game = start_game(page, server.url, PLAYERS)
    for n in range(1, 4):
        page.goto(f'{game}/rounds/{n}')
        page.locator(f'#went_out-{n % 8}').check()
        for seat in range(8):
            if seat != n % 8:
                page.locator(f'#entries-{seat}-points').fill(str(seat + n))
        page.locator('.save-bar button').click()
    page.goto(game)
    chart = page.locator('svg.race-chart')
    expect(chart).to_be_visible()
    assert chart.bounding_box()['width'] <= 360 and no_horizontal_scroll(page)
    assert page.locator('.race-key li').count() == 8
    assert axe_violations(page) == []
    chart.scroll_into_view_if_needed()
    shot(page, f'race-sheet-{language}-{"dark" if dark else "light"}')
    tv = context.new_page()
    tv.set_viewport_size({'width': 1280, 'height': 720})
    tv.goto(game + '/tv')
    expect(tv.locator('.tv-standings li')).to_have_count(8)
    assert tv.locator('.tv-big').bounding_box()['height'] > 50           # readable across the table
    assert axe_violations(tv) == []
    shot(tv, f'race-tv-{language}-{"dark" if dark else "light"}')
    tv.set_viewport_size({'width': 720, 'height': 1280})               # a tablet standing up
    shot(tv, f'race-tv-portrait-{language}-{"dark" if dark else "light"}')
    context.close()


SMALLEST_TEXT = '''() => Math.min(...[...document.querySelectorAll('main p, main li span, main li')]
  .filter((e) => e.offsetParent !== null && e.textContent.trim())
  .map((e) => parseFloat(getComputedStyle(e).fontSize)))'''
OUTSIDE = '''() => [...document.querySelectorAll('.tv-round, .tv-standings li, .tv-chart svg')].filter((e) => {
  const r = e.getBoundingClientRect();
  return r.bottom > innerHeight + 1 || r.right > innerWidth + 1 || r.height < 1; }).length'''


@pytest.mark.parametrize('players', [2, 8])
@pytest.mark.parametrize('width, height', [(1280, 720), (1920, 1080), (720, 1280), (1080, 1920)],
                         ids=['720p', '1080p', '720p-portrait', '1080p-portrait'])
def test_the_big_screen_fills_a_tv_without_scrolling(browser, app, players, width, height):
    """Issue 27: a TV across the room, landscape or portrait: no site header or footer, the round,
    the standings with totals and zero rounds, and the race, all on the screen for 2 to 8 players."""
    from tests.browser import axe_violations, expect, shot
    from tests.server import Server
    client = app.test_client()
    names = PLAYERS[:players]
    url = client.post('/games/new', data={**{f'players-{i}': p for i, p in enumerate(names)},
                                          'first_dealer': '0', 'decks': 'auto', 'game': 'standard'}).headers['Location']
    play_rounds(client, url, 7, players, points=lambda seat, n: 5 * n + seat)
    with Server(app) as server:
        context = browser.new_context(viewport={'width': width, 'height': height}, bypass_csp=True)   # for axe
        page = context.new_page()
        page.goto(server.url + url + '/tv')
        expect(page.locator('.tv-standings li')).to_have_count(players)
        assert page.locator('header.bar').is_hidden() and page.locator('footer.languages').is_hidden()
        assert page.evaluate('() => [document.documentElement.scrollHeight <= innerHeight,'
                             ' document.documentElement.scrollWidth <= innerWidth]') == [True, True]
        assert page.evaluate(OUTSIDE) == 0
        expect(page.locator('.tv-standings li').first).to_contain_text('zero round')
        smallest = page.evaluate(SMALLEST_TEXT)
        if height == 1080:
            assert smallest >= 18, smallest                 # at 1080p, from across a room
        assert axe_violations(page) == []
        shot(page, f'tv-{width}x{height}-{players}', full_page=False)
        context.close()
