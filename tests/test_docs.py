"""The documentation tells the truth: every setting of scorer/rules.py is described in docs/rules.md
with its default, everything the README links to is in the repository, and what the pages restate
of the code (the module map, the routes, the settings: docs/restated.py) is written from it."""

import io
import re
from pathlib import Path

import pytest

from scorer.rules import ABOUT, CHOICES, DEFAULT
from tests.helpers import LANGUAGES, PATIENCE

ROOT = Path(__file__).resolve().parent.parent
RULES_DOC = (ROOT / 'docs' / 'rules.md').read_text(encoding='utf-8')


def shown(value):
    return 'none' if value is None else str(value).lower()


@pytest.mark.parametrize('setting', list(DEFAULT.to_dict()))
def test_every_setting_is_described_with_its_default(setting):
    default = getattr(DEFAULT, setting)
    row = re.search(rf'^\| `{setting}` \| ([^|]*) \|([^|]*)\|([^|]*)\|', RULES_DOC, re.M)
    assert row, f'docs/rules.md has no row for {setting}'
    assert f'`{shown(default)}`' in row.group(1), f'the default of {setting} is not in its row'
    others = row.group(2) + row.group(3)
    for value in CHOICES[setting]:
        if value != default and setting != 'jokers':      # jokers: '1 to 2 per deck'
            assert f'`{shown(value)}`' in others, f'{setting}: {value} is not described'


def test_the_settings_table_has_no_setting_the_code_lacks():
    documented = set(re.findall(r'^\| `(\w+)` \| `', RULES_DOC, re.M))
    assert documented == set(DEFAULT.to_dict())


@pytest.mark.parametrize('doc', ['README.md', *[str(p.relative_to(ROOT)) for p in (ROOT / 'docs').glob('*.md')]])
def test_every_link_leads_to_a_file_in_the_repository(doc):
    text = (ROOT / doc).read_text(encoding='utf-8')
    for target in re.findall(r'\]\(([^)#]+)(?:#[^)]*)?\)', text):
        if re.match(r'[a-z]+:', target):
            continue
        assert (ROOT / doc).parent.joinpath(target).resolve().exists(), f'{doc} links to {target}, which is missing'
    assert '../shared' not in text


def console_examples(doc):
    """(command, expected lines) for every `$ ` line of the console blocks of a page."""
    examples = []
    for block in re.findall(r'```console\n(.*?)```', (ROOT / doc).read_text(encoding='utf-8'), re.S):
        for part in re.split(r'^\$ ', block, flags=re.M)[1:]:
            command, *output = part.rstrip('\n').split('\n')
            examples.append((command, output))
    return examples


@pytest.mark.parametrize('command, expected', console_examples('docs/cli.md'), ids=lambda v: str(v)[:60])
def test_every_command_line_example_prints_what_the_page_says(command, expected):
    """docs/cli.md is run, not copied: each example's output (stdout, then stderr) as the page shows
    it; `...` stands for the lines after it."""
    import shlex
    import subprocess
    import sys
    stdin = None
    if command.startswith('echo '):
        echo, command = command.split(' | ', 1)
        stdin = shlex.split(echo)[1] + '\n'
    program, *args = shlex.split(command)
    assert program == '.venv/bin/python' and args[:2] == ['-m', 'scorer']
    run = subprocess.run([sys.executable, *args], input=stdin, capture_output=True, text=True, cwd=ROOT, timeout=PATIENCE)
    printed = (run.stdout + run.stderr).rstrip('\n').split('\n')
    if expected[-1] == '...':
        expected, printed = expected[:-1], printed[:len(expected) - 1]
    assert printed == expected
    assert run.returncode == (2 if expected[0].startswith('error:') else 0)


@pytest.mark.parametrize('setting', list(DEFAULT.to_dict()))
def test_each_setting_is_described_in_the_same_words_by_form_help_and_docs(setting, client):
    """One table (scorer.rules.ABOUT) says what a setting changes: the new-game form shows it,
    `--help` prints it, and docs/rules.md's row says it word for word."""
    import contextlib
    import io

    from scorer.__main__ import main
    title, about = ABOUT[setting]
    row = re.search(rf'^\| `{setting}` \|[^|]*\|[^|]*\| ([^|]*) \|$', RULES_DOC, re.M)
    assert row and row.group(1) == about
    page = client.get('/games/new').get_data(as_text=True)
    assert about.replace("'", '&#39;') in page and title in page
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(['check', '--help'], io.StringIO(), out, io.StringIO()) == 0
    assert ' '.join(about.split()[:4]) in ' '.join(out.getvalue().split())


def test_what_the_pages_restate_of_the_code_is_written_from_it():
    """Each `<!-- [[[cog ... ]]] -->` part of a page (docs/internals.md's module map, routes and the
    paths the scripts hold; docs/deploy.md's settings) is what docs/restated.py writes now: cog's
    check, which `make docs` answers."""
    from cogapp import Cog
    pages = [page for page in [ROOT / 'README.md', *sorted((ROOT / 'docs').glob('*.md'))]
             if '[[[cog' in page.read_text(encoding='utf-8')]
    assert {ROOT / 'docs' / 'internals.md', ROOT / 'docs' / 'deploy.md'} <= set(pages)
    said = io.StringIO()
    cog = Cog()
    cog.set_output(stdout=said, stderr=said)
    assert cog.main(['cog', '--check', '--diff', *map(str, pages)]) == 0, said.getvalue() + '\nrun `make docs`'


def test_every_path_a_script_holds_is_a_route(app):
    """The paths of the site that the scripts hold themselves (docs/restated.held_paths, listed in
    docs/internals.md) are routes of app.url_map: an exact one, the start of some (`/games/`), the end
    of some (`/print`, a link's end the script looks for), or a pattern one matches."""
    from docs.restated import PATTERN, held_paths
    rules = [re.sub(r'<[^>]+>', '1', rule.rule) for rule in app.url_map.iter_rules()]
    routes = app.url_map.bind('localhost')
    for script, paths in held_paths().items():
        for path in paths:
            if PATTERN.fullmatch(path):
                assert any(re.search(path[1:-1], rule) for rule in rules), (script, path)
                continue
            path = re.sub(r'\$\{[^}]*\}', '1', path)
            if path.endswith('/'):
                assert any(rule.startswith(path) for rule in rules), (script, path)
            elif not any(rule.endswith(path) and rule != path for rule in rules):
                routes.match(path, method='GET')         # raises NotFound for a path no route serves


def test_no_test_lists_the_languages_itself():
    """A test "in each language" reads tests.helpers.LANGUAGES (web.i18n's), so a fourth language is
    tested everywhere at once: no test holds a list of the app's languages of its own."""
    listed = re.compile(r"""[\[({]\s*((?:['"][a-z]{2}['"]\s*,\s*)+['"][a-z]{2}['"])\s*,?\s*[\])}]""")
    found = [f'{path.name}: {codes}' for path in sorted((ROOT / 'tests').glob('*.py'))
             for codes in listed.findall(path.read_text(encoding='utf-8'))
             if sorted(re.findall(r'[a-z]{2}', codes)) == sorted(LANGUAGES)]
    assert found == []


def test_the_systemd_unit_gives_the_files_the_connections_need():
    """docs/deploy.md's unit sets LimitNOFILE to at least what a worker needs for the connections the
    recipe takes by default on each address the unit listens on, and the refusals it holds beside them
    (web/worker.py files_for, HELD_REFUSALS; the live streams' own address too): under systemd's default
    of 1,024 a worker runs out of files long before its connections."""
    from web.worker import FILES_BESIDE, HELD_REFUSALS
    unit = (ROOT / 'docs' / 'deploy.md').read_text(encoding='utf-8').split('[Service]', 1)[1].split('```', 1)[0]
    limit = re.search(r'^LimitNOFILE=(\d+)$', unit, re.M)
    assert limit, 'the unit sets no LimitNOFILE'
    connections = int(re.search(r"setting\('WORKER_CONNECTIONS', '(\d+)'\)", (ROOT / 'gunicorn.conf.py').read_text())[1])
    addresses = 1 + ('SCORER_STREAMS_BIND=' in unit)
    assert int(limit[1]) >= (connections + HELD_REFUSALS) * addresses + FILES_BESIDE
