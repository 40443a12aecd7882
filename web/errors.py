"""Error pages: one table of status → title and message, in the table's language."""

import sqlite3

from flask import render_template
from flask_babel import lazy_gettext as _l
from flask_wtf.csrf import CSRFError

from . import store

# What each error tells a person: the title, and what to do next.
PAGES = {
    CSRFError: (400, _l('Form expired'),
                _l('This form could not be checked (it may be from another session). '
                   'Go back, reload the page and try again.')),
    400: (400, _l('Bad request'), _l('What was sent could not be read. Go back and try again.')),
    403: (403, _l('Only the scorekeeper can edit'),
          _l("This game is edited from the scorekeeper's phone. Open the private "
             'scorekeeper link on this phone to edit it here.')),
    404: (404, _l('Not found'), _l('There is nothing at this address.')),
    405: (405, _l('Not allowed'), _l('This address does not take that kind of request.')),
    413: (413, _l('Too large'), _l('What was sent is too large.')),
    500: (500, _l('Something went wrong'),
          _l('The server failed while answering. What you sent may not have been saved: '
             'go back, check, and try again.')),
}


def page(status, title, message):
    def handler(e):
        return render_template('error.html', title=title, message=message), status
    return handler


BUSY = (503, _l('Too busy'), _l('The server was too busy to answer: nothing was changed. Try again in a moment.'))


def busy_or_failed(error):
    """A database held too long by other saves is 503, with a message that is true; else a 500."""
    status, title, message = BUSY if store.is_busy(error) else PAGES[500]
    return render_template('error.html', title=title, message=message), status, {'Retry-After': '2'}


def init_app(app):
    for key, (status, title, message) in PAGES.items():
        app.register_error_handler(key, page(status, title, message))
    app.register_error_handler(sqlite3.OperationalError, busy_or_failed)
