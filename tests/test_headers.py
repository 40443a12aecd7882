"""The headers decided in one place (web/headers.py): every response that is one browser's own
(a scorekeeper's page or JSON, a seat's page, the pages that list what a browser keeps) is sent
no-store and Vary: Cookie; HSTS over HTTPS, its max-age a setting; forwarded headers trusted only
as SCORER_PROXIES says, by gunicorn too."""

import urllib.request

import pytest

from app import create_app
from tests.helpers import PATIENCE, round_form
from tests.server import Gunicorn


def personal(response):
    return response.headers.get('Cache-Control') == 'no-store' and 'Cookie' in response.headers.get('Vary', '')


def test_every_response_that_is_one_browsers_own_is_kept_by_no_cache(app, client, make_game):
    url = make_game(('Ana', 'Bruno', 'Carla'))
    client.post(url + '/rounds/1', data=round_form(0, points=[None, '4', '5']))
    seated = app.test_client()
    seated.post(url + '/seats/2')
    mine = {
        'the offline game (JSON)': client.get(url + '/offline.json'),
        "a round's drafts (JSON)": client.get(url + '/rounds/2/drafts'),
        "the scorekeeper's sheet": client.get(url),
        "the scorekeeper's live part": client.get(url + '/live'),
        'a round page': client.get(url + '/rounds/2'),
        'the list of games': client.get('/'),
        'the history': client.get('/history'),
        'the stats': client.get('/stats'),
        'the new-game page (it lists the names played)': client.get('/games/new'),
        "a seated player's hand": seated.get(url + '/hand'),
        "a seated player's sheet": seated.get(url),
    }
    assert {what: r.status_code for what, r in mine.items()} == {what: 200 for what in mine}
    assert [what for what, r in mine.items() if not personal(r)] == []
    follower = app.test_client()
    follower.get(url)                   # its first view sets its cookies: kept by no cache (the test below)
    for path in (url, url + '/live', url + '/tv', url + '/export.json', '/audit?cards=7H+8H+9H&wild=5'):
        assert 'no-store' not in follower.get(path).headers.get('Cache-Control', ''), path


def test_hsts_over_https_only_its_max_age_a_setting(tmp_path):
    app = create_app({'TESTING': True, 'DATABASE': str(tmp_path / 'h.sqlite'), 'SECRET_KEY': 't',
                      'HSTS_SECONDS': 86400})
    client = app.test_client()
    assert client.get('/', base_url='https://scores.example').headers['Strict-Transport-Security'] == 'max-age=86400'
    assert 'Strict-Transport-Security' not in client.get('/').headers


@pytest.mark.slow
def test_gunicorn_serving_https_sends_hsts(tmp_path, certificate):
    import ssl
    server = Gunicorn(tmp_path / 'tls.sqlite', certfile=certificate[0], keyfile=certificate[1]).start()
    try:
        with urllib.request.urlopen(server.url + '/', context=ssl._create_unverified_context(), timeout=PATIENCE) as r:
            assert r.headers['Strict-Transport-Security'] == 'max-age=31536000'
    finally:
        server.stop()


@pytest.mark.slow
@pytest.mark.parametrize('proxies', [0, 1])
def test_forwarded_headers_are_trusted_only_as_scorer_proxies_says(tmp_path, proxies):
    """A client on 127.0.0.1 says it came over HTTPS: without SCORER_PROXIES nothing believes it
    (gunicorn trusted such headers from 127.0.0.1 by default)."""
    server = Gunicorn(tmp_path / 'fwd.sqlite', env={'SCORER_PROXIES': str(proxies)}).start()
    try:
        forged = {'X-Forwarded-Proto': 'https', 'X-Forwarded-Ssl': 'on', 'X-Forwarded-Protocol': 'ssl'}
        request = urllib.request.Request(server.url + '/games/new', headers=forged)
        with urllib.request.urlopen(request, timeout=PATIENCE) as r:
            assert ('Strict-Transport-Security' in r.headers) == bool(proxies)
            cookies = r.headers.get_all('Set-Cookie')                  # the session, for the form's token
        assert cookies and all(('; Secure' in c) == bool(proxies) for c in cookies), cookies
    finally:
        server.stop()


@pytest.mark.parametrize('forwarded', ['', '198.51.100.7', '10.0.0.1, 198.51.100.7', ' 203.0.113.9 ,198.51.100.7 ',
                                       'garbage, 198.51.100.7, 192.0.2.1'])
@pytest.mark.parametrize('proxies', [1, 2])
def test_the_worker_reads_the_forwarded_client_as_the_app_does(forwarded, proxies):
    """web/worker.py counts a client's requests behind a proxy by web/clients.forwarded_client, before
    the app sees them: the same address that the app's ProxyFix makes remote_addr."""
    from werkzeug.middleware.proxy_fix import ProxyFix
    from werkzeug.test import EnvironBuilder
    from web.clients import forwarded_client
    seen = {}

    def app(environ, start_response):
        seen['addr'] = environ['REMOTE_ADDR']
        start_response('200 OK', [])
        return [b'']
    environ = EnvironBuilder(headers={'X-Forwarded-For': forwarded} if forwarded else {},
                             environ_base={'REMOTE_ADDR': '127.0.0.1'}).get_environ()
    ProxyFix(app, x_for=proxies)(environ, lambda *a: None)
    assert forwarded_client(forwarded, proxies, '127.0.0.1') == seen['addr']


def test_a_response_that_sets_a_cookie_is_kept_by_no_cache(app, client, make_game):
    """A follower's first view of a sheet sets its browser token and session: a shared cache must not
    keep that answer and hand the token on to the next phone, whatever the page."""
    url = make_game(('Ana', 'Bruno'))
    follower = app.test_client()
    r = follower.get(url)
    assert r.status_code == 200 and r.headers.getlist('Set-Cookie')
    assert r.headers['Cache-Control'] == 'no-store' and 'Cookie' in r.headers.get('Vary', '')
