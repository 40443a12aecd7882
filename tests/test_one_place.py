"""Each decision is stated once, in Python, and the browser gets it as data: these tests fail as
soon as the browser's scripts and the server disagree (issue 38)."""

import ast
import html
import json
import re
from pathlib import Path

from scorer.cards import JOKER, Card, copies
from scorer.rules import CHOICES, DEFAULT, default_text, make_rules
from tests.helpers import round_form
from web.live import TIMINGS

STATIC = Path(__file__).resolve().parent.parent / 'static'


def camel(key):
    """LIVE_POLL_MS -> livePollMs: a data-live-poll-ms attribute as a script's dataset reads it."""
    first, *rest = key.lower().split('_')
    return first + ''.join(word.capitalize() for word in rest)


def test_the_live_timings_are_the_servers_and_the_script_has_none_of_its_own(client, make_game):
    url = make_game(('Ana', 'Bruno'))
    page = client.get(url).get_data(as_text=True)
    given = dict(re.findall(r'data-(live-[a-z-]+)="([^"]*)"', page))
    assert {f'live-{k.lower()[5:].replace("_", "-")}': float(v) for k, v in TIMINGS.items()} == \
        {k: float(v) for k, v in given.items() if k not in ('live-url',)}
    script = (STATIC / 'js' / 'live.js').read_text()
    read = set(re.findall(r"number\('(\w+)'\)", script))
    assert read == {camel(key) for key in TIMINGS}
    assert not re.search(r'\b(1500|10000|300000|2500)\b', script), 'a timing written into live.js again'


def test_the_new_game_form_offers_the_default_rules_as_chosen(client):
    page = client.get('/games/new').get_data(as_text=True)
    for key in CHOICES:
        if key == 'decks':
            continue                                          # 'auto': decided by the table (new_game)
        select = re.search(rf'<select[^>]*name="{key}".*?</select>', page, re.S).group(0)
        chosen = re.findall(r'<option selected value="([^"]*)"|<option value="([^"]*)" selected', select)
        assert [a or b for a, b in chosen] == [default_text(key)], key


def test_a_game_whose_form_sends_no_setting_plays_by_default_on_the_server_and_on_the_phone(client):
    from web.phone import make_game as made_on_the_phone
    answer = client.post('/games/new', data={'players-0': 'Ana', 'players-1': 'Bruno', 'first_dealer': '0'})
    assert answer.status_code == 302
    served = client.get(answer.headers['Location'].split('?')[0] + '/export.json').get_json()
    phone = made_on_the_phone([['players-0', 'Ana'], ['players-1', 'Bruno'], ['first_dealer', '0']])
    assert make_rules(served['rules']) == DEFAULT
    assert make_rules(phone['game']['rules']) == DEFAULT


def test_the_keypad_counts_copies_by_the_packs_own_rule(client, make_game):
    """The round page hands the keypad how many of each card the pack holds (scorer.cards.copies):
    the same limit the server holds the round to, a joker by the jokers in play, no card the game lacks."""
    for settings, players in (({'decks': '3', 'jokers': '2'}, ('Ana', 'Bruno')), ({'game': 'five_crowns'}, ('Ana', 'Bruno'))):
        url = make_game(players, **settings)
        page = client.get(url + '/rounds/1').get_data(as_text=True)
        table = json.loads(html.unescape(re.search(r'data-copies="([^"]*)"', page).group(1)))
        rules = make_rules({k: v for k, v in settings.items()}) if 'game' in settings else \
            make_rules({'decks': 3, 'jokers': 2})
        assert table == {str(c): copies(c, rules.decks, rules.jokers)
                         for c in [Card(r, s) for s in rules.deck.suits for r in rules.deck.ranks] + [JOKER]}
        assert ('AH' in table) == (1 in rules.deck.ranks)
        script = (STATIC / 'js' / 'picker.js').read_text()
        assert 'this.copies[card]' in script and "'JK' ? jokers : decks" not in script


def test_the_keypad_holds_a_hand_to_what_the_server_takes(client, make_game):
    """The most cards the keypad lets a hand hold is the most the server accepts for that round."""
    url = make_game(('Ana', 'Bruno'))
    hand = ['2S', '3S', '4S', '5S', '6S', '7S', '8S', '9S']
    for number in (1, 2):
        page = client.get(f'{url}/rounds/{number}').get_data(as_text=True)
        most = int(re.search(r'data-hand-size="(\d+)"', page).group(1))
        refused = client.post(f'{url}/rounds/{number}', data=round_form(0, cards=['', ' '.join(hand[:most + 1])]))
        assert refused.status_code == 422 and 'holds' in refused.get_data(as_text=True)
        taken = client.post(f'{url}/rounds/{number}', data=round_form(0, cards=['', ' '.join(hand[:most])]))
        assert taken.status_code == 302


def imported(module, node):
    """The modules an import statement of `module` (web.pwa) may bring in, by their full names."""
    if isinstance(node, ast.Import):
        return {a.name for a in node.names}
    package = module.split('.')[:-1]
    base = '.'.join([*(package[:len(package) + 1 - node.level] if node.level else []), *filter(None, [node.module])])
    return {base, *(f'{base}.{a.name}' for a in node.names)}


def test_no_blueprint_is_used_as_a_library():
    """A view module (one that makes a Blueprint, whoever registers it: app.py, or its own init_app)
    is imported by app.py alone, for its routes: what pages of several blueprints share lives in a
    module with no routes (web/context.py, web/pages.py, web/sheets.py, web/access.py, web/i18n.py,
    ...), so moving a page never breaks another."""
    root = Path(__file__).resolve().parent.parent
    trees = {'.'.join(path.relative_to(root).with_suffix('').parts): ast.parse(path.read_text())
             for path in (root / 'web').rglob('*.py')}
    views = {module for module, tree in trees.items()
             if any(isinstance(n, ast.Call) and getattr(n.func, 'id', None) == 'Blueprint' for n in ast.walk(tree))}
    assert {f'web.{name}' for name in ('games', 'rounds', 'live', 'offline', 'pwa', 'switcher', 'metrics')} <= views
    borrowed = sorted((module, view) for module, tree in trees.items() for node in ast.walk(tree)
                      if isinstance(node, (ast.Import, ast.ImportFrom)) for view in views & imported(module, node))
    assert borrowed == []


def test_every_bench_takes_its_quantiles_from_one_helper():
    """A p95 is computed one way in every bench (bench/quantiles.py cut: statistics.quantiles, method
    'inclusive', so a p95 of few times is never past the slowest), not each bench its own way."""
    from bench.quantiles import cut
    assert cut([10, 20, 30], 50, 95) == (20, 29) and cut([7], 95) == (7,) and cut([], 95) == (None,)
    bench = Path(__file__).resolve().parent.parent / 'bench'
    own = {}
    for path in bench.glob('*.py'):
        if path.name == 'quantiles.py':
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Attribute) and node.attr == 'quantiles' and getattr(node.value, 'id', '') == 'statistics':
                own.setdefault(path.name, []).append(node.lineno)
            elif isinstance(node, ast.Constant) and node.value in (0.95, 0.99):     # times[int(0.95 * len(times))]
                own.setdefault(path.name, []).append(node.lineno)
    assert own == {}, f'quantiles computed their own way: {own}'
