"""The package: `pip install .` from a checkout, with no make, gives the three-thirteen command, which
serves the app with everything a checkout has (catalogs, templates, static files, Pyodide, fonts)."""

import json
import os
import re
import signal
import subprocess
import time
import tomllib
import urllib.request
import venv
from pathlib import Path

import pytest

from tests.server import free_port

ROOT = Path(__file__).resolve().parent.parent


def pins(lines):
    """{name: version} of the `name==version` lines."""
    found = {}
    for line in lines:
        line = line.split('#')[0].strip()
        if '==' in line:
            name, version = line.split('==')
            found[name.strip().lower()] = version.strip()
    return found


def test_one_list_of_dependencies():
    """The package's dependencies are requirements.txt itself (what make installs); what the build needs
    of the app's packages is pinned as there."""
    project = tomllib.loads((ROOT / 'pyproject.toml').read_text())
    assert 'dependencies' not in project['project'] and 'dependencies' in project['project']['dynamic']
    assert project['tool']['setuptools']['dynamic']['dependencies'] == {'file': ['requirements.txt']}
    needed = pins((ROOT / 'requirements.txt').read_text().splitlines())
    built = pins(project['build-system']['requires'])
    assert all(needed[name] == version for name, version in built.items() if name in needed), built
    assert {'babel', 'fonttools', 'brotli'} <= set(built)


def run(*args, **kwargs):
    return subprocess.run(args, capture_output=True, text=True, check=True, timeout=600, **kwargs)


def checkout(folder):
    """A copy of this checkout's files, as a clone has them (no .mo, no build/), with make's node_modules."""
    listed = run('git', 'ls-files', '--cached', '--others', '--exclude-standard', '-z', cwd=ROOT).stdout
    for name in filter(None, listed.split('\0')):
        source = ROOT / name
        if source.is_file():
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            (folder / name).write_bytes(source.read_bytes())
    (folder / 'node_modules').symlink_to(ROOT / 'node_modules')     # npm's, installed once (make)
    assert not list(folder.glob('translations/*/LC_MESSAGES/*.mo'))


def get(url):
    with urllib.request.urlopen(url, timeout=10) as r:
        return r.status, r.headers, r.read()


@pytest.mark.slow
@pytest.mark.long
def test_pip_install_gives_the_command_that_serves_the_app(tmp_path):
    source, env_folder, home = tmp_path / 'clone', tmp_path / 'venv', tmp_path / 'home'
    source.mkdir()
    home.mkdir()
    checkout(source)
    venv.create(env_folder, with_pip=True)
    pip = [str(env_folder / 'bin' / 'python'), '-m', 'pip', 'install', '--quiet', '--disable-pip-version-check']
    run(*pip, str(source))
    command = str(env_folder / 'bin' / 'three-thirteen')
    env = {key: value for key, value in os.environ.items() if not key.startswith(('SCORER_', 'VIRTUAL_ENV'))}
    env.update(HOME=str(home), XDG_DATA_HOME=str(home / 'data'), PATH=f'{env_folder / "bin"}:{env["PATH"]}')

    from web import __version__
    assert run(command, '--version', env=env, cwd=tmp_path).stdout.strip() == f'three-thirteen {__version__}'
    helped = run(command, '--help', env=env, cwd=tmp_path).stdout
    for name in ('serve', 'run', 'backup', 'check', 'solve', 'sheet'):
        assert re.search(rf'^\s+{name}\s', helped, re.M), name
    checked = run(command, 'check', '7H 8H 9H', '--round', '1', env=env, cwd=tmp_path).stdout
    assert 'Every card melds: penalty 0' in checked
    answer = run(command, 'solve', '--jsonl', input='{"id": 1, "cards": "7H 8H 9H KS", "wild": "5"}\n',
                 env=env, cwd=tmp_path).stdout
    assert json.loads(answer)['id'] == 1 and json.loads(answer)['penalty'] == 10

    port = free_port()
    server = subprocess.Popen([command, 'serve', '--bind', f'127.0.0.1:{port}', '--workers', '1'], env=env,
                              cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              start_new_session=True)
    url = f'http://127.0.0.1:{port}'
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                status, headers, body = get(url + '/health')
                break
            except OSError:
                assert server.poll() is None and time.monotonic() < deadline, server.communicate()
                time.sleep(0.2)
        health = json.loads(body)
        assert status == 200 and health['status'] == 'ok' and health['release'] == __version__
        assert health['offline_release'], 'Pyodide travels in the package'
        assert headers['Cache-Control'] == 'no-store'
        # The data in the user's folder; every file a checkout serves, served.
        assert (home / 'data' / 'three-thirteen' / 'scorer.sqlite').exists()
        assert 'Partidas' in get(url + '/?lang=es')[2].decode()          # the catalogs travel
        assert get(url + '/static/style.css')[0] == 200 and get(url + '/sw.js')[0] == 200
        game = json.loads(get(url + '/manifest.webmanifest')[2])
        assert game['name'] == 'Three-Thirteen scorekeeper'
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        out, err = server.communicate(timeout=30)
    assert f'the data in {home / "data" / "three-thirteen" / "scorer.sqlite"}' in err
    assert 'offline play is off' not in err

    backup = tmp_path / 'copy.sqlite'
    said = run(command, 'backup', str(backup), env=env, cwd=tmp_path).stdout
    assert backup.exists() and 'Backed up' in said


def test_the_first_make_run_says_what_it_is_doing():
    """Every install step of `make run` on a fresh clone says what it does, in one line, before it does it."""
    steps = run('make', '--always-make', '--dry-run', 'run', cwd=ROOT).stdout.splitlines()
    said = [i for i, line in enumerate(steps) if line.startswith("echo '==> ")]
    installs = [i for i, line in enumerate(steps)
                if re.search(r'-m venv|pip install -(-quiet -)?r|npm ci|web\.typeface|pybabel .*compile|flask .*run', line)]
    assert len(installs) >= 6
    for step in installs:                         # the line said just before it (or before its pip upgrade)
        assert any(0 < step - i <= 2 for i in said), steps[step]
