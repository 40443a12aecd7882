"""The three-thirteen command: serve the app (the production recipe, or the development server), back
up its database, and the referee's commands of `python -m scorer` (check, solve --jsonl, sheet).

    three-thirteen serve                 gunicorn with gevent workers, gunicorn.conf.py and SCORER_* settings
    three-thirteen run                   the development server (one process, reloads nothing)
    three-thirteen backup PATH           a consistent copy of the database, while it runs
    three-thirteen check "7H 8H 9H" --round 1
"""

import argparse
import os
import sys
from pathlib import Path

from scorer import __main__ as referee

from . import __version__
from .logs import JsonFormatter, log_format, say
from .settings import stop_on_a_bad_setting

ROOT = Path(__file__).resolve().parent.parent       # app.py, gunicorn.conf.py and the app's files


def parser():
    p = argparse.ArgumentParser(prog='three-thirteen', description=(
        'The Three-Thirteen scorekeeper: serve it, back it up, and ask its referee. The data lives in '
        'SCORER_DATABASE, else in the data folder (systemd\'s $STATE_DIRECTORY, else the user\'s own: '
        '~/.local/share/three-thirteen on Linux). Settings: SCORER_* (docs/deploy.md), each also from a '
        'file named by SCORER_*_FILE.'))
    p.add_argument('--version', action='version', version=f'%(prog)s {__version__}')
    sub = p.add_subparsers(dest='command', required=True, metavar='COMMAND')
    s = sub.add_parser('serve', help='serve the app for real: gunicorn, gevent workers (gunicorn.conf.py)')
    s.add_argument('--bind', help='address:port to listen on (SCORER_BIND; default 0.0.0.0:8000)')
    s.add_argument('--workers', type=int, help='worker processes (SCORER_WORKERS; default 2)')
    r = sub.add_parser('run', help='the development server, for trying it out on this computer')
    r.add_argument('--host', default='127.0.0.1', help='address to listen on (default 127.0.0.1)')
    r.add_argument('--port', type=int, default=5000, help='port (default 5000)')
    b = sub.add_parser('backup', help='write a consistent copy of the database to PATH (safe while it runs)')
    b.add_argument('path', metavar='PATH')
    b.add_argument('--force', action='store_true', help='replace PATH if it exists')
    referee.add_commands(sub)
    return p


def where():
    """One line on where the data lives, and which feature lacks its files (an install built without npm)."""
    from app import database, node_modules
    from web import bundle
    lines = [f'three-thirteen {__version__}: the data in {database()}']
    if not bundle.available_in(node_modules()):
        lines.append('offline play is off: Pyodide is not installed (npm ci; docs/deploy.md)')
    return lines


def serve(args):
    """gunicorn with the production recipe: this very process becomes its master, once every setting
    has been read (a bad one stops it here, before any worker starts)."""
    from gunicorn.app.wsgiapp import WSGIApplication
    if args.bind:
        os.environ['SCORER_BIND'] = args.bind
    if args.workers:
        os.environ['SCORER_WORKERS'] = str(args.workers)
    stop_on_a_bad_setting()
    for line in where():
        say(line)
    sys.argv = ['three-thirteen serve', '--config', str(ROOT / 'gunicorn.conf.py'), '--chdir', str(ROOT),
                'app:create_app()']
    WSGIApplication('%(prog)s').run()
    return 0


def run(args):
    """The development server (werkzeug's), on this computer by default. With SCORER_LOG_FORMAT=json its
    lines (where it listens, each request) and the app's are JSON like every other (web/logs.py), and
    Flask's own text banner is left out."""
    from app import create_app
    stop_on_a_bad_setting()
    for line in where():
        say(line)
    app = create_app()
    if log_format() != 'json':
        app.run(host=args.host, port=args.port)
        return 0
    import logging
    from werkzeug.serving import run_simple
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter())
    for name in ('werkzeug', app.logger.name):
        log = logging.getLogger(name)
        log.handlers[:] = [handler]
        log.setLevel(logging.INFO)
        log.propagate = False
    run_simple(args.host, args.port, app, threaded=True)
    return 0


def backup(args):
    """`flask backup` itself, with this app."""
    from flask.cli import ScriptInfo

    from app import create_app
    from web.db import backup_command
    argv = [args.path] + (['--force'] if args.force else [])
    return backup_command.main(argv, prog_name='three-thirteen backup', obj=ScriptInfo(create_app=create_app),
                               standalone_mode=True)


def main(argv=None):
    args = referee.parse(parser, argv)            # the referee's commands speak their --lang
    if args.command in referee.COMMANDS:
        return referee.run(args)
    return {'serve': serve, 'run': run, 'backup': backup}[args.command](args)


if __name__ == '__main__':
    sys.exit(main())
