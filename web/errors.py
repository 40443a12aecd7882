"""Error pages: one table of status → title and message, in the table's language."""

import sqlite3

from flask import current_app, render_template, request
from flask_babel import lazy_gettext as _l
from flask_babel import lazy_pgettext as _lp
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
    405: (405, _lp('page title', 'Not allowed'), _l('This address does not take that kind of request.')),
    408: (408, _l('Too slow'), _l('What was sent took too long to arrive, so nothing was done. Try again.')),
    413: (413, _l('Too large'), _l('What was sent is too large.')),
    503: (503, _l('Too busy'), _l('The server was too busy to answer: nothing was changed. Try again in a moment.')),
    500: (500, _l('Something went wrong'),
          _l('The server failed while answering. What you sent may not have been saved: '
             'go back, check, and try again.')),
}


def page(status, title, message):
    def handler(e):
        return render_template('error.html', title=title, message=message), status
    return handler


BUSY = (503, _l('Too busy'), _l('The server was too busy to answer: nothing was changed. Try again in a moment.'))
OUT_OF_FILES = (503, _l('Too busy'), _l('The server has too many connections open at once: nothing was changed. '
                                         'Try again in a moment.'))
CANNOT_WRITE = (503, _l('Nothing could be saved'), _l('The server cannot write to its disk (it is full or read-only): '
                                                      'nothing was changed. Tell whoever runs it.'))
# The cause named, when the disk tells it (store.disk_trouble).
DISK = {store.FULL: _l("The server's disk is full: nothing was changed. Tell whoever runs it."),
        store.READ_ONLY: _l("The server's disk has turned read-only: nothing was changed. Tell whoever runs it.")}


def cannot_write_message(error):
    """What a person is told of a write the disk refused: its cause (full, read-only) when the disk
    tells it, logged."""
    cause = store.disk_trouble(current_app.config['DATABASE'], error)
    current_app.logger.error('cannot write the database (%s): %s', cause or 'the disk refused', error)
    return DISK.get(cause, CANNOT_WRITE[2])


def storage_message(error):
    """What a person is told when a write failed for the server's own reasons (None: not such an error)."""
    if store.is_busy(error):
        return BUSY[2]
    if store.out_of_files():
        current_app.logger.error('too many open files: %s', error)
        return OUT_OF_FILES[2]
    if store.cannot_write(error):
        return cannot_write_message(error)
    return None


def busy_or_failed(error):
    """A database held too long by other saves, a process out of files (its connections hold them all)
    or a disk that cannot be written is a 503 with a message that is true (logged with its cause);
    anything else a 500."""
    current_app.logger.error('database error: %s', error, exc_info=error)
    if store.is_busy(error):
        status, title, message = BUSY
    elif store.out_of_files():
        status, title, message = OUT_OF_FILES
    elif store.cannot_write(error):
        status, title, message = CANNOT_WRITE[0], CANNOT_WRITE[1], cannot_write_message(error)
    else:
        status, title, message = PAGES[500]
    return render_template('error.html', title=title, message=message), status, {'Retry-After': '2'}


NOT_CHECKED = _l('Form not accepted')
NO_REFERRER = _l('Your browser sent this form without saying which page it came from (its Referer), so over '
                 'HTTPS it could not be checked: nothing was changed. Let this site receive the referrer (a '
                 'privacy setting or an extension may remove it), reload the page and try again.')
OTHER_SITE = _l("This form was sent from another site's page, so it was refused: nothing was changed. Open "
                "this site's own page and try again.")
NOT_A_FORM = _l('This was not sent as a form (it came as %(type)s), so it could not be checked: nothing was '
                "changed. Send it from the app's own page.")
FORMS = ('application/x-www-form-urlencoded', 'multipart/form-data')


def form_refused(error):
    """A POST that failed Flask-WTF's checks, told by what really failed: no Referer over HTTPS, a page
    of another site, a body that is not a form; only a token that is missing or wrong from a form
    is "Form expired"."""
    why = error.description or ''
    if why == 'The referrer header is missing.':
        message = NO_REFERRER
    elif why.startswith('The referrer'):
        message = OTHER_SITE
    elif request.mimetype not in FORMS:
        message = NOT_A_FORM % {'type': request.mimetype or '?'}
    else:
        status, title, message = PAGES[CSRFError]
        return render_template('error.html', title=title, message=message), status
    return render_template('error.html', title=NOT_CHECKED, message=message), 400


def init_app(app):
    for name in ('error.html', 'base.html', '_icons.html'):     # read now: a process out of files can still say so
        app.jinja_env.get_template(name)
    for key, (status, title, message) in PAGES.items():
        if key is not CSRFError:                 # form_refused says which check failed
            app.register_error_handler(key, page(status, title, message))
    app.register_error_handler(CSRFError, form_refused)
    app.register_error_handler(sqlite3.OperationalError, busy_or_failed)
