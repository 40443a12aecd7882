"""Every request body arrives within BODY_SECONDS or gets 408, on the production recipe: announced by
Content-Length (tests/test_endurance.py sends those a byte a second) or chunked, which was read by the
app with no deadline at all; a chunked body read whole still works, and one too large gets 413."""

from urllib.parse import urlencode

import pytest

from tests.browser import Browser
from tests.deployment import connect, head_of
from tests.helpers import PATIENCE
from tests.server import Gunicorn

pytestmark = [pytest.mark.slow, pytest.mark.serial]   # the production recipe, and deadlines: the machine to itself


@pytest.fixture
def served(tmp_path):
    server = Gunicorn(tmp_path / 'bodies.sqlite', workers=1, env={'SCORER_BODY_SECONDS': '2'}).start()
    try:
        yield server
    finally:
        server.stop()


def chunked_post(server, path, chunks, cookie='', language='en'):
    """A POST whose body comes in these chunks, and then the end of the body only if `chunks` says None last."""
    sock = connect(server.port, timeout=PATIENCE)
    sock.sendall(f'POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n'
                 f'Content-Type: application/x-www-form-urlencoded\r\nAccept-Language: {language}\r\n'
                 f'Cookie: {cookie}\r\n\r\n'.encode())
    for chunk in chunks:
        sock.sendall(b'0\r\n\r\n' if chunk is None else b'%x\r\n%s\r\n' % (len(chunk), chunk))
    return sock


def test_a_chunked_body_that_stops_gets_408(served):
    """Before, a chunked body had no deadline at all: these would wait for their bodies for ever (the
    test's hang guard, not a clock here, says so)."""
    stalled = [chunked_post(served, '/games/new', [b'players-0=Ana&']) for _ in range(5)]
    heads = [head_of(sock) for sock in stalled]
    assert all(h.startswith(b'HTTP/1.1 408') for h in heads), heads
    late = chunked_post(served, '/games/new', [b'players-0=Ana&'], language='es')
    assert 'Tardó demasiado'.encode() in late.recv(65536) + late.recv(65536)      # the app's page, in the page's language
    for sock in stalled + [late]:
        sock.close()


def test_a_whole_chunked_body_is_read_and_one_too_large_is_refused(served):
    browser = Browser(served.url)
    _, page = browser.get('/games/new')
    jar = next(h.cookiejar for h in browser.opener.handlers if hasattr(h, 'cookiejar'))
    cookie = '; '.join(f'{c.name}={c.value}' for c in jar)
    form = urlencode({'csrf_token': Browser.token(page), 'players-0': 'Ana', 'players-1': 'Bruno',
                      'first_dealer': '0', 'decks': 'auto'}).encode()
    sock = chunked_post(served, '/games/new', [form[:40], form[40:], None], cookie=cookie)
    assert head_of(sock).startswith(b'HTTP/1.1 302')
    sock.close()
    big = chunked_post(served, '/games/new', [b'x' * 65536] * 5 + [None], cookie=cookie)
    assert head_of(big).startswith(b'HTTP/1.1 413')
    big.close()
