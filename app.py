"""The Three-Thirteen scorekeeper: the Flask application factory, create_app(test_config=None): the
config, the database, CSRF, the blueprints, Secure cookies over HTTPS, ProxyFix when SCORER_PROXIES is set."""

import os
from pathlib import Path

from flask import Flask, has_request_context, request
from flask.sessions import SecureCookieSessionInterface
from flask_wtf.csrf import CSRFProtect
from werkzeug.middleware.proxy_fix import ProxyFix

from web import access, db, deadline, drawing, errors, headers, i18n, logs, metrics, pool, ratelimit, statics, templating
from web.deadline import BODY_SECONDS
from web.secret import secret_key
from web.settings import setting

ROOT = Path(__file__).resolve().parent       # this file's folder: scorer/, web/, templates/, static/, translations/

csrf = CSRFProtect()


class SessionCookies(SecureCookieSessionInterface):
    """The session cookie is Secure whenever the request came over HTTPS (directly or through a proxy);
    and a response that sets any cookie is kept by no cache (saved last, after every other hook)."""

    def get_cookie_secure(self, app):
        return super().get_cookie_secure(app) or (has_request_context() and request.is_secure)

    def save_session(self, app, session, response):
        super().save_session(app, session, response)
        headers.no_store_when_cookies(response)


def data_folder():
    """Where the data lives: the database, the secret key and the budgets' counts, side by side. The
    folder of SCORER_DATABASE when it names the database; else instance/ in a checkout (its Makefile
    beside this file); installed (the three-thirteen command), systemd's StateDirectory=
    ($STATE_DIRECTORY), else the user's own data folder (~/.local/share/three-thirteen on Linux)."""
    if setting('DATABASE'):
        return os.path.dirname(os.path.abspath(setting('DATABASE')))
    if (ROOT / 'Makefile').exists():
        return str(ROOT / 'instance')
    if os.environ.get('STATE_DIRECTORY'):
        return os.environ['STATE_DIRECTORY'].split(':')[0]
    import platformdirs
    return platformdirs.user_data_dir('three-thirteen', appauthor=False)


def make_folder(path):
    """A folder for the data, made readable by its owner alone (0700) if it is not there."""
    os.makedirs(path, mode=0o700, exist_ok=True)
    return path


def database():
    """The database file: SCORER_DATABASE, else scorer.sqlite in the data folder."""
    return setting('DATABASE') or os.path.join(data_folder(), 'scorer.sqlite')


def node_modules():
    """The npm packages the app serves (the picture's fonts, Pyodide): SCORER_NODE_MODULES (SCORER_FONTS,
    its name before, still read), else beside this file."""
    return setting('NODE_MODULES') or setting('FONTS') or str(ROOT / 'node_modules')


def create_app(test_config=None):
    """Create and configure the app."""
    from web.live import TIMINGS as LIVE_TIMINGS, live_timing
    # The static files under their release's address, kept a year by the browser (web/statics.py).
    app = Flask(__name__, instance_relative_config=True, instance_path=data_folder(),
                static_url_path=statics.url_path(ROOT / 'static'))
    app.config.from_mapping(
        DATABASE=database(),
        WTF_CSRF_TIME_LIMIT=None,           # a page left open through a long game must still save
        MAX_CONTENT_LENGTH=256 * 1024,
        BODY_SECONDS=float(setting('BODY_SECONDS', BODY_SECONDS)),   # a body arrives within this
        LANGUAGES=i18n.LANGUAGES,
        PROXIES=int(setting('PROXIES', '0')),
        SESSION_COOKIE_SAMESITE='Lax',
        **{**LIVE_TIMINGS,                  # the live connection's timings (web/live.py)
           'LIVE_KEEPALIVE': float(setting('LIVE_KEEPALIVE', LIVE_TIMINGS['LIVE_KEEPALIVE']))},
        FINGER_SETTLE_MS=templating.SETTLE_MS,   # the keypad's finger guard (web/templating.py)
        OFFLINE_SEND_AGAIN_MS=templating.SEND_AGAIN_MS,   # a phone with something unsent tries again
        PRINT_TYPE_WAIT_MS=templating.PRINT_TYPE_WAIT_MS,  # a print page's Print button, type or not
        NODE_MODULES=node_modules(),       # the picture's Noto packages, Pyodide
        HSTS_SECONDS=int(setting('HSTS_SECONDS', headers.HSTS_SECONDS)),   # over HTTPS: keep to HTTPS
        POOL_PROCESSES=int(setting('POOL_PROCESSES', pool.PROCESSES)),    # heavy work's processes (0: none)
        POOL_WAITING=pool.WAITING,
        POOL_SECONDS=pool.JOB_SECONDS,
        SOLVER_POOL_PROCESSES=int(setting('SOLVER_POOL_PROCESSES', pool.PROCESSES)),  # the solver's
        SOLVER_POOL_WAITING=pool.SOLVER_WAITING,
        SOLVER_POOL_SECONDS=pool.SOLVER_SECONDS,
    )
    if test_config is None:
        app.config.from_pyfile('config.py', silent=True)
    else:
        app.config.from_mapping(test_config)
    beside = make_folder(os.path.dirname(os.path.abspath(app.config['DATABASE'])))   # the data's, however named
    if not app.config.get('SECRET_KEY'):
        app.config['SECRET_KEY'] = secret_key(beside)
    if app.config['PROXIES']:
        # Behind a reverse proxy that terminates HTTPS: trust its X-Forwarded-For/-Proto/-Host/-Port,
        # so the app knows the request was secure. Off unless configured (a client could forge them).
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=app.config['PROXIES'], x_proto=app.config['PROXIES'],
                                x_host=app.config['PROXIES'], x_port=app.config['PROXIES'])
    app.session_interface = SessionCookies()
    deadline.init_app(app)                 # outside ProxyFix: a body is read before anything else

    app.jinja_env.globals.update(live_timing=live_timing, **templating.GLOBALS)
    app.jinja_env.globals.update(picker_timing=lambda: templating.picker_timing(app.config['FINGER_SETTLE_MS']),
                                 send_again_ms=lambda: app.config['OFFLINE_SEND_AGAIN_MS'],
                                 print_type_wait_ms=lambda: app.config['PRINT_TYPE_WAIT_MS'])
    app.jinja_env.filters.update(templating.FILTERS)

    logs.init_app(app)
    db.init_app(app)
    headers.init_app(app)
    access.init_app(app)
    csrf.init_app(app)
    ratelimit.init_app(app)
    i18n.init_app(app)
    errors.init_app(app)
    metrics.init_app(app)
    statics.init_app(app)
    app.before_request(lambda: pool.ahead(app.config))   # the solver's first process, started ahead
    drawing.typeface(app.config['NODE_MODULES'], warm=True)   # the print's measure, read before any request

    from web import api, audit, export, games, health, live, offline, pwa, rounds, seats, sharing, stats, switcher, tables
    for blueprint in (games.bp, rounds.bp, live.bp, sharing.bp, export.bp, seats.bp, stats.bp, api.bp, audit.bp,
                      pwa.bp, offline.bp, health.bp, switcher.bp, tables.bp):
        app.register_blueprint(blueprint)

    return app
