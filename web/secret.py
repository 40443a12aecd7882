"""The app's secret key: from SCORER_SECRET_KEY (or the file SCORER_SECRET_KEY_FILE names), else made once
and kept beside the database (`secret_key` in its folder: instance/ in a checkout), mode 0600."""

import os
import secrets
import time
from pathlib import Path

from .settings import setting


def secret_key(folder):
    """The key; several workers starting together all read the one the first of them wrote."""
    key = setting('SECRET_KEY')
    if key:
        return key
    path = Path(folder) / 'secret_key'
    if not path.exists():
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:         # another worker made it first
            pass
        else:
            with os.fdopen(fd, 'w') as f:
                f.write(secrets.token_hex(32))
    for attempt in range(50):           # wait for the other worker to finish writing it
        key = path.read_text().strip()
        if key:
            return key
        time.sleep(0.02)
    raise RuntimeError(f'{path} is empty')
