"""Every page fits a 360 px phone in English, Spanish and Portuguese: no sideways scroll, the
header on one line, no select or key whose words are cut."""

import pytest

from tests.browser import no_horizontal_scroll, phone, phone_in, shot, table_fits, tap_cards
from tests.helpers import LANGUAGES

sync_api = pytest.importorskip('playwright.sync_api')

CUT_SELECTS = '''() => {
  const ctx = document.createElement('canvas').getContext('2d');
  return [...document.querySelectorAll('select')].filter((s) => {
    ctx.font = getComputedStyle(s).font;
    return [...s.options].some((o) => ctx.measureText(o.text).width > s.clientWidth - 34);
  }).map((s) => s.id);
}'''
SPILLING_KEYS = '''() => [...document.querySelectorAll('.key, .button, button')].filter((k) =>
  k.offsetParent !== null && (k.scrollWidth > k.clientWidth + 1)).map((k) => k.textContent.trim())'''

# The cards field's width over its keypad button's ("Escolher cartas"): the field the wider.
FIELD_BESIDE_BUTTON = '''() => { const input = document.querySelector('.cards-input');
  return input.getBoundingClientRect().width / input.closest('.field').querySelector('.pick').getBoundingClientRect().width; }'''


@pytest.mark.parametrize('language', LANGUAGES)
def test_every_page_fits_a_phone(browser, server, language):
    context = phone_in(browser, server, language, dark=language == 'es')
    page = context.new_page()
    page.goto(server.url + '/games/new')
    names = ['Maximiliano', 'Bartholomew', 'Carla', 'Dan']
    for seat, name in enumerate(names):
        page.locator(f'#players-{seat}').fill(name)
    # issue 48 (10): the first dealer is chosen among the names typed, four places for four players
    offered = page.locator('#first_dealer option:not([hidden])').all_text_contents()
    assert offered[1:] == names and len(offered) == 5, offered
    page.locator('#first_dealer').select_option('0')
    page.locator('form button.primary').click()
    game = page.url.split('?')[0]
    page.goto(game + '/rounds/1')
    page.locator('#went_out-0').check()
    tap_cards(page, 1, ['KH', '5C', '3D'])
    tap_cards(page, 2, ['4H', '3S', '6H'])
    page.locator('#entries-3-points').fill('12')
    problems = {}
    pages = ['/', '/games/new', game, game + '/rounds/2', game + '/scores/1/1', game + '/print', '/history', '/stats',
             game + '/keeper', '/audit?cards=4H+5H+6H+7C+QS+9D&wild=3&claim=43', game + '/delete']
    page.locator('.save-bar button').click()
    page.wait_for_url('**saved=1')
    for url in pages:
        page.goto(url if url.startswith('http') else server.url + url)
        found = []
        if not no_horizontal_scroll(page):
            found.append('scrolls sideways')
        bar = page.locator('header.bar')
        if bar.count() and bar.bounding_box()['height'] > 64:
            found.append(f"header on {bar.bounding_box()['height']:.0f} px")
        found += [f'select {s} cut' for s in page.evaluate(CUT_SELECTS)]
        found += [f'label spills: {k}' for k in page.evaluate(SPILLING_KEYS)]
        if '/rounds/' in url and page.evaluate(FIELD_BESIDE_BUTTON) < 1:       # issue 48: pt's 129 px beside 185
            found.append(f'the cards field {page.evaluate(FIELD_BESIDE_BUTTON):.0%} of its button')
        if found:
            problems[url] = found
    page.goto(game + '/rounds/2')
    shot(page, f'fit-round-{language}')
    page.goto(game)
    if not table_fits(page):
        problems['sheet'] = ['four players do not fit']
    shot(page, f'fit-sheet-{language}')
    page.goto(server.url + '/games/new')
    shot(page, f'fit-new-game-{language}')
    context.close()
    assert problems == {}


def test_a_sheet_of_eight_scrolls_sideways_with_rounds_and_names_held(browser, server):
    context = phone(browser)
    page = context.new_page()
    page.goto(server.url + '/games/new')
    for seat, name in enumerate(['Anastasia', 'Bartholomew', 'Carla', 'Dominique', 'Esperanza', 'Fitzgerald',
                                 'Guadalupe', 'Hildegard']):
        page.locator(f'#players-{seat}').fill(name)
    page.locator('form button.primary').click()
    game = page.url.split('?')[0]
    page.goto(game + '/rounds/1')
    page.locator('#went_out-0').check()
    for seat in range(1, 8):
        page.locator(f'#entries-{seat}-points').fill(str(seat))
    page.locator('.save-bar button').click()
    page.goto(game)
    assert no_horizontal_scroll(page) and not table_fits(page)          # the sheet scrolls, not the page
    assert page.locator('.scroll-cue').is_visible()
    wrap = page.locator('.table-wrap')
    wrap.evaluate('w => w.scrollLeft = w.scrollWidth')
    left = wrap.bounding_box()['x']
    assert abs(page.locator('tbody th.round').first.bounding_box()['x'] - left) < 3      # the round column stays
    for row in page.locator('tfoot tr').all():                        # Total, Zero, Place stay named
        assert abs(row.locator('th').bounding_box()['x'] - left) < 3
    assert page.locator('thead th').last.is_visible()
    shot(page, 'fit-sheet-eight-scrolled')
    context.close()
