"""The games the screen tests look at, and what they look for: real names (accents over capitals,
30 characters, Chinese), 2, 4 and 8 players, made quickly through the forms; and the checks a
person makes with their eyes, as scripts: no text cut by its box or lying on another text, no
sideways scroll, the smallest type on the screen."""

import collections
import json

from tests.helpers import new_game, play_rounds

# Long names of every kind the sheet meets: a 30-character name, capitals with accents (the tilde
# of Ñ is the first thing a tight box cuts), stacked Vietnamese marks, and Chinese, short and of
# 30 characters.
CAST = ('Bartholomew Featherstonehaugh', 'María de las Nieves Ñúñez', 'Christopher Montgomery-Smythe', '欧阳志远',
        'Nguyễn Thị Minh Khai', 'Zoë', 'Ñandú Ángel Ölçer de la Peña', '诸葛亮孔明之卧龙先生南阳躬耕于隆中好为梁父吟每自比于管仲乐毅')
# The widest names there are: 30 characters each, the broadest Latin letters and Chinese.
WIDEST = ('Maximilian Wolfgang Wertheimer', 'WWWWWWWWWWWWWWWWWWWWWWWWWWWWWW', '诸葛亮孔明之卧龙先生南阳躬耕于隆中好为梁父吟每自比于管仲乐毅',
          'Ñandú Ángel Ölçer de la Peña Ñ', 'MMMMMMMMMMMMMMM MMMMMMMMMMMMMM', '欧阳志远欧阳志远欧阳志远欧阳志远欧阳志远欧阳志远欧阳志远欧阳',
          'Guðmundur Þórarinsson-Ævarsson', 'Wolfgang Amadeus Mozart-Müller')
TITLE = 'Noche de cartas en la cabaña del lago: los Featherstonehaugh y los Ñúñez Ortiz'    # 78 characters
PLACE = 'Cabaña «Los Álamos», camino viejo a San Martín de los Andes, Neuquén, Argentina'    # 79


def cast(players, names=CAST):
    return names[:players]


def make_game(client, players, rounds=0, names=CAST, **settings):
    """A game of the first `players` names with `rounds` rounds played as points (play_rounds' own:
    seat n % players goes out in round n, the others score its spread); its sheet's URL."""
    url = new_game(client, cast(players, names), **settings)
    play_rounds(client, url, rounds, players)
    return url


def cookies_of(client, url):
    """The test client's browser cookie for a Playwright context: the same browser, keeping its games."""
    return [{'name': 'browser', 'value': client.get_cookie('browser').value, 'url': url}]


# Every text on the screen as the boxes its lines take, each checked against the boxes that
# clip it (an ancestor with overflow other than visible: a cut name, a clipped accent) and
# against every other text (two captions run together). A box that scrolls does not cut what it
# holds (sideways() says which boxes scroll sideways). Text a script hides
# on purpose (hidden, visually-hidden, a closed <details>) is not looked at.
TEXT_PROBLEMS = r'''(scope) => {
  const root = scope ? document.querySelector(scope) : document.body;
  const seen = (el) => {
    if (el.closest('[hidden], .visually-hidden, script, style, title, desc, template, details:not([open]) > :not(summary)')) return false;
    const s = getComputedStyle(el);
    return s.visibility !== 'hidden' && s.display !== 'none' && parseFloat(s.opacity) > 0 && el.getClientRects().length > 0;
  };
  // a name no line holds even in 12 px (thirty W's on a phone), or an untitled game's title (its
  // players' names on one line), shortened on purpose with "…" and whole in its title
  // (static/js/names.js, style.css; test_screens.py's NAMES_WHOLE checks where else it is whole)
  const shortened = (el) => el.matches('bdi.cut, h1.names') && el.title === el.textContent;
  const texts = [], problems = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode, el = node.parentElement;
    if (!node.textContent.trim() || !el || !seen(el)) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const rects = [...range.getClientRects()].filter((r) => r.width > 0.5 && r.height > 0.5);
    const text = node.textContent.trim().slice(0, 40);
    for (const r of rects) texts.push({ el, r, text });
    // cut: an ellipsis drawn, or the text beyond a box that clips it
    const s = getComputedStyle(el);
    if (s.textOverflow === 'ellipsis' && el.scrollWidth > el.clientWidth + 1 && !shortened(el)) problems.push(`cut (ellipsis): ${text}`);
    for (let a = el; a && a !== document.documentElement; a = a.parentElement) {
      if (shortened(a)) continue;
      const c = getComputedStyle(a);
      // a box that scrolls shows the rest when scrolled (sideways() reports those); one that clips cuts
      const clipX = ['hidden', 'clip'].includes(c.overflowX), clipY = ['hidden', 'clip'].includes(c.overflowY);
      if (!clipX && !clipY) continue;
      const b = a.getBoundingClientRect();
      const inner = { left: b.left + a.clientLeft, top: b.top + a.clientTop };
      inner.right = inner.left + a.clientWidth; inner.bottom = inner.top + a.clientHeight;
      const out = rects.some((r) => (clipX && (r.left < inner.left - 1 || r.right > inner.right + 1)) ||
                                    (clipY && (r.top < inner.top - 1.5 || r.bottom > inner.bottom + 1.5)));
      if (out) { problems.push(`cut by ${a.tagName.toLowerCase()}.${[...a.classList].join('.')}: ${text}`); break; }
    }
  }
  // overlaps: two texts of different elements whose boxes share more than a sliver
  const core = (r) => ({ left: r.left + 0.5, right: r.right - 0.5, top: r.top + r.height * 0.2, bottom: r.bottom - r.height * 0.2 });
  for (let i = 0; i < texts.length; i++) {
    for (let j = i + 1; j < texts.length; j++) {
      const a = texts[i], b = texts[j];
      if (a.el === b.el || a.el.contains(b.el) || b.el.contains(a.el)) continue;
      const p = core(a.r), q = core(b.r);
      if (Math.min(p.right, q.right) - Math.max(p.left, q.left) > 1 && Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top) > 1)
        problems.push(`overlap: ${a.text} / ${b.text}`);
    }
  }
  return [...new Set(problems)];
}'''

# The smallest type a person is meant to read on the screen (in CSS px as drawn, SVG text scaled
# with its picture), among the elements inside `scope`.
SMALLEST_TYPE = r'''(scope) => {
  const root = scope ? document.querySelector(scope) : document.body;
  let least = Infinity, what = '';
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode, el = node.parentElement;
    if (!node.textContent.trim() || !el || el.closest('[hidden], .visually-hidden, title, desc, script, style')) continue;
    if (!el.getClientRects().length || getComputedStyle(el).visibility === 'hidden') continue;
    let size = parseFloat(getComputedStyle(el).fontSize);
    const svg = el.closest('svg');
    if (svg && svg.viewBox.baseVal && svg.viewBox.baseVal.width) {
      const m = el.getScreenCTM();
      size *= m ? Math.hypot(m.a, m.b) : 1;
    }
    if (size < least) { least = size; what = node.textContent.trim().slice(0, 30); }
  }
  return [least, what];
}'''

SIDEWAYS = '''() => [document.documentElement.scrollWidth - document.documentElement.clientWidth,
  ...[...document.querySelectorAll('main *')].filter((e) => e.offsetParent !== null &&
     ['auto', 'scroll'].includes(getComputedStyle(e).overflowX) && e.scrollWidth > e.clientWidth + 1)
     .map((e) => e.tagName.toLowerCase() + '.' + [...e.classList].join('.'))]'''


# The words (of letters in a script that spaces its words: Latin, Greek, Cyrillic) that break
# across two lines inside `scope`: "Featherstonehaug / h". A name may wrap between its words (or
# after a hyphen), not inside one; Chinese, which has no spaces, may wrap anywhere. A word wider
# than the page's whole line (thirty W's on a phone) cannot be whole on one and is let be.
BROKEN_WORDS = r"""(scope) => {
  const broken = [], ctx = document.createElement('canvas').getContext('2d');
  const main = document.querySelector('main') || document.body, cs = getComputedStyle(main);
  const line = main.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
  for (const root of document.querySelectorAll(scope)) {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
      const node = walker.currentNode;
      if (!node.parentElement || !node.parentElement.getClientRects().length) continue;
      for (const m of node.textContent.matchAll(/[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}\p{M}]+/gu)) {
        const range = document.createRange();
        range.setStart(node, m.index); range.setEnd(node, m.index + m[0].length);
        const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0.5).map((r) => Math.round(r.top)));
        ctx.font = getComputedStyle(node.parentElement).font;
        if (tops.size > 1 && ctx.measureText(m[0]).width <= line) broken.push(m[0]);
      }
    }
  }
  return broken;
}"""


def broken_words(page, scope):
    """The words inside the elements `scope` selects that are broken across lines."""
    return page.evaluate(BROKEN_WORDS, scope)


def text_problems(page, scope=None):
    return page.evaluate(TEXT_PROBLEMS, scope)


def smallest_type(page, scope=None):
    return page.evaluate(SMALLEST_TYPE, scope)


def sideways(page):
    """[how far the page scrolls sideways (px), then each box on it that scrolls sideways]."""
    return page.evaluate(SIDEWAYS)


def summary(artifacts):
    """The figures the screen and print tests measured (their JSON under `artifacts`), in lines:
    each figure's least and most by screen size, and the printed pages of every case."""
    lines = []
    figures = artifacts / 'screens' / 'figures.json'
    if figures.exists():
        for figure, cases in json.loads(figures.read_text()).items():
            by_size = collections.defaultdict(list)
            for case, value in cases.items():
                by_size[next(part for part in case.split('-') if 'x' in part and part[0].isdigit())].append(value)
            lines.append(f'{figure} ({len(cases)} screens):')
            lines += [f'  {size}: {min(values)} to {max(values)}' for size, values in by_size.items()]
    pages = artifacts / 'print' / 'pages.json'
    if pages.exists():
        counted = json.loads(pages.read_text())
        lines.append(f'printed pages: {dict(collections.Counter(counted.values()))} over {len(counted)} cases'
                     f' (A4 and Letter, en/es/pt, 2-8 players)')
        lines += [f'  {case}: {n} pages' for case, n in sorted(counted.items()) if n != 1]
    smallest = artifacts / 'print' / 'smallest.json'
    if smallest.exists():
        sizes = json.loads(smallest.read_text())
        lines.append(f'printed type: {min(sizes.values())} to {max(sizes.values())} pt at the least, over {len(sizes)} cases')
    return lines


if __name__ == '__main__':      # python -m tests.screens: the figures of the last run of the screen tests
    from tests.browser import ARTIFACTS
    print('\n'.join(summary(ARTIFACTS)) or 'no figures yet: run tests/test_screens.py and tests/test_print_pages.py')
