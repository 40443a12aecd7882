"""Jobs for the pool's tests (tests/test_pool.py): a module the pool's processes can import."""

import time

from scorer.gamefile import GameFileError


def slow(seconds):
    """It takes this long."""
    time.sleep(seconds)
    return seconds


def broken(text):
    raise GameFileError(f'the file says {text}')
