"""Request bodies read under a deadline: a client that sends its body a byte at a time (a phone on a
dying signal, or someone holding connections open on purpose) is answered 408 and let go, instead
of holding its connection for as long as it likes.

Under the production recipe (gunicorn's gevent workers) each connection is a greenlet, so the body
is read in full, up to MAX_CONTENT_LENGTH, inside a gevent.Timeout before the app sees it. Elsewhere
(the development server, the tests' client) bodies pass through untouched.
"""

import io

BODY_SECONDS = 10         # the longest a request's body may take to arrive


def gevent_timeout():
    """gevent's Timeout when this process runs on gevent's patched sockets, else None."""
    try:
        from gevent import Timeout
        from gevent.monkey import is_module_patched
    except ImportError:
        return None
    return Timeout if is_module_patched('socket') else None


class BodyDeadline:
    """WSGI middleware: the body in full within `seconds`, or 408."""

    def __init__(self, app, seconds, most):
        self.app, self.seconds, self.most = app, seconds, most

    def __call__(self, environ, start_response):
        timeout = gevent_timeout()
        length = environ.get('CONTENT_LENGTH') or ''
        chunked = 'chunked' in environ.get('HTTP_TRANSFER_ENCODING', '').lower()
        if timeout is None or not (length.strip('0') or chunked):
            return self.app(environ, start_response)
        wanted = int(length) if length.isdigit() else self.most + 1
        if wanted > self.most:
            return self.app(environ, start_response)      # too large: the app answers 413 without reading
        try:
            with timeout(self.seconds):
                body = read_body(environ['wsgi.input'], wanted)
        except timeout:
            start_response('408 Request Timeout', [('Content-Type', 'text/plain; charset=utf-8'),
                                                   ('Connection', 'close')])
            return [b'The request took too long to arrive. Try again.\n']
        environ['wsgi.input'] = io.BytesIO(body)
        environ['CONTENT_LENGTH'] = str(len(body))
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
