"""The production recipe: web/worker.py's gevent workers, HTTPS from SCORER_CERTFILE/SCORER_KEYFILE,
no forwarded header trusted by gunicorn itself. gunicorn reads this file when started from this folder.

    .venv/bin/gunicorn 'app:create_app()'

gevent workers (web/worker.py): each connection is a greenlet, so a client that sends its request
slowly (a phone on a weak signal, or an attacker sending a header line a second) holds a greenlet,
not a worker, and everyone else is still served; and no one client address holds more than
SCORER_CLIENT_CONNECTIONS connections at once across the workers. The settings read here (BIND,
STREAMS_BIND, WORKERS, WORKER_CONNECTIONS, CLIENT_CONNECTIONS, REFUSAL_SECONDS, CERTFILE, KEYFILE, PROXIES, ACCESS_LOG, ERROR_LOG,
METRICS), from the environment or each from a file, are declared with their defaults in
web/settings.py SETTINGS, as every setting is (docs/deploy.md has the table).
"""

import os
import tempfile

from web.settings import setting
from web.worker import BACKLOG, KEEPALIVE

# SCORER_METRICS=1: each worker counts in files of a folder of the master's, which /metrics adds up
# (prometheus_client's multiprocess mode: set before any worker imports it).
if (setting('METRICS') or '0').strip().lower() in ('1', 'true', 'yes', 'on'):
    os.environ.setdefault('PROMETHEUS_MULTIPROC_DIR', tempfile.mkdtemp(prefix='three-thirteen-metrics-'))

# Behind a proxy, the live streams on an address of their own (web/proxy.py): a crowd of stream setups
# never fills the listen queue a page view waits in.
bind = [setting('BIND', '0.0.0.0:8000')] + [address for address in [setting('STREAMS_BIND')] if address]
backlog = BACKLOG               # connections each address's listen queue holds (capped by net.core.somaxconn)
workers = int(setting('WORKERS', '2'))
worker_class = 'web.worker.Worker'     # gunicorn's gevent worker, with the fences of web/worker.py
worker_connections = int(setting('WORKER_CONNECTIONS', '4000'))   # open connections a worker holds (live streams too)
timeout = 30                    # a worker that stops answering for this long is restarted
graceful_timeout = 10
keepalive = KEEPALIVE           # a request's head must come within this, and an idle connection is closed after it
limit_request_line = 4094
limit_request_fields = 100
limit_request_field_size = 8190
accesslog = setting('ACCESS_LOG')       # '-' for stdout; off by default
errorlog = setting('ERROR_LOG', '-')    # '-' for stderr
logger_class = 'web.logs.Logger'       # SCORER_LOG_FORMAT=json: one JSON object a line, both logs
certfile = setting('CERTFILE') or None
keyfile = setting('KEYFILE') or None
# Forwarded headers are trusted only as SCORER_PROXIES says, by the app (werkzeug's ProxyFix): gunicorn
# would otherwise take X-Forwarded-Proto from any client on 127.0.0.1 as the truth about HTTPS.
forwarded_allow_ips = ''
secure_scheme_headers = {}


def on_starting(server):
    """In the master: the file limit raised to hold the workers' connections (or, where it cannot be,
    the connections lowered to what it holds, and the log says so), and the count of connections
    per client that the workers share (behind a proxy, of requests per forwarded client). One client
    never holds more than a quarter of all the connections the workers hold, whatever the settings."""
    from web import worker
    fit_connections(server)
    limit = int(setting('CLIENT_CONNECTIONS', worker.CLIENT_CONNECTIONS))
    if limit != worker.UNCAPPED:
        limit = min(limit, max(1, server.cfg.worker_connections * server.cfg.workers // 4))
    worker.share(server.cfg.workers, limit, proxies=int(setting('PROXIES', '0')),
                 hold=int(setting('REFUSAL_SECONDS', worker.HOLD_SECONDS)))


def fit_connections(server):
    """The workers' connections as many as the file limit holds (the log says so where it cannot hold
    worker_connections): at start, and again at a reload (SIGHUP), which reads this file afresh."""
    from web import worker
    listeners = len(server.cfg.address)                    # each address has its pool of connections a worker
    connections, problem = worker.fit(server.cfg.worker_connections, listeners)
    if problem:
        server.log.error('%s', problem)
        server.cfg.set('worker_connections', connections)


def on_reload(server):
    fit_connections(server)


def pre_fork(server, worker):
    from web import worker as fences
    fences.assign(worker)


def child_exit(server, worker):
    from web import worker as fences
    fences.release(worker)
    if os.environ.get('PROMETHEUS_MULTIPROC_DIR'):
        from prometheus_client import multiprocess
        multiprocess.mark_process_dead(worker.pid)       # its live gauges leave the sum


def ssl_context(conf, default_ssl_context_factory):
    """HTTPS: the handshake is made by the worker, under a deadline (web/worker.py)."""
    from web.worker import LazyHandshake
    return LazyHandshake(default_ssl_context_factory())
