"""One rule for how a sheet's players share its width (issue 48): the screen's (static/js/shares.js,
which sheet.js calls with the widths it measures) and paper's (web/export.py shares(), which
names_set's columns come from) give the same widths on the same cases, run side by side: the
JavaScript in Node, the Python here. Change either alone and this fails."""

import json
import random

import pytest

import web.export
from tests.helpers import LANGUAGES, new_game
from tests.screens import CAST, WIDEST
from tests.test_offline_one_place import NODE, STATIC, node

# The players of the printed cases: 2 to 8 of them, short, long (30 letters, hyphenated), CJK and the
# widest names there are (thirty W's, thirty Chinese characters).
TABLES = [('Ana', 'Bo'), ('Ana', 'Featherstonehaugh-Cholmondeley'), ('王小明', 'さくら', 'Zoë'), WIDEST[:4],
          CAST[:5], (*CAST[:3], *WIDEST[:3]), CAST[:7], CAST, WIDEST]


def printed_cases(client):
    """The (needs, room) names_set shares on paper, as every table above prints in every language
    and both games: caught on their way to shares()."""
    caught, shares = [], web.export.shares
    def catch(needs, room):
        caught.append((list(needs), room))
        return shares(needs, room)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(web.export, 'shares', catch)
        for game in ('standard', 'five_crowns'):
            for players in TABLES:
                url = new_game(client, players[:7] if game == 'five_crowns' else players, game=game)   # 7 at most
                for language in LANGUAGES:
                    client.set_cookie('lang', language)
                    assert client.get(url + '/print').status_code == 200
    return caught


def screen_cases():
    """Widths as sheet.js measures them, px: 2 to 8 columns of 30-400 px in boxes of 280-1900 px,
    with ties, one very wide column, and needs that pass the box (the box then scrolls)."""
    pick = random.Random(48)
    cases = [([60.5, 60.5, 60.5], 300), ([250, 40], 300), ([120, 120, 40, 40], 300), ([200, 190], 300),
             ([33.25] * 8, 266)]
    for _ in range(300):
        n = pick.randint(2, 8)
        cases.append(([round(pick.uniform(30, 400), 2) for _ in range(n)], round(pick.uniform(280, 1900), 2)))
    return cases


@pytest.mark.skipif(NODE is None, reason='node is installed with the npm tools (make node_modules/.ci)')
def test_the_screen_and_paper_share_a_sheets_width_by_one_rule(client):
    cases = printed_cases(client) + screen_cases()
    assert len(cases) > 100 and any(len(needs) == 8 for needs, _ in cases)
    screen = node(f"""
        import {{ shares }} from {json.dumps((STATIC / 'js' / 'shares.js').as_uri())};
        console.log(JSON.stringify({json.dumps(cases)}.map(([needs, room]) => shares(needs, room))));""")
    paper = [web.export.shares(needs, room) for needs, room in cases]
    differ = [(case, s, p) for case, s, p in zip(cases, screen, paper)
              if len(s) != len(p) or any(abs(a - b) > 1e-6 for a, b in zip(s, p))]
    assert differ == [], differ[:3]
    # and the rule is the one issue 48 asks for: the widest held at their need, the rest alike
    assert web.export.shares([250, 40], 300) == [250, 50] and web.export.shares([100, 20, 30], 200) == [100, 50, 50]
