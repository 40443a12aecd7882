"""SCORER_LOG_FORMAT=json: every log line one JSON object, for a machine to read (journald, Loki, jq).

gunicorn's access log (one object a request: who, what, the status, the bytes, the seconds), its
error log, and the app's own messages alike. Text, as gunicorn writes it, by default.
"""

import json
import logging
import sys
from datetime import datetime, timezone

from gunicorn import glogging

from .settings import SettingError, setting



def log_format():
    """'text' or 'json' (SCORER_LOG_FORMAT); anything else is an error at start (web/settings.py KINDS),
    never a silent default."""
    return (setting('LOG_FORMAT') or 'text').strip().lower()


def say(line, level='info'):
    """One line of the command's own (where the data lives, a setting that stops the start) on stderr:
    a JSON object like every other line when SCORER_LOG_FORMAT=json (text if that setting is itself wrong)."""
    try:
        as_json = log_format() == 'json'
    except SettingError:
        as_json = False
    if as_json:
        record = logging.LogRecord('three-thirteen', getattr(logging, level.upper()), '', 0, line, None, None)
        line = JsonFormatter().format(record)
    print(line, file=sys.stderr, flush=True)


class JsonFormatter(logging.Formatter):
    """A record as one line of JSON: time (UTC), level, logger, message, a request's fields, the traceback."""

    def format(self, record):
        entry = {'time': datetime.fromtimestamp(record.created, timezone.utc).isoformat(timespec='milliseconds'),
                 'level': record.levelname.lower(), 'logger': record.name, 'message': record.getMessage()}
        entry.update(getattr(record, 'request', None) or {})
        if record.exc_info:
            entry['exception'] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False, default=str)


class Logger(glogging.Logger):
    """gunicorn's logger (gunicorn.conf.py), writing JSON when SCORER_LOG_FORMAT=json."""

    def setup(self, cfg):
        super().setup(cfg)
        if log_format() == 'json':
            for log in (self.error_log, self.access_log):
                for handler in log.handlers:
                    handler.setFormatter(JsonFormatter())

    def access(self, resp, req, environ, request_time):
        if log_format() != 'json':
            return super().access(resp, req, environ, request_time)
        if not self.cfg.accesslog:
            return
        atoms = self.atoms(resp, req, environ, request_time)
        status = str(atoms['s'])
        fields = {'remote': atoms['h'], 'method': atoms['m'], 'path': atoms['U'], 'query': atoms['q'],
                  'status': int(status) if status.isdigit() else status, 'bytes': atoms['B'],
                  'seconds': round(request_time.total_seconds(), 6), 'referer': atoms['f'], 'user_agent': atoms['a']}
        self.access_log.info('%s %s %s', atoms['m'], atoms['U'], status, extra={'request': fields})


def init_app(app):
    """The app's own messages (app.logger) as JSON on stderr too, when asked."""
    if log_format() == 'json':
        from flask.logging import default_handler
        app.logger.removeHandler(default_handler)
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(JsonFormatter())
        app.logger.addHandler(handler)
