"""Every page passes axe-core (WCAG 2.1 AA and best practice) at a phone's size, light and dark,
in each language."""

import pytest

from tests.browser import axe_violations, phone_in
from tests.helpers import LANGUAGES

sync_api = pytest.importorskip('playwright.sync_api')
expect = sync_api.expect


def submit(page, button):
    """Tap a form's button and wait for the page it posts to, loaded: its stylesheet applied. Before
    that, the page is parsed but unstyled, and axe would read the browser's own colours (in dark
    mode its link blue, #9e9eff, on the white it assumes behind a page without a background); no
    person sees that page, as the browser paints nothing until the stylesheet in its head is in."""
    with page.expect_navigation():
        page.locator(button).click()


def pages_of_a_game(page, base):
    """Play a little through the app, yielding (name, url) of every kind of page on the way."""
    yield 'index', base + '/'
    page.goto(base + '/games/new')
    yield 'new game', base + '/games/new'
    submit(page, 'form button.primary')               # nobody named: the form says why
    yield 'new game with errors', None
    page.locator('#players-0').fill('Ana')
    page.locator('#players-1').fill('Bruno')
    page.locator('#players-2').fill('أحمد')
    page.locator('#first_dealer').select_option('0')
    submit(page, 'form button.primary')
    game = page.url.split('?')[0]
    yield 'sheet', game
    yield 'round', game + '/rounds/1'
    page.goto(game + '/rounds/1')
    page.locator('#went_out-0').check()
    page.locator('#entries-1-cards').fill('KS 1X')
    page.locator('#entries-2-points').fill('lots')
    submit(page, 'button.primary[type=submit]')
    yield 'round with errors', None
    page.locator('#entries-1-cards').fill('KS QD 2C')
    page.locator('#entries-2-points').fill('7')
    submit(page, 'button.primary[type=submit]')
    yield 'round saved', None
    yield 'sheet after a round', game
    yield 'audit', base + '/audit?cards=4H+5H+6H+7C+QS+9D&wild=3&claim=43&melds=4H+5H+7C'
    yield 'audit go out', base + '/audit?cards=4H+5H+6H+9C&round=1'
    yield 'audit empty', base + '/audit'
    yield 'print', game + '/print'
    yield 'history', base + '/history'
    yield 'stats', base + '/stats'
    page.goto(base + '/tables/new')
    yield 'new table', base + '/tables/new'
    submit(page, 'form button.primary')               # no name: the form says why
    yield 'new table with errors', None
    page.locator('#name').fill('Club de los jueves')
    submit(page, 'form button.primary')
    table = page.url.split('?')[0]
    yield 'table', table                              # its standings and chart: test_table_journey.py
    yield 'table big screen', table + '/tv'
    yield 'table print', table + '/print'
    yield 'table keeper link', table + '/keeper'
    yield 'delete', game + '/delete'
    yield 'keeper handover', game + '/keeper'
    yield 'not found', base + '/games/nope'


# Every page in each language, light; and in dark, which changes colours only (static/style.css), in
# English: the contrast of each colour is the same whatever the words. Dark is the same page seen
# again with the phone's setting switched (as a person switches it), not a second walk through the app.
DARK_TOO = 'en'


@pytest.mark.parametrize('language', LANGUAGES)
@pytest.mark.long
def test_every_page_passes_axe(browser, server, language):
    context = phone_in(browser, server, language, bypass_csp=True)
    page = context.new_page()
    found = {}
    try:
        walk = pages_of_a_game(page, server.url)
        for name, url in walk:
            if url:
                page.goto(url)
            for dark in (False, True) if language == DARK_TOO else (False,):
                page.emulate_media(color_scheme='dark' if dark else 'light')
                problems = axe_violations(page)
                if problems:
                    found[f"{name} ({'dark' if dark else 'light'})"] = problems
            page.emulate_media(color_scheme='light')
    finally:
        context.close()
    assert found == {}, '\n'.join(f'{name}: {rule} at {target}: {why}' for name, problems in found.items()
                                   for rule, target, why in problems)
