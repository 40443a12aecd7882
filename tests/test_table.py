"""At the table, in Chromium at a phone's size: a game made from the start page, cards tapped and
typed with the penalty shown before saving, a mistake that keeps what was typed, a past round
corrected, and a second phone following the sheet live without being able to edit."""

import pytest

from scorer.reading import symbols
from tests.browser import expect, no_horizontal_scroll, phone, shot, table_fits
from tests.browser import tap_cards as enter_cards



def tap_cards(page, seat, cards):
    """Tap each card on the seat's picker (see tests/browser.py); the seat's block."""
    enter_cards(page, seat, cards)
    return page.locator(f'#player-{seat}')


def totals(page):
    return [t.strip() for t in page.locator('tfoot tr.total td').all_inner_texts()]


def shows_totals(viewer, expected):
    """Wait until the viewer's sheet shows these totals, as the push (or a poll) brings them."""
    expect(viewer.locator('tfoot tr.total td')).to_have_text(expected)


def test_table_journey(browser, server):
    """The whole journey once, as a table plays it (in English, light; the same pages in every
    language and in dark are test_screens.py's and test_accessibility.py's): the game made from the
    start page, two rounds entered by tapping and typing (a mistake on the way keeps everything
    typed), a third as points, a past round corrected, and a second phone following it all live."""
    keeper_context, viewer_context = phone(browser), phone(browser)
    keeper = keeper_context.new_page()
    keeper.goto(server.url + '/')
    keeper.get_by_role('link', name='New game').first.click()
    for seat, name in enumerate(['Ana', 'Bruno', 'Carla', 'Dan'], 1):
        keeper.get_by_label(f'Seat {seat}', exact=True).fill(name)
    keeper.get_by_label('First dealer').select_option(label='Ana')
    assert no_horizontal_scroll(keeper)
    shot(keeper, 'new-game')
    keeper.get_by_role('button', name='Start the game').click()
    sheet_url = keeper.url

    viewer = viewer_context.new_page()
    viewer.goto(keeper.locator('.share .link a').first.get_attribute('href'))
    expect(viewer.get_by_text('following this game live')).to_be_visible()

    # Round 1: 3 cards, threes wild. Ana went out; Bruno K♥ 5♣ 7♦ = 22; Carla 4♥ 3♠ 6♥ melds; Dan 10+5.
    keeper.get_by_role('link', name='Enter round 1').click()
    keeper.locator('#player-0').get_by_label('went out').check()
    bruno = tap_cards(keeper, 1, ['KH', '5C', '7D'])
    expect(bruno.locator('.chip')).to_have_count(3)
    expect(bruno.locator('.cards-input')).to_have_value(symbols('KH 5C 7D'))
    expect(bruno.locator('.preview')).to_contain_text('Penalty 22 = 10 + 7 + 5')   # before saving, card by card
    expect(keeper.locator('.picker .count')).to_have_text('Carla · 0 / 3')   # a full hand moves the picker on
    bruno.get_by_role('button', name='Tap cards').click()
    keeper.locator('.picker button.rank[data-rank="9"]').click()
    expect(keeper.locator('.picker-message')).to_have_text('Bruno already holds 3 cards: round 1 deals 3.')
    keeper.locator('.chips[data-seat="1"] .chip', has_text='5♣').click()     # a tap removes a chip
    expect(bruno.locator('.cards-input')).to_have_value(symbols('KH 7D'))
    keeper.locator('.picker button.rank[data-rank="9"]').click()
    keeper.get_by_role('button', name='Undo the last card').click()           # one tap takes it back
    expect(bruno.locator('.cards-input')).to_have_value(symbols('KH 7D'))
    tap_cards(keeper, 1, ['5C'])
    carla = tap_cards(keeper, 2, ['4H', '3S', '6H'])
    expect(carla.locator('.preview')).to_contain_text('Penalty 0')
    expect(keeper.locator('.picker .rank.wild')).to_have_attribute('data-rank', '3')
    keeper.locator('#player-3').get_by_label('Points').fill('10+5')
    assert no_horizontal_scroll(keeper)
    shot(keeper, 'table-round-picker')
    keeper.get_by_role('button', name='Save round 1').click()
    expect(keeper.get_by_text('Round 1 saved')).to_be_visible()
    shot(keeper, 'round-scored')
    shows_totals(viewer, ['0', '22', '0', '15'])

    # Round 2: 4 cards, fours wild. Bruno went out. Ana Q♠ Q♦ 2♣ 4♣ = 2; Carla A♥ 2♥ 9♣ 9♣ = 21.
    keeper.get_by_role('link', name='Enter round 2').click()
    keeper.locator('#player-1').get_by_label('went out').check()
    ana = tap_cards(keeper, 0, ['QS', 'QD', '2C', '4C'])
    expect(ana.locator('.preview')).to_contain_text('Penalty 2')
    carla = tap_cards(keeper, 2, ['AH', '2H', '9C', '9C'])
    expect(carla.locator('.preview')).to_contain_text('Penalty 21')
    dan = tap_cards(keeper, 3, ['9C'])                                        # both 9♣ are taken
    expect(keeper.locator('.picker-message')).to_contain_text('9♣ are already in this round (2 decks)')
    # A mistake first: a card that does not exist is named, and everything typed is kept.
    dan.locator('.cards-input').fill('kh kd ks 1X')
    keeper.get_by_role('button', name='Save round 2').click()
    expect(keeper.get_by_text("Dan: '1X' is not a card")).to_be_visible()
    expect(keeper.locator('#entries-2-cards')).to_have_value(symbols('AH 2H 9C 9C'))    # as entered
    expect(keeper.locator('#entries-3-cards')).to_have_value('kh kd ks 1X')            # as typed
    shot(keeper, 'round-error')
    dan = keeper.locator('#player-3')
    dan.locator('.cards-input').fill('kh kd ks 7c')                           # typing works as well as tapping
    expect(dan.locator('.chip')).to_have_count(4)
    expect(dan.locator('.preview')).to_contain_text('Penalty 7')
    keeper.locator('#player-3 .cards-input').press('Enter')                   # Enter on the last player saves
    expect(keeper.get_by_text('Round 2 saved')).to_be_visible()
    shows_totals(viewer, ['2', '22', '21', '22'])

    # Round 3: 5 cards, fives wild. Carla went out; the rest as points, Enter moving along.
    keeper.get_by_role('link', name='Enter round 3').click()
    keeper.locator('#player-2').get_by_label('went out').check()
    expect(keeper.locator('#player-0').get_by_role('button', name='Tap cards')).to_be_visible()   # the keypad is there
    keeper.locator('#player-0 .cards-input').press('Enter')
    assert keeper.evaluate('document.activeElement.id') == 'entries-1-cards'
    for seat, points in ((0, '5'), (1, '8'), (3, '12')):
        keeper.locator(f'#player-{seat}').get_by_label('Points').fill(points)
    keeper.get_by_role('button', name='Save round 3').click()
    shows_totals(viewer, ['7', '30', '21', '34'])

    # Correct round 1: Dan had 20, not 15.
    keeper.goto(sheet_url)
    keeper.get_by_role('link', name='Edit round 1').click()
    keeper.locator('#player-3').get_by_label('Points').fill('20')
    keeper.get_by_role('button', name='Save round 1').click()
    shows_totals(viewer, ['7', '30', '21', '39'])
    keeper.goto(sheet_url)
    assert totals(keeper) == ['7', '30', '21', '39']
    assert table_fits(keeper)
    assert no_horizontal_scroll(keeper)
    shot(keeper, 'table-sheet-keeper')

    # The viewer never sees an edit control, and edit pages refuse them.
    assert viewer.locator('a[href*="/rounds/"]').count() == 0
    assert viewer.get_by_role('link', name='Enter round 4').count() == 0
    assert no_horizontal_scroll(viewer)
    assert table_fits(viewer) and table_fits(keeper)           # four players fit a 360 px screen
    shot(viewer, 'table-sheet-viewer')
    response = viewer.goto(sheet_url + '/rounds/1')
    assert response.status == 403
    expect(viewer.get_by_text('Only the scorekeeper can edit')).to_be_visible()
    assert keeper_context.outside == [] and viewer_context.outside == []
    assert [e for e in keeper_context.errors if '422' not in e] == []          # nothing refused by the CSP (the 422: the mistake)
    assert [e for e in viewer_context.errors if '403' not in e] == []
    keeper_context.close()
    viewer_context.close()


def test_theme_toggle_is_remembered(browser, server):
    context = phone(browser, dark=False)
    page = context.new_page()
    page.goto(server.url + '/')
    toggle = page.get_by_role('button', name='Dark or light')
    toggle.click()
    assert page.evaluate('document.documentElement.dataset.theme') == 'dark'
    page.reload()
    assert page.evaluate('document.documentElement.dataset.theme') == 'dark'
    background = page.evaluate('getComputedStyle(document.body).backgroundColor')
    assert background == 'rgb(16, 18, 20)'
    context.close()


def test_the_whole_sheet_is_on_the_page_not_in_a_box_of_its_own(browser, app):
    """Issue 27: on a phone the sheet was a box 80 % of the screen tall, so rounds 9-11 and the zero
    round and place rows hid until one scrolled inside it. Now only sideways scrolling stays in the box."""
    from tests.helpers import new_game, play_rounds
    from tests.server import Server
    client = app.test_client()
    url = new_game(client, ('Ana', 'Bruno', 'Carla', 'Dan'))
    play_rounds(client, url, 11, 4, points=lambda seat, n: n + seat)
    context = phone(browser)
    try:
        page = context.new_page()
        with Server(app) as server:
            page.goto(server.url + url)
            box = page.evaluate("() => { const w = document.querySelector('.table-wrap');"
                                " return [w.scrollHeight, w.clientHeight]; }")
            assert box[0] <= box[1] + 1                              # nothing hidden below, inside the box
            place = page.locator('tfoot tr').last
            place.scroll_into_view_if_needed()
            expect(place).to_be_in_viewport()
            shot(page, 'sheet-whole-on-a-phone')
    finally:
        context.close()


def test_eight_players_before_any_round_and_the_qr_code_at_a_phones_size(browser, app):
    """Issue 27: the 'no round yet' row was off to the right with eight players, and the QR code sat
    in a box 50 px taller than itself."""
    from tests.server import Server
    context = phone(browser)
    try:
        page = context.new_page()
        with Server(app) as server:
            page.goto(server.url + '/games/new')
            for seat, name in enumerate(['Ana', 'Bruno', 'Carla', 'Dan', 'Eva', 'Fer', 'Gil', 'Hugo']):
                page.locator(f'#players-{seat}').fill(name)
            page.locator('form button.primary').click()
            box = page.locator('td.empty span').bounding_box()
            assert box and box['x'] + box['width'] <= 360
            qr = page.locator('svg.qr').bounding_box()
            drawn = page.locator('svg.qr path').first.bounding_box()
            assert abs(qr['height'] - qr['width']) < 1
            assert qr['height'] - drawn['height'] <= 12 + 1                  # the code fills its box (6 px padding)
    finally:
        context.close()
