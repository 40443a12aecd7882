"""Slow clients against the production recipe: N connections each send one header line a second
and never finish, while a bystander plays a table's requests (the sheet, a round page, the
live poll). Bounded in time; prints a Markdown report. Run with `make slow`."""

import argparse
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.machine import describe  # noqa: E402
from bench.quantiles import cut  # noqa: E402
from tests.browser import Browser  # noqa: E402
from tests.deployment import slow_client  # noqa: E402
from tests.server import Gunicorn  # noqa: E402


def bystander(server, seconds):
    """A scorekeeper's requests, one after another for `seconds`: their times in ms, and failures."""
    browser = Browser(server.url)
    try:
        game = browser.new_game(['Ana', 'Bruno', 'Carla'])
    except OSError:
        return [], 1                # not even served once
    times, failures = [], 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        for path in (game, f'{game}/rounds/1', f'{game}/live'):
            start = time.perf_counter()
            try:
                browser.get(path, timeout=5)
                times.append((time.perf_counter() - start) * 1000)
            except OSError:
                failures += 1
        time.sleep(0.05)
    return times, failures


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument('--slow', type=int, default=10, help='slow clients')
    parser.add_argument('--seconds', type=int, default=20)
    parser.add_argument('--sync', action='store_true', help='plain sync workers instead of the recipe (to compare)')
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        server = Gunicorn(Path(tmp) / 'slow.sqlite', sync=args.sync).start()
        stop = threading.Event()
        try:
            for _ in range(args.slow):
                threading.Thread(target=slow_client, args=(server.port, stop), daemon=True).start()
            time.sleep(1)
            times, failures = bystander(server, args.seconds)
        finally:
            stop.set()
            server.stop()
    recipe = 'gunicorn, 2 sync workers' if args.sync else 'the production recipe (gunicorn.conf.py: 2 gevent workers)'
    print(f'{args.slow} slow clients (a header line a second, never finished) for {args.seconds} s against '
          f'{recipe}; a bystander loads the sheet, a round page and the live poll in turn. {describe()}\n')
    print('| bystander requests | p50 ms | p95 ms | max ms | failed |\n|---:|---:|---:|---:|---:|')
    if len(times) >= 2:
        p50, p95 = cut(times, 50, 95)
        print(f'| {len(times)} | {p50:.1f} | {p95:.1f} | {max(times):.0f} | {failures} |')
    else:
        print(f'| {len(times)} | – | – | – | {failures} |')


if __name__ == '__main__':
    main()
