// The live scoresheet (and the big screen): each save arrives as it happens through live.js.
// While the server can't be reached the page says "Reconnecting…" and dims the sheet until it
// answers again; a deleted game says so and stops. At game over a follower's page drops
// "Take your seat"; once the scorekeeper starts a rematch it offers one tap to the new game.
import { keepAwake, withdrawUndo } from './app.js';
import { follow, liveState } from './live.js';
import { SMALLEST_NAME, SPACELESS, fitWords } from './names.js';
import { shares } from './shares.js';

const live = document.getElementById('live');
const status = document.getElementById('live-status');

function show(text) {
  if (!status) return;
  status.textContent = text || '';
  status.hidden = !text;
}

// What depends on the state of the game but sits outside the live part of the page.
function turns(html) {
  const state = liveState(html);
  if (!state) return;
  for (const node of document.querySelectorAll('[data-while-playing]')) node.hidden = state.nextRound === null;
  const rematch = document.getElementById('follow-rematch');
  if (rematch && state.rematch) rematch.hidden = false;
  withdrawUndo(state.lastSave);
}

// The players share the sheet's width alike (issue 48): a column whose name's longest word needs
// more than an even share has what it needs, and the others share what is left, each the same
// (shares.js, one rule with print's).
// (The stylesheet shares it nearly so without a script; a wide screen's fixed columns are left be.)
// Where the names' longest words need more than the box while the players' figures would fit it (a
// tablet's 13.6 px names), the widest names are set smaller, half a pixel at a time, down to
// SMALLEST_NAME px, the least type a player reads (issue 48): a long word shrinks, then wraps at a
// hyphen, never inside. Where even that does not fit (thirty W's, or five long names on a phone),
// each column is as narrow as it reads, and the box scrolls sideways.
const KEEP_WHOLE = 6;
function share(table) {
  const heads = [...table.querySelectorAll('thead th:not(.round)')];
  for (const th of heads) {
    th.style.width = ''; th.style.fontSize = ''; th.style.wordBreak = 'keep-all';
    const name = th.querySelector('bdi');
    if (name) { name.style.display = ''; name.style.minWidth = ''; }
  }
  if (getComputedStyle(table).tableLayout === 'fixed') { for (const th of heads) th.style.wordBreak = ''; return; }
  table.style.width = 'min-content';
  let needs = heads.map((th) => th.getBoundingClientRect().width);
  // A name in a script without spaces (王小明, さくら) is kept whole, as a word is, where it is
  // short (KEEP_WHOLE characters' width); a longer one breaks between its characters.
  // It needs KEEP_WHOLE characters' width even so, as a word does its own: its column is not
  // narrowed to a character or two a line, the sheet's head tall with it (issue 48: 30 characters
  // in a column of 3 made the head 157 px tall, the sheet's first row 480 px down a phone).
  heads.forEach((th, i) => {
    if (needs[i] <= KEEP_WHOLE * parseFloat(getComputedStyle(th).fontSize)) return;
    th.style.wordBreak = '';
    const name = th.querySelector('bdi');
    if (name && SPACELESS.test(name.textContent)) { name.style.display = 'inline-block'; name.style.minWidth = `${KEEP_WHOLE}em`; }
  });
  const measure = () => heads.map((th) => th.getBoundingClientRect().width);
  needs = measure();
  // The box's width beside the round column: what the players' columns share.
  const free = () => table.parentElement.clientWidth - table.querySelector('thead th.round').getBoundingClientRect().width;
  const least = Math.max(...heads.map((th) => parseFloat(getComputedStyle(th).minWidth) || 0));
  const total = () => needs.reduce((a, b) => a + b, 0);
  if (heads.length * least <= free()) {
    while (total() > free() + 0.5) {
      const most = Math.max(...needs);
      const widest = heads.filter((th, i) => needs[i] > most - 0.5 && needs[i] > least + 0.5);
      const size = widest.length ? parseFloat(getComputedStyle(widest[0]).fontSize) : 0;
      if (size <= SMALLEST_NAME) break;
      for (const th of widest) th.style.fontSize = `${Math.max(SMALLEST_NAME, size - 0.5)}px`;
      needs = measure();
    }
    if (total() > free() + 0.5) {     // no fit even so: each at its type
      for (const th of heads) th.style.fontSize = '';
      needs = measure();
    }
  }
  table.style.width = '';
  // shares.js decides (print's twin: web/export.py); a shared width set a hundredth of a px under,
  // so the columns never add up past the box, a column at its need never under it.
  const widths = shares(needs, free());
  heads.forEach((th, i) => { th.style.width = `${Math.max(needs[i], Math.floor(widths[i] * 100) / 100)}px`; });
}

// The hint to swipe the sheet shows only while the sheet is wider than its box: on a phone with
// many players, not on a wide screen where every column fits. There the leader's column is brought
// into the box, beside the round column held at its left, so the first look finds who leads.
function fit() {
  for (const table of document.querySelectorAll('table.sheet')) share(table);
  for (const hint of document.querySelectorAll('.scroll-cue')) {
    const box = hint.previousElementSibling;
    hint.hidden = !(box && box.scrollWidth > box.clientWidth + 1);
    const leader = box?.querySelector('thead th.leader'), round = box?.querySelector('thead th.round');
    if (hint.hidden || !leader || !round) continue;
    const shown = box.getBoundingClientRect(), r = leader.getBoundingClientRect();
    const from = round.getBoundingClientRect().right, to = shown.left + box.clientLeft + box.clientWidth;
    if (r.left < from) box.scrollLeft -= from - r.left;
    else if (r.right > to) box.scrollLeft += r.right - to;
  }
}
// The race's type follows the size the chart is drawn at (issue 48): its units of type (12, as
// scorer/chart.py ON_THE_SHEET draws it) are 12 px on a 360 px phone and grow with the chart, up to
// RACE_TYPE px where it is drawn wide (a laptop: 16 px beside the page's 18 px, not 23 to 34 px).
// Its figures sit by their lines in units of the type (em, games/_chart.html), wherever it ends.
const RACE_TYPE = 16;
function raceType() {
  if (document.body.classList.contains('tv')) return;
  for (const svg of document.querySelectorAll('figure.race > svg.race-chart[font-size]')) {
    const units = Number(svg.getAttribute('font-size')), drawn = svg.getBoundingClientRect().width;
    const scale = drawn / svg.viewBox.baseVal.width;
    svg.style.fontSize = scale && units * scale > RACE_TYPE ? `${RACE_TYPE / scale}px` : '';
  }
}

fit();
fitWords();
raceType();
window.addEventListener('resize', fit);
window.addEventListener('resize', () => fitWords());
window.addEventListener('resize', raceType);
if (live) new MutationObserver(raceType).observe(live, { childList: true, subtree: true });
if (live) new MutationObserver(fit).observe(live, { childList: true, subtree: true });
if (live) new MutationObserver(() => fitWords()).observe(live, { childList: true, subtree: true });

// On the big screen a long name wraps in its row, at its spaces, in the row's type (issue 48): a
// single word wider than its column (Featherstonehaugh beside a leader's figures) is set smaller
// alone, on its own line, down to the least type of the screen (2.5vmin, 18 px at 720p); every other
// word, and every other row's name, keeps the row's size. Only a name too tall for its row is set
// smaller whole. A word wider than its column even so takes the row's whole width (never broken
// inside the word), then regular weight, then is shortened with "…", its title the whole name.
function fitNames() {
  if (!document.body.classList.contains('tv')) return;
  const least = Math.max(18, Math.min(window.innerWidth, window.innerHeight) * 0.025);
  for (const row of document.querySelectorAll('.tv-standings li')) {
    const who = row.querySelector('.who');
    if (!who) continue;
    const name = who.querySelector('bdi') || who;
    who.style.fontSize = '';
    who.style.fontWeight = '';
    row.classList.remove('apart');
    name.classList.remove('cut');
    name.removeAttribute('title');
    const full = name.textContent;
    name.textContent = full;                    // its words' own sizes gone
    let size = parseFloat(getComputedStyle(who).fontSize);
    // a line of the name wider than its column (a word would break inside): measured to the
    // fraction of a pixel (scrollWidth rounds, and a word 0.4 px too wide breaks)
    // ([its column's width, its widest line's], or null where every line fits)
    const wider = (range) => {
      who.style.overflowWrap = 'normal';
      const room = who.getBoundingClientRect().width;
      const wide = Math.max(...[...range.getClientRects()].map((line) => line.width));
      who.style.overflowWrap = '';
      return wide > room + 0.01 ? [room, wide] : null;
    };
    const tooWide = () => {
      const text = document.createRange();
      text.selectNodeContents(who);
      return Boolean(wider(text));
    };
    // each word wider than its column, alone in a span set just small enough, not under `least`
    const fitWordsOf = () => {
      name.textContent = full;
      if (!tooWide()) return;
      name.replaceChildren(...full.split(/(\s+)/).map((part) => {
        if (!part.trim()) return document.createTextNode(part);
        const word = document.createElement('span');
        word.className = 'word';
        word.textContent = part;
        return word;
      }));
      for (const word of name.querySelectorAll('.word')) {
        const range = document.createRange();
        range.selectNodeContents(word);
        for (let tries = 0; tries < 6; tries += 1) {
          const over = wider(range);
          const now = parseFloat(getComputedStyle(word).fontSize);
          if (!over || now <= least) break;
          const [room, width] = over;
          word.style.fontSize = `${Math.max(least, Math.min(now - 0.5, Math.floor(now * (room / width) * 0.99 * 2) / 2))}px`;
        }
      }
    };
    fitWordsOf();
    while (size > least && row.scrollHeight > row.clientHeight + 1) {
      size = Math.max(least, size - 1);
      who.style.fontSize = `${size}px`;
      fitWordsOf();
    }
    // A word wider than its column even so (thirty W's): the name takes the row's whole width on
    // a line of its own, the place and figures under it; then, if need be, in regular weight; and
    // where not even so, shortened with "…" (its title the whole name), as the race's labels are.
    if (tooWide()) { row.classList.add('apart'); fitWordsOf(); }
    if (tooWide()) { who.style.fontWeight = '400'; fitWordsOf(); }
    if (tooWide() && name !== who) {
      name.textContent = full;
      name.classList.add('cut');
      name.title = full;
    }
  }
}
fitNames();
window.addEventListener('resize', fitNames);
if (live) new MutationObserver(fitNames).observe(live, { childList: true });

// When the sheet was last known to be right: the page's own time, then each update.
let heard = new Date(live?.dataset.at || Date.now());

if (live) {
  keepAwake();
  follow(live, {
    // A sheet drawn on this phone from rounds not sent yet (offline.js) stays until they are sent.
    sheet(html) { if (live.dataset.local) return; live.innerHTML = html; turns(html); heard = new Date(); },
    fresh() { if (!live.classList.contains('gone')) { live.classList.remove('stale'); show(''); } },
    stale() {
      if (live.dataset.local) return;
      // A scorekeeper's phone that keeps the game goes on without a network: its own line says so
      // (offline.js), and the sheet it shows is the one it keeps, so it is neither dimmed nor "reconnecting".
      if (!navigator.onLine && document.querySelector('#offline[data-game]')) return;
      live.classList.add('stale');
      show(status?.dataset.reconnecting.replace('{time}', heard.toLocaleTimeString(document.documentElement.lang, { hour: '2-digit', minute: '2-digit' })));
    },
    gone() { live.classList.add('gone', 'stale'); show(status?.dataset.deleted); },
  });
}
