"""The app's settings: SCORER_<NAME> from the environment, or from the file SCORER_<NAME>_FILE names.

A secret is better kept in a file than in the environment (which every process of the user can read,
and which crash reports print): systemd's LoadCredential= and a container's secrets give a file.
Every setting may come either way, so that a secret is never a special case.
"""

import os
from pathlib import Path

PREFIX = 'SCORER_'


class SettingError(RuntimeError):
    """A setting that cannot be read: both forms given, or a file that cannot be read."""


def setting(name, default=None, environ=None):
    """SCORER_<name> from the environment; else the text of the file SCORER_<name>_FILE (its last line
    break left out); else `default`. Both at once is an error, as is a file that cannot be read."""
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
