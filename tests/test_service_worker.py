"""The service worker keeps a page under its address with what changes what it shows: a follower who
opened the sheet in English and then in Spanish (?lang=es) finds each, without a network, in the
language it was opened in (it once kept them by path: the last one opened answered for both)."""

import pytest

from tests.helpers import new_game_form, round_form


@pytest.mark.browser
def test_a_followers_pages_are_kept_by_their_full_address(app, browser):
    from tests.browser import expect, phone, shot
    from tests.server import Server
    client = app.test_client()
    path = client.post('/games/new', data=new_game_form(['Ana', 'Bruno'])).headers['Location']
    assert client.post(path + '/rounds/1', data=round_form(0, points=[None, '7'])).status_code == 302
    with Server(app) as server:
        follow(browser, server.url + path, expect, phone, shot)


def follow(browser, served, expect, phone, shot):
    """A follower's phone: the sheet in English, then in Spanish, then both again with no network."""
    context = phone(browser)
    try:
        page = context.new_page()
        page.goto(served)
        page.wait_for_function('() => navigator.serviceWorker.controller !== null')
        page.goto(served)                                              # through the worker: kept
        expect(page.locator('html')).to_have_attribute('lang', 'en')
        page.goto(served + '?lang=es')                                 # the same sheet in Spanish: kept beside it
        expect(page.locator('html')).to_have_attribute('lang', 'es')
        page.goto(served + '/tv')
        context.set_offline(True)
        page.goto(served)
        expect(page.locator('html')).to_have_attribute('lang', 'en')
        expect(page.get_by_text('Standings').first).to_be_visible()
        page.goto(served + '?lang=es')
        expect(page.locator('html')).to_have_attribute('lang', 'es')
        expect(page.get_by_text('Clasificación').first).to_be_visible()
        page.goto(served + '?lang=es&saved=1')                         # what only says what happened: the same page
        expect(page.locator('html')).to_have_attribute('lang', 'es')
        shot(page, 'offline-follower-sheet-es')
    finally:
        context.close()
