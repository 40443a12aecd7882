"""The game file, version 1: what export, import and the command line read and write.

    {"version": 1, "players": ["Ana", "Bruno"], "rules": {...}, "first_dealer": 0,
     "rounds": [{"round": 1, "entries": [{"player": "Ana", "went_out": true},
                                         {"player": "Bruno", "cards": "KH 5C 7D"},
                                         {"player": "Carla", "points": 12}]}]}

`title`, `place` and `date` (YYYY-MM-DD) are optional. An exported file also carries its
`sheet`; reading checks it against the rounds, so a file edited by hand is caught. A round may
carry its `earlier` versions, oldest first, each `{"entries": [...], "replaced": "<when>"}`: a
version set aside in a conflict, corrected or undone (optional: a reader of version 1 that does not
know it reads the rest). Reading checks everything and names the first problem found.
"""

import datetime
import json
import re
import secrets

from .i18n import _, ngettext
from .limits import MAX_EARLIER, MAX_FIELD, MAX_TEXT
from .names import BadName, check_names, clean_name
from .rules import DECKS, GAME_NAMES, RulesError, deal_problem, make_rules
from .sheet import Entry, Game, RoundError, clean_entries, compute_sheet, read_points, sheet_data

VERSION = 1


class GameFileError(ValueError):
    """A game file that cannot be read, with a message naming what is wrong and where."""


class FieldError(ValueError):
    """What makes the new-game form's fields no game, and the field at fault."""

    def __init__(self, field, message):
        super().__init__(message)
        self.field = field


def new_game(typed, settings, decks, first_dealer, title='', place='', date=''):
    """A new game as the new-game form makes it, on the server or on a phone offline: the players
    typed in seating order (blanks skipped), none alike; the rules of `settings` with `decks`
    ('auto': 2, or 3 for 7-8 players), less what the chosen game decides itself (Five Crowns'
    deck and card values); a table the game is for, and a pack big enough for its last round; the first dealer a
    seat at the table ('draw': drawn at random). FieldError names the field at fault."""
    try:
        players = check_players([p.strip() for p in typed if p and p.strip()])
    except GameFileError as e:
        raise FieldError('players', str(e)) from None
    for field, text in (('title', title), ('place', place)):
        if len(text) > MAX_TEXT:
            raise FieldError(field, ngettext('at most %(most)d character, not %(count)d', 'at most %(most)d characters, not %(count)d',
                MAX_TEXT, most=MAX_TEXT, count=len(text)))
    settings = dict(settings, decks=(3 if len(players) >= 7 else 2) if decks == 'auto' else decks)
    kind = settings.get('game')
    if kind in DECKS:                    # what a game decides itself (Five Crowns' deck) is not the form's
        settings = {k: v for k, v in settings.items() if k not in DECKS[kind].fixed}
    try:
        rules = make_rules(settings)
    except RulesError as e:
        raise FieldError('rules', str(e)) from None
    problem = deal_problem(len(players), rules)
    if problem:
        raise FieldError('players' if len(players) > rules.deck.most_players else 'decks', problem)
    if first_dealer == 'draw':
        return Game(players, rules, secrets.randbelow(len(players)), {}, title.strip(), place.strip(), date)
    first = int(first_dealer) if str(first_dealer).isascii() and str(first_dealer).isdigit() else 0
    if first >= len(players):
        raise FieldError('first_dealer', _('seat %(n)d has no player', n=first + 1))
    return Game(players, rules, first, {}, title.strip(), place.strip(), date)


def check_players(players):
    """Players: 2-8 names, cleaned (scorer/names.py), none alike; returns them as kept."""
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise GameFileError(_('players must be a list of names'))
    try:
        return check_names(players)
    except BadName as e:
        raise GameFileError(str(e)) from None


def read_date(text):
    """A day written YYYY-MM-DD that the calendar has ('2026-13-45' is not one); GameFileError otherwise."""
    if not re.fullmatch(r'\d{4}-\d{2}-\d{2}', text, re.ASCII):
        raise GameFileError(_('date must be written YYYY-MM-DD'))
    try:
        return datetime.date.fromisoformat(text).isoformat()
    except ValueError:
        raise GameFileError(_("'%(date)s' is not a day of the calendar", date=text)) from None


def read_entry(raw, where, lenient=False):
    """One entry of a round; `lenient` (the store reading its own rows) keeps points as stored, so a
    round saved wrong by an older version can still be shown and corrected."""
    if not isinstance(raw, dict):
        raise GameFileError(_('%(where)s: an entry must be an object', where=where))
    unknown = set(raw) - {'player', 'went_out', 'cards', 'points'}
    if unknown:
        raise GameFileError(_("%(where)s: unknown field '%(field)s'", where=where, field=sorted(unknown)[0]))
    player = raw.get('player')
    if not isinstance(player, str):
        raise GameFileError(_('%(where)s: an entry needs a player name', where=where))
    went_out = raw.get('went_out', False)
    if not isinstance(went_out, bool):
        raise GameFileError(_('%(where)s: went_out must be true or false', where=where))
    cards = raw.get('cards')
    if cards is not None and not isinstance(cards, str):
        raise GameFileError(_('%(where)s: cards must be text like %(example)s', where=where, example='"KH 5C 7D"'))
    if cards is not None and not lenient and len(cards) > MAX_FIELD:
        raise GameFileError(ngettext('%(where)s: cards must be text of at most %(most)d character',
                                     '%(where)s: cards must be text of at most %(most)d characters', MAX_FIELD,
                                     where=where, most=MAX_FIELD))
    try:
        points = read_points(raw.get('points'))
    except ValueError as e:
        if not (lenient and type(raw.get('points')) is int):
            raise GameFileError(f'{where}: {e}') from None
        points = raw['points']
    return Entry(clean_name(player), went_out, cards, points)


def read_game(data):
    """A Game from a game file (text or already-parsed JSON); raises GameFileError."""
    if isinstance(data, (str, bytes)):
        try:
            data = json.loads(data)
        except UnicodeDecodeError as e:
            raise GameFileError(_('not a game file: it is not UTF-8 text (byte 0x%(byte)02x at position %(at)d)',
                                  byte=e.object[e.start], at=e.start)) from None
        except json.JSONDecodeError as e:        # the parser's own words are English: where it stopped
            raise GameFileError(_('not a game file: not JSON (line %(line)d, column %(column)d)',
                                  line=e.lineno, column=e.colno)) from None
        except RecursionError:
            raise GameFileError(_('not a game file: nested too deep')) from None
        except ValueError:              # a number of thousands of digits
            raise GameFileError(_('not a game file: a number in it is too long')) from None
    if not isinstance(data, dict):
        raise GameFileError(_('not a game file: expected a JSON object'))
    no_half_pairs(data)
    version = data.get('version')
    if isinstance(version, str):
        raise GameFileError(_('not a game file of version %(version)d (version: %(found)s, text, not a number)',
                              version=VERSION, found=json.dumps(shown(version), ensure_ascii=False)))
    if type(version) is not int or version != VERSION:
        raise GameFileError(_('not a game file of version %(version)d (version: %(found)s)', version=VERSION,
                              found=shown(version)))
    players = check_players(data.get('players'))
    try:
        rules = make_rules(data.get('rules') or {})
    except RulesError as e:
        raise GameFileError(_('rules: %(error)s', error=e)) from None
    problem = deal_problem(len(players), rules)          # the same check as the new-game form
    if problem:
        raise GameFileError(_('rules: %(error)s', error=problem))
    first = data.get('first_dealer', 0)
    if not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < len(players):
        raise GameFileError(_('first_dealer must be a seat number from 0 to %(last)d', last=len(players) - 1))
    texts = {}
    for key in ('title', 'place'):
        texts[key] = data.get(key, '')
        if not isinstance(texts[key], str) or len(clean_name(texts[key])) > MAX_TEXT:
            raise GameFileError(ngettext('%(key)s must be text of at most %(most)d character',
                                         '%(key)s must be text of at most %(most)d characters', MAX_TEXT,
                                         key=key, most=MAX_TEXT))
        texts[key] = clean_name(texts[key])
    date = data.get('date', '')
    if not isinstance(date, str):
        raise GameFileError(_('date must be written YYYY-MM-DD'))
    date = read_date(date) if date else ''
    raw_rounds = data.get('rounds', [])
    if not isinstance(raw_rounds, list):
        raise GameFileError(_('rounds must be a list'))
    rounds = {}
    for raw in raw_rounds:
        if not isinstance(raw, dict) or type(raw.get('round')) is not int:
            raise GameFileError(_('each round needs a round number'))
        number = raw['round']
        if number not in rules.rounds:
            raise GameFileError(_('round %(round)s is not in a %(game)s game (rounds 1-%(last)d)', round=number,
                                                game=_(GAME_NAMES[rules.game]), last=rules.last_round))
        if number in rounds:
            raise GameFileError(_('round %(round)d appears twice', round=number))
        entries = raw.get('entries')
        if not isinstance(entries, list):
            raise GameFileError(_('round %(round)d: entries must be a list', round=number))
        rounds[number] = tuple(read_entry(e, _('round %(round)d', round=number)) for e in entries)
        seen = set()
        for e in rounds[number]:
            if e.player in seen:
                raise GameFileError(_('round %(round)d: two entries for %(player)s', round=number, player=e.player))
            seen.add(e.player)
    missing = [n for n in range(1, max(rounds, default=0) + 1) if n not in rounds]
    if missing:
        raise GameFileError(_('round %(round)d is there but not round %(missing)d: rounds are played in order',
                              round=max(rounds), missing=missing[0]))
    game = Game(players, rules, first, rounds, texts['title'].strip(), texts['place'].strip(), date)
    try:
        sheet = compute_sheet(game)
    except RoundError as e:
        raise GameFileError(str(e)) from None
    if 'sheet' in data:
        check_sheet(data['sheet'], sheet_data(sheet))
    # Kept as the round form keeps them: cards in canonical text, points summed.
    rounds = {number: clean_entries(game, number, entries) for number, entries in rounds.items()}
    return Game(players, rules, first, rounds, game.title, game.place, date)


def no_half_pairs(data):
    """GameFileError if any text of the file (a key or a value) holds half of a UTF-16 pair (JSON's
    "\\ud800" alone): no character, so no name or card could hold it, and every later message would
    name something the file does not say."""
    found = half_pair(data)
    if found:
        raise GameFileError(_('not a game file: it holds a character that is not text (%(half)s, half of a pair) '
                              'in %(text)s', half=found[0], text=found[1]))


def half_pair(data):
    """The first half of a UTF-16 pair in any text of parsed JSON (a key or a value), as a file writes
    it ('\\ud800'), and the text it is in, quoted short; None when there is none."""
    waiting = [data]
    while waiting:
        value = waiting.pop()
        if isinstance(value, dict):
            waiting.extend(value.keys())
            waiting.extend(value.values())
        elif isinstance(value, list):
            waiting.extend(value)
        elif isinstance(value, str) and HALF_PAIR.search(value):
            return json.dumps(HALF_PAIR.search(value).group())[1:-1], json.dumps(shown(value))
    return None


HALF_PAIR = re.compile('[\ud800-\udfff]')


def shown(value, most=20):
    """A value from a file, short enough to quote in a message."""
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else value
    return text if len(text) <= most else text[:most] + '…'


def check_sheet(claimed, computed):
    """The sheet a file carries must be the one its rounds give; say where they part."""
    if claimed == computed:
        return
    if not isinstance(claimed, dict):
        raise GameFileError(_('the sheet in the file is not a sheet'))
    for player, total in computed['totals'].items():
        theirs = (claimed.get('totals') or {}).get(player) if isinstance(claimed.get('totals'), dict) else None
        if theirs != total:
            raise GameFileError(_("the file's sheet gives %(player)s a total of %(theirs)s, but its rounds give "
                                  '%(total)d: the file was changed by hand', player=player, theirs=theirs, total=total))
    raise GameFileError(_("the file's sheet does not match its rounds: the file was changed by hand"))


def read_earlier(data, game):
    """The earlier versions a game file carries of its rounds (see the module's docstring), read as
    read_game reads the rounds: {round: [(entries, when it was replaced)]}, oldest first; GameFileError
    names the first problem. `game` is the file's game, as read_game gave it."""
    found = {}
    for raw in data.get('rounds', []) if isinstance(data, dict) else ():
        versions = raw.get('earlier', []) if isinstance(raw, dict) else []
        number = raw.get('round') if isinstance(raw, dict) else None
        if not versions or number not in game.rounds:
            continue
        if not isinstance(versions, list) or len(versions) > MAX_EARLIER:
            raise GameFileError(ngettext('round %(round)d: earlier must be a list of at most %(most)d version',
                                         'round %(round)d: earlier must be a list of at most %(most)d versions',
                                         MAX_EARLIER, round=number, most=MAX_EARLIER))
        found[number] = []
        for version in versions:
            where = _('round %(round)d, an earlier version', round=number)
            if not isinstance(version, dict) or not isinstance(version.get('entries'), list):
                raise GameFileError(_('%(where)s: entries must be a list', where=where))
            replaced = version.get('replaced', '')
            if not isinstance(replaced, str) or len(replaced) > MAX_TEXT:
                raise GameFileError(ngettext('%(where)s: replaced must be text of at most %(most)d character',
                                             '%(where)s: replaced must be text of at most %(most)d characters',
                                             MAX_TEXT, where=where, most=MAX_TEXT))
            entries = tuple(read_entry(e, where) for e in version['entries'])
            strangers = [e.player for e in entries if e.player not in game.players]
            if strangers:
                raise GameFileError(_('%(where)s: %(player)s is not a player of this game', where=where,
                                      player=strangers[0]))
            found[number].append((entries, clean_name(replaced)))
    return found


def game_data(game, earlier=None):
    """The game file (a dict ready for JSON) of a Game, with the `earlier` versions of its rounds
    ({round: [(entries, when replaced)]}, oldest first) where there are any."""
    data = {'version': VERSION}
    for key in ('title', 'place', 'date'):
        if getattr(game, key):
            data[key] = getattr(game, key)
    data.update({
        'players': list(game.players),
        'rules': game.rules.to_dict(),
        'first_dealer': game.first_dealer,
        'rounds': [{'round': n, 'entries': [entry_data(e) for e in game.rounds[n]],
                    **({'earlier': [{'entries': [entry_data(e) for e in entries], 'replaced': replaced}
                                    for entries, replaced in (earlier or {})[n]]} if (earlier or {}).get(n) else {})}
                   for n in sorted(game.rounds)],
    })
    return data


def game_json(game, sheet, earlier=None):
    """The game file as text: the game (with its rounds' earlier versions), and its sheet (which an
    import checks against the rounds)."""
    return json.dumps({**game_data(game, earlier), 'sheet': sheet_data(sheet)}, ensure_ascii=False, indent=2)


def filename(game, game_id, ext):
    """A file's name for a game: the title (in any script) and the date, 'ωmega-2026-11-29.csv'."""
    stem = re.sub(r'-+', '-', ''.join(ch if ch.isalnum() else '-' for ch in (game.title or 'three-thirteen')))
    return f'{stem.strip("-").lower() or "three-thirteen"}-{game.date or game_id[:8]}.{ext}'


def entry_data(e):
    data = {'player': e.player}
    if e.went_out:
        data['went_out'] = True
    if e.cards:
        data['cards'] = e.cards
    if e.points is not None:
        data['points'] = e.points
    return data
