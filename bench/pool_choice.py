"""Why the heavy work runs in processes (web/pool.py), not threads: under gevent, one greenlet
measures how late a 10 ms sleep wakes (the event loop's delay, which every request of a worker
waits) while 2 s of Python CPU runs nowhere, in gevent's thread pool (real OS threads), or in
web/pool.py's process. Three rounds; milliseconds late, p50 / p95 / max."""

from gevent import monkey

monkey.patch_all()

import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import gevent  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.machine import describe  # noqa: E402
from bench.quantiles import cut  # noqa: E402
from tests.jobs import burn  # noqa: E402
from web import pool  # noqa: E402


def lateness(work):
    """How late the loop's 10 ms sleeps woke while `work()` ran: (p50, p95, max) in ms."""
    late, done = [], []

    def tick():
        while not done:
            started = time.perf_counter()
            gevent.sleep(0.01)
            late.append((time.perf_counter() - started - 0.01) * 1000)
    ticker = gevent.spawn(tick)
    gevent.sleep(0.3)
    work()
    done.append(True)
    ticker.join()
    return (*cut(late, 50, 95), max(late))


def main():
    processes = pool.Pool(processes=1, waiting=1, seconds=60)
    processes.run(burn, 0.01)                     # started and ready
    ways = {'nothing else': lambda: gevent.sleep(2),
            "gevent's thread pool": lambda: gevent.get_hub().threadpool.apply(burn, (2,)),
            "web/pool.py's process": lambda: processes.run(burn, 2)}
    print(f'How late the event loop wakes while 2 s of Python CPU runs elsewhere. {describe()}\n')
    print('| while | round | p50 ms | p95 ms | max ms |\n|---|---:|---:|---:|---:|')
    for n in range(1, 4):
        for name, work in ways.items():
            p50, p95, most = lateness(work)
            print(f'| {name} | {n} | {p50:.1f} | {p95:.1f} | {most:.0f} |')


if __name__ == '__main__':
    main()
