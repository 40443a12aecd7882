"""Clients that a real deployment meets, for the tests and the benchmarks."""

import socket


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
