"""The final scoresheet on one printed page, exports that leave and come back without loss, history,
delete, and player stats."""

import csv
import io
import json
import re
import subprocess

import pytest

from app import create_app
from scorer.gamefile import GameFileError, read_game
from scorer.rules import make_rules
from scorer.sheet import Entry, Game
from scorer.stats import merge, player_stats, summary_of, unmerge
from tests.browser import ARTIFACTS
from tests.server import Server
from tests.helpers import LOOSE_RATES, PATIENCE, play_rounds, round_form

EIGHT = ('Anastasia', 'Bartholomew', 'Carla', 'Dominique', 'Esperanza', 'Fitzgerald', 'Guadalupe', 'Hildegard')


def play(client, url, players, rounds=11, cards=True):
    """Enter every round: seat n % players goes out, the odd seats hold a pair (2♥ 2♣, 6♥ 6♣, ...)
    if `cards`, and the others score (7 × seat + n) mod 40 points."""
    ranks = ['2', '4', '6', '8', '10', 'Q', 'K', 'A']
    play_rounds(client, url, rounds, players, points=lambda seat, n: (seat * 7 + n) % 40,
                cards=lambda seat, n: f'{ranks[seat]}H {ranks[seat]}C' if cards and seat % 2 else None)


@pytest.fixture
def finished_eight(client, make_game):
    url = make_game(EIGHT, title='Friday night at the cabin')
    play(client, url, EIGHT)
    return url


def test_print_page_has_everything_and_no_controls(client, finished_eight):
    page = client.get(finished_eight + '/print').get_data(as_text=True)
    for text in ('Friday night at the cabin', 'Anastasia', 'Hildegard', 'Total', 'Zero rounds', 'Place',
                 'wins', "Scorekeeper's signature", '11 rounds of 3 to 13 cards', '* went out'):
        assert text in page, text
    assert '<form' not in page and '<nav' not in page
    assert page.count('<button') == 1 and '<p class="screen-only print-actions"><button type="button" class="print-now"' in page
    assert page.count('<tr>') >= 11
    assert '<span class="run">' in page                       # running totals, round by round


def test_every_page_names_an_icon_the_server_has(client, make_game):
    """Issue 48 (10): the print page, which stands alone (no base.html), names the app's icon as
    every page does, so a browser asks for no /favicon.ico, which is none."""
    url = make_game(('Ana', 'Bruno'))
    for page in ('/', url, url + '/print'):
        icons = re.findall(r'<link rel="icon" href="([^"]+)"', client.get(page).get_data(as_text=True))
        assert icons and all(client.get(icon).status_code == 200 for icon in icons), page


def test_the_printed_names_are_set_by_the_width_their_words_need(app):
    """web/export.names_set, the one place that decides, by the width the players' widest words
    need in the print's type (measured, not counted in letters: ten i's are narrower than ten W's),
    beside the round, cards and wild columns (each as wide as its heading's widest word in 7 pt, at
    most 12 mm): in the headings' type while they cross the page (Chinese breaking anywhere,
    a character at a time), tight past that, tight with the widest words shortened alike to what
    crosses it (a full stop for the letters left out; never Chinese; a word of thirty W's too,
    never broken inside: issue 48); the columns' widths in % of the sheet, adding up to it."""
    from web.export import PRINT_ROOM, TIGHT_CELL, TIGHT_PT, TIGHT_SPACING, measured, names_set, words_of
    narrow = ('R.', 'Cartas', 'Curinga')
    with app.test_request_context():
        room = lambda set_: PRINT_ROOM * (1 - sum(set_['widths'][:3]) / 100)
        tight = lambda name: TIGHT_CELL + max(measured(w, TIGHT_PT, 400, TIGHT_SPACING) for w in words_of(name))
        plain = names_set(['Ana', 'Bruno', '欧阳志远欧阳志远欧阳志远'], narrow)
        assert (plain['sheet'], plain['short']) == ('', {})
        assert abs(sum(plain['widths']) - 100) < 0.1 and all(w * PRINT_ROOM / 100 <= 12 for w in plain['widths'][:3])
        slim, broad = (names_set([f'{chr(65 + i)}{letter * 11} Ng' for i in range(8)], narrow) for letter in 'iW')
        assert (slim['sheet'], slim['short']) == ('', {}) and broad['sheet'] == 'tight'        # the same letters
        crowded = ['Featherstonehaugh-Cholmondeley', 'Ñúñez Featherstonehaugh', '欧阳志远欧阳志远 Featherstonehaugh', 'Marjoribanks',
                   *(f'Featherstonehaugh {i}' for i in range(4))]       # seven words of 17 letters, in Noto
        tightly = names_set(crowded, narrow)
        short = tightly['short']
        assert tightly['sheet'] == 'tight' and short and all(p in short for p in crowded[:3])
        assert all(re.fullmatch(r'[^.]*\.', w) for p in short for w in re.findall(r'[^\s-]*\.', short[p]))
        assert short['欧阳志远欧阳志远 Featherstonehaugh'].startswith('欧阳志远欧阳志远 ')
        assert sum(tight(short.get(p, p)) for p in crowded) <= room(tightly) + 0.01
        wide = 'W' * 30
        assert names_set(['Ana', wide], narrow)['short'] == {}           # whole, in the headings' type
        eight = [wide, *(f'{name}son' for name in EIGHT[1:])]            # seven of 12-14 letters beside it
        alone = names_set(eight, narrow)
        assert list(alone['short']) == [wide] and re.fullmatch(r'W+\.', alone['short'][wide])
        assert sum(tight(alone['short'].get(p, p)) for p in eight) <= room(alone) + 0.01


def test_print_of_a_game_in_progress_says_so(client, make_game):
    url = make_game(('Ana', 'Bruno'))
    assert '(in progress: round 1 of 11 next)' in client.get(url + '/print').get_data(as_text=True)


@pytest.mark.parametrize('players', [EIGHT, EIGHT[:6]], ids=['eight', 'six-with-the-race'])
@pytest.mark.parametrize('paper', ['A4', 'Letter'])
def test_eight_players_eleven_rounds_print_on_one_page(tmp_path, browser, paper, players):
    from pypdf import PdfReader
    app = create_app({'TESTING': True, 'DATABASE': str(tmp_path / 'print.sqlite'), 'SECRET_KEY': 'p',
                      'WTF_CSRF_ENABLED': False, **LOOSE_RATES})      # eleven rounds of hands: the solver's budget
    client = app.test_client()
    url = client.post('/games/new', data={**{f'players-{i}': p for i, p in enumerate(players)},
                                          'first_dealer': '0', 'decks': 'auto', 'game': 'standard',
                                          'title': 'Friday night at the cabin', 'place': 'Lake house'}).headers['Location']
    play(client, url, players)
    assert ('race-chart' in client.get(url + '/print').get_data(as_text=True)) == (len(players) <= 6)
    with Server(app) as server:
        context = browser.new_context()
        page = context.new_page()
        page.goto(server.url + url + '/print')
        pdf = page.pdf(format=paper, print_background=False)
        context.close()
    assert len(PdfReader(io.BytesIO(pdf)).pages) == 1
    ARTIFACTS.mkdir(exist_ok=True)
    name = f'print-{paper}-{len(players)}'
    path = ARTIFACTS / f'{name}.pdf'
    path.write_bytes(pdf)
    subprocess.run(['pdftoppm', '-png', '-r', '70', '-singlefile', str(path), str(ARTIFACTS / name)],
                   check=True, timeout=PATIENCE)
    assert (ARTIFACTS / f'{name}.png').stat().st_size > 10_000


@pytest.mark.parametrize('players', [EIGHT, EIGHT[:4]], ids=['eight', 'four'])
def test_the_print_page_reads_on_a_phone_before_printing(app, browser, players):
    """Issue 27: at 360 px the Print button is at the top, and the sheet scrolls sideways in its
    frame with its round columns narrow, so that players' columns start on the first screen."""
    from tests.browser import phone, shot
    client = app.test_client()
    url = client.post('/games/new', data={**{f'players-{i}': p for i, p in enumerate(players)},
                                          'first_dealer': '0', 'decks': 'auto', 'game': 'standard'}).headers['Location']
    play(client, url, players)
    with Server(app) as server:
        context = phone(browser)
        page = context.new_page()
        page.goto(server.url + url + '/print')
        button = page.get_by_role('button', name='Print').bounding_box()
        assert button and button['y'] + button['height'] <= 200
        frame = page.evaluate("() => { const w = document.querySelector('.print-wrap');"
                              " return [w.scrollWidth, w.clientWidth, document.documentElement.scrollWidth]; }")
        # The page never scrolls sideways; the sheet may, inside its frame (eight players; four whose names
        # are long words since issue 48, as no name is broken inside a word): the first players start on screen.
        assert frame[2] <= 360
        seen = [h.bounding_box() for h in page.locator('thead th.p').all()[:3]]
        assert all(box and box['x'] + box['width'] <= 360 for box in seen)
        shot(page, f'print-phone-{len(players)}', full_page=False)
        context.close()


def test_json_export_import_round_trip(client, finished_eight):
    exported = client.get(finished_eight + '/export.json').get_json()
    r = client.post('/import', data={'game_file': (io.BytesIO(json.dumps(exported).encode()), 'g.json')},
                    content_type='multipart/form-data')
    assert r.status_code == 302
    again = client.get(r.headers['Location'] + '/export.json').get_json()
    assert again == exported
    imported = r.headers['Location']
    printed = client.get(imported + '/print').get_data(as_text=True).replace(imported, 'GAME')
    assert printed == client.get(finished_eight + '/print').get_data(as_text=True).replace(finished_eight, 'GAME')


def test_tampered_file_is_refused_and_nothing_stored(client, finished_eight):
    exported = client.get(finished_eight + '/export.json').get_json()
    exported['sheet']['totals']['Carla'] -= 10
    r = client.post('/import', data={'game_file': (io.BytesIO(json.dumps(exported).encode()), 'g.json')},
                    content_type='multipart/form-data')
    assert r.status_code == 400
    assert 'gives Carla a total of' in r.get_data(as_text=True)
    assert 'changed by hand' in r.get_data(as_text=True)
    assert client.get('/').get_data(as_text=True).count('Friday night') == 1


def test_csv_has_a_row_per_round_a_column_per_player_and_totals(client, finished_eight):
    r = client.get(finished_eight + '/export.csv')
    assert r.mimetype == 'text/csv' and 'friday-night-at-the-cabin' in r.headers['Content-Disposition']
    assert r.data.startswith('\ufeff'.encode())            # spreadsheets then read it as UTF-8
    rows = list(csv.reader(io.StringIO(r.data.decode('utf-8-sig'))))
    assert rows[0] == ['Round', 'Cards', 'Wild', 'Dealer', 'Went out', *EIGHT]
    assert [row[0] for row in rows[1:12]] == [str(n) for n in range(1, 12)]
    exported = client.get(finished_eight + '/export.json').get_json()
    totals = rows[12]
    assert totals[0] == 'Total' and [int(t) for t in totals[5:]] == [exported['sheet']['totals'][p] for p in EIGHT]
    for n, row in enumerate(rows[1:12], 1):
        assert [int(x) for x in row[5:]] == [exported['sheet']['rounds'][n - 1]['scores'][p] for p in EIGHT]
    assert rows[13][0] == 'Zero rounds' and rows[14][0] == 'Place'


def test_history_lists_finished_games_with_the_winner(client, finished_eight, make_game):
    make_game(('Ana', 'Bruno'))                            # in progress: not in the history
    page = client.get('/history').get_data(as_text=True)
    assert 'Friday night at the cabin' in page and '<bdi>Ana</bdi>, <bdi>Bruno</bdi>' not in page
    assert ' wins' in page or 'share first place' in page


def test_history_and_stats_read_each_games_summary_made_once_per_revision(app, client, make_game, monkeypatch):
    url = make_game(('Ana', 'Bruno'))
    play_rounds(client, url, 11, 2, went_out=0, points=5)
    assert '<bdi>Ana</bdi> wins with 0' in client.get('/history').get_data(as_text=True)
    import web.context
    made = []
    monkeypatch.setattr(web.context, 'summary_of', lambda game: made.append(game) or summary_of(game))
    for path in ('/history', '/stats', '/history'):
        assert client.get(path).status_code == 200
    assert made == []                                          # nothing scored again for a view
    client.post(f'{url}/rounds/11', data=round_form(1, points=['90'], version=1))   # a correction
    assert '<bdi>Bruno</bdi> wins with 50' in client.get('/history').get_data(as_text=True)
    assert len(made) == 1                                      # made again once, for the new revision
    page = client.get('/stats').get_data(as_text=True)
    assert len(made) == 1 and 'Bruno' in page


def test_finished_game_opens_read_only_and_can_be_corrected(client, finished_eight):
    page = client.get(finished_eight).get_data(as_text=True)
    assert 'Game over.' in page and 'Correct a round' in page
    assert re.findall(r'/rounds/[^"]*', page) == ['/rounds/11/undo']      # only the minute's Undo of the last save
    assert '/rounds/1' in client.get(finished_eight + '?edit=1').get_data(as_text=True)


def test_delete_asks_first_and_then_removes_everything(app, client, make_game):
    url = make_game(('Ana', 'Bruno'))
    page = client.get(url + '/delete').get_data(as_text=True)
    assert 'Delete this game?' in page and 'cannot be undone' in page
    assert app.test_client().post(url + '/delete').status_code == 403      # not the scorekeeper
    r = client.post(url + '/delete')
    assert r.status_code == 302
    assert client.get(url).status_code == 404


def game(players, rounds):
    """A finished standard game: rounds is a list of {player: score}; the 0 goes out."""
    entries = {}
    for n in range(1, 12):
        scores = rounds[(n - 1) % len(rounds)]
        out = next(p for p, s in scores.items() if s == 0)
        entries[n] = tuple(Entry(p, went_out=True) if p == out else Entry(p, points=s) for p, s in scores.items())
    return Game(tuple(players), make_rules(), 0, entries)


def test_stats_across_games_with_names_matched_and_merged():
    g1 = game(['Ana', 'Bruno'], [{'Ana': 0, 'Bruno': 10}])                      # Ana 0, Bruno 110
    g2 = game(['ana', 'Bruno'], [{'Bruno': 0, 'ana': 5}])                       # Bruno 0, ana 55
    g3 = game(['Anna', 'Carla'], [{'Anna': 0, 'Carla': 3}, {'Carla': 0, 'Anna': 4}])
    stats = {s.name: s for s in player_stats(map(summary_of, [g1, g2, g3]))}
    assert set(stats) == {'Ana', 'Bruno', 'Anna', 'Carla'}                     # 'ana' is Ana
    ana = stats['Ana']
    assert (ana.games, ana.wins, ana.best, ana.average, ana.zero_rounds, ana.went_out) == (2, 1, 0, 27.5, 11, 11)
    assert ana.average_by_round()[1] == 2.5
    merged = {s.name: s for s in player_stats(map(summary_of, [g1, g2, g3]), {'anna': 'Ana'})}
    assert merged['Ana'].games == 3 and 'Anna' not in merged
    # g3: Anna goes out in rounds 1, 3, ..., 11 (6 rounds) and scores 4 in the 5 others.
    assert merged['Ana'].totals == [0, 55, 20]


def test_stats_page_cards_chart_and_merge(client, make_game):
    for players in (('Ana', 'Bruno'), ('ana', 'Bruno'), ('Anna', 'Bruno')):
        url = make_game(players)
        play(client, url, players, cards=False)
    page = client.get('/stats').get_data(as_text=True)
    assert '3 finished games' in page and '<svg' in page and 'average penalty by round' in page
    assert page.count('<li class="player-card">') == 3                         # Ana (twice), Anna, Bruno
    bars = re.findall(r'<rect [^>]*class="bar"><title>Round (\d+): ([\d.]+)</title></rect>\s*'
                      r'<text [^>]*class="value">(\d+)</text>', page)
    assert bars and all(int(shown) == int(float(value) + 0.5) for _, value, shown in bars)   # each bar says its value
    r = client.post('/stats/merge', data={'spelling': 'Anna', 'name': 'Ana'})
    assert r.status_code == 302
    page = client.get('/stats').get_data(as_text=True)
    assert page.count('<li class="player-card">') == 2 and '<bdi>Anna</bdi> counts as <bdi>Ana</bdi>' in page
    client.post('/stats/unmerge', data={'spelling': 'anna'})
    page = client.get('/stats').get_data(as_text=True)
    assert page.count('<li class="player-card">') == 3 and 'Anna counts on its own again.' in page   # as typed


def test_read_game_refuses_a_file_whose_sheet_is_not_a_sheet():
    data = {'version': 1, 'players': ['A', 'B'], 'rules': {}, 'first_dealer': 0, 'rounds': [], 'sheet': 'nope'}
    with pytest.raises(GameFileError, match='not a sheet'):
        read_game(data)


def test_merging_follows_chains_and_matches_case_as_unicode_does():
    merged = merge({}, 'élia', 'Elia')
    merged = merge(merged, 'ana', 'ÉLIA')            # ÉLIA is élia, which counts as Elia
    assert merged == {'élia': 'Elia', 'ana': 'Elia'}
    merged = merge(merged, 'Elia', 'Zoë')            # what counted as Elia follows it to Zoë
    assert merged == {'élia': 'Zoë', 'ana': 'Zoë', 'elia': 'Zoë'}
    assert merge(merged, 'Zoë', 'ana') == merged     # a loop is never made
    assert unmerge(merged, 'ANA') == {'élia': 'Zoë', 'elia': 'Zoë'}


def test_one_browsers_merge_never_reaches_another_browser(app, client, make_game):
    for players in (('Ana', 'Bruno'), ('Anna', 'Bruno')):
        url = make_game(players)
        play(client, url, players, cards=False)
    client.post('/stats/merge', data={'spelling': 'Anna', 'name': 'Ana'})
    assert '<bdi>Anna</bdi> counts as <bdi>Ana</bdi>' in client.get('/stats').get_data(as_text=True)
    other = app.test_client()
    other.post('/stats/unmerge', data={'spelling': 'anna'})          # a browser with no games
    assert '<bdi>Anna</bdi> counts as <bdi>Ana</bdi>' in client.get('/stats').get_data(as_text=True)
    assert 'Anna' not in other.get('/stats').get_data(as_text=True)


@pytest.mark.parametrize('language, separator, header', [
    ('es', ';', ['Ronda', 'Cartas', 'Comodín', 'Reparte', 'Salió']),
    ('pt', ';', ['Rodada', 'Cartas', 'Curinga', 'Dá as cartas', 'Bateu']),
    ('en', ',', ['Round', 'Cards', 'Wild', 'Dealer', 'Went out'])])
def test_the_csv_speaks_the_pages_language_with_its_spreadsheets_separator(client, finished_eight, language,
                                                                            separator, header):
    rows = list(csv.reader(io.StringIO(client.get(f'{finished_eight}/export.csv?lang={language}').data
                                       .decode('utf-8-sig')), delimiter=separator))
    assert rows[0] == [*header, *EIGHT]
    assert len(rows[1]) == 5 + len(EIGHT)


def test_a_version_set_aside_in_a_conflict_travels_in_the_game_file_and_the_csv(app, client, make_game):
    """Two phones save round 1 from the same blank form: the second is told of the conflict and keeps
    its own, the first is set aside (an earlier version of the round). The game file carries it, the
    CSV lists it, and a game file imported brings it back, to be seen and restored on the round's page."""
    url = make_game(('Ana', 'Bruno', 'Carla'))
    assert client.post(url + '/rounds/1', data=round_form(0, points=[None, '11', '22'])).status_code == 302
    assert client.post(url + '/rounds/1', data=round_form(0, points=[None, '3', '4'])).status_code == 409
    assert client.post(url + '/rounds/1', data=round_form(0, points=[None, '3', '4'], version=1)).status_code == 302
    exported = client.get(url + '/export.json').get_json()
    aside = exported['rounds'][0]['earlier']
    assert [v['entries'] for v in aside] == [[{'player': 'Ana', 'went_out': True}, {'player': 'Bruno', 'points': 11},
                                              {'player': 'Carla', 'points': 22}]]
    assert aside[0]['replaced'][:4].isdigit()
    assert exported['rounds'][0]['entries'][1] == {'player': 'Bruno', 'points': 3}
    rows = list(csv.reader(io.StringIO(client.get(url + '/export.csv').data.decode('utf-8-sig'))))
    earlier = [row for row in rows if row and row[0] == 'Earlier version of round 1']
    assert len(earlier) == 1 and earlier[0][4] == 'Ana' and earlier[0][5:] == ['0', '11', '22']
    other = app.test_client()                                     # another phone imports the file
    r = other.post('/import', data={'game_file': (io.BytesIO(json.dumps(exported).encode()), 'g.json')},
                   content_type='multipart/form-data')
    assert r.status_code == 302
    imported = r.headers['Location']
    assert other.get(imported + '/export.json').get_json()['rounds'] == exported['rounds']
    page = other.get(imported + '/rounds/1').get_data(as_text=True)
    restore = re.search(r'name="history" value="(\d+)"', page)
    assert restore and '22' in page[page.index('Earlier version of this round'):]
    r = other.post(imported + '/rounds/1/restore', data={'history': restore.group(1), 'version': '2'})
    assert r.status_code == 302
    assert other.get(imported + '/export.json').get_json()['rounds'][0]['entries'][2] == {'player': 'Carla',
                                                                                          'points': 22}


def test_the_prints_type_is_served_by_the_app_and_nothing_else_from_its_packages(client, make_game):
    """The print's Noto stylesheets and font files (web/context.py PRINT_FONTS) come from the app
    itself, named first by each printed page; no other file of node_modules, and nothing else."""
    page = client.get(make_game(('Ana', 'Bruno')) + '/print').get_data(as_text=True)
    sheets = re.findall(r'<link rel="stylesheet" href="(/print/fonts/[^"]+)">', page)
    assert sheets and page.index(sheets[0]) < page.index('print.css')
    first = client.get(sheets[0])
    assert first.status_code == 200 and first.mimetype == 'text/css'
    font = re.search(r'url\(\./(files/[^)]+\.woff2)\)', first.get_data(as_text=True)).group(1)
    assert client.get(sheets[0].rsplit('/', 1)[0] + '/' + font).status_code == 200
    for other in ('/print/fonts/noto-sans/package.json', '/print/fonts/noto-sans/../pyodide/pyodide.js',
                  '/print/fonts/pyodide/pyodide.css', '/print/fonts/noto-sans/%2e%2e/%2e%2e/package.json'):
        assert client.get(other).status_code == 404, other


def test_a_listed_winners_line_isolates_each_name_and_says_the_rest_as_before(app):
    """The lists' line of who won (web/context.py winner_named) with each name a <bdi> (which a phone
    fits to its line, issue 48): markup in a name escaped, a name that is a word of the sentence
    left as the sentence has it, and Spanish's "e" before Inés chosen by the name."""
    from web.context import winner_named
    with app.test_request_context():
        assert winner_named({'players': ['Ana', 'with <b>'], 'standings': [['with <b>', 10, 1, 1], ['Ana', 20, 0, 2]],
                             'tie_break': 'none'}) == '<bdi>with &lt;b&gt;</bdi> wins with 10'
    tied = {'players': ['Ana', 'Inés', 'Bo'], 'standings': [['Ana', 10, 1, 1], ['Inés', 10, 1, 1], ['Bo', 30, 0, 3]],
            'tie_break': 'none'}
    with app.test_request_context(headers={'Cookie': 'lang=es'}):
        assert winner_named(tied).startswith('<bdi>Ana</bdi> e <bdi>Inés</bdi> empatan con 10')
