"""The scorer on the phone: what the offline worker runs in Pyodide, with no Flask and no network:
the live sheet, the preview, a round read, a game made, the game file, with the server's templates.

It is this project's own code: scorer/ reads and scores a round, solves a hand and ranks the
table, and the server's own templates (_live.html, _preview.html, …) draw the result, through
Jinja with the same functions (web/templating.py) and the same catalogs. So what a phone shows
offline is what the server would show: tests render both and compare them.

Every call takes and returns JSON text, the simplest thing to pass in and out of a Web Worker.
"""

import datetime
import gettext
import json
import os
from pathlib import Path
from urllib.parse import urlencode

from jinja2 import Environment, FileSystemBytecodeCache, FileSystemLoader, select_autoescape
from markupsafe import Markup

import scorer.i18n
from scorer.i18n import _, sentence
from scorer.reading import symbols
from scorer.gamefile import FieldError, GameFileError, filename, game_data, game_json, new_game, read_date, read_game
from scorer.limits import MAX_PLAYERS
from scorer.query import QueryError, answer_data, read_hand, read_query
from scorer.query import preview as preview_of
from scorer.rules import CHOICES
from scorer.sheet import RoundError, compute_sheet, doubts, doubts_key, read_round, sheet_data
from scorer.solver import solve

from .pages import live_part, round_page
from .templating import FILTERS, GLOBALS, day

ROOT = Path(__file__).resolve().parent.parent
# The server's routes, which the bundle carries (web/offline.py writes them from app.url_map).
ROUTES_FILE = 'web/routes.json'
QUERY_SAFE = "!$'()*,/:;?@"          # what Werkzeug leaves unquoted in a query, so the links are Flask's
# Where the worker keeps what its Python compiles (static/js/scorer-worker.js): the templates too.
COMPILED = os.environ.get('PHONE_COMPILED')


def read_routes(root):
    """The routes in the bundle at root; none where there is no bundle (the server drawing a picture)."""
    path = Path(root) / ROUTES_FILE
    return json.loads(path.read_text()) if path.exists() else {}


class Phone:
    """The templates and catalogs, loaded once; the language of the page that asks; the server's routes."""

    def __init__(self, root=ROOT, routes=None):
        self.root = Path(root)
        self.routes = read_routes(self.root) if routes is None else routes
        self.catalogs = {}
        self.language = 'en'
        self.env = Environment(loader=FileSystemLoader(str(self.root / 'templates')),
                               autoescape=select_autoescape(['html', 'xml', 'svg']),
                               bytecode_cache=FileSystemBytecodeCache(os.path.join(COMPILED, 'templates')) if COMPILED else None,
                               extensions=['jinja2.ext.i18n'])
        self.env.globals.update(GLOBALS, url_for=self.url_for)
        self.env.filters.update(FILTERS)
        # Installed once (an imported template keeps the callables it first saw), asking the language now.
        self.env.install_gettext_callables(lambda message: self.translations(self.language).gettext(message),
                                           lambda one, many, n: self.translations(self.language).ngettext(one, many, n),
                                           newstyle=True,
                                           pgettext=lambda context, message: self.translations(self.language).pgettext(
                                               context, message),
                                           npgettext=lambda context, one, many, n: self.translations(
                                               self.language).npgettext(context, one, many, n))

    def url_for(self, endpoint, **values):
        """The path of a route, as Flask's url_for makes it: the rest of the values as a query."""
        if endpoint not in self.routes:
            raise LookupError(f'the phone knows no route {endpoint!r} (its bundle lists {len(self.routes)})')
        path = self.routes[endpoint]
        used = {k: v for k, v in values.items() if '{' + k + '}' in path}
        rest = {k: v for k, v in values.items() if k not in used and v is not None}
        return path.format(**used) + ('?' + urlencode(rest, safe=QUERY_SAFE) if rest else '')

    def translations(self, language):
        """The compiled catalog of a language (English: none needed)."""
        if language not in self.catalogs:
            mo = self.root / 'translations' / language / 'LC_MESSAGES' / 'messages.mo'
            self.catalogs[language] = (gettext.GNUTranslations(mo.open('rb')) if mo.exists()
                                       else gettext.NullTranslations())
        return self.catalogs[language]

    def speaking(self, language):
        """Words in this language inside the block: scorer's messages and the templates'."""
        self.language = language
        return scorer.i18n.speaking(self.translations(language), language)

    def render(self, name, **context):
        return self.env.get_template(name).render(**context)


PHONE = None


def phone():
    global PHONE
    if PHONE is None:
        PHONE = Phone()
    return PHONE


def call(name, text):
    """The worker's one entry: run a function of this module on JSON text, answer JSON text."""
    asked = json.loads(text)
    try:
        with phone().speaking(asked.get('language', 'en')):
            return json.dumps({'ok': CALLS[name](**asked.get('args', {}))})
    except RoundError as e:
        return json.dumps({'problem': {'errors': e.errors, 'fields': {p: sorted(f) for p, f in e.fields.items()}}})


def live(game, game_id, colours=None, keeper=True, edit=False, last_save=''):
    """The live part of a sheet (_live.html), as the server draws it for this game (`last_save`: the
    server's mark of the game's last save, from offline.json)."""
    game = read_game(game)
    sheet = compute_sheet(game, skip_broken=True)
    colours = colours or list(range(len(game.players)))
    return phone().render('games/_live.html', **live_part(
        game_id, sheet, colours, keeper, keeper and (not sheet.finished or edit), rematch=None, etag='', revision=0,
        last_save=last_save))


def preview(game, args):
    """The entry pages' live preview of one hand (_preview.html), on the game's rules."""
    asked = read_hand(args, read_game(game).rules)
    out = args.get('out') == '1'
    solution, error = preview_of(asked, out)
    return {'html': phone().render('games/_preview.html', solution=solution, error=error, rules=asked.rules,
                                   wild=asked.wild, out=out),
            'error': bool(error)}


def enter(game, number, out, typed, confirm=''):
    """A round as typed, read as the server reads it: the game with it saved, or its problem, or
    the doubts to confirm when it looks like an entry mistake (the round page's box, and its key)."""
    game = read_game(game)
    clean = read_round(game, number, set(out), typed)
    unsure = doubts(game, number, clean)
    if unsure and confirm != doubts_key(unsure):
        key = doubts_key(unsure)
        return {'unsure': phone().render('games/_doubts.html', unsure=unsure, unsure_key=key, number=number), 'key': key}
    rounds = dict(game.rounds)
    rounds[number] = clean
    saved = game.__class__(game.players, game.rules, game.first_dealer, rounds, game.title, game.place, game.date)
    # The cards as the round page shows a saved round: with suit symbols, which read alike in every language.
    return {'game': game_data(saved), 'shown': [symbols(e.cards) if e.cards else '' for e in clean]}


def export(game, game_id):
    """The game file to download (name and text), as the server's Export game file makes it."""
    game = read_game(game)
    return {'name': filename(game, game_id, 'json'), 'text': game_json(game, compute_sheet(game))}


def sheet(game):
    """The sheet as JSON-ready data (totals, zero rounds, places): what a test compares with the server's."""
    return sheet_data(compute_sheet(read_game(game)))


def make_game(fields):
    """A game from the new-game form's fields ([name, value] as the page posts them), made as the
    server makes it (scorer.gamefile.new_game): its data, or the problem and the field at fault."""
    get = dict(fields)
    try:
        day = read_date(get.get('today', ''))
    except GameFileError:
        day = datetime.date.today().isoformat()          # the phone's own calendar
    try:
        game = new_game([get.get(f'players-{i}', '') for i in range(MAX_PLAYERS)],
                        {key: get[key] for key in CHOICES if key != 'decks' and key in get},      # unsent: DEFAULT's
                        get.get('decks', 'auto'), get.get('first_dealer', 'draw'), get.get('title', ''),
                        get.get('place', ''), day)
    except FieldError as e:
        return {'field': e.field, 'message': sentence(e)}          # a whole line, as the server shows it
    return {'game': game_data(game), 'rounds': list(game.rules.rounds)}


def made_page(game, game_id, number=None, colours=None):
    """The page of a game made on this phone offline, with the server's own partials: its sheet
    (no number: the top, then the live part and what to do with it, and the round to enter next, which
    the phone draws ahead: static/js/offline/ahead.js) or a round's page. Its form
    has no CSRF token: what it saves is sent later with a fresh one (offline.js)."""
    game = read_game(game)
    sheet = compute_sheet(game, skip_broken=True)
    colours = colours or list(range(len(game.players)))
    render = phone().render
    if number is None:
        drawn = live(game_data(game), game_id, colours)
        below = (f'<div id="live" data-local="1" aria-live="polite">{drawn}</div>' +
                 render('games/_sheet_actions.html', game_id=game_id, sheet=sheet, made_here=True, keeper=True))
        return {'title': game.title or ', '.join(game.players), 'above': render('games/_sheet_head.html', sheet=sheet),
                'below': below, 'next': sheet.next_round}
    page = render('games/_round_page.html', **round_page(game_id, game, number, sheet, colours, csrf='', made_here=True))
    return {'title': scorer.i18n._('Round %(n)d', n=number), 'above': page, 'below': ''}


def game_list(games):
    """The games kept on this phone, each as the server's lists draw one (games/_game_item.html), with
    where it stands here: games are {id, game, unsent (rounds not sent), made, refused}."""
    items = []
    for kept in games:
        game = read_game(kept['game'])
        sheet = compute_sheet(game, skip_broken=True)
        state = (_('Not taken: export the game file.') if kept.get('refused') else
                 _('Not sent yet ({n})').replace('{n}', str(kept['unsent'])) if kept.get('unsent') else
                 _('Made here, not sent yet.') if kept.get('made') else '')
        where = _('Game over.') if sheet.finished else _('round %(n)d of %(last)d', n=sheet.next_round,
                                                          last=game.rules.last_round)
        notes = [note.removesuffix('.') for note in (state, game.rules.own_kind, where, day(game.date or '')) if note]
        items.append(phone().render('games/_game_item.html', game_id=kept['id'], title=game.title,
                                    players=game.players, notes=notes))
    return ''.join(items)


def table_list(tables):
    """The tables whose pages this phone kept (to read them offline), each as the server's start page
    draws one (games/_table_item.html): tables are {id, name, keeper}, as each kept page says them."""
    return ''.join(phone().render('games/_table_item.html', table_id=t['id'], table_name=t['name'],
                                  keeper=bool(t.get('keeper'))) for t in tables)


def conflict_box(number, version, versions, again=False):
    """The box of a round sent from this phone that another phone saved meanwhile
    (games/_unsent_conflict.html): both versions as the server's page of the conflict drew them
    (`versions`, its HTML), the round's version there now, and the two choices."""
    return phone().render('games/_unsent_conflict.html', number=int(number), version=version, versions=Markup(versions),
                          again=again)


def solve_many(queries):
    """Hands solved as /api/solve answers them ({cards, wild or round, rules}): penalty, melds, deadwood."""
    answers = []
    for fields in queries:
        try:
            query = read_query(fields)
        except QueryError as e:
            answers.append({'error': str(e)})
            continue
        answers.append(answer_data(query, solve(query.hand, query.wild, query.rules)))
    return answers


CALLS = {'live': live, 'preview': preview, 'enter': enter, 'export': export, 'sheet': sheet, 'solve_many': solve_many,
         'make_game': make_game, 'made_page': made_page, 'game_list': game_list, 'table_list': table_list,
         'conflict_box': conflict_box}
