"""Offline play: the scorekeeper's phone keeps its game and plays on without a network, with the
project's own scorer (web/phone.py, in Pyodide), and the rounds it saved are sent when the server
answers again. The phone's answers are the server's: same solver, same templates, compared here."""

import html
import io
import json
from contextlib import contextmanager
import random
import re
import zipfile
from pathlib import Path
from urllib.parse import unquote

import pytest

from scorer.cards import JOKER, Card
from scorer.rules import CHOICES, DECKS, choices, make_rules
from tests.browser import own_module, scorers_started
from tests.helpers import LANGUAGES, new_game, new_game_form, play_rounds, round_form
from web import phone

ROOT = Path(__file__).resolve().parent.parent

PLAYERS = ['Ana', 'Bruno', 'Zoë']


def play(client, players=PLAYERS, rounds=3, seed=1):
    """A game with `rounds` rounds saved as points (seat n - 1 goes out in round n, the others score
    0 to 40 drawn from `seed`); returns its sheet URL."""
    rng = random.Random(seed)
    url = new_game(client, players)
    play_rounds(client, url, rounds, players, went_out=lambda n: (n - 1) % len(players),
                points=lambda seat, n: rng.randint(0, 40))
    return url


def on_phone(name, language='en', **args):
    """What the phone's worker answers (the same call, in CPython here)."""
    return json.loads(phone.call(name, json.dumps({'language': language, 'args': args})))


# The routes

def test_the_offline_game_is_for_its_scorekeeper_alone(app, client):
    url = play(client)
    data = client.get(url + '/offline.json').get_json()
    assert data['game']['players'] == PLAYERS and len(data['game']['rounds']) == 3
    assert data['versions'] == {str(n): (1 if n <= 3 else 0) for n in range(1, 12)}
    assert data['colours'] == [0, 1, 2] and data['revision'] == 3
    ours, pyodide = f"/offline/{data['release']}/", f'/offline/pyodide/{offline_pyodide_version(app)}/'
    assert all(u.startswith((ours, pyodide, '/offline/packages/')) for u in data['bundle'])
    assert len([u for u in data['bundle'] if u.startswith(pyodide)]) == 5          # Pyodide under its version
    assert app.test_client().get(url + '/offline.json').status_code == 403
    assert client.get('/games/nosuchgame/offline.json').status_code == 404


def test_the_bundle_is_served_from_this_origin_under_its_release(app, client):
    url = play(client, rounds=0)
    data = client.get(url + '/offline.json').get_json()
    release = data['release']
    for address in data['bundle']:
        r = client.get(address)
        assert r.status_code == 200, address
        assert r.headers['Cache-Control'] == 'public, max-age=31536000, immutable'
        r.close()
    worker = client.get(f'/offline/{release}/worker.js')
    assert "'wasm-unsafe-eval'" in worker.headers['Content-Security-Policy']
    assert "'wasm-unsafe-eval'" not in client.get(url).headers['Content-Security-Policy']   # the worker alone
    version = offline_pyodide_version(app)
    assert f"new URL('/offline/pyodide/{version}/', self.location.href)" in worker.get_data(as_text=True)
    assert client.get(f'/offline/pyodide/{version}/console.html').status_code == 404
    assert client.get(f'/offline/pyodide/{version}/..%2fpackage.json').status_code == 404
    assert client.get('/offline/pyodide/0.0.1/pyodide.mjs').status_code == 404                # not the one installed
    assert client.get('/offline/000000000000/python.zip').status_code == 404             # an old release
    # Ours under the release; the packages it imports under their own address, kept across releases.
    (packages,) = [u for u in data['bundle'] if u.startswith('/offline/packages/')]
    ours = zipfile.ZipFile(io.BytesIO(client.get(f'/offline/{release}/python.zip').data)).namelist()
    assert not [n for n in ours if n.startswith(('jinja2/', 'babel/'))]
    names = ours + zipfile.ZipFile(io.BytesIO(client.get(packages).data)).namelist()
    assert client.get('/offline/packages/000000000000/packages.zip').status_code == 404
    for needed in ('scorer/solver.py', 'scorer/sheet.py', 'web/phone.py', 'web/templating.py',
                   'templates/games/_live.html', 'templates/games/_preview.html', 'jinja2/__init__.py',
                   'markupsafe/__init__.py', 'confusable_homoglyphs/categories.json',
                   'translations/es/LC_MESSAGES/messages.mo', 'translations/pt/LC_MESSAGES/messages.mo'):
        assert needed in names, needed
    assert not [n for n in names if n.endswith('.so') or n.startswith(('web/store', 'web/db'))]
    assert f"const RELEASE = '{release}';" in client.get('/sw.js').get_data(as_text=True)
    app.config['OFFLINE_RELEASE'] = 'next-release'          # a new release: a new service worker
    assert "const RELEASE = 'next-release';" in client.get('/sw.js').get_data(as_text=True)
    assert client.get('/offline/next-release/python.zip').status_code == 200
    kept = [u for u in data['bundle'] if u.startswith(('/offline/pyodide/', '/offline/packages/'))]
    assert len(kept) == 6                                 # Pyodide's and the packages' addresses stay
    assert [u for u in client.get(url + '/offline.json').get_json()['bundle'] if u in kept] == kept


def offline_pyodide_version(app):
    from web import bundle as offline
    with app.app_context():
        return offline.pyodide_version()


def test_a_later_round_page_is_served_ahead_for_the_phone_to_keep(app, client):
    url = play(client, rounds=1)
    assert client.get(url + '/rounds/5').status_code == 302                 # enter round 2 first
    page = client.get(url + '/rounds/5?ahead=1')
    assert page.status_code == 200 and 'Save round 5' in page.get_data(as_text=True)
    r = client.post(url + '/rounds/5?ahead=1', data=round_form(0, points=[None, '3', '4']))
    assert r.status_code == 302 and '/rounds/2' in r.headers['Location']    # never a way to save out of turn
    assert app.test_client().get(url + '/rounds/5?ahead=1').status_code == 403


def test_a_page_kept_for_offline_play_leaves_the_messages_to_the_page_seen(client):
    url = play(client, rounds=0)
    client.post(url + '/rounds/1', data=round_form(0, points=[None, '3', '4']))
    assert 'Round 1 saved.' not in client.get(url + '/rounds/2?ahead=1', headers={'X-Keep': '1'}).get_data(as_text=True)
    assert 'Round 1 saved.' in client.get(url + '/rounds/1?saved=1').get_data(as_text=True)


# One scorer, one set of templates

@pytest.mark.parametrize('language', LANGUAGES)
def test_the_phone_draws_the_sheet_the_server_draws(client, language):
    for rounds in (0, 4, 11):
        url = play(client, rounds=rounds, seed=rounds)
        game_id = url.rsplit('/', 1)[1]
        data = client.get(url + '/offline.json').get_json()
        server = client.get(f'{url}/live?lang={language}').get_data(as_text=True)
        assert on_phone('live', language, game=data['game'], game_id=game_id, colours=data['colours'],
                        last_save=data['last_save'])['ok'] == server
        if rounds == 11:
            assert on_phone('sheet', game=data['game'])['ok'] == client.get(url + '/export.json').get_json()['sheet']
            exported = client.get(url + '/export.json')
            made = on_phone('export', game=data['game'], game_id=game_id)['ok']
            assert made['text'] == exported.get_data(as_text=True)
            assert made['name'] in exported.headers['Content-Disposition']


# A game made on a phone offline

ID = 'Ph0ne-made_id-16'                  # an id of the server's own kind: 16 characters of base64url


def test_a_game_made_offline_is_made_on_the_server_under_its_id_once(app, client):
    form = {**new_game_form(PLAYERS, first_dealer='2'), 'made_here': ID}
    r = client.post('/games/new', data=form, headers={'X-Keep': '1'})
    assert r.status_code == 302 and r.headers['Location'] == f'/games/{ID}'
    assert 'Game created' not in client.get(f'/games/{ID}').get_data(as_text=True)       # sent later: no news
    again = client.post('/games/new', data=form)                     # its first answer lost on the way
    assert again.status_code == 302 and again.headers['Location'] == f'/games/{ID}'
    assert client.get('/').get_data(as_text=True).count(f'/games/{ID}"') == 1            # one game
    assert client.get(f'/games/{ID}/export.json').get_json()['first_dealer'] == 2
    other = app.test_client()                                        # another browser, the same id: its own game
    taken = other.post('/games/new', data=form)
    assert taken.status_code == 302 and taken.headers['Location'] != f'/games/{ID}'
    for bad in ('../../games/x', 'short', ID + 'x', 'Ph0ne-made_id-1\u00e9'):
        r = client.post('/games/new', data={**new_game_form(PLAYERS), 'made_here': bad})
        assert r.status_code == 302 and r.headers['Location'] != f'/games/{bad}'       # an id of its own


def test_a_fresh_token_is_given_for_what_a_phone_sends_later(app, client):
    r = client.get('/offline/token')
    assert r.headers['Cache-Control'] == 'no-store' and len(r.get_json()['csrf']) > 20
    page = client.get('/offline/made-here')
    assert page.headers['X-Made-Here'] == '1' and 'data-made-here="1"' in page.get_data(as_text=True)


def test_the_start_page_kept_for_no_network_lists_only_what_the_phone_holds(client):
    """Its copy for no network has the start page's top, and a place for the games kept on the
    phone, not the server's lists of that moment (they would be stale) nor the import."""
    play(client)
    online = client.get('/').get_data(as_text=True)
    kept = client.get('/offline/start').get_data(as_text=True)
    assert 'In progress' in online and 'Zoë' in online and 'Import a game file' in online
    assert 'data-start="here"' in kept and 'Kept on this phone' in kept and 'No game is kept on this phone yet' in kept
    assert 'In progress' not in kept and 'Zoë' not in kept and 'Import a game file' not in kept
    assert 'href="/games/new"' in kept
    away = client.get('/offline/needs-network')
    assert away.status_code == 200 and 'This page needs a network' in away.get_data(as_text=True)


@pytest.mark.parametrize('language', LANGUAGES)
def test_the_phone_lists_a_kept_game_as_the_servers_list_does(client, language):
    """A game of the phone's list is the server's list item (games/_game_item.html): the same link,
    names, round and date in the page's language; the phone adds only where the game stands here."""
    url = client.post('/games/new', data=new_game_form(PLAYERS, title='Tren <b>')).headers['Location']
    assert client.post(f'{url}/rounds/1', data=round_form(0, points=[None, '5', '7'])).status_code == 302
    assert client.post(f'{url}/rounds/2', data=round_form(1, points=['4', None, '9'])).status_code == 302
    online = client.get(f'/?lang={language}').get_data(as_text=True)
    game = client.get(url + '/offline.json').get_json()['game']
    game_id = url.rsplit('/', 1)[1]
    mine = on_phone('game_list', language, games=[{'id': game_id, 'game': game, 'unsent': 0}])['ok']
    assert mine.startswith(f'<li><a href="{url}">') and mine in online
    waiting = on_phone('game_list', language, games=[{'id': game_id, 'game': game, 'unsent': 2}])['ok']
    said = {'en': 'Not sent yet (2)', 'es': 'Sin enviar (2)', 'pt': 'Pendentes (2)'}
    assert waiting.replace(f'<span class="note">{said[language]} ·</span> ', '') == mine, waiting


@pytest.mark.parametrize('language', LANGUAGES)
def test_the_phone_lists_a_kept_table_as_the_servers_start_page_does(app, client, language):
    """A table of the phone's list (its start page with no network) is the server's start page's item
    (games/_table_item.html): the same link, name and whether this phone keeps it; the phone reads
    them from the table's page it kept (its h1 says them)."""
    from tests.test_tables_web import make_table
    table = make_table(client, name='Club <de> los jueves')
    reader = app.test_client()
    reader.get(table)
    for who, keeper in ((client, True), (reader, False)):
        kept = who.get(table).get_data(as_text=True)
        heading = re.search(r'<h1 data-table="([^"]+)"( data-keeper="1")?>(.*?)</h1>', kept)
        assert heading.group(1) == table.rsplit('/', 1)[1] and bool(heading.group(2)) == keeper
        name = html.unescape(re.sub('<[^>]+>', '', heading.group(3)))             # its text, as the page reads it
        mine = on_phone('table_list', language, tables=[{'id': heading.group(1), 'name': name, 'keeper': keeper}])['ok']
        online = who.get(f'/?lang={language}').get_data(as_text=True)
        assert mine.startswith(f'<li><a href="{table}">') and mine in online, (mine, online)
        assert ('class="quiet"' in mine) == keeper


@pytest.mark.parametrize('language', LANGUAGES)
def test_the_phones_conflict_box_holds_the_servers_two_versions_and_the_two_choices(client, language):
    """A round sent from the phone that another phone saved meanwhile: the server answers 409 with its
    page of the conflict; the phone's box (games/_unsent_conflict.html, drawn by its scorer) holds that
    page's two versions as they are, in the page's language, and its two choices."""
    url = play(client, rounds=1)
    r = client.post(f'{url}/rounds/1?lang={language}', data=round_form(1, points=['3', None, '4'], version=0))
    assert r.status_code == 409
    versions = re.search(r'<div class="two versions">.*?</ul></div>\s*</div>', r.get_data(as_text=True), re.S).group(0)
    box = on_phone('conflict_box', language, number=1, version='1', versions=versions)['ok']
    again = on_phone('conflict_box', language, number=1, version='1', versions=versions, again=True)['ok']
    words = {'en': ('Round 1 was saved on another phone meanwhile', 'Send mine', 'saved again'),
             'es': ('Mientras tanto, otro teléfono guardó la ronda 1', 'Enviar la mía', 'La ronda 1 se guardó otra vez'),
             'pt': ('Enquanto isso, outro celular salvou a rodada 1', 'Enviar a minha', 'A rodada 1 foi salva de novo')}[language]
    assert versions in box and 'data-round="1" data-version="1"' in box and f'<h2>{words[0]}</h2>' in box
    assert re.findall(r'data-choice="(\w+)">([^<]*)<', box)[0] == ('mine', words[1])
    assert [c for c, _ in re.findall(r'data-choice="(\w+)">([^<]*)<', box)] == ['mine', 'theirs']
    assert words[2] not in box and words[2] in again


@pytest.mark.parametrize('language', LANGUAGES)
def test_the_phone_makes_a_new_game_as_the_server_does(client, language):
    client.set_cookie('lang', language)
    forms = [new_game_form(PLAYERS, first_dealer='1', title='Cabin', place='Lake'),
             new_game_form(['Ana', 'Bruno'], first_dealer='0', game='short', aces='high_or_low', jokers='2'),
             new_game_form([f'P{i}' for i in range(8)], first_dealer='7', decks='auto'),
             new_game_form(['Ana', ' ana '], first_dealer='0'),                      # two alike
             new_game_form(['Ana'], first_dealer='0'),                               # one player
             new_game_form(['Ana', 'Bruno'], first_dealer='5'),                      # no such seat
             new_game_form([f'P{i}' for i in range(8)], first_dealer='0', decks='1'),  # too few cards
             new_game_form(PLAYERS, first_dealer='0', title='x' * 201)]
    for form in forms:
        form['today'] = '2026-11-30'
        mine = on_phone('make_game', language, fields=list(form.items()))['ok']
        r = client.post('/games/new', data=form)
        if r.status_code == 302:
            assert 'message' not in mine, mine
            assert client.get(r.headers['Location'] + '/export.json').get_json() == json.loads(
                on_phone('export', game=mine['game'], game_id='x')['ok']['text'])
            assert mine['rounds'] == sorted({int(n) for n in client.get(r.headers['Location'] + '/offline.json')
                                            .get_json()['versions']})
        else:
            assert r.status_code == 422 and mine['message'] and mine['field'] in ('players', 'first_dealer', 'decks', 'title')
            if mine['field'] != 'title':                                               # WTForms words its own length check
                assert mine['message'] in r.get_data(as_text=True).replace('&#39;', "'"), mine


@pytest.mark.parametrize('language', LANGUAGES)
def test_the_phone_draws_a_game_made_here_with_the_servers_partials(client, language):
    """The round page's form and the sheet's top, drawn on the phone for a game made there, are the
    server's own for the same game."""
    url = play(client, rounds=2)
    game_id = url.rsplit('/', 1)[1]
    game = client.get(url + '/offline.json').get_json()['game']
    sheet_page = client.get(f'{url}?lang={language}').get_data(as_text=True)
    drawn = on_phone('made_page', language, game=game, game_id=game_id)['ok']
    assert drawn['above'].strip() in sheet_page
    assert on_phone('live', language, game=game, game_id=game_id)['ok'] in drawn['below']
    assert 'export.json' in drawn['below'] and '/print' in drawn['below'] and 'export.csv' not in drawn['below']
    assert drawn['next'] == 3 and f'{url}/rounds/3' in client.get(url).get_data(as_text=True)      # its round to enter, drawn ahead
    form = re.compile(r'<form method="post" class="stack round-form".*?</form>', re.S)
    for n in (4, 9):
        page = client.get(f'{url}/rounds/{n}?ahead=1&lang={language}').get_data(as_text=True)
        mine = on_phone('made_page', language, game=game, game_id=game_id, number=n)['ok']
        assert form.search(mine['above']).group(0) == form.search(page).group(0)
        assert re.search(r'<h1>.*?</h1>', mine['above']).group(0) == re.search(r'<h1>.*?</h1>', page).group(0)
        assert 'id="offline"' not in mine['above']                   # the page made here has its own


def test_the_phones_scorer_reads_the_look_alike_letters_only_to_check_names():
    """The phone's scorer starts on a page without reading the table of look-alike letters (900 KB of
    JSON): a page's preview and sheet need none; a new game's names are checked with it all the same."""
    import subprocess
    import sys
    script = ("import sys, web.phone; print('confusable_homoglyphs.confusables' in sys.modules); "
              "print(web.phone.make_game([['players-0', 'Ana'], ['players-1', '\u0410na']]).get('field'))")
    shown = subprocess.run([sys.executable, '-c', script], capture_output=True, text=True, check=True,
                           cwd=ROOT).stdout.split()
    assert shown == ['False', 'players']                     # not read at start; 'Аna' (Cyrillic А) refused


HANDS = ['7H 8H 9H KS', '7C 8C 9C', 'JK 5S 5D QH', '1X 2H', '', '2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH 2S 3S 4S']


@pytest.mark.parametrize('language', LANGUAGES)
def test_the_phone_previews_a_hand_as_the_server_does(client, language):
    url = play(client, rounds=2)
    game_id = url.rsplit('/', 1)[1]
    game = client.get(url + '/offline.json').get_json()['game']
    for cards in HANDS:
        for out in ('', '1'):
            args = {'cards': cards, 'round': '3', 'game': game_id, **({'out': out} if out else {})}
            server = client.get('/audit/preview', query_string={**args, 'lang': language})
            mine = on_phone('preview', language, game=game, args=args)['ok']
            assert mine['html'] == server.get_data(as_text=True) and mine['error'] == (server.status_code == 400)


def test_a_round_read_on_the_phone_is_the_round_the_server_keeps(client):
    """The same typed round, read by the phone offline and posted to the server: the same problems
    (in words), the same doubts to confirm, the same entries kept."""
    url = play(client, rounds=2)
    typed_rounds = [           # a card that is none, then a short hand (7C is 7♥ on a Spanish page)
        (0, [{'cards': '', 'points': ''}, {'cards': '1X 8C', 'points': ''}, {'cards': '', 'points': '12'}]),
        (0, [{'cards': '', 'points': ''}, {'cards': '7C 8C 9C', 'points': ''}, {'cards': '', 'points': '12'}]),
    ]
    seen = []
    for out, typed in typed_rounds:
        game = client.get(url + '/offline.json').get_json()['game']
        mine = on_phone('enter', 'es', game=game, number=3, out=[out], typed=typed)
        form = round_form(out, cards=[t['cards'] for t in typed], points=[t['points'] for t in typed], version=0)
        r = client.post(f'{url}/rounds/3?lang=es', data=form)
        page = r.get_data(as_text=True)
        seen.append('problem' if 'problem' in mine else 'unsure' if 'unsure' in mine['ok'] else 'saved')
        if 'problem' in mine:
            assert r.status_code == 422
            for message in sum(mine['problem']['errors'].values(), []):
                assert message.replace("'", '&#39;') in page, message
        elif 'unsure' in mine['ok']:
            assert r.status_code == 422 and f'name="confirm" value="{mine["ok"]["key"]}"' in page
            assert mine['ok']['unsure'] in page              # the round page's own box, drawn on the phone
            confirmed = on_phone('enter', 'es', game=game, number=3, out=[out], typed=typed, confirm=mine['ok']['key'])
            assert client.post(f'{url}/rounds/3?lang=es', data={**form, 'confirm': mine['ok']['key']}).status_code == 302
            assert confirmed['ok']['game'] == client.get(url + '/offline.json').get_json()['game']
            assert seen == ['problem', 'unsure']
            return
        else:
            assert r.status_code == 302
            assert mine['ok']['game'] == client.get(url + '/offline.json').get_json()['game']
            return
    pytest.fail('no round was saved')


def generated_queries(count, seed=28):
    """Hands of every setting, as /api/solve takes them: a narrow slice of the pack, so that melds
    are common, up to the round's hand size and the card drawn."""
    rng = random.Random(seed)
    queries = []
    for i in range(count):
        game = rng.choice(CHOICES['game'])
        settings = {'game': game, **{k: rng.choice(choices(k, game)) for k in CHOICES if k != 'game'}}
        if not DECKS[game].fixed:
            settings['jokers'] = min(settings['jokers'], 2 * settings['decks'])
        rules = make_rules(**settings)
        number = rng.choice(list(rules.rounds))
        wild = rules.wild_rank(number)
        low = rng.randint(min(rules.deck.ranks), 11)
        suits = rng.choice([rules.deck.suits, 'H', 'HS', 'HSD'])
        pack = [Card(r, s) for r in range(low, min(13, low + rng.randint(2, 6)) + 1) for s in suits
                for _ in range(rules.decks)]
        pack += [Card(wild, s) for s in rules.deck.suits if wild and Card(wild, s) not in pack] + [JOKER] * rules.jokers
        hand = rng.sample(pack, min(len(pack), rules.hand_size(number) + rng.randint(0, 1)))
        queries.append({'cards': ' '.join(map(str, hand)), 'round': str(number),
                        'rules': {k: '' if v is None else str(v) for k, v in settings.items()}})
    return queries


def server_answer(client, query):
    params = {'cards': query['cards'], 'round': query['round'],
              **{k: v for k, v in query['rules'].items() if v != ''}}
    r = client.get('/api/solve', query_string=params)
    assert r.status_code == 200, (params, r.get_json())
    return r.get_json()


# In Chromium: the bundle, the worker, the service worker, a whole game offline

def keeper_phone(browser, **options):
    """A phone at a scorekeeper's size that may run the page's own checks (bypass_csp for wait_for_function)."""
    from tests.browser import phone
    return phone(browser, bypass_csp=True, **options)


def kept(page, server_url, players=PLAYERS):
    """Start a game on the phone as a person does and wait until it is kept for offline play."""
    from tests.browser import start_game
    url = start_game(page, server_url, players)
    page.wait_for_function("() => (localStorage.getItem('kept:' + location.pathname.split('/')[2]) || '').includes(':')")
    return url


@pytest.mark.browser
def test_the_phone_solves_and_draws_as_the_server_does(app, browser):
    """Three hundred generated hands, every setting, solved in Pyodide on the phone and by the
    server: the same penalty, melds and deadwood; and a sheet drawn both ways."""
    from tests.server import Server
    client = app.test_client()
    queries = generated_queries(300)
    with Server(app) as server:
        context = keeper_phone(browser)
        page = context.new_page()
        url = kept(page, server.url)
        page.goto(url + '/rounds/1')                                      # the first question starts the scorer
        answers = page.evaluate("""async (queries) => {
            const { ask } = await """ + own_module('js/offline.js') + """;
            return ask('solve_many', { queries });
        }""", queries)
        assert 'ok' in answers, answers
        for query, mine in zip(queries, answers['ok']):
            assert mine == server_answer(client, query), query
        # A sheet, drawn on the phone and by the server.
        game_id = url.rsplit('/', 1)[1]
        data = page.evaluate("async (u) => (await fetch(u)).json()", url + '/offline.json')
        drawn = page.evaluate("""async ([game, id]) => {
            const { ask } = await """ + own_module('js/offline.js') + """;
            return ask('live', { game, game_id: id, colours: [0, 1, 2] });
        }""", [data['game'], game_id])
        served = page.evaluate("async (u) => (await fetch(u)).text()", url + '/live')
        assert drawn['ok'] == served
        context.close()


HAND = ['KS', '2D', '9C', '4H', 'JD', '6S', 'QC', '3H', '8D', '5C', '10S', '7H', 'AD']


def enter_round(page, url, n, out, points=None):
    """Enter round n on its page as a person does: who went out, one hand as cards (the round's
    size), the other as points; then Save."""
    from tests.browser import expect
    page.goto(f'{url}/rounds/{n}')
    others = [i for i in range(len(PLAYERS)) if i != out]
    page.locator(f'#went_out-{out}').check()
    page.locator(f'#entries-{others[0]}-cards').fill(' '.join(HAND[:n + 2]))
    page.locator(f'#entries-{others[1]}-points').fill(str(points if points is not None else n))
    expect(page.locator(f'.preview[data-seat="{others[0]}"] .penalty')).to_contain_text('Penalty')
    page.locator('.save-bar button').click()


@contextmanager
def keeping(app, browser, init_script=None):
    """The app served, and a scorekeeper's phone that started a game there and keeps it offline:
    (server, the phone's context, its page, the game's URL, its path). init_script: run on each of
    its pages first (NO_SHARED_WORKER: a browser without SharedWorker)."""
    from tests.server import Server
    with Server(app) as server:
        keeper = keeper_phone(browser)
        if init_script:
            keeper.add_init_script(init_script)
        page = keeper.new_page()
        url = kept(page, server.url)
        try:
            yield server, keeper, page, url, url.replace(server.url, '')
        finally:
            keeper.close()


def kept_releases(page):
    """The releases whose offline bundle the phone keeps (the service worker's cache 'bundle'; Pyodide,
    kept under its own version's address across releases, left out)."""
    return sorted(set(page.evaluate("""async () => {
        if (!(await caches.has('bundle'))) return [];
        return (await (await caches.open('bundle')).keys()).map((r) => new URL(r.url).pathname.split('/')[2]);
    }""")) - {'pyodide', 'packages'})


WARM = "() => document.getElementById('offline').dataset.warm === '1'"   # the page's scorer has answered


def save_offline(page, url, n, out, points=None, unsent=1):
    """Enter round n with no network: the phone keeps it and the sheet says how many wait."""
    from tests.browser import expect
    enter_round(page, url, n, out, points)
    page.wait_for_url(re.compile(r'\?unsent=1$'))
    expect(page.locator('.offline-line')).to_contain_text(f'Not sent yet ({unsent})')
    expect(page.locator('#live .banner')).to_contain_text(f'Round {n + 1}' if n < 11 else 'Game over')


@pytest.mark.browser
@pytest.mark.long(2)
def test_a_game_ended_offline_then_back_with_a_follower_watching(app, browser):
    """A game's last three rounds entered with no network (preview, save, sheet; the eight before
    saved with one), then the network comes back: they are sent in order, the server keeps the same
    scores, and a follower sees them arrive."""
    from scorer.reading import symbols
    from tests.browser import axe_violations, expect, phone, save_by_points, shot
    client = app.test_client()
    with keeping(app, browser) as (server, keeper, page, url, path):
        for n in range(1, 9):
            save_by_points(keeper, url, n, players=len(PLAYERS))
        revision = keeper.request.get(url + '/offline.json').json()['revision']
        page.goto(url)                                                  # the phone keeps the game as it is now
        page.wait_for_function("(r) => (localStorage.getItem('kept:' + location.pathname.split('/')[2]) || '').endsWith(':' + r)",
                               arg=str(revision))
        follower = phone(browser)
        watching = follower.new_page()
        watching.goto(url)
        keeper.set_offline(True)
        for n in range(9, 12):
            save_offline(page, url, n, out=(n - 1) % 3, unsent=n - 8)
            if n == 9:
                shot(page, 'offline-banner')
        expect(page.locator('#live .banner.done')).to_be_visible()      # game over, drawn here
        page.reload()                                                                  # still there after a reload
        expect(page.locator('#live .banner.done')).to_be_visible()
        expect(page.locator('.offline-line')).to_contain_text('Not sent yet (3)')
        assert kept_releases(watching) == []                                                  # never a follower's
        page.locator('#live a.score-link[href*="/scores/9/"]').first.click()            # a score: its round, to correct
        page.wait_for_url(re.compile(r'/rounds/9$'))
        expect(page.locator('#entries-0-cards')).to_have_value(symbols(' '.join(HAND[:11])))   # as saved on this phone
        page.goto(url + '/print')                                                      # not kept: back to the sheet
        page.wait_for_url(url)
        expect(page.locator('#live .banner.done')).to_be_visible()
        shot(page, 'offline-unsent')
        assert axe_violations(page) == []
        offline_totals = page.locator('#live tfoot tr.total').inner_text()
        with page.expect_download() as download:                                      # the game file, made here
            page.get_by_role('link', name='Export game file').click()
        made_here = json.loads(open(download.value.path(), encoding='utf-8').read())
        assert len(client.get(path + '/export.json').get_json()['rounds']) == 8   # nothing sent yet
        keeper.set_offline(False)
        expect(page.locator('.offline-line')).not_to_contain_text('Not sent yet')
        assert [r['round'] for r in client.get(path + '/export.json').get_json()['rounds']] == list(range(1, 12))
        assert client.get(path + '/export.json').get_json() == made_here                # the server keeps the same
        assert client.get(path + '/live').get_data(as_text=True).count('banner done') == 1
        expect(watching.locator('#live .banner.done')).to_be_visible()      # live, on the follower
        assert watching.locator('#live tfoot tr.total').inner_text() == offline_totals    # the same scores
        shot(watching, 'offline-follower-caught-up')
        follower.close()


@pytest.mark.browser
def test_an_odd_round_saved_offline_asks_in_the_round_pages_own_box(app, browser):
    """With no network, a round where two went out is not kept at once: the phone shows the server's
    own box (games/_doubts.html, drawn by the phone's scorer) above the form; once its box is ticked,
    Save keeps the round on the phone. The phone's Python starts only once the network goes: with
    one, the server previews. On a browser without SharedWorker: each page starts a Python of its
    own (a dedicated worker), which imports what an earlier page's compiled."""
    from tests.browser import NO_SHARED_WORKER, axe_violations, expect, shot
    with keeping(app, browser, NO_SHARED_WORKER) as (server, keeper, page, url, path):
        workers = []
        page.on('worker', lambda worker: workers.append(worker.url))
        page.goto(f'{url}/rounds/1')
        page.locator('#entries-1-cards').fill('KS 2D 9C')
        expect(page.locator('.preview[data-seat="1"] .penalty')).to_contain_text('Penalty 21')   # the server's
        assert workers == []
        page.locator('#entries-1-cards').fill('')
        keeper.set_offline(True)
        page.wait_for_function(WARM)
        assert [w for w in workers if w.endswith('/worker.js')]
        page.locator('#went_out-0').check()
        page.locator('#went_out-1').check()
        page.locator('#entries-2-points').fill('7')
        page.locator('.save-bar button').click()
        box = page.locator('section.doubts')
        expect(box).to_contain_text('Ana and Bruno both went out')
        expect(box.locator('h2')).to_have_text('Round 1 is not saved yet: check this first')
        assert page.locator('section.doubts').count() == 1 and page.locator('#offline-problems').count() == 0
        shot(page, 'offline-doubts')
        assert axe_violations(page) == []
        box.get_by_label('Yes, this is right: save round 1 like this').check()
        page.locator('.save-bar button').click()
        page.wait_for_url(re.compile(r'\?unsent=1$'))
        expect(page.locator('.offline-line')).to_contain_text('Not sent yet (1)')
        page.goto(f'{url}/rounds/2')                    # the next page's own Python
        page.wait_for_function(WARM)
        assert len([w for w in workers if w.endswith('/worker.js')]) == 2
        steps = dict(page.evaluate("async () => (await (await " + own_module('js/offline.js') + ").ask('timings', {})).ok"))
        assert 'compiled kept' in steps                 # it imports what the round 1 page's compiled


@pytest.mark.browser
def test_a_service_worker_update_during_a_game(app, browser):
    """A new release while a game is on: the phone fetches the new bundle, drops the old one, and
    keeps playing offline on the new one alone; the round it held meanwhile is sent."""
    from tests.browser import expect, until
    client = app.test_client()
    with keeping(app, browser) as (server, keeper, page, url, path):
        old = page.evaluate('localStorage.getItem("offline-release")')
        assert kept_releases(page) == [old]
        keeper.set_offline(True)
        save_offline(page, url, 1, out=0)
        app.config['OFFLINE_RELEASE'] = 'release-two'                  # the server is updated meanwhile
        keeper.set_offline(False)
        expect(page.locator('.offline-line')).not_to_contain_text('Not sent yet')
        assert len(client.get(path + '/export.json').get_json()['rounds']) == 1
        page.goto(url)                                                  # the next page: the new service worker
        page.wait_for_function("() => (localStorage.getItem('kept:' + location.pathname.split('/')[2]) || '').startsWith('release-two:')")
        until(page, lambda: kept_releases(page) == ['release-two'], "the old release's own files gone")
        started = scorers_started(page)
        keeper.set_offline(True)
        save_offline(page, url, 2, out=1)
        assert started and all('/offline/release-two/' in u for u in started)    # the new release's Python, not the old one's
        keeper.set_offline(False)
        expect(page.locator('.offline-line')).not_to_contain_text('Not sent yet')
        assert len(client.get(path + '/export.json').get_json()['rounds']) == 2


@pytest.mark.browser
def test_back_online_what_waits_is_sent_at_once_and_said_sent(app, browser):
    """The network comes back, and the first send finds none yet (the phone says online a moment
    before it is): the phone tries again at once, not at its next round of tries (set out of this
    test's reach), and the line says the server has every round."""
    from tests.browser import expect
    app.config['OFFLINE_SEND_AGAIN_MS'] = 3_600_000
    client = app.test_client()
    with keeping(app, browser) as (server, keeper, page, url, path):
        keeper.set_offline(True)
        save_offline(page, url, 1, out=0)
        failed = []

        def first_fails(route):
            if failed:
                route.fallback()
            else:
                failed.append(route.request.url)
                route.abort('internetdisconnected')
        keeper.route('**/offline/token', first_fails)
        keeper.set_offline(False)
        expect(page.locator('.offline-line')).to_have_text('All sent to the server.')
        assert failed and len(client.get(path + '/export.json').get_json()['rounds']) == 1
        # Another send with nothing left to send (the live stream back, the network event again; in
        # CI one came just after) leaves the line as it is: everything is still on the server.
        page.evaluate('''() => {
            window.lines = [];
            new MutationObserver(() => window.lines.push(document.querySelector('.offline-line').textContent))
                .observe(document.querySelector('.offline-line'), { childList: true, characterData: true, subtree: true });
            window.dispatchEvent(new Event('online'));
        }''')
        page.wait_for_function('() => window.lines.length >= 2')   # the event's own line, then the send's
        assert set(page.evaluate('window.lines')) == {'All sent to the server.'}


@pytest.mark.browser
def test_a_seated_players_hand_sent_without_a_network_is_said_unsent_and_kept(app, browser):
    from tests.browser import expect, phone, shot, tap_cards
    with keeping(app, browser) as (server, keeper, _page, url, path):
        seated = phone(browser)
        page = seated.new_page()
        page.goto(url)
        page.get_by_role('button', name="I'm Bruno").click()
        expect(page.locator('.hand-form')).to_be_visible()
        page.wait_for_function('() => navigator.serviceWorker.controller !== null')
        page.reload()                                                   # the page, kept by the service worker
        seated.set_offline(True)
        tap_cards(page, 0, ['KH', '5C', '7D'])
        page.get_by_role('button', name='Send my hand').click()
        page.wait_for_url(re.compile(r'/hand\?unsent=1$'))
        expect(page.locator('#hand-unsent')).to_be_visible()
        expect(page.locator('#cards')).to_have_value('K♥ 5♣ 7♦')
        shot(page, 'offline-hand-unsent')
        seated.set_offline(False)
        page.get_by_role('button', name='Send my hand').click()
        expect(page.locator('.result .big')).to_be_visible()
        drafts = keeper.request.get(url + '/rounds/1/drafts').json()
        assert 'K♥' in json.dumps(drafts, ensure_ascii=False) or 'KH' in json.dumps(drafts)   # the keeper has it now
        seated.close()


@pytest.mark.browser
def test_a_game_kept_offline_survives_a_restarted_browser(app, browser, tmp_path):
    """The browser quits with a round not sent; started again with no network, the game is there
    (the sheet drawn on the phone, the round waiting), and it is sent once the network is back."""
    from tests.browser import expect, phone_with_a_profile
    from tests.server import Server
    client = app.test_client()
    with Server(app) as server:
        phone = phone_with_a_profile(browser.browser_type, tmp_path / 'profile', bypass_csp=True)
        page = phone.new_page()
        url = kept(page, server.url)
        path = url.replace(server.url, '')
        phone.set_offline(True)
        save_offline(page, url, 1, out=0)
        phone.close()                                                   # the browser quits
        phone = phone_with_a_profile(browser.browser_type, tmp_path / 'profile', bypass_csp=True, offline=True)
        page = phone.new_page()
        page.goto(server.url + '/')                                     # where an installed app opens
        page.locator(f'#offline .kept-here a[href="{path}"]').click()
        page.wait_for_url(url)
        expect(page.locator('.offline-line')).to_contain_text('Not sent yet (1)')
        expect(page.locator('#live tbody tr').first).to_contain_text('0✓')             # round 1: Ana went out
        assert client.get(path + '/export.json').get_json()['rounds'] == []
        phone.set_offline(False)
        expect(page.locator('.offline-line')).not_to_contain_text('Not sent yet')
        assert len(client.get(path + '/export.json').get_json()['rounds']) == 1
        phone.close()


@pytest.mark.browser
@pytest.mark.parametrize('language', LANGUAGES)
def test_each_status_fits_its_one_line_at_360_px(app, browser, language):
    """The offline status never wraps (nothing moves) and is never cut, in each language, with two-digit counts."""
    from tests.browser import phone_in
    from tests.server import Server
    with Server(app) as server:
        context = phone_in(browser, server, language, bypass_csp=True)
        page = context.new_page()
        kept(page, server.url)
        for key in ('ready', 'sent', 'offline', 'unsent', 'unsentOffline'):
            fits = page.evaluate("""(key) => {
                const box = document.getElementById('offline');
                const line = box.querySelector('.offline-line');
                box.classList.toggle('warning', key !== 'ready');
                line.textContent = box.dataset[key].replace('{n}', '11');
                return [line.scrollWidth <= line.clientWidth, line.textContent];
            }""", key)
            assert fits[0], fits[1]
        for address, keys in (('/offline/made-here', ('made', 'missing', 'refused')),   # a game made here
                              ('/offline/start', ('offlineStart',))):                    # the start page, offline
            page.goto(server.url + address)
            for key in keys:
                fits = page.evaluate("""(key) => {
                    const line = document.querySelector('#offline .offline-line');
                    line.textContent = document.getElementById('offline').dataset[key];
                    return [line.scrollWidth <= line.clientWidth, line.textContent];
                }""", key)
                assert fits[0], fits[1]
        context.close()


@pytest.mark.browser
@pytest.mark.long(3)
def test_a_new_game_started_offline_is_made_on_the_server_when_the_network_returns(app, browser):
    """With no network, a new game is made on the phone by the same checks as the server's, played
    (preview, save, the sheet, a reload), and once the network returns it is made on the server
    under the id it had here, its rounds follow, and the page becomes the server's."""
    from tests.browser import axe_violations, expect, shot
    client = app.test_client()
    with keeping(app, browser) as (server, keeper, page, url, path):
        keeper.set_offline(True)
        page.get_by_role('link', name='New game').click()                                  # from the kept sheet
        page.wait_for_url(server.url + '/games/new')
        expect(page.locator('.offline-line')).to_contain_text('Offline')
        for seat, name in enumerate(['Ana', 'ana']):
            page.locator(f'#players-{seat}').fill(name)
        page.locator('form button.primary').click()
        expect(page.locator('#offline-problems')).to_contain_text("'ana'")    # the server's own check
        assert page.url.endswith('/games/new')
        for seat, name in enumerate(PLAYERS):
            page.locator(f'#players-{seat}').fill(name)
        page.locator('#first_dealer').select_option('1')
        page.locator('#title').fill('Cabin <game>')
        started = scorers_started(page)          # the new-game page's Python is the phone's: no page after it starts one
        page.locator('form button.primary').click()
        page.wait_for_url(re.compile(r'/games/[A-Za-z0-9_-]{16}$'))
        made = page.url
        made_path = made.replace(server.url, '')
        expect(page.locator('h1')).to_have_text('Cabin <game>')
        expect(page.locator('.offline-line')).to_contain_text('Made here, not sent yet')
        expect(page.locator('#live .banner')).to_contain_text('Round 1')
        expect(page.locator('#live .banner')).to_contain_text('Bruno')                     # seat 2 deals round 1
        shot(page, 'offline-new-game')
        assert unquote(page.get_by_role('link', name='Español').get_attribute('href')) == f'/language/es?next={made_path}'
        assert axe_violations(page) == []
        assert client.get(made_path + '/export.json').status_code == 404                   # not on the server yet
        save_offline(page, made, 1, out=0, unsent=1)
        save_offline(page, made, 2, out=1, unsent=2)
        page.reload()
        expect(page.locator('.offline-line')).to_contain_text('Not sent yet (2)')
        page.goto(made + '/rounds/1')                                                      # a round made here, to correct
        expect(page.locator('#entries-1-cards')).to_have_value('K♠ 2♦ 9♣')
        assert axe_violations(page) == []
        page.wait_for_function(WARM)
        other = keeper.new_page()                # a second tab of the phone, left with a question out
        other.goto(made + '/rounds/3')
        other.wait_for_function(WARM)
        offline_js = own_module('js/offline.js')
        other.evaluate("async (queries) => { (await " + offline_js + ").ask('solve_many', { queries }); }",   # not awaited
                       [{'cards': ' '.join(HAND), 'round': '11'}] * 20)
        other.close()
        ask = "async ([name, args]) => (await " + offline_js + ").ask(name, args)"
        assert 'no_such_question' in page.evaluate(ask, ['no_such_question', {}])['error']     # said to the page, as before
        answer = page.evaluate(ask, ['solve_many', {'queries': [{'cards': 'K♠ 2♦ 9♣', 'round': '1'}]}])
        assert answer['ok'][0]['penalty'] == 21
        assert started == []                     # every page's preview and save, the sheets, both tabs: one Python
        with page.expect_download() as download:                                          # its game file, made here
            page.goto(made)
            page.get_by_role('link', name='Export game file').click()
        made_here = json.loads(open(download.value.path(), encoding='utf-8').read())
        keeper.set_offline(False)
        expect(page.locator('#offline[data-made-here]')).to_have_count(0)  # the server's page now
        expect(page.locator('.offline-line')).not_to_contain_text('Not sent yet')
        sent = client.get(made_path + '/export.json').get_json()
        assert sent == made_here                                                           # the same game, the same id
        assert sent['title'] == 'Cabin <game>' and sent['players'] == PLAYERS and sent['first_dealer'] == 1
        assert [r['round'] for r in sent['rounds']] == [1, 2]
        page.goto(made + '/rounds/3')                                                      # this phone keeps its score
        expect(page.locator('form.round-form')).to_be_visible()


def make_offline(page, server, title=''):
    """From a kept sheet (or a kept table's page) with no network, a new game as a person makes one
    (its New game, the players, Start); returns the URL of its sheet, drawn on the phone."""
    page.get_by_role('link', name='New game').click()
    page.wait_for_url(re.compile(re.escape(server.url) + r'/games/new(\?table=[\w-]+)?$'))
    for seat, name in enumerate(PLAYERS):
        page.locator(f'#players-{seat}').fill(name)
    page.locator('#title').fill(title)
    page.locator('form button.primary').click()
    page.wait_for_url(re.compile(r'/games/[A-Za-z0-9_-]{16}$'))
    return page.url


@pytest.mark.browser
@pytest.mark.long
def test_the_start_page_opens_without_a_network_on_the_games_kept_here(app, browser):
    """An installed app opens on the start page: with no network it lists the games kept on this
    phone, each where it stands, and the tables whose page it kept, and opens them; a game not kept
    says so. A game started from a kept table's page joins that table once sent (this phone keeps
    it). With the network back but the server not answering yet, the server's start page lists what
    this phone has not sent; once the server answers, it is sent from there and the page is the
    server's alone."""
    from tests.browser import axe_violations, expect, shot
    client = app.test_client()
    app.config['OFFLINE_SEND_AGAIN_MS'] = 500          # the phone tries again twice a second, not every 15 s
    with keeping(app, browser) as (server, keeper, page, url, path):
        page.evaluate("""async () => {            // a phone that kept its game before the start page was kept
            localStorage.removeItem('kept-shared-pages');
            await (await caches.open('pages')).delete('/offline/start');
        }""")
        page.goto(server.url + '/tables/new')                               # this phone makes a table, and reads it
        page.locator('#name').fill('Club <b>')
        page.get_by_role('button', name='Make the table').click()
        page.wait_for_url(re.compile(r'/tables/[\w-]{16}$'))
        table, table_path = page.url, page.url.replace(server.url, '')
        page.goto(table)
        page.goto(server.url + '/')                                         # opened online: kept from there
        page.wait_for_function("() => localStorage.getItem('kept-shared-pages') !== null")
        page.goto(url)
        keeper.set_offline(True)
        save_offline(page, url, 1, out=0)
        page.goto(table)                                                    # its kept page: New game from there
        made = make_offline(page, server, title='Train <b>').replace(server.url, '')
        save_offline(page, page.url, 1, out=2)
        page.goto(server.url + '/')
        expect(page.locator('#offline[data-start="here"] .offline-line')).to_have_text('Offline: the games go on here.')
        tables = page.locator('#offline .kept-tables li')
        expect(tables).to_have_count(1)
        expect(tables.locator(f'a[href="{table_path}"]')).to_have_text('Club <b> kept on this phone')
        listed = page.locator('#offline .kept-here li')
        expect(listed).to_have_count(2)
        expect(listed.filter(has_text='Train <b>')).to_contain_text('Ana, Bruno, Zoë · Not sent yet (1) · round 2 of 11')
        expect(listed.filter(has=page.locator(f'a[href="{path}"]'))).to_contain_text('Ana, Bruno, Zoë Not sent yet (1) · round 2 of 11')
        assert page.locator('main > section:not(#offline)').count() == 0   # no stale copy of the server's lists
        assert unquote(page.get_by_role('link', name='Español').get_attribute('href')) == '/language/es?next=/'
        shot(page, 'offline-start-kept')
        assert axe_violations(page) == []
        page.get_by_role('link', name='History').click()                   # a page only the server makes
        expect(page.locator('h1')).to_have_text('No network')
        assert axe_violations(page) == []
        page.locator('main a.button', has_text='All games').click()       # and back
        expect(listed).to_have_count(2)
        page.locator(f'a[href="{path}"]').click()                           # a game kept here opens
        expect(page.locator('.offline-line')).to_contain_text('Not sent yet (1)')
        page.goto(server.url + '/games/AAAAAAAAAAAAAAAA')                 # one that is not
        expect(page.locator('.offline-line')).to_have_text('Not kept on this phone.')
        page.goto(server.url + '/')
        expect(listed).to_have_count(2)
        keeper.route('**/offline/token', lambda route: route.abort())      # the server not answering yet (nor to the worker)
        keeper.set_offline(False)
        page.goto(server.url + '/')                                          # the server's page, and what waits here
        kept_here = page.locator('#offline .kept-here')
        expect(kept_here).to_contain_text('Train <b> Ana, Bruno, Zoë · Not sent yet (1) · round 2 of 11')
        expect(kept_here).to_contain_text('Ana, Bruno, Zoë Not sent yet (1) · round 2 of 11')   # played now, as the sheet says
        assert kept_here.locator('li').count() == 2
        assert kept_here.locator(f'a[href="{made}"]').count() == 1
        shot(page, 'offline-start-page')
        assert axe_violations(page) == []
        keeper.unroute('**/offline/token')                                 # it answers: all sent, its page
        expect(page.locator(f'main > section:not(#offline) a[href="{made}"]')).to_be_visible()
        expect(page.locator(f'main > section:not(#offline) a[href="{path}"]')).to_be_visible()
        expect(kept_here).to_be_hidden()
        assert [r['round'] for r in client.get(path + '/export.json').get_json()['rounds']] == [1]
        assert [r['round'] for r in client.get(made + '/export.json').get_json()['rounds']] == [1]
        assert client.get(made + '/export.json').get_json()['title'] == 'Train <b>'
        assert client.get(table_path).get_data(as_text=True).count(f'{made}"') == 1        # in its table


@pytest.mark.browser
@pytest.mark.long
def test_a_game_made_offline_whose_id_was_taken_goes_on_under_a_new_one(app, browser):
    """Another browser sent a game under the same id first (only a hostile one could): the phone's
    game is not merged into it, and an id is never used twice (issue 36). The server makes the
    phone's game under a new id, its rounds follow, and the phone says where it went."""
    from tests.browser import expect
    other = app.test_client()
    with keeping(app, browser) as (server, keeper, page, url, path):
        keeper.set_offline(True)
        made_id = make_offline(page, server).rsplit('/', 1)[1]
        save_offline(page, page.url, 1, out=0)
        taken = other.post('/games/new', data={**new_game_form(['Eve', 'Mallory']), 'made_here': made_id})
        assert taken.headers['Location'] == f'/games/{made_id}'
        keeper.set_offline(False)
        page.wait_for_url(lambda address: '/games/' in address and made_id not in address)
        expect(page.locator('.moved-note')).to_contain_text(f'/games/{made_id}')
        new_id = page.url.rstrip('/').rsplit('/', 1)[1].split('?')[0]
        assert other.get(f'/games/{made_id}/export.json').get_json()['players'] == ['Eve', 'Mallory']   # untouched
        assert other.get(f'/games/{made_id}/export.json').get_json()['rounds'] == []
        mine = page.request.get(f'{server.url}/games/{new_id}/export.json').json()
        assert mine['players'] == PLAYERS
        expect(page.locator('.offline-line')).not_to_contain_text('Not sent yet')
        mine = page.request.get(f'{server.url}/games/{new_id}/export.json').json()
        assert [r['round'] for r in mine['rounds']] == [1]
