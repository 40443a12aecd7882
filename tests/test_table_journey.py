"""Our table's journey (issue 53), three phones at 360 × 740 in Spanish: phone A makes the table and
plays a short game in it; phone B opens the table's keeper link, starts the next game from the
table's page and keeps score; phone C follows the table's link. All three see both games and the
same standings, C is answered 403 on every keeper action of the table and its games, C keeps the
table's page to read without a network, and B, its keeping taken away, loses its rights at once."""

import re

import pytest

from tests.browser import axe_violations, form_token, no_horizontal_scroll, phone_in, save_by_points
from tests.test_keeper_posts import FORMS, KEEPERS, TABLE_FORMS, TABLE_KEEPERS

SHORT = 8                     # rounds of the short game


def start_in_table(page, table, players):
    """Tap the table's New game, name the players, the short game: the sheet's address."""
    page.goto(table)
    page.get_by_role('link', name='Nueva partida').click()
    for seat, name in enumerate(players):
        page.locator(f'#players-{seat}').fill(name)
    page.locator('#game').select_option('short')
    page.locator('#first_dealer').select_option('0')
    page.locator('form button.primary').click()
    page.wait_for_url(re.compile(r'/games/(?!new\b)[^/?]+$'))
    return page.url.split('?')[0]


def standings(page, table):
    """The standings as a phone sees them: each card's text."""
    page.goto(table)
    assert no_horizontal_scroll(page)
    return [re.sub(r'\s+', ' ', text).strip() for text in page.locator('.player-card').all_inner_texts()]


def refused(context, url, form):
    """A keeper's POST sent by this phone, with its own CSRF token: the status it gets."""
    base = re.match(r'https?://[^/]+', url).group(0)
    return context.request.post(url, form={**form, 'csrf_token': form_token(context, base + '/')},
                                max_redirects=0).status


@pytest.mark.browser
def test_three_phones_share_a_table(browser, server):
    a, b, c = (phone_in(browser, server, 'es', bypass_csp=True) for _ in range(3))
    try:
        pa, pb, pc = a.new_page(), b.new_page(), c.new_page()
        pa.goto(server.url + '/tables/new')
        pa.locator('#name').fill('Club de los jueves')
        pa.locator('form button.primary').click()
        pa.wait_for_url(re.compile(r'/tables/[^/?]+$'))
        table = pa.url
        first = start_in_table(pa, table, ['Ana', 'Bruno'])
        for number in range(1, SHORT + 1):
            save_by_points(a, first, number, players=2)           # seat 0 goes out: Ana wins

        pa.goto(table)
        pa.locator('#keeper-link summary').click()
        pa.get_by_role('button', name='Crear un enlace de administración').click()
        keeper_link = pa.locator('#keeper-link .link a').get_attribute('href')
        pb.goto(keeper_link)                                      # handover.js posts the key
        pb.wait_for_url(table)
        second = start_in_table(pb, table, ['Ana', 'Bruno', 'Carla'])
        save_by_points(b, second, 1, players=3)                   # B keeps score

        pc.goto(table)                                            # C follows the table's link
        pc.wait_for_function('() => navigator.serviceWorker.controller !== null')
        seen = [standings(page, table) for page in (pa, pb, pc)]
        assert seen[0] == seen[1] == seen[2] and seen[0][0].startswith('Ana')
        for page in (pa, pb, pc):
            games = page.locator('ul.games a').evaluate_all('links => links.map(a => a.pathname)')
            assert {first.split(server.url)[1], second.split(server.url)[1]} <= set(games)
        assert axe_violations(pc) == []                           # the standings and the chart

        table_path = table.split(server.url)[1]
        for endpoint, path in TABLE_KEEPERS.items():
            form = {k: v.replace('GAME', first.rsplit('/', 1)[1]) for k, v in TABLE_FORMS.get(endpoint, {}).items()}
            assert refused(c, server.url + path.replace('/tables/TABLE', table_path, 1), form) == 403, endpoint
        for game in (first, second):
            for endpoint, path in KEEPERS.items():
                assert refused(c, server.url + path.replace('/games/GAME', game.split(server.url)[1], 1),
                               FORMS.get(endpoint, {})) == 403, endpoint
        assert refused(c, server.url + '/games/new', {'table': table.rsplit('/', 1)[1], 'players-0': 'Ana',
                                         'players-1': 'Bruno'}) == 403

        c.set_offline(True)                                       # the table's page, kept to read offline
        pc.goto(table)
        assert pc.get_by_role('heading', name='Club de los jueves').is_visible()
        c.set_offline(False)

        pa.goto(table)
        pa.get_by_role('button', name=re.compile('Quitarle la administración de la mesa')).click()
        pa.wait_for_url(re.compile(r'#keepers$'))
        assert refused(b, server.url + '/games/new', {'table': table.rsplit('/', 1)[1], 'players-0': 'Ana',
                                         'players-1': 'Bruno'}) == 403        # at once
        assert refused(b, table + '/keeper-link', {}) == 403
        assert a.outside == b.outside == c.outside == []
    finally:
        for context in (a, b, c):
            context.close()
