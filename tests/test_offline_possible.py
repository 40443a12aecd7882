"""The scorekeeper's sheet says, in one line in the page's language, when offline play is not possible
there (the page is not a secure context: plain HTTP on a table's LAN address), with a link to how."""

import pytest

from tests.browser import ARGS, CHROMIUM, PHONE, WAIT_MS, axe_violations, expect, next_task, shot, start_game


@pytest.fixture
def lan_browser(browser):
    """Chromium that finds the table's server at http://table.test (a LAN name, not this computer's),
    launched by the run's own Playwright (one a thread)."""
    lan = browser.browser_type.launch(executable_path=CHROMIUM, args=[*ARGS, '--host-resolver-rules=MAP table.test 127.0.0.1'])
    yield lan
    lan.close()


@pytest.mark.browser
def test_the_sheet_says_when_offline_play_is_not_possible(app, lan_browser):
    from tests.server import Server
    with Server(app) as server:
        port = server.url.rsplit(':', 1)[1]
        context = lan_browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, locale='es', bypass_csp=True)
        context.set_default_timeout(WAIT_MS)
        try:
            page = context.new_page()
            sheet = start_game(page, f'http://table.test:{port}', ['Ana', 'Bruno'])
            assert page.evaluate('window.isSecureContext') is False
            line = page.locator('.offline-impossible')
            expect(line).to_be_visible()
            expect(line).to_have_text('En esta dirección no se puede jugar sin conexión: hace falta HTTPS. '
                                      'Cómo jugar sin conexión')
            below = page.locator('#live').bounding_box()
            page.wait_for_function("() => document.readyState === 'complete'")   # every script has run
            next_task(page)
            assert page.locator('#live').bounding_box() == below                 # shown as the page was drawn
            shot(page, 'offline-not-possible-es')
            assert axe_violations(page) == []
            page.goto(sheet + '/rounds/1')                                        # the round's page says it too
            expect(page.locator('.offline-impossible')).to_be_visible()
            page.goto(sheet)
            page.get_by_role('link', name='Cómo jugar sin conexión').click()
            expect(page.get_by_role('heading', name='Cómo jugar sin conexión')).to_be_visible()
            expect(page.get_by_text('docs/deploy.md')).to_be_visible()
            assert axe_violations(page) == []
        finally:
            context.close()
        context = lan_browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
        context.set_default_timeout(WAIT_MS)
        try:                                                                      # this very computer: possible
            page = context.new_page()
            start_game(page, server.url, ['Ana', 'Bruno'])
            assert page.evaluate('window.isSecureContext') is True
            expect(page.locator('.offline-impossible')).to_be_hidden()
            page.wait_for_function('() => navigator.serviceWorker.controller !== null')
            expect(page.locator('.offline-impossible')).to_be_hidden()
        finally:
            context.close()
