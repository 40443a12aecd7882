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
import { keepAwake } from './app.js';
import { follow, liveState } from './live.js';

const RANKS = ['A', '2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K'];
const SUITS = ['S', 'H', 'D', 'C'];
const SUIT_WORD = { S: 'spades', H: 'hearts', D: 'diamonds', C: 'clubs' };
const SETTLE_MS = 700;     // a finger lands ~300 ms after it aimed: taps this soon after a change are stale

// How cards are read: the tables of scorer/cards.py, handed over by the page as JSON
// (templates/games/_picker_data.html), so the browser and the server read the same cards.
function loadJSON(id) {
  const node = typeof document !== 'undefined' && document.getElementById(id);
  return node ? JSON.parse(node.textContent) : null;
}

export function cardReader(tables) {
  const pattern = new RegExp(`^${tables.rankPattern}$`, 'u');
  const jokers = new Set(tables.jokers);
  return function readCard(token) {
    const t = token.trim().toUpperCase().replace(/\uFE0F/g, '');
    if (jokers.has(t)) return 'JK';
    const m = pattern.exec(t);
    if (!m || !(m[2] in tables.suits)) return null;
    return tables.rankText[tables.ranks[m[1]]] + tables.suits[m[2]];
  };
}

const TABLES = loadJSON('card-tables');
const SYMBOL = TABLES ? TABLES.symbols : { S: '♠', H: '♥', D: '♦', C: '♣' };

// A card as typed, in canonical text ('10H', 'QS', 'JK'), or null.
export const readCard = TABLES ? cardReader(TABLES) : () => null;

export function readCards(text) {
  const cards = [];
  const bad = [];
  for (const token of text.split(/[\s,;]+/).filter(Boolean)) {
    const card = readCard(token);
    if (card) cards.push(card); else bad.push(token);
  }
  return { cards, bad };
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
  for (const s of SUITS) {
    suits.append(el('button', { type: 'button', class: `key suit suit-${s.toLowerCase()}`, 'data-suit': s,
      'aria-pressed': 'false', 'aria-label': say(SUIT_WORD[s]) }, SYMBOL[s]));
  }
  const ranks = el('div', { class: 'ranks', role: 'group', 'aria-label': say('rank') });
  for (const r of RANKS) {
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
    penalty: '',
  };
}

function setup(form) {
  const info = form.dataset;
  const handSize = Number(info.handSize);
  const decks = Number(info.decks);
  const jokers = Number(info.jokers);
  const entering = form.classList.contains('round-form') || form.classList.contains('hand-form');
  const seats = [...form.querySelectorAll('fieldset.player')].map(seatOf);
  const keypad = buildKeypad(info, jokers);
  const saveButton = form.querySelector('.save-bar button');
  const history = [];          // [seat index, card] in the order tapped, for Undo
  let active = null;
  let suit = 'S';
  let settling = null;         // {until, below}: taps on what just appeared are ignored until then

  const cardsOf = (i) => readCards(seats[i].input.value).cards;
  const countInRound = (card) => seats.reduce((n, _, i) => n + cardsOf(i).filter((c) => c === card).length, 0);
  const isOut = (i) => Boolean(seats[i].out && seats[i].out.checked);

  function setCards(i, cards) {
    seats[i].input.value = cards.join(' ');
    seats[i].input.dispatchEvent(new Event('input', { bubbles: true }));
  }

  // After the keypad opens or closes, what appeared under a finger gets no tap for SETTLE_MS:
  // the keys after it opens, the page below its top edge after it closes (Save stays disabled).
  let settled = null;
  function settle(opened) {
    const top = keypad.pad.getBoundingClientRect().top;
    settling = { until: performance.now() + SETTLE_MS, opened, below: top };
    document.documentElement.dataset.settling = '1';
    if (opened) keypad.pad.setAttribute('aria-disabled', 'true');
    else if (saveButton) saveButton.disabled = true;
    clearTimeout(settled);
    settled = setTimeout(() => {
      settling = null;
      delete document.documentElement.dataset.settling;
      keypad.pad.removeAttribute('aria-disabled');
      if (saveButton) saveButton.disabled = false;
    }, SETTLE_MS);
  }
  document.addEventListener('click', (e) => {
    if (!settling || performance.now() > settling.until) return;
    const onPad = keypad.pad.contains(e.target);
    if (settling.opened ? onPad : (!onPad && e.clientY >= settling.below && e.detail > 0)) {
      e.preventDefault();
      e.stopPropagation();
    }
  }, true);

  function chooseSuit(s) {
    suit = s;
    for (const k of keypad.suits.querySelectorAll('.suit')) k.setAttribute('aria-pressed', String(k.dataset.suit === s));
    keypad.ranks.className = `ranks suit-${s.toLowerCase()}`;
    for (const key of keypad.ranks.querySelectorAll('.rank')) {
      const wild = key.dataset.rank === info.wild ? `, ${say('wild')}` : '';
      key.setAttribute('aria-label', `${pretty(key.dataset.rank + suit)}${wild}`);
    }
  }

  function showStatus() {
    if (active === null) return;
    keypad.count.textContent = `${seats[active].name} · ${say('count', { count: cardsOf(active).length, size: handSize })}`;
    keypad.penalty.textContent = seats[active].penalty;
  }

  // The last chip in view inside the hand area (the page itself never scrolls for it).
  function showLastChip() {
    const last = active !== null && seats[active].chips.lastElementChild;
    if (!last) return;
    const area = keypad.hand;
    const bottom = last.offsetTop + last.offsetHeight;
    if (bottom > area.scrollTop + area.clientHeight || last.offsetTop < area.scrollTop) area.scrollTop = bottom - area.clientHeight + 4;
  }

  function tell(text) {
    keypad.message.textContent = text;
    if (text) keypad.hand.scrollTop = 0;
  }

  function add(card) {
    const i = active;
    const cards = cardsOf(i);
    if (cards.length >= handSize) {
      tell(say('holds', { name: seats[i].name, count: cards.length, why: info.limitWhy }));
      return;
    }
    const limit = card === 'JK' ? jokers : decks;
    if (countInRound(card) >= limit) {
      tell(card === 'JK' ? say('jokers', { count: jokers })
        : limit === 1 ? say('copy', { card: pretty(card) }) : say('copies', { count: limit, card: pretty(card), decks }));
      return;
    }
    tell('');
    setCards(i, [...cards, card]);
    history.push([i, card]);
    if (entering && cards.length + 1 === handSize) moveOn(i);
  }

  // The next player to enter after seat i: not marked as gone out, no points, hand not full.
  function nextPlayer(i) {
    for (let j = i + 1; j < seats.length; j += 1) {
      if (!isOut(j) && cardsOf(j).length < handSize && !seats[j].points?.value.trim()) return j;
    }
    return null;
  }
  function moveOn(i) {
    const j = nextPlayer(i);
    if (j === null) close(); else open(j);
  }

  // The hand's chips, warning and preview go where the hand is being looked at.
  function dock(i, inKeypad) {
    const s = seats[i];
    if (inKeypad) keypad.hand.append(s.chips, s.warn, s.preview);
    else { s.field.insertBefore(s.chips, s.pick); s.field.insertBefore(s.warn, s.pick); s.field.append(s.preview); }
  }

  function open(i) {
    const wasClosed = keypad.pad.hidden;
    if (active !== null && active !== i) dock(active, false);
    active = i;
    dock(i, true);
    keypad.pad.setAttribute('aria-label', say('pickerFor', { name: seats[i].name }));
    keypad.pad.hidden = false;
    form.classList.add('keypad-open');
    document.documentElement.style.setProperty('--keypad-h', `${keypad.pad.offsetHeight}px`);
    tell('');
    chooseSuit('S');
    seats.forEach((s, j) => {
      s.pick.setAttribute('aria-expanded', String(j === i));
      s.fieldset.classList.toggle('active', j === i);
    });
    showStatus();
    showLastChip();
    seats[i].fieldset.scrollIntoView({ block: 'nearest' });   // the page scrolls; the keys stay put
    return wasClosed;
  }
  // Closed by a tap (Done, or the last card of the last hand) the page below settles first; closed
  // because a text field took the focus, the phone's keyboard comes up and nothing lands there.
  function close(typing = false) {
    if (keypad.pad.hidden) return;
    if (active !== null) dock(active, false);
    if (!typing) settle(false);
    keypad.pad.hidden = true;
    form.classList.remove('keypad-open');
    for (const s of seats) {
      s.pick.setAttribute('aria-expanded', 'false');
      s.fieldset.classList.remove('active');
    }
    active = null;
  }
  function openByTap(i) {
    if (open(i)) settle(true);
  }

  keypad.ranks.addEventListener('click', (e) => {
    const key = e.target.closest('button');
    if (!key || active === null || keypad.pad.hasAttribute('aria-disabled')) return;
    add(key.classList.contains('joker') ? 'JK' : key.dataset.rank + suit);
  });
  keypad.suits.addEventListener('click', (e) => {
    const key = e.target.closest('button');
    if (key && !keypad.pad.hasAttribute('aria-disabled')) chooseSuit(key.dataset.suit);
  });
  keypad.undo.addEventListener('click', () => {
    const last = history.pop();
    if (!last) return;
    const [i, card] = last;
    const cards = cardsOf(i);
    const at = cards.lastIndexOf(card);
    if (at >= 0) cards.splice(at, 1);
    setCards(i, cards);
    if (active !== i) open(i);
    tell('');
  });
  keypad.done.addEventListener('click', () => close());

  // The hand being entered was filled in from elsewhere (a player's own phone): move on from it.
  function refresh() {
    if (active !== null && entering && (isOut(active) || cardsOf(active).length >= handSize || seats[active].points?.value.trim())) moveOn(active);
  }

  seats.forEach((s, i) => {
    // The server's message for this field, if the page came back with one: it already says what
    // is wrong with the text as sent, so the live warning waits until the text changes.
    const sent = s.field.querySelector('.error:not(.size-warning)') ? s.input.value : null;
    s.field.append(s.chips, s.warn, s.pick, s.preview);
    s.pick.addEventListener('click', () => (active === i ? close() : openByTap(i)));
    // Typing closes the keypad: the phone's own keyboard takes its place.
    for (const field of [s.input, s.points]) field?.addEventListener('focus', () => close(true));

    const render = () => {
      const { cards, bad } = readCards(s.input.value);
      const groups = new Map();
      for (const card of cards) groups.set(card, (groups.get(card) || 0) + 1);
      s.chips.replaceChildren(...[...groups].map(([card, n]) => {
        const label = n > 1 ? `${pretty(card)} ×${n}` : pretty(card);
        const chip = el('button', { type: 'button', class: `chip ${suitClass(card)}`, 'aria-label': say('remove', { card: label }) }, label);
        chip.addEventListener('click', () => {
          const now = readCards(s.input.value).cards;
          now.splice(now.lastIndexOf(card), 1);
          setCards(i, now);
        });
        return chip;
      }), ...bad.map((token) => el('span', { class: 'chip bad' }, say('notCard', { token }))));
      s.warn.textContent = cards.length > handSize && s.input.value !== sent
        ? say('tooMany', { count: cards.length, why: info.limitWhy }) : '';
      if (active === i) { showStatus(); showLastChip(); }
    };
    let timer = null;
    let asked = 0;
    const solve = async () => {
      if (info.preview === 'off') return;
      const { cards, bad } = readCards(s.input.value);
      asked += 1;
      const mine = asked;
      if (!cards.length || bad.length) { s.preview.replaceChildren(); s.penalty = ''; showStatus(); return; }
      // The server draws the preview with the result pages' own template (/audit/preview).
      const url = `${info.previewUrl}?cards=${encodeURIComponent(cards.join(' '))}&round=${info.round}`
        + `&game=${encodeURIComponent(info.game)}${isOut(i) ? '&out=1' : ''}`;
      try {
        const res = await fetch(url);
        if (!res.ok && res.status !== 400) throw new Error(`preview: ${res.status}`);
        const box = document.createRange().createContextualFragment(await res.text()).firstElementChild;
        if (mine !== asked) return;
        s.preview.replaceChildren(box);
        s.penalty = box?.dataset.penalty ? say('penalty', { points: box.dataset.penalty }) : '';
        if (active === i) showStatus();
      } catch (e) {
        if (mine === asked) { s.preview.replaceChildren(); s.penalty = ''; }
      }
    };
    s.input.addEventListener('input', () => {
      render();
      clearTimeout(timer);
      timer = setTimeout(solve, 200);
    });
    if (s.out) {
      s.out.addEventListener('change', () => {
        for (const other of seats) other.input.dispatchEvent(new Event('input'));
        if (entering && active === i && isOut(i) && !cardsOf(i).length) moveOn(i);
      });
    }
    render();
    if (s.input.value.trim()) solve();
  });
  form.append(keypad.pad);

  // Enter moves to the next player's field of the same kind; on the last one it saves.
  form.addEventListener('keydown', (e) => {
    if (e.key !== 'Enter' || e.target.tagName !== 'INPUT' || e.target.type === 'checkbox') return;
    const here = seats.findIndex((s) => s.fieldset.contains(e.target));
    if (here >= 0 && here < seats.length - 1) {
      e.preventDefault();
      const kind = e.target.closest('.points') ? '.points input' : 'input.cards-input';
      seats[here + 1].fieldset.querySelector(kind).focus();
    }
  });

  // Open the keypad on the first player still to enter, so the first tap is a card.
  function start() {
    if (!entering) return;
    const first = nextPlayer(-1);
    if (first !== null && info.problem !== '1' && !form.querySelector('[aria-invalid=true]')) open(first);
  }
  return { seats, start, refresh };
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

// The page follows the game: when the round it is for is saved from another phone, it moves on to
// the next round and says so (the round page keeps what was typed here, and says that instead).
function followGame(form, onDrafts, typed) {
  const info = form.dataset;
  let leaving = false;
  form.addEventListener('submit', () => { leaving = true; });
  const moved = document.getElementById('round-moved');
  follow(form, {
    sheet(html) {
      const state = liveState(html);
      if (leaving || !state || state.nextRound === Number(info.round)) return;
      if (typed() && moved) { moved.hidden = false; return; }
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
function keepDraft(form, refresh) {
  const key = `draft:${form.dataset.game}:${form.dataset.round}`;
  const banner = document.getElementById('draft-banner');
  const fields = () => [...form.querySelectorAll('input[name^=entries-], input[name=went_out], input[name=version]')];
  const name = (f) => (f.type === 'checkbox' ? `went_out=${f.value}` : f.name);
  const snapshot = () => Object.fromEntries(fields().map((f) => [name(f), f.type === 'checkbox' ? f.checked : f.value]));
  if (form.dataset.saved === '1') localStorage.removeItem(key);
  let stored = null;
  try { stored = JSON.parse(localStorage.getItem(key)); } catch (e) { stored = null; }
  const now = snapshot();
  const differs = stored && Object.keys(now).some((k) => k !== 'version' && k in stored && stored[k] !== now[k]);
  if (differs && form.dataset.problem !== '1' && form.dataset.saved !== '1') {
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
  return () => changed;
}

const form = document.querySelector('form.round-form, form.audit-form, form.hand-form');
if (form) {
  if (!form.classList.contains('audit-form')) keepAwake();
  const { seats, start, refresh } = setup(form);
  let typed = () => false;
  if (form.classList.contains('round-form')) {
    typed = keepDraft(form, () => seats.forEach((s) => s.input.dispatchEvent(new Event('input'))));
  }
  start();
  if (form.dataset.eventsUrl) followGame(form, fillDrafts(form, seats, refresh), typed);
}
