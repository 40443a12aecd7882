"""The app as deployed: `pipx install .` on a clean clone (a copy of this checkout's files with nothing
built: no node_modules, no catalogs), as docs/deploy.md says, made once a run for every test that asks
(`installed()`: pytest-xdist's workers share it through a lock file), and `three-thirteen serve` of it.

pipx itself is the test environment's (requirements-dev.txt pins it)."""

import fcntl
import os
import shutil
import subprocess
import sys
import venv
from dataclasses import dataclass
from pathlib import Path

from tests.server import ROOT

BUILD_SECONDS = 1800         # a hang guard: npm ci, the fonts unpacked and the Python packages, on a busy machine
# The hang guard of a test that uses the install (pytest-timeout counts the fixture's making in the
# first test to ask for it): the build's, and pytest.ini's own for the test itself.
INSTALL_SECONDS = BUILD_SECONDS + 600


def run(*args, **kwargs):
    return subprocess.run(args, capture_output=True, text=True, check=True, timeout=BUILD_SECONDS, **kwargs)


def clean_clone(folder):
    """A copy of this checkout's files as a clone has them: what git keeps or would keep, nothing built."""
    listed = run('git', 'ls-files', '--cached', '--others', '--exclude-standard', '-z', cwd=ROOT).stdout
    for name in filter(None, listed.split('\0')):
        source = ROOT / name
        if source.is_file():
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, folder / name)
    assert not (folder / 'node_modules').exists() and not list(folder.glob('translations/*/LC_MESSAGES/*.mo'))


def pipx(folder):
    """The pipx command: the test environment's (requirements-dev.txt), else the machine's, else one
    installed from PyPI into `folder`."""
    beside = Path(sys.executable).parent / 'pipx'
    if beside.exists():
        return [str(beside)]
    if shutil.which('pipx'):
        return [shutil.which('pipx')]
    venv.create(folder, with_pip=True)
    run(str(folder / 'bin' / 'python'), '-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', 'pipx')
    return [str(folder / 'bin' / 'pipx')]


@dataclass
class Installed:
    """Where the install is: the command, its environment's python, the app's folder in it, and the
    environment a run of the command gets (its own HOME and data folder)."""
    folder: Path
    command: str
    python: str
    package: Path
    env: dict

    def home(self):
        return Path(self.env['HOME'])


def environment(folder):
    """The environment of a deployed command: no SCORER_* of the run's, no virtual environment, a HOME and
    data folder of its own."""
    home = folder / 'home'
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(('SCORER_', 'VIRTUAL_ENV', 'PYTHON'))}
    return {**env, 'HOME': str(home), 'XDG_DATA_HOME': str(home / 'data'), 'PATH': f'{folder / "bin"}:{env["PATH"]}'}


def install(folder):
    """`pipx install .` in a clean clone; returns the Installed."""
    clone = folder / 'clone'
    clone.mkdir(parents=True)
    clean_clone(clone)
    # PYTHONSAFEPATH as pipx sets it for its pip runs (whatever this pipx's version): the build may not
    # count on the current folder being on sys.path.
    env = {**environment(folder), 'PIPX_HOME': str(folder / 'pipx'), 'PIPX_BIN_DIR': str(folder / 'bin'),
           'PIPX_MAN_DIR': str(folder / 'man'), 'PYTHONSAFEPATH': '1'}
    run(*pipx(folder / 'pipx-itself'), 'install', '.', cwd=clone, env=env)
    return found(folder)


def found(folder):
    """The Installed that install(folder) made."""
    python = folder / 'pipx' / 'venvs' / 'three-thirteen' / 'bin' / 'python'
    package = Path(run(str(python), '-c', 'import sysconfig; print(sysconfig.get_path("purelib"))').stdout.strip())
    (folder / 'home').mkdir(exist_ok=True)
    return Installed(folder, str(folder / 'bin' / 'three-thirteen'), str(python), package / 'three_thirteen',
                     environment(folder))


def installed(tmp_path_factory, worker_id):
    """The one install of the run: made by whichever worker asks first, the others wait for it."""
    shared = tmp_path_factory.getbasetemp() if worker_id == 'master' else tmp_path_factory.getbasetemp().parent
    folder = shared / 'installed'
    with open(shared / 'installed.lock', 'w') as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (folder / 'done').exists():
            shutil.rmtree(folder, ignore_errors=True)
            install(folder)
            (folder / 'done').write_text('')
    return found(folder)


def serve(where, port, env=None, **kwargs):
    """`three-thirteen serve` of the install on loopback, one worker, in a process group of its own."""
    return subprocess.Popen([where.command, 'serve', '--bind', f'127.0.0.1:{port}', '--workers', '1'],
                            env={**where.env, **(env or {})}, cwd=where.folder, start_new_session=True, **kwargs)

