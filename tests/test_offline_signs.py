"""What a scorekeeper's phone shows while it plays on without a network (issue 39): its sheet is
not dimmed under "Reconnecting…" (the phone's own line says it is offline, and entry works), its
status line lines up with the page, and a save kept on the phone says it is saving until it is
done (the first one, which starts the phone's scorer, takes seconds)."""

import re

import pytest

from tests.test_offline import keeping

# What the Save button said while the form was being saved, kept across the page that follows.
WATCH_SAVE = '''() => {
  const button = document.querySelector('.save-bar button');
  sessionStorage.setItem('said', '');
  new MutationObserver(() => { sessionStorage.setItem('said', sessionStorage.getItem('said') + '|' + button.textContent
    + (button.disabled ? ' (disabled)' : '')); }).observe(button, { childList: true, characterData: true, subtree: true, attributes: true });
}'''


# Where the text an element holds starts on the screen.
TEXT_LEFT = '''(selector) => { const range = document.createRange();
  range.selectNodeContents(document.querySelector(selector)); return range.getBoundingClientRect().left; }'''


# Each live stream's failures, counted before the page's own handler hears of them (live.js).
COUNT_STREAM_ERRORS = '''window.streamErrors = 0;
window.EventSource = class extends window.EventSource {
  constructor(...args) { super(...args); this.addEventListener('error', () => { window.streamErrors += 1; }); }
};'''


@pytest.mark.browser
def test_a_scorekeeper_offline_sees_the_sheet_as_it_is_and_the_save_saying_it_saves(app, browser):
    from tests.browser import expect, next_task, shot
    with keeping(app, browser) as (server, keeper, page, url, path):
        keeper.add_init_script(COUNT_STREAM_ERRORS)
        keeper.set_offline(True)
        page.reload()                                                   # the page, kept by the service worker
        expect(page.locator('.offline-line')).to_have_text('Offline: the game goes on here.')
        page.wait_for_function('() => window.streamErrors > 0')         # the stream has failed
        next_task(page)                                                 # and the page has heard of it
        assert page.locator('#live.stale').count() == 0                 # not dimmed
        expect(page.locator('#live-status')).to_be_hidden()             # nor "Reconnecting…"
        line = page.evaluate(TEXT_LEFT, '.offline-line')               # over the foot of the screen (issue 48),
        assert abs(line - page.locator('h1').bounding_box()['x']) <= 1  # its text lined up with the page's
        shot(page, 'offline-sheet-after-a-reload')

        page.goto(f'{url}/rounds/1')
        page.locator('#went_out-0').check()
        page.locator('#entries-1-points').fill('7')
        page.locator('#entries-2-points').fill('12')
        page.evaluate(WATCH_SAVE)
        page.locator('.save-bar button').click()
        page.wait_for_url(re.compile(r'\?unsent=1$'))
        said = page.evaluate("sessionStorage.getItem('said')")
        assert said.startswith('|Saving… (disabled)'), said
        expect(page.locator('.offline-line')).to_contain_text('Not sent yet (1)')
        assert page.locator('#live.stale').count() == 0
