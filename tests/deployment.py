"""Clients that a real deployment meets, for the tests and the benchmarks."""

import os
import socket
import subprocess
import time

from tests.server import free_port
from web.proxy import STREAMS, reverse_proxy, site_body


def slow_client(port, stop, connected=None):
    """A client that sends one header line a second and never finishes its request (until `stop`);
    `connected` (an Event) is set once its request has begun."""
    try:
        with socket.create_connection(('127.0.0.1', port)) as s:
            s.sendall(b'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n')
            if connected is not None:
                connected.set()
            while not stop.is_set():
                s.sendall(b'X-Slow: 1\r\n')
                stop.wait(1)
    except OSError:             # the server hung up (or stopped): this client is done
        pass


def connect(port, source='127.0.0.1', timeout=10):
    """A raw connection to the server from a loopback address of our choosing (127.0.0.2 is another client)."""
    return socket.create_connection(('127.0.0.1', port), timeout=timeout, source_address=(source, 0))


def head_of(sock):
    """What the server sent until the end of its response's head (b'' if it hung up first)."""
    data = b''
    while b'\r\n\r\n' not in data:
        try:
            chunk = sock.recv(65536)
        except OSError:
            break
        if not chunk:
            break
        data += chunk
    return data


def get(port, path, source='127.0.0.1', timeout=10, headers=''):
    """One GET on a connection of its own: (status, the response's head and what came with it)."""
    with connect(port, source, timeout) as sock:
        sock.sendall(f'GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n{headers}\r\n'.encode())
        data = b''
        while True:
            chunk = sock.recv(65536)
            if not chunk:
                break
            data += chunk
    return int(data.split(b' ', 2)[1]) if data.startswith(b'HTTP/') else 0, data


def served_again(port, path, source='127.0.0.1', seconds=30):
    """Whether a GET of `path` is answered 200 within `seconds` (a hang guard, not a pace): asked every
    tenth of a second, as what frees a slot (a stream's next ping, a new worker) comes when it comes."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if get(port, path, source, timeout=5)[0] == 200:
                return True
        except OSError:           # refused or unanswered meanwhile (a worker starting): ask again
            pass
        time.sleep(0.1)
    return False


def caddyfile(folder, port, app, streams=None, refuse_streams=False):
    """A Caddyfile serving plain HTTP on `port` (no certificates: what the app sees is the same) with the
    site block of docs/deploy.md (web/proxy.py) in front of the app on port `app` (its live streams on
    port `streams`, if given: SCORER_STREAMS_BIND); `refuse_streams`: Caddy answers every live stream 429
    itself, the app never asked (bench/hostile_client.py --floor: what refusing costs at the least)."""
    data = folder / 'caddy-data'
    body = site_body(f'127.0.0.1:{app}', f'127.0.0.1:{streams}' if streams else None)
    if refuse_streams:
        body = (f'\t@streams path {STREAMS}\n\thandle @streams {{\n\t\trespond "Too many" 429\n\t}}\n'
                f'\thandle {{\n{reverse_proxy(f"127.0.0.1:{app}", chr(9) * 2)}\n\t}}')
    return (f'{{\n\tadmin off\n\tauto_https off\n\tstorage file_system {data}\n\thttp_port {port}\n}}\n'
            f'http://127.0.0.1:{port} {{\n{body}\n}}\n')


def caddy_in_front(folder, app_port, streams_port=None, refuse_streams=False):
    """Caddy (Debian's) on a free port in front of the app (its live streams to `streams_port`, if given),
    as docs/deploy.md sets it: (its port, its process, run in a session of its own)."""
    port = free_port()
    (folder / 'Caddyfile').write_text(caddyfile(folder, port, app_port, streams_port, refuse_streams))
    home = folder / 'caddy-home'
    home.mkdir(exist_ok=True)
    caddy = subprocess.Popen(['caddy', 'run', '--config', str(folder / 'Caddyfile'), '--adapter', 'caddyfile'],
                             env={**os.environ, 'HOME': str(home), 'XDG_DATA_HOME': str(home)},
                             start_new_session=True, stdout=subprocess.DEVNULL, stderr=open(folder / 'caddy.log', 'w'))
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            socket.create_connection(('127.0.0.1', port), timeout=1).close()
            return port, caddy
        except OSError:
            time.sleep(0.1)
    caddy.kill()
    raise RuntimeError('Caddy did not start')
