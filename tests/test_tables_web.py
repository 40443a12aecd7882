"""Our table, the web half (issue 53): a table made, its page read by anyone holding its link (and
kept on that phone's start page), changed only by its keepers (a keeper link, listed and removable
for good), games joining it (started from its page, a rematch, a finished game added by a keeper of
both), deleted games out of its figures, its file and CSV, a table file imported whole or not at all,
and bad input answered with a message, never a 500."""

import io
import json
import re

import pytest

from tests.helpers import new_game_form, play_rounds

PLAYERS = ('Ana', 'Bruno')
ROUNDS = 11                       # a standard game, played to its end


def make_table(client, name='Club de los jueves', language='es'):
    """A table made through its form by `client`, who keeps it: its page's address."""
    r = client.post('/tables/new', data={'name': name, 'language': language})
    assert r.status_code == 302, r.get_data(as_text=True)[-400:]
    return r.headers['Location']


def table_id(url):
    return url.rsplit('/', 1)[-1]


def game_in(client, table, players=PLAYERS, finish=True):
    """A game started from the table's page by `client`, played to its end if `finish`: its sheet."""
    r = client.post('/games/new', data={**new_game_form(players), 'table': table_id(table)})
    assert r.status_code == 302, r.get_data(as_text=True)[-400:]
    url = r.headers['Location']
    if finish:
        play_rounds(client, url, ROUNDS, len(players))
    return url


def keeper_link_key(client, table):
    page = client.post(table + '/keeper-link').get_data(as_text=True)
    return re.search(r'/tables/[^/"#]+/keeper#([^"]+)"', page).group(1)


def text(client, url):
    r = client.get(url)
    assert r.status_code == 200, (url, r.status_code)
    return r.get_data(as_text=True)


def standings(page):
    """The standings as the page shows them: [(name, games, wins)]."""
    cards = re.findall(r'<li class="player-card[^"]*">\s*<h3>(.*?)</h3>(.*?)</li>', page, re.S)
    figures = []
    for name, body in cards:
        values = dict(re.findall(r'<dt>(.*?)</dt><dd>(.*?)</dd>', body))
        figures.append((re.sub('<[^>]+>', '', name), values))
    return figures


def test_a_table_shows_its_games_and_standings_to_anyone_with_its_link(app, client):
    table = make_table(client)
    first = game_in(client, table)
    live = game_in(client, table, finish=False)
    reader = app.test_client()
    page = text(reader, table)
    assert 'Club de los jueves' in page
    assert first.rsplit('/', 1)[-1] in page and live.rsplit('/', 1)[-1] in page      # finished and in progress
    names = [name for name, _ in standings(page)]
    assert sorted(names) == ['Ana', 'Bruno']
    games = {name: values for name, values in standings(page)}
    assert games['Ana']['Games'] == '1' and games['Bruno']['Games'] == '1'
    assert int(games['Ana']['Wins']) + int(games['Bruno']['Wins']) >= 1
    assert '<svg' in page and 'Wins, game after game' in page                      # the chart, no script needed
    assert 'New game' not in page and 'keeper-link' not in page                     # a reader changes nothing
    assert 'Club de los jueves' in text(reader, '/')                                # kept on the reader's start page
    assert 'Club de los jueves' not in text(app.test_client(), '/')                 # and nobody else's


def test_no_list_of_tables_and_an_unknown_table_is_404(app, client):
    make_table(client)
    stranger = app.test_client()
    assert 'Club de los jueves' not in text(stranger, '/')
    for path in ('/tables/AAAAAAAAAAAAAAAA', '/tables/AAAAAAAAAAAAAAAA/tv', '/tables/AAAAAAAAAAAAAAAA/print',
                 '/tables/AAAAAAAAAAAAAAAA/export.csv', '/tables/AAAAAAAAAAAAAAAA/export.json', '/tables'):
        assert stranger.get(path).status_code == 404, path


def test_a_table_id_is_as_unguessable_as_a_games(client):
    from web.store import GAME_ID
    assert re.fullmatch(GAME_ID['pattern'], table_id(make_table(client)))


def test_a_new_game_joins_the_table_only_with_its_keeper_rights(app, client):
    table = make_table(client)
    reader = app.test_client()
    text(reader, table)
    r = reader.post('/games/new', data={**new_game_form(PLAYERS), 'table': table_id(table)})
    assert r.status_code == 403
    assert reader.get('/games/new?table=' + table_id(table)).status_code == 403
    assert reader.post('/games/new', data={**new_game_form(PLAYERS), 'table': 'nosuchtable'}).status_code == 404
    assert 'This game joins the table' in text(client, '/games/new?table=' + table_id(table))
    game = game_in(client, table, finish=False)
    assert game.rsplit('/', 1)[-1] in text(reader, table)


def made_offline(client, table, made_id, key='a-key-the-phone-made-with-its-game'):
    """A game a phone made offline from the table's page, sent now as offline.js sends it: its answer."""
    form = {**new_game_form(PLAYERS), 'table': table_id(table), 'made_here': made_id, 'made_key': key}
    r = client.post('/games/new', data=form, headers={'Accept': 'application/json', 'X-Keep': '1'})
    assert r.status_code == 200, r.get_data(as_text=True)[-400:]
    return r.get_json()


def test_a_game_made_offline_from_the_tables_page_joins_it_with_the_keepers_rights(app, client):
    """Sent later, a game started offline on the table's page joins the table when the phone that sends
    it keeps the table (its cookie, as online); sent again, it is the same game, in the table once."""
    table = make_table(client)
    for _ in range(2):
        answer = made_offline(client, table, 'Tab1e-made_id-01')
        assert answer['id'] == 'Tab1e-made_id-01' and answer['table'] == table_id(table)
    assert 'Tab1e-made_id-01' in text(app.test_client(), table)
    assert text(client, table).count('/games/Tab1e-made_id-01"') == 1


def test_a_game_made_offline_without_the_keepers_rights_is_made_outside_the_table(app, client):
    """A phone that only reads the table (or whose keeping was taken away meanwhile), or a table that
    is no more: the game it made is not lost, nor refused: it is made outside the table, and the answer
    says so (table: None) for the phone to tell."""
    table = make_table(client)
    reader = app.test_client()
    text(reader, table)
    answer = made_offline(reader, table, 'Tab1e-made_id-02')
    assert answer['id'] == 'Tab1e-made_id-02' and answer['table'] is None
    assert reader.get('/games/Tab1e-made_id-02/rounds/1').status_code == 200        # its phone keeps score
    assert 'Tab1e-made_id-02' not in text(client, table)
    answer = made_offline(client, 'nosuchtable', 'Tab1e-made_id-03', key='another-key-of-the-phone-0000')
    assert answer['id'] == 'Tab1e-made_id-03' and answer['table'] is None


def test_a_keeper_link_gives_keeper_rights_and_removal_is_final(app, client):
    table = make_table(client)
    other = app.test_client()
    key = keeper_link_key(client, table)
    assert other.post(table + '/keeper', data={'key': 'wrong'}).status_code == 403
    r = other.post(table + '/keeper', data={'key': key})
    assert r.status_code == 302
    game = game_in(other, table, finish=False)                    # the other phone starts the next game
    assert game.rsplit('/', 1)[-1] in text(client, table)
    page = text(client, table)
    handle = re.findall(r'name="handle" value="([^"]+)"', page)
    assert len(handle) == 1                                        # the maker cannot be removed
    client.post(table + '/keepers/remove', data={'handle': handle[0]})
    r = other.post('/games/new', data={**new_game_form(PLAYERS), 'table': table_id(table)})
    assert r.status_code == 403                                   # at once
    assert other.post(table + '/keeper-link').status_code == 403
    assert other.post(table + '/keeper', data={'key': key}).status_code == 403      # its link ended with it
    assert 'Club de los jueves' in text(other, '/')               # it still reads the table


def test_a_rematch_stays_in_its_table_and_deleting_a_game_takes_it_out(app, client):
    table = make_table(client)
    game = game_in(client, table)
    r = client.post(game + '/rematch', data={'today': '2026-12-03'})
    rematch = r.headers['Location']
    page = text(client, table)
    assert rematch.rsplit('/', 1)[-1] in page
    assert {name: v['Games'] for name, v in standings(page)} == {'Ana': '1', 'Bruno': '1'}
    client.post(game + '/delete')
    page = text(client, table)
    assert game.rsplit('/', 1)[-1] not in page and standings(page) == []


def test_a_finished_game_is_added_by_a_keeper_of_both(app, client):
    table = make_table(client)
    r = client.post('/games/new', data=new_game_form(PLAYERS))
    game = r.headers['Location']
    play_rounds(client, game, ROUNDS, 2)
    game_id = game.rsplit('/', 1)[-1]
    assert game_id in text(client, table)                          # offered in the form
    other = app.test_client()                                      # a keeper of the table, not of the game
    other.post(table + '/keeper', data={'key': keeper_link_key(client, table)})
    assert other.post(table + '/games', data={'game': game_id}).status_code == 400     # not its game to add
    assert client.post(table + '/games', data={'game': game_id}).status_code == 302
    page = text(client, table)
    assert {name: v['Games'] for name, v in standings(page)} == {'Ana': '1', 'Bruno': '1'}
    second = make_table(client, 'Otra mesa')
    assert client.post(second + '/games', data={'game': game_id}).status_code == 400   # one table at most


def test_join_two_names_is_the_tables(app, client):
    table = make_table(client)
    game_in(client, table)
    game_in(client, table, players=('ana', 'Bruno'))
    game_in(client, table, players=('Anita', 'Bruno'))
    r = client.post(table + '/merge', data={'spelling': 'Anita', 'name': 'Ana'})
    assert r.status_code == 302
    reader = app.test_client()
    names = {name: v['Games'] for name, v in standings(text(reader, table))}
    assert names == {'Ana': '3', 'Bruno': '3'}                    # for every phone
    assert client.post(table + '/unmerge', data={'spelling': 'Anita'}).status_code == 302
    assert len(standings(text(reader, table))) == 3


def test_filters_by_kind_and_period_work_as_links(app, client):
    table = make_table(client)
    game_in(client, table)
    page = text(client, table + '?period=year')
    assert 'aria-current="page">This year' in page or 'aria-current="page">Este año' in page
    assert standings(text(client, table + '?kind=five_crowns')) == standings(page)    # not played: the first kind
    assert client.get(table + '?kind=<script>&period=%00').status_code == 200


def test_big_screen_and_print_speak_the_tables_language(client):
    table = make_table(client, language='es')
    game_in(client, table)
    assert 'Clasificación' in text(client, table + '/tv?lang=es')
    page = text(client, table + '/print?lang=es')
    assert 'Clasificación' in page and 'Ana' in page


def test_avg_is_the_penalty_per_round_its_legend_names(client):
    """The legend says 'Avg: penalty per round': a player's Avg is the game total over the rounds
    played (one game of ROUNDS rounds: Best / ROUNDS), on the page, the big screen and the printout."""
    table = make_table(client, language='en')
    game_in(client, table)
    cards = dict(standings(text(client, table)))
    assert cards
    for name, values in cards.items():
        per_round = int(values['Best']) / ROUNDS
        assert values['Avg'] == f'{per_round:.1f}', (name, values)
        for view in ('/tv', '/print'):
            row = re.search(r'>' + name + r'</bdi></th>(.*?)</tr>', text(client, table + view), re.S).group(1)
            assert re.findall(r'<td>(.*?)</td>', row)[3] == f'{per_round:.1f}', (view, name, row)


@pytest.mark.parametrize('form', [
    {}, {'name': ''}, {'name': 'x' * 61}, {'name': 'Club', 'language': 'xx'}, {'name': ('f.txt', b'x')},
])
def test_a_bad_new_table_is_refused_with_the_text_kept(client, form):
    data = dict(form)
    if 'name' in data and isinstance(data['name'], tuple):
        data['name'] = (io.BytesIO(data['name'][1]), data['name'][0])
    r = client.post('/tables/new', data=data, content_type='multipart/form-data')
    assert r.status_code in (400, 422)
    if isinstance(form.get('name'), str) and form['name']:
        assert form['name'][:60] in r.get_data(as_text=True)


def test_bad_posts_to_a_table_are_4xx_never_500(app, client):
    table = make_table(client)
    for path, data in ((table + '/games', {'game': 'nosuchgame'}), (table + '/games', {}),
                       (table + '/merge', {'spelling': 'x'}), (table + '/unmerge', {'spelling': 'x' * 999}),
                       (table + '/keepers/remove', {'handle': 'x' * 999}), (table + '/keeper', {'key': 'x' * 999}),
                       (table + '/keeper', {})):
        assert client.post(path, data=data).status_code in (302, 400, 403), path


def test_the_page_lists_the_newest_finished_games_and_counts_the_rest(app, client, monkeypatch):
    from web import tables
    monkeypatch.setattr(tables, 'LATEST_GAMES', 1)
    table = make_table(client)
    older, newer = game_in(client, table), game_in(client, table)
    page = text(client, table + '?lang=en')
    assert newer.rsplit('/', 1)[-1] in page and older.rsplit('/', 1)[-1] not in page
    assert 'And 1 earlier finished game' in page
    assert {name: v['Games'] for name, v in standings(page)} == {'Ana': '2', 'Bruno': '2'}    # all counted
