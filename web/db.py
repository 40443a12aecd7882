"""The database connection of a request: get_db() on g, one a request, closed at teardown however the
request ends; and backups (`flask backup`, `three-thirteen backup`).

One connection per request, opened on first use and closed when the request ends, however it
ends (an error, a client gone, a stream cut): under gevent every client is its own greenlet, so
a connection kept "per thread" would be one per client, held until the greenlet is collected.
Opening a SQLite file costs a fraction of a millisecond; a leaked handle costs the server.
"""

import os
import sqlite3
from pathlib import Path

import click
from flask import current_app, g
from flask.cli import with_appcontext

from . import store


def get_db():
    """The request's sqlite-utils Database, opened on first use."""
    if 'db' not in g:
        g.db = store.connect(current_app.config['DATABASE'], migrate=False,
                             busy_timeout_ms=current_app.config.get('BUSY_TIMEOUT_MS', store.BUSY_TIMEOUT_MS))
    return g.db


def close_db(e=None):
    """Give the connection back: nothing of a failed transaction stays, and the file handle is closed."""
    db = g.pop('db', None)
    if db is not None:
        try:
            if db.conn.in_transaction:
                db.conn.rollback()
        finally:
            db.close()


release_db = close_db          # a live stream gives its connection back before it waits


def init_app(app):
    """Give connections back after each request, bring the schema up to date, add `flask backup`."""
    app.teardown_appcontext(close_db)
    store.connect(app.config['DATABASE']).close()      # create or migrate the schema at start-up
    app.cli.add_command(backup_command)


def backup(source, target, force=False):
    """Copy the database with SQLite's online backup API: consistent while the app keeps writing.

    The copy is written beside the target and moved into place only once it is whole and checked,
    so a failed backup never leaves half a file where a good one was. The copy is its owner's alone
    (0600), as the database is: it holds the same names and hashes.
    """
    target = Path(target)
    if target.exists() and not force:
        raise click.ClickException(f'{target} already exists: choose another file, or add --force to replace it')
    partial = target.with_name(target.name + '.partial')
    try:
        os.close(os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600))
        os.chmod(partial, 0o600)             # one left by a backup that was killed kept its own mode
        src = sqlite3.connect(source)
        dst = sqlite3.connect(partial)
        try:
            with dst:
                src.backup(dst)
            ok = dst.execute('PRAGMA integrity_check').fetchone()[0]
        finally:
            src.close()
            dst.close()
        if ok != 'ok':
            raise click.ClickException(f'the copy failed its integrity check: {ok}')
        os.replace(partial, target)
    except (OSError, sqlite3.Error) as e:
        raise click.ClickException(f'cannot write {target}: {getattr(e, "strerror", None) or e}') from None
    finally:
        if partial.exists():
            partial.unlink()


@click.command('backup')
@click.argument('path', type=click.Path(dir_okay=False))
@click.option('--force', is_flag=True, help='replace PATH if it exists')
@with_appcontext
def backup_command(path, force):
    """Write a consistent copy of the database to PATH (safe while the app runs)."""
    backup(current_app.config['DATABASE'], path, force)
    click.echo(f'Backed up {current_app.config["DATABASE"]} to {path}')
