"""The bundle a scorekeeper's phone keeps to play offline, made from this checkout: Pyodide from
npm, this project's own Python (scorer/, web/phone.py, the templates, catalogs and the server's
routes) and the pure-Python packages it imports. Made once a process; its release is a hash of it.
The routes that serve it are web/offline.py's."""

import hashlib
import io
import json
import re
import zipfile
from functools import lru_cache
from pathlib import Path

from flask import current_app, url_for

from .i18n import LANGUAGES
from .phone import ROUTES_FILE

ROOT = Path(__file__).resolve().parent.parent
PYODIDE = ('pyodide.mjs', 'pyodide.asm.mjs', 'pyodide.asm.wasm', 'python_stdlib.zip', 'pyodide-lock.json')
# The Python the phone runs: ours, and the pure-Python packages it needs (from this server's own install).
OURS = ('scorer/*.py', 'web/__init__.py', 'web/pages.py', 'web/phone.py', 'web/templating.py', 'templates/games/_*.html',
        'translations/*/LC_MESSAGES/messages.mo')
PACKAGES = ('jinja2', 'markupsafe', 'confusable_homoglyphs', 'babel')
# Of Babel, the phone needs dates (web/templating.day) in the app's languages: not its catalog tools.
LOCALE_DATA = ('global.dat', *(f'locale-data/{code}.dat' for code in ('root', *LANGUAGES)))
LEFT_OUT = ('babel/messages',)
# Pyodide compiles WebAssembly: the worker alone may ('wasm-unsafe-eval'), and fetch only from here.
WORKER_CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'; object-src 'none'"


@lru_cache(maxsize=1)
def bundle():
    """(zip bytes, release) of the phone's Python, this project's own (scorer/, web/phone.py, the
    templates and catalogs), made once per process."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, 'w', zipfile.ZIP_DEFLATED) as z:
        for pattern in OURS:
            for path in sorted(ROOT.glob(pattern)):
                z.writestr(zipinfo(str(path.relative_to(ROOT))), path.read_bytes())
        z.writestr(zipinfo(ROUTES_FILE), json.dumps(routes(current_app), sort_keys=True, indent=0))
    data = out.getvalue()
    # The release's files are python.zip, the worker (which names the addresses of Pyodide and of the
    # packages) and idb-keyval.
    seed = [data, (Path(current_app.static_folder) / 'js' / 'scorer-worker.js').read_bytes(),
            pyodide_version().encode(), packages()[1].encode()]
    seed += [path.read_bytes() for path in (node_modules() / 'idb-keyval' / 'package.json',) if path.exists()]
    return data, hashlib.sha256(b'\0'.join(seed)).hexdigest()[:12]


@lru_cache(maxsize=1)
def packages():
    """(zip bytes, its hash) of the pure-Python packages the phone's scorer imports (jinja2, babel, ...),
    from this server's own install: its address is its hash, the same across this project's releases
    while the packages' versions stay (about 0.7 MB gzipped, kept by the phone like Pyodide)."""
    import importlib
    out = io.BytesIO()
    with zipfile.ZipFile(out, 'w', zipfile.ZIP_DEFLATED) as z:
        for name in PACKAGES:
            folder = Path(importlib.import_module(name).__file__).parent
            for path in sorted(folder.rglob('*')):
                data = path.suffix == '.dat' and str(path.relative_to(folder)) in LOCALE_DATA
                left_out = str(path.relative_to(folder.parent)).startswith(LEFT_OUT)
                if path.is_file() and (path.suffix in ('.py', '.json') or data) and '__pycache__' not in path.parts \
                        and not left_out:
                    z.writestr(zipinfo(str(path.relative_to(folder.parent))), path.read_bytes())
    data = out.getvalue()
    return data, hashlib.sha256(data).hexdigest()[:12]


def pyodide_version():
    """Pyodide's version (npm's package.json): its files' address, the same across this project's releases."""
    try:
        return str(json.loads((node_modules() / 'pyodide' / 'package.json').read_text())['version'])
    except (OSError, ValueError, KeyError):
        return 'none'


def pyodide_base():
    """The folder address Pyodide's files are served from (the worker loads them from there)."""
    return url_for('offline.pyodide', version=pyodide_version(), name='x')[:-1]


def routes(app):
    """The server's routes as the phone's url_for takes them ({endpoint: '/games/{game_id}/...'}), read
    off app.url_map when the bundle is made: the links the phone draws are the server's, by construction."""
    return {rule.endpoint: re.sub(r'<(?:\w+:)?(\w+)>', r'{\1}', rule.rule) for rule in app.url_map.iter_rules()
            if rule.endpoint != 'static'}


def zipinfo(name):
    """A zip entry with a fixed date, so the same files make the same bundle (and release)."""
    info = zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0))
    info.compress_type = zipfile.ZIP_DEFLATED
    return info


def node_modules():
    return Path(current_app.config['NODE_MODULES'])


def release():
    """The bundle's release: a test may set OFFLINE_RELEASE to stand for a new one."""
    return current_app.config.get('OFFLINE_RELEASE') or bundle()[1]


def available():
    """Whether offline play can be offered: Pyodide is installed (make does it), and the app was not
    told to leave it out (OFFLINE_BUNDLE false: the browser tests whose phones never play offline, so
    that each new phone does not fetch and keep its 14 MB; the game's pages are kept all the same)."""
    return current_app.config.get('OFFLINE_BUNDLE', True) and available_in(node_modules())


def available_in(folder):
    """Whether this node_modules folder has Pyodide."""
    return (Path(folder) / 'pyodide' / 'pyodide.asm.wasm').exists()


def urls():
    """Every address of the bundle, for the service worker to keep."""
    r, version = release(), pyodide_version()
    return ([url_for('offline.pyodide', version=version, name=name) for name in PYODIDE] +
            [url_for('offline.packages_zip', digest=packages()[1]),
             url_for('offline.python', release=r), url_for('offline.worker', release=r),
             url_for('offline.idb_keyval', release=r)])


def statics():
    """The static files a kept page uses (styles, scripts, icons), for the service worker to keep."""
    folder = Path(current_app.static_folder)
    return [url_for('static', filename=str(p.relative_to(folder))) for p in sorted(folder.rglob('*'))
            if p.is_file() and p.suffix in ('.css', '.js', '.png') and p.name not in ('sw.js', 'scorer-worker.js')]
