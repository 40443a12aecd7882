"""One client against the documented deploy (docs/deploy.md): the production recipe with the systemd
unit's settings (SCORER_PROXIES=1, the file limit LimitNOFILE=16384 gives, run here under prlimit),
Caddy in front with docs/deploy.md's site block (web/proxy.py: connections to the app kept, the
streams on connections of their own), and one client that opens 5,000 live streams through Caddy,
each one refused or cut opened again a second later, while a bystander (its own address) asks for a
game's live part every 50 ms through Caddy, and /health is asked every second. Run by `make stalls`
after bench/stalls.py.

Caddy serves plain HTTP here (the docs' Caddyfile serves HTTPS): what the app sees is the same (every
connection from Caddy, the client named in X-Forwarded-For), and the load generator is spared 5,000 TLS
handshakes on the server's cores. The attacking client runs in a process of its own at the load
generator's lowest priority (bench/load.py GENERATOR_NICE), as a real one runs on another machine;
the bystander and /health at the ordinary one.

It also gives what one refused stream costs each process: its CPU while attacked, less its CPU while
quiet, over the refusals the client got meanwhile (CPU time from /proc: the kernel's count, which a
shared machine's load moves far less than it moves wall time), and the attack's rate (refusals a
second). `--floor`: Caddy answers the streams' path 429 itself (`respond`), the app never asked: what
refusing costs at the least on this machine.

    .venv/bin/python bench/hostile_client.py [--streams 5000] [--seconds 20] [--root other/checkout] [--floor]
"""

import argparse
import multiprocessing
import os
import resource
import shutil
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.load import GENERATOR_NICE  # noqa: E402
from bench.machine import describe  # noqa: E402
from bench.stalls import Client, bystander, holders, quantiles  # noqa: E402
from tests.deployment import caddy_in_front  # noqa: E402
from tests.server import ROOT, Gunicorn, cpu_seconds, free_port  # noqa: E402

UNIT_FILES = 16384      # docs/deploy.md's unit: LimitNOFILE=16384
STREAMS = 5000          # what the one client opens


def health(port, stop, answers):
    """/health through Caddy every second, from an address of its own: its statuses."""
    client = Client(port, '127.0.0.3', timeout=10)
    while not stop.is_set():
        try:
            status = client.request('GET', '/health')[0]
        except OSError:
            status = 'failed'
        answers[status] = answers.get(status, 0) + 1
        stop.wait(1)


def timed(port, game, seconds):
    """The bystander's times (ms) and failures, from a process of its own."""
    out = multiprocessing.Queue()
    watcher = multiprocessing.Process(target=bystander, args=(port, game, seconds, out))
    watcher.start()
    found = out.get()
    watcher.join()
    return found


def processes(server, caddy, attacker=None):
    """{name: pid} of each process whose CPU a figure reports: gunicorn's master, each of its workers,
    Caddy, and the attacking client's own process."""
    found = {'the master': server.process.pid, **{f'worker {n}': pid for n, pid in enumerate(server.workers_pids(), 1)},
             'Caddy': caddy.pid}
    return {**found, 'the attacker': attacker.pid} if attacker else found


def waited_seconds(pid):
    """The time a process's threads have spent ready to run but waiting for a core, in seconds (the
    second field of each /proc/<pid>/task/<tid>/schedstat, summed: the threads alive now)."""
    total = 0
    for task in Path(f'/proc/{pid}/task').iterdir():
        try:
            total += int((task / 'schedstat').read_text().split()[1])
        except (FileNotFoundError, ProcessLookupError):      # a thread that ended meanwhile
            pass
    return total / 1e9


def cpu_while(pids, work, done=None):
    """work()'s answer, and for each process of `pids` ({name: pid}) what it used meanwhile: its CPU in
    cores (CPU seconds a second, user and system, from /proc: what the rest of the machine does counts
    less) and the time it waited for a core (seconds a second: a busy machine's share)."""
    def used(pid):
        try:
            return cpu_seconds(pid), waited_seconds(pid)
        except FileNotFoundError:          # gone meanwhile (a worker replaced): no figure
            return float('nan'), float('nan')
    before, started, first = {k: used(pid) for k, pid in pids.items()}, time.monotonic(), done and done.value
    answer = work()
    elapsed = time.monotonic() - started
    after = {k: used(pid) for k, pid in pids.items()}
    used_ = {k: tuple((a - b) / elapsed for a, b in zip(after[k], before[k])) for k in pids}
    if done is None:
        return answer, used_
    return answer, used_, (done.value - first) / elapsed


class Tally(dict):
    """The attacker's answers by status, each also added to `refused` (a shared count: the refusals made
    while the bystander is timed, read from the bench's own process)."""

    def __init__(self, refused):
        super().__init__()
        self.refused = refused

    def __setitem__(self, status, count):
        with self.refused.get_lock():
            self.refused.value += count - self.get(status, 0)
        super().__setitem__(status, count)


def attack(port, game, streams, stop, out, refused):
    """The attacking client's process, at the load generator's priority (bench/load.py GENERATOR_NICE: a
    real attacker is another machine, this one shares the server's cores): `streams` live streams held
    through Caddy until `stop`, each one refused or cut opened again a second later; its answers on `out`,
    and their running total in `refused`."""
    os.nice(GENERATOR_NICE)
    counts = Tally(refused)

    def make():
        sock = socket.create_connection(('127.0.0.1', port), timeout=5)
        sock.sendall(f'GET {game}/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n'.encode())
        return sock
    threads = holders(None, stop, make, streams, counts)
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    out.put(dict(counts))


def run(root, streams, seconds, own_address=True, floor=False):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))          # the attacker's own sockets
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        streams_port = free_port() if own_address else None          # docs/deploy.md's unit: SCORER_STREAMS_BIND
        env = {'SCORER_PROXIES': '1', **({'SCORER_STREAMS_BIND': f'127.0.0.1:{streams_port}'} if own_address else {})}
        server = Gunicorn(folder / 'hostile.sqlite', root=root, prefix=['prlimit', f'--nofile={UNIT_FILES}:{UNIT_FILES}'],
                          log=folder / 'server.log', env=env).start(timeout=90)
        port, caddy = caddy_in_front(folder, server.port, streams_port, refuse_streams=floor)
        try:
            game = Client(port, '127.0.0.2').new_game(['Ana', 'Bruno', 'Carla', 'Dan'])
            quiet, quiet_cpu = cpu_while(processes(server, caddy), lambda: timed(port, game, seconds))
            stop, statuses, answers = multiprocessing.Event(), {}, multiprocessing.Queue()
            refused = multiprocessing.Value('l', 0)
            attacker = multiprocessing.Process(target=attack, args=(port, game, streams, stop, answers, refused))
            watcher = threading.Thread(target=health, args=(port, stop, statuses), daemon=True)
            attacker.start()
            watcher.start()
            time.sleep(2)                                    # the attack under way
            attacked, cpu, rate = cpu_while(processes(server, caddy, attacker), lambda: timed(port, game, seconds),
                                            refused)
            stop.set()
            counts = answers.get(timeout=60)
            attacker.join(60)
            watcher.join(60)
        finally:
            caddy.kill()
            caddy.wait()
            server.stop()
        errors = [line for line in (folder / 'server.log').read_text().splitlines() if 'Too many open files' in line]
    return quiet, attacked, counts, statuses, len(errors), {'quiet': quiet_cpu, 'attacked': cpu}, rate


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument('--streams', type=int, default=STREAMS)
    parser.add_argument('--seconds', type=int, default=20, help='seconds the bystander is timed, quiet and attacked')
    parser.add_argument('--root', default=str(ROOT), help='the checkout to serve (another one, to compare)')
    parser.add_argument('--one-address', action='store_true',
                        help='the streams on the pages\' address (no SCORER_STREAMS_BIND: the code before, to compare)')
    parser.add_argument('--floor', action='store_true',
                        help='Caddy answers the streams\' path 429 itself, the app never asked: the floor')
    args = parser.parse_args()
    if not shutil.which('caddy') or not shutil.which('prlimit'):
        sys.exit('caddy and prlimit are needed (make test installs caddy)')
    quiet, attacked, counts, statuses, errors, cpu, rate = run(args.root, args.streams, args.seconds,
                                                               not args.one_address, args.floor)
    print(f'One client (127.0.0.1) holds {args.streams} live streams through Caddy (each refused or cut opened again a '
          f'second later) against the production recipe with the systemd unit\'s settings (SCORER_PROXIES=1, '
          f'LimitNOFILE={UNIT_FILES} by prlimit), served from {args.root}; a bystander (127.0.0.2) GETs a game\'s live '
          f'part through Caddy every 50 ms for {args.seconds} s, quiet and then attacked. {describe()}\n')
    print('| phase | bystander p50 ms | p95 ms | max ms | failed | p95 / quiet p95 |\n|---|---:|---:|---:|---:|---:|')
    q95 = quantiles(quiet[0])[1]
    for phase, (times, failures) in (('quiet', quiet), ('5,000 streams' if args.streams == 5000 else
                                                          f'{args.streams} streams', attacked)):
        p50, p95, most = quantiles(times)
        ratio = f'{p95 / q95:.1f}×' if p95 and q95 else '–'
        cells = [f'{v:.1f}' if v is not None else '–' for v in (p50, p95)] + [f'{most:.0f}' if most else '–']
        print(f'| {phase} | {" | ".join(cells)} | {failures} | {ratio} |')
    print(f'\nThe client\'s answers: {", ".join(f"{k}: {v}" for k, v in sorted(counts.items(), key=str))}. '
          f'/health meanwhile: {", ".join(f"{k}: {v}" for k, v in sorted(statuses.items(), key=str))}. '
          f'"Too many open files" in the server\'s log: {errors}.\n')
    print('Each process while the bystander is timed, from /proc: its CPU in cores (CPU seconds a second) / the '
          'time its threads waited for a core (seconds a second):\n')
    names = list(cpu['attacked'])
    print('| phase | ' + ' | '.join(names) + ' |\n|---|' + '---:|' * len(names))
    for phase, used in cpu.items():
        print(f'| {phase} | ' + ' | '.join(f'{used[k][0]:.2f} / {used[k][1]:.2f}' if k in used else '–' for k in names)
              + ' |')
    print(f'\nWhile the bystander was timed, the client was answered {rate:.0f} times a second (its streams refused or '
          f'cut: each one opened again). CPU ms a refused stream, each process (its CPU while attacked less its '
          f'CPU while quiet, over those answers):\n')
    print('| ' + ' | '.join(names) + ' |\n|' + '---:|' * len(names))
    print('| ' + ' | '.join(f'{1000 * (cpu["attacked"][k][0] - cpu["quiet"].get(k, (0,))[0]) / rate:.3f}'
                            if rate else '–' for k in names) + ' |')
    print()
    p95 = quantiles(attacked[0])[1]
    held = p95 is not None and q95 and p95 <= 2 * q95 and set(statuses) == {200} and not attacked[1]
    print(f'Bystander\'s p95 within 2× of quiet, every /health 200, nothing failed: {"yes" if held else "no"}.')
    return 0 if held else 1


if __name__ == '__main__':
    sys.exit(main())
