"""The production recipe: gunicorn reads this file when started from this folder.

    .venv/bin/gunicorn 'app:create_app()'

gevent workers: each connection is a greenlet, so a client that sends its request slowly (a
phone on a weak signal, or an attacker sending a header line a second) holds a greenlet, not a
worker, and everyone else is still served. Settings come from the environment:

    SCORER_BIND       address:port to listen on (default 0.0.0.0:8000)
    SCORER_WORKERS    worker processes (default 2, one per core)
    SCORER_CERTFILE   with SCORER_KEYFILE: serve HTTPS directly (PEM files)
    SCORER_PROXIES    behind a reverse proxy: how many proxies set X-Forwarded-* (read by the app)
    SCORER_WORKER_CONNECTIONS  connections each worker holds open (default 4000: live streams)
"""

import os

bind = os.environ.get('SCORER_BIND', '0.0.0.0:8000')
workers = int(os.environ.get('SCORER_WORKERS', '2'))
worker_class = 'gevent'
worker_connections = int(os.environ.get('SCORER_WORKER_CONNECTIONS', '4000'))   # open connections a worker holds (live streams too)
timeout = 30                    # a worker that stops answering for this long is restarted
graceful_timeout = 10
keepalive = 5
limit_request_line = 4094
limit_request_fields = 100
limit_request_field_size = 8190
accesslog = os.environ.get('SCORER_ACCESS_LOG')       # '-' for stdout; off by default
certfile = os.environ.get('SCORER_CERTFILE') or None
keyfile = os.environ.get('SCORER_KEYFILE') or None
