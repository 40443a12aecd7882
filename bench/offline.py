"""Offline play in Chromium on this machine: the bundle's transfer size, what a phone that keeps a game
fetches for a new release, how long after a game opens it is kept (offline-ready), the scorer's
start on a page, a warm preview's time, a new game made with no network (from "Start the game",
tapped 5 s after the page opened, to its sheet drawn), and one made with a network by a phone that
keeps games, its first dealer drawn at random (from "Start the game", tapped as soon as the names
are typed, to its sheet: goal at most 1.5 s; issue 48 found 1.5-32 s when the draw waited for the
phone's Python); and a game made offline, page to page (issue 48, 11): from "Start the game" to its
sheet, from "Enter round 1" to the round page's keypad, from Save to the sheet again, in wall and
the browser's CPU seconds, with the steps of each page's scorer as it started (its performance marks).

    python bench/offline.py                   (make bench runs it)
    python bench/offline.py --made-offline    a game made offline, page to page, alone
    python bench/offline.py --start           the online start with the dealer drawn, alone
    python bench/offline.py --release         what a new release costs a kept phone, alone
    python bench/offline.py --release --root OTHER_CHECKOUT    the same, of another checkout's code
"""

import os
import random
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(sys.argv[sys.argv.index('--root') + 1]).resolve() if '--root' in sys.argv else Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app import create_app                                   # noqa: E402
from scorer.cards import SUITS, Card                         # noqa: E402
from tests.browser import own_module                         # noqa: E402

KEPT = "() => (localStorage.getItem('kept:' + location.pathname.split('/')[2]) || '').includes(':')"


def hands(count, seed=13):
    rng = random.Random(seed)
    pack = [Card(r, s) for r in range(1, 14) for s in SUITS] * 2
    return [' '.join(map(str, rng.sample(pack, 13))) for _ in range(count)]


def transfer(app):
    """Bytes of the bundle as the server sends them to a phone (gzip), and as they unpack."""
    from tests.helpers import new_game_form
    client = app.test_client()
    url = client.post('/games/new', data=new_game_form(['Ana', 'Bruno'])).headers['Location']
    sent = plain = 0
    for address in client.get(url + '/offline.json').get_json()['bundle']:
        sent += len(client.get(address, headers={'Accept-Encoding': 'gzip'}).data)
        plain += len(client.get(address).data)
    return sent, plain


class Counted:
    """The bytes the server sends (bodies as sent: gzipped where the phone took gzip), by path, from reset()."""

    def __init__(self, app):
        self.inner, self.sent = app.wsgi_app, {}
        app.wsgi_app = self

    def reset(self):
        self.sent = {}

    def __call__(self, environ, start_response):
        path = environ['PATH_INFO']
        for chunk in self.inner(environ, start_response):
            self.sent[path] = self.sent.get(path, 0) + len(chunk)
            yield chunk


def release_cost(browser, folder):
    """A phone keeps a game; the server gets a new release of this project's code (its scorer, its
    templates: OFFLINE_RELEASE stands for it); the phone opens the game's sheet again and keeps the
    new release. What the server sent it from the update until it is kept again: (bytes, {path: bytes})."""
    from tests.browser import start_game
    from tests.server import Server
    app = create_app({'TESTING': True, 'DATABASE': os.path.join(folder, 'release.sqlite'), 'SECRET_KEY': 'bench',
                      'WTF_CSRF_ENABLED': False})
    counted = Counted(app)
    with Server(app) as server:
        context = browser.new_context(viewport={'width': 360, 'height': 740}, bypass_csp=True)
        page = context.new_page()
        url = start_game(page, server.url, ['Ana', 'Bruno', 'Carla'])
        page.wait_for_function(KEPT, timeout=60000)
        page.wait_for_load_state('networkidle')
        counted.reset()
        app.config['OFFLINE_RELEASE'] = 'next-release'
        page.goto(url)
        page.wait_for_function("() => (localStorage.getItem('kept:' + location.pathname.split('/')[2]) || '')"
                               ".startsWith('next-release:')", timeout=60000)
        page.wait_for_load_state('networkidle')
        page.wait_for_timeout(1000)                          # anything the service worker still fetches
        context.close()
    return sum(counted.sent.values()), dict(counted.sent)


def print_release_cost(browser, folder):
    total, paths = release_cost(browser, folder)
    bundle = sum(n for path, n in paths.items() if path.startswith('/offline/') and path.count('/') >= 3)
    print(f'a new release: a phone that keeps a game fetches {total:,} bytes ({total / 1e6:.2f} MB), '
          f'{bundle:,} of them the offline bundle')
    for path, n in sorted(paths.items(), key=lambda item: -item[1])[:8]:
        print(f'  {n:>10,}  {path}')


START_GOAL = 1.5        # s, "Start the game" to the sheet, online, the dealer drawn at random


def start_online(browser, base, runs=5):
    """A phone that keeps a game (its offline bundle kept) starts new games online with the first
    dealer drawn at random: seconds from the tap on "Start the game" to the sheet shown, each run."""
    from tests.browser import start_game
    context = browser.new_context(viewport={'width': 360, 'height': 740}, bypass_csp=True)
    page = context.new_page()
    start_game(page, base, ['Ana', 'Bruno', 'Carla'])
    page.wait_for_function(KEPT, timeout=60000)              # this phone keeps games now
    times = []
    for _ in range(runs):
        page.goto(base + '/games/new')
        for seat, name in enumerate(['Dora', 'Eli', 'Fay']):
            page.locator(f'#players-{seat}').fill(name)
        assert page.locator('#first_dealer').input_value() == 'draw'
        tapped = time.perf_counter()
        page.locator('form button.primary').click()
        page.wait_for_url(re.compile(r'/games/[A-Za-z0-9_-]{16}$'), timeout=60000)
        page.wait_for_selector('table.sheet')
        times.append(time.perf_counter() - tapped)
    context.close()
    return times


def print_start_online(browser, base):
    times = start_online(browser, base)
    verdict = 'within' if max(times) <= START_GOAL else 'OVER'
    print(f'a new game started online by a phone that keeps games, the dealer drawn at random: its sheet '
          f'median {statistics.median(times):.2f} s, slowest {max(times):.2f} s after the tap '
          f'({verdict} the goal of {START_GOAL} s; runs: {", ".join(f"{t:.2f}" for t in times)})')


PAGE_TO_PAGE = ('Start -> sheet', 'sheet -> keypad', 'cards typed -> preview', 'save -> sheet')
HAND = 'K♠ 2♦ 9♣'
# The sheet of a game made here, drawn by the phone's scorer, its banner naming the round to play.
DRAWN_HERE = """(round) => document.querySelector('#offline[data-made-here]')
  && (document.querySelector('#live .banner') || {}).textContent?.includes(round)"""


def worker_marks(page):
    """The marks of the page's scorer (ms since the worker was made): its start's steps and its answers,
    and 'born', when it was made (ms since the epoch: the same on two pages, the same Python; none from
    a worker of before it said so, --root of an older checkout)."""
    return dict(page.evaluate("""async () => {
        const { ask } = await """ + own_module('js/offline.js') + """;
        return (await ask('timings', {})).ok || [];
    }"""))


def browser_cpu():
    """Seconds of CPU (user and system) of this process's descendants (the Playwright driver and Chromium,
    its renderers, where the phone's scorer runs), the ones ended included, from /proc."""
    children = {}
    for stat in Path('/proc').glob('[0-9]*/stat'):
        try:
            fields = stat.read_text().rsplit(')', 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append((int(stat.parent.name), sum(map(int, fields[11:15]))))
    ticks, todo = 0, [os.getpid()]
    while todo:
        for pid, used in children.get(todo.pop(), []):
            ticks += used
            todo.append(pid)
    return ticks / os.sysconf('SC_CLK_TCK')


class Step:
    """A tap and what it leads to: wall and browser CPU seconds, and the marks of the scorer of the page
    it leads to (read once it answers: a starting worker answers nothing)."""

    def __init__(self, page):
        self.page, self.marks = page, None

    def __enter__(self):
        self.cpu, self.tapped = browser_cpu(), time.perf_counter()
        return self

    def __exit__(self, *exc):
        self.wall, self.cpu = time.perf_counter() - self.tapped, browser_cpu() - self.cpu

    def read_marks(self):
        self.marks = worker_marks(self.page)


def made_offline(browser, base):
    """A phone that keeps a game makes a new one with no network (Start tapped once the new-game page's
    scorer has started: a person typing the names), then plays its first round: each step's wall and
    CPU seconds, from the tap on "Start the game" to its sheet drawn, from the tap on "Enter round 1"
    to the round page's keypad open, from Save to the sheet drawn again; and the marks of the
    scorer each page started (None: that page started none); and from the cards typed on the round
    page to their preview (its scorer asked)."""
    from tests.browser import start_game
    context = browser.new_context(viewport={'width': 360, 'height': 740}, is_mobile=True, has_touch=True,
                                  bypass_csp=True)
    page = context.new_page()
    url = start_game(page, base, ['Ana', 'Bruno', 'Carla'])
    page.wait_for_function(KEPT, timeout=60000)
    context.set_offline(True)
    page.goto(url)
    page.get_by_role('link', name='New game').click()
    page.wait_for_url(base + '/games/new')
    for seat, name in enumerate(['Dora', 'Eli', 'Fay']):
        page.locator(f'#players-{seat}').fill(name)
    page.locator('#first_dealer').select_option('0')
    page.evaluate("async () => (await " + own_module('js/offline.js') + ").ask('solve_many', { queries: [] })")
    first = worker_marks(page)                   # the new-game page's scorer
    steps = [Step(page) for _ in PAGE_TO_PAGE]
    with steps[0]:
        page.locator('form button.primary').click()
        page.wait_for_function(DRAWN_HERE, arg='Round 1', timeout=60000)
    steps[0].read_marks()
    with steps[1]:
        page.get_by_role('link', name='Enter round 1').click()
        page.wait_for_selector('.picker:not([hidden])', timeout=60000)
    page.locator('#went_out-0').check()
    with steps[2]:                               # typed at once: a person's 13 taps give the scorer time
        page.locator('#entries-1-cards').fill(HAND)
        page.wait_for_selector('.preview[data-seat="1"] .penalty:has-text("Penalty")', timeout=60000)
    steps[1].read_marks()
    page.locator('#entries-2-points').fill('5')
    with steps[3]:
        page.locator('form.round-form').evaluate('(form) => form.requestSubmit()')
        page.wait_for_url(re.compile(r'\?unsent=1$'), timeout=60000)
        page.wait_for_function(DRAWN_HERE, arg='Round 2', timeout=60000)
    steps[3].read_marks()
    context.close()
    return first, steps


def print_made_offline(browser, base, runs=3):
    print('a game made offline, page to page: wall and browser CPU seconds after the tap, and the steps of the '
          "scorer the page talks to (ms since the worker was made), or that it is the Python of the page before:")
    for run in range(1, runs + 1):
        first, steps = made_offline(browser, base)
        print(f'  run {run}: ' + '; '.join(f'{what} {s.wall:.1f} s ({s.cpu:.1f} s CPU)' for what, s in zip(PAGE_TO_PAGE, steps)))
        born = first.get('born')
        for what, step in zip(PAGE_TO_PAGE, steps):
            if step.marks is None:
                continue                          # the same page as the step before
            if born is not None and step.marks.get('born') == born:
                marks = 'the Python of the page before, started already'
            else:
                marks = ', '.join(f'{name} {t:.0f}' for name, t in step.marks.items() if name != 'born')
            born = step.marks.get('born')
            print(f'    {what}: {marks}')


def main():
    import logging

    from playwright.sync_api import sync_playwright

    from tests.browser import launch, start_game
    from tests.server import Server
    logging.getLogger('werkzeug').setLevel(logging.ERROR)
    folder = tempfile.mkdtemp()
    if '--release' in sys.argv:
        with sync_playwright() as p:
            browser = launch(p)
            print_release_cost(browser, folder)
            browser.close()
        return
    modes = (('--made-offline', 'made', print_made_offline), ('--start', 'start', print_start_online))
    for option, name, measure in modes:
        if option in sys.argv:
            app = create_app({'TESTING': True, 'DATABASE': os.path.join(folder, f'{name}.sqlite'),
                              'SECRET_KEY': 'bench', 'WTF_CSRF_ENABLED': False})
            with Server(app) as server, sync_playwright() as p:
                browser = launch(p)
                measure(browser, server.url)
                browser.close()
            return
    app = create_app({'TESTING': True, 'DATABASE': os.path.join(folder, 'bench.sqlite'), 'SECRET_KEY': 'bench', 'WTF_CSRF_ENABLED': False})
    sent, plain = transfer(app)
    print(f'the bundle: {sent / 1e6:.1f} MB sent (gzip), {plain / 1e6:.1f} MB unpacked, fetched once a release')
    with Server(app) as server, sync_playwright() as p:
        browser = launch(p)
        print_release_cost(browser, folder)
        print_start_online(browser, server.url)
        print_made_offline(browser, server.url)
        for attempt in (1, 2, 3):
            context = browser.new_context(viewport={'width': 360, 'height': 740}, bypass_csp=True)
            page = context.new_page()
            url = start_game(page, server.url, ['Ana', 'Bruno', 'Carla'])
            opened = time.perf_counter()
            page.wait_for_function(KEPT, timeout=60000)
            ready = time.perf_counter() - opened
            context.set_offline(True)
            page.goto(url + '/rounds/1')
            started = time.perf_counter()
            page.wait_for_function("() => document.getElementById('offline').dataset.warm === '1'", timeout=60000)
            start = time.perf_counter() - started
            game_id = url.rsplit('/', 1)[1]
            times = page.evaluate("""async ([hands, id]) => {
                const { ask } = await """ + own_module('js/offline.js') + """;
                const { get } = await import(`/offline/${localStorage.getItem('offline-release')}/idb-keyval.js`);
                const data = await get(`game:${id}`);
                const times = [];
                for (const cards of hands) {
                  const t = performance.now();
                  const answer = await ask('preview', { game: data.game, args: { cards, round: '11', game: id } });
                  if (!answer.ok) throw new Error(JSON.stringify(answer));
                  times.push(performance.now() - t);
                }
                return times;
            }""", [hands(100), game_id])
            page.goto(url)                                   # the kept sheet, then its New game, offline
            page.get_by_role('link', name='New game').click()
            page.wait_for_url(server.url + '/games/new')
            for seat, name in enumerate(['Dora', 'Eli']):
                page.locator(f'#players-{seat}').fill(name)
            page.wait_for_timeout(5000)                      # a person typing the names: the scorer starts meanwhile
            tapped = time.perf_counter()
            page.locator('form button.primary').click()
            page.wait_for_selector('#made-here h1', timeout=60000)
            made = time.perf_counter() - tapped
            print(f'run {attempt}: offline-ready {ready:.1f} s after the game opens; the scorer starts on a page in '
                  f'{start:.1f} s; a 13-card preview, warm: median {statistics.median(times):.0f} ms, '
                  f'slowest {max(times):.0f} ms; a new game made offline: its sheet {made:.1f} s after the tap')
            context.close()
        browser.close()


if __name__ == '__main__':
    main()
