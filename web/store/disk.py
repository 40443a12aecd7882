"""The disk under the database: whether it takes a write now, and if not, why (full or read-only),
found by trying, for the message a refused save gives and for /health."""

import errno
import os
import tempfile

FULL, READ_ONLY = 'full', 'read-only'


def trouble(path, error=None):
    """Why the disk under the database file cannot take a write: FULL, READ_ONLY, or None (it can, as
    far as a probe tells, or the failure was something else).

    `error`, an SQLite error a write gave, says FULL itself (SQLITE_FULL). Otherwise a file is made
    and removed beside the database: a disk that turned read-only under the server (ext4's
    errors=remount-ro) refuses it with EROFS, where os.access still says the folder is writable;
    and a disk with no block free (statvfs) is full, though an empty file may still be made there."""
    if (getattr(error, 'sqlite_errorname', None) or '').startswith('SQLITE_FULL'):
        return FULL
    if path == ':memory:':
        return None
    folder = os.path.dirname(os.path.abspath(path))
    try:
        handle, probe = tempfile.mkstemp(prefix='.probe-', dir=folder)
    except OSError as e:
        return READ_ONLY if e.errno == errno.EROFS else FULL if e.errno in (errno.ENOSPC, errno.EDQUOT) else None
    os.close(handle)
    try:
        os.unlink(probe)
    except OSError:
        pass
    try:
        return FULL if os.statvfs(folder).f_bavail == 0 else None
    except OSError:
        return None
