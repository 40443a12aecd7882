"""/health: 200 with the release while the database answers, 503 with the reason when it does not."""

import gc
import os
import resource
from contextlib import contextmanager

from web import __version__, bundle


def test_health_says_the_database_answers_and_the_releases(app, client):
    r = client.get('/health')
    assert r.status_code == 200
    assert r.headers['Cache-Control'] == 'no-store'
    with app.app_context():
        offline_release = bundle.release() if bundle.available() else None
    assert offline_release                       # make installs Pyodide
    assert r.get_json() == {'status': 'ok', 'database': 'ok', 'saves': 'ok', 'release': __version__,
                            'offline_release': offline_release, 'waiting_for_lock': 0}
    assert 'Set-Cookie' not in r.headers          # a monitor polling it gets no browser token


def test_health_counts_the_requests_that_wait_for_a_held_database(client):
    """While a request waits in store.waited()'s sleeps for a database another connection holds, /health
    counts it (`waiting_for_lock`), and counts it no more once it is through or has given up."""
    import sqlite3

    from web import store

    told = []

    def attempt():
        told.append(client.get('/health').get_json()['waiting_for_lock'])
        if len(told) < 3:
            raise sqlite3.OperationalError('database is locked')
        return 'saved'
    assert store.waited(attempt, 60_000) == 'saved'
    assert told == [0, 1, 1]                   # the first try waits for nothing; the next two wait
    assert client.get('/health').get_json()['waiting_for_lock'] == 0

    def held():
        raise sqlite3.OperationalError('database is locked')
    try:
        store.waited(held, 30)
    except sqlite3.OperationalError:
        pass
    else:
        raise AssertionError('a database held past the wait is the busy error')
    assert client.get('/health').get_json()['waiting_for_lock'] == 0


def test_health_without_pyodide_names_no_offline_release(tmp_path):
    from tests.conftest import new_app
    app = new_app({'DATABASE': str(tmp_path / 'db.sqlite'), 'NODE_MODULES': str(tmp_path / 'none')})
    assert app.test_client().get('/health').get_json()['offline_release'] is None


def test_health_is_503_with_the_reason_when_the_database_does_not_answer(app, client):
    assert client.get('/health').status_code == 200
    database = app.config['DATABASE']
    for suffix in ('-wal', '-shm'):
        try:
            os.remove(database + suffix)
        except FileNotFoundError:
            pass
    with open(database, 'wb') as f:              # the disk gave it back as garbage
        f.write(b'not a database at all, ' * 200)
    r = client.get('/health')
    assert r.status_code == 503
    assert r.headers['Cache-Control'] == 'no-store'
    body = r.get_json()
    assert body['status'] == 'unavailable' and 'not a database' in body['database']
    assert body['release'] == __version__


@contextmanager
def no_file_left():
    """This process out of files (EMFILE), as a worker whose every file is a connection, until the end.
    Nothing the garbage collector frees meanwhile gives a file back (a file an earlier test left to it,
    freed mid-request, made the page of a worker out of files draw on a busy machine)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    held = []
    gc.collect()
    gc.disable()
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(int(fd) for fd in os.listdir('/proc/self/fd')) + 8, hard))
    try:
        while True:
            try:
                held.append(os.open(os.devnull, os.O_RDONLY))
            except OSError:
                break
        yield
    finally:
        for fd in held:
            os.close(fd)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
        gc.enable()


def test_out_of_files_is_said_as_such_not_as_a_disk_that_cannot_be_written(app, client, make_game):
    """A worker with every file taken by connections: /health and a page that needs the database say
    that the server has too many connections open, not that its disk is full or read-only, and the
    error page itself is drawn (its templates were read at start)."""
    game = make_game()
    assert client.get('/health').status_code == 200         # a worker that has answered before
    with no_file_left():
        health = client.get('/health')
        page = client.get(game)
    assert health.status_code == 503 and 'too many open files' in health.get_json()['database']
    assert page.status_code == 503
    text = page.get_data(as_text=True)
    assert 'too many connections open' in text and 'full or read-only' not in text
