"""Hostile text in a player's name, in Chromium at a phone's size: shown as text on every page, never
run. (A scorekeeper's whole journey, from the start page to the corrected sheet, is
tests/test_table.py's.)"""

import pytest

from tests.browser import phone

sync_api = pytest.importorskip('playwright.sync_api')


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
