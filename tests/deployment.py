"""Clients that a real deployment meets, for the tests and the benchmarks."""

import socket
import time


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
