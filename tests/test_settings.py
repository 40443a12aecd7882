"""Settings from the environment or from files (SCORER_X_FILE), where the data lives, and the logs as
JSON lines (SCORER_LOG_FORMAT=json) for gunicorn's access and error logs and the app's own."""

import json
import logging
import os
import re
import signal
import subprocess
import sys
import time
import urllib.request

import pytest

import app as app_module
from tests.helpers import PATIENCE
from tests.server import ROOT, free_port
from web.settings import SettingError, setting


def test_a_setting_comes_from_the_environment_or_from_its_file(tmp_path):
    secret = tmp_path / 'key'
    secret.write_text('s3cret from a file\n')
    assert setting('SECRET_KEY', environ={}) is None
    assert setting('WORKERS', '2', environ={}) == '2'
    assert setting('SECRET_KEY', environ={'SCORER_SECRET_KEY': 'plain'}) == 'plain'
    assert setting('SECRET_KEY', environ={'SCORER_SECRET_KEY_FILE': str(secret)}) == 's3cret from a file'
    with pytest.raises(SettingError, match='SCORER_SECRET_KEY and SCORER_SECRET_KEY_FILE are both set'):
        setting('SECRET_KEY', environ={'SCORER_SECRET_KEY': 'a', 'SCORER_SECRET_KEY_FILE': str(secret)})
    with pytest.raises(SettingError, match=f'SCORER_SECRET_KEY_FILE: cannot read {tmp_path / "gone"}'):
        setting('SECRET_KEY', environ={'SCORER_SECRET_KEY_FILE': str(tmp_path / 'gone')})


def test_every_setting_read_is_declared_and_every_declared_one_is_read():
    """web/settings.py SETTINGS is the one list of settings (docs/deploy.md's table is written from
    it): setting() reads no name it lacks, every setting('NAME') of the code names one of it, and
    each of it is named by the code that reads it."""
    from web.settings import SETTINGS
    with pytest.raises(KeyError, match='SCORER_NO_SUCH is no setting'):
        setting('NO_SUCH', environ={'SCORER_NO_SUCH': 'x'})
    code = '\n'.join(path.read_text(encoding='utf-8') for path in [
        ROOT / 'app.py', ROOT / 'gunicorn.conf.py', *(ROOT / 'web').rglob('*.py'), *(ROOT / 'scorer').rglob('*.py')]
        if path.name != 'settings.py')
    assert set(re.findall(r"\bsetting\('(\w+)'", code)) <= set(SETTINGS)
    assert [name for name in SETTINGS if f"'{name}'" not in code] == []


def test_the_app_reads_its_secret_key_and_database_from_files(tmp_path, monkeypatch):
    (tmp_path / 'key').write_text('the key in a file\n')
    (tmp_path / 'where').write_text(str(tmp_path / 'here.sqlite'))
    monkeypatch.setenv('SCORER_SECRET_KEY_FILE', str(tmp_path / 'key'))
    monkeypatch.setenv('SCORER_DATABASE_FILE', str(tmp_path / 'where'))
    made = app_module.create_app({'TESTING': True})
    assert made.config['SECRET_KEY'] == 'the key in a file'
    assert made.config['DATABASE'] == str(tmp_path / 'here.sqlite') and (tmp_path / 'here.sqlite').exists()


def test_where_the_data_lives(tmp_path, monkeypatch):
    assert app_module.data_folder() == str(ROOT / 'instance')              # a checkout: instance/, as flaskr
    monkeypatch.setattr(app_module, 'ROOT', tmp_path / 'installed')       # installed: no Makefile beside app.py
    monkeypatch.setenv('XDG_DATA_HOME', str(tmp_path / 'data'))
    monkeypatch.delenv('STATE_DIRECTORY', raising=False)
    monkeypatch.delenv('SCORER_DATABASE', raising=False)
    assert app_module.database() == str(tmp_path / 'data' / 'three-thirteen' / 'scorer.sqlite')
    monkeypatch.setenv('STATE_DIRECTORY', '/var/lib/three-thirteen')       # systemd's StateDirectory=
    assert app_module.data_folder() == '/var/lib/three-thirteen'
    monkeypatch.setenv('SCORER_DATABASE', str(tmp_path / 'mine.sqlite'))
    assert app_module.database() == str(tmp_path / 'mine.sqlite')


def test_where_the_npm_packages_are_read_from(tmp_path, monkeypatch):
    """SCORER_NODE_MODULES names the npm packages' folder (the picture's fonts and Pyodide); the name it
    had before, SCORER_FONTS, is still read, so an install set up with it goes on serving them."""
    for name in ('SCORER_NODE_MODULES', 'SCORER_FONTS', 'SCORER_NODE_MODULES_FILE', 'SCORER_FONTS_FILE'):
        monkeypatch.delenv(name, raising=False)
    assert app_module.node_modules() == str(ROOT / 'node_modules')
    monkeypatch.setenv('SCORER_FONTS', str(tmp_path / 'old'))
    assert app_module.node_modules() == str(tmp_path / 'old')
    monkeypatch.setenv('SCORER_NODE_MODULES', str(tmp_path / 'new'))
    assert app_module.node_modules() == str(tmp_path / 'new')
    app = app_module.create_app({'TESTING': True, 'DATABASE': str(tmp_path / 'db.sqlite'), 'SECRET_KEY': 'x'})
    assert app.config['NODE_MODULES'] == str(tmp_path / 'new') and 'FONTS' not in app.config


def test_the_apps_own_messages_are_json_lines_when_asked(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv('SCORER_LOG_FORMAT', 'json')
    made = app_module.create_app({'TESTING': True, 'DATABASE': str(tmp_path / 'db.sqlite'), 'SECRET_KEY': 'x'})
    try:
        raise OSError(28, 'No space left on device')
    except OSError:
        made.logger.error('cannot save round %d of "%s"', 3, 'Ana\n', exc_info=True)
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1
    entry = json.loads(lines[0])
    assert entry['level'] == 'error' and entry['message'] == 'cannot save round 3 of "Ana\n"'
    assert 'No space left on device' in entry['exception'] and entry['time'].endswith('+00:00')
    monkeypatch.setenv('SCORER_LOG_FORMAT', 'yaml')
    with pytest.raises(SettingError, match="SCORER_LOG_FORMAT is 'yaml': give one of text, json"):
        app_module.create_app({'TESTING': True, 'DATABASE': str(tmp_path / 'db.sqlite'), 'SECRET_KEY': 'x'})
    logging.getLogger('app').handlers.clear()


@pytest.mark.slow
def test_gunicorn_writes_its_access_and_error_logs_as_json_lines(tmp_path):
    port = free_port()
    access, errors = tmp_path / 'access.log', tmp_path / 'error.log'
    env = {**os.environ, 'SCORER_LOG_FORMAT': 'json', 'SCORER_ACCESS_LOG': str(access), 'SCORER_ERROR_LOG': str(errors),
           'SCORER_BIND': f'127.0.0.1:{port}', 'SCORER_WORKERS': '1', 'SCORER_DATABASE': str(tmp_path / 'db.sqlite'),
           'SCORER_SECRET_KEY': 'logs'}
    server = subprocess.Popen([sys.executable, '-m', 'gunicorn', '--log-level', 'info', 'app:create_app()'], cwd=ROOT,
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + PATIENCE
        while True:
            try:
                urllib.request.urlopen(f'http://127.0.0.1:{port}/health?from=test', timeout=2).read()
                break
            except OSError:
                assert time.monotonic() < deadline and server.poll() is None
                time.sleep(0.2)
        try:
            urllib.request.urlopen(f'http://127.0.0.1:{port}/no-such-page', timeout=PATIENCE)
        except urllib.error.HTTPError as e:
            assert e.code == 404
    finally:
        server.terminate()
        server.wait(timeout=30)
    requests = [json.loads(line) for line in access.read_text().splitlines()]
    health = next(r for r in requests if r['path'] == '/health')
    assert health['status'] == 200 and health['query'] == 'from=test' and health['method'] == 'GET'
    assert health['remote'] == '127.0.0.1' and health['seconds'] >= 0 and health['bytes'] > 0
    assert next(r for r in requests if r['path'] == '/no-such-page')['status'] == 404
    logged = [json.loads(line) for line in errors.read_text().splitlines()]      # every line JSON
    assert any('Booting worker' in e['message'] for e in logged) and all(e['logger'].startswith('gunicorn') for e in logged)


@pytest.mark.parametrize('name, value, why', [
    ('WORKERS', 'two', 'give a whole number'), ('WORKERS', '0', 'give a whole number, 1 or more'),
    ('BODY_SECONDS', 'nan', 'give a number of seconds above 0'), ('LIVE_KEEPALIVE', 'soon', 'give a number of seconds'),
    ('POOL_NICE', '40', 'give a whole number from -20 to 19'), ('BIND', 'localhost', 'give host:port'),
    ('GAME_RATE', 'lots', 'give budgets such as'), ('METRICS', 'maybe', 'give one of 0, 1, true'),
    ('CERTFILE', '/no/such.pem', 'no such file')])
def test_a_setting_of_the_wrong_kind_is_refused_as_it_is_read(name, value, why):
    with pytest.raises(SettingError) as refused:
        setting(name, environ={f'SCORER_{name}': value})
    assert str(refused.value).startswith(f'SCORER_{name} is {value!r}: {why}')
    assert setting(name, 'default', environ={}) == 'default'


def started(command, env, timeout=PATIENCE):
    return subprocess.run([sys.executable, *command], cwd=ROOT, capture_output=True, text=True, timeout=timeout,
                          env={**{k: v for k, v in os.environ.items() if not k.startswith('SCORER_')}, **env})


COMMANDS = (['-m', 'web.cli', 'serve'], ['-m', 'web.cli', 'run'], ['-m', 'web.settings'])


# Every command in both log formats with one bad setting; the other faults with one command each (the
# settings are read by one function, web/settings.py, whatever the command: each start costs a process).
@pytest.mark.parametrize('bad, named, commands, formats', [
    ({'SCORER_WORKERS': 'two'}, "SCORER_WORKERS is 'two': give a whole number", COMMANDS, ('text', 'json')),
    ({'SCORER_HSTS_SECONDS': '-1'}, "SCORER_HSTS_SECONDS is '-1': give a whole number, 0 or more", COMMANDS[:1],
     ('json',)),
    ({'SCORER_SECRET_KEY': 'a', 'SCORER_SECRET_KEY_FILE': '/etc/hostname'},
     'SCORER_SECRET_KEY and SCORER_SECRET_KEY_FILE are both set: give one', COMMANDS[1:2], ('text',))],
    ids=['bad-kind', 'out-of-range', 'doubled'])
def test_a_bad_or_doubled_setting_stops_the_start_in_one_line_before_any_worker(bad, named, commands, formats,
                                                                                tmp_path):
    """`three-thirteen serve` and `run`, and make run's first step (python -m web.settings): one line
    naming the setting, exit status 2, nothing started (no gunicorn, no data folder made)."""
    env = {**bad, 'SCORER_DATABASE': str(tmp_path / 'data' / 'scorer.sqlite')}
    for command in commands:
        if command[-1] == 'serve':
            command = [*command, '--bind', f'127.0.0.1:{free_port()}']
        for log_format in formats:
            result = started(command, {**env, 'SCORER_LOG_FORMAT': log_format})
            assert result.returncode == 2, (command, result.stderr)
            lines = result.stderr.splitlines()
            assert len(lines) == 1 and result.stdout == '', (command, result.stderr)
            said = json.loads(lines[0])['message'] if log_format == 'json' else lines[0]
            assert said == f'three-thirteen: {named}', (command, said)
    assert not (tmp_path / 'data').exists()


def test_the_secret_key_lives_beside_the_database_in_a_folder_of_its_owner(tmp_path, monkeypatch):
    """Installed (no Makefile beside app.py) with SCORER_DATABASE: the key and the counts beside it, the
    folder made 0700, and no data folder of the user's made."""
    monkeypatch.setattr(app_module, 'ROOT', tmp_path / 'installed')
    monkeypatch.setenv('XDG_DATA_HOME', str(tmp_path / 'user-data'))
    monkeypatch.delenv('SCORER_SECRET_KEY', raising=False)
    monkeypatch.delenv('STATE_DIRECTORY', raising=False)
    monkeypatch.setenv('SCORER_DATABASE', str(tmp_path / 'kept' / 'scorer.sqlite'))
    made = app_module.create_app()
    kept = tmp_path / 'kept'
    assert (kept / 'secret_key').read_text() == made.config['SECRET_KEY']
    assert made.config['LIMITS_DATABASE'] == str(kept / 'scorer-limits.sqlite')
    assert oct(kept.stat().st_mode & 0o777) == oct(0o700) and oct((kept / 'secret_key').stat().st_mode & 0o777) == oct(0o600)
    assert not (tmp_path / 'user-data').exists()
    monkeypatch.delenv('SCORER_DATABASE')                     # the user's own data folder, made 0700 too
    app_module.create_app()
    folder = tmp_path / 'user-data' / 'three-thirteen'
    assert (folder / 'secret_key').exists() and oct(folder.stat().st_mode & 0o777) == oct(0o700)


def as_from_a_terminal():
    """The server started as a person starts it: Ctrl-C (SIGINT) not ignored. A pytest-xdist worker
    ignores it, and an ignored signal stays ignored across exec: Python then leaves it so, and the
    development server, sent Ctrl-C, went on forever."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


START_GUARD = 300        # a hang guard: the server answers its first page within this, however busy the machine


def quick_stop(stop, env, command='serve'):
    """`three-thirteen serve` with one worker (or `run`, the development server), asked one page, then
    stopped (`stop`: the signal to its process group, as systemd or Ctrl-C send it) as soon as that page
    came: (stdout, stderr) lines."""
    port = free_port()
    where = (['--bind', f'127.0.0.1:{port}', '--workers', '1'] if command == 'serve'
             else ['--host', '127.0.0.1', '--port', str(port)])
    server = subprocess.Popen([sys.executable, '-m', 'web.cli', command, *where],
                              cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              start_new_session=True, preexec_fn=as_from_a_terminal)
    try:
        deadline = time.monotonic() + START_GUARD
        while True:
            try:
                urllib.request.urlopen(f'http://127.0.0.1:{port}/', timeout=5).read()   # starts the solver's process
                break
            except OSError:
                assert time.monotonic() < deadline and server.poll() is None, server.communicate()
                time.sleep(0.1)
    finally:
        os.killpg(server.pid, stop)
        # The streams end when every process holding them has: the server, and a pool process it started
        # (its own process group, at a lower priority: on a busy machine its start can take a minute,
        # and it ends once it finds its server gone). Waited for up to the test's own hang guard.
        out, err = server.communicate()
    return out.splitlines(), err.splitlines()


@pytest.mark.slow
@pytest.mark.parametrize('stop', [signal.SIGTERM, signal.SIGINT])
def test_with_json_logs_every_line_of_both_streams_is_json_and_a_stop_prints_no_traceback(stop, tmp_path):
    """The start banner, gunicorn's own lines, the access log on stdout: each line one JSON object; and
    the pool's processes end quietly with their server, however soon after its first request."""
    env = {**{k: v for k, v in os.environ.items() if not k.startswith('SCORER_')}, 'SCORER_LOG_FORMAT': 'json',
           'SCORER_ACCESS_LOG': '-', 'SCORER_DATABASE': str(tmp_path / 'db.sqlite'), 'SCORER_SECRET_KEY': 'logs'}
    out, err = quick_stop(stop, env)
    entries = [json.loads(line) for line in out + err]             # every line of both streams: JSON
    assert any(e['message'].startswith('three-thirteen ') and 'the data in' in e['message'] for e in entries)
    assert any('Booting worker' in e['message'] for e in entries)
    assert any(e.get('path') == '/' and e.get('status') == 200 for e in entries)
    assert not [e for e in entries if 'Traceback' in json.dumps(e)]


@pytest.mark.slow
def test_with_json_logs_the_development_server_writes_json_too(tmp_path):
    """`three-thirteen run` (werkzeug's server): where it listens, the request, the app's own lines:
    each one JSON object, and Ctrl-C prints no traceback."""
    env = {**{k: v for k, v in os.environ.items() if not k.startswith('SCORER_')}, 'SCORER_LOG_FORMAT': 'json',
           'SCORER_DATABASE': str(tmp_path / 'db.sqlite'), 'SCORER_SECRET_KEY': 'logs'}
    out, err = quick_stop(signal.SIGINT, env, command='run')
    entries = [json.loads(line) for line in out + err]             # every line of both streams: JSON
    assert any('Running on' in e['message'] for e in entries)
    assert any('"GET / HTTP/1.1" 200' in e['message'] for e in entries)
    assert not [e for e in entries if 'Traceback' in json.dumps(e)]
