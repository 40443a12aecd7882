"""The database connection of a request: get_db() on g, given back at teardown; and backups.

Each server thread keeps its connection open from one request to the next (opening and
closing a SQLite file costs more than most requests here); teardown makes sure nothing of
a failed request's transaction is left behind.
"""

import sqlite3
import threading

import click
from flask import current_app, g

from . import store

_kept = threading.local()


def get_db():
    """The request's sqlite-utils Database, this thread's own."""
    if 'db' not in g:
        path = current_app.config['DATABASE']
        if getattr(_kept, 'path', None) != path:
            if getattr(_kept, 'db', None) is not None:
                _kept.db.close()
            _kept.db, _kept.path = store.connect(path, migrate=False), path
        g.db = _kept.db
    return g.db


def close_db(e=None):
    db = g.pop('db', None)
    if db is not None and db.conn.in_transaction:
        db.conn.rollback()


def init_app(app):
    """Give connections back after each request, bring the schema up to date, add `flask backup`."""
    app.teardown_appcontext(close_db)
    store.connect(app.config['DATABASE']).close()      # create or migrate the schema at start-up
    app.cli.add_command(backup_command)


def backup(source, target):
    """Copy the database with SQLite's online backup API: consistent while the app keeps writing."""
    src = sqlite3.connect(source)
    dst = sqlite3.connect(target)
    try:
        with dst:
            src.backup(dst)
        ok = dst.execute('PRAGMA integrity_check').fetchone()[0]
    finally:
        src.close()
        dst.close()
    if ok != 'ok':
        raise click.ClickException(f'the copy failed its integrity check: {ok}')


@click.command('backup')
@click.argument('path', type=click.Path(dir_okay=False, writable=True))
def backup_command(path):
    """Write a consistent copy of the database to PATH (safe while the app runs)."""
    backup(current_app.config['DATABASE'], path)
    click.echo(f'Backed up {current_app.config["DATABASE"]} to {path}')
