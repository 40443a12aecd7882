"""What a real deployment meets: HTTPS (directly or behind a reverse proxy), cookies that stay
on this site, redirects that stay on this site, downloads named in any script, slow clients."""

import threading
import urllib.parse
import urllib.request

import pytest

from app import create_app
from tests.browser import expect, phone, shot
from tests.deployment import slow_client
from tests.helpers import PATIENCE, new_game_form
from tests.server import Gunicorn



@pytest.mark.slow
def test_over_https_a_game_is_made_and_a_round_saved_in_chromium(browser, tmp_path, certificate):
    server = Gunicorn(tmp_path / 'https.sqlite', certfile=certificate[0], keyfile=certificate[1]).start()
    context = phone(browser, ignore_https_errors=True)
    try:
        page = context.new_page()
        page.goto(server.url + '/games/new')
        page.get_by_label('Seat 1').fill('Ana')
        page.get_by_label('Seat 2').fill('Bruno')
        page.get_by_label('First dealer').select_option('0')
        page.get_by_role('button', name='Start the game').click()
        expect(page.get_by_text('Game created.')).to_be_visible()
        page.get_by_role('link', name='Enter round 1').click()
        page.locator('#went_out-0').check()
        page.get_by_label('Cards left').nth(1).fill('KS QD 2C')
        page.get_by_role('button', name='Save round 1').click()
        expect(page.get_by_text('Round 1 saved.')).to_be_visible()
        shot(page, 'https-round-saved')
        cookies = {c['name']: c for c in context.cookies()}
        keeper = cookies['__Host-browser']                     # only this host, over HTTPS, can set it
        for cookie in (keeper, cookies['session']):
            assert cookie['secure'] and cookie['httpOnly'] and cookie['sameSite'] == 'Lax', cookie
        # Chromium will not register a service worker from a self-signed certificate (it says so in one
        # of two ways, by timing); nothing else may fail.
        refused = ('SSL certificate', 'An unknown error occurred when fetching the script')
        assert context.outside == [] and [e for e in context.errors if not any(r in e for r in refused)] == []
    finally:
        context.close()
        server.stop()


def test_behind_a_reverse_proxy_cookies_are_secure_only_when_configured(tmp_path):
    headers = {'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'scores.example'}
    for proxies, secure in ((1, True), (0, False)):
        app = create_app({'TESTING': True, 'DATABASE': str(tmp_path / f'p{proxies}.sqlite'), 'SECRET_KEY': 't',
                          'WTF_CSRF_ENABLED': False, 'PROXIES': proxies})
        client = app.test_client()
        r = client.post('/games/new', data=new_game_form(['Ana', 'Bruno']), headers=headers)
        cookies = r.headers.getlist('Set-Cookie')
        assert cookies and all(('; Secure' in c) is secure for c in cookies), cookies
        assert all('HttpOnly' in c and 'SameSite=Lax' in c for c in cookies)
        # The share link says where phones reach the game; a forged X-Forwarded-Host changes nothing
        # unless a proxy is configured.
        page = client.get(r.headers['Location'], headers=headers).get_data(as_text=True)
        assert ('https://scores.example/games/' in page) is secure


def test_the_referrer_stays_on_this_site(client):
    assert client.get('/').headers['Referrer-Policy'] == 'same-origin'


@pytest.mark.parametrize('target', ['/%09/evil.example', '//evil.example', '/\\evil.example', 'https://evil.example',
                                    '/%0d%0aSet-Cookie:x=1', '/\x00', 'javascript:alert(1)', '/%5Cevil.example'])
def test_the_language_switcher_never_leaves_the_site(client, target):
    r = client.get('/language/es', query_string={'next': urllib.parse.unquote(target)})
    assert r.status_code == 302 and r.headers['Location'] == '/'
    assert '\r' not in r.headers['Location'] and '\n' not in r.headers['Location']


def test_the_language_switcher_goes_back_to_the_page(client):
    r = client.get('/language/pt', query_string={'next': '/audit?cards=7H&wild=3'})
    assert r.headers['Location'] == '/audit?cards=7H&wild=3'


@pytest.mark.parametrize('title', ['日本語', 'Ωmega', '①②', 'Café "Zoë"; x=1', '\u202eevil'])
def test_exports_work_for_any_title(client, title):
    r = client.post('/games/new', data={**new_game_form(['Ana', 'Bruno']), 'title': title, 'today': '2026-11-29'})
    url = r.headers['Location']
    for ext in ('json', 'csv'):
        r = client.get(f'{url}/export.{ext}')
        header = r.headers['Content-Disposition']
        assert r.status_code == 200 and header.isascii() and '\n' not in header
        assert 'filename=' in header and '2026-11-29' in header


@pytest.mark.slow
def test_exports_with_a_title_in_any_script_arrive_through_gunicorn(tmp_path):
    from tests.browser import Browser
    server = Gunicorn(tmp_path / 'names.sqlite').start()
    try:
        browser = Browser(server.url)
        game = browser.new_game(['Ana', 'Bruno'], title='日本語 Ωmega')
        with browser.opener.open(server.url + game + '/export.csv', timeout=PATIENCE) as r:
            assert r.status == 200
            assert "filename*=UTF-8''%E6%97%A5%E6%9C%AC%E8%AA%9E" in r.headers['Content-Disposition']
    finally:
        server.stop()


@pytest.mark.slow
def test_slow_clients_do_not_block_anyone_else(tmp_path):
    server = Gunicorn(tmp_path / 'slow.sqlite').start()
    stop = threading.Event()
    connected = [threading.Event() for _ in range(10)]
    slow = [threading.Thread(target=slow_client, args=(server.port, stop, c), daemon=True) for c in connected]
    try:
        for t in slow:
            t.start()
        assert all(c.wait(PATIENCE) for c in connected)
        for _ in range(5):          # a bystander is served while every slow client holds its connection
            with urllib.request.urlopen(server.url + '/', timeout=PATIENCE) as r:
                assert r.status == 200
    finally:
        stop.set()
        server.stop()
