"""Request bodies: how large one may be, route by route, and read under a deadline. A client that sends
its body a byte at a time, or a chunked body that stops after its first chunk (a phone on a dying
signal, or someone holding connections open on purpose), is answered 408 and let go, instead of
holding its connection for as long as it likes.

How large: MAX_CONTENT_LENGTH (256 KB) for every route but those of LARGER_BODIES, which take their
file (a table file, up to scorer/limits.py's MAX_TABLE_FILE) and the room any form has around it
(body_limit, the one place both the middleware below and the app's own check ask).

Under the production recipe (gunicorn's gevent workers) each connection is a greenlet, so every body,
announced by Content-Length or chunked, is read in full (up to its route's limit and one byte more)
before the app sees it, every MAX_CONTENT_LENGTH of it within BODY_SECONDS (a gevent.Timeout a
piece): a body of 256 KB has BODY_SECONDS in all, as it always had, and a table file of many MB the
same pace, so a big import arriving at a phone's pace is read whole, and one that stops is cut off
BODY_SECONDS after its last piece; the app then reads it from memory. A body announced as larger than
its route's limit is not read at all: the app answers 413 at once. Elsewhere (the development server,
the tests' client) bodies pass through untouched, and the app's check (request.max_content_length,
set per request by init_app's hook before anything reads the form) answers 413 the same.

A body that comes too late is handed to the app as empty and marked (LATE), and the app answers 408
with its own error page, in the page's language (init_app); what was sent is dropped.
"""

import io

from flask import abort, current_app, request
from werkzeug.exceptions import HTTPException

from scorer.limits import MAX_TABLE_FILE

BODY_SECONDS = 10         # the longest each MAX_CONTENT_LENGTH of a request's body may take to arrive
LATE = 'scorer.body_late'  # set in the environ of a request whose body did not arrive in time
# The routes whose body may hold more than MAX_CONTENT_LENGTH: the file they take, besides the form's room.
LARGER_BODIES = {'tables.import_table': MAX_TABLE_FILE}


def body_limit(app, endpoint):
    """The most bytes a request's body may hold at this endpoint: MAX_CONTENT_LENGTH, and for a route
    of LARGER_BODIES its file's limit on top (the form's other fields and its boundaries fit the rest)."""
    return app.config['MAX_CONTENT_LENGTH'] + LARGER_BODIES.get(endpoint, 0)


def gevent_timeout():
    """gevent's Timeout when this process runs on gevent's patched sockets, else None."""
    try:
        from gevent import Timeout
        from gevent.monkey import is_module_patched
    except ImportError:
        return None
    return Timeout if is_module_patched('socket') else None


class BodyDeadline:
    """WSGI middleware: each `piece` bytes of the body within `seconds`, or 408; at most `most(environ)`
    bytes of it are read (the limit of the route the request is for)."""

    def __init__(self, app, seconds, most, piece):
        self.app, self.seconds, self.most, self.piece = app, seconds, most, piece

    def __call__(self, environ, start_response):
        timeout = gevent_timeout()
        length = (environ.get('CONTENT_LENGTH') or '').strip()
        chunked = 'chunked' in environ.get('HTTP_TRANSFER_ENCODING', '').lower()
        if timeout is None or not (length.strip('0') or chunked):
            return self.app(environ, start_response)
        most = self.most(environ)
        if not chunked and not (length.isdigit() and int(length) <= most):
            return self.app(environ, start_response)      # too large: the app answers 413 without reading
        wanted = most + 1 if chunked else int(length)
        try:
            body = read_body(environ['wsgi.input'], wanted, lambda: timeout(self.seconds), self.piece)
        except timeout:
            body = b''
            environ[LATE] = True
        environ['wsgi.input'] = io.BytesIO(body)
        environ['CONTENT_LENGTH'] = str(len(body))       # a chunked body past `most` is one byte too long: 413
        environ.pop('HTTP_TRANSFER_ENCODING', None)      # read: the app sees a body of known length
        environ.pop('wsgi.input_terminated', None)
        return self.app(environ, start_response)


def read_body(stream, wanted, deadline, piece):
    """Up to `wanted` bytes of the body, as they arrive, each `piece` of them within a `deadline()`."""
    parts, got = [], 0
    while got < wanted:
        size = min(piece, wanted - got)
        with deadline():
            part = read_part(stream, size)
        parts.append(part)
        got += len(part)
        if len(part) < size:
            break                                          # the body ended
    return b''.join(parts)


def read_part(stream, size):
    """Up to `size` bytes of the stream, fewer only where it ends."""
    parts, got = [], 0
    while got < size:
        chunk = stream.read(min(65536, size - got))
        if not chunk:
            break
        parts.append(chunk)
        got += len(chunk)
    return b''.join(parts)


def route_limit(app):
    """body_limit of the route an environ's request is for (MAX_CONTENT_LENGTH where none matches)."""
    def most(environ):
        try:
            endpoint, _args = app.url_map.bind_to_environ(environ).match()
        except HTTPException:
            endpoint = None
        return body_limit(app, endpoint)
    return most


def before_body():
    """Before anything else of a request (CSRF's reading of the form included): a body that did not
    arrive in time is a 408, and a route of LARGER_BODIES reads up to its own limit."""
    if request.environ.get(LATE):
        abort(408)
    if request.endpoint in LARGER_BODIES:
        request.max_content_length = body_limit(current_app, request.endpoint)


def init_app(app):
    """Wrap the app in the deadline, and answer a late body before any other check (CSRF included)."""
    app.wsgi_app = BodyDeadline(app.wsgi_app, app.config['BODY_SECONDS'], route_limit(app),
                                app.config['MAX_CONTENT_LENGTH'])
    app.before_request_funcs.setdefault(None, []).insert(0, before_body)
