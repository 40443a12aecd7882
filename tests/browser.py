"""Browsers: Debian's Chromium at a phone viewport for the journeys, and a tiny scripted one for the load and crash tests."""

import atexit
import os
import re
import shutil
import tempfile
import urllib.error
import urllib.request
from http.cookiejar import CookieJar
from pathlib import Path
from urllib.parse import urlencode

import pytest

from tests.helpers import PATIENCE, round_forms

ARTIFACTS = Path(__file__).parent / 'artifacts'
AXE = Path(__file__).resolve().parent.parent / 'node_modules' / 'axe-core' / 'axe.min.js'
AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']
CHROMIUM = '/usr/bin/chromium'
PHONE = {'width': 360, 'height': 740}        # the phone every journey is played on
SIZES = [(360, 740), (390, 844)]             # the phones a layout is checked on: the narrowest, and a common one
AIM_MS = 300           # a finger lands where it aimed this long before (tests/browser.Finger)
WAIT_MS = 60_000       # the longest a test waits for the page's own signal: a hang guard, far from any pace


def expect(*args, **kwargs):
    """Playwright's expect(), imported only by the tests that drive a browser (the others run without it)."""
    from playwright.sync_api import expect
    return expect(*args, **kwargs)


LOOPBACK = ('http://127.0.0.1:', 'https://127.0.0.1:', 'data:', 'blob:')
# Chromium resolves no host but loopback (a request anywhere else fails, and guarded() records it).
ARGS = ['--no-sandbox', '--headless', '--disable-gpu', '--disable-background-networking',
        '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic',
        '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1']


def launch(playwright):
    """Debian's Chromium, whose every context waits for a page up to WAIT_MS (Playwright's own 30 s
    is a pace a loaded machine misses: a hang guard is far from any pace)."""
    if not Path(CHROMIUM).exists():
        pytest.fail('Debian chromium is not installed (make test installs it)')
    browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS, env=with_chinese_type())
    made = browser.new_context

    def new_context(**options):
        context = made(**options)
        context.set_default_timeout(WAIT_MS)
        return context
    browser.new_context = new_context
    return browser


FONTS = Path(__file__).resolve().parent.parent / 'node_modules' / '.picture-fonts'


def with_chinese_type():
    """The environment for Chromium: the system's fonts and Noto Sans SC (from npm, unpacked by make
    for the picture), as a phone has a Chinese typeface, so Chinese names are drawn and measured,
    not shown as empty boxes. Only the Chinese files are added: Latin text keeps the system's fonts."""
    folder = Path(tempfile.mkdtemp(prefix='fonts-'))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    (folder / 'sc').mkdir()
    for font in FONTS.glob('noto-sans-sc-[0-9]*.ttf'):
        (folder / 'sc' / font.name).symlink_to(font)
    (folder / 'fonts.conf').write_text(
        '<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd"><fontconfig>'
        '<include ignore_missing="yes">/etc/fonts/fonts.conf</include>'
        f'<dir>{folder / "sc"}</dir><cachedir>{folder / "cache"}</cachedir></fontconfig>')
    return {**os.environ, 'FONTCONFIG_FILE': str(folder / 'fonts.conf')}


def phone_with_a_profile(browser_type, folder, **options):
    """Chromium at a phone's size with a profile kept in `folder`: quit and start again, it remembers
    (cookies, storage, service workers), as a phone's browser does."""
    context = browser_type.launch_persistent_context(str(folder), executable_path=CHROMIUM, args=ARGS,
                                                     viewport=PHONE, is_mobile=True, has_touch=True, **options)
    return guarded(context, options.get('offline', False))


def phone(browser, dark=False, **options):
    """A new context at a phone's size, with every request outside loopback refused and recorded."""
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True,
                                  color_scheme='dark' if dark else 'light', **options)
    context.errors = []        # console errors: a script failing, or the CSP refusing something
    context.on('console', lambda message: message.type == 'error' and context.errors.append(message.text))
    return guarded(context)


def guarded(context, offline=False):
    """The context with every request outside loopback refused (ARGS: Chromium resolves no other
    host) and recorded (context.outside), and a set_offline() that cuts the service worker's network
    too: Playwright's own leaves the worker online, a phone in airplane mode has neither. Requests are
    only watched, not intercepted, while online, so the browser keeps its cache as a phone does. Its
    waits for a page last up to WAIT_MS."""
    context.set_default_timeout(WAIT_MS)
    context.outside = []
    context.offline = False

    def watch(request):
        if not request.url.startswith(LOOPBACK):
            context.outside.append(request.url)
    context.on('request', watch)

    def cut(route):
        route.abort('internetdisconnected') if route.request.service_worker else route.fallback()
    pages_offline = context.set_offline

    def set_offline(offline):
        if offline and not context.offline:
            context.route('**/*', cut)
        elif context.offline and not offline:
            context.unroute('**/*', cut)
        context.offline = offline
        pages_offline(offline)
    context.set_offline = set_offline
    if offline:
        set_offline(True)
    return context


def phone_in(browser, server, language, dark=False, **options):
    """A phone (see phone()) whose person reads `language`: the browser's locale and the app's switcher cookie."""
    context = phone(browser, dark, locale=language, **options)
    context.add_cookies([{'name': 'lang', 'value': language, 'url': server.url}])
    return context


def phone_at(browser, server, language='en', size=SIZES[0]):
    """A phone of this size (width, height) whose person reads `language`, and its first page."""
    context = phone_in(browser, server, language)
    page = context.new_page()
    page.set_viewport_size({'width': size[0], 'height': size[1]})
    return context, page


# The page has settled: its scripts have run (a page the app moved to, not page.goto's, may still be
# loading: the finger guard starts when picker.js runs), the keypad is not settling (its finger guard,
# keypad/guard.js) and no hand's preview is on its way (aria-busy while its penalty is asked, picker.js).
SETTLED = """() => document.readyState === 'complete' && !document.documentElement.dataset.settling
  && !document.querySelector('.preview[aria-busy="true"]')"""


def settled(page):
    """Wait until the page has settled (SETTLED): what a tap set off has been drawn."""
    page.wait_for_function(SETTLED)


def until(page, condition, what):
    """Wait until condition() holds, for what only Python can see (a route held, the service worker's
    caches): asked again every 50 ms while the page runs, up to WAIT_MS, the hang guard."""
    for _ in range(WAIT_MS // 50):
        if condition():
            return
        page.wait_for_timeout(50)
    assert condition(), f'never came: {what}'


def next_task(page):
    """Wait until what the page has queued before now has run (a timer of 0 ms in the page)."""
    page.evaluate('() => new Promise((done) => setTimeout(done, 0))')


# Every control a finger may aim at on the round page and "my hand", as (name, box).
CONTROLS = '''() => [...document.querySelectorAll(
    'form.round-form input:not([type=hidden]), form.hand-form input:not([type=hidden]), .pick, .save-bar button, .picker .key')]
  .filter((c) => c.offsetParent !== null)
  .map((c) => { const r = c.getBoundingClientRect();
    return [c.id || c.closest('fieldset')?.id + ':' + c.className || c.dataset.suit || c.dataset.rank || c.className,
            c.dataset.suit || c.dataset.rank || '', Math.round(r.x * 10) / 10, Math.round(r.y * 10) / 10,
            Math.round(r.width * 10) / 10, Math.round(r.height * 10) / 10]; })'''


# The keypad's keys and their boxes, by name: what a tap must never move (tests/test_steady_keypad.py,
# tests/test_five_crowns_game.py).
KEY_BOXES = '''() => [...document.querySelectorAll('.picker .key')].map((k) => {
  const r = k.getBoundingClientRect();
  return [k.dataset.suit || k.dataset.rank || k.className, r.x, r.y, r.width, r.height];
})'''


def boxes(page):
    """The box of every control shown (CONTROLS), by name."""
    return {f'{name}{extra}': tuple(box) for name, extra, *box in page.evaluate(CONTROLS)}


def moved(before, after):
    """The controls shown both times whose box is not the same."""
    return {k: (before[k], after[k]) for k in before.keys() & after.keys() if before[k] != after[k]}


class Finger:
    """Taps as a person does: aim at the middle of what the selector names (every control's box
    read), land AIM_MS later on that spot, never re-aimed (the boxes read again: none may have
    moved meanwhile); then, once the page has settled (settled()), no control may have moved because
    of the tap. Counts the taps and the controls checked."""

    def __init__(self, page):
        self.page, self.taps, self.checked = page, 0, 0

    def land(self, selector, on_the_way=lambda: None):
        """Aim at the middle of what the selector names and land there AIM_MS later, never re-aimed
        (on_the_way: what to look at just before landing). No check: that is tap()'s."""
        page = self.page
        box = page.locator(selector).bounding_box()
        assert box, f'nothing to aim at: {selector}'
        page.wait_for_timeout(AIM_MS)                     # the finger on its way: the one wait that is a pace
        on_the_way()
        page.touchscreen.tap(box['x'] + box['width'] / 2, box['y'] + box['height'] / 2)
        self.taps += 1

    def tap(self, selector, navigates=False):
        page = self.page
        aimed, landing = boxes(page), {}
        self.land(selector, lambda: landing.update(boxes(page)))
        assert not moved(aimed, landing), f'moved between aim and landing ({selector}): {moved(aimed, landing)}'
        if navigates:                                     # Save, Send: the next page is another page
            return
        settled(page)                                     # the preview, the chips, the next hand
        after = boxes(page)
        assert not moved(landing, after), f'moved by the tap on {selector}: {moved(landing, after)}'
        self.checked += len(landing)

    def cards(self, cards, suit=None):
        """Tap cards on the keypad: a suit key when the suit is not the one chosen, then the rank (or
        the joker). Returns the suit chosen at the end."""
        for card in cards.split() if isinstance(cards, str) else cards:
            if card == 'JK':
                self.tap('.picker button.joker')
                continue
            rank, card_suit = card[:-1], card[-1]
            if card_suit != (suit or chosen_suit(self.page)):
                self.tap(f'.picker button.suit[data-suit="{card_suit}"]')
            suit = card_suit
            self.tap(f'.picker button.rank[data-rank="{rank}"]')
        return suit


def chosen_suit(page):
    """The suit the keypad shows chosen (its key pressed)."""
    return page.locator('.picker button.suit[aria-pressed="true"]').get_attribute('data-suit')


def shot(page, name, full_page=True):
    """Save a screenshot under tests/artifacts/ (the whole page, or what the screen shows)."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f'{name}.png'), full_page=full_page)


def no_horizontal_scroll(page):
    return page.evaluate('document.documentElement.scrollWidth <= document.documentElement.clientWidth')


def table_fits(page):
    """The scoresheet fits its box without scrolling sideways."""
    return page.evaluate('(() => { const w = document.querySelector(".table-wrap"); return w.scrollWidth <= w.clientWidth; })()')


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class Browser:
    """A tiny browser for scripts: a cookie jar, CSRF tokens read from forms, no redirects followed."""

    def __init__(self, base):
        self.base = base
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()), NoRedirect())

    def get(self, path, timeout=PATIENCE):
        with self.opener.open(self.base + path, timeout=timeout) as r:
            return r.status, r.read().decode()

    def post(self, path, fields, timeout=PATIENCE):
        """POST a form; returns (status, location or body)."""
        data = urlencode(fields).encode()
        try:
            with self.opener.open(self.base + path, data=data, timeout=timeout) as r:
                return r.status, r.read().decode()
        except urllib.error.HTTPError as e:
            return e.code, e.headers.get('Location') or e.read().decode()

    @staticmethod
    def token(page):
        return re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)

    def new_game(self, players, **more):
        _, page = self.get('/games/new')
        fields = {'csrf_token': self.token(page), 'first_dealer': '0', 'decks': 'auto', 'game': 'standard',
                  **{f'players-{i}': p for i, p in enumerate(players)}, **more}
        status, location = self.post('/games/new', fields)
        assert status == 302, location
        return location

    def play_rounds(self, game, rounds, players, **how):
        """Save rounds 1..rounds on the game at the path `game`, each posted as its round page posts it
        (tests.helpers.round_forms, given `how`: who went out, what each other seat scores)."""
        for number, form in round_forms(rounds, players, **how):
            _, page = self.get(f'{game}/rounds/{number}')
            assert self.post(f'{game}/rounds/{number}', {**form, 'csrf_token': self.token(page)})[0] == 302


def own_module(name):
    """JavaScript: import() of the page's own copy of static/<name> (under its release's address, as
    the page's scripts import it: the same module, not a second one beside it)."""
    return f"import(new URL('{name}', document.querySelector('link[rel=stylesheet]').href).href)"


def scorers_started(page):
    """The addresses of the phone's Pythons started from now on (its scorer's workers: the one its pages
    share, a SharedWorker, seen through Chromium's own targets; or a page's own, the fallback), as a
    list that grows. A page that talks to a Python already running starts none."""
    started = []
    page.on('worker', lambda worker: started.append(worker.url))
    cdp = page.context.browser.new_browser_cdp_session()
    running = {t['targetId'] for t in cdp.send('Target.getTargets')['targetInfos']}

    def created(event):
        target = event['targetInfo']
        if target['type'] == 'shared_worker' and target['targetId'] not in running:
            started.append(target['url'])
    cdp.on('Target.targetCreated', created)
    cdp.send('Target.setDiscoverTargets', {'discover': True})
    return started


NO_SHARED_WORKER = 'delete window.SharedWorker;'   # an init script: a browser without SharedWorker (each page its own Python)


def axe_violations(page):
    """What axe-core (WCAG 2.1 AA and best practice) finds wrong on the page: [(rule, target, summary)].

    The page's context must bypass the CSP (the script is injected); make it with phone(..., bypass_csp=True).
    """
    if not AXE.exists():
        pytest.fail('axe-core is not installed (make test installs it)')
    page.wait_for_load_state()          # as a person sees it: the browser paints nothing before its stylesheet
    if not page.evaluate('typeof axe !== "undefined"'):
        page.add_script_tag(path=str(AXE))
    result = page.evaluate('tags => axe.run(document, {runOnly: {type: "tag", values: tags}})', AXE_TAGS)
    return [(v['id'], node['target'], node.get('failureSummary', '')[:300])
            for v in result['violations'] for node in v['nodes']]


def tap_cards(page, seat, cards):
    """Enter cards for a seat on the picker as a person does, and count the taps: open the seat's
    picker if it is not open there already, then per card its suit (only when it changes: the
    suit stays chosen) and its rank."""
    player = page.locator(f'#player-{seat}')
    taps = 0
    if player.locator('.pick').get_attribute('aria-expanded') != 'true':
        player.locator('.pick').click()
        taps += 1
    picker = page.locator('.picker')
    for card in cards:
        if card == 'JK':
            picker.locator('button.joker').click()
            taps += 1
            continue
        rank, suit = card[:-1], card[-1]
        key = picker.locator(f'button.suit[data-suit="{suit}"]')
        if key.get_attribute('aria-pressed') != 'true':
            key.click()
            taps += 1
        picker.locator(f'button.rank[data-rank="{rank}"]').click()
        taps += 1
    return taps


def start_game(page, base, players, **settings):
    """Make a game on the new-game form as a person does (seat 1 deals, each setting given chosen
    in its field, the others left alone); returns the sheet's URL."""
    page.goto(base + '/games/new')
    for seat, name in enumerate(players):
        page.locator(f'#players-{seat}').fill(name)
    if settings:
        page.locator('form details > summary').click()                   # House rules: open them
    for key, value in settings.items():
        page.locator(f'#{key}').select_option(str(value))
    page.locator('#first_dealer').select_option('0')
    page.locator('form button.primary').click()
    page.wait_for_url(re.compile(r'/games/(?!new\b)[^/?]+$'))      # posted, or sent by offline.js
    return page.url.split('?')[0]


def form_token(context, url):
    """The CSRF token of the forms on a page, as this phone's browser has it ('' where CSRF is off)."""
    found = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', context.request.get(url).text())
    return found.group(1) if found else ''


def save_round(context, game, number, form):
    """Save round `number` of the game from its form (tests.helpers.round_form) as another phone of
    its scorekeeper's would, with this phone's cookies and CSRF token; it must be saved."""
    url = f'{game}/rounds/{number}'
    r = context.request.post(url, form={**form, 'csrf_token': form_token(context, url)}, max_redirects=0)
    assert r.status == 302, r.text()[:500]


def save_by_points(context, game, number, players=4):
    """Save round `number` as another phone would (save_round): seat 0 went out, every other seat 5
    points (round_forms)."""
    save_round(context, game, number, dict(round_forms(number, players, went_out=0, points=5))[number])


def share_keeping(keeper, other, url, mode='share'):
    """The scorekeeper link made on one phone (share, or handover) and opened on another, as
    handover.js posts it; returns the flash the other phone is shown next."""
    page = keeper.request.post(url + '/keeper-link', form={'csrf_token': form_token(keeper, url), 'mode': mode}).text()
    key = re.search(r'/keeper#([^"]+)"', page).group(1)
    r = other.request.post(url + '/keeper', form={'csrf_token': form_token(other, url + '/keeper'), 'key': key})
    assert r.status == 200 and '/keeper' not in r.url, r.text()[:300]
    return r
