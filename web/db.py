"""The database connection of a request: get_db() on g, closed at teardown."""

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
