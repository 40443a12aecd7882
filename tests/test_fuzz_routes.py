"""No input gives a 5xx: every route of the app (read from its URL map, so a new one is in) gets, in
every form field and query parameter it reads, a number of 5,000 digits, NaN, a negative number,
the field repeated, and the field missing, one at a time from a request that would work; as the
scorekeeper, and on a seated player's routes as that player. Each answer must be below 500.

Which names a route reads is found by asking it: the working request is sent once with the request's
parameters recording every name looked up (a form's fields, request.args.get(...)); to those are
added every name any view reads or any form has, all at once. The quick core (`make check`) sends the
5,000-digit number; `make test` every value, the field repeated and the field missing."""

import os
import re
import shutil
import tempfile
from pathlib import Path

import pytest
from wtforms import FieldList, FormField
from werkzeug.datastructures import ImmutableMultiDict
from wtforms.fields.core import UnboundField

from app import create_app
from scorer.rules import CHOICES
from tests.helpers import LOOSE_RATES
from tests.helpers import EVERY_RUN, new_game, new_game_form, play_rounds, round_form
from web import audit, forms

ROOT = Path(__file__).resolve().parent.parent
HUGE = '9' * 5000
EVERY = EVERY_RUN
VALUES = [HUGE, 'NaN', '-1', '-' + HUGE, 'inf', '1e309'] if EVERY else [HUGE]
STREAMS = {'live.events'}             # answered as a stream: the status is checked, the stream let go


def names_read():
    """Every query or form name any view reads (request.args.get('x'), args['x'], request.form.get('x')),
    every setting, the audit's parameters, and every field of every form (seat-numbered ones as seat 0
    and seat 1)."""
    found = set()
    for path in [*(ROOT / 'web').glob('*.py'), ROOT / 'scorer' / 'query.py']:
        found |= set(re.findall(r"(?:args|form)(?:\.get|\.getlist)?\(?\[?'([a-z_]+)'", path.read_text()))
    found |= set(CHOICES) | set(audit.PARAMETERS)
    for form in (forms.NewGameForm, forms.RoundForm, forms.HandForm, forms.SelfEntryForm, forms.RematchForm,
                 forms.RestoreForm, forms.UndoForm, forms.MergeForm, forms.HandoverForm, forms.ImportForm,
                 forms.TableForm, forms.TableGameForm, forms.TableImportForm):
        for name, unbound in fields_of(form):
            if issubclass(unbound.field_class, FieldList):
                inner = unbound.args[0]
                if issubclass(inner.field_class, FormField):
                    found |= {f'{name}-{seat}-{sub}' for seat in (0, 1) for sub, _u in fields_of(inner.args[0])}
                else:
                    found |= {f'{name}-{seat}' for seat in (0, 1)}
            else:
                found.add(name)
    found |= {'colour-0', 'colour-1', 'csrf_token', 'do_handshake_on_connect'}
    return sorted(found - {'do_handshake_on_connect'})


def fields_of(form):
    """(name, unbound field) of a form class."""
    return [(name, getattr(form, name)) for name in dir(form) if isinstance(getattr(form, name, None), UnboundField)]


class Recording(ImmutableMultiDict):
    """Request parameters that note every name looked up in them (in `asked`, while it is a set)."""
    asked = None

    def note(self, key):
        if Recording.asked is not None and isinstance(key, str):
            Recording.asked.add(key)

    def __contains__(self, key):
        self.note(key)
        return super().__contains__(key)

    def __getitem__(self, key):
        self.note(key)
        return super().__getitem__(key)

    def get(self, key, default=None, type=None):
        self.note(key)
        return super().get(key, default, type)

    def getlist(self, key, type=None):
        self.note(key)
        return super().getlist(key, type)


@pytest.fixture(scope='module')
def table(tmp_path_factory):
    """An app with a game two rounds in, a seated player's hand drafted, and the three phones. Its
    database is in memory's file system where there is one: hundreds of writes, each one synced."""
    shm = Path('/dev/shm')
    folder = Path(tempfile.mkdtemp(dir=shm)) if shm.is_dir() and os.access(shm, os.W_OK) else \
        tmp_path_factory.mktemp('routes')
    yield from played(folder)
    shutil.rmtree(folder, ignore_errors=True)


def played(folder):
    app = create_app({'TESTING': True, 'WTF_CSRF_ENABLED': False, 'SECRET_KEY': 'f', **LOOSE_RATES,
                      'DATABASE': str(folder / 'routes.sqlite')})
    app.request_class = type('RecordingRequest', (app.request_class,), {'parameter_storage_class': Recording})
    keeper, seated = app.test_client(), app.test_client()
    url = new_game(keeper, ['Ana', 'Bruno', 'Carla'])
    play_rounds(keeper, url, 2, 3, went_out=0, points=[None, 4, 5])
    seated.post(url + '/seats/1')
    seated.post(url + '/hand', data={'round': '3', 'cards': '7H 8H'})
    app.config['FUZZ_TABLE'] = keeper.post('/tables/new', data={'name': 'Club', 'language': 'en'}).headers['Location']
    yield app, keeper, seated, url


def baseline(endpoint):
    """A request to this route that would work (what its page sends)."""
    return {
        'games.new_game': new_game_form(['Ana', 'Bruno']),
        'rounds.round_entry': round_form(0, points=[None, '4', '5'], version=0),
        'rounds.restore': {'history': '1', 'version': '1'},
        'rounds.undo': {'version': '1'},
        'games.colours': {'colour-0': '1', 'colour-1': '0', 'colour-2': '2'},
        'games.keeper': {'key': 'x' * 32},
        'seats.hand': {'round': '3', 'cards': '7H 8H 9H', 'points': ''},
        'seats.self_entry': {'allowed': '1'},
        'stats.merge': {'spelling': 'Ana', 'name': 'Bruno'},
        'stats.unmerge': {'spelling': 'ana'},
        'api.solve_hand': {'cards': '7H 8H 9H', 'wild': '5'},
        'audit.audit': {'cards': '7H 8H 9H KS', 'round': '3', 'claim': '10', 'melds': '7H 8H 9H'},
        'audit.audit_api': {'cards': '7H 8H 9H KS', 'round': '3', 'claim': '10'},
        'audit.preview': {'cards': '7H 8H 9H KS', 'round': '3'},
        'switcher.choose_language': {'next': '/audit'},
        'tables.new_table': {'name': 'Club', 'language': 'es'},
        'tables.keeper': {'key': 'x' * 32},
        'tables.merge': {'spelling': 'Ana', 'name': 'Bruno'},
        'tables.unmerge': {'spelling': 'ana'},
        'tables.add_game': {'game': 'GAME'},
    }.get(endpoint, {})


def path_of(rule, url, app):
    """The rule's path for the table's game (its third round, the seat of Bruno)."""
    from web.bundle import packages, pyodide_version, release
    with app.test_request_context():
        values = {'game_id': url.rsplit('/', 1)[1], 'number': 3, 'seat': 1, 'code': 'es', 'release': release(),
                  'name': 'pyodide-lock.json', 'filename': 'style.css', 'version': pyodide_version(),
                  'digest': packages()[1], 'table_id': app.config['FUZZ_TABLE'].rsplit('/', 1)[1]}
    return re.sub(r'<(?:\w+:)?(\w+)>', lambda m: str(values[m.group(1)]), rule.rule)


def variants(endpoint, names, every):
    """(what is changed, form or query): every name at once for each value; then for each name each
    value, repeated, missing."""
    base = baseline(endpoint)
    if 'audit' in endpoint or 'solve' in endpoint:
        base = {**base, 'game': 'GAME'}
    for value in VALUES:
        yield f'every name={value[:12]}', {**base, **{name: value for name in every}}
    for name in names:
        for value in VALUES:
            yield f'{name}={value[:12]}', {**base, name: value}
        if EVERY:
            yield f'{name} twice', {**base, name: [str(base.get(name, '1')), HUGE]}
            if name in base:
                yield f'{name} missing', {k: v for k, v in base.items() if k != name}


def ask(phone, rule, method, path, fields, game_id):
    """The names the route reads when sent a request that works."""
    if 'audit' in rule.endpoint or 'solve' in rule.endpoint:
        fields = {**fields, 'game': game_id}
    if rule.endpoint == 'games.delete':
        return {'csrf_token'}
    Recording.asked = set()
    try:
        r = (phone.get(path, query_string=fields, buffered=rule.endpoint not in STREAMS) if method == 'GET'
             else phone.post(path, data=fields))
        r.close()
        return Recording.asked | set(fields)
    finally:
        Recording.asked = None


def routes(app):
    for rule in app.url_map.iter_rules():
        for method in sorted(rule.methods & {'GET', 'POST'}):
            yield rule, method


def test_no_input_to_any_route_is_a_server_error(table):
    app, keeper, seated, url = table
    app.config['PROPAGATE_EXCEPTIONS'] = False
    names = names_read()
    game_id = url.rsplit('/', 1)[1]
    failures, sent = [], 0
    for rule, method in routes(app):
        if rule.endpoint in ('static', 'offline.pyodide'):
            continue
        path = path_of(rule, url, app)
        phones = [seated] if rule.endpoint.startswith('seats.') and 'free' not in rule.rule else [keeper]
        asked = ask(phones[0], rule, method, path, baseline(rule.endpoint), game_id)
        for what, fields in variants(rule.endpoint, sorted(asked), names):
            fields = {k: (game_id if v == 'GAME' else v) for k, v in fields.items()}
            for phone in phones:
                if rule.endpoint == 'games.delete' and method == 'POST':
                    target = phone.post('/games/new', data=new_game_form(['Del', 'Me'])).headers['Location']
                    target = path.replace(url, target)
                else:
                    target = path
                r = (phone.get(target, query_string=fields, buffered=rule.endpoint not in STREAMS)
                     if method == 'GET' else phone.post(target, data=fields))
                sent += 1
                if r.status_code >= 500:
                    failures.append((method, rule.rule, what, r.status_code))
                r.close()
    assert failures == [] and sent > 200, failures[:20]


def test_the_three_inputs_once_a_500_give_400_with_a_message(table):
    """Issue 37's three: a handover with no key, a seat field numbered with 5,000 digits, who went out of 5,000 digits."""
    app, keeper, seated, url = table
    keeper.set_cookie('lang', 'en')                     # the language switcher had its turn above
    other = app.test_client()
    r = other.post(url + '/keeper', data={})
    assert r.status_code == 400 and 'No key was sent' in r.get_data(as_text=True)
    r = keeper.post('/games/new', data={**new_game_form(['Ana', 'Bruno']), 'players-' + HUGE: 'Zoë'})
    page = r.get_data(as_text=True)
    assert r.status_code == 400 and 'a seat no table has' in page and 'value="Ana"' in page
    r = keeper.post(url + '/rounds/3', data={**round_form(0, points=[None, '4', '5'], version=0), 'went_out': HUGE})
    page = r.get_data(as_text=True)
    assert r.status_code == 400 and 'Who went out must be a seat at this table' in page and 'value="4"' in page
