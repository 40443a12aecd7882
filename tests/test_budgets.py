"""One budget per client, across every worker and restart (web/ratelimit.py, counted in SQLite): the
solver's answers, new games, imports and fresh pictures, each refused past its named rate with a 429
in the page's language; a scorekeeper's preview has a budget of its own; and an import looks at the
kept games at its table only, however many a browser keeps."""

import http.client
import io
import json
import re
import threading
from urllib.parse import urlencode

import pytest

from tests.browser import Browser
from tests.helpers import PATIENCE, new_game_form, round_form
from tests.server import Gunicorn

SOLVE = '/api/solve?cards=7H+8H+9H&wild=5'


class Client:
    """A browser from a loopback address of our choosing (127.0.0.2 is another client than 127.0.0.1)."""

    def __init__(self, server, source='127.0.0.1', language='en'):
        self.port, self.source, self.cookies = server.port, source, {'lang': language}

    def request(self, method, path, fields=None):
        conn = http.client.HTTPConnection('127.0.0.1', self.port, timeout=PATIENCE, source_address=(self.source, 0))
        body = urlencode(fields) if fields is not None else None
        headers = {'Cookie': '; '.join(f'{k}={v}' for k, v in self.cookies.items())}
        if body is not None:
            headers['Content-Type'] = 'application/x-www-form-urlencoded'
        conn.request(method, path, body, headers)
        r = conn.getresponse()
        for cookie in r.headers.get_all('Set-Cookie') or []:
            name, _, value = cookie.split(';', 1)[0].partition('=')
            self.cookies[name] = value
        text = r.read().decode('utf-8', 'replace')
        conn.close()
        return r.status, text, r.headers

    def new_game(self, players):
        _, page, _ = self.request('GET', '/games/new')
        token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)
        return self.request('POST', '/games/new', {**new_game_form(players), 'csrf_token': token})


@pytest.mark.slow
@pytest.mark.serial          # 80 clients at once, each within its socket's timeout: the machine to itself
def test_the_solver_budget_is_one_across_workers_and_restarts(tmp_path):
    database = tmp_path / 'budget.sqlite'
    env = {'SCORER_SOLVER_RATE': '20 per minute'}
    server = Gunicorn(database, workers=2, env=env).start()
    try:
        codes = []
        barrier = threading.Barrier(80)

        def ask():
            barrier.wait()
            codes.append(Client(server).request('GET', SOLVE)[0])
        threads = [threading.Thread(target=ask) for _ in range(80)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(codes) == [200] * 20 + [429] * 60
        status, body, headers = Client(server).request('GET', SOLVE)
        assert status == 429 and 'wait a moment' in json.loads(body)['error']
        assert Client(server, '127.0.0.2').request('GET', SOLVE)[0] == 200       # another client's own budget
    finally:
        server.stop()
    server = Gunicorn(database, workers=2, env=env).start()                        # a restart keeps the count
    try:
        assert Client(server).request('GET', SOLVE)[0] == 429
    finally:
        server.stop()


@pytest.mark.slow
def test_a_scorekeepers_preview_is_never_locked_out_by_another_client_at_its_address(tmp_path):
    server = Gunicorn(tmp_path / 'preview.sqlite', workers=2, env={'SCORER_SOLVER_RATE': '10 per minute'}).start()
    try:
        keeper = Client(server)
        status, _page, headers = keeper.new_game(['Ana', 'Bruno'])
        assert status == 302
        game = headers['Location'].rsplit('/', 1)[1]
        other = Client(server)                                              # the same address, no cookie
        codes = [other.request('GET', SOLVE)[0] for _ in range(15)]
        assert codes == [200] * 10 + [429] * 5
        for _ in range(10):                                                 # the scorekeeper's budget is its own
            status, body, _h = keeper.request('GET', f'/audit/preview?cards=7H+8H+9H+KS&round=1&game_id={game}')
            assert status == 200, body[:200]
    finally:
        server.stop()


@pytest.mark.slow
def test_making_games_is_bounded_per_address_with_a_message_in_the_pages_language(tmp_path):
    server = Gunicorn(tmp_path / 'games.sqlite', workers=2, env={'SCORER_GAME_RATE': '3 per hour'}).start()
    try:
        keeper = Client(server, language='es')           # its first game by address, then by its browser
        assert [keeper.new_game(['Ana', 'Bruno'])[0] for _ in range(4)] == [302] * 4
        status, page, headers = keeper.new_game(['Zoë', 'Yann'])
        assert status == 429 and 'Este anotador creó demasiadas partidas' in page
        assert 'value="Zoë"' in page and int(headers['Retry-After']) > 60           # what was typed stays
        fresh = [Client(server) for _ in range(3)]                          # new browser tokens: the same address
        assert [browser.new_game(['Ana', 'Bruno'])[0] for browser in fresh[:2]] == [302, 302]
        status, page, _h = fresh[2].new_game(['Ana', 'Bruno'])
        assert status == 429 and 'Too many games were made from this address: try again in' in page
        assert Client(server, '127.0.0.2').new_game(['Ana', 'Bruno'])[0] == 302
    finally:
        server.stop()


@pytest.mark.slow
def test_importing_is_bounded_per_address(tmp_path):
    server = Gunicorn(tmp_path / 'imports.sqlite', workers=2, env={'SCORER_IMPORT_RATE': '2 per hour'}).start()
    try:
        browser = Browser(server.url)
        game = browser.new_game(['Ana', 'Bruno'])
        with browser.opener.open(server.url + game.replace(server.url, '') + '/export.json', timeout=PATIENCE) as r:
            data = r.read()
        codes = []
        for n in range(3):
            _, page = browser.get('/')
            codes.append(upload(browser, server, Browser.token(page), data.replace(b'Ana', f'Ana{n}'.encode())))
        assert codes[:2] == [302, 302] and codes[2][0] == 429 and 'Too many game files' in codes[2][1]
    finally:
        server.stop()


def upload(browser, server, token, data):
    """POST /import with a game file, as the page's form sends it: 302, or (status, page)."""
    import urllib.request
    boundary = 'x-boundary'
    body = (f'--{boundary}\r\nContent-Disposition: form-data; name="csrf_token"\r\n\r\n{token}\r\n'
            f'--{boundary}\r\nContent-Disposition: form-data; name="game_file"; filename="g.json"\r\n'
            f'Content-Type: application/json\r\n\r\n').encode() + data + f'\r\n--{boundary}--\r\n'.encode()
    request = urllib.request.Request(server.url + '/import', data=body,
                                     headers={'Content-Type': f'multipart/form-data; boundary={boundary}'})
    try:
        with browser.opener.open(request, timeout=PATIENCE) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return 302 if e.code == 302 else (e.code, e.read().decode())


def test_fresh_pictures_are_budgeted_and_a_remembered_one_costs_nothing(app, client, make_game):
    url = make_game(('Ana', 'Bruno'))
    app.config['PICTURE_RATE'] = '2 per hour'
    assert client.get(url + '/picture.png').status_code == 200
    assert client.get(url + '/picture.png?theme=dark').status_code == 200
    r = client.get(url + '/picture.svg?lang=pt')
    assert r.status_code == 429 and 'Foram geradas muitas imagens para este marcador' in r.get_data(as_text=True)
    for _ in range(5):
        assert client.get(url + '/picture.png').status_code == 200        # drawn already for this revision


def test_an_import_looks_only_at_the_kept_games_at_its_table(app, client, make_game, monkeypatch):
    """With 500 kept games an import loads no more of them than with 5: those with its players."""
    from web import store
    url = make_game(('Ana', 'Bruno'))
    exported = client.get(url + '/export.json').data
    with app.app_context():
        from web.access import browser
        db = store.connect(app.config['DATABASE'], migrate=False)
        game = store.load_game(db, url.rsplit('/', 1)[1])
        with app.test_request_context(headers={'Cookie': f"browser={client.get_cookie('browser').value}"}):
            mine = browser()
        for n in range(499):
            other = game.__class__((f'P{n}', 'Q'), game.rules, 0, {}, '', '', game.date)
            store.keep(db, mine, [store.create_game(db, other)[0]])
        db.close()
    loaded = []
    load_game = store.load_game
    monkeypatch.setattr(store, 'load_game', lambda db, game_id: loaded.append(game_id) or load_game(db, game_id))
    r = client.post('/import', data={'game_file': (io.BytesIO(exported), 'g.json')}, content_type='multipart/form-data')
    assert r.status_code == 302 and r.headers['Location'] == url          # the same game: opened, not copied
    assert loaded == [url.rsplit('/', 1)[1]]
    loaded.clear()
    twin = exported.replace(b'"Ana"', b'"Ana B"')
    r = client.post('/import', data={'game_file': (io.BytesIO(twin), 'g.json')}, content_type='multipart/form-data')
    assert r.status_code == 302 and loaded == []


def share_link(keeper, url):
    """A scorekeeper link that shares the scorekeeping, made by `keeper`: its key."""
    page = keeper.post(url + '/keeper-link', data={'mode': 'share'}).get_data(as_text=True)
    return re.search(r'/keeper#([^"]+)"', page).group(1)


def test_keepers_made_by_share_links_draw_on_the_budget_of_the_keeper_who_made_the_link(app, client, make_game):
    """One game, three share links (each made by a keeper the one before made): four keepers, one
    person's budget of fresh pictures. A keeper of a game of its own has its own budget."""
    url = make_game(('Ana', 'Bruno'))
    app.config['PICTURE_RATE'] = '3 per hour'
    keepers = [client]
    for _ in range(3):
        joined = app.test_client()
        assert joined.post(url + '/keeper', data={'key': share_link(keepers[-1], url)}).status_code == 302
        keepers.append(joined)
    asked = [(keeper, f'{url}/picture.png?theme={theme}&lang={lang}')
             for keeper, (theme, lang) in zip(keepers, [('light', 'en'), ('dark', 'en'), ('light', 'es'), ('dark', 'es')])]
    codes = [keeper.get(address).status_code for keeper, address in asked]
    assert codes == [200, 200, 200, 429]
    own = app.test_client()                              # a scorekeeper of its own game: a budget of its own
    mine = own.post('/games/new', data=new_game_form(('Zoë', 'Yann'))).headers['Location']
    assert own.get(mine + '/picture.png').status_code == 200


def test_a_stranger_at_the_keepers_address_cannot_use_up_its_games_budget(app, client, make_game):
    """Games are counted by the keeper's browser for a scorekeeper, by address for anyone else: a
    stranger behind the same address who makes games spends the address's budget, then its own, and
    the keeper's rematch still goes through; a fresh browser there is refused."""
    app.config['GAME_RATE'] = '2 per minute'
    app.config['ADDRESS_GAME_RATE'] = '10 per minute'   # the address's ceiling, as the defaults have it (5×)
    url = make_game(('Ana', 'Bruno'))                   # the keeper's first game: by address (1 of 2)
    stranger = app.test_client()
    codes = [stranger.post('/games/new', data=new_game_form(('Xe', 'Yu'))).status_code for _ in range(4)]
    assert codes == [302, 302, 302, 429]                # the address's second, then its own two
    assert app.test_client().post('/games/new', data=new_game_form(('Xe', 'Yu'))).status_code == 429
    r = client.post(url + '/rematch', data={})
    assert r.status_code == 302, r.get_data(as_text=True)[:300]


def test_fresh_browsers_at_one_address_stop_at_the_addresss_ceiling(app, make_game):
    """A browser's first game is counted by its address, and after it the browser is a keeper with a
    budget of its own: fresh browsers from one address each bring a fresh budget (issue 47: 12 games in
    a minute with GAME_RATE at 3). Every game made from an address spends its ceiling
    (ADDRESS_GAME_RATE) too, whoever makes it: fresh browsers stop there, told so, in the page's language."""
    app.config['GAME_RATE'] = '3 per minute'
    app.config['ADDRESS_GAME_RATE'] = '6 per minute'
    made, refused = 0, None
    for _ in range(6):                                   # six fresh browsers, each making its three
        browser = app.test_client()
        for _ in range(3):
            r = browser.post('/games/new', data=new_game_form(('Xe', 'Yu')))
            if r.status_code == 302:
                made += 1
            elif refused is None:
                refused = r
    assert made == 6
    assert refused.status_code == 429
    assert 'Too many games were made from this address, by every browser on it together' in refused.get_data(as_text=True)
    browser = app.test_client()
    browser.set_cookie('lang', 'es')
    page = browser.post('/games/new', data=new_game_form(('Xe', 'Yu'))).get_data(as_text=True)
    assert 'por todos los navegadores' in page


def test_a_round_page_spends_the_solver_budget_by_the_hands_it_solves_off_the_event_loop(app, client, make_game,
                                                                                          monkeypatch):
    """A round posted on its page is solved by the solver's pool, one of the scorekeeper's solver
    budget a hand; over it, 429 with the page again, saying why, everything typed kept, nothing saved."""
    from web import pool
    jobs = []
    monkeypatch.setattr(pool, 'TIMERS', [lambda kind, seconds: jobs.append(kind)])
    url = make_game(('Ana', 'Bruno', 'Carla'))
    app.config['SOLVER_RATE'] = '3 per minute'
    r = client.post(url + '/rounds/1', data=round_form(0, cards=[None, 'KH 5C 7D', '7S 8S 9S']))
    assert r.status_code == 302 and jobs == ['solver']                 # two hands, in one job of the pool
    r = client.post(url + '/rounds/2', data=round_form(0, cards=[None, 'KH 5C 7D 2S', '7S 8S 9S 10S']))
    page = r.get_data(as_text=True)
    assert r.status_code == 429 and int(r.headers['Retry-After']) >= 1
    assert 'Too many hands were worked out for this scorekeeper' in page and 'Everything you entered is below' in page
    assert 'value="KH 5C 7D 2S"' in page and 'value="7S 8S 9S 10S"' in page
    assert len(client.get(url + '/export.json').get_json()['rounds']) == 1
    assert jobs == ['solver']                                            # nothing solved over the budget


def test_a_seats_hand_spends_the_solver_budget_off_the_event_loop(app, client, make_game, monkeypatch):
    """A seated player's hand is solved by the solver's pool, one of its address's solver budget; over
    it, 429 with the hand kept in the form, not sent."""
    from web import pool
    jobs = []
    monkeypatch.setattr(pool, 'TIMERS', [lambda kind, seconds: jobs.append(kind)])
    url = make_game(('Ana', 'Bruno'))
    app.config['SOLVER_RATE'] = '1 per minute'
    bruno = app.test_client()
    bruno.post(f'{url}/seats/1')
    r = bruno.post(url + '/hand', data={'round': '1', 'cards': 'KH 5C 7D'})
    assert r.status_code == 303 and jobs == ['solver']
    r = bruno.post(url + '/hand', data={'round': '1', 'cards': 'KH 5C 8D'})
    page = r.get_data(as_text=True)
    assert r.status_code == 429 and 'Too many hands were worked out for this address' in page
    assert 'value="KH 5C 8D"' in page and jobs == ['solver']
    assert client.get(url + '/rounds/1/drafts').get_json()['1']['cards'] == 'K♥ 5♣ 7♦'


def test_a_seats_hands_sent_are_budgeted_by_the_seat(app, client, make_game, monkeypatch):
    """A seat sending its hand again and again (HAND_RATE, one a send, counted by the seat): past the
    budget, 429 saying so, the hand kept in the form, nothing solved and nothing sent; the draft is the
    last one sent within it. Another seat behind the same address (the table's Wi-Fi) has its own. Eight
    seats sending as fast as they were answered took a bystander to 7x its quiet p95 (issue 47)."""
    from web import pool
    jobs = []
    monkeypatch.setattr(pool, 'TIMERS', [lambda kind, seconds: jobs.append(kind)])
    url = make_game(('Ana', 'Bruno', 'Carla'))
    app.config['HAND_RATE'] = '2 per minute'
    bruno, carla = app.test_client(), app.test_client()
    bruno.post(f'{url}/seats/1')
    carla.post(f'{url}/seats/2')
    for cards in ('KH 5C 7D', 'KH 5C 8D'):
        assert bruno.post(url + '/hand', data={'round': '1', 'cards': cards}).status_code == 303
    solved = len(jobs)
    r = bruno.post(url + '/hand', data={'round': '1', 'cards': 'KH 5C 9D'})
    page = r.get_data(as_text=True)
    assert r.status_code == 429 and 'Too many hands were sent from this seat' in page
    assert 'value="KH 5C 9D"' in page and int(r.headers['Retry-After']) >= 1 and len(jobs) == solved
    assert client.get(url + '/rounds/1/drafts').get_json()['1']['cards'] == 'K♥ 5♣ 8♦'
    assert carla.post(url + '/hand', data={'round': '1', 'cards': '4S 4D 4C'}).status_code == 303


def test_a_hand_sent_is_answered_by_a_redirect_and_its_page_solves_off_the_event_loop(app, make_game, monkeypatch):
    """A hand sent is answered 303 to the hand's page (nothing is drawn for a client that does not
    follow, and a reload does not send it again); that page shows the score, said once however often
    the hand was sent before it was drawn, its hand solved by the pool as the send's was (the page may
    be drawn by a worker that did not solve it)."""
    from scorer import sheet
    from web import pool
    jobs = []
    monkeypatch.setattr(pool, 'TIMERS', [lambda kind, seconds: jobs.append(kind)])
    url = make_game(('Ana', 'Bruno'))
    bruno = app.test_client()
    bruno.post(f'{url}/seats/1')
    for _ in range(3):
        r = bruno.post(url + '/hand', data={'round': '1', 'cards': 'KH 5C 7D'})
        assert r.status_code == 303 and r.headers['Location'].endswith(url.rsplit('/', 1)[1] + '/hand')
    sheet.solve.clear()                                      # as the other worker, which never solved it
    jobs.clear()
    page = bruno.get(url + '/hand').get_data(as_text=True)
    assert '22 points' in page and page.count('Sent to the scorekeeper') == 1 and jobs == ['solver']


def another_worker(app):
    """A second app on the same database as `app`: the server's other worker."""
    from tests.conftest import new_app
    return new_app({k: v for k, v in app.config.items()
                    if k in ('TESTING', 'DATABASE', 'SECRET_KEY', 'WTF_CSRF_ENABLED') or k.endswith('_RATE')})


def forget_solved():
    """What this process remembers of hands solved and sheets drawn, forgotten: a process that never solved them."""
    import scorer.sheet
    from web import sheets
    for forget in (scorer.sheet.solve, sheets.sheets, sheets.fragments, sheets.pushed):
        forget.clear()


def solves_here(monkeypatch):
    """The hands solved in this process from now on (scorer.sheet.solve_hand watched), its memory of them
    forgotten first."""
    import scorer.sheet
    asked, real = [], scorer.sheet.solve_hand
    monkeypatch.setattr(scorer.sheet, 'solve_hand', lambda hand, wild, rules: asked.append(hand) or real(hand, wild, rules))
    forget_solved()
    return asked


def test_a_round_saved_by_one_worker_is_drawn_by_another_without_solving(app, client, make_game, monkeypatch):
    """A round saved through one app (a worker) and its sheet drawn by a second app on the same database
    (the other worker, whose followers want it): the second solves none of the round's hands, it reads
    the answers the first stored with the round, and scores the sheet as the first does."""
    url = make_game(('Ana', 'Bruno', 'Carla', 'Dana'))
    for number, form in ((1, round_form(0, cards=[None, 'KH 5C 7D', '7S 8S 2D', 'QD QS 4H'])),
                         (2, round_form(1, cards=['KH 5C 7D 9D', None, '7S 8S 2D 2C', 'QD QS 4H 10C']))):
        r = client.post(f'{url}/rounds/{number}', data=form)
        assert r.status_code == 302, r.get_data(as_text=True)
    other = another_worker(app)
    solved_here = client.get(url + '/export.csv').data
    asked = solves_here(monkeypatch)                   # as the other worker's process
    followed = other.test_client()
    assert followed.get(url + '/export.csv').data == solved_here and asked == []
    assert followed.get(url).status_code == 200 and asked == []


def test_a_sheet_whose_answers_are_stored_nowhere_is_solved_by_the_pool_and_its_answers_stored(app, client,
                                                                                                  make_game, monkeypatch):
    """Rounds whose answers the table lacks (saved before it existed, or trimmed past the kept count)
    drawn by another worker: its hands are solved by the solver's pool, not on the request's thread, the
    sheet is the one the saving worker drew, and the answers are stored for the next draw."""
    from web import sheets
    from web.db import get_db
    url = make_game(('Ana', 'Bruno', 'Carla', 'Dana'))
    for number, form in ((1, round_form(0, cards=[None, 'KH 5C 7D', '7S 8S 2D', 'QD QS 4H'])),
                         (2, round_form(1, cards=['KH 5C 7D 9D', None, '7S 8S 2D 2C', 'QD QS 4H 10C']))):
        assert client.post(f'{url}/rounds/{number}', data=form).status_code == 302
    solved_here = client.get(url + '/export.csv').data
    with app.app_context():
        get_db().conn.execute('delete from solutions')           # an upgraded server's rounds: no answers stored
        get_db().conn.commit()
    other = another_worker(app)
    asked, pooled, real_run = solves_here(monkeypatch), [], getattr(sheets, 'solved', None)
    monkeypatch.setattr(sheets, 'solved', lambda job, keys: pooled.append(len(keys)) or real_run(job, keys),
                        raising=False)
    followed = other.test_client()
    assert followed.get(url + '/export.csv').data == solved_here and asked == [] and pooled == [6]
    with other.app_context():
        assert get_db().execute('select count(*) from solutions').fetchone()[0] == 6
    forget_solved()
    assert followed.get(url).status_code == 200 and asked == [] and pooled == [6]     # read from the table now


@pytest.mark.parametrize('page', ['', '/rounds/1', '/export.csv', 'start page'])
def test_no_page_of_a_game_whose_answers_are_stored_nowhere_solves_on_the_requests_thread(app, client, make_game,
                                                                                          monkeypatch, page):
    """A finished game with a corrected round (an earlier version, scored on the round page and in the
    CSV), its answers and its summary stored nowhere (an upgraded server): its sheet, round page, CSV and
    the start page's summary solve none of its hands on the request's thread (the pool does)."""
    from tests.helpers import play_rounds, save_confirmed
    from web.db import get_db
    url = make_game(('Ana', 'Bruno', 'Carla'))
    hands = {1: ['KH 5C 7D', '7S 8S 2D', 'QD QS 4H'], 2: ['KH 5C 7D 9D', '7S 8S 2D 2C', 'QD QS 4H 10C']}
    play_rounds(client, url, 11, 3, cards=lambda seat, number: hands.get(number, [None] * 3)[seat])
    r = save_confirmed(client, url, 1, round_form(1, cards=['9H 9D 2S', None, 'JD QS 4H'], version=1))
    assert r.status_code == 302, r.get_data(as_text=True)[-600:]
    with app.app_context():
        db = get_db()
        for table in ('solutions', 'summaries'):
            db.conn.execute(f'delete from {table}')
        db.conn.commit()
    asked = solves_here(monkeypatch)                   # as the other worker's process
    r = client.get('/' if page == 'start page' else url + page)
    assert r.status_code == 200 and asked == []
    with app.app_context():
        assert get_db().execute('select count(*) from solutions').fetchone()[0]       # stored for the next draw


def test_a_game_imported_by_one_worker_is_drawn_by_another_without_solving(app, client, make_game, monkeypatch):
    """A game file imported through one app (its hands solved by the pool there) and the game's sheet drawn
    by a second app on the same database: the second solves none of its hands."""
    import scorer.sheet
    url = make_game(('Ana', 'Bruno', 'Carla'))
    client.post(url + '/rounds/1', data=round_form(0, cards=[None, 'KH 5C 7D', '7S 8S 2D']))
    twin = client.get(url + '/export.json').data.replace(b'"Ana"', b'"Ana B"')
    with app.app_context():
        from web.db import get_db
        get_db().conn.execute('delete from solutions')             # stored by no save: the import alone stores them
        get_db().conn.commit()
    scorer.sheet.solve.clear()
    r = client.post('/import', data={'game_file': (io.BytesIO(twin), 'g.json')}, content_type='multipart/form-data')
    assert r.status_code == 302
    other = another_worker(app)
    asked = solves_here(monkeypatch)                   # as the other worker's process
    assert 'Ana B' in other.test_client().get(r.headers['Location']).get_data(as_text=True) and asked == []


def import_a_club(client):
    """A table's file of one game (Ana went out, Bruno and Carla hold cards) imported: the response."""
    from scorer.rules import make_rules
    from scorer.sheet import Entry, Game
    from scorer.tablefile import TableGame, table_json
    game = Game(('Ana', 'Bruno', 'Carla'), make_rules({'game': 'standard'}), 0,
                {1: (Entry('Ana', went_out=True), Entry('Bruno', cards='KH 5C 7D'), Entry('Carla', cards='7S 8S 2D'))})
    data = table_json({'name': 'Club', 'language': 'en'}, [TableGame('g1', '2026-12-06', game, {})]).encode()
    r = client.post('/tables/import', data={'table_file': (io.BytesIO(data), 'club.json')},
                    content_type='multipart/form-data')
    assert r.status_code == 302, r.get_data(as_text=True)[-600:]
    return r


def test_a_table_file_imported_by_one_worker_has_its_games_drawn_by_another_without_solving(app, client, monkeypatch):
    """A table file imported through one app (its hands solved by the pool there) and a game of it drawn by
    a second app on the same database: the second solves none of its hands."""
    from web.db import get_db
    r = import_a_club(client)
    with app.app_context():
        [game_id] = [row[0] for row in get_db().execute('select id from games')]
    other = another_worker(app)
    asked = solves_here(monkeypatch)                   # as the other worker's process
    assert 'Bruno' in other.test_client().get(f'/games/{game_id}').get_data(as_text=True) and asked == []


def test_a_tables_file_of_games_whose_answers_are_stored_nowhere_solves_none_on_the_requests_thread(app, client,
                                                                                                      monkeypatch):
    """A table's file exported when its games' answers are stored nowhere: the sheets it carries are
    scored with answers from the solver's pool, none solved on the request's thread."""
    from web.db import get_db
    r = import_a_club(client)
    with app.app_context():
        get_db().conn.execute('delete from solutions')
        get_db().conn.commit()
    asked = solves_here(monkeypatch)                   # as the other worker's process
    r = client.get(r.headers['Location'].split('?')[0].rstrip('/') + '/export.json')
    assert r.status_code == 200 and '"Bruno"' in r.get_data(as_text=True) and asked == []


def test_a_stored_answer_is_found_for_the_same_hand_in_any_order(app, monkeypatch):
    """The answers stored with rounds are keyed by the canonical hand: the same cards in another order
    (another game, another round with that wild) read it instead of solving."""
    import scorer.sheet
    from scorer.reading import parse_hand
    from scorer.rules import DEFAULT
    from web import store
    from web.db import get_db
    hand = tuple(parse_hand('KH 5C 7D 7S 9S', DEFAULT))
    key = scorer.sheet.Solved.key(hand, 7, DEFAULT)
    solution = scorer.sheet.solve_hand(key[0], 7, DEFAULT)
    with app.app_context():
        db = get_db()
        with store.writing(db):
            store.keep_solutions(db, {key: solution})
        asked = []
        monkeypatch.setattr(scorer.sheet, 'solve_hand', lambda *a: asked.append(a))
        scorer.sheet.solve.clear()
        with scorer.sheet.solve.reading(lambda k: store.stored_solution(db, k)):
            found = scorer.sheet.solve(tuple(reversed(hand)), 7, DEFAULT)
    assert asked == [] and found == solution and found.melds


def test_an_imported_games_sheet_is_solved_by_the_pool_not_again_on_the_event_loop(app, client, make_game,
                                                                                  monkeypatch):
    """A game file is read and its hands solved by the pool; the sheet drawn after it solves none of
    them again in the server's process."""
    url = make_game(('Ana', 'Bruno', 'Carla'))
    client.post(url + '/rounds/1', data=round_form(0, cards=[None, 'KH 5C 7D', '7S 8S 9S']))
    twin = client.get(url + '/export.json').data.replace(b'"Ana"', b'"Ana B"')
    asked = solves_here(monkeypatch)
    r = client.post('/import', data={'game_file': (io.BytesIO(twin), 'g.json')}, content_type='multipart/form-data')
    assert r.status_code == 302
    assert 'Ana B' in client.get(r.headers['Location']).get_data(as_text=True) and asked == []


def test_the_addresss_ceiling_follows_the_keepers_budget_unless_set_on_its_own(tmp_path):
    """An operator who sets SCORER_GAME_RATE alone has the address's ceiling follow it (ADDRESS_GAMES times,
    window by window), so it never sits below a keeper's own budget; set on its own, it is what was set."""
    from app import create_app
    from web.ratelimit import ADDRESS_GAMES
    base = {'TESTING': True, 'DATABASE': str(tmp_path / 'ceiling.sqlite'), 'SECRET_KEY': 'c'}
    followed = create_app({**base, 'GAME_RATE': '40 per minute; 1 per 2 seconds'}).config['ADDRESS_GAME_RATE']
    assert followed == f'{40 * ADDRESS_GAMES} per 1 minute; {ADDRESS_GAMES} per 2 second'
    assert create_app({**base, 'GAME_RATE': '40 per minute', 'ADDRESS_GAME_RATE': '7 per hour'}).config[
        'ADDRESS_GAME_RATE'] == '7 per hour'
