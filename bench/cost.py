"""What the push load costs the server in CPU, per piece, from /proc (the workers' user and system
time): a follower's sheet page, a poll of the live part answered 304, a live stream set up (opened until its first sheet arrives; and for a
phone that has the sheet already, until its first line: the set-up alone), and one save fanned out to every stream of its table while many other streams wait. CPU seconds do not
depend on what else the machine is doing, so this compares two versions of the code on a busy
machine, where timings would not (`--root` serves another checkout).

    .venv/bin/python bench/cost.py [--tables 100] [--root /path/to/other/checkout]
"""

import argparse
import asyncio
import re
import sys
import tempfile
import time
from pathlib import Path

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.machine import describe  # noqa: E402
from tests.server import ROOT, UNCAPPED, Gunicorn, cpu_seconds  # noqa: E402

PLAYERS = ['Ana', 'Bruno', 'Carla', 'Dan']


def workers_cpu(server):
    return sum(cpu_seconds(pid) for pid in server.workers_pids())


async def new_table(session, base):
    page = await (await session.get(base + '/games/new')).text()
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)
    form = {'csrf_token': token, 'first_dealer': '0', 'decks': 'auto', 'game': 'standard',
            **{f'players-{i}': p for i, p in enumerate(PLAYERS)}}
    r = await session.post(base + '/games/new', data=form, allow_redirects=False)
    return r.headers['Location']


async def save(session, base, game, number):
    page = await (await session.get(f'{base}{game}/rounds/{number}')).text()
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)
    version = re.search(r'name="version" value="(\d+)"', page).group(1)
    form = {'csrf_token': token, 'version': version, 'went_out': '0',
            **{f'entries-{s}-cards': '' for s in range(4)},
            **{f'entries-{s}-points': ('' if s == 0 else str(5 * s)) for s in range(4)}}
    r = await session.post(f'{base}{game}/rounds/{number}', data=form, allow_redirects=False)
    assert r.status == 302, r.status


async def measure(base, server, tables, streams_a_table, saves):
    jar = aiohttp.CookieJar(unsafe=True)
    keeper = aiohttp.ClientSession(cookie_jar=jar, timeout=aiohttp.ClientTimeout(total=60))
    followers = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=None, sock_read=120),
                                      connector=aiohttp.TCPConnector(limit=0))
    games = [await new_table(keeper, base) for _ in range(tables)]
    unfollowed = [await new_table(keeper, base) for _ in range(saves)]
    found = {}

    # A save and its round page on a game no one follows: what the fan-out below is compared with.
    before = workers_cpu(server)
    for game in unfollowed:
        await save(keeper, base, game, 1)
    alone = (workers_cpu(server) - before) / saves
    found['save and its round page, no one following'] = alone

    # A follower's sheet page, each game's first view in a new language cached as in the load test.
    before = workers_cpu(server)
    views = 0
    for game in games:
        for _ in range(streams_a_table):
            r = await followers.get(base + game)
            await r.read()
            views += 1
    found['sheet page (follower)'] = (workers_cpu(server) - before) / views

    # A polling page's look at the live part, nothing changed: 304 (its ETag from the first look).
    tags = {}
    for game in games:
        r = await followers.get(f'{base}{game}/live')
        await r.read()
        tags[game] = r.headers['ETag']
    before = workers_cpu(server)
    polls = 0
    for game in games:
        for _ in range(streams_a_table):
            r = await followers.get(f'{base}{game}/live', headers={'If-None-Match': tags[game]})
            await r.read()
            assert r.status == 304, r.status
            polls += 1
    found['live part polled, nothing changed (304)'] = (workers_cpu(server) - before) / polls

    # Streams set up: opened until their first sheet event is in.
    arrived, sheet_of = {}, {}           # game -> when each sheet came; the last sheet's id
    held = []

    async def hold(game):
        r = await followers.get(f'{base}{game}/events')
        held.append(r)
        first = asyncio.get_running_loop().create_future()
        async for line in r.content:
            if line.startswith(b'id: '):
                arrived.setdefault(game, []).append(time.monotonic())
                sheet_of[game] = line[4:].strip().decode()
                if not first.done():
                    first.set_result(True)
    before = workers_cpu(server)
    tasks = [asyncio.create_task(hold(game)) for game in games for _ in range(streams_a_table)]
    total = len(tasks)
    while sum(len(v) for v in arrived.values()) < total:
        await asyncio.sleep(0.05)
    found['stream set up'] = (workers_cpu(server) - before) / total

    # Quiet: what the held streams cost with nothing saved (the hub's look, the pings).
    await asyncio.sleep(1)
    before, started = workers_cpu(server), time.monotonic()
    await asyncio.sleep(5)
    idle = (workers_cpu(server) - before) / (time.monotonic() - started)
    found['idle, every stream open (CPU s a second)'] = idle

    # Saves, one at a time, each waited for until all its table's streams have the new sheet.
    spent, rounds = 0.0, 0
    for n in range(saves):
        game = games[n % len(games)]
        count = len(arrived.get(game, []))
        await asyncio.sleep(0.3)
        before, started = workers_cpu(server), time.monotonic()
        await save(keeper, base, game, n // len(games) + 1)
        while len(arrived.get(game, [])) < count + streams_a_table:
            await asyncio.sleep(0.005)
        spent += workers_cpu(server) - before - idle * (time.monotonic() - started)
        rounds += 1
    found['save and its round page, its table\'s streams following'] = spent / rounds
    found['so the fan-out of one save to its streams'] = spent / rounds - alone

    # Streams set up for a phone that has the sheet already (Last-Event-ID current, as after a reconnect):
    # the set-up alone (its look-ups, the hub, the response's head), opened until its first line is in.
    resumed = []

    async def resume(game):
        r = await followers.get(f'{base}{game}/events', headers={'Last-Event-ID': sheet_of[game]})
        held.append(r)
        async for line in r.content:
            if line.startswith(b'retry:'):
                resumed.append(game)
                break
        await asyncio.Event().wait()           # held open until cancelled
    before = workers_cpu(server)
    tasks += [asyncio.create_task(resume(game)) for game in games for _ in range(streams_a_table)]
    while len(resumed) < total:
        await asyncio.sleep(0.05)
    found['stream set up, its phone has the sheet'] = (workers_cpu(server) - before) / total
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    await keeper.close()
    await followers.close()
    return found, total


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument('--tables', type=int, default=100)
    parser.add_argument('--streams', type=int, default=5, help='streams a table')
    parser.add_argument('--saves', type=int, default=40)
    parser.add_argument('--root', default=str(ROOT), help='the checkout to serve')
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        server = Gunicorn(Path(tmp) / 'cost.sqlite', workers=2, root=args.root,
                          env=UNCAPPED).start(timeout=90)
        try:
            found, total = asyncio.run(measure(server.url, server, args.tables, args.streams, args.saves))
        finally:
            server.stop()
    print(f'CPU of the server\'s workers (user and system, from /proc), {args.tables} tables, {total} streams, '
          f'served from {args.root}. {describe()}\n')
    print('| piece | worker CPU ms |\n|---|---:|')
    for piece, seconds in found.items():
        print(f'| {piece} | {seconds * 1000:.2f} |')


if __name__ == '__main__':
    main()
