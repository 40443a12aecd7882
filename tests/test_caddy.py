"""HTTPS for real, as deployed: Caddy (Debian's) with its own certificate authority and docs/deploy.md's
site block (web/proxy.py) in front of the installed package's `three-thirteen serve` (`pipx install .`
on a clean clone: tests/installed.py) on loopback, Chromium trusting that authority through its NSS database (as a phone trusts it,
docs/deploy.md), and the journeys a clone gets: a round entered on the keypad by finger, the game kept
for offline play (the service worker registers), a round saved without a network sent when it
returns, and every answer carrying HSTS."""

import os
import shutil
import signal
import subprocess
import urllib.request

import pytest

from scorer.reading import symbols
from tests.browser import ARGS, CHROMIUM, PHONE, WAIT_MS, Finger, expect, settled, shot, start_game
from tests.helpers import LOOSE_RATE_SETTINGS, wait_for
from tests.installed import INSTALL_SECONDS, serve
from tests.server import free_port
from web.proxy import site_body

NAME = 'table.test'          # the table's server, as the phones name it (mapped to loopback for Chromium)


def caddyfile(folder, https, app):
    return f"""{{
	admin off
	storage file_system {folder / 'caddy-data'}
	skip_install_trust
	local_certs
	http_port {free_port()}
	https_port {https}
}}
https://{NAME}:{https} {{
	tls internal
{site_body(f'127.0.0.1:{app}')}
}}
"""


def answers(url):
    try:
        urllib.request.urlopen(url, timeout=1).read()
        return True
    except OSError:
        return False


@pytest.fixture
def behind_caddy(tmp_path, installed):
    """(https URL, server process, Chromium's HOME with Caddy's root in its NSS database), the installed
    command behind Caddy."""
    if not (shutil.which('caddy') and shutil.which('certutil')):
        pytest.fail('caddy and certutil (libnss3-tools) are not installed (make test installs them)')
    app_port, https = free_port(), free_port()
    env = {**LOOSE_RATE_SETTINGS, 'SCORER_DATABASE': str(tmp_path / 'caddy.sqlite'), 'SCORER_PROXIES': '1'}
    server = serve(installed, app_port, env, stdout=subprocess.DEVNULL, stderr=open(tmp_path / 'server.log', 'w'))
    (tmp_path / 'Caddyfile').write_text(caddyfile(tmp_path, https, app_port))
    caddy_home = tmp_path / 'caddy-home'
    caddy_home.mkdir()
    caddy = subprocess.Popen(['caddy', 'run', '--config', str(tmp_path / 'Caddyfile'), '--adapter', 'caddyfile'],
                             env={**os.environ, 'HOME': str(caddy_home), 'XDG_DATA_HOME': str(caddy_home)},
                             start_new_session=True, stdout=subprocess.DEVNULL, stderr=open(tmp_path / 'caddy.log', 'w'))
    try:
        wait_for(lambda: answers(f'http://127.0.0.1:{app_port}/health'), 'three-thirteen serve', timeout=120)
        root = tmp_path / 'caddy-data' / 'pki' / 'authorities' / 'local' / 'root.crt'
        wait_for(root.exists, "Caddy's root certificate")
        home = tmp_path / 'chromium-home'
        nss = home / '.pki' / 'nssdb'
        nss.mkdir(parents=True)
        subprocess.run(['certutil', '-d', f'sql:{nss}', '-N', '--empty-password'], check=True)
        subprocess.run(['certutil', '-d', f'sql:{nss}', '-A', '-t', 'C,,', '-n', 'Caddy Local Authority', '-i', str(root)],
                       check=True)
        yield f'https://{NAME}:{https}', https, home
    finally:
        for process in (caddy, server):
            os.killpg(process.pid, signal.SIGTERM)
            process.wait(timeout=30)


# Round 1: three cards, threes wild. Ana went out; Bruno's and Carla's hands on the keypad.
HANDS = {1: '9H 9D 2C', 2: 'KH QS 4D'}


def enter_round_by_finger(page, sheet):
    """Round 1 on the keypad by finger (the keypad's modules, static/js/keypad/, served by the install)."""
    page.goto(sheet + '/rounds/1')
    expect(page.locator('.picker')).to_be_attached()
    settled(page)
    finger = Finger(page)
    finger.tap('#went_out-0')
    suit = None
    for seat, hand in HANDS.items():
        if page.locator(f'#player-{seat} .pick').get_attribute('aria-expanded') != 'true':
            finger.tap(f'#player-{seat} .pick')
        suit = finger.cards(hand, suit)
        expect(page.locator(f'#entries-{seat}-cards')).to_have_value(symbols(hand))
    settled(page)
    finger.tap('.save-bar button', navigates=True)
    expect(page.get_by_text('Round 1 saved.')).to_be_visible()
    assert finger.taps >= 8


@pytest.mark.slow
@pytest.mark.long(8)
@pytest.mark.timeout(INSTALL_SECONDS)
@pytest.mark.browser
def test_the_installed_app_behind_caddy_a_round_by_finger_then_one_offline(behind_caddy, browser, tmp_path):
    url, port, home = behind_caddy
    # The run's own Playwright (one a thread), a Chromium of its own: HOME's NSS database trusts Caddy's root.
    context = browser.browser_type.launch_persistent_context(
        str(tmp_path / 'profile'), executable_path=CHROMIUM, viewport=PHONE, is_mobile=True, has_touch=True,
        args=[*ARGS, f'--host-resolver-rules=MAP {NAME} 127.0.0.1'], env={**os.environ, 'HOME': str(home)})
    context.set_default_timeout(WAIT_MS)
    offline = {'on': False}
    hsts = []

    def guard(route):                    # airplane mode cuts the service worker's network too
        if offline['on']:
            route.abort('internetdisconnected')
        elif route.request.url.startswith(url):
            route.continue_()
        else:
            route.abort()
    context.route('**/*', guard)
    context.on('response', lambda r: r.url.startswith(url) and hsts.append(r.headers.get('strict-transport-security')))
    try:
        page = context.pages[0] if context.pages else context.new_page()
        sheet = start_game(page, url, ['Ana', 'Bruno', 'Carla'])
        assert page.evaluate('window.isSecureContext') is True
        page.wait_for_function('() => navigator.serviceWorker.controller !== null')
        page.wait_for_function("() => (localStorage.getItem('kept:' + location.pathname.split('/')[2]) || '')"
                               ".includes(':')")
        expect(page.locator('.offline-impossible')).to_be_hidden()
        enter_round_by_finger(page, sheet)
        offline['on'] = True
        context.set_offline(True)
        page.goto(sheet + '/rounds/2')
        page.locator('#went_out-0').check()
        page.locator('#entries-1-points').fill('7')
        page.locator('#entries-2-points').fill('12')
        page.locator('.save-bar button').click()
        expect(page.locator('.offline-line')).to_contain_text('Not sent yet (1)')
        shot(page, 'caddy-offline-round')
        offline['on'] = False
        context.set_offline(False)
        expect(page.locator('.offline-line')).not_to_contain_text('Not sent yet')
        game = sheet.rsplit('/', 1)[1]
        exported = page.evaluate(f"async () => (await fetch('/games/{game}/export.json')).json()")
        assert len(exported['rounds']) == 2, exported                      # the server has both rounds
    finally:
        context.close()
    assert hsts and all(value == 'max-age=31536000' for value in hsts), set(hsts)
