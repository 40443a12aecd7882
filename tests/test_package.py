"""The package: `pipx install .` on a clean clone, with no make (tests/installed.py, once a run), gives the
three-thirteen command, which serves the app with every file a clone serves (catalogs, templates, static
files at any depth, Pyodide, fonts) and adds no name but its own folder to the environment."""

import json
import os
import re
import shutil
import signal
import stat
import subprocess
import time
import tomllib
import urllib.request
from pathlib import Path

import pytest

from tests.helpers import PATIENCE
from tests.installed import INSTALL_SECONDS, serve
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


def get(url):
    with urllib.request.urlopen(url, timeout=PATIENCE) as r:
        return r.status, r.headers, r.read()


def served_by_the_clone():
    """Every file a clone serves or reads at run time, read off the tree and the app's own tables (not
    a list kept here): static/ and templates/ at any depth, each catalog compiled, the npm files the app
    serves (Pyodide's, idb-keyval's) or draws with (the fonts' tables and files, and their TTF), and the
    docs docs/cli.md names."""
    from web import bundle, typeface
    files = [p for folder in ('static', 'templates') for p in (ROOT / folder).rglob('*') if '__pycache__' not in p.parts]
    files += [po.with_suffix('.mo') for po in ROOT.glob('translations/*/LC_MESSAGES/messages.po')]
    modules = ROOT / 'node_modules'
    files += [modules / 'pyodide' / name for name in (*bundle.PYODIDE, 'package.json')]
    files += [modules / 'idb-keyval' / 'dist' / 'index.js', modules / 'idb-keyval' / 'package.json']
    for package, pattern in typeface.PACKAGES:
        files.append(modules / package / 'unicode.json')
        files += [p for weight in typeface.WEIGHTS for p in (modules / package / 'files').glob(
            pattern.format(subset='*', weight=weight))]
    files += (modules / typeface.UNPACKED).glob('*.ttf')
    files += [ROOT / name for name in re.findall(r'\b(docs/[\w-]+\.\w+)', (ROOT / 'docs' / 'cli.md').read_text())]
    return {str(p.relative_to(ROOT)) for p in files if p.is_file()}


def carried(where):
    """The files the installed package holds (its RECORD: the wheel's), relative to its folder."""
    record = next(where.package.parent.glob('three_thirteen-*.dist-info')) / 'RECORD'
    return [line.split(',')[0] for line in record.read_text().splitlines()]


@pytest.mark.slow
@pytest.mark.long(6)
@pytest.mark.timeout(INSTALL_SECONDS)
def test_pipx_install_on_a_clean_clone_carries_every_file_the_clone_serves_and_no_name_but_its_own(installed):
    """`pipx install .` with nothing built (tests/installed.py): the wheel holds every file the clone
    serves, the picture's fonts among them; and it puts no name on the environment's path but its own
    folder (no .pth, no top-level app, web, scorer, templates, ...)."""
    files = carried(installed)
    inside = {name.removeprefix('three_thirteen/') for name in files if name.startswith('three_thirteen/')}
    wanted = served_by_the_clone()
    assert len(wanted) > 400 and {'static/js/offline/page.js', 'static/js/keypad/keys.js', 'docs/example-game.json'} <= wanted
    assert sorted(wanted - inside) == []
    top = {name.split('/')[0] for name in files if not name.startswith('../')}
    assert top == {'three_thirteen', next(n for n in top if n.endswith('.dist-info'))}, top
    assert not [name for name in files if name.endswith('.pth')]


@pytest.mark.slow
@pytest.mark.long(6)
@pytest.mark.timeout(INSTALL_SECONDS)
def test_installed_beside_another_distribution_of_a_web_package_each_imports_its_own(installed, tmp_path):
    """The package's folder is on the command's path alone (web/launch.py): with a distribution that
    installs a top-level `web` in the same environment, the command still runs, and every other
    program still imports that `web`."""
    site = installed.package.parent
    other = site / 'web'
    other.mkdir()
    try:
        (other / '__init__.py').write_text("WHOSE = 'the other distribution'\n")
        info = site / 'other_web-1.0.dist-info'
        info.mkdir()
        (info / 'METADATA').write_text('Metadata-Version: 2.1\nName: other-web\nVersion: 1.0\n')
        (info / 'RECORD').write_text('web/__init__.py,,\n')
        from web import __version__
        said = run(installed.command, '--version', env=installed.env, cwd=tmp_path).stdout.strip()
        assert said == f'three-thirteen {__version__}'
        checked = run(installed.command, 'check', '7H 8H 9H', '--round', '1', env=installed.env, cwd=tmp_path).stdout
        assert 'Every card melds: penalty 0' in checked
        whose = run(installed.python, '-c', 'import web; print(web.WHOSE)', env=installed.env, cwd=tmp_path).stdout
        assert whose.strip() == 'the other distribution'
        for name in ('app', 'scorer', 'templates', 'static', 'docs', 'translations'):
            found = run(installed.python, '-c', f'import importlib.util; print(importlib.util.find_spec({name!r}))',
                        env=installed.env, cwd=tmp_path).stdout.strip()
            assert found == 'None', (name, found)
    finally:
        shutil.rmtree(other)
        shutil.rmtree(site / 'other_web-1.0.dist-info', ignore_errors=True)


@pytest.mark.slow
@pytest.mark.long(6)
@pytest.mark.timeout(INSTALL_SECONDS)
def test_the_installed_command_serves_the_app(installed, tmp_path):
    command, env, home = installed.command, installed.env, installed.home()
    from web import __version__
    helped = run(command, '--help', env=env, cwd=tmp_path).stdout
    for name in ('serve', 'run', 'backup', 'check', 'solve', 'sheet'):
        assert re.search(rf'^\s+{name}\s', helped, re.M), name
    answer = run(command, 'solve', '--jsonl', input='{"id": 1, "cards": "7H 8H 9H KS", "wild": "5"}\n',
                 env=env, cwd=tmp_path).stdout
    assert json.loads(answer)['id'] == 1 and json.loads(answer)['penalty'] == 10
    sheet = run(command, 'sheet', str(installed.package / 'docs' / 'example-game.json'), env=env, cwd=tmp_path).stdout
    assert sheet.startswith("Friday at Ana's\n"), sheet             # docs/cli.md's example, from the install

    port = free_port()
    server = serve(installed, port, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    url = f'http://127.0.0.1:{port}'
    try:
        deadline = time.monotonic() + 120
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
        data = home / 'data' / 'three-thirteen'
        assert (data / 'scorer.sqlite').exists() and stat.S_IMODE(data.stat().st_mode) == 0o700
        assert 'Partidas' in get(url + '/?lang=es')[2].decode()          # the catalogs travel
        for name in served_by_the_clone():                                # every static file, at any depth
            if name.startswith('static/') and not name.endswith('.py'):
                assert get(f'{url}/{name}')[0] == 200, name
        assert get(url + '/sw.js')[0] == 200
        game = json.loads(get(url + '/manifest.webmanifest')[2])
        assert game['name'] == 'Three-Thirteen scorekeeper'
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        out, err = server.communicate(timeout=30)
    assert f'the data in {home / "data" / "three-thirteen" / "scorer.sqlite"}' in err
    assert 'offline play is off' not in err and 'Traceback' not in err

    backup = tmp_path / 'copy.sqlite'
    said = run(command, 'backup', str(backup), env=env, cwd=tmp_path).stdout
    assert backup.exists() and 'Backed up' in said and stat.S_IMODE(backup.stat().st_mode) == 0o600


def test_the_first_make_run_says_what_it_is_doing():
    """Every install step of `make run` on a fresh clone says what it does, in one line, before it does it."""
    steps = run('make', '--always-make', '--dry-run', 'run', cwd=ROOT).stdout.splitlines()
    said = [i for i, line in enumerate(steps) if line.startswith("echo '==> ")]
    installs = [i for i, line in enumerate(steps)
                if re.search(r'-m venv|pip install -(-quiet -)?r|npm ci|web\.typeface|pybabel .*compile|flask .*run', line)]
    assert len(installs) >= 6
    for step in installs:                         # the line said just before it (or before its pip upgrade)
        assert any(0 < step - i <= 2 for i in said), steps[step]
