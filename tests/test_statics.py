"""The static files under their release's address (web/statics.py): kept a year by the browser, so a
page view is one request; a new file is a new address; an old address still gets today's file."""

import re
import shutil
from pathlib import Path

import pytest

from web import statics

STATIC = Path(__file__).resolve().parent.parent / 'static'
RELEASED = re.compile(r'/static/([0-9a-f]{12})/')


def page_statics(client, url):
    """The addresses of the stylesheet, scripts and icons a page names."""
    html = client.get(url).get_data(as_text=True)
    return re.findall(r'(?:href|src)="(/static/[^"]+)"', html)


def test_a_page_names_its_static_files_under_one_release_kept_a_year(client, make_game):
    game = make_game()
    found = page_statics(client, '/') + page_statics(client, game) + page_statics(client, game + '/rounds/1')
    assert any(url.endswith('/style.css') for url in found) and any(url.endswith('/js/app.js') for url in found)
    releases = {RELEASED.match(url).group(1) for url in found}
    assert releases == {statics.release(STATIC)}, found
    for url in set(found):
        response = client.get(url)
        assert response.status_code == 200, url
        assert response.headers['Cache-Control'] == statics.IMMUTABLE, url
        again = client.get(url, headers={'If-None-Match': response.headers['ETag']})
        assert again.status_code == 304 and again.headers['Cache-Control'] == statics.IMMUTABLE


def test_the_release_is_the_files_own(tmp_path):
    """The same files give the same release (every process of every server alike); a file changed,
    added or renamed gives another."""
    folder = tmp_path / 'static'
    shutil.copytree(STATIC, folder)
    first = statics.release(folder)
    assert first == statics.release(STATIC) and re.fullmatch('[0-9a-f]{12}', first)
    style = folder / 'style.css'
    style.write_text(style.read_text() + '\n/* one more line */\n')
    changed = statics.release(folder)
    assert changed != first
    (folder / 'js' / 'new.js').write_text('export {};\n')
    added = statics.release(folder)
    assert added not in (first, changed)
    (folder / 'js' / 'new.js').rename(folder / 'js' / 'other.js')
    assert statics.release(folder) not in (first, changed, added)


@pytest.mark.parametrize('address', ['/static/js/app.js', '/static/0123456789ab/js/app.js'])
def test_another_release_or_none_gets_todays_file_asked_again_each_time(client, address):
    today = client.get(f'/static/{statics.release(STATIC)}/js/app.js')
    response = client.get(address)
    assert response.status_code == 200
    assert response.get_data() == today.get_data() == (STATIC / 'js' / 'app.js').read_bytes()
    assert response.headers['Cache-Control'] == 'no-cache'


@pytest.mark.parametrize('address', ['/static/../app.py', '/static/0123456789ab/../../app.py', '/static/nope.js',
                                     '/static/0123456789ab/nope.js', '/static/%2e%2e/app.py'])
def test_no_address_reaches_outside_the_static_files(client, address):
    assert client.get(address).status_code == 404


def test_the_manifests_icons_are_under_the_release(client):
    icons = client.get('/manifest.webmanifest').get_json()['icons']
    assert [icon['sizes'] for icon in icons] == ['192x192', '512x512']
    for icon in icons:
        assert RELEASED.match(icon['src']), icon
        assert client.get(icon['src']).headers['Content-Type'] == 'image/png'


def test_a_page_view_is_one_request_once_its_files_are_kept(browser, server):
    """A phone that has seen one page asks the server for the next page alone: no stylesheet,
    script or module asked again (each was a round trip on a phone, import after import)."""
    from tests.browser import phone
    asked = []
    app = server.app.wsgi_app
    server.app.wsgi_app = lambda environ, start: (asked.append(environ['PATH_INFO']), app(environ, start))[1]
    context = phone(browser)
    page = context.new_page()
    try:
        page.goto(server.url + '/audit')                 # the keypad's page: the most modules
        page.goto(server.url + '/games/new')
        page.wait_for_load_state('load')
        assert any(path.startswith('/static/') for path in asked)
        asked.clear()
        for path in ('/audit', '/games/new', '/'):
            page.goto(server.url + path)
            page.wait_for_load_state('load')
        assert [path for path in asked if path.startswith('/static/')] == [], asked
        assert {'/audit', '/games/new', '/'} <= set(asked)
    finally:
        server.app.wsgi_app = app
        context.close()
