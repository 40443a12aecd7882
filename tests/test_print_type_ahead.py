"""The print's measure is read before the first request (issue 48): a fresh process's app has the
Latin files of the print's type read at its start (create_app), so its first printed sheet reads no
font file on the server's event loop (before: 17-64 ms of CPU, once a process), in any language."""

import json
import subprocess
import sys
from pathlib import Path

from tests.helpers import PATIENCE

ROOT = Path(__file__).resolve().parent.parent

FRESH = """
import json, sys
from app import create_app
from tests.helpers import LANGUAGES, LOOSE_RATES, new_game
from web import typeface
app = create_app({'TESTING': True, 'DATABASE': sys.argv[1], 'SECRET_KEY': 'ahead', 'WTF_CSRF_ENABLED': False,
                  **LOOSE_RATES})
client = app.test_client()
url = new_game(client, ('Featherstonehaugh-Cholmondeley', 'María Ñúñez', 'Zoë Ørsted', 'Nguyễn Thị Minh Khai'))
read = lambda: (typeface.characters.cache_info().misses, typeface.advances.cache_info().misses)
before = read()
printed = [client.get(url + '/print').status_code for language in LANGUAGES if client.set_cookie('lang', language) or True]
print(json.dumps({'before': before, 'after': read(), 'printed': printed}))
"""


def test_a_fresh_app_has_read_the_prints_type_before_its_first_printed_sheet(tmp_path):
    done = subprocess.run([sys.executable, '-c', FRESH, str(tmp_path / 'ahead.sqlite')], cwd=ROOT, capture_output=True,
                          text=True, timeout=PATIENCE, check=True)
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen['printed'] and set(seen['printed']) == {200}
    assert seen['before'][0] > 0 and seen['before'][1] > 0          # read at the start
    assert seen['after'] == seen['before'], 'the first printed sheets read font files'
