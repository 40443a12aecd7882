"""The audit in Chromium at a phone's size: tapping a hand, checking a claim, and a permalink that
shows the same result on another phone."""

import pytest

from scorer.reading import symbols
from tests.browser import no_horizontal_scroll, phone, shot, tap_cards

sync_api = pytest.importorskip('playwright.sync_api')
expect = sync_api.expect


def test_audit_permalink_on_another_phone(browser, server):
    """An audit made on a light phone, opened by its link on a dark one: the same hand, verdict and melds."""
    first = phone(browser)
    page = first.new_page()
    page.goto(server.url + '/')
    page.get_by_role('link', name='Audit').click()
    tap_cards(page, 0, ['4H', '5H', '6H', '7C', 'QS', '9D'])
    expect(page.locator('#cards')).to_have_value(symbols('4H 5H 6H 7C QS 9D'))
    page.get_by_label('or wild rank').select_option('3')
    page.get_by_text('Check a claim').click()
    page.get_by_label('Claimed score').fill('43')
    page.get_by_role('button', name='Check').click()
    expect(page.get_by_text('Minimal penalty: 26')).to_be_visible()
    verdict = page.locator('.verdict').inner_text()
    assert 'claimed 43, the minimum is 26: 4♥ 5♥ 6♥ also melds' in verdict
    hand_html = page.locator('.audit-result .hand').inner_html()
    assert no_horizontal_scroll(page)
    shot(page, 'audit-light')
    link = page.get_by_role('link', name='Link to this audit').get_attribute('href')

    second = phone(browser, dark=True)       # another phone, the other colour scheme, no cookies
    other = second.new_page()
    other.goto(server.url + link)
    expect(other.get_by_text('Minimal penalty: 26')).to_be_visible()
    assert other.locator('.verdict').inner_text() == verdict
    assert other.locator('.audit-result .hand').inner_html() == hand_html
    assert other.locator('#cards').input_value() == symbols('4H 5H 6H 7C QS 9D')
    shot(other, 'audit-dark')

    other.get_by_role('link', name='Printable view').click()
    other.emulate_media(media='print')
    assert other.locator('form').count() == 0
    expect(other.get_by_text('Minimal penalty: 26')).to_be_visible()
    shot(other, 'audit-print')
    assert first.outside == [] and second.outside == []
    first.close()
    second.close()


def test_a_hand_too_big_for_its_round_is_said_once(browser, server):
    """The page comes back with the server's word on the cards; the live warning waits until they change."""
    context = phone(browser)
    page = context.new_page()
    page.goto(server.url + '/audit?cards=2H+3H+4H+5H+6H&round=1')
    errors = page.locator('.field:has(#cards) [role=alert]:not(:empty)')
    expect(errors).to_have_count(1)
    expect(errors).to_have_text('5 cards, but round 1 deals 3 (at most 4 with the card drawn).')
    page.locator('#cards').fill('2H 3H 4H 5H 6H 7H')
    expect(page.locator('.size-warning')).to_contain_text('6 cards')
    page.locator('#cards').fill('2H 3H 4H')
    expect(page.locator('.size-warning')).to_be_empty()
    shot(page, 'audit-too-many')
    context.close()


def test_the_printable_view_is_black_on_white_without_the_sites_header_even_in_dark_mode(browser, server):
    """Issue 39: the audit's printable view kept the dark theme and the site's header."""
    context = phone(browser, dark=True)
    page = context.new_page()
    page.goto(server.url + '/audit?cards=7H+8H+9H+KS+5C&round=3')
    assert page.evaluate('getComputedStyle(document.body).backgroundColor') == 'rgb(16, 18, 20)'   # the page: dark
    page.get_by_role('link', name='Printable view').click()
    body = page.locator('body.printable')            # the printable view, not the page it was opened from
    expect(body).to_have_css('background-color', 'rgb(255, 255, 255)')
    expect(body).to_have_css('color', 'rgb(17, 17, 17)')
    expect(page.get_by_text('Minimal penalty: 10')).to_be_visible()
    expect(page.locator('header.bar')).to_be_hidden()
    expect(page.locator('footer.languages')).to_be_hidden()
    shot(page, 'audit-printable-dark')
    context.close()


def test_the_keypad_follows_the_game_chosen_before_the_form_is_sent(browser, server):
    """Issue 52: switching the audit's game to Five Crowns keeps the four-suit keypad until the form
    is sent; it switches at once (stars, 3 to K, the joker), and back again. The hand typed stays."""
    context = phone(browser)
    page = context.new_page()
    page.goto(server.url + '/audit')
    page.locator('#cards').fill('3S 4S')
    page.get_by_text('Rules', exact=True).click()
    page.locator('#set-game').select_option('five_crowns')
    tap_cards(page, 0, ['5S', '7X', 'JK'])
    picker = page.locator('.picker')
    expect(picker.locator('button.suit')).to_have_count(5)
    expect(picker.locator('button.rank[data-rank="A"]')).to_have_count(0)
    expect(page.locator('#cards')).to_have_value(symbols('3S 4S 5S 7X JK'))
    expect(page.locator('#cards-letters')).to_contain_text('★')
    page.locator('#set-game').select_option('standard')
    expect(picker.locator('button.suit')).to_have_count(4)
    expect(picker.locator('button.rank[data-rank="A"]')).to_have_count(1)
    expect(picker.locator('button.joker')).to_have_count(0)
    assert no_horizontal_scroll(page)
    assert context.errors == [] and context.outside == []
    context.close()
