"""What the docs restate of the code, written from the code: the module map of docs/internals.md
from each module's docstring, the routes from app.url_map, the paths the scripts hold themselves,
docs/deploy.md's settings from web/settings.py SETTINGS and its Caddyfiles from web/proxy.py.

Each function gives the Markdown that one `<!-- [[[cog ... ]]] -->` line of a page puts below it;
cog writes it in (`make docs`), and tests/test_docs.py fails when a page holds anything else there.
Run from the checkout's root (`import docs.restated`).
"""

import ast
import re
import tempfile
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGES = ['docs/internals.md', 'docs/deploy.md']     # the pages with parts written here
WIDTH = 104                                         # the module map's lines, at most
COLUMN = 17                                         # where a module's words start
# A string in a script that looks like a path of the site but is none: Pyodide's own file system.
NOT_ADDRESSES = {'/bundle', '/compiled', '/tmp/compiled', '/tmp/compiled.zip'}


def summary(path):
    """A module's docstring, its first paragraph, in one line."""
    doc = ast.get_docstring(ast.parse(path.read_text(encoding='utf-8'))) or ''
    return ' '.join(doc.split('\n\n')[0].split())


def entry(name, words, depth):
    """One line of the map (or a few, wrapped): the name indented by its depth, then its words."""
    lead = ('  ' * depth + name).ljust(COLUMN - 1) + ' '
    return textwrap.fill(words, WIDTH, initial_indent=lead, subsequent_indent=' ' * COLUMN,
                         break_long_words=False, break_on_hyphens=False)


def package(folder, depth=0):
    """A package's line (its __init__.py's words), then its modules' and subpackages', by name."""
    lines = [entry(folder.name + '/', summary(folder / '__init__.py'), depth)]
    for path in sorted(folder.iterdir(), key=lambda p: p.name):
        if path.is_dir() and (path / '__init__.py').exists():
            lines += package(path, depth + 1)
        elif path.suffix == '.py' and path.name != '__init__.py':
            lines.append(entry(path.name, summary(path), depth + 1))
    return lines


def module_map():
    """The Python of the checkout, module by module: app.py, gunicorn.conf.py, web/, scorer/."""
    lines = [entry(name, summary(ROOT / name), 0) for name in ('app.py', 'gunicorn.conf.py')]
    for folder in ('web', 'scorer'):
        lines += package(ROOT / folder)
    return '```\n' + '\n'.join(lines) + '\n```\n'


def table(head, rows):
    """A Markdown table."""
    return '\n'.join('| ' + ' | '.join(row) + ' |' for row in [head, ['---'] * len(head), *rows]) + '\n'


def app():
    """The app as it serves, with every blueprint (metrics' too), its database in a folder of its own."""
    from app import create_app
    from web import pool
    timers = list(pool.TIMERS)
    with tempfile.TemporaryDirectory() as folder:
        made = create_app({'TESTING': True, 'SECRET_KEY': 'docs', 'DATABASE': f'{folder}/docs.sqlite', 'METRICS': True})
    pool.TIMERS[:] = timers             # metrics' timer stays with that app, not this process
    return made


def routes():
    """Every route of app.url_map: its methods (HEAD and OPTIONS, which Flask adds, left out), rule and
    endpoint, by rule; the static files' release (web/statics.py, a digest of them) named, not spelled."""
    made = app()
    released = made.static_url_path
    rows = sorted((rule.rule.replace(released, '/static/<release>'), ', '.join(sorted(rule.methods - {'HEAD', 'OPTIONS'})),
                   rule.endpoint) for rule in made.url_map.iter_rules())
    return table(['method', 'rule', 'endpoint'], [[methods, f'`{rule}`', f'`{endpoint}`'] for rule, methods, endpoint in rows])


STRING = re.compile(r"""(['"`])(/[A-Za-z][^'"`\s]*)\1""")            # '/games/new', `/games/${id}`
PATTERN = re.compile(r"""/\^\\/(?:\\.|\[[^\]\n]*\]|[^/\\\[\n])*/""")       # /^\/games\/[^/]+$/


def held_paths():
    """The site's paths each script of static/ holds as its own string or regular expression,
    {script: [path, ...]}: a route moved to another address means these scripts change too."""
    held = {}
    for path in sorted((ROOT / 'static').rglob('*.js')):
        text = path.read_text(encoding='utf-8')
        paths = sorted({p for _, p in STRING.findall(text)} - NOT_ADDRESSES) + sorted(set(PATTERN.findall(text)))
        if paths:
            held[path.relative_to(ROOT).as_posix()] = paths
    return held


def script_paths():
    """The held paths as a list, a script a line."""
    return ''.join(f"- `{script}`: {', '.join(f'`{p}`' for p in paths)}\n" for script, paths in held_paths().items())


def settings():
    """Every setting (web/settings.py SETTINGS): its name and what it sets."""
    from web.settings import PREFIX, SETTINGS
    return table(['setting', 'what it sets'], [[f'`{PREFIX}{name}`', about] for name, about in SETTINGS.items()])


def caddyfile(address, tls=''):
    """A Caddyfile of docs/deploy.md: the site at `address` (its `tls` line, if any) with web/proxy.py's
    site block in front of the app on 127.0.0.1:8000, its live streams on 127.0.0.1:8001 (the unit's
    SCORER_STREAMS_BIND), in a code block."""
    from web.proxy import site_body
    lines = [f'{address} {{'] + ([f'\t{tls}'] if tls else []) + [site_body('127.0.0.1:8000', '127.0.0.1:8001'), '}']
    return '```\n' + '\n'.join(lines) + '\n```\n'
