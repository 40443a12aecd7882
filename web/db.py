"""The database connection of a request: get_db() on g, closed at teardown; and backups."""

import sqlite3

import click
from flask import current_app, g

from . import store


def get_db():
    """The request's sqlite-utils Database, opened on first use."""
    if 'db' not in g:
        g.db = store.connect(current_app.config['DATABASE'], migrate=False)
    return g.db


def close_db(e=None):
    db = g.pop('db', None)
    if db is not None:
        db.close()


def init_app(app):
    app.teardown_appcontext(close_db)
    store.connect(app.config['DATABASE']).close()      # create or migrate the schema at start-up


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
