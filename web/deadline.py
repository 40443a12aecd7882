"""Request bodies read under a deadline: a client that sends its body a byte at a time, or a chunked
body that stops after its first chunk (a phone on a dying signal, or someone holding connections open
on purpose), is answered 408 and let go, instead of holding its connection for as long as it likes.

Under the production recipe (gunicorn's gevent workers) each connection is a greenlet, so every body,
announced by Content-Length or chunked, is read in full (up to MAX_CONTENT_LENGTH and one byte more)
inside a gevent.Timeout before the app sees it; the app then reads it from memory. A body announced
as larger than MAX_CONTENT_LENGTH is not read at all: the app answers 413 at once. Elsewhere (the
development server, the tests' client) bodies pass through untouched.

A body that comes too late is handed to the app as empty and marked (LATE), and the app answers 408
with its own error page, in the page's language (init_app); what was sent is dropped.
"""

import io

from flask import abort, request

BODY_SECONDS = 10         # the longest a request's body may take to arrive
LATE = 'scorer.body_late'  # set in the environ of a request whose body did not arrive in time


def gevent_timeout():
    """gevent's Timeout when this process runs on gevent's patched sockets, else None."""
    try:
        from gevent import Timeout
        from gevent.monkey import is_module_patched
    except ImportError:
        return None
    return Timeout if is_module_patched('socket') else None


class BodyDeadline:
    """WSGI middleware: the body in full within `seconds`, or 408; at most `most` bytes of it are read."""

    def __init__(self, app, seconds, most):
        self.app, self.seconds, self.most = app, seconds, most

    def __call__(self, environ, start_response):
        timeout = gevent_timeout()
        length = (environ.get('CONTENT_LENGTH') or '').strip()
        chunked = 'chunked' in environ.get('HTTP_TRANSFER_ENCODING', '').lower()
        if timeout is None or not (length.strip('0') or chunked):
            return self.app(environ, start_response)
        if not chunked and not (length.isdigit() and int(length) <= self.most):
            return self.app(environ, start_response)      # too large: the app answers 413 without reading
        wanted = self.most + 1 if chunked else int(length)
        try:
            with timeout(self.seconds):
                body = read_body(environ['wsgi.input'], wanted)
        except timeout:
            body = b''
            environ[LATE] = True
        environ['wsgi.input'] = io.BytesIO(body)
        environ['CONTENT_LENGTH'] = str(len(body))       # a chunked body past `most` is one byte too long: 413
        environ.pop('HTTP_TRANSFER_ENCODING', None)      # read: the app sees a body of known length
        environ.pop('wsgi.input_terminated', None)
        return self.app(environ, start_response)


def read_body(stream, wanted):
    """Up to `wanted` bytes of the body, as they arrive."""
    parts, got = [], 0
    while got < wanted:
        chunk = stream.read(min(65536, wanted - got))
        if not chunk:
            break
        parts.append(chunk)
        got += len(chunk)
    return b''.join(parts)


def refuse_late():
    """Before anything else of a request: a body that did not arrive in time is a 408."""
    if request.environ.get(LATE):
        abort(408)


def init_app(app):
    """Wrap the app in the deadline, and answer a late body before any other check (CSRF included)."""
    app.wsgi_app = BodyDeadline(app.wsgi_app, app.config['BODY_SECONDS'], app.config['MAX_CONTENT_LENGTH'])
    app.before_request_funcs.setdefault(None, []).insert(0, refuse_late)
