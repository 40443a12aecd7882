// The seats around the table, in seating order, and the one whose hand the keypad is on: who enters
// next, and the keypad opened on a seat (its chips, warning and preview move into the keypad's hand
// area) or closed (back in the seat's block). The page never scrolls by itself: nothing moves under a finger.
import { showLastChip, showStatus, tell } from './chips.js';
import { pretty, readCards } from './deck.js';
import { el, say } from './page.js';

// One player's block of the form: its fields, and the chips, warning and preview that show its
// hand (in the block, or in the keypad's hand area while it is being entered).
// Each of them says whose it is (data-seat), wherever it stands.
export function seatOf(fieldset, i) {
  const input = fieldset.querySelector('input.cards-input');
  const name = fieldset.dataset.player;
  return {
    fieldset, input, name,
    out: fieldset.querySelector('input[name=went_out]'),
    points: fieldset.querySelector('.points input'),
    field: input.closest('.field'),
    chips: el('div', { class: 'chips', role: 'group', 'aria-label': say('cardsOf', { name }), 'data-seat': i }),
    warn: el('p', { class: 'error size-warning', role: 'alert', 'data-seat': i }),
    pick: el('button', { type: 'button', class: 'pick', 'aria-expanded': 'false' }, say('tapCards')),
    preview: el('div', { class: 'preview', 'aria-live': 'polite', 'data-seat': i, 'data-updating': say('updating') }),
    // A fixed height, whatever it holds (linesFor): nothing below moves, and nothing in it scrolls.
    hand: el('div', { class: 'seat-hand', role: 'group', 'aria-label': say('cardsOf', { name }) }),
    penalty: '',
  };
}

// The seat's hand in its place: the letters' legend rests there while it shows nothing else (a line
// that is there anyway, so the block is no taller for it: the first card still needs no scroll). On
// "my hand" the one hand's place is just below its block, which stays as short as the keypad needs.
export function placeHand(seat, handForm) {
  const legend = seat.field.querySelector('.suit-legend');
  seat.hand.append(...(legend ? [legend] : []), seat.chips, seat.warn, seat.preview);
  seat.field.append(seat.pick);
  if (handForm) seat.fieldset.after(seat.hand); else seat.field.append(seat.hand);
}

// The lines of small type kept under a hand's field (style.css .seat-hand), for the most cards the
// round's hand holds: what a closed hand shows there, whole and wrapped at 360 px, is its penalty
// and how it adds up, then each meld and the deadwood, card by card (every card of the hand: its
// field shows only the first of a long one); or a card not read, or a hand past its size. Three
// cards are one meld or deadwood, never both: two lines. Three lines hold a hand of up to 7 cards;
// a line more for every 3 more. (Two lines in round 1 keep its first block above the keypad at
// 360 x 740 in every language: the first card needs no scroll.)
export function linesFor(handSize) {
  return handSize <= 3 ? 2 : 3 + Math.max(0, Math.ceil((handSize - 7) / 3));
}

export class Table {
  constructor(form, keypad, guard) {
    this.form = form;
    this.keypad = keypad;
    this.guard = guard;
    this.handSize = Number(form.dataset.handSize);
    form.style.setProperty('--lines', String(linesFor(this.handSize)));
    this.entering = form.classList.contains('round-form') || form.classList.contains('hand-form');
    this.seats = [...form.querySelectorAll('fieldset.player')].map(seatOf);
    this.active = null;
  }

  cardsOf(i) { return readCards(this.seats[i].input.value).cards; }

  countInRound(card) {
    return this.seats.reduce((n, _, i) => n + this.cardsOf(i).filter((c) => c === card).length, 0);
  }

  isOut(i) { return Boolean(this.seats[i].out && this.seats[i].out.checked); }

  // Written with suit symbols, which every language reads alike.
  setCards(i, cards) {
    this.seats[i].input.value = cards.map(pretty).join(' ');
    this.seats[i].input.dispatchEvent(new Event('input', { bubbles: true }));
  }

  // Still to enter: not marked as gone out, no points, hand not full.
  waiting(i) {
    return !this.isOut(i) && this.cardsOf(i).length < this.handSize && !this.seats[i].points?.value.trim();
  }

  // The next player to enter after seat i.
  nextPlayer(i) {
    for (let j = i + 1; j < this.seats.length; j += 1) if (this.waiting(j)) return j;
    return null;
  }

  moveOn(i) {
    const j = this.nextPlayer(i);
    if (j === null) this.close(); else this.open(j);
  }

  // The hand's chips, warning and preview go where the hand is being looked at.
  dock(i, inKeypad) {
    const s = this.seats[i];
    if (inKeypad) this.keypad.hand.append(s.chips, s.warn, s.preview);
    else s.hand.append(s.chips, s.warn, s.preview);
  }

  // Seat i's block marked as the one entered (null: none).
  mark(i) {
    this.seats.forEach((s, j) => {
      s.pick.setAttribute('aria-expanded', String(j === i));
      s.fieldset.classList.toggle('active', j === i);
    });
  }

  open(i) {
    const { keypad } = this;
    const wasClosed = keypad.pad.hidden;
    if (this.active !== null && this.active !== i) this.dock(this.active, false);
    this.active = i;
    this.dock(i, true);
    keypad.pad.setAttribute('aria-label', say('pickerFor', { name: this.seats[i].name }));
    keypad.pad.hidden = false;
    this.form.classList.add('keypad-open');
    document.documentElement.style.setProperty('--keypad-h', `${keypad.pad.offsetHeight}px`);
    tell(keypad, '');
    keypad.chooseSuit('S');
    this.mark(i);
    this.showStatus();
    this.showLastChip();
    return wasClosed;                  // the page never scrolls by itself: nothing moves under a finger
  }

  // Closed by a tap (Done, or the last card of the last hand) the page below settles first; closed
  // because a text field took the focus, the phone's keyboard comes up and nothing lands there.
  close(typing = false) {
    if (this.keypad.pad.hidden) return;
    if (this.active !== null) this.dock(this.active, false);
    if (!typing) this.guard.settle(false);
    this.keypad.pad.hidden = true;
    this.form.classList.remove('keypad-open');
    this.mark(null);
    this.active = null;
  }

  openByTap(i) {
    if (this.open(i)) this.guard.settle(true);
  }

  showStatus() {
    if (this.active !== null) showStatus(this.keypad, this.seats[this.active], this.handSize);
  }

  showLastChip() {
    if (this.active !== null) showLastChip(this.keypad, this.seats[this.active]);
  }
}
