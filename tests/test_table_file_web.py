"""Our table's file and CSV through the web (issue 53): the file exported imports back as the same
table (the same figures), a file with anything wrong imports nothing and says why, and the CSV is
a game a line."""

import io
import json

import pytest

from tests.test_tables_web import game_in, make_table, standings, text


def test_the_table_file_round_trips_exactly_and_a_bad_one_imports_nothing(app, client):
    table = make_table(client)
    game_in(client, table)
    game_in(client, table, players=('Ana', 'Bruno', 'Carla'))
    r = client.get(table + '/export.json')
    assert r.status_code == 200 and r.headers['Content-Disposition'].startswith('attachment')
    data = r.get_data()
    other = app.test_client()
    r = other.post('/tables/import', data={'table_file': (io.BytesIO(data), 'club.json')},
                   content_type='multipart/form-data')
    assert r.status_code == 302
    assert standings(text(other, r.headers['Location'])) == standings(text(client, table))
    broken = json.loads(data)
    broken['games'][1]['game']['rounds'] = 'nope'
    before = text(other, '/')
    r = other.post('/tables/import', data={'table_file': (io.BytesIO(json.dumps(broken).encode()), 'bad.json')},
                   content_type='multipart/form-data')
    assert r.status_code == 400 and 'Nothing was imported' in r.get_data(as_text=True)
    assert text(other, '/').count('Club de los jueves') == before.count('Club de los jueves')


def test_the_csv_is_a_game_a_line(client):
    table = make_table(client)
    game_in(client, table)
    game_in(client, table)
    r = client.get(table + '/export.csv')
    assert r.status_code == 200 and r.mimetype == 'text/csv'
    lines = [line for line in r.get_data(as_text=True).lstrip('\ufeff').splitlines() if line]
    assert len(lines) == 3                                        # a heading and a game a line


@pytest.mark.parametrize('upload', [b'', b'{', b'[]', b'{"version": 2}', b'\xff\xfe', b'{"version": 1, "table": {}}'])
def test_a_hostile_table_file_is_refused_cleanly(client, upload):
    r = client.post('/tables/import', data={'table_file': (io.BytesIO(upload), 't.json')},
                    content_type='multipart/form-data')
    assert r.status_code == 400 and 'Nothing was imported' in r.get_data(as_text=True)
    assert client.post('/tables/import', data={}).status_code == 400
