"""The production recipe's worker (gunicorn.conf.py): gunicorn's gevent worker, with fences that no
single client gets past: at most CLIENT_CONNECTIONS connections a client address across the workers
(a count in memory the master shares; behind a proxy, requests a forwarded client), files enough for
its connections, TLS handshakes under a deadline; and a restart that waits for no live stream.

- **Files enough for its connections.** Every connection is an open file, and a worker holds up to
  `worker_connections` of them on each address, and HELD_REFUSALS refusals held there, beside
  FILES_BESIDE of its own (the database, the pools' sockets, logs, templates). At start the master raises the process's file limit (its soft limit, up to the hard one
  the system or systemd's LimitNOFILE= gives) to what that needs; where it cannot, it says so in the log
  and lowers `worker_connections` to what the limit holds (files_for), so a crowd of connections waits
  in the listen queue instead of leaving the worker with no file for its database or its pages.
- **Connections per client.** At most CLIENT_CONNECTIONS connections from one client address are
  open at once across all the workers: live streams, keep-alive connections, requests still being
  sent. One more is answered 429 (in the language its request asks for), held as a refusal behind a
  proxy is (below), and closed, so one address cannot take the slots (worker_connections) that
  everyone else needs. The count is kept in
  memory shared by the workers (Counts): made by gunicorn's master before it forks them, a row a
  worker that only that worker writes, summed when read; the master clears a worker's row when it
  exits, however it ends. A client's slot is its address (web/clients.py) hashed with a key made
  at start-up, so nobody can aim at another's slot. Behind a reverse proxy (SCORER_PROXIES) every
  connection comes from the proxy, so the fence counts requests instead, by the client the proxy
  names in X-Forwarded-For (read as the app's ProxyFix reads it: web/clients.py forwarded_client):
  at most CLIENT_CONNECTIONS requests of one client at once (a live stream is one for as long as it
  lasts), one more answered 429, HOLD_SECONDS later (SCORER_REFUSAL_SECONDS): one client's 5,000 streams
  through Caddy, each opened again as soon as it was refused, were thousands of refusals a second, each
  costing Caddy about 0.2 ms of CPU and the worker 0.15 ms (issue 47); held, the client waits and the
  refusals a second fall with it. The refusals held take connections of their own, beside the
  worker's: at most HELD_REFUSALS a worker on each address (past it, refused at once), its pool on
  that address that many larger and its files that many more (checked at start against the file
  limit, which may hold fewer: files_for, the log says so), so a held refusal never takes a slot or a
  file that everyone else's connections need; a stopping worker answers them at once. One rule for
  every refusal, with a proxy or without: a client refused on its own address (a script opening
  connections in a loop) reopens as fast as it is answered, as one behind Caddy does, and its held
  connection costs the same (a file and a greenlet, within the same HELD_REFUSALS); so a refused
  connection is held too, then answered and closed.
  A refused request without a body leaves the proxy's connection open
  for its next request (a client refused thousands of times a second would otherwise have the proxy
  open a connection for each refusal, and everyone's requests wait behind those to be accepted); one
  with a body has its connection closed, its body unread.
- **A restart waits for no stream.** On SIGTERM (a restart, or the master stopping) every live
  stream of the worker is told to come back in half a second and ends (web/live.py end_streams),
  and no connection is kept alive for a next request, so the worker stops once its requests are
  done instead of after gunicorn's graceful timeout; the phones come back to the new workers.
- **TLS handshakes under a deadline.** When gunicorn serves HTTPS itself, the handshake is made in
  the connection's greenlet within HANDSHAKE_SECONDS (gevent would otherwise make it before the
  worker sees the connection, with no deadline: a client that opens a connection and says nothing
  would hold its slot for good). After it, as before, a request's head must arrive within gunicorn's
  `keepalive` seconds and its body within BODY_SECONDS (web/deadline.py), and an idle keep-alive
  connection is closed after `keepalive` seconds.
"""

import hashlib
import mmap
import os
import resource
import random
import socket
from pathlib import Path

import gevent
import gevent.event
from gunicorn.workers.ggevent import GeventWorker

from .clients import client_of, forwarded_client

CLIENT_CONNECTIONS = 256   # connections one client address may hold open at once, across the workers
UNCAPPED = 0               # CLIENT_CONNECTIONS (SCORER_CLIENT_CONNECTIONS) that means no cap at all
HANDSHAKE_SECONDS = 5      # a TLS handshake must be over within this
KEEPALIVE = 5              # seconds a connection waits for its next request's head (gunicorn.conf.py keepalive)
# Connections each listening address's queue holds until a worker accepts them (gunicorn.conf.py backlog):
# past it the kernel drops a new connection's SYN, and the client tries again 1 s, then 3 s later. The
# kernel caps it at net.core.somaxconn (4096 since Linux 5.4; docs/deploy.md).
BACKLOG = 4096
REFUSE_SECONDS = 1         # how long a refused connection has to send its request's head (for the language)
# A request refused by the cap (behind a proxy or not) is answered this many seconds later (SCORER_REFUSAL_SECONDS;
# at once if the worker stops meanwhile): a client that opens its refused streams again as soon as it is
# answered pays the wait and we do not (the refusals a second, and the proxy's and the worker's CPU with
# them, fall with it: issue 47, one client's 5,000 streams through Caddy).
HOLD_SECONDS = 10
# ... at most this many a worker on each address, in connections of their own beside its worker_connections (its
# pool that much larger, the file limit checked for them at start: files_for); past that, refused at once. One
# client's 5,000 streams through Caddy were ~4,750 refusals at once: held in half of each worker's 4,000
# connections, ~750 were answered at once and came back a second later (docs/speed.md).
HELD_REFUSALS = 3000
HOLDING = HELD_REFUSALS    # what the file limit lets a worker hold (files_for, in the master before it forks them)
# ... each one for HOLD_SECONDS to (1 + HOLD_SPREAD) × HOLD_SECONDS, at random: refusals held alike would be
# answered together and come back together, a burst every few seconds that a bystander's request queues behind.
HOLD_SPREAD = 1
SLOTS = 1 << 16            # client slots of the shared count (two clients share one in 65,536)
FILES_BESIDE = 128         # open files a worker needs beside its connections (database, pools, logs, templates)
ROOT = Path(__file__).resolve().parent.parent


def N_(text):
    return text


TOO_MANY = N_('Too many connections from this address at once: close a few pages, wait a moment and try again.')


class Counts:
    """Open connections by client, in memory the workers share: rows × SLOTS counters."""

    def __init__(self, rows, limit, slots=SLOTS, proxies=0, hold=HOLD_SECONDS):
        self.rows, self.slots, self.limit, self.hold = rows, slots, limit, hold
        self.proxies = proxies                               # behind that many proxies: requests are counted
        self.memory = mmap.mmap(-1, rows * slots * 4)        # anonymous and shared: the forked workers see it
        self.table = memoryview(self.memory).cast('I')
        self.key = os.urandom(16)
        self.free = list(range(rows))                        # the master's: rows no worker holds

    def slot(self, address):
        digest = hashlib.blake2b(client_of(address).encode(), key=self.key, digest_size=8).digest()
        return int.from_bytes(digest, 'little') % self.slots

    def open(self, slot):
        """Connections open in this slot, in every worker."""
        return sum(self.table[row * self.slots + slot] for row in range(self.rows))

    def add(self, row, slot, change):
        self.table[row * self.slots + slot] += change

    def clear(self, row):
        start = row * self.slots * 4
        self.memory[start:start + self.slots * 4] = bytes(self.slots * 4)


COUNTS = None          # made by the master (share), inherited by every worker it forks


def share(workers, limit=CLIENT_CONNECTIONS, proxies=0, hold=HOLD_SECONDS):
    """In gunicorn's master, before any worker: the shared count (rows for twice the workers and
    more, since a worker being replaced and its successor overlap); behind `proxies` proxies it
    counts each client's requests, by the address the proxy forwards, and answers a refused one `hold`
    seconds later."""
    global COUNTS
    COUNTS = Counts(max(4, 2 * workers + 2), limit, proxies=proxies, hold=hold) if limit != UNCAPPED else None


def files_for(connections, held=0):
    """(the connections a worker can hold, the refusals it can hold beside them, what to say if fewer than
    asked): the process's soft file limit raised as far as needed and allowed (its hard limit) for
    `connections`, `held` refusals held and FILES_BESIDE of the worker's own files; the connections come
    first, the refusals held get what is left. Called in the master, before the workers are forked
    (they inherit it)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    needed = connections + held + FILES_BESIDE
    if soft != resource.RLIM_INFINITY and soft < needed:
        raised = needed if hard == resource.RLIM_INFINITY else min(needed, hard)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (raised, hard))
            soft = raised
        except (ValueError, OSError):
            pass
    if soft == resource.RLIM_INFINITY or soft >= needed:
        return connections, held, None
    if soft >= connections + FILES_BESIDE:
        room = soft - connections - FILES_BESIDE
        return connections, room, (f'the file limit ({soft} open files a process) holds {connections} connections a '
                                   f'worker but only {room} refusals held beside them of {held}: past them, a refusal '
                                   f'is answered at once. Raise the limit (LimitNOFILE={needed} or more in the '
                                   f'systemd unit, ulimit -n).')
    kept = max(1, soft - FILES_BESIDE)
    return kept, 0, (f'the file limit ({soft} open files a process) cannot hold {connections} connections a worker '
                     f'and the {FILES_BESIDE} files a worker keeps beside them: each worker holds {kept} connections '
                     f'now, and no refusal is held. Raise the limit (LimitNOFILE={needed} or more in the systemd '
                     f'unit, ulimit -n) or set SCORER_WORKER_CONNECTIONS to {kept} or less.')


def fit(connections, listeners):
    """In the master, at start and at a reload: (the connections a worker holds on each address, what to
    say when the file limit holds fewer than asked), HOLDING set to the refusals it may hold there."""
    global HOLDING
    kept, held, problem = files_for(connections * listeners, HELD_REFUSALS * listeners)
    HOLDING = held // listeners
    return max(1, kept // listeners), problem


def assign(worker):
    """In the master, before forking a worker: the row it counts in (None: it does not count)."""
    worker.counts_row = COUNTS.free.pop(0) if COUNTS is not None and COUNTS.free else None


def release(worker):
    """In the master, once a worker has exited: its row is cleared and free again."""
    row = getattr(worker, 'counts_row', None)
    if COUNTS is not None and row is not None:
        COUNTS.clear(row)
        COUNTS.free.append(row)


class LazyHandshake:
    """An SSL context whose connections shake hands when the worker says (under a deadline), not as
    soon as gevent accepts them (gunicorn.conf.py's ssl_context hook)."""

    def __init__(self, context):
        self.context = context

    def wrap_socket(self, sock, **kwargs):
        kwargs['do_handshake_on_connect'] = False
        return self.context.wrap_socket(sock, **kwargs)


class Worker(GeventWorker):
    """gunicorn's gevent worker with the fences above."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.worker_connections += HOLDING          # each address's pool: its connections, and the refusals held

    def handle(self, listener, client, addr):
        row = getattr(self, 'counts_row', None)
        if COUNTS is None or row is None or not isinstance(addr, tuple) or COUNTS.proxies:
            return self.serve(listener, client, addr)
        slot = COUNTS.slot(addr[0])
        if COUNTS.open(slot) >= COUNTS.limit:
            self.hold(listener.getsockname())          # as behind a proxy: one rule for every refusal
            return refuse(client)
        COUNTS.add(row, slot, 1)
        try:
            return self.serve(listener, client, addr)
        finally:
            COUNTS.add(row, slot, -1)

    def handle_quit(self, sig, frame):
        """A quick stop, acted on once: a terminal's Ctrl-C reaches every process of its group, and then
        the master sends its own SIGQUIT. A second quit, run as the worker is already ending, would
        raise SystemExit in a greenlet during the interpreter's shutdown, which gevent prints as a
        traceback (not a log line, and not JSON)."""
        if not getattr(self, 'quitting', False):
            self.quitting = True
            super().handle_quit(sig, frame)

    def handle_exit(self, sig, frame):
        """SIGTERM (a restart, or the master stopping): every live stream is told to come back soon and
        ends, so the worker stops as soon as its requests are done, not after its graceful timeout."""
        super().handle_exit(sig, frame)
        if hasattr(self, 'stopping'):
            gevent.spawn(self.stopping.set)            # refusals held (hold) are answered now
        end_streams = getattr(self.wsgi, 'extensions', {}).get('end_streams')     # web/live.py's, by the app
        if end_streams is not None:
            gevent.spawn(end_streams)

    def handle_request(self, listener_name, req, sock, addr):
        answered = self.counted(listener_name, req, sock, addr)
        if not self.alive:
            raise StopIteration()              # stopping: no keep-alive wait for a next request
        return answered

    def counted(self, listener_name, req, sock, addr):
        """Behind a proxy: one request, counted against the client the proxy names while it lasts
        (a live stream as long as it is open); past CLIENT_CONNECTIONS, 429, the connection kept for the
        proxy's next request unless the refused one has a body (closed then, the body unread)."""
        row = getattr(self, 'counts_row', None)
        if COUNTS is None or row is None or not COUNTS.proxies:
            return super().handle_request(listener_name, req, sock, addr)
        peer = addr[0] if isinstance(addr, tuple) else ''
        said = ','.join(value for name, value in req.headers if name == 'X-FORWARDED-FOR')
        slot = COUNTS.slot(forwarded_client(said, COUNTS.proxies, peer))
        if COUNTS.open(slot) >= COUNTS.limit:
            self.hold(listener_name)
            head = f'{req.method} {req.uri} HTTP/1.1\r\n' + ''.join(f'{n}: {v}\r\n' for n, v in req.headers)
            close = has_body(req) or req.should_close() or not self.alive    # the proxy's own close, or HTTP/1.0
            sock.sendall(refusal(language_of(head.encode('latin-1', 'replace') + b'\r\n'), close))
            if close:
                raise StopIteration()          # the connection is closed (its body unread)
            return False                       # the proxy's connection waits for its next request
        COUNTS.add(row, slot, 1)
        try:
            return super().handle_request(listener_name, req, sock, addr)
        finally:
            COUNTS.add(row, slot, -1)

    def hold(self, listener_name):
        """A refused request waits HOLD_SECONDS (COUNTS.hold), spread by HOLD_SPREAD, before its answer, in its own
        greenlet, while fewer than HOLDING (HELD_REFUSALS, as the file limit allows) wait so on that address; at
        once when the worker stops."""
        if not hasattr(self, 'held'):
            self.held, self.stopping = {}, gevent.event.Event()
        if not COUNTS.hold or not self.alive or self.held.get(listener_name, 0) >= HOLDING:
            return
        self.held[listener_name] = self.held.get(listener_name, 0) + 1
        try:
            self.stopping.wait(COUNTS.hold * (1 + HOLD_SPREAD * random.random()))
        finally:
            self.held[listener_name] -= 1

    def serve(self, listener, client, addr):
        if tls(client) and not shake_hands(client, HANDSHAKE_SECONDS):
            return None
        return super().handle(listener, client, addr)


def has_body(req):
    """Whether a request (gunicorn's) comes with a body: any Transfer-Encoding (chunked), or a length
    other than 0."""
    return any(name == 'TRANSFER-ENCODING' or name == 'CONTENT-LENGTH' and value.strip() != '0'
               for name, value in req.headers)


def tls(client):
    """Whether the connection is TLS (gevent's SSL sockets are not the standard library's class)."""
    return hasattr(client, 'do_handshake')


def shake_hands(client, seconds):
    """The TLS handshake within `seconds`; False (the connection closed) if it failed or took longer."""
    try:
        client.setblocking(1)
        with gevent.Timeout(seconds):
            client.do_handshake()
        return True
    except (gevent.Timeout, OSError, ValueError):
        close(client)
        return False


def refuse(client):
    """Answer 429 (in the language the request's head asks for, if it comes within REFUSE_SECONDS) and close."""
    try:
        if tls(client) and not shake_hands(client, REFUSE_SECONDS):
            return
        client.setblocking(1)
        head = b''
        with gevent.Timeout(REFUSE_SECONDS, False):
            while b'\r\n\r\n' not in head and len(head) < 8192:
                chunk = client.recv(4096)
                if not chunk:
                    break
                head += chunk
        client.sendall(refusal(language_of(head)))
        client.shutdown(socket.SHUT_WR)
        with gevent.Timeout(REFUSE_SECONDS, False):         # let the rest of the request arrive: no reset
            while client.recv(65536):
                pass
    except OSError:
        pass
    finally:
        close(client)


def close(client):
    try:
        client.close()
    except OSError:
        pass


_messages = {}


def refusal(language, close=True):
    """The 429 answer, its words in `language` (from the app's catalogs); saying the connection closes
    unless `close` is False (kept for the next request)."""
    if (language, close) not in _messages:
        from babel.support import Translations
        words = Translations.load(str(ROOT / 'translations'), [language]).gettext(TOO_MANY)
        body = (words + '\n').encode()
        _messages[language, close] = (
            b'HTTP/1.1 429 Too Many Requests\r\nContent-Type: text/plain; charset=utf-8\r\n'
            b'Content-Language: ' + language.encode() + b'\r\nRetry-After: 5\r\n'
            + (b'Connection: close\r\n' if close else b'') +
            b'Content-Length: ' + str(len(body)).encode() + b'\r\n\r\n' + body)
    return _messages[language, close]


def language_of(head):
    """The language a request's head asks for, chosen as the app chooses a page's (web/i18n.py
    choose_language): its path, ?lang=, the switcher's cookie and Accept-Language read from the head."""
    from urllib.parse import parse_qs, urlsplit

    from werkzeug.http import parse_cookie

    from .i18n import choose_language
    lines = head.decode('latin-1').split('\r\n')
    target = urlsplit(lines[0].split(' ')[1] if len(lines[0].split(' ')) > 2 else '')
    fields = {}
    for line in lines[1:]:
        name, _, value = line.partition(':')
        fields[name.strip().lower()] = value.strip()
    asked = (parse_qs(target.query).get('lang') or [None])[0]
    return choose_language(target.path, asked, parse_cookie(fields.get('cookie', '')).get('lang'),
                           fields.get('accept-language', ''))
