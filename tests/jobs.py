"""Jobs for the pool's tests (tests/test_pool.py): a module the pool's processes can import."""

import time
from pathlib import Path

from scorer.gamefile import GameFileError


def slow(seconds):
    """It takes this long."""
    time.sleep(seconds)
    return seconds


def held(started, release):
    """It makes the file `started` (its sign that it runs), then runs until the file `release` is there."""
    Path(started).touch()
    while not Path(release).exists():
        time.sleep(0.01)
    return 'held'


def broken(text):
    raise GameFileError(f'the file says {text}')


def burn(seconds):
    """Python busy for this long of CPU (what the pool's tests and its measurement in docs/speed.md run)."""
    end = time.process_time() + seconds
    spent = 0
    while time.process_time() < end:
        spent += sum(range(1000))
    return spent
