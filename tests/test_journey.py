"""A scorekeeper's journey in Chromium at a phone's size: create a game, enter two rounds with cards, read the totals."""

import pytest

from tests.browser import expect, no_horizontal_scroll, phone, shot

sync_api = pytest.importorskip('playwright.sync_api')


@pytest.mark.parametrize('dark', [False, True], ids=['light', 'dark'])
def test_three_players_two_rounds_with_cards(browser, server, dark):
    context = phone(browser, dark)
    page = context.new_page()
    mode = 'dark' if dark else 'light'
    page.goto(server.url + '/')
    page.get_by_role('link', name='New game').first.click()
    for seat, name in enumerate(['Ana', 'Bruno', 'Carla'], 1):
        page.get_by_label(f'Seat {seat}', exact=True).fill(name)
    page.get_by_label('First dealer').select_option(label='Seat 1')
    assert no_horizontal_scroll(page)
    shot(page, f'new-game-{mode}')
    page.get_by_role('button', name='Start the game').click()

    page.get_by_role('link', name='Enter round 1').click()
    assert no_horizontal_scroll(page)
    # Round 1: threes wild. Ana went out; Bruno holds K♥ 5♣ 7♦ (22); Carla 4♥ 3♠ 6♥ melds (0).
    page.locator('#player-0').get_by_label('went out').check()
    page.locator('#player-1').get_by_label('Cards left').fill('kh 5c 7d')
    page.locator('#player-2').get_by_label('Cards left').fill('4♥ 3s 6h')
    shot(page, f'round-entry-{mode}')
    page.get_by_role('button', name='Save round 1').click()
    assert page.get_by_text('Round 1 saved').is_visible()
    shot(page, f'round-scored-{mode}')

    # A mistake first: a card that does not exist keeps everything typed.
    page.get_by_role('link', name='Enter round 2').click()
    page.locator('#player-1').get_by_label('went out').check()
    page.locator('#player-0').get_by_label('Cards left').fill('QS QD 2C 1X')
    page.locator('#player-2').get_by_label('Cards left').fill('AH 2H 9C 9C')
    page.get_by_role('button', name='Save round 2').click()
    assert page.get_by_text("Ana: '1X' is not a card").is_visible()
    assert page.locator('#player-2').get_by_label('Cards left').input_value() == 'AH 2H 9C 9C'           # as typed
    shot(page, f'round-error-{mode}')
    # Round 2: fours wild. Ana holds Q♠ Q♦ 2♣ 4♣ (the four makes a set of queens: 2 left);
    # Carla holds A♥ 2♥ 9♣ 9♣ (A-2 and a nine cannot meld without a wild: 1 + 2 + 9 + 9 = 21).
    page.locator('#player-0').get_by_label('Cards left').fill('QS QD 2C 4C')
    page.get_by_role('button', name='Save round 2').click()
    page.get_by_role('link', name='Back to the scoresheet').click()

    expect(page.locator('tfoot tr.total td')).to_have_text(['2', '22', '21'])     # once the sheet has come
    assert page.get_by_text('Round 3').first.is_visible()
    assert no_horizontal_scroll(page)
    shot(page, f'sheet-{mode}')
    assert context.outside == []
    context.close()


def test_a_hostile_player_name_is_just_text(browser, server):
    context = phone(browser)
    page = context.new_page()
    dialogs = []
    page.on('dialog', lambda d: (dialogs.append(d.message), d.dismiss()))
    names = ['<script>alert(1)</script>', '<img src=x onerror=alert(2)>']
    page.goto(server.url + '/games/new')
    for seat, name in enumerate(names, 1):
        page.get_by_label(f'Seat {seat}', exact=True).fill(name)
    page.get_by_role('button', name='Start the game').click()
    sheet = page.url
    page.get_by_role('link', name='Enter round 1').click()
    page.locator('#player-0').get_by_label('went out').check()
    page.locator('#player-1').get_by_label('Cards left').fill('KH 5C 7D')
    page.get_by_role('button', name='Save round 1').click()
    for path in (sheet, sheet + '/rounds/1', sheet + '/print', sheet + '/live', '/history', '/stats', '/'):
        page.goto(path if path.startswith('http') else server.url + path)
    page.goto(sheet)
    assert page.locator('thead th', has_text='<script>alert(1)</script>').count() == 1
    assert page.locator('img[src=x]').count() == 0
    assert dialogs == []
    context.close()
