"""The app's settings, every one declared in SETTINGS: SCORER_<NAME> from the environment, or from
the file SCORER_<NAME>_FILE names; setting() reads them, one function.

A secret is better kept in a file than in the environment (which every process of the user can read,
and which crash reports print): systemd's LoadCredential= and a container's secrets give a file.
Every setting may come either way, so that a secret is never a special case. A name SETTINGS does not
declare cannot be read, so the table (docs/deploy.md's, written from it) lists every setting there is.

A setting given is checked as it is read (KINDS: a number where a number goes, one of the choices
where there are choices), and check() reads every one: the commands that start a server call it
first (`three-thirteen serve` and `run`, `make run`), so a bad or doubled setting stops the start with
one line naming it, before any worker starts.
"""

import math
import os
from pathlib import Path

PREFIX = 'SCORER_'

# Every setting: what it sets, and its default, as the module that reads it has it.
SETTINGS = {
    'DATABASE': 'the database file (default `scorer.sqlite` in the data folder: `instance/` in a clone)',
    'SECRET_KEY': 'the key that signs cookies and tokens (default: made once into `secret_key` in the data '
                  'folder, mode 0600)',
    'BIND': 'address:port the production recipe listens on (default `0.0.0.0:8000`)',
    'STREAMS_BIND': 'behind a reverse proxy: a second address:port the recipe listens on, for the proxy\'s live '
                    'streams alone (docs/deploy.md\'s Caddyfile sends them there; default none)',
    'WORKERS': "the recipe's worker processes (default 2, one a core)",
    'WORKER_CONNECTIONS': 'connections each worker holds open, live streams too (default 4000)',
    'CLIENT_CONNECTIONS': 'connections one client address may hold open at once, across the workers '
                          '(default 256, at most a quarter of all; 0 for no limit; behind a proxy, `SCORER_PROXIES`, '
                          'requests at once, by the client the proxy forwards)',
    'REFUSAL_SECONDS': 'seconds a connection (behind a proxy, `SCORER_PROXIES`: a request) refused by '
                       '`SCORER_CLIENT_CONNECTIONS` waits at least for its 429 (up to twice that, at random), so '
                       'that a client opening it again at once pays the wait (default 10; 0: at once)',
    'CERTFILE': 'with `SCORER_KEYFILE`: serve HTTPS directly (PEM files)',
    'KEYFILE': "with `SCORER_CERTFILE`: the certificate's private key",
    'PROXIES': 'behind a reverse proxy: how many proxies set `X-Forwarded-*` (default 0; read by the app, '
               'gunicorn itself trusts no forwarded header)',
    'HSTS_SECONDS': 'over HTTPS: how long a browser keeps to HTTPS (default a year; 0 makes browsers forget it)',
    'BODY_SECONDS': "how long each 256 KiB of a request's body may take to arrive, else 408 (default 10)",
    'LIVE_KEEPALIVE': 'seconds between pings on a quiet live stream (default 15)',
    'POOL_PROCESSES': 'processes each server process keeps for heavy work: pictures, imports (default 1; 0: '
                      'none, done in the server process)',
    'SOLVER_POOL_PROCESSES': "the solver's own processes, the same way (default 1)",
    'POOL_NICE': "the pool processes' lower priority, as `nice` takes it (default 10)",
    'SOLVER_RATE': "one client's budget of hands solved: /api/solve, /api/audit, /audit and the preview, a "
                   "round's page and a seat's hand (one a hand) together (default `20 per second; 600 per minute`)",
    'HAND_RATE': "one seat's budget of hands sent (\"my hand\"), one a send (default `1 per 2 seconds; 20 per "
                 "minute`)",
    'PICTURE_RATE': "one client's budget of pictures drawn afresh (default `20 per minute; 200 per hour`)",
    'GAME_RATE': "one client's budget of games made (default `10 per minute; 60 per hour; 300 per day`)",
    'ADDRESS_GAME_RATE': "games made from one address, every browser on it together: the address's ceiling over "
                         "`SCORER_GAME_RATE`: by default five times it, window by window (`50 per minute; 300 per hour; "
                         "1500 per day` by its default)",
    'IMPORT_RATE': ("one client's budget of game and table files imported, one for each 4 MiB begun "
                    "(default `10 per minute; 60 per hour`)"),
    'ACCESS_LOG': "where gunicorn's access log goes (`-`: stdout; off by default)",
    'ERROR_LOG': "where gunicorn's error log goes (default `-`: stderr)",
    'LOG_FORMAT': '`text` (default) or `json`: every log line one JSON object, the app\'s and gunicorn\'s',
    'METRICS': '`1`: Prometheus metrics at /metrics, for a client on this machine (default off)',
    'NODE_MODULES': 'the npm packages the app serves: the picture\'s fonts, Pyodide (default `node_modules` '
                    'beside app.py)',
    'FONTS': "`SCORER_NODE_MODULES`'s name before, still read",
}


class SettingError(RuntimeError):
    """A setting that cannot be read: both forms given, a file that cannot be read, or a value its kind
    refuses. Its text is one line that names the setting."""


def whole(text, least=0):
    """A whole number, `least` or more."""
    try:
        number = int(text)
    except ValueError:
        raise ValueError('give a whole number') from None
    if number < least:
        raise ValueError(f'give a whole number, {least} or more')


def positive(text):
    """A whole number, 1 or more."""
    whole(text, least=1)


def seconds(text):
    """A number of seconds above 0."""
    try:
        number = float(text)
    except ValueError:
        raise ValueError('give a number of seconds') from None
    if not (math.isfinite(number) and number > 0):
        raise ValueError('give a number of seconds above 0')


def niceness(text):
    """A priority as `nice` takes it: -20 to 19."""
    whole(text, least=-20)
    if int(text) > 19:
        raise ValueError('give a whole number from -20 to 19')


def one_of(*choices):
    """One of these words, in any case."""
    def check(text):
        if text.strip().lower() not in choices:
            raise ValueError(f"give one of {', '.join(choices)}")
    return check


def rates(text):
    """Budgets as the `limits` library reads them: `20 per second; 600 per minute`."""
    from limits import parse_many
    try:
        parse_many(text)
    except ValueError:
        raise ValueError('give budgets such as `20 per second; 600 per minute`') from None


def address(text):
    """Where to listen: host:port (a port from 1 to 65535), or unix:PATH."""
    if text.startswith('unix:'):
        return
    host, colon, port = text.rpartition(':')
    if not (colon and port.isdigit() and 0 < int(port) < 65536):
        raise ValueError('give host:port, such as 127.0.0.1:8000')


def existing_file(text):
    """A file that is there (or nothing: empty is none)."""
    if text and not Path(text).is_file():
        raise ValueError('no such file')


FLAG = one_of('0', '1', 'true', 'false', 'yes', 'no', 'on', 'off')
# What a setting's value must be, where it is not any text (a path, a key).
KINDS = {'BIND': address, 'STREAMS_BIND': address, 'WORKERS': positive, 'WORKER_CONNECTIONS': positive, 'CLIENT_CONNECTIONS': whole, 'REFUSAL_SECONDS': whole,
         'CERTFILE': existing_file, 'KEYFILE': existing_file, 'PROXIES': whole, 'HSTS_SECONDS': whole,
         'BODY_SECONDS': seconds, 'LIVE_KEEPALIVE': seconds, 'POOL_PROCESSES': whole, 'SOLVER_POOL_PROCESSES': whole,
         'POOL_NICE': niceness, 'SOLVER_RATE': rates, 'HAND_RATE': rates, 'PICTURE_RATE': rates, 'GAME_RATE': rates, 'ADDRESS_GAME_RATE': rates,
         'IMPORT_RATE': rates,
         'LOG_FORMAT': one_of('text', 'json'), 'METRICS': FLAG}


def setting(name, default=None, environ=None):
    """SCORER_<name> from the environment; else the text of the file SCORER_<name>_FILE (its last line
    break left out); else `default`. Both at once is an error, as is a file that cannot be read or a
    value its kind (KINDS) refuses."""
    if name not in SETTINGS:
        raise KeyError(f'{PREFIX}{name} is no setting: declare it in web/settings.py SETTINGS')
    environ = os.environ if environ is None else environ
    key = PREFIX + name
    value, file = environ.get(key), environ.get(key + '_FILE')
    if value is not None and file:
        raise SettingError(f'{key} and {key}_FILE are both set: give one')
    if file:
        try:
            value = Path(file).read_text(encoding='utf-8').removesuffix('\n').removesuffix('\r')
        except (OSError, UnicodeDecodeError) as e:
            raise SettingError(f'{key}_FILE: cannot read {file}: {getattr(e, "strerror", None) or e}') from None
    if value is None:
        return default
    try:
        KINDS.get(name, str)(value)
    except ValueError as e:
        raise SettingError(f'{key}{f" (from {key}_FILE)" if file else ""} is {value!r}: {e}') from None
    return value


def check(environ=None):
    """Every setting read once, as the app will read it: the first that cannot be is a SettingError."""
    for name in SETTINGS:
        setting(name, environ=environ)


def stop_on_a_bad_setting():
    """check(), for a command that starts a server: one line on stderr naming the setting and what is
    wrong with it, and exit status 2, before anything starts."""
    try:
        check()
    except SettingError as e:
        from .logs import say
        say(f'three-thirteen: {e}', level='error')
        raise SystemExit(2) from None


if __name__ == '__main__':             # make run, before the development server
    stop_on_a_bad_setting()
