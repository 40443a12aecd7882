"""Helpers for the browser journeys: the app served on loopback, and Debian's Chromium at a phone viewport."""

import threading
from pathlib import Path

import pytest
from werkzeug.serving import make_server

ARTIFACTS = Path(__file__).parent / 'artifacts'
CHROMIUM = '/usr/bin/chromium'
PHONE = {'width': 360, 'height': 780}


class Server:
    """The app served by werkzeug in a thread on a free loopback port."""

    def __init__(self, app):
        self.server = make_server('127.0.0.1', 0, app, threaded=True)
        self.url = f'http://127.0.0.1:{self.server.server_port}'
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()


def launch(playwright):
    if not Path(CHROMIUM).exists():
        pytest.fail('Debian chromium is not installed (make test installs it)')
    return playwright.chromium.launch(
        executable_path=CHROMIUM,
        args=['--no-sandbox', '--headless', '--disable-gpu', '--disable-background-networking',
              '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'])


def phone(browser, dark=False):
    """A new context at a phone's size, with every request outside loopback refused and recorded."""
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True,
                                  color_scheme='dark' if dark else 'light')
    context.outside = []
    context.errors = []        # console errors: a script failing, or the CSP refusing something
    context.on('console', lambda message: message.type == 'error' and context.errors.append(message.text))

    def guard(route):
        url = route.request.url
        if url.startswith('http://127.0.0.1:') or url.startswith('data:'):
            route.continue_()
        else:
            context.outside.append(url)
            route.abort()
    context.route('**/*', guard)
    return context


def shot(page, name):
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f'{name}.png'), full_page=True)


def no_horizontal_scroll(page):
    return page.evaluate('document.documentElement.scrollWidth <= document.documentElement.clientWidth')


def table_fits(page):
    """The scoresheet fits its box without scrolling sideways."""
    return page.evaluate('(() => { const w = document.querySelector(".table-wrap"); return w.scrollWidth <= w.clientWidth; })()')
