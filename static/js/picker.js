// Entering hands at the table: one tap a card, on a keypad docked at the bottom of the screen
// like a phone's keyboard. Nothing on the keypad ever moves: the hand being entered (its chips,
// the count, the preview and any message) lives in a fixed-height area above the keys that
// scrolls inside itself, and the page scrolls behind. While the keypad is open the Save bar is
// hidden, so a tap aimed at a key can never save; for SETTLE_MS (web/templating.py, handed to keypad/guard.js) after the keypad
// opens or closes, a tap on what just appeared under the finger is ignored (it was aimed at what
// was there before).
//
// A suit stays chosen while ranks are tapped (a second tap on a rank is a second copy, with two
// or three decks); a full hand moves on to the next player. The minimal penalty shows as cards go
// in, explained card by card (the preview: /audit/preview, or the phone's scorer offline; see
// keypad/penalty.js). What is entered is kept on this phone until the round is saved. Without
// JavaScript the page works with the text fields alone.
//
// The keypad is modules, one a job (keypad/): page.js what the page hands over (words, data),
// deck.js reading and writing cards, keys.js the keypad's keys and what a tap on them asks for,
// guard.js the finger guard (taps on what just appeared are dropped, with a sign), table.js the
// seats and moving between them, chips.js drawing a seat's hand and the keypad's status line,
// penalty.js the preview of a hand's penalty. This file wires them to the form, and keeps drafts.
import { keepAwake, withdrawUndo } from './app.js';
import { follow, liveState } from './live.js';
import { tell, drawChips } from './keypad/chips.js';
import { readCards, pretty, useDeck } from './keypad/deck.js';
import { FingerGuard } from './keypad/guard.js';
import { Keypad } from './keypad/keys.js';
import { loadJSON, say } from './keypad/page.js';
import { penaltyOf, previewBox, previewUrl } from './keypad/penalty.js';
import { Table, placeHand } from './keypad/table.js';

// Why a card is refused: the pack holds no more of it (limit: its copies in the pack).
function noMore(card, limit) {
  if (card === 'JK') return say('jokers', { count: limit });
  return say('copies', { count: limit, card: pretty(card) });
}

// One entry form (the scorekeeper's round page, or "my hand"): its seats, the keypad, and what
// a tap does. `start()` opens the keypad on the first player to enter; `refresh()` moves on from
// a hand filled in from elsewhere.
class Entry {
  constructor(form) {
    this.form = form;
    this.info = form.dataset;
    this.copies = JSON.parse(this.info.copies);
    this.keypad = new Keypad(this.info, Number(this.info.jokers));
    this.guard = new FingerGuard(this.keypad.pad, form.querySelector('.save-bar button'));
    this.table = new Table(form, this.keypad, this.guard);
    this.seats = this.table.seats;
    this.history = [];         // [seat index, card] in the order tapped, for Undo
    this.guard.listen();
    this.keypad.readTaps({
      onCard: (card) => { if (this.table.active !== null) this.add(card); },
      onUndo: () => this.undo(),
      onDone: () => this.table.close(),
      onOut: () => this.table.seats[this.table.active]?.out?.click(),     // as a tap on its box
    });
    this.keypad.out.hidden = !this.seats.some((s) => s.out);             // the audit's hand: nobody goes out
    this.seats.forEach((s, i) => this.wireSeat(i));
    form.append(this.keypad.pad);
    form.addEventListener('keydown', (e) => this.enterMovesOn(e));
  }

  // A tap on a rank (or the joker): the card joins the active hand, unless the hand is full or
  // the pack holds no more of it.
  add(card) {
    const { table } = this;
    const i = table.active;
    const cards = table.cardsOf(i);
    if (cards.length >= table.handSize) {
      tell(this.keypad, say('holds', { name: table.seats[i].name, count: cards.length, why: this.info.limitWhy }));
      return;
    }
    const limit = this.copies[card] ?? 0;            // the pack's copies of it (scorer.cards.copies)
    if (table.countInRound(card) >= limit) {
      tell(this.keypad, noMore(card, limit));
      return;
    }
    tell(this.keypad, '');
    table.setCards(i, [...cards, card]);
    this.history.push([i, card]);
    if (table.entering && cards.length + 1 === table.handSize) table.moveOn(i);
  }

  undo() {
    const last = this.history.pop();
    if (!last) return;
    const [i, card] = last;
    const cards = this.table.cardsOf(i);
    const at = cards.lastIndexOf(card);
    if (at >= 0) cards.splice(at, 1);
    this.table.setCards(i, cards);
    if (this.table.active !== i) this.table.open(i);
    tell(this.keypad, '');
  }

  // The hand being entered was filled in from elsewhere (a player's own phone): move on from it.
  refresh() {
    const { active, entering } = this.table;
    if (active !== null && entering && !this.table.waiting(active)) this.table.moveOn(active);
  }

  wireSeat(i) {
    const { table } = this;
    const s = this.seats[i];
    // The server's message for this field, if the page came back with one (under the field, or above
    // the form as on "my hand": the field is then aria-invalid): it already says what is wrong with
    // the text as sent, so the line under the field repeats none of it until the text changes.
    s.sent = s.field.querySelector('.error:not(.size-warning)') || s.input.getAttribute('aria-invalid') === 'true'
      ? s.input.value : null;
    s.asked = 0;
    placeHand(s, this.form.classList.contains('hand-form'));
    s.pick.addEventListener('click', () => (table.active === i ? table.close() : table.openByTap(i)));
    // Typing closes the keypad: the phone's own keyboard takes its place.
    for (const field of [s.input, s.points]) field?.addEventListener('focus', () => table.close(true));
    this.followSeat(i);
    this.drawSeat(i);
    if (s.input.value.trim()) this.preview(i);
  }

  // A change of the seat's cards draws its chips at once and its preview a moment later; a change of
  // who went out changes every hand's penalty, and moves on from a hand that is then entered.
  followSeat(i) {
    const { table } = this;
    const s = this.seats[i];
    let timer = null;
    s.input.addEventListener('input', () => {
      clearTimeout(timer);
      s.preview.setAttribute('aria-busy', 'true');     // its penalty is on its way (and the page's tests wait for it)
      this.drawSeat(i);                                // the keypad's penalty says it is updating
      timer = setTimeout(() => this.preview(i), 200);
    });
    s.out?.addEventListener('change', () => {
      for (const other of this.seats) other.input.dispatchEvent(new Event('input'));
      if (table.entering && table.active === i && table.isOut(i) && !table.cardsOf(i).length) table.moveOn(i);
    });
  }

  // The seat's chips (a tap on one takes that card out) and warning; on the keypad, its status.
  drawSeat(i) {
    const { table } = this;
    drawChips(this.seats[i], table.handSize, this.info.limitWhy, (card) => {
      const now = table.cardsOf(i);
      now.splice(now.lastIndexOf(card), 1);
      table.setCards(i, now);
    });
    if (table.active === i) { table.showStatus(); table.showLastChip(); }
  }

  // The hand's minimal penalty (keypad/penalty.js); only the answer to the latest question is shown.
  // While a question is out, the preview is aria-busy (its live region speaks once, the answer), and
  // its lines say they are updating (style.css, the keypad's status); the answer to the latest one
  // clears it.
  async preview(i) {
    const { info, table } = this;
    const s = this.seats[i];
    const answered = () => { s.preview.removeAttribute('aria-busy'); if (table.active === i) table.showStatus(); };
    if (info.preview === 'off') { answered(); return; }
    const { cards, bad } = readCards(s.input.value);
    s.asked += 1;
    const mine = s.asked;
    if (!cards.length || bad.length) {
      s.preview.replaceChildren(); s.penalty = ''; answered(); return;
    }
    s.preview.setAttribute('aria-busy', 'true');
    const url = previewUrl(info, cards, table.isOut(i));
    try {
      const box = await previewBox(url);
      if (mine !== s.asked) return;
      s.preview.replaceChildren(box);
      s.penalty = penaltyOf(box);
    } catch {
      if (mine === s.asked) { s.preview.replaceChildren(); s.penalty = ''; }
    } finally {
      if (mine === s.asked) answered();
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

  // The audit's game field chose another game: its deck's keys, copies, jokers and letters at once
  // (web/templating.keypad_games), the keypad open where it was. Sent, the page says the same.
  followGame(field, games) {
    field.addEventListener('change', () => {
      const game = games[field.value];
      if (!game) return;
      useDeck(game);
      this.copies = game.copies;
      this.info.jokers = String(game.jokers);
      this.keypad.redraw(game.jokers);
      const legend = this.form.querySelector('.suit-legend');
      if (legend) legend.textContent = game.legend;
    });
  }

  // Open the keypad on the first player still to enter, so the first tap is a card; or on the seat
  // the page was opened for (?seat=N: a hand of a saved round to put right, from its score's page).
  start() {
    if (!this.table.entering || this.info.saved === '1') return;    // a saved round's page shows its scores
    const asked = new URL(window.location.href).searchParams.get('seat');
    if (asked !== null && this.seats[Number(asked)] && this.info.problem !== '1') {
      this.table.open(Number(asked));
      return;
    }
    const first = this.table.nextPlayer(-1);
    if (first !== null && this.info.problem !== '1' && !this.form.querySelector('[aria-invalid=true]')) this.table.open(first);
  }
}

// While the players' own hands are written into the round page (fillDrafts): what changes then
// was not typed on this phone.
let fillingIn = false;

// The scorekeeper's round page fills in as the seated players enter their own hands: a seat the
// scorekeeper has not touched takes what its player entered, marked as theirs; what the
// scorekeeper types is never overwritten. Nothing is saved until Save.
// A seat is the scorekeeper's once they typed its cards or points: ticking who went out is not
// typing a hand (the hand of who went out still comes in, and must meld completely).
function fillDrafts(form, seats, refresh) {
  const touched = new Set();
  let outTouched = false;
  seats.forEach((s, i) => s.fieldset.addEventListener('input', (e) => { if (!fillingIn && e.target !== s.out) touched.add(i); }));
  for (const s of seats) s.out?.addEventListener('change', () => { if (!fillingIn) outTouched = true; });
  return (drafts) => {
    fillingIn = true;
    try {
      for (const [seat, draft] of Object.entries(drafts)) {
        const i = Number(seat);
        if (touched.has(i) || !seats[i]) continue;
        seats[i].input.value = draft.cards || '';
        seats[i].points.value = draft.points || '';
        if (draft.went_out && seats[i].out && !outTouched) seats[i].out.checked = true;
        seats[i].input.dispatchEvent(new Event('input', { bubbles: true }));
        const who = document.createElement('span');                 // the block's own name, for screen readers
        who.className = 'visually-hidden';
        who.textContent = `${draft.player}: `;
        seats[i].fieldset.querySelector('.entered-by').replaceChildren(who, form.dataset.enteredBy);
        seats[i].fieldset.classList.add('self-entered');
      }
    } finally {
      fillingIn = false;
    }
    refresh();
  };
}

// The page follows the game: when the round it is for is saved from another phone, it moves on to
// the next round and says so (the round page keeps what was typed here, and says that instead).
function followGame(form, onDrafts, typed, appeared) {
  const info = form.dataset;
  let leaving = false;
  // Leaving by any form of this page (Save, Restore this version, Redo, Undo): the update its own
  // post makes is not another phone's save.
  form.addEventListener('submit', () => { leaving = true; });
  document.addEventListener('submit', (e) => { if (!e.defaultPrevented) leaving = true; });
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
// What a person typed before this script started (begun) is kept as it is, and as the draft. Says
// whether something was typed here (the players' hands filled in are not).
function keepDraft(form, refresh, begun = false) {
  const hand = form.classList.contains('hand-form') ? ':hand' : '';
  const key = `draft:${form.dataset.game}:${form.dataset.round}${hand}`;
  const banner = document.getElementById('draft-banner');
  // Back from a send the server never got (the service worker says ?unsent=1 or ?offline=1): the
  // copy of the page may show an earlier save, but what was typed since is what counts.
  const back = ['unsent', 'offline'].some((flag) => new URL(window.location.href).searchParams.get(flag) === '1');
  const saved = form.dataset.saved === '1' && !back;
  let stored = storedDraft(key);
  const now = snapshot(form);
  // A draft made on an earlier version of the round, holding only what the players sent from their
  // phones (nothing typed here), was settled by the save since: the page starts from what is saved.
  if (saved || (stored && stored[TYPED] === false && 'version' in stored && stored.version !== now.version && !back)) {
    localStorage.removeItem(key);
    stored = null;
  }
  const differs = stored && Object.keys(now).some((k) => k !== 'version' && k in stored && stored[k] !== now[k]);
  let typedHere = begun || Boolean(differs && stored[TYPED] !== false);
  if (differs && form.dataset.problem !== '1' && !saved && !begun) {
    restore(form, stored);
    refresh();
    if (banner) banner.hidden = false;
  }
  let changed = Boolean(differs);
  const keep = () => { changed = true; localStorage.setItem(key, JSON.stringify({ ...snapshot(form), [TYPED]: typedHere })); };
  const typing = () => { if (!fillingIn) typedHere = true; };
  form.addEventListener('input', () => { typing(); keep(); if (banner) banner.hidden = false; });
  form.addEventListener('change', () => { typing(); keep(); });
  if (begun) keep();
  return () => changed && typedHere;
}

// A draft's mark: something in it was typed on this phone (not only the hands the players sent).
const TYPED = ':typed';

// The fields a draft keeps, each by its name (a seat's "went out" box: went_out=<seat>).
function draftFields(form) {
  return [...form.querySelectorAll('input[name^=entries-], input[name=went_out], input[name=version], input[name=cards], input[name=points]')];
}

function draftName(f) { return f.type === 'checkbox' ? `went_out=${f.value}` : f.name; }

function snapshot(form) {
  return Object.fromEntries(draftFields(form).map((f) => [draftName(f), f.type === 'checkbox' ? f.checked : f.value]));
}

function storedDraft(key) {
  try { return JSON.parse(localStorage.getItem(key)); } catch { return null; }
}

function restore(form, stored) {
  for (const f of draftFields(form)) {
    if (!(draftName(f) in stored)) continue;
    if (f.type === 'checkbox') f.checked = stored[draftName(f)]; else f.value = stored[draftName(f)];
  }
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
  const games = loadJSON('keypad-games');
  const gameField = form.querySelector('select[name=game]');
  if (games && gameField) entry.followGame(gameField, games);
  let typed = () => false;
  if (form.classList.contains('round-form') || form.classList.contains('hand-form')) {
    typed = keepDraft(form, () => entry.seats.forEach((s) => s.input.dispatchEvent(new Event('input'))), begunBefore);
  }
  // A hand the service worker brought back unsent (no network): say so; what was typed is kept.
  const unsent = document.getElementById('hand-unsent');
  if (unsent && new URL(window.location.href).searchParams.get('unsent') === '1') unsent.hidden = false;
  if (new URL(window.location.href).searchParams.has('after')) entry.guard.settleAll();
  if (!begunBefore) entry.start();
  if (form.dataset.eventsUrl) {
    followGame(form, fillDrafts(form, entry.seats, () => entry.refresh()), typed, () => entry.guard.settleAll());
  }
}
