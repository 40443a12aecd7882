"""The README's pictures as the app draws them now: the shared picture (PNG, from the server) and
the big screen at 1280 x 720 (Chromium), for one four-player game after seven rounds."""

import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app import create_app                       # noqa: E402
from tests.helpers import new_game_form, round_form   # noqa: E402

PLAYERS = ['Ana', 'Bruno', 'Carla', 'Dan']
SCORES = [(0, [None, '12', '0', '27']), (2, ['8', '31', None, '5']), (3, ['0', '14', '22', None]),
          (0, [None, '40', '9', '18']), (1, ['25', None, '0', '33']), (2, ['6', '19', None, '0']),
          (0, [None, '10', '29', '11'])]


def main():
    from playwright.sync_api import sync_playwright
    from tests.browser import launch
    from tests.server import Server
    folder = tempfile.mkdtemp()
    app = create_app({'TESTING': True, 'DATABASE': os.path.join(folder, 'readme.sqlite'), 'SECRET_KEY': 'readme',
                      'WTF_CSRF_ENABLED': False})
    client = app.test_client()
    url = client.post('/games/new', data=new_game_form(PLAYERS, title='Friday at Carla’s', place='Lisbon'))
    url = url.headers['Location']
    for n, (out, points) in enumerate(SCORES, 1):
        assert client.post(f'{url}/rounds/{n}', data=round_form(out, points=points)).status_code == 302
    (ROOT / 'docs' / 'picture.png').write_bytes(client.get(f'{url}/picture.png?lang=en').data)
    with Server(app) as server, sync_playwright() as p:
        browser = launch(p)
        page = browser.new_page(viewport={'width': 1280, 'height': 720})
        page.goto(f'{server.url}{url}/tv?lang=en')
        page.wait_for_load_state('load')
        page.screenshot(path=str(ROOT / 'docs' / 'big-screen.png'))
        browser.close()
    print('docs/picture.png and docs/big-screen.png written')


if __name__ == '__main__':
    main()
