"""Fixtures: an app on a fresh database file, its test client, a game made through the form,
and for the browser journeys one Chromium and the app served on loopback."""

import os
import shutil
from pathlib import Path

import jinja2
import pytest
from hypothesis import HealthCheck, settings

from app import create_app
from tests.helpers import LOOSE_RATES, new_game_form

# Property tests run all their examples in `make test` (HYPOTHESIS_PROFILE=ci) and a tenth of them in
# the quick core (`make check`: the dev profile, the default); tests/hands.examples() scales a test's
# own count by the profile's. No deadline: the solver's speed is checked by benchmarks, not here.
settings.register_profile('ci', deadline=None, suppress_health_check=list(HealthCheck), max_examples=100,
                          print_blob=True)
settings.register_profile('dev', parent=settings.get_profile('ci'), max_examples=10)
settings.load_profile(os.environ.get('HYPOTHESIS_PROFILE', 'dev'))



def pytest_sessionstart(session):
    """The compiled catalogs (.mo) are made from the .po files kept in the repository, if missing
    (by the run itself, or by pytest-xdist's controller before its workers start: never by two at once)."""
    if hasattr(session.config, 'workerinput'):
        return
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po
    for po in (Path(__file__).resolve().parent.parent / 'translations').glob('*/LC_MESSAGES/messages.po'):
        mo = po.with_suffix('.mo')
        if not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime:
            with po.open('rb') as f:
                catalog = read_po(f)
            with mo.open('wb') as f:
                write_mo(f, catalog)


def pytest_collection_modifyitems(items):
    """Every test that drives Chromium is marked `browser`: `pytest -m 'not browser'` runs the quick core.
    The tests marked `long` come first, so that spread over the cores (pytest-xdist hands each
    worker the next test as it is free) the run does not end with one core on a long test alone.
    Of the tests that use the installed package (`installed`: pipx install . once a run), the longest
    comes first, its worker making the install, and the others last, when it is made: started
    together, every worker would wait for the one install."""
    for item in items:
        if 'browser' in getattr(item, 'fixturenames', ()):
            item.add_marker(pytest.mark.browser)
    installs = [item for item in items if 'installed' in getattr(item, 'fixturenames', ())]
    first = max(installs, key=minutes, default=None)
    items.sort(key=lambda item: (item in installs and item is not first, -minutes(item)))


def minutes(item):
    """About how many minutes a test marked `long` takes (`@pytest.mark.long(9)`; 1 if unsaid; 0 unmarked)."""
    mark = item.get_closest_marker('long')
    return 0 if mark is None else (mark.args[0] if mark.args else 1)


class CompiledTemplates(jinja2.BytecodeCache):
    """Each template compiled once a run, not once a test: every test makes a fresh app, and compiling
    the templates was most of what a test took. Jinja checks each template's source against its
    compiled copy, so a template changed on disk is compiled again."""

    def __init__(self):
        self.compiled = {}

    def load_bytecode(self, bucket):
        if bucket.key in self.compiled:
            bucket.bytecode_from_string(self.compiled[bucket.key])

    def dump_bytecode(self, bucket):
        self.compiled[bucket.key] = bucket.bytecode_to_string()


TEMPLATES = CompiledTemplates()


EMPTY = {}          # the path of an empty database with the schema brought up to date, made once a run


@pytest.fixture(scope='session', autouse=True)
def empty_database(tmp_path_factory):
    """An empty database at today's schema, made once a run by the store's own migrations: each test's
    database starts as a copy of it (migrating a new file was a third of what making a test's app took)."""
    from web import store
    path = tmp_path_factory.mktemp('empty') / 'empty.sqlite'
    store.connect(str(path)).close()
    EMPTY['path'] = path
    yield path
    EMPTY.clear()


@pytest.fixture(scope='session', autouse=True)
def phone_routes(tmp_path_factory):
    """The phone's scorer, run here in CPython, knows the server's routes as its bundle carries them
    (web/bundle.routes, from app.url_map; test_offline_one_place.py checks the bundle's own file)."""
    from web import bundle, phone
    app = create_app({'TESTING': True, 'DATABASE': str(tmp_path_factory.mktemp('routes') / 'routes.sqlite'),
                      'SECRET_KEY': 'routes'})
    phone.PHONE = phone.Phone(routes=bundle.routes(app))
    yield phone.PHONE.routes
    phone.PHONE = None


def new_app(config):
    """The app with a test's config on a fresh database (a copy of the empty one, if its file is not
    there yet), its templates compiled once a run (see CompiledTemplates)."""
    database = config.get('DATABASE')
    if database and database != ':memory:' and EMPTY and not os.path.exists(database):
        shutil.copyfile(EMPTY['path'], database)
    app = create_app(config)
    app.jinja_env.bytecode_cache = TEMPLATES
    return app


@pytest.fixture
def app(tmp_path):
    return new_app({'TESTING': True, 'DATABASE': str(tmp_path / 'test.sqlite'), 'SECRET_KEY': 'test',
                    'WTF_CSRF_ENABLED': False, **LOOSE_RATES})


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def make_game(client):
    """Create a game through the form; returns its sheet URL."""
    def make(players=('Ana', 'Bruno', 'Carla'), **settings):
        r = client.post('/games/new', data=new_game_form(players, **settings))
        assert r.status_code == 302, r.get_data(as_text=True)
        return r.headers['Location']
    return make


@pytest.fixture(scope='session')
def browser():
    """Debian's Chromium through Playwright, once for each process of the run (each pytest-xdist
    worker has its own). Every expect() waits for its condition up to WAIT_MS, a hang guard: a test
    says what the page must come to show, not how soon (speed is the benchmarks' business)."""
    sync_api = pytest.importorskip('playwright.sync_api')
    from tests.browser import WAIT_MS, launch
    sync_api.expect.set_options(timeout=WAIT_MS)
    with sync_api.sync_playwright() as p:
        b = launch(p)
        yield b
        b.close()


@pytest.fixture
def server(tmp_path, request):
    """The app on a fresh database, served on a loopback port for the browser. Its phones keep a game's
    pages, but the offline bundle (Pyodide, 14 MB a new phone) only for a test marked `pyodide`: the
    others never play offline, and fetching it was a third of what a journey cost."""
    from tests.server import Server
    app = new_app({'TESTING': True, 'DATABASE': str(tmp_path / 'served.sqlite'), 'SECRET_KEY': 'served',
                   'OFFLINE_BUNDLE': request.node.get_closest_marker('pyodide') is not None, **LOOSE_RATES})
    with Server(app) as s:
        yield s


@pytest.fixture(scope='session')
def certificate(tmp_path_factory):
    """A self-signed certificate for 127.0.0.1, made with openssl: (certificate, key)."""
    import subprocess
    folder = tmp_path_factory.mktemp('tls')
    subprocess.run(['openssl', 'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1',
                    '-keyout', folder / 'key.pem', '-out', folder / 'cert.pem', '-subj', '/CN=127.0.0.1',
                    '-addext', 'subjectAltName=IP:127.0.0.1'], check=True, capture_output=True)
    return folder / 'cert.pem', folder / 'key.pem'


@pytest.fixture(scope='session')
def installed(tmp_path_factory, worker_id):
    """The app as deployed: `pipx install .` on a clean clone, once a run (tests/installed.py)."""
    from tests import installed as deployed
    return deployed.installed(tmp_path_factory, worker_id)
