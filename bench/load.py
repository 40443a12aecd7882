"""Load test: tables of one scorekeeper saving rounds and four viewers following the live sheet,
against the app under gunicorn (2 workers) on loopback. Bounded in time; prints a Markdown report.

With --self-entry three of each table's viewers take a seat and send their own hands (as on
their phones) while the scorekeeper's round page asks for them.

With --push the viewers hold the live stream (Server-Sent Events) instead of polling, the
scorekeeper saves every 20-40 s as at a real table, and the report adds how long each save took
to reach every follower of its table, how long a phone took to join (its sheet page, then its
stream until the first sheet came), and the server's memory with every stream open. The measured
time starts once every phone has joined (or failed to), however long that takes: what is measured
is the load itself, not the crowd still arriving.

The load generator runs on the same cores as the server, at the lowest priority (GENERATOR_NICE,
set once the server has started): the server keeps both cores, and the generator has what the
server leaves. A generator kept waiting reads its answers late, which makes every time it reports
longer, never shorter. Its followers share one connection pool and read their streams line by line.

Before each run the writes that other work left waiting for the disk are written out (os.sync), and
the report says how many there were, the load average and the run's seed: a run must not measure the
disk still writing out what ran before it (a test suite, `make load`'s own stress phases), since every
save's commit waits for the disk on a worker's event loop.

--runs N repeats the run N times, each on a fresh server, and ends with a table of the runs and
their spread (the form of docs/speed.md). Run with `make load` (TABLES=50 SECONDS=60 make load to
change the size; RUNS=5 is the push phase's runs).
"""

import argparse
import asyncio
import multiprocessing
import os
import random
import re
import sys
import tempfile
import time
from pathlib import Path

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.machine import describe  # noqa: E402
from bench.quantiles import cut  # noqa: E402
from tests.server import ROOT, UNCAPPED, Gunicorn  # noqa: E402

PLAYERS = ['Ana', 'Bruno', 'Carla', 'Dan']
RANKS = ['A', '2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K']
PACK = [rank + suit for rank in RANKS for suit in 'SHDC'] * 2       # two decks
KINDS = ('page view', 'live poll', 'round save', 'drafts poll', 'hand send', 'save to follower')
GENERATOR_NICE = 19     # the load generator's priority: below the server's workers (0) and their pools (10)
JOIN_SECONDS = 600      # a hang guard on the phones joining (far beyond any run's; never a speed goal)
# What a push run at 500 tables must hold, in every run (issue 47): p95 of page views, and from a save
# to every follower of its table, in ms.
PUSH_LIMITS = {'page view': 50, 'save to follower': 200}


class Recorder:
    """Latencies and errors by kind of request, counted once every client has joined (after the ramp)."""

    def __init__(self):
        self.times, self.errors, self.stop, self.measure_from = {}, {}, None, float('inf')
        self.saving = {}                             # (game, revision) -> when its save was sent
        self.joins, self.waiting = [], 0             # how long each phone took to join; phones not joined yet
        self.joined = asyncio.Event()                # every phone has joined (or failed to): measuring starts

    def arrived(self, seconds=None):
        """A phone has joined (in `seconds`), or failed to (None)."""
        if seconds is not None:
            self.joins.append(seconds)
        self.waiting -= 1
        if self.waiting <= 0:
            self.joined.set()

    def add(self, kind, seconds, ok):
        if not ok:                                   # an error counts whenever it happens
            self.errors[kind] = self.errors.get(kind, 0) + 1
        if time.monotonic() - seconds >= self.measure_from:
            self.times.setdefault(kind, []).append(seconds)


async def timed(rec, kind, request, expect):
    start = time.monotonic()
    try:
        async with request as r:
            body = await r.text()
            rec.add(kind, time.monotonic() - start, r.status in expect)
            return r, body
    except (aiohttp.ClientError, asyncio.TimeoutError):
        rec.add(kind, time.monotonic() - start, False)
        return None, ''


def token_of(page):
    return re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)


async def new_table(base, rec):
    session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=30),
                                    cookie_jar=aiohttp.CookieJar(unsafe=True))   # cookies from 127.0.0.1
    _, page = await timed(rec, 'setup', session.get(base + '/games/new'), {200})
    form = {'csrf_token': token_of(page), 'first_dealer': '0', 'decks': 'auto', 'game': 'standard',
            **{f'players-{i}': p for i, p in enumerate(PLAYERS)}}
    r, _ = await timed(rec, 'setup', session.post(base + '/games/new', data=form, allow_redirects=False), {302})
    return session, r.headers['Location']


async def keeper(base, session, game, rec, rng, delay, self_entry=False, pause=(1.0, 3.0), after_join=False):
    if after_join:
        await rec.joined.wait()
    await asyncio.sleep(delay)
    number, revision = 1, 0
    while time.monotonic() < rec.stop:
        _, page = await timed(rec, 'page view', session.get(f'{base}{game}/rounds/{number}'), {200})
        if self_entry and page:                       # the round page asks what the players sent
            await timed(rec, 'drafts poll', session.get(f'{base}{game}/rounds/{number}/drafts'), {200})
        if not page:
            await asyncio.sleep(1)
            continue
        token = token_of(page)
        version = re.search(r'name="version" value="(\d+)"', page).group(1)
        out = number % len(PLAYERS)
        form = {'csrf_token': token, 'version': version, 'went_out': str(out),
                **{f'entries-{seat}-{field}': '' for seat in range(len(PLAYERS)) for field in ('cards', 'points')}}
        for seat in range(len(PLAYERS)):
            if seat != out:
                hand = rng.sample(PACK, number + 2)           # a whole hand, as the round deals it
                if seat == (out + 1) % len(PLAYERS) and number >= 2:
                    form[f'entries-{seat}-cards'] = ' '.join(hand)
                else:
                    form[f'entries-{seat}-points'] = str(rng.randint(0, 40))
        rec.saving[(game, revision + 1)] = time.monotonic()
        r, _ = await timed(rec, 'round save', session.post(f'{base}{game}/rounds/{number}', data=form,
                                                          allow_redirects=False), {302})
        if r is not None and r.status == 302:
            revision += 1
            await timed(rec, 'page view', session.get(base + r.headers['Location']), {200})
        number = number % 11 + 1
        await asyncio.sleep(rng.uniform(*pause))


async def viewer(base, game, rec, rng, delay, seat=None):
    """A phone following the sheet; with a seat, it also sends its own hand now and then."""
    await asyncio.sleep(delay)
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=30),
                                     cookie_jar=aiohttp.CookieJar(unsafe=True)) as session:
        _, page = await timed(rec, 'page view', session.get(base + game), {200})
        etag = (re.search(r'data-etag="([^"]+)"', page) or [None, '""'])[1].replace('&#34;', '"')
        if seat is not None and page:
            await timed(rec, 'setup', session.post(f'{base}{game}/seats/{seat}', data={'csrf_token': token_of(page)},
                                                   allow_redirects=False), {302})
        polls = 0
        while time.monotonic() < rec.stop:
            r, _ = await timed(rec, 'live poll', session.get(f'{base}{game}/live', headers={'If-None-Match': etag}),
                               {200, 304})
            if r is not None and r.status == 200:
                etag = r.headers.get('ETag', etag)
            polls += 1
            if seat is not None and polls % 2 == 0:
                await send_hand(base, session, game, rec, seat)
            await asyncio.sleep(1.5)


async def follower(base, session, game, rec, delay):
    """A phone holding the live stream (on the followers' shared session): it joins (its sheet page,
    then its stream until the first sheet comes), then each sheet pushed is timed from the moment its
    save was sent."""
    await asyncio.sleep(delay)
    started, joined = time.monotonic(), False
    try:
        async with session.get(base + game) as r:
            page = await r.text() if r.status == 200 else ''
        since = (re.search(r'since=(\d+)', page) or [None, '0'])[1]
        async with session.get(f'{base}{game}/events') as r:
            ok = r.status == 200
            rec.add('setup', 0, ok)
            async for line in r.content:
                if line.startswith(b'id: '):
                    if not joined:
                        joined = True
                        rec.arrived(time.monotonic() - started)
                    sent = rec.saving.get((game, int(line[4:])))
                    if sent is not None:
                        rec.add('save to follower', time.monotonic() - sent, True)
    except (aiohttp.ClientError, asyncio.TimeoutError):
        if time.monotonic() < rec.stop:
            rec.add('save to follower', 0, False)
    finally:
        if not joined:
            rec.arrived(None)


async def send_hand(base, session, game, rec, seat):
    """Open my hand's page and send a hand of the round's size (each seat its own suit: never too many copies)."""
    _, page = await timed(rec, 'page view', session.get(f'{base}{game}/hand'), {200})
    size = re.search(r'data-hand-size="(\d+)"', page or '')
    number = re.search(r'name="round" type="hidden" value="(\d+)"', page or '')
    if not size or not number:
        return
    cards = ' '.join(rank + 'SHD'[seat - 1] for rank in RANKS[:int(size.group(1))])
    # The hand names its round; one that was saved meanwhile is refused (409), as on a phone.
    await timed(rec, 'hand send', session.post(f'{base}{game}/hand', data={'csrf_token': token_of(page), 'cards': cards,
                                                                          'round': number.group(1)},
                                               allow_redirects=False), {200, 302, 409})


async def run(base, tables, viewers, seconds, ramp, seed, self_entry=False, push=False, measure=lambda: None):
    """Clients join at random over the first `ramp` seconds (people arrive at a table); then `seconds` are
    measured (with --push, from the moment every phone has joined)."""
    rec, rng = Recorder(), random.Random(seed)
    rec.ramp = ramp
    made = [await new_table(base, rec) for _ in range(tables)]
    now = time.monotonic()
    rec.measure_from, rec.stop = now + ramp, now + ramp + seconds
    streams = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=None, sock_connect=30, sock_read=60),
                                    connector=aiohttp.TCPConnector(limit=0))
    tasks, holding = [], []         # holding: the streams, hung up once the measured time is over
    if push:
        rec.measure_from = rec.stop = float('inf')
        rec.waiting = tables * (viewers + 1)
    for session, game in made:
        if push:
            tasks.append(keeper(base, session, game, rec, random.Random(rng.random()), rng.uniform(0, 20),
                                pause=(20.0, 40.0), after_join=True))
            # Every phone holds a stream: the four followers, and the scorekeeper's own sheet.
            holding += [follower(base, streams, game, rec, rng.uniform(0, ramp)) for _ in range(viewers + 1)]
            continue
        tasks.append(keeper(base, session, game, rec, random.Random(rng.random()), rng.uniform(0, ramp), self_entry))
        tasks += [viewer(base, game, rec, random.Random(rng.random()), rng.uniform(0, ramp),
                         seat=(v + 1 if self_entry and v < len(PLAYERS) - 1 else None))
                  for v in range(viewers)]
    async def start_measuring():
        """With --push: the measured time starts once every phone has joined or failed to."""
        if push:
            await asyncio.wait_for(rec.joined.wait(), timeout=JOIN_SECONDS)
            rec.measure_from = time.monotonic()
            rec.stop = rec.measure_from + seconds
            rec.join_seconds = rec.measure_from - now

    async def sample():
        await start_measuring()
        while time.monotonic() < rec.stop:
            await asyncio.sleep(5)
            if time.monotonic() > rec.measure_from:
                measure()
    holding = [asyncio.create_task(f) for f in holding]
    try:
        await asyncio.wait_for(asyncio.gather(*tasks, sample()), timeout=JOIN_SECONDS + ramp + seconds + 60)
    finally:
        for task in holding:
            task.cancel()
        await asyncio.gather(*holding, return_exceptions=True)
    elapsed = min(time.monotonic(), rec.stop) - rec.measure_from
    for session, _ in made:
        await session.close()
    await streams.close()
    return rec, elapsed


def resident(server):
    """KiB resident in the server's processes (gunicorn's master and its workers), from /proc."""
    pids = [server.process.pid]
    try:
        pids += [int(p) for p in Path(f'/proc/{server.process.pid}/task/{server.process.pid}/children').read_text().split()]
        return sum(int(line.split()[1]) for pid in pids for line in Path(f'/proc/{pid}/status').read_text().splitlines()
                   if line.startswith('VmRSS:'))
    except OSError:
        return 0


def report(rec, elapsed, tables, viewers, workers, threads, self_entry=False, push=False, memory=None):
    seated = (', three of them entering their own hands' if self_entry else
              '; every phone holds the live stream, the scorekeeper\'s sheet too, and a table saves every 20-40 s'
              if push else '')
    lines = [f'{tables} tables ({tables * (viewers + 1)} clients: one scorekeeper and {viewers} viewers each{seated}), '
             f'{elapsed:.0f} s measured once all had joined, the production recipe (gunicorn.conf.py: {workers} gevent '
             'workers) on loopback, the load generator on the same machine. ' + describe(), '', '| requests | count | per second | p50 ms | p95 ms | p99 ms | max ms | errors |',
             '|---|---:|---:|---:|---:|---:|---:|---:|']
    total = 0
    for kind in KINDS:
        t = sorted(rec.times.get(kind, []))
        if not t:
            continue
        total += len(t)
        p50, p95, p99 = cut(t, 50, 95, 99)
        lines.append(f'| {kind} | {len(t)} | {len(t) / elapsed:.1f} | {p50 * 1000:.1f} | {p95 * 1000:.1f} | '
                     f'{p99 * 1000:.1f} | {t[-1] * 1000:.0f} | {rec.errors.get(kind, 0)} |')
    lines.append(f'\nThroughput {total / elapsed:.0f} requests/s; errors {sum(rec.errors.values())}.')
    if push and rec.joins:
        p50, p95 = cut(rec.joins, 50, 95)
        lines.append(f'The {len(rec.joins)} phones joined over {getattr(rec, "join_seconds", 0):.0f} s (arriving over '
                     f'the first {rec.ramp} s), each in p50 {p50 * 1000:.0f} / p95 {p95 * 1000:.0f} ms (its sheet '
                     f'page, then its stream until the first sheet came); not joined: {tables * (viewers + 1) - len(rec.joins)}.')
    if memory:
        lines.append(f'Server memory with all {tables * (viewers + 1)} streams open: {memory / 1024:.0f} MiB resident '
                     '(gunicorn\'s master and both workers).')
    return '\n'.join(lines)


def figures(rec):
    """{kind: (p50, p95, p99) in ms, or None} and the errors, of one run."""
    found = {}
    for kind in KINDS:
        t = rec.times.get(kind, [])
        found[kind] = tuple(q * 1000 for q in cut(t, 50, 95, 99)) if t else None
    return found, sum(rec.errors.values())


def generate(url, pid, args, seed, out):
    """The load generator's process: at the lowest priority (the server keeps the cores), one run; its
    report and figures are put on `out`."""
    os.nice(GENERATOR_NICE)
    memory = []
    server = type('Server', (), {'process': type('Process', (), {'pid': pid})})
    rec, elapsed = asyncio.run(run(url, args.tables, args.viewers, args.seconds, args.ramp, seed,
                                   args.self_entry, args.push, lambda: memory.append(resident(server))))
    most = max(memory) if memory and args.push else None
    text = report(rec, elapsed, args.tables, args.viewers, args.workers, 1, args.self_entry, args.push, most)
    out.put((text, *figures(rec), most))


def waiting_writes():
    """MiB of the machine's writes not yet on the disk (/proc/meminfo's Dirty and Writeback)."""
    fields = dict(line.split(':', 1) for line in Path('/proc/meminfo').read_text().splitlines())
    return sum(int(fields.get(name, '0 kB').split()[0]) for name in ('Dirty', 'Writeback')) / 1024


def settle():
    """Before a run, the machine as the run finds it, said in its report: the load average, and the
    writes other work left waiting for the disk, written out now (os.sync) and how long that took. A
    run right after other work (a test suite, the run before) would otherwise measure the disk
    writing that work out: every save's commit waits for the disk, on the worker's event loop."""
    load, waiting, started = os.getloadavg()[0], waiting_writes(), time.monotonic()
    os.sync()
    return (f'Before the run: load average {load:.2f}; {waiting:.0f} MiB of writes waiting for the disk, '
            f'written out first ({time.monotonic() - started:.1f} s); seed {{seed}}.')


def one_run(args, seed):
    """One run on a fresh server and database, on a disk with nothing else waiting to be written
    (settle): (report, figures, errors, memory KiB)."""
    before = settle().format(seed=seed)
    with tempfile.TemporaryDirectory() as tmp:
        # Every phone of this load generator is 127.0.0.1: no cap of connections per client address.
        server = Gunicorn(Path(tmp) / 'load.sqlite', workers=args.workers, root=args.root,
                          env=UNCAPPED).start(timeout=90)
        try:
            out = multiprocessing.Queue()
            generator = multiprocessing.Process(target=generate, args=(server.url, server.process.pid, args, seed, out))
            generator.start()
            found = out.get()
            generator.join()
        finally:
            server.stop()
    return (found[0] + '\n' + before, *found[1:])


def spread(runs, push):
    """The runs side by side and their spread, as docs/speed.md has them; with --push, whether every run
    held PUSH_LIMITS."""
    shown = [kind for kind in KINDS if any(found[kind] for _, found, _, _ in runs)]
    lines = ['| run | ' + ' | '.join(f'{kind} p50 / p95 / p99 ms' for kind in shown) + ' | errors |'
             + (' memory, every stream open |' if push else ''),
             '|---:|' + '---|' * len(shown) + '---:|' + ('---:|' if push else '')]
    for n, (_, found, errors, memory) in enumerate(runs, 1):
        cells = [' / '.join(f'{v:.1f}' for v in found[kind]) if found[kind] else '–' for kind in shown]
        lines.append(f'| {n} | ' + ' | '.join(cells) + f' | {errors} |'
                     + (f' {memory / 1024:.0f} MiB |' if push and memory else (' – |' if push else '')))
    words = []
    for kind in shown:
        p95 = [found[kind][1] for _, found, _, _ in runs if found[kind]]
        words.append(f'{kind} p95 {min(p95):.1f}–{max(p95):.1f} ms')
    lines.append(f'\nSpread over the {len(runs)} runs: ' + ', '.join(words) + '.')
    if push:
        held = all(found[kind] and found[kind][1] <= limit and errors == 0
                   for _, found, errors, _ in runs for kind, limit in PUSH_LIMITS.items())
        lines.append('Within the limits (p95: ' + ', '.join(f'{kind} ≤ {limit} ms' for kind, limit in PUSH_LIMITS.items())
                     + f', no error) in every run: {"yes" if held else "no"}.')
    return '\n'.join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument('--tables', type=int, default=50)
    parser.add_argument('--viewers', type=int, default=4)
    parser.add_argument('--seconds', type=int, default=60, help='seconds measured, after the ramp')
    parser.add_argument('--ramp', type=int, default=15, help='seconds over which the clients join')
    parser.add_argument('--workers', type=int, default=2)
    parser.add_argument('--seed', type=int, default=1)
    parser.add_argument('--runs', type=int, default=1, help='runs one after the other, each on a fresh server')
    parser.add_argument('--root', default=str(ROOT), help='the checkout to serve (another one, to compare)')
    parser.add_argument('--self-entry', action='store_true', help='three viewers a table send their own hands')
    parser.add_argument('--push', action='store_true', help='viewers hold the live stream; a save every 20-40 s')
    args = parser.parse_args()
    runs = []
    for n in range(args.runs):
        runs.append(one_run(args, args.seed + n))
        print(runs[-1][0] + '\n', flush=True)
    if args.runs > 1:
        print(spread(runs, args.push))
    return 1 if any(errors for _, _, errors, _ in runs) else 0


if __name__ == '__main__':
    sys.exit(main())
