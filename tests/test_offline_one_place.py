"""The phone offline decides nothing of its own: the game-id format and the draw of the first
dealer are the server's Python, handed to the browser as data or run on the phone itself
(issue 38); and the offline script is ES modules by job, which the service worker keeps."""

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.helpers import PATIENCE
from web import store

ROOT = Path(__file__).resolve().parent.parent
STATIC = ROOT / 'static'
NODE = shutil.which('node')


def node(script):
    """Run an ES module's text in Node (the project's npm tools need it anyway); its JSON output."""
    done = subprocess.run([NODE, '--input-type=module', '-e', script], capture_output=True, text=True, timeout=PATIENCE,
                          check=True)
    return json.loads(done.stdout)


def test_the_game_id_format_is_one_pattern_the_store_makes_and_checks():
    made = {store.new_id() for _ in range(500)}
    assert len(made) == 500 and all(store.is_game_id(i) for i in made)
    assert set(''.join(made)) == set(store.GAME_ID['alphabet'])          # every character, and no other
    for bad in ('', 'a' * 15, 'a' * 17, 'a' * 15 + '=', 'a' * 15 + '/', 'a' * 15 + 'é', 'a' * 15 + '\n', 'a' * 16 + '\n',
                None, 7, '../../games/new0'):
        assert not store.is_game_id(bad), bad


def test_the_new_game_page_and_the_service_worker_get_the_servers_format(client):
    page = client.get('/games/new').get_data(as_text=True)
    given = re.search(r'data-game-id="([^"]*)"', page).group(1)
    assert json.loads(given.replace('&#34;', '"').replace('&quot;', '"')) == store.GAME_ID
    worker = client.get('/sw.js').get_data(as_text=True)
    assert f"const GAME_ID = '{store.GAME_ID['pattern']}';" in worker
    assert '__GAME_ID__' not in worker


@pytest.mark.skipif(NODE is None, reason='node is installed with the npm tools (make node_modules/.ci)')
def test_ids_made_by_the_phone_are_the_servers_and_the_workers_pattern_agrees(client):
    """The phone's maker (static/js/offline/ids.js) given the server's format: every id it makes
    is one the server takes; and the service worker's test of a game's address, as served, says
    yes and no where the server does."""
    worker = client.get('/sw.js').get_data(as_text=True)
    pattern = re.search(r"const GAME_ID = '([^']*)';", worker).group(1)
    samples = [store.new_id() for _ in range(50)] + ['a' * 15, 'a' * 17, 'a' * 15 + '.', 'a' * 15 + '~', 'a' * 15 + 'ñ',
                                                     'AAAAAAAAAAAAAAA=', 'abc/defghijklmno', '-_' * 8]
    answer = node(f"""
        import {{ newId }} from {json.dumps((STATIC / 'js' / 'offline' / 'ids.js').as_uri())};
        const format = {json.dumps(store.GAME_ID)};
        const made = Array.from({{ length: 500 }}, () => newId(format));
        const address = new RegExp(`^/games/${{{json.dumps(pattern)}}}(/rounds/\\\\d+)?$`);
        const samples = {json.dumps(samples)};
        console.log(JSON.stringify({{ made, sheets: samples.map((s) => address.test(`/games/${{s}}`)),
                                     rounds: samples.map((s) => address.test(`/games/${{s}}/rounds/3`)) }}));
    """)
    assert len(set(answer['made'])) == 500 and all(store.is_game_id(i) for i in answer['made'])
    assert set(''.join(answer['made'])) == set(store.GAME_ID['alphabet'])
    assert answer['sheets'] == answer['rounds'] == [store.is_game_id(s) for s in samples]


def test_the_phones_new_game_draws_the_first_dealer_with_the_scorers_own_draw(monkeypatch):
    """web/phone.make_game (what the phone's new-game page asks) draws as the server does: through
    scorer.gamefile.new_game's draw, every seat in turn, never the same seat by a rule of its own."""
    import scorer.gamefile
    from web.phone import make_game
    fields = [[f'players-{i}', name] for i, name in enumerate(['Ana', 'Bruno', 'Chen', 'Dee'])] + [['first_dealer', 'draw']]
    for seat in range(4):
        monkeypatch.setattr(scorer.gamefile.secrets, 'randbelow', lambda n, seat=seat: seat if n == 4 else 1 / 0)
        assert make_game(fields)['game']['first_dealer'] == seat
    monkeypatch.undo()
    assert {make_game(fields)['game']['first_dealer'] for _ in range(200)} == {0, 1, 2, 3}


EIGHT = ['Ana', 'Bruno', 'Chen', 'Dee', 'Eve', 'Fay', 'Gus', 'Hal']


@pytest.mark.browser
def test_a_new_game_made_offline_has_the_first_dealer_the_phones_python_drew(app, browser):
    """The page's own randomness cannot pick the first dealer: with it stuck at 0, games made offline
    with 'draw' still get every kind of first dealer (the phone's Python draws, with its own
    randomness), and the form the phone sends later names the same dealer its game has."""
    from tests.browser import expect
    from tests.test_offline import keeping
    with keeping(app, browser) as (server, keeper, page, url, path):
        keeper.add_init_script("""(() => {
            const real = crypto.getRandomValues.bind(crypto);
            crypto.getRandomValues = (a) => (a instanceof Uint32Array ? a.fill(0) : real(a));
        })();""")
        keeper.set_offline(True)
        dealers = []
        for _ in range(5):
            page.goto(server.url + '/games/new')
            expect(page.locator('.offline-line')).to_contain_text('Offline')
            for seat, name in enumerate(EIGHT):
                page.locator(f'#players-{seat}').fill(name)
            assert page.locator('#first_dealer').input_value() == 'draw'
            page.locator('form button.primary').click()
            page.wait_for_url(re.compile(r'/games/[A-Za-z0-9_-]{16}$'))
            game_id = page.url.rsplit('/', 1)[1]
            kept = page.evaluate("""async (id) => {
                const { get } = await import(`/offline/${localStorage.getItem('offline-release')}/idb-keyval.js`);
                return get(`game:${id}`);
            }""", game_id)
            sent = dict(kept['made'])
            assert sent['first_dealer'] == str(kept['game']['first_dealer'])      # the server will get the same
            dealers.append(kept['game']['first_dealer'])
            if set(dealers) - {0}:
                break
        assert set(dealers) - {0}, dealers


@pytest.mark.browser
def test_start_with_the_dealer_drawn_waits_for_no_python_online_and_says_it_is_working_offline(browser, server):
    """Issue 48 (9): a phone that keeps games, its Python slow to start (here it never does: the
    bundle's requests are held). Online, "Start the game" with the dealer drawn at random goes to
    the sheet without it: the server draws (scorer.gamefile.new_game, as the phone's Python would).
    Offline, the page says it is working on it, and Start takes no second tap."""
    from tests.browser import expect, phone, until
    context = phone(browser)
    context.add_init_script("localStorage.setItem('offline-release', 'kept-release')")     # this phone keeps games
    held = []                                         # its bundle's requests, never answered
    bundle = '**/offline/kept-release/**'

    def hold(route):
        held.append(route)
    context.route(bundle, hold)

    def python():                                     # the phone's Python asked to start
        return [r for r in held if r.request.url.endswith('/worker.js')]
    page = context.new_page()
    for offline in (False, True):
        page.goto(server.url + '/games/new')
        for seat, name in enumerate(['Ana', 'Bruno', 'Chen']):
            page.locator(f'#players-{seat}').fill(name)
        assert page.locator('#first_dealer').input_value() == 'draw'
        context.set_offline(offline)
        if offline:                                   # held still, before the network's own cut (newest route first)
            context.unroute(bundle)
            context.route(bundle, hold)
        page.locator('form button.primary').click()
        if not offline:
            page.wait_for_url(re.compile(r'/games/[A-Za-z0-9_-]{16}$'))
            expect(page.locator('p.flash')).to_contain_text('deals round 1')
            assert not python()                           # online, the phone's Python was not asked
    expect(page.locator('.offline-line')).to_have_text('Starting the game on this phone…')
    expect(page.locator('form button.primary')).to_be_disabled()
    until(page, python, "the phone's Python asked to start")   # offline, it is
    context.close()


def test_the_service_worker_keeps_every_module_of_offline_play(client, make_game):
    """The static files a kept page uses come from the folder (web/bundle.statics), so each
    module of static/js/offline/ is kept for the phone without a network, with no list by hand."""
    url = make_game(('Ana', 'Bruno'))
    kept = set(client.get(url + '/offline.json').get_json()['static'])
    modules = sorted((STATIC / 'js' / 'offline').glob('*.js'))
    assert len(modules) >= 4
    for module in modules:
        assert any(re.fullmatch(f'/static/[0-9a-f]{{12}}/js/offline/{module.name}', url) for url in kept), module.name


def test_offline_play_is_modules_that_import_each_other_and_set_no_global():
    """offline.js only starts the modules of static/js/offline/; every import between them (and
    picker.js's and its keypad/ modules') names a file that is there; and none of them, nor picker.js
    and the keypad's, leaves anything on window (which eslint holds too: make lint)."""
    keypad = sorted((STATIC / 'js' / 'keypad').glob('*.js'))
    assert len(keypad) >= 4
    scripts = [STATIC / 'js' / 'offline.js', STATIC / 'js' / 'picker.js', *keypad, *(STATIC / 'js' / 'offline').glob('*.js')]
    for script in scripts:
        text = script.read_text()
        for name in re.findall(r"(?:from|import\()\s*'(\.[^']+)'", text):
            assert (script.parent / name).resolve().is_file(), (script.name, name)
        assert not re.search(r'\b(window|globalThis|self)\.\w+\s*=(?!=)', text), script.name
        assert 'threeThirteenOffline' not in text
    entry = (STATIC / 'js' / 'offline.js').read_text()
    assert len(entry.splitlines()) < 100 and 'function ' not in entry.replace('async function main', '')


def test_the_bundle_carries_the_servers_routes_and_the_phone_links_as_flask_does(app):
    """The phone keeps no table of routes of its own: the bundle carries app.url_map's (web/routes.json,
    written when the bundle is made), and the phone's url_for, built from the bundle, makes the link
    Flask's url_for makes, for every route, with a query or without."""
    import io
    import zipfile
    from flask import url_for
    from web import bundle as offline
    from web.phone import ROUTES_FILE, Phone
    with app.test_request_context():
        routes = json.loads(zipfile.ZipFile(io.BytesIO(offline.bundle()[0])).read(ROUTES_FILE))
        assert routes == offline.routes(app) and set(routes) == {r.endpoint for r in app.url_map.iter_rules()} - {'static'}
        phone = Phone(routes=routes)
        values = {'game_id': 'abcdefghijklmnop', 'number': 3, 'seat': 1, 'name': 'x.css', 'version': '0.1',
                  'release': 'r', 'digest': 'd', 'token': 't', 'kind': 'k', 'filename': 'f'}
        for rule in app.url_map.iter_rules():
            if rule.endpoint == 'static':
                continue
            given = {k: values.get(k, 'abc') for k in rule.arguments}
            for extra in ({}, {'lang': 'pt', 'next': '/games/a b'}):
                assert phone.url_for(rule.endpoint, **given, **extra) == url_for(rule.endpoint, **given, **extra), rule
        with pytest.raises(LookupError, match='no route'):
            phone.url_for('games.nowhere')


@pytest.mark.skipif(NODE is None, reason='node is installed with the npm tools (make node_modules/.ci)')
def test_every_page_speaks_through_one_say():
    """A page's words are said one way (static/js/words.js): the keypad's and the phone's pages' say()
    are made by it, and no script has a say() of its own."""
    scripts = [p for p in (STATIC / 'js').rglob('*.js') if p.name != 'words.js']
    own = [p.name for p in scripts if re.search(r'function say\b|\bsay\s*=\s*\(', p.read_text())]
    assert own == []
    makers = sorted(str(p.relative_to(STATIC / 'js')) for p in scripts if 'sayer(' in p.read_text())
    assert makers == ['keypad/page.js', 'offline/page.js']
    said = node(f"""
        import {{ sayer }} from {json.dumps((STATIC / 'js' / 'words.js').as_uri())};
        const say = sayer({{ count: '{{count}} / {{size}}', empty: '' }});
        console.log(JSON.stringify([say('count', {{ count: 3, size: 9 }}), say('count', {{ count: 0 }}), say('none'),
                                    say('empty')]));""")
    assert said == ['3 / 9', '0 / {size}', '', '']
