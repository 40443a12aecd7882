"""SCORER_METRICS=1: Prometheus metrics at /metrics for a client on this machine; off by default."""

import re

import pytest

from tests.conftest import new_app
from tests.helpers import LOOSE_RATES, PATIENCE, new_game_form, round_form


@pytest.fixture
def measured(tmp_path):
    return new_app({'TESTING': True, 'DATABASE': str(tmp_path / 'm.sqlite'), 'SECRET_KEY': 'test', 'METRICS': True,
                    'WTF_CSRF_ENABLED': False, 'SOLVER_POOL_PROCESSES': 0, **LOOSE_RATES})


def value(text, name, **labels):
    """The sample's value in Prometheus's text format (0 when absent)."""
    for line in text.splitlines():
        sample, _, number = line.rpartition(' ')
        named, _, tail = sample.partition('{')
        if named == name and dict(re.findall(r'(\w+)="([^"]*)"', tail)) == labels:
            return float(number)
    return 0.0


def test_metrics_are_off_by_default(client):
    assert client.get('/metrics').status_code == 404


def test_requests_saves_streams_and_solver_time_are_counted(measured):
    client = measured.test_client()
    before = client.get('/metrics').get_data(as_text=True)
    url = client.post('/games/new', data=new_game_form(['Ana', 'Bruno'])).headers['Location']
    assert client.get(url).status_code == 200
    assert client.post(url + '/rounds/1', data=round_form(0, points=[None, '7'])).status_code == 302
    assert client.post(url + '/rounds/2', data=round_form(9, points=[None, '7'])).status_code != 302   # not saved
    assert client.get('/api/solve?cards=7H+8H+9H+KS&wild=5').status_code == 200
    stream = client.get(url + '/events', buffered=False)
    assert stream.status_code == 200
    during = client.get('/metrics')
    assert during.headers['Cache-Control'] == 'no-store' and during.mimetype == 'text/plain'
    text = during.get_data(as_text=True)
    assert value(text, 'scorer_requests_total', route='/games/<game_id>', method='GET', status='200') == 1
    assert value(text, 'scorer_requests_total', route='/games/<game_id>/rounds/<int:number>', method='POST',
                 status='302') == 1
    assert value(text, 'scorer_round_saves_total') - value(before, 'scorer_round_saves_total') == 1
    assert value(text, 'scorer_live_streams') - value(before, 'scorer_live_streams') == 1
    assert value(text, 'scorer_solver_seconds_count') - value(before, 'scorer_solver_seconds_count') >= 1
    assert url.rsplit('/', 1)[1] not in text                            # a game's id is never a label
    stream.close()
    after = client.get('/metrics').get_data(as_text=True)
    assert value(after, 'scorer_live_streams') == value(before, 'scorer_live_streams')


def test_metrics_answer_only_this_machine(measured):
    client = measured.test_client()
    assert client.get('/metrics').status_code == 200
    assert client.get('/metrics', environ_base={'REMOTE_ADDR': '192.168.1.30'}).status_code == 404


@pytest.mark.slow
def test_under_gunicorn_the_workers_are_added_up(tmp_path):
    """Two gevent workers, each counting in the master's folder (multiprocess mode): /metrics sums them."""
    import urllib.request

    from tests.server import Gunicorn
    server = Gunicorn(tmp_path / 'g.sqlite', workers=2, env={'SCORER_METRICS': '1'}).start()
    try:
        for _ in range(40):                       # new connections: the two workers take them in turn
            urllib.request.urlopen(server.url + '/health', timeout=PATIENCE).read()
        text = urllib.request.urlopen(server.url + '/metrics', timeout=PATIENCE).read().decode()
    finally:
        server.stop()
    health = value(text, 'scorer_requests_total', route='/health', method='GET', status='200')
    startup = value(text, 'scorer_requests_total', route='/sw.js', method='GET', status='200')   # Gunicorn.start's
    assert health == 40 and startup >= 1, text
