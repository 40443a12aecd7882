"""The app's settings, every one declared in SETTINGS: SCORER_<NAME> from the environment, or from
the file SCORER_<NAME>_FILE names; setting() reads them, one function.

A secret is better kept in a file than in the environment (which every process of the user can read,
and which crash reports print): systemd's LoadCredential= and a container's secrets give a file.
Every setting may come either way, so that a secret is never a special case. A name SETTINGS does not
declare cannot be read, so the table (docs/deploy.md's, written from it) lists every setting there is.
"""

import os
from pathlib import Path

PREFIX = 'SCORER_'

# Every setting: what it sets, and its default, as the module that reads it has it.
SETTINGS = {
    'DATABASE': 'the database file (default `scorer.sqlite` in the data folder: `instance/` in a clone)',
    'SECRET_KEY': 'the key that signs cookies and tokens (default: made once into `secret_key` in the data '
                  'folder, mode 0600)',
    'BIND': 'address:port the production recipe listens on (default `0.0.0.0:8000`)',
    'WORKERS': "the recipe's worker processes (default 2, one a core)",
    'WORKER_CONNECTIONS': 'connections each worker holds open, live streams too (default 4000)',
    'CLIENT_CONNECTIONS': 'connections one client address may hold open at once, across the workers '
                          '(default 256, at most a quarter of all; 0 for no limit; off behind a proxy)',
    'CERTFILE': 'with `SCORER_KEYFILE`: serve HTTPS directly (PEM files)',
    'KEYFILE': "with `SCORER_CERTFILE`: the certificate's private key",
    'PROXIES': 'behind a reverse proxy: how many proxies set `X-Forwarded-*` (default 0; read by the app, '
               'gunicorn itself trusts no forwarded header)',
    'HSTS_SECONDS': 'over HTTPS: how long a browser keeps to HTTPS (default a year; 0 makes browsers forget it)',
    'BODY_SECONDS': "how long a request's body may take to arrive, else 408 (default 10)",
    'LIVE_KEEPALIVE': 'seconds between pings on a quiet live stream (default 15)',
    'POOL_PROCESSES': 'processes each server process keeps for heavy work: pictures, imports (default 1; 0: '
                      'none, done in the server process)',
    'SOLVER_POOL_PROCESSES': "the solver's own processes, the same way (default 1)",
    'POOL_NICE': "the pool processes' lower priority, as `nice` takes it (default 10)",
    'SOLVER_RATE': "one client's budget of hands solved: /api/solve, /api/audit, /audit and the preview, a "
                   "round's page and a seat's hand (one a hand) together (default `20 per second; 600 per minute`)",
    'PICTURE_RATE': "one client's budget of pictures drawn afresh (default `20 per minute; 200 per hour`)",
    'GAME_RATE': "one client's budget of games made (default `10 per minute; 60 per hour; 300 per day`)",
    'IMPORT_RATE': "one client's budget of game files imported (default `10 per minute; 60 per hour`)",
    'ACCESS_LOG': "where gunicorn's access log goes (`-`: stdout; off by default)",
    'ERROR_LOG': "where gunicorn's error log goes (default `-`: stderr)",
    'LOG_FORMAT': '`text` (default) or `json`: every log line one JSON object, the app\'s and gunicorn\'s',
    'METRICS': '`1`: Prometheus metrics at /metrics, for a client on this machine (default off)',
    'NODE_MODULES': 'the npm packages the app serves: the picture\'s fonts, Pyodide (default `node_modules` '
                    'beside app.py)',
    'FONTS': "`SCORER_NODE_MODULES`'s name before, still read",
}


class SettingError(RuntimeError):
    """A setting that cannot be read: both forms given, or a file that cannot be read."""


def setting(name, default=None, environ=None):
    """SCORER_<name> from the environment; else the text of the file SCORER_<name>_FILE (its last line
    break left out); else `default`. Both at once is an error, as is a file that cannot be read."""
    if name not in SETTINGS:
        raise KeyError(f'{PREFIX}{name} is no setting: declare it in web/settings.py SETTINGS')
    environ = os.environ if environ is None else environ
    key = PREFIX + name
    value, file = environ.get(key), environ.get(key + '_FILE')
    if value is not None and file:
        raise SettingError(f'{key} and {key}_FILE are both set: give one')
    if file:
        try:
            return Path(file).read_text(encoding='utf-8').removesuffix('\n').removesuffix('\r')
        except (OSError, UnicodeDecodeError) as e:
            raise SettingError(f'{key}_FILE: cannot read {file}: {getattr(e, "strerror", None) or e}') from None
    return default if value is None else value
