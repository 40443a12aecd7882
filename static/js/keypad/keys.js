// The keypad: a top row (whose hand, its count and penalty; undo; done), the hand area, the suits
// with "Went out" beside them (for the hand the keypad is on: its block's box may lie under the
// keypad, and the page never scrolls by itself), and the ranks (and the joker where jokers are in
// play). Built once; only its words change. A tap on a key asks for a card (a rank in the chosen
// suit, or the joker), a suit, undo, done or went out; none while the keypad settles
// (aria-disabled: the finger guard, guard.js).
import { DECK, pretty } from './deck.js';
import { el, say } from './page.js';

function topRow() {
  const status = el('div', { class: 'keypad-status' });
  const count = el('p', { class: 'count', 'aria-live': 'polite' });
  const penalty = el('p', { class: 'keypad-penalty' });
  status.append(count, penalty);
  const undo = el('button', { type: 'button', class: 'key undo', 'aria-label': say('undo') }, '⌫');
  const done = el('button', { type: 'button', class: 'key done' }, say('done'));
  const top = el('div', { class: 'picker-top' });
  top.append(status, undo, done);
  return { top, count, penalty, undo, done };
}

function suitKeys() {
  const suits = el('div', { class: 'suits', role: 'group', 'aria-label': say('suit') });
  for (const [s, symbol, word] of DECK.suits) {
    suits.append(el('button', { type: 'button', class: `key suit suit-${s.toLowerCase()}`, 'data-suit': s,
      'aria-pressed': 'false', 'aria-label': word }, symbol));
  }
  return suits;
}

// With leftovers counted as they lie (data-values: what each key's card counts this round, from
// scorer/rules.py), each key shows its value under its rank (and 'wild' under that): K 13, 🃏 50.
function rankKeys(wild, jokers, values) {
  const ranks = el('div', { class: 'ranks', role: 'group', 'aria-label': say('rank') });
  for (const r of DECK.ranks) {
    const key = el('button', { type: 'button', class: 'key rank', 'data-rank': r }, r);
    if (values) key.append(el('small', { class: 'value' }, String(values[r])));
    if (r === wild) { key.classList.add('wild'); key.append(el('small', {}, say('wild'))); }
    ranks.append(key);
  }
  if (jokers) {
    const joker = el('button', { type: 'button', class: 'key joker',
      'aria-label': values ? `${say('joker')}, ${say('counts', { points: values.JK })}` : say('joker') }, '🃏');
    if (values) joker.append(el('small', { class: 'value' }, String(values.JK)));
    ranks.append(joker);
  }
  return ranks;
}

export class Keypad {
  constructor(info, jokers) {
    this.info = info;
    const { top, count, penalty, undo, done } = topRow();
    Object.assign(this, { count, penalty, undo, done });
    this.hand = el('div', { class: 'keypad-hand' });
    this.message = el('p', { class: 'picker-message', role: 'status', 'aria-live': 'polite' });
    this.hand.append(this.message);
    this.suits = suitKeys();
    this.out = el('button', { type: 'button', class: 'key went-out', 'aria-pressed': 'false' }, say('wentOut'));
    const suitRow = el('div', { class: 'suit-row' });
    suitRow.append(this.suits, this.out);
    this.values = info.values ? JSON.parse(info.values) : null;
    this.ranks = rankKeys(info.wild, jokers, this.values);
    this.pad = el('div', { class: 'picker', role: 'group' });
    this.pad.append(top, this.hand, suitRow, this.ranks);
    this.pad.hidden = true;
    this.suit = 'S';
  }

  // The keys of another game's deck (the audit's game field changed: deck.js's useDeck), at once;
  // the suit chosen stays if the deck has it.
  redraw(jokers) {
    const suits = suitKeys();
    const ranks = rankKeys(this.info.wild, jokers, this.values);
    this.suits.replaceWith(suits);
    this.ranks.replaceWith(ranks);
    Object.assign(this, { suits, ranks });
    this.chooseSuit(DECK.suits.some(([s]) => s === this.suit) ? this.suit : DECK.suits[0][0]);
  }

  get settling() { return this.pad.hasAttribute('aria-disabled'); }

  // A suit stays chosen while ranks are tapped: its key pressed, the ranks in its colour and named with it.
  chooseSuit(s) {
    this.suit = s;
    for (const k of this.suits.querySelectorAll('.suit')) k.setAttribute('aria-pressed', String(k.dataset.suit === s));
    this.ranks.className = `ranks suit-${s.toLowerCase()}`;
    for (const key of this.ranks.querySelectorAll('.rank')) {
      const wild = key.dataset.rank === this.info.wild ? `, ${say('wild')}` : '';
      const counts = this.values ? `, ${say('counts', { points: this.values[key.dataset.rank] })}` : '';
      key.setAttribute('aria-label', `${pretty(key.dataset.rank + s)}${wild}${counts}`);
    }
  }

  // What each tap asks for: onCard(card), onUndo(), onDone(), onOut().
  readTaps({ onCard, onUndo, onDone, onOut }) {
    // Heard on the pad, so keys drawn again (redraw) are heard too.
    this.pad.addEventListener('click', (e) => {
      const key = e.target.closest('button');
      if (!key || this.settling) return;
      if (this.ranks.contains(key)) onCard(key.classList.contains('joker') ? 'JK' : key.dataset.rank + this.suit);
      else if (this.suits.contains(key)) this.chooseSuit(key.dataset.suit);
    });
    this.undo.addEventListener('click', () => onUndo());
    this.done.addEventListener('click', () => onDone());
    this.out.addEventListener('click', () => onOut());
  }
}
