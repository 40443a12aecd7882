// What shows a seat's hand: a chip for each card (a tap removes it; ×2 for copies), a chip for what
// is not a card, and the warning of a hand past its size; and, on the keypad, whose hand it is with
// its count and penalty, the last chip in view, and a message.
import { pretty, readCards, suitClass } from './deck.js';
import { el, say } from './page.js';
import { fitWords } from '../names.js';

function chip(card, n, remove) {
  const label = n > 1 ? `${pretty(card)} ×${n}` : pretty(card);
  const node = el('button', { type: 'button', class: `chip ${suitClass(card)}`, 'aria-label': say('remove', { card: label }) }, label);
  node.addEventListener('click', () => remove(card));
  return node;
}

// The seat's chips and warning, from what its field holds; a tap on a chip calls remove(card).
export function drawChips(seat, handSize, why, remove) {
  const { cards, bad } = readCards(seat.input.value);
  const groups = new Map();
  for (const card of cards) groups.set(card, (groups.get(card) || 0) + 1);
  seat.chips.replaceChildren(...[...groups].map(([card, n]) => chip(card, n, remove)),
    ...bad.map((r) => el('span', { class: 'chip bad' }, r.problem)));
  const told = seat.input.value === seat.sent;       // the server's message says it (picker.js wireSeat)
  seat.warn.textContent = cards.length > handSize && !told ? say('tooMany', { count: cards.length, why }) : '';
  seat.hand.classList.toggle('told', told);
}

// The keypad's top row for the seat it is on: whose hand, its count, its penalty (or, while its
// preview is asked for, that it is updating: the last one shown is not this hand's); and whether
// the seat went out, on its key.
export function showStatus(keypad, seat, handSize) {
  const count = readCards(seat.input.value).cards.length;
  // Two parts: the name may be set smaller, then shortened for room (names.js), the count never.
  keypad.count.replaceChildren(el('bdi', { class: 'who' }, seat.name),
    el('span', { class: 'n' }, `\u00a0· ${say('count', { count, size: handSize })}`));   // a space that holds at the start of its box
  fitWords('.picker .count .who');
  const asked = seat.preview.getAttribute('aria-busy') === 'true';
  keypad.penalty.textContent = asked ? say('updating') : seat.penalty;
  keypad.penalty.classList.toggle('updating', asked);
  keypad.out.setAttribute('aria-pressed', String(Boolean(seat.out?.checked)));
}

// The last chip in view inside the keypad's hand area (the page itself never scrolls for it); a
// hand past its size, its warning under the chips, whole in view with the last of them.
export function showLastChip(keypad, seat) {
  const last = seat.warn.textContent ? seat.warn : seat.chips.lastElementChild;
  if (!last) return;
  const area = keypad.hand;
  const bottom = last.offsetTop + last.offsetHeight;
  if (bottom > area.scrollTop + area.clientHeight || last.offsetTop < area.scrollTop) area.scrollTop = bottom - area.clientHeight + 4;
}

export function tell(keypad, text) {
  keypad.message.textContent = text;
  if (text) keypad.hand.scrollTop = 0;
}
