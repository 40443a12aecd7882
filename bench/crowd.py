"""One game followed by many phones (a tournament screen, a classroom): N live streams on one game
against the production recipe, a round saved, and how long until each stream has the new sheet.
Also the server's memory with the streams held, and after they leave. `make crowd` (figures in
docs/speed.md)."""

import argparse
import os
import selectors
import socket
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.quantiles import cut             # noqa: E402
from tests.browser import Browser          # noqa: E402
from tests.server import UNCAPPED, Gunicorn  # noqa: E402


def resident_mib(pid):
    """Resident memory of a process and its children (the gunicorn master and workers), MiB."""
    total = 0
    for stat in Path('/proc').glob('[0-9]*/stat'):
        try:
            fields = stat.read_text().rsplit(')', 1)[1].split()
            if int(stat.parent.name) == pid or int(fields[1]) == pid:
                total += int((stat.parent / 'statm').read_text().split()[1]) * os.sysconf('SC_PAGE_SIZE')
        except (OSError, ValueError):
            pass
    return total / 2 ** 20


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument('--followers', type=int, default=1000)
    parser.add_argument('--saves', type=int, default=2)     # a wave's saves
    parser.add_argument('--waves', type=int, default=5)     # at most 11 rounds: waves x saves <= 11
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        # Pings every 2 s: a stream whose phone left is noticed at its next ping (15 s in production).
        # The 1,000 phones are all 127.0.0.1 here: no cap of connections per client address.
        server = Gunicorn(Path(folder) / 'crowd.sqlite', env={'SCORER_LIVE_KEEPALIVE': '2',
                                                              **UNCAPPED}).start()
        try:
            keeper = Browser(server.url)
            game = keeper.new_game(['Ana', 'Bruno', 'Carla', 'Dan']).replace(server.url, '')
            before = resident_mib(server.process.pid)
            number = 0
            for wave in range(1, args.waves + 1):       # the same crowd comes again: memory is reused
                selector = selectors.DefaultSelector()
                opened = time.monotonic()
                streams = []
                for _ in range(args.followers):
                    sock = socket.create_connection(('127.0.0.1', server.port), timeout=30)
                    sock.sendall(f'GET {game}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'.encode())
                    streams.append(sock)
                for sock in streams:                     # every stream open: its first sheet arrived
                    data = b''
                    while b'event: sheet' not in data:
                        data += sock.recv(65536)
                    sock.setblocking(False)
                    selector.register(sock, selectors.EVENT_READ)
                opening = time.monotonic() - opened
                held = resident_mib(server.process.pid)
                delays = []
                for _ in range(args.saves):
                    number += 1
                    _, page = keeper.get(f'{game}/rounds/{number}')
                    fields = {'csrf_token': Browser.token(page), 'version': '0', 'went_out': '0',
                              **{f'entries-{i}-cards': '' for i in range(4)},
                              **{f'entries-{i}-points': '' if i == 0 else '5' for i in range(4)}}
                    waiting = set(streams)
                    saved = time.monotonic()
                    assert keeper.post(f'{game}/rounds/{number}', fields)[0] == 302
                    while waiting and time.monotonic() - saved < 60:
                        for key, _ in selector.select(timeout=1):
                            data = key.fileobj.recv(1 << 20)          # pings and the new sheet
                            if b'event: sheet' in data and key.fileobj in waiting:
                                waiting.discard(key.fileobj)
                                delays.append(time.monotonic() - saved)
                for sock in streams:
                    sock.close()
                time.sleep(5)                            # past the next ping: every stream has ended
                after = resident_mib(server.process.pid)
                delays.sort()
                print(f'wave {wave}: {args.followers} streams on one game, production recipe (2 gevent workers): all '
                      f'open in {opening:.1f} s; save to follower over {args.saves} saves: median '
                      f'{statistics.median(delays) * 1000:.0f} ms, p95 {cut(delays, 95)[0] * 1000:.0f} ms, '
                      f'max {delays[-1] * 1000:.0f} ms ({len(delays)} of {args.followers * args.saves} arrived); '
                      f'server memory {before:.0f} MiB before the first wave, {held:.0f} MiB with the streams held, '
                      f'{after:.0f} MiB after they left')
        finally:
            server.stop()


if __name__ == '__main__':
    main()
