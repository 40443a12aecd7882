"""SCORER_METRICS=1: Prometheus metrics at /metrics, for whoever runs the server (prometheus_client).

Requests by route and status, rounds saved, live streams open, and the solver's time on a job. Off
by default; on, /metrics answers only a client on this machine (127.0.0.1, ::1: a Prometheus scraping
on loopback), as the app sees the client: behind a reverse proxy, set SCORER_PROXIES so it sees the
real one, and the proxy's own clients get 404 like anyone else. Under gunicorn each worker counts in
files of a folder its master makes (prometheus_client's multiprocess mode, PROMETHEUS_MULTIPROC_DIR,
set in gunicorn.conf.py), and /metrics adds the workers up.
"""

import ipaddress
import os
import time

from flask import Blueprint, Response, abort, current_app, request

from .settings import setting

bp = Blueprint('metrics', __name__)

SAVES = {'rounds.round_entry', 'rounds.restore'}  # a round saved answers with a redirect to ?saved=1
STREAMS = {'live.events'}


def wanted():
    """Whether SCORER_METRICS asks for them."""
    return (setting('METRICS') or '0').strip().lower() in ('1', 'true', 'yes', 'on')


class Metrics:
    """The app's metrics, made once per process."""

    def __init__(self):
        from prometheus_client import Counter, Gauge, Histogram
        self.requests = Counter('scorer_requests', 'HTTP requests answered, by route and status',
                                ['route', 'method', 'status'])
        self.saves = Counter('scorer_round_saves', 'Rounds saved (entered or corrected)')
        self.streams = Gauge('scorer_live_streams', 'Live streams (Server-Sent Events) open now',
                             multiprocess_mode='livesum')
        self.solver = Histogram('scorer_solver_seconds', "The solver's jobs (a hand solved, audited, previewed), "
                                'in seconds, waiting for the pool included',
                                buckets=(0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10))


_metrics = None


def metrics():
    global _metrics
    if _metrics is None:
        _metrics = Metrics()
    return _metrics


def init_app(app):
    """Count requests and serve /metrics when METRICS is on (SCORER_METRICS=1)."""
    app.config.setdefault('METRICS', wanted())
    if not app.config['METRICS']:
        return
    from . import pool
    pool.TIMERS.append(solver_job)
    app.after_request(count)
    app.register_blueprint(bp)


def solver_job(kind, seconds):
    if kind == 'solver':
        metrics().solver.observe(seconds)


def count(response):
    """One request answered: its route (the rule, never the path: a game's id is no label), its status."""
    rule = request.url_rule.rule if request.url_rule else '(none)'
    m = metrics()
    m.requests.labels(rule, request.method, str(response.status_code)).inc()
    if request.endpoint in SAVES and request.method == 'POST' and response.status_code in (302, 303) \
            and 'saved=1' in response.headers.get('Location', ''):
        m.saves.inc()
    if request.endpoint in STREAMS and response.status_code == 200 and response.is_streamed:
        m.streams.inc()
        response.call_on_close(m.streams.dec)
    return response


def local(address):
    try:
        return ipaddress.ip_address(address or '').is_loopback
    except ValueError:
        return False


@bp.get('/metrics')
def serve():
    """The metrics in Prometheus's text format: for a client on this machine only."""
    if not local(request.remote_addr):
        abort(404)
    from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest
    from prometheus_client import REGISTRY, multiprocess
    if os.environ.get('PROMETHEUS_MULTIPROC_DIR'):
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
    else:
        registry = REGISTRY
    started = time.perf_counter()
    body = generate_latest(registry)
    current_app.logger.debug('metrics in %.3f s', time.perf_counter() - started)
    return Response(body, mimetype=CONTENT_TYPE_LATEST, headers={'Cache-Control': 'no-store'})
