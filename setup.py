"""How the package is built (pyproject.toml has the rest): the app as it is in a checkout, in one folder.

The code reads its files beside itself (templates/, static/, translations/, node_modules/ next to
scorer/ and web/), so the wheel keeps that layout in site-packages/three_thirteen/, and
three_thirteen.pth puts that folder on sys.path (`import scorer`, `import web`, `import app` as in a
checkout). Built once, when the package is built: the catalogs are compiled, and the npm packages the
app serves (Pyodide, idb-keyval, the picture's fonts) are taken from node_modules, installed with
`npm ci --omit=dev` first if make has not. Without npm the package is built without them, and the app
says which feature that leaves out (offline play; the picture in the system's fonts): see docs/deploy.md.
"""

import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
FOLDER = 'three_thirteen'
FONTS = ('@fontsource/noto-sans', '@fontsource-variable/noto-sans-sc', '@fontsource-variable/noto-sans-jp',
         '@fontsource-variable/noto-sans-kr')
FILES = ['gunicorn.conf.py', 'babel.cfg', 'README.md', 'docs/*.md', 'templates/*.html', 'templates/*/*.html', 'templates/*/*.svg',
         'static/*.*', 'static/js/*.js', 'static/icons/*.png', 'translations/*/LC_MESSAGES/messages.mo',
         *(f'node_modules/pyodide/{name}' for name in ('package.json', 'pyodide.mjs', 'pyodide.asm.mjs',
                                                        'pyodide.asm.wasm', 'python_stdlib.zip', 'pyodide-lock.json')),
         'node_modules/idb-keyval/package.json', 'node_modules/idb-keyval/LICENCE', 'node_modules/idb-keyval/dist/index.js',
         'node_modules/.picture-fonts/*.ttf',
         *(f'node_modules/{package}/{name}' for package in FONTS
           for name in ('package.json', 'LICENSE', 'unicode.json', 'files/*-400-normal.woff2',
                        'files/*-700-normal.woff2', 'files/*-wght-normal.woff2'))]


def npm_packages():
    """node_modules as make installs it; else `npm ci` of the served packages, if npm is here."""
    if (HERE / 'node_modules' / '.ci').exists() or (HERE / 'node_modules' / 'pyodide' / 'pyodide.asm.wasm').exists():
        return
    if not shutil.which('npm'):
        print('three-thirteen: npm is not installed, so the package is built without Pyodide (offline play) '
              'and the picture\'s fonts (docs/deploy.md)', file=sys.stderr)
        return
    print('three-thirteen: npm ci --omit=dev (Pyodide, idb-keyval, the picture\'s fonts)', file=sys.stderr)
    subprocess.run(['npm', 'ci', '--omit=dev', '--no-audit', '--no-fund', '--silent'], cwd=HERE, check=True)
    print('three-thirteen: unpacking the picture\'s fonts to TTF', file=sys.stderr)
    subprocess.run([sys.executable, '-m', 'web.typeface', 'node_modules'], cwd=HERE, check=True)


def catalogs():
    """The compiled catalogs (.mo) from the ones kept in the repo (.po), as `make catalogs` makes them."""
    from babel.messages.frontend import CommandLineInterface
    CommandLineInterface().run(['pybabel', '--quiet', 'compile', '-d', str(HERE / 'translations')])


class BuildApp(build_py):
    """build_py, with the catalogs and npm packages made first, and the .pth that puts the folder on sys.path."""

    def run(self):
        catalogs()
        npm_packages()
        super().run()
        pth = Path(self.build_lib) / f'{FOLDER}.pth'
        pth.write_text(FOLDER + '\n')

    def find_package_modules(self, package, package_dir):
        """The checkout's own modules (app.py), not this file."""
        return [m for m in super().find_package_modules(package, package_dir) if m[1] != 'setup']

    def get_outputs(self, include_bytecode=True):
        return [*super().get_outputs(include_bytecode), str(Path(self.build_lib) / f'{FOLDER}.pth')]


setup(
    packages=[FOLDER, f'{FOLDER}.scorer', f'{FOLDER}.web', f'{FOLDER}.web.store'],
    package_dir={FOLDER: '.'},
    package_data={FOLDER: FILES},
    cmdclass={'build_py': BuildApp},
)
