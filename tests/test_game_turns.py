"""Followers and seated players at the turns of a game: the last round saved, a rematch started."""

import pytest

from tests.browser import phone_in, save_by_points, start_game

sync_api = pytest.importorskip('playwright.sync_api')
expect = sync_api.expect


def test_at_game_over_and_at_a_rematch_the_followers_follow_on(browser, server):
    keeper_context = phone_in(browser, server, 'en')
    keeper = keeper_context.new_page()
    game = start_game(keeper, server.url, ['Ana', 'Bruno'])
    for number in range(1, 11):
        save_by_points(keeper_context, game, number, players=2)
    seated_context, watcher_context = phone_in(browser, server, 'en'), phone_in(browser, server, 'en')
    seated, watcher = seated_context.new_page(), watcher_context.new_page()
    seated.goto(game)
    take = seated.get_by_role('button', name="I'm Bruno")
    assert take.inner_text() == "I'm Bruno"                         # its words keep their space
    take.click()
    seated.goto(game)
    mine = seated.get_by_role('link', name='Enter my hand')
    expect(mine).to_be_visible()
    assert mine.bounding_box()['y'] < seated.locator('#live').bounding_box()['y']   # at the top of the sheet
    watcher.goto(game)
    expect(watcher.get_by_role('heading', name='Playing? Take your seat')).to_be_visible()
    save_by_points(keeper_context, game, 11, players=2)             # the last round: game over
    expect(watcher.locator('#live')).to_contain_text('Game over.')
    expect(watcher.get_by_role('heading', name='Playing? Take your seat')).to_be_hidden()
    expect(seated.locator('#live')).to_contain_text('Game over.')
    expect(mine).to_be_hidden()
    keeper.goto(game)
    keeper.get_by_role('button', name='Rematch').first.click()
    new = keeper.url.split('?')[0]
    follow = seated.get_by_role('button', name='Follow the rematch')
    expect(follow).to_be_visible()
    follow.click()
    assert seated.url.split('?')[0] == new
    expect(seated.get_by_text('You are Bruno.')).to_be_visible()    # the same seat, carried over
    expect(watcher.get_by_role('button', name='Follow the rematch')).to_be_visible()
    for context in (keeper_context, seated_context, watcher_context):
        assert context.errors == [] and context.outside == []
        context.close()


def test_the_seat_list_reads_as_words(client, make_game):
    url = make_game(('Ana', 'Bruno'))
    page = client.get(url).get_data(as_text=True)
    assert '<span><bdi>Ana</bdi>: <span class="quiet">free</span></span>' in page
