"""How the package is built (pyproject.toml has the rest): the app as it is in a checkout, in one folder
of its own.

The code reads its files beside itself (templates/, static/, translations/, node_modules/ next to
scorer/ and web/), so the wheel keeps that layout in site-packages/three_thirteen/. That folder is on
no one's sys.path but the command's: web/launch.py, the entry point, puts it first, so `import web`
from any other program still finds whatever else is installed under that name (docs/deploy.md).

What the package carries is read off the tree, never listed by hand (`served()`): every file of
static/ and templates/ at any depth, the compiled catalogs, docs/, and every file of the npm packages
package.json says the app needs (its `dependencies`; the dev ones are the tests'), with the TTF fonts
unpacked from them. Built once, when the package is built: the catalogs are compiled, and the npm
packages are taken from node_modules, installed with `npm ci --omit=dev` first if make has not, and
the picture's fonts unpacked if they are not. Without npm the package is built without them, and the
app says which feature that leaves out (offline play; the picture in the system's fonts).
"""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
FOLDER = 'three_thirteen'
TREES = ('static', 'templates', 'docs')          # every file of these, at any depth
TOP = ('gunicorn.conf.py', 'babel.cfg', 'README.md', 'package.json')
FONTS = 'node_modules/.picture-fonts'            # web/typeface.py UNPACKED: the TTF the picture is cut from
LEFT_OUT = ('.map', '.d.ts', '.pyc')             # an npm package's source maps and typings: nothing reads them


def npm_served(root=HERE):
    """The npm packages the app itself needs: package.json's `dependencies` (not the tests' devDependencies)."""
    return sorted(json.loads((root / 'package.json').read_text())['dependencies'])


def served(root=HERE):
    """Every file the package carries, relative to the checkout: what the checkout serves or reads."""
    folders = [root / name for name in TREES] + [root / 'node_modules' / name for name in npm_served(root)]
    files = [path for folder in folders for path in folder.rglob('*')]
    files += [*root.glob('translations/*/LC_MESSAGES/*.mo'), *(root / FONTS).glob('*.ttf'), *(root / name for name in TOP)]
    return sorted({str(path.relative_to(root)) for path in files
                   if path.is_file() and '__pycache__' not in path.parts and not path.name.endswith(LEFT_OUT)})


def say(line):
    print(f'three-thirteen: {line}', file=sys.stderr, flush=True)


def npm_packages():
    """node_modules as make installs it; else `npm ci` of the served packages, if npm is here; then the
    picture's fonts unpacked to TTF, if they are not (a build stopped halfway leaves them out)."""
    modules = HERE / 'node_modules'
    if not all((modules / name / 'package.json').exists() for name in npm_served()):
        if not shutil.which('npm'):
            say('npm is not installed, so the package is built without Pyodide (offline play) and the '
                "picture's fonts (docs/deploy.md)")
            return
        say("npm ci --omit=dev (Pyodide, idb-keyval, the picture's fonts)")
        subprocess.run(['npm', 'ci', '--omit=dev', '--no-audit', '--no-fund', '--silent'], cwd=HERE, check=True)
    if not (modules / '.ci').exists():
        say("the picture's fonts unpacked to TTF (a minute or so)")
        # web.typeface by its folder, not by the current one: pip and pipx may run this with
        # PYTHONSAFEPATH=1, which leaves the current folder off sys.path.
        env = {**os.environ, 'PYTHONPATH': os.pathsep.join(filter(None, [str(HERE), os.environ.get('PYTHONPATH')]))}
        subprocess.run([sys.executable, '-m', 'web.typeface', str(modules)], cwd=HERE, env=env, check=True)


def catalogs():
    """The compiled catalogs (.mo) from the ones kept in the repo (.po), as `make catalogs` makes them."""
    from babel.messages.frontend import CommandLineInterface
    CommandLineInterface().run(['pybabel', '--quiet', 'compile', '-d', str(HERE / 'translations')])


class BuildApp(build_py):
    """build_py, with the catalogs and npm packages made first, and the files read off the tree then."""

    def run(self):
        catalogs()
        npm_packages()
        self.__dict__.pop('data_files', None)      # read again, now that the catalogs and fonts are there
        super().run()

    def find_data_files(self, package, src_dir):
        """The folder's files: served(), as they are once the catalogs and npm packages are made."""
        if package != FOLDER:
            return super().find_data_files(package, src_dir)
        return [os.path.join(src_dir, name) for name in served()]

    def find_package_modules(self, package, package_dir):
        """The checkout's own modules (app.py), not this file."""
        return [m for m in super().find_package_modules(package, package_dir) if m[1] != 'setup']


setup(
    packages=[FOLDER, f'{FOLDER}.scorer', f'{FOLDER}.web', f'{FOLDER}.web.store'],
    package_dir={FOLDER: '.'},
    cmdclass={'build_py': BuildApp},
)
