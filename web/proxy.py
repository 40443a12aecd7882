"""The reverse proxy in front (Caddy): the site block of docs/deploy.md's Caddyfiles (a `reverse_proxy`
for the live streams, one for the rest), written here once from the app's own numbers, so that the
docs (by cog), bench/hostile_client.py, tests/test_caddy.py and tests/test_connections.py run the
same recipe.

What it holds to, and why (issue 47: one client's 5,000 live streams through Caddy):
- **Connections to the app are kept and reused.** Every request through the proxy needs a connection
  to the app; one the app closes makes the proxy open another, through the app's listen queue. A
  client refused thousands of times a second (the per-client cap, web/worker.py) would fill that
  queue, and a bystander's request waiting to be connected there waits seconds (the kernel's SYN
  retries: 1 s, 3 s, ...). So the app answers a refused request without closing the proxy's
  connection (web/worker.py), and the proxy keeps up to IDLE_CONNECTIONS of them idle for its next
  requests, each for fewer seconds than the app waits for a next request (IDLE_SECONDS below the
  app's KEEPALIVE), so the proxy never sends a request on a connection the app is closing.
- **Live streams have a pool of their own, and an address of their own.** /games/<id>/events is proxied
  by its own `reverse_proxy` (its own transport: its own connections), to the app's second address
  (SCORER_STREAMS_BIND, gunicorn.conf.py) where one is given, so a crowd of streams, or a client
  refused stream after stream, never takes the connections the pages and the live part are served on,
  nor fills the listen queue a page's new connection waits in (one client's 5,000 streams once kept
  that queue full, each new connection to the app then waiting 1 s, 3 s, ... for its SYN to be
  taken again).
"""

from .worker import KEEPALIVE

IDLE_SECONDS = KEEPALIVE - 1     # the proxy drops an idle connection before the app would
IDLE_CONNECTIONS = 1024          # idle connections the proxy keeps to the app, a pool (each holds one of its slots)
STREAMS = '/games/*/events'      # the live streams' path, proxied on connections of their own


def reverse_proxy(upstream, indent='\t'):
    """One `reverse_proxy` directive to `upstream` (host:port): streams passed through unbuffered,
    connections kept as above."""
    lines = [f'reverse_proxy {upstream} {{', '\tflush_interval -1', '\ttransport http {',
             f'\t\tkeepalive {IDLE_SECONDS}s', f'\t\tkeepalive_idle_conns_per_host {IDLE_CONNECTIONS}', '\t}', '}']
    return '\n'.join(indent + line for line in lines)


def site_body(upstream, streams=None, indent='\t'):
    """What a site's block holds: the streams on their own proxy (to the app's `streams` address, if
    given), everything else on another."""
    inner = indent + '\t'
    return '\n'.join([f'{indent}@streams path {STREAMS}', f'{indent}handle @streams {{',
                      reverse_proxy(streams or upstream, inner), f'{indent}}}', f'{indent}handle {{',
                      reverse_proxy(upstream, inner), f'{indent}}}'])
