// Entering hands at the table: one tap a card, on a keypad docked at the bottom of the screen
// like a phone's keyboard. Nothing on the keypad ever moves: the hand being entered (its chips,
// the count, the preview and any message) lives in a fixed-height area above the keys that
// scrolls inside itself, and the page scrolls behind. While the keypad is open the Save bar is
// hidden, so a tap aimed at a key can never save; for SETTLE_MS after the keypad opens or closes,
// a tap on what just appeared under the finger is ignored (it was aimed at what was there before).
//
// A suit stays chosen while ranks are tapped (a second tap on a rank is a second copy, with two
// or three decks); a full hand moves on to the next player. The minimal penalty shows as cards go
// in, explained card by card (from /api/audit). What is entered is kept on this phone until the
// round is saved. Without JavaScript the page works with the text fields alone.
import { keepAwake, withdrawUndo } from './app.js';
import { follow, liveState } from './live.js';
import { reader } from './cards.js';
import { previewHere } from './offline/preview.js';

const SETTLE_MS = 700;     // a finger lands ~300 ms after it aimed: taps this soon after a change are stale

// How cards are read: the tables of scorer/cards.py, handed over by the page as JSON
// (templates/games/_picker_data.html), so the browser and the server read the same cards.
function loadJSON(id) {
  const node = typeof document !== 'undefined' && document.getElementById(id);
  return node ? JSON.parse(node.textContent) : null;
}

const TABLES = loadJSON('card-tables');
const SYMBOL = TABLES ? TABLES.suitSymbol : { S: '♠', H: '♥', D: '♦', C: '♣' };
const read = TABLES ? reader(TABLES) : () => [];
// The keys of the game's deck (web/templating.keypad_deck, from scorer/rules.py): its suits as
// [letter, symbol, word] and its ranks ('A' to 'K'; '3' to 'K' and a fifth suit in Five Crowns).
const DECK = loadJSON('card-deck') || { suits: [], ranks: [] };

// The cards of a text in canonical text ('10H', 'QS', 'JK'), and what is none of them, each with
// the problem in the page's words (the server's own refusal, scorer/reading.py).
export function readCards(text) {
  const readings = read(text);
  return { cards: readings.filter((r) => r.card).map((r) => r.card), bad: readings.filter((r) => !r.card) };
}

export function pretty(card) {
  if (card === 'JK') return '🃏';
  const suit = SYMBOL[card.slice(-1)];
  return suit ? card.slice(0, -1) + suit : card;       // '7': a wild standing in a set plays as a rank
}

// The page's words, in its language (web/i18n.py); the key itself if one is missing.
const WORDS = loadJSON('picker-words') || {};
function say(key, values = {}) {
  return (WORDS[key] || key).replace(/\{(\w+)\}/g, (_, name) => String(values[name] ?? ''));
}

function el(tag, attrs = {}, text = '') {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text) node.textContent = text;
  return node;
}

function suitClass(card) {
  return card === 'JK' ? 'suit-joker' : `suit-${card.slice(-1).toLowerCase()}`;
}

// The keypad: a top row (whose hand, its count and penalty; undo; done), the hand area, the suits
// and the ranks (and the joker where jokers are in play). Built once; only its words change.
function buildKeypad(info, jokers) {
  const pad = el('div', { class: 'picker', role: 'group' });
  const status = el('div', { class: 'keypad-status' });
  const count = el('p', { class: 'count', 'aria-live': 'polite' });
  const penalty = el('p', { class: 'keypad-penalty' });
  status.append(count, penalty);
  const undo = el('button', { type: 'button', class: 'key undo', 'aria-label': say('undo') }, '⌫');
  const done = el('button', { type: 'button', class: 'key done' }, say('done'));
  const top = el('div', { class: 'picker-top' });
  top.append(status, undo, done);
  const hand = el('div', { class: 'keypad-hand' });
  const message = el('p', { class: 'picker-message', role: 'status', 'aria-live': 'polite' });
  hand.append(message);
  const suits = el('div', { class: 'suits', role: 'group', 'aria-label': say('suit') });
  for (const [s, symbol, word] of DECK.suits) {
    suits.append(el('button', { type: 'button', class: `key suit suit-${s.toLowerCase()}`, 'data-suit': s,
      'aria-pressed': 'false', 'aria-label': word }, symbol));
  }
  const ranks = el('div', { class: 'ranks', role: 'group', 'aria-label': say('rank') });
  for (const r of DECK.ranks) {
    const key = el('button', { type: 'button', class: 'key rank', 'data-rank': r }, r);
    if (r === info.wild) { key.classList.add('wild'); key.append(el('small', {}, say('wild'))); }
    ranks.append(key);
  }
  if (jokers) ranks.append(el('button', { type: 'button', class: 'key joker', 'aria-label': say('joker') }, '🃏'));
  pad.append(top, hand, suits, ranks);
  pad.hidden = true;
  return { pad, count, penalty, undo, done, hand, message, suits, ranks };
}

// One player's block of the form: its fields, and the chips, warning and preview that show its
// hand (in the block, or in the keypad's hand area while it is being entered).
// Each of them says whose it is (data-seat), wherever it stands.
function seatOf(fieldset, i) {
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
    preview: el('div', { class: 'preview', 'aria-live': 'polite', 'data-seat': i }),
    // A fixed height, whatever it holds: nothing below moves (it scrolls inside, so it takes the focus).
    hand: el('div', { class: 'seat-hand', tabindex: '0', role: 'group', 'aria-label': say('cardsOf', { name }) }),
    penalty: '',
  };
}

// One entry form (the scorekeeper's round page, or "my hand"): its seats, the keypad, and what
// a tap does. `start()` opens the keypad on the first player to enter; `refresh()` moves on from
// a hand filled in from elsewhere.
class Entry {
  constructor(form) {
    this.form = form;
    this.info = form.dataset;
    this.handSize = Number(this.info.handSize);
    this.jokers = Number(this.info.jokers);
    this.copies = JSON.parse(this.info.copies);
    this.entering = form.classList.contains('round-form') || form.classList.contains('hand-form');
    this.seats = [...form.querySelectorAll('fieldset.player')].map(seatOf);
    this.keypad = buildKeypad(this.info, this.jokers);
    this.saveButton = form.querySelector('.save-bar button');
    this.history = [];         // [seat index, card] in the order tapped, for Undo
    this.active = null;
    this.suit = 'S';
    this.settling = null;      // {until, opened, below}: taps on what just appeared are ignored until then
    this.settled = null;
    this.listenToKeys();
    this.seats.forEach((s, i) => this.wireSeat(i));
    form.append(this.keypad.pad);
    form.addEventListener('keydown', (e) => this.enterMovesOn(e));
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

  // After the keypad opens or closes, what appeared under a finger gets no tap for SETTLE_MS:
  // the keys after it opens, the page below its top edge after it closes (Save stays disabled).
  settle(opened) {
    const { pad } = this.keypad;
    this.settling = { until: performance.now() + SETTLE_MS, opened, below: pad.getBoundingClientRect().top };
    document.documentElement.dataset.settling = '1';
    if (opened) pad.setAttribute('aria-disabled', 'true');
    else if (this.saveButton) this.saveButton.disabled = true;
    clearTimeout(this.settled);
    this.settled = setTimeout(() => {
      this.settling = null;
      delete document.documentElement.dataset.settling;
      pad.removeAttribute('aria-disabled');
      if (this.saveButton) this.saveButton.disabled = false;
    }, SETTLE_MS);
  }

  dropsTap(e) {
    const { settling } = this;
    if (!settling || performance.now() > settling.until) return false;
    if (settling.all) return true;
    const onPad = this.keypad.pad.contains(e.target);
    return settling.opened ? onPad : (!onPad && e.clientY >= settling.below && (e.detail > 0 || e.type !== 'click'));
  }

  // A page reached because the game moved on (?after=N), counted from when it was asked for, or a
  // warning that just appeared over the page: a tap landing meanwhile was aimed at what was there
  // before, and does nothing here.
  settleAll(since = performance.now()) {
    this.settling = { until: since + SETTLE_MS, all: true };
    clearTimeout(this.settled);
    this.settled = setTimeout(() => { this.settling = null; }, Math.max(0, since + SETTLE_MS - performance.now()));
  }

  // A tap dropped says so, where nothing can move: a line over the top of the page, for a moment.
  ignored() {
    let note = document.getElementById('tap-ignored');
    if (!note) {
      note = el('p', { id: 'tap-ignored', class: 'tap-ignored', role: 'status' });
      document.body.append(note);
    }
    note.textContent = say('ignored');
    note.classList.add('shown');
    clearTimeout(this.noted);
    this.noted = setTimeout(() => note.classList.remove('shown'), 1500);
  }

  chooseSuit(s) {
    const { keypad, info } = this;
    this.suit = s;
    for (const k of keypad.suits.querySelectorAll('.suit')) k.setAttribute('aria-pressed', String(k.dataset.suit === s));
    keypad.ranks.className = `ranks suit-${s.toLowerCase()}`;
    for (const key of keypad.ranks.querySelectorAll('.rank')) {
      const wild = key.dataset.rank === info.wild ? `, ${say('wild')}` : '';
      key.setAttribute('aria-label', `${pretty(key.dataset.rank + s)}${wild}`);
    }
  }

  showStatus() {
    const { active, keypad } = this;
    if (active === null) return;
    keypad.count.textContent = `${this.seats[active].name} · ${say('count', { count: this.cardsOf(active).length, size: this.handSize })}`;
    keypad.penalty.textContent = this.seats[active].penalty;
  }

  // The last chip in view inside the hand area (the page itself never scrolls for it).
  showLastChip() {
    const last = this.active !== null && this.seats[this.active].chips.lastElementChild;
    if (!last) return;
    const area = this.keypad.hand;
    const bottom = last.offsetTop + last.offsetHeight;
    if (bottom > area.scrollTop + area.clientHeight || last.offsetTop < area.scrollTop) area.scrollTop = bottom - area.clientHeight + 4;
  }

  tell(text) {
    this.keypad.message.textContent = text;
    if (text) this.keypad.hand.scrollTop = 0;
  }

  // A tap on a rank (or the joker): the card joins the active hand, unless the hand is full or
  // the pack holds no more of it.
  add(card) {
    const i = this.active;
    const cards = this.cardsOf(i);
    if (cards.length >= this.handSize) {
      this.tell(say('holds', { name: this.seats[i].name, count: cards.length, why: this.info.limitWhy }));
      return;
    }
    const limit = this.copies[card] ?? 0;            // the pack's copies of it (scorer.cards.copies)
    if (this.countInRound(card) >= limit) {
      this.tell(card === 'JK' ? say('jokers', { count: limit })
        : limit === 1 ? say('copy', { card: pretty(card) }) : say('copies', { count: limit, card: pretty(card), decks: limit }));
      return;
    }
    this.tell('');
    this.setCards(i, [...cards, card]);
    this.history.push([i, card]);
    if (this.entering && cards.length + 1 === this.handSize) this.moveOn(i);
  }

  undo() {
    const last = this.history.pop();
    if (!last) return;
    const [i, card] = last;
    const cards = this.cardsOf(i);
    const at = cards.lastIndexOf(card);
    if (at >= 0) cards.splice(at, 1);
    this.setCards(i, cards);
    if (this.active !== i) this.open(i);
    this.tell('');
  }

  // The next player to enter after seat i: not marked as gone out, no points, hand not full.
  nextPlayer(i) {
    for (let j = i + 1; j < this.seats.length; j += 1) {
      if (!this.isOut(j) && this.cardsOf(j).length < this.handSize && !this.seats[j].points?.value.trim()) return j;
    }
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

  open(i) {
    const { keypad, seats } = this;
    const wasClosed = keypad.pad.hidden;
    if (this.active !== null && this.active !== i) this.dock(this.active, false);
    this.active = i;
    this.dock(i, true);
    keypad.pad.setAttribute('aria-label', say('pickerFor', { name: seats[i].name }));
    keypad.pad.hidden = false;
    this.form.classList.add('keypad-open');
    document.documentElement.style.setProperty('--keypad-h', `${keypad.pad.offsetHeight}px`);
    this.tell('');
    this.chooseSuit('S');
    seats.forEach((s, j) => {
      s.pick.setAttribute('aria-expanded', String(j === i));
      s.fieldset.classList.toggle('active', j === i);
    });
    this.showStatus();
    this.showLastChip();
    return wasClosed;                  // the page never scrolls by itself: nothing moves under a finger
  }

  // Closed by a tap (Done, or the last card of the last hand) the page below settles first; closed
  // because a text field took the focus, the phone's keyboard comes up and nothing lands there.
  close(typing = false) {
    const { keypad } = this;
    if (keypad.pad.hidden) return;
    if (this.active !== null) this.dock(this.active, false);
    if (!typing) this.settle(false);
    keypad.pad.hidden = true;
    this.form.classList.remove('keypad-open');
    for (const s of this.seats) {
      s.pick.setAttribute('aria-expanded', 'false');
      s.fieldset.classList.remove('active');
    }
    this.active = null;
  }

  openByTap(i) {
    if (this.open(i)) this.settle(true);
  }

  listenToKeys() {
    const { keypad } = this;
    document.addEventListener('click', (e) => {
      if (this.dropsTap(e)) { e.preventDefault(); e.stopPropagation(); this.ignored(); }
    }, true);
    // A finger on Save while it is held back (disabled: no click comes) is told too.
    document.addEventListener('touchstart', (e) => {
      const touch = e.touches[0];
      if (touch && this.saveButton?.disabled && this.saveButton.contains(e.target)) this.ignored();
    }, { capture: true, passive: true });
    keypad.ranks.addEventListener('click', (e) => {
      const key = e.target.closest('button');
      if (!key || this.active === null || keypad.pad.hasAttribute('aria-disabled')) return;
      this.add(key.classList.contains('joker') ? 'JK' : key.dataset.rank + this.suit);
    });
    keypad.suits.addEventListener('click', (e) => {
      const key = e.target.closest('button');
      if (key && !keypad.pad.hasAttribute('aria-disabled')) this.chooseSuit(key.dataset.suit);
    });
    keypad.undo.addEventListener('click', () => this.undo());
    keypad.done.addEventListener('click', () => this.close());
  }

  // The hand being entered was filled in from elsewhere (a player's own phone): move on from it.
  refresh() {
    const { active } = this;
    if (active !== null && this.entering && (this.isOut(active) || this.cardsOf(active).length >= this.handSize
        || this.seats[active].points?.value.trim())) this.moveOn(active);
  }

  wireSeat(i) {
    const s = this.seats[i];
    // The server's message for this field, if the page came back with one: it already says what
    // is wrong with the text as sent, so the live warning waits until the text changes.
    s.sent = s.field.querySelector('.error:not(.size-warning)') ? s.input.value : null;
    s.asked = 0;
    // The letters' legend rests in the hand's place while it shows nothing else: a line that is
    // there anyway, so the block is no taller for it (the first card still needs no scroll).
    const legend = s.field.querySelector('.suit-legend');
    s.hand.append(...(legend ? [legend] : []), s.chips, s.warn, s.preview);
    s.field.append(s.pick);
    // "My hand": the one hand's place just below its block, which stays as short as the keypad needs.
    if (this.form.classList.contains('hand-form')) s.fieldset.after(s.hand); else s.field.append(s.hand);
    s.pick.addEventListener('click', () => (this.active === i ? this.close() : this.openByTap(i)));
    // Typing closes the keypad: the phone's own keyboard takes its place.
    for (const field of [s.input, s.points]) field?.addEventListener('focus', () => this.close(true));
    let timer = null;
    s.input.addEventListener('input', () => {
      this.renderChips(i);
      clearTimeout(timer);
      timer = setTimeout(() => this.preview(i), 200);
    });
    s.out?.addEventListener('change', () => {
      for (const other of this.seats) other.input.dispatchEvent(new Event('input'));
      if (this.entering && this.active === i && this.isOut(i) && !this.cardsOf(i).length) this.moveOn(i);
    });
    this.renderChips(i);
    if (s.input.value.trim()) this.preview(i);
  }

  // A chip for each card (a tap removes it; ×2 for copies), a chip for what is not a card, and
  // the warning of a hand past its size.
  renderChips(i) {
    const s = this.seats[i];
    const { cards, bad } = readCards(s.input.value);
    const groups = new Map();
    for (const card of cards) groups.set(card, (groups.get(card) || 0) + 1);
    s.chips.replaceChildren(...[...groups].map(([card, n]) => {
      const label = n > 1 ? `${pretty(card)} ×${n}` : pretty(card);
      const chip = el('button', { type: 'button', class: `chip ${suitClass(card)}`, 'aria-label': say('remove', { card: label }) }, label);
      chip.addEventListener('click', () => {
        const now = readCards(s.input.value).cards;
        now.splice(now.lastIndexOf(card), 1);
        this.setCards(i, now);
      });
      return chip;
    }), ...bad.map((r) => el('span', { class: 'chip bad' }, r.problem)));
    s.warn.textContent = cards.length > this.handSize && s.input.value !== s.sent
      ? say('tooMany', { count: cards.length, why: this.info.limitWhy }) : '';
    if (this.active === i) { this.showStatus(); this.showLastChip(); }
  }

  // The hand's minimal penalty, drawn by the server with the result pages' own template
  // (/audit/preview); only the answer to the latest question is shown.
  async preview(i) {
    const { info } = this;
    const s = this.seats[i];
    if (info.preview === 'off') return;
    const { cards, bad } = readCards(s.input.value);
    s.asked += 1;
    const mine = s.asked;
    if (!cards.length || bad.length) { s.preview.replaceChildren(); s.penalty = ''; this.showStatus(); return; }
    const url = `${info.previewUrl}?cards=${encodeURIComponent(cards.map(pretty).join(' '))}&round=${info.round}`
      + `&game_id=${encodeURIComponent(info.game)}${this.isOut(i) ? '&out=1' : ''}`;
    try {
      const box = document.createRange().createContextualFragment(await previewHtml(url)).firstElementChild;
      if (mine !== s.asked) return;
      s.preview.replaceChildren(box);
      s.penalty = box?.dataset.penalty ? say('penalty', { points: box.dataset.penalty }) : '';
      if (this.active === i) this.showStatus();
    } catch {
      if (mine === s.asked) { s.preview.replaceChildren(); s.penalty = ''; }
    }
  }

  // Enter moves to the next player's field of the same kind; on the last one it saves.
  enterMovesOn(e) {
    if (e.key !== 'Enter' || e.target.tagName !== 'INPUT' || e.target.type === 'checkbox') return;
    const here = this.seats.findIndex((s) => s.fieldset.contains(e.target));
    if (here >= 0 && here < this.seats.length - 1) {
      e.preventDefault();
      const kind = e.target.closest('.points') ? '.points input' : 'input.cards-input';
      this.seats[here + 1].fieldset.querySelector(kind).focus();
    }
  }

  // Open the keypad on the first player still to enter, so the first tap is a card.
  start() {
    if (!this.entering || this.info.saved === '1') return;    // a saved round's page shows its scores
    const first = this.nextPlayer(-1);
    if (first !== null && this.info.problem !== '1' && !this.form.querySelector('[aria-invalid=true]')) this.open(first);
  }
}

// The scorekeeper's round page fills in as the seated players enter their own hands: a seat the
// scorekeeper has not touched takes what its player entered, marked as theirs; what the
// scorekeeper types is never overwritten. Nothing is saved until Save.
function fillDrafts(form, seats, refresh) {
  const touched = new Set();
  let applying = false;
  let outTouched = false;
  seats.forEach((s, i) => s.fieldset.addEventListener('input', () => { if (!applying) touched.add(i); }));
  for (const s of seats) s.out?.addEventListener('change', () => { if (!applying) outTouched = true; });
  return (drafts) => {
    applying = true;
    try {
      for (const [seat, draft] of Object.entries(drafts)) {
        const i = Number(seat);
        if (touched.has(i) || !seats[i]) continue;
        seats[i].input.value = draft.cards || '';
        seats[i].points.value = draft.points || '';
        if (draft.went_out && seats[i].out && !outTouched) seats[i].out.checked = true;
        seats[i].input.dispatchEvent(new Event('input', { bubbles: true }));
        seats[i].fieldset.querySelector('.entered-by').textContent = form.dataset.enteredBy.replace('{player}', draft.player);
        seats[i].fieldset.classList.add('self-entered');
      }
    } finally {
      applying = false;
    }
    refresh();
  };
}

// The preview drawn by the server, or without a network by the scorer on this phone (offered by
// offline/round-page.js through offline/preview.js), from the same template.
async function previewHtml(url) {
  let res = null;
  try {
    res = await fetch(url);
  } catch (err) {
    const html = await previewHere(Object.fromEntries(new URL(url, window.location.href).searchParams));
    if (html) return html;
    throw err;
  }
  if (!res.ok && res.status !== 400) throw new Error(`preview: ${res.status}`);
  return res.text();
}

// The page follows the game: when the round it is for is saved from another phone, it moves on to
// the next round and says so (the round page keeps what was typed here, and says that instead).
function followGame(form, onDrafts, typed, appeared) {
  const info = form.dataset;
  let leaving = false;
  form.addEventListener('submit', () => { leaving = true; });
  const moved = document.getElementById('round-moved');
  follow(form, {
    sheet(html) {
      const state = liveState(html);
      if (leaving || !state || state.nextRound === Number(info.round)) return;
      if (typed() && moved) { if (moved.hidden) { moved.hidden = false; appeared(); } return; }
      const next = new URL(state.nextRound ? info.nextUrl.replace('{n}', state.nextRound) : info.sheetUrl,
        window.location.href);
      next.searchParams.set('after', info.round);
      window.location.replace(next);
    },
    drafts: onDrafts,
  });
}

// What is typed on the round page stays on this phone until the round is saved: after a failed
// save (network gone, phone locked, server error), a reload brings it all back, with the
// version it was made from, so saving it still checks that nobody saved the round meanwhile.
// What a person typed before this script started (begun) is kept as it is, and as the draft.
function keepDraft(form, refresh, begun = false) {
  const hand = form.classList.contains('hand-form') ? ':hand' : '';
  const key = `draft:${form.dataset.game}:${form.dataset.round}${hand}`;
  const banner = document.getElementById('draft-banner');
  const fields = () => [...form.querySelectorAll('input[name^=entries-], input[name=went_out], input[name=version], input[name=cards], input[name=points]')];
  const name = (f) => (f.type === 'checkbox' ? `went_out=${f.value}` : f.name);
  const snapshot = () => Object.fromEntries(fields().map((f) => [name(f), f.type === 'checkbox' ? f.checked : f.value]));
  // Back from a send the server never got (the service worker says ?unsent=1 or ?offline=1): the
  // copy of the page may show an earlier save, but what was typed since is what counts.
  const back = ['unsent', 'offline'].some((flag) => new URL(window.location.href).searchParams.get(flag) === '1');
  const saved = form.dataset.saved === '1' && !back;
  if (saved) localStorage.removeItem(key);
  let stored = null;
  try { stored = JSON.parse(localStorage.getItem(key)); } catch { stored = null; }
  const now = snapshot();
  const differs = stored && Object.keys(now).some((k) => k !== 'version' && k in stored && stored[k] !== now[k]);
  if (differs && form.dataset.problem !== '1' && !saved && !begun) {
    for (const f of fields()) {
      if (!(name(f) in stored)) continue;
      if (f.type === 'checkbox') f.checked = stored[name(f)]; else f.value = stored[name(f)];
    }
    refresh();
    if (banner) banner.hidden = false;
  }
  let changed = Boolean(differs);
  const keep = () => { changed = true; localStorage.setItem(key, JSON.stringify(snapshot())); };
  form.addEventListener('input', () => { keep(); if (banner) banner.hidden = false; });
  form.addEventListener('change', keep);
  if (begun) keep();
  return () => changed;
}

// Whether a person began on the form before this script started (a slow phone shows the page
// first): a field in use, or one changed from what the page came with.
function begun(form) {
  const active = document.activeElement;
  if (active && active !== document.body && form.contains(active) && active.matches('input, select, textarea')) return true;
  return [...form.elements].some((f) => (f.type === 'checkbox' || f.type === 'radio' ? f.checked !== f.defaultChecked
    : f.type !== 'hidden' && 'defaultValue' in f && f.value !== f.defaultValue));
}

// The saved round's page offers Undo for a minute: it follows the game meanwhile, so the offer goes
// as soon as another phone saves (the sheet page's own follower does the same there).
function followUndo(offer) {
  const { end } = follow(offer, { sheet(html) { withdrawUndo(liveState(html)?.lastSave); } });
  offer.addEventListener('withdrawn', end, { once: true });
}

const undoOffer = document.querySelector('form.undo-save[data-events-url]');
if (undoOffer) followUndo(undoOffer);

const form = document.querySelector('form.round-form, form.audit-form, form.hand-form');
if (form) {
  const begunBefore = begun(form);            // then the keypad does not open over what they typed
  if (!form.classList.contains('audit-form')) keepAwake();
  const entry = new Entry(form);
  let typed = () => false;
  if (form.classList.contains('round-form') || form.classList.contains('hand-form')) {
    typed = keepDraft(form, () => entry.seats.forEach((s) => s.input.dispatchEvent(new Event('input'))), begunBefore);
  }
  // A hand the service worker brought back unsent (no network): say so; what was typed is kept.
  const unsent = document.getElementById('hand-unsent');
  if (unsent && new URL(window.location.href).searchParams.get('unsent') === '1') unsent.hidden = false;
  if (new URL(window.location.href).searchParams.has('after')) entry.settleAll(0);   // 0: the page was asked for
  if (!begunBefore) entry.start();
  if (form.dataset.eventsUrl) {
    followGame(form, fillDrafts(form, entry.seats, () => entry.refresh()), typed, () => entry.settleAll());
  }
}
