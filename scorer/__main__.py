"""The command line: python -m scorer check | solve --jsonl | sheet.

  check "7H 8H 9H KS 5C" --round 3     the referee's word on one hand
  solve --jsonl < hands.jsonl          one JSON answer per JSON line
  sheet GAME.json                      the scoresheet of a game file
"""

import argparse
import gc
import gettext
import json
import math
import os
import sys
from contextlib import contextmanager, redirect_stderr, redirect_stdout

from .cards import CardError
from .i18n import CATALOGS, N_, _, catalog, language, listing, ngettext, speaking

from .reading import LANGUAGES, parse_hand, typed
from .query import QueryError, answer_data, check_size, read_letters, read_query, read_rules, read_wild
from .rules import ABOUT, CHOICES
from .solver import solve


# argparse's own words (usage, its section titles, its errors), which it asks gettext's global domain
# for: here so that the catalogs hold them (argparse_speaking binds the domain to them).
ARGPARSE_WORDS = (N_('usage: '), N_('positional arguments'), N_('options'), N_('show this help message and exit'),
                  N_('%(prog)s: error: %(message)s\n'), N_('the following arguments are required: %s'),
                  N_('unrecognized arguments: %s'), N_('argument %(argument_name)s: %(message)s'),
                  N_('expected one argument'), N_('ambiguous option: %(option)s could match %(matches)s'))


class Parser(argparse.ArgumentParser):
    """argparse's parser, but a command it does not know is said in words: "'chec' is not a command:
    the commands are check, solve and sheet", not "argument {check,solve,sheet}: invalid choice:
    'chec' (choose from 'check', 'solve', 'sheet')", whose braces and straight quotes read as code.
    The commands are the only choices these parsers have (the rules' values are read by
    scorer.query, which says what each can be)."""

    def _check_value(self, action, value):
        if action.choices is not None and value not in action.choices:
            raise argparse.ArgumentError(None, _("'%(value)s' is not a command: the commands are %(choices)s",
                                                 value=value, choices=listing(action.choices)))


@contextmanager
def argparse_speaking(language):
    """argparse's own words in the language for the while: it asks gettext's global domain
    ('messages', bound here to the app's catalogs) in the language of $LANGUAGE."""
    before = os.environ.get('LANGUAGE')
    gettext.bindtextdomain('messages', str(CATALOGS))
    os.environ['LANGUAGE'] = language
    try:
        yield
    finally:
        if before is None:
            del os.environ['LANGUAGE']
        else:
            os.environ['LANGUAGE'] = before


def language_asked(argv):
    """The --lang of a command line (es, pt; else en), read before the rest: the help and the
    errors of the rest speak it."""
    early = argparse.ArgumentParser(add_help=False)
    early.add_argument('--lang')
    asked = early.parse_known_args(argv)[0].lang
    return asked if asked in LANGUAGES else 'en'


def parse(make_parser, argv=None):
    """The arguments, read by make_parser()'s parser in the language of --lang: its help, usage and
    errors (argparse's too). SystemExit as argparse raises it (after --help, or a bad command line)."""
    language = language_asked(sys.argv[1:] if argv is None else argv)
    with speaking(catalog(language), language), argparse_speaking(language):
        return make_parser().parse_args(argv)


def add_language_option(parser):
    """--lang: the language of the cards' letters, the answers and the help."""
    parser.add_argument('--lang', default=argparse.SUPPRESS, metavar='es|pt',
                        help=_('read the cards in the letters of a Spanish (es) or Portuguese (pt) table '
                               'and answer in that language (without it: English, and the letters S H D C)'))


def add_rule_options(parser):
    group = parser.add_argument_group(_('rules (docs/rules.md; defaults are the standard game)'))
    group.add_argument('--rules', metavar='JSON', help=_('settings as a JSON object'))
    for key, choices in CHOICES.items():
        shown = '|'.join('none' if c is None else str(c).lower() for c in choices)
        group.add_argument('--' + key.replace('_', '-'), dest=key, metavar=shown, help=_(ABOUT[key][1]))


def rules_from(args):
    settings = {}
    if args.rules:
        try:
            settings = json.loads(args.rules)
        except json.JSONDecodeError as e:
            raise QueryError(_('--rules is not JSON (column %(column)d)', column=e.colno)) from None
        if not isinstance(settings, dict):
            raise QueryError(_('--rules must be a JSON object of settings'))
    for key in CHOICES:
        value = getattr(args, key)
        if value is not None:
            settings[key] = value
    return read_rules(settings)


def check(args, out):
    """Print the referee's word on one hand."""
    from .claims import parse_melds       # the referee's modules, imported by the one command that uses them:
    from .referee import audit, lines     # solve --jsonl starts without them
    rules = rules_from(args)
    if args.wild is None and args.round is None:
        raise QueryError(_('give --round N or --wild RANK'))
    letters = read_letters({'lang': getattr(args, 'lang', None)})
    wild, round = read_wild(args.wild, args.round, rules, letters)
    try:
        hand = parse_hand(args.cards, rules, letters)
        melds = (parse_melds(args.melds, lambda t: parse_hand(t, rules, letters))
                 if args.melds else None)
    except CardError as e:
        raise QueryError(str(e)) from None
    if not hand:
        raise QueryError(_('no cards given'))
    check_size(hand, round, rules)
    for line in lines(audit(hand, wild, rules, round, claim_score=args.claim, claim_melds=melds)):
        print(line, file=out)
    return 0


# One answer line's JSON, made once a batch. An answer is a tree made here, never circular: the
# encoder does not keep every list and dict it enters to check (a seventh of its time, 0.5 µs a line).
ANSWER = json.JSONEncoder(ensure_ascii=False, allow_nan=False, check_circular=False)


def solve_jsonl(lines, out):
    """One JSON answer per JSON line, in order; a bad line, whatever it holds, gets one line of valid
    JSON with its error, and the next goes on."""
    for line in lines:
        if not line.strip():
            continue
        try:
            fields = read_line(line)
        except QueryError as e:
            answer = {'id': None, 'error': str(e)}
        else:
            answer = answer_line(fields)
        out.write(ANSWER.encode(answer) + '\n')
        out.flush()
    return 0


MAX_ID = 200          # characters of a line's id echoed back


def no_constant(name):
    """NaN, Infinity and -Infinity are refused: no query holds them."""
    raise QueryError(_('not JSON: %(name)s is not a number in JSON', name=name))


def digits_read(digits):
    """An integer of at most 30 digits as a number; a longer one is kept as its text."""
    return int(digits) if len(digits) <= 30 else digits


QUERY = json.JSONDecoder(parse_constant=no_constant, parse_int=digits_read)      # a query line's JSON, made once


def read_line(line):
    """A JSON line as Python values; QueryError for what is not JSON, is nested deeper than a query
    ever is, or holds a number no query needs (NaN, Infinity, or hundreds of digits: kept as text)."""
    try:
        return QUERY.decode(line)
    except json.JSONDecodeError as e:
        raise QueryError(_('not JSON (column %(column)d)', column=e.colno)) from None
    except RecursionError:
        raise QueryError(_('not JSON a query can be: nested too deep')) from None


def answer_line(fields):
    """The answer to one JSON line: its id and the solution, or its id and the error."""
    ident = fields.get('id') if isinstance(fields, dict) else None
    if not isinstance(fields, dict):
        return {'id': None, 'error': _('a query is an object like %(example)s',
                                       example='{"cards": "7H 8H 9H", "wild": "5"}')}
    if not valid_id(ident):
        return {'id': None, 'error': ngettext('id must be a string of at most %(most)d character or a number',
                                              'id must be a string of at most %(most)d characters or a number',
                                              MAX_ID, most=MAX_ID)}
    asked = fields.get('lang') if fields.get('lang') in LANGUAGES else 'en'
    if asked == language():        # the batch speaks it already (run()): no context entered for the line
        return answer_query(fields, ident)
    with speaking(catalog(asked), asked):
        return answer_query(fields, ident)


def answer_query(fields, ident):
    """The answer to a query with a valid id, in the language spoken: the solution, or the error."""
    try:
        query = read_query(fields)
    except QueryError as e:
        return {'id': ident, 'error': str(e)}
    return {'id': ident, **answer_data(query, solve(query.hand, query.wild, query.rules))}


def valid_id(ident):
    """Whether an id can be echoed as it came: null, a string, or a finite number of a sane size."""
    if ident is None or isinstance(ident, bool):
        return True
    if isinstance(ident, str):
        return len(ident) <= MAX_ID
    if isinstance(ident, int):
        return abs(ident) < 2 ** 63
    return isinstance(ident, float) and math.isfinite(ident)


def sheet(args, stdin, out):
    from .gamefile import GameFileError, read_game
    from .sheet import compute_sheet, sheet_data, sheet_text
    try:
        if args.game == '-':
            data = stdin.read()
        else:
            with open(args.game, encoding='utf-8') as f:
                data = f.read()
    except OSError as e:
        raise QueryError(_('cannot read %(file)s: %(why)s', file=args.game,
                           why=_(e.strerror) if e.strerror in READ_ERRORS else e.strerror)) from None
    try:
        game = read_game(data)
    except GameFileError as e:
        raise QueryError(str(e)) from None
    result = compute_sheet(game)
    if args.json:
        out.write(json.dumps(sheet_data(result), ensure_ascii=False, indent=2) + '\n')
    else:
        out.write(sheet_text(result) + '\n')
    return 0


# Why a file could not be read, as the system says it (os.strerror), in the table's language.
READ_ERRORS = (N_('No such file or directory'), N_('Permission denied'), N_('Is a directory'))


def parser():
    """python -m scorer's parser: --lang before the command too (its help in that language)."""
    p = Parser(prog='python -m scorer', description=_('Three-Thirteen referee and scorekeeper.'))
    add_language_option(p)
    add_commands(p.add_subparsers(dest='command', required=True, title=_('commands'), metavar=_('COMMAND')))
    return p


COMMANDS = ('check', 'solve', 'sheet')


def add_commands(sub):
    """The referee's commands, added to a command line's subcommands (this one's, and three-thirteen's)."""
    c = sub.add_parser('check', help=_("the referee's word on one hand"))
    c.add_argument('cards', metavar=_('CARDS'), help=_('the hand, e.g. "%(example)s"', example=typed('7H 8H 9H KS 5C', language())))
    c.add_argument('--round', metavar='N', help=_('the round number (gives the wild rank and the hand size)'))
    c.add_argument('--wild', metavar=_('RANK'), help=_('the wild rank: A, 2‑10, J, Q, K, or none'))
    c.add_argument('--claim', type=whole_number, metavar=_('POINTS'), help=_('a claimed score to check'))
    c.add_argument('--melds', metavar=_('MELDS'),
                   help=_('claimed melds, "|" between them: "%(example)s"',
                             example=typed('7H 8H 9H | KS KD KC', language())))
    add_language_option(c)
    add_rule_options(c)
    s = sub.add_parser('solve', help=_('solve hands given as JSON lines on stdin'))
    s.add_argument('--jsonl', action='store_true', required=True, help=_('read and write JSON lines'))
    g = sub.add_parser('sheet', help=_('print the scoresheet of a game file'))
    g.add_argument('game', metavar=_('FILE'), help=_('the game file (JSON), or - for stdin'))
    g.add_argument('--json', action='store_true', help=_('print the sheet as JSON'))
    add_language_option(g)


def whole_number(text):
    """A whole number typed on the command line (argparse says why it is not one)."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(_("'%(text)s' is not a whole number", text=text)) from None


# The command line of a batch or a co-process: it has nothing to parse, so it runs without the parser
# (building it, with every command's help, and the shutil and locale that argparse then imports, was
# 19 M instructions before the first line, callgrind).
BATCH = ['solve', '--jsonl']


def main(argv=None, stdin=None, stdout=None, stderr=None):
    """Run a command; returns the exit status (0, or 2 with a message on stderr for bad input)."""
    stdin, stdout, stderr = stdin or sys.stdin, stdout or sys.stdout, stderr or sys.stderr
    if (sys.argv[1:] if argv is None else argv) == BATCH:
        return run(argparse.Namespace(command='solve', jsonl=True), stdin, stdout, stderr)
    try:
        with redirect_stdout(stdout), redirect_stderr(stderr):      # argparse's help and errors too
            args = parse(parser, argv)
    except SystemExit as e:            # argparse has printed its usage message, or the help
        return e.code
    return run(args, stdin, stdout, stderr)


def run(args, stdin=None, stdout=None, stderr=None):
    """Run one of COMMANDS, its arguments parsed; the exit status."""
    stdin, stdout, stderr = stdin or sys.stdin, stdout or sys.stdout, stderr or sys.stderr
    language = getattr(args, 'lang', None) or 'en'
    if language not in LANGUAGES:
        language = 'en'                    # check's reader says what is wrong with it
    with speaking(catalog(language), language):
        try:
            if args.command == 'check':
                return check(args, stdout)
            if args.command == 'solve':
                return solve_jsonl(stdin, stdout)
            return sheet(args, stdin, stdout)
        except QueryError as e:
            print(_('error: %(message)s', message=e), file=stderr)
            return 2


if __name__ == '__main__':
    # What the imports made lives as long as the process: no garbage collection walks it again (a
    # batch of solve --jsonl lines makes many small objects, and each full collection walked the
    # modules too: 1.6 % of 1,500 lines' instructions, counted by callgrind).
    gc.freeze()
    sys.exit(main())
