"""Sharing: the scorekeeper's edit key, read-only viewers, the live sheet's ETag, the QR code, installability."""

import logging
import re

import pytest

from tests.helpers import hand_over, keeper_key, round_form


def viewer_of(app):
    return app.test_client()           # a fresh browser: no edit key


def test_creator_keeps_score_and_sees_the_share_links(client, make_game):
    url = make_game(('Ana', 'Bruno'))
    page = client.get(url).get_data(as_text=True)
    assert 'Enter round 1' in page
    assert '<svg' in page and 'class="qr"' in page                      # the QR code, drawn on the server
    assert 'Scorekeeper link (private)' in page
    assert 'This address only works on this computer' in page           # the test client is on localhost
    game_id = url.rsplit('/', 1)[1]
    assert len(game_id) >= 16
    cookie = client.get_cookie('browser')                              # one cookie for every game it keeps
    assert cookie.http_only and len(cookie.value) >= 32 and game_id not in cookie.value


def test_the_advice_on_this_computers_address_is_true_of_the_server_it_runs_on(client, make_game):
    """Issue 48 (10): on 127.0.0.1 the share box says how other phones reach the server: the
    development server (make run) is started with HOST=0.0.0.0; gunicorn (three-thirteen serve)
    listens on SCORER_BIND, 0.0.0.0:8000 unless told otherwise, so it needs no restart with make;
    the example address has the port the page came on."""
    url = make_game(('Ana', 'Bruno'))
    dev = client.get(url, environ_overrides={'HTTP_HOST': 'localhost:5000'}).get_data(as_text=True)
    assert 'HOST=0.0.0.0 make run' in dev and 'http://192.168.1.20:5000' in dev
    served = client.get(url,
                        environ_overrides={'HTTP_HOST': 'localhost:8000', 'SERVER_SOFTWARE': 'gunicorn/23.0.0'}).get_data(as_text=True)
    assert 'This address only works on this computer' in served and 'make run' not in served
    assert 'SCORER_BIND' in served and 'http://192.168.1.20:8000' in served


def test_a_finished_game_shows_no_seats_and_no_qr_code(client, make_game):
    """Issue 48 (8): once the last round is saved there is no hand to enter and no game to follow
    live: the scorekeeper's sheet drops the seats panel and the QR code (the rematch, the result
    to share and the scorekeeper's link stay)."""
    from tests.helpers import play_rounds
    url = make_game(('Ana', 'Bruno'))
    playing = client.get(url).get_data(as_text=True)
    assert 'class="qr"' in playing and 'class="seats"' in playing
    play_rounds(client, url, 11, 2)
    over = client.get(url).get_data(as_text=True)
    assert 'Rematch' in over and 'Scorekeeper link (private)' in over
    assert 'class="qr"' not in over and 'class="seats"' not in over


def test_viewers_read_but_never_edit(app, client, make_game):
    url = make_game(('Ana', 'Bruno'))
    client.post(url + '/rounds/1', data=round_form(0, points=[None, '9']))
    viewer = viewer_of(app)
    page = viewer.get(url).get_data(as_text=True)
    assert 'following this game live' in page
    assert 'Enter round' not in page and '/rounds/' not in page and 'Scorekeeper link' not in page
    assert viewer.get(url + '/rounds/1').status_code == 403
    assert viewer.get(url + '/rounds/2').status_code == 403
    r = viewer.post(url + '/rounds/1', data=round_form(1, points=['50']))
    assert r.status_code == 403 and 'Only the scorekeeper can edit' in r.get_data(as_text=True)
    assert client.get(url + '/export.json').get_json()['sheet']['totals'] == {'Ana': 0, 'Bruno': 9}
    assert viewer.get('/').get_data(as_text=True).count('<li><a href="/games/') == 0    # not listed to others


def test_scorekeeper_link_hands_over_editing(app, client, make_game):
    url = make_game(('Ana', 'Bruno'))
    other = viewer_of(app)
    assert other.get(url + '/keeper').status_code == 200                 # the page the link opens
    assert other.post(url + '/keeper', data={'key': 'wrong'}).status_code == 403
    assert other.get(url + '/rounds/1').status_code == 403
    r = hand_over(client, other, url)
    assert r.status_code == 302
    assert other.get(url + '/rounds/1').status_code == 200
    stale = keeper_key(client, url)                                       # a new link: the first stops working
    fresh = keeper_key(client, url)
    late = app.test_client()
    assert late.post(url + '/keeper', data={'key': stale}).status_code == 403
    assert late.post(url + '/keeper', data={'key': fresh}).status_code == 302


def test_live_sheet_answers_304_until_a_save(client, make_game):
    url = make_game(('Ana', 'Bruno'))
    first = client.get(url + '/live')
    etag = first.headers['ETag']
    assert first.status_code == 200 and 'Round 1' in first.get_data(as_text=True)
    again = client.get(url + '/live', headers={'If-None-Match': etag})
    assert again.status_code == 304 and again.get_data() == b''
    client.post(url + '/rounds/1', data=round_form(0, points=[None, '9']))
    changed = client.get(url + '/live', headers={'If-None-Match': etag})
    assert changed.status_code == 200 and changed.headers['ETag'] != etag
    assert 'Round 2' in changed.get_data(as_text=True)
    assert client.get('/games/nope/live').status_code == 404


def test_viewer_live_has_no_edit_links(app, client, make_game):
    url = make_game(('Ana', 'Bruno'))
    client.post(url + '/rounds/1', data=round_form(0, points=[None, '9']))
    body = viewer_of(app).get(url + '/live').get_data(as_text=True)
    assert '/rounds/' not in body and 'Round 2' in body and '<bdi>Bruno</bdi> deals' in body


def test_app_is_installable(client):
    assert 'href="/manifest.webmanifest"' in client.get('/').get_data(as_text=True)
    manifest = client.get('/manifest.webmanifest').get_json(force=True)
    assert manifest['display'] == 'standalone' and manifest['name'] == 'Three-Thirteen scorekeeper'
    sizes = {icon['sizes'] for icon in manifest['icons']}
    assert sizes == {'192x192', '512x512'}
    for icon in manifest['icons']:
        png = client.get(icon['src']).get_data()
        assert png.startswith(b'\x89PNG')
    sw = client.get('/sw.js')
    assert sw.status_code == 200 and 'javascript' in sw.headers['Content-Type']


@pytest.mark.parametrize('language, name, tag', [('es', 'Anotador de Three-Thirteen', 'es'),
                                                 ('pt', 'Marcador de Three-Thirteen', 'pt-BR')])
def test_the_installed_app_is_named_in_the_pages_language(client, language, name, tag):
    """The scorekeeper's word of the glossary (anotador, marcador), and the language's tag."""
    manifest = client.get(f'/manifest.webmanifest?lang={language}').get_json(force=True)
    assert manifest['name'] == name and manifest['lang'] == tag and 'Three-Thirteen' in manifest['description']


def test_pages_load_nothing_from_outside(client, make_game):
    url = make_game(('Ana', 'Bruno'))
    for path in ('/', '/games/new', url, url + '/rounds/1'):
        page = client.get(path).get_data(as_text=True)
        assert not re.search(r'(src|href)="(https?:)?//', page.replace('http://localhost/games/', '')), path


def test_the_edit_key_never_appears_in_a_request_line(browser, server, caplog):
    """The scorekeeper link hands editing to another phone, and no access log ever holds the key."""
    sync_api = pytest.importorskip('playwright.sync_api')
    from tests.browser import phone, start_game
    caplog.set_level(logging.INFO, logger='werkzeug')
    keeper, other = phone(browser), phone(browser)
    try:
        page = keeper.new_page()
        start_game(page, server.url, ['Ana', 'Bruno'])
        page.locator('#keeper-link summary').click()
        page.get_by_role('button', name='Make a scorekeeper link').click()
        link = page.locator('.share details .link a').get_attribute('href')
        key = link.split('#', 1)[1]
        assert len(key) >= 24 and '/keeper#' in link
        phone_two = other.new_page()
        phone_two.goto(link.replace('http://localhost', server.url))
        sync_api.expect(phone_two.get_by_text('This phone keeps score of this game now.')).to_be_visible()
        sync_api.expect(phone_two.get_by_role('link', name='Enter round 1')).to_be_visible()
        assert '#' not in phone_two.url
    finally:
        keeper.close()
        other.close()
    requests = [r.getMessage() for r in caplog.records if r.name == 'werkzeug']
    assert any('POST /games/' in line and '/keeper' in line for line in requests)
    assert not any(key in line for line in requests)


def test_a_follower_is_told_when_the_server_is_gone_and_when_the_game_is_deleted(browser, server):
    sync_api = pytest.importorskip('playwright.sync_api')
    from tests.browser import phone, shot, start_game
    keeper, follower = phone(browser), phone(browser)
    try:
        page = keeper.new_page()
        game = start_game(page, server.url, ['Ana', 'Bruno'])
        watcher = follower.new_page()
        watcher.goto(game)
        status = watcher.locator('#live-status')
        sync_api.expect(status).to_be_hidden()
        sheet = watcher.locator('.table-wrap')
        where = sheet.bounding_box()
        follower.set_offline(True)
        sync_api.expect(status).to_have_text(re.compile(r'^Reconnecting… the sheet below is as it was at \d\d:\d\d( [AP]M)?\.$'))
        assert sheet.bounding_box() == where            # the sign lies over the page: nothing under a finger moves
        shot(watcher, 'follower-reconnecting')
        follower.set_offline(False)
        sync_api.expect(status).to_be_hidden()
        page.goto(game + '/delete')
        page.locator('main form button').click()
        sync_api.expect(status).to_have_text('This game was deleted.')
    finally:
        keeper.close()
        follower.close()


def test_the_store_keeps_edit_keys_only_as_hashes(app, client, make_game):
    import sqlite3
    url = make_game(('Ana', 'Bruno'))
    key = keeper_key(client, url)
    with sqlite3.connect(app.config['DATABASE']) as db:
        dump = '\n'.join(db.iterdump())
    assert key not in dump


SHARE_SHEET = '''
    navigator.canShare = (data) => Boolean(data && data.files && data.files.length);
    navigator.share = async (data) => { window.sharedPicture = data.files[0].size; };
'''


def test_a_phone_that_can_share_gets_the_share_sheet_and_no_download(browser, server):
    """The picture goes through the share sheet alone: the link's download is stopped before anything
    is awaited (it was stopped too late, so such a phone got both)."""
    from tests.browser import expect, phone, start_game
    context = phone(browser)
    try:
        context.add_init_script(SHARE_SHEET)
        page = context.new_page()
        start_game(page, server.url, ['Ana', 'Bruno'])
        downloads = []
        page.on('download', lambda d: downloads.append(d))
        page.get_by_role('link', name='Share the result').click()
        page.wait_for_function('() => window.sharedPicture > 1000')
        expect(page.get_by_role('link', name='Share the result')).to_be_visible()
        assert downloads == []
    finally:
        context.close()


@pytest.mark.parametrize('dark', [False, True])
def test_a_phone_that_cannot_share_downloads_the_picture_light_or_dark_as_the_page(browser, server, dark):
    from tests.browser import phone, start_game
    context = phone(browser, dark=dark)
    try:
        page = context.new_page()
        start_game(page, server.url, ['Ana', 'Bruno'])
        page.wait_for_load_state('load')             # share.js has run (a tap before it gets the light picture)
        with page.expect_download() as download:
            page.get_by_role('link', name='Share the result').click()
        assert download.value.suggested_filename.endswith('.png')
        assert ('theme=dark' if dark else 'theme=light') in download.value.url
    finally:
        context.close()
