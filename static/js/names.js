// Names read whole on a phone (issue 48): the least type a player reads, and fitWords(), which
// sets a name too wide for its line smaller and, past that, shortens it, never breaking it inside
// a word. The sheet's page (sheet.js) fits every name on it; every other page (app.js) its
// standings and its lists of games.

// The least type a player reads on a phone (issue 48): a name shrinks to it, no further.
export const SMALLEST_NAME = 12;
// The names fitted by default: every name on the page but the sheet's head and an untitled game's
// title (its players' names on one line, shortened with "…" by style.css, each whole in the head).
const NAMES = 'bdi';
const LEFT_BE = 'table.sheet, h1.names';
// The box whose line a name must fit (its right edge, less the padding and borders inside it): a
// standings' row, a list's link, a round's block (its legend), the keypad's head; else main's line.
const HOLDERS = 'ol.standings li, ul.games a, fieldset, .picker .count';
// A name in a script without spaces (王小明), which breaks between its characters where it must.
export const SPACELESS = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
// The names kept at their line's size, shortened with "…" where it does not hold them, never set
// smaller (issue 48): a page's title that names a player, which reads as one heading ("WWWW…, your
// hand" on one line, not a 12 px name over a 20 px ", your hand"), and the keypad's head, whose
// name is whole in the active block just above it (a 12 px "Bartholomew Fe…" read worse than
// "Bartholomew Feath…" in the head's own type).
const AT_ITS_SIZE = 'h1, .picker';

// A name (the standings, the race's key, the seats, a list of games) whose word is wider than its
// line (thirty W's at 360 px) is set smaller until it fits, down to SMALLEST_NAME px (not one AT_ITS_SIZE); past that,
// in the standings, it takes the row's whole width on a line of its own (the place and the
// figures around it); and where no line holds it even so, it is shortened with "…" at the line's
// end (.cut: the whole name in its text and its title; on the sheet's page whole in the sheet's
// head, whose box scrolls; a list's line leads to that sheet), never broken inside the word nor
// pushing the page sideways. Measured with the text of its element, which a no-break space may
// bind to it (the race's key: "name\u00a064"). Classes and styles only: the live part's
// observer (childList) is not woken by them.
export function fitWords(names = NAMES) {
  const main = document.querySelector('main');
  if (!main || document.body.classList.contains('tv')) return;
  const cs = getComputedStyle(main), box = main.getBoundingClientRect();
  const line = box.right - parseFloat(cs.paddingRight);
  for (const name of main.querySelectorAll(names)) {
    if (name.closest(LEFT_BE)) continue;
    const row = name.closest('ol.standings li');
    const holder = name.closest(HOLDERS);
    name.style.fontSize = '';
    name.style.maxWidth = '';
    name.style.overflowWrap = '';
    name.classList.remove('cut', 'whole');
    name.removeAttribute('title');
    name.onclick = null;
    row?.classList.remove('apart');
    let right = line;
    if (holder) {
      right = holder.getBoundingClientRect().right;
      for (let box = name.parentElement; box; box = box === holder ? null : box.parentElement) {
        const bs = getComputedStyle(box);
        right -= parseFloat(bs.paddingRight) + parseFloat(bs.borderRightWidth);
      }
    }
    // breaks between its characters: never too wide, but on a line that does not wrap (the keypad's)
    if (SPACELESS.test(name.textContent) && getComputedStyle(name).whiteSpace !== 'nowrap') continue;
    name.style.overflowWrap = 'normal';     // a word too wide shows past the edge, to be measured
    const after = document.createRange();
    after.setStartAfter(name);
    after.setEnd(name.parentElement, name.parentElement.childNodes.length);
    // bound to its end: what a no-break space ties to it (the race's key: "name\u00a064"), or, once
    // the name must be shortened, the rest of a note or a title kept whole on its line ("WWW… wins
    // with 123", "WWW…, your hand")
    const glued = after.toString().startsWith('\u00a0');
    const bound = glued || name.parentElement.matches('.note, h1');
    // (its text's lines alone: a range's rects hold an element's box besides its text's)
    const rest = () => {
      let sum = 0;
      const walker = document.createTreeWalker(name.parentElement, NodeFilter.SHOW_TEXT);
      while (walker.nextNode()) {
        if (!after.intersectsNode(walker.currentNode) || name.contains(walker.currentNode)) continue;
        const piece = document.createRange();
        piece.selectNodeContents(walker.currentNode);
        sum += [...piece.getClientRects()].reduce((a, r) => a + r.width, 0);
      }
      return sum;
    };
    const tail = () => (glued ? rest() : 0);     // a note's rest may wrap after a name that fits
    const text = document.createRange();
    text.selectNodeContents(name);
    // the lines of the name that pass the edge (its last with what is bound to it): [line, its room]
    const over = () => {
      const lines = [...text.getClientRects()].filter((r) => r.width > 0.5);
      return lines.map((r, i) => [r, right - (i === lines.length - 1 ? tail() : 0) - r.left])
        .filter(([r, room]) => r.width > room + 0.5);
    };
    for (let tries = 0; tries < 6 && !name.closest(AT_ITS_SIZE); tries += 1) {
      const past = over();
      const size = parseFloat(getComputedStyle(name).fontSize);
      if (!past.length || size <= SMALLEST_NAME) break;
      const [r, room] = past.reduce((a, b) => (b[0].width > a[0].width ? b : a));
      const scaled = Math.floor(size * Math.min(0.97, room / r.width) * 2) / 2;
      name.style.fontSize = `${Math.max(SMALLEST_NAME, Math.min(size - 0.5, scaled))}px`;
    }
    if (!over().length) continue;
    if (row) {
      row.classList.add('apart');
      if (!over().length) continue;
    }
    // No line holds it: shortened to the line, less what is bound to its end.
    name.classList.add('cut');
    name.title = name.textContent;
    // (a list's line leads to its sheet instead; the keypad's head names the active block, above it)
    if (!name.closest('a, button, .picker')) wholeOnTap(name);
    let most = Math.floor(right - name.getBoundingClientRect().left - (bound ? rest() : 0));
    name.style.maxWidth = `${most}px`;
    // what is bound stays on the name's line (measured wrapped, it had lost the space before it)
    const top = () => name.getBoundingClientRect().top;
    for (let tries = 0; bound && tries < 8 && [...after.getClientRects()].some((r) => r.top > top() + 1); tries += 1) {
      most -= 4;
      name.style.maxWidth = `${most}px`;
    }
    snug(name, most);
  }
}

// A name shortened with "…" to `most` px ends at its "…": its box only as wide as the letters shown
// and the "…" (an ellipsis stops at a whole letter, leaving up to a broad letter's room blank before
// what follows it: "WWWWWW…  , your hand").
function snug(name, most) {
  const text = name.firstChild;
  if (!text || text.nodeType !== Node.TEXT_NODE || name.childNodes.length !== 1) return;
  const ctx = document.createElement('canvas').getContext('2d');
  const cs = getComputedStyle(name);
  ctx.font = `${cs.fontStyle} ${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
  const room = most - ctx.measureText('\u2026').width;
  const upTo = document.createRange();
  upTo.setStart(text, 0);
  let shown = 0, end = 0;
  for (const ch of text.data) {
    end += ch.length;
    upTo.setEnd(text, end);
    const wide = upTo.getBoundingClientRect().width;
    if (wide > room) break;
    shown = wide;
  }
  if (shown > 0) name.style.maxWidth = `${Math.ceil(shown + (most - room) + 1)}px`;
}

// A name shortened with "…" (or a title's line) shows whole on a tap: its line then scrolls sideways
// in the same room, nothing around it moving (style.css .cut.whole); a second tap shortens it again.
export function wholeOnTap(box) {
  box.onclick = () => box.classList.toggle('whole');
}
