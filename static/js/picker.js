// The round page at the table: one tap a card. The picker stays open under the player being
// entered: a suit stays chosen while ranks are tapped (a second tap on a rank is a second copy,
// with two or three decks), the count against the hand size shows, and a full hand moves the
// picker on to the next player. The minimal penalty shows as cards go in, explained card by card
// (from /api/audit). What is entered is kept on this phone until the round is saved.
// Without JavaScript the page works with the text fields alone.
import { keepAwake } from './app.js';

const RANKS = ['A', '2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K'];
const SUITS = ['S', 'H', 'D', 'C'];
const SUIT_WORD = { S: 'spades', H: 'hearts', D: 'diamonds', C: 'clubs' };

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

// The preview of one hand, as the saved result shows it: each meld with what its wilds stand
// for, each deadwood card with its value, and the sum.
function describe(data, wentOut) {
  const box = el('div', { class: 'preview-line' });
  if (data.error) {
    box.classList.add('error');
    box.textContent = data.error;
    return box;
  }
  const head = el('p', {});
  head.append(el('strong', { class: 'penalty' }, say('penalty', { points: data.penalty })));
  if (data.deadwood.length > 1) head.append(` = ${data.deadwood_values.join(' + ')}`);
  if (data.penalty === 0) head.append(` · ${say('melds')}`);
  else if (wentOut) { box.classList.add('error'); head.append(` · ${say('notMeld')}`); }
  box.append(head);
  for (const m of data.melds) {
    const line = el('p', { class: 'meld' }, `${say(m.kind)} `);
    m.cards.forEach((card, i) => {
      const chip = el('span', { class: `card ${suitClass(card)}${card !== m.as[i] ? ' wild' : ''}` }, pretty(card));
      if (card !== m.as[i]) chip.append(el('small', {}, ` ${say('as', { card: pretty(m.as[i]) })}`));
      line.append(chip, ' ');
    });
    box.append(line);
  }
  if (data.deadwood.length) {
    const line = el('p', { class: 'meld deadwood' }, `${say('left')} `);
    data.deadwood.forEach((card, i) => {
      const chip = el('span', { class: `card ${suitClass(card)}` }, pretty(card));
      chip.append(el('small', {}, ` ${data.deadwood_values[i]}`));
      line.append(chip, ' ');
    });
    box.append(line);
  }
  return box;
}

function setup(form) {
  const info = form.dataset;
  const handSize = Number(info.handSize);
  const decks = Number(info.decks);
  const jokers = Number(info.jokers);
  const isRound = form.classList.contains('round-form');
  const isHand = form.classList.contains('hand-form');      // a seated player's own hand
  const players = [...form.querySelectorAll('fieldset.player')];
  const inputs = players.map((p) => p.querySelector('input.cards-input'));
  const outs = players.map((p) => p.querySelector('input[name=went_out]'));
  let active = null;
  let suit = 'S';
  const history = [];          // [player index, card] in the order tapped, for Undo

  // One picker, shown under the player being entered.
  const picker = el('div', { class: 'picker', role: 'group' });
  const top = el('div', { class: 'picker-top' });
  const count = el('p', { class: 'count', 'aria-live': 'polite' });
  const undo = el('button', { type: 'button', class: 'key undo', 'aria-label': say('undo') }, '⌫');
  const done = el('button', { type: 'button', class: 'key done' }, say('done'));
  top.append(count, undo, done);
  const suits = el('div', { class: 'suits', role: 'group', 'aria-label': say('suit') });
  for (const s of SUITS) {
    suits.append(el('button', { type: 'button', class: `key suit suit-${s.toLowerCase()}`, 'data-suit': s,
      'aria-pressed': String(s === suit), 'aria-label': say(SUIT_WORD[s]) }, SYMBOL[s]));
  }
  const ranks = el('div', { class: 'ranks', role: 'group', 'aria-label': say('rank') });
  for (const r of RANKS) {
    const key = el('button', { type: 'button', class: 'key rank', 'data-rank': r }, r);
    if (r === info.wild) { key.classList.add('wild'); key.append(el('small', {}, say('wild'))); }
    ranks.append(key);
  }
  if (jokers) ranks.append(el('button', { type: 'button', class: 'key joker', 'aria-label': say('joker') }, '🃏'));
  const message = el('p', { class: 'picker-message', role: 'status', 'aria-live': 'polite' });
  picker.append(top, suits, ranks, message);
  picker.hidden = true;

  function cardsOf(i) { return readCards(inputs[i].value).cards; }
  function countInRound(card) {
    return inputs.reduce((n, _, i) => n + cardsOf(i).filter((c) => c === card).length, 0);
  }
  function setCards(i, cards) {
    inputs[i].value = cards.join(' ');
    inputs[i].dispatchEvent(new Event('input', { bubbles: true }));
  }
  function rankLabels() {
    for (const key of ranks.querySelectorAll('.rank')) {
      const card = key.dataset.rank + suit;
      const wild = key.dataset.rank === info.wild ? `, ${say('wild')}` : '';
      key.setAttribute('aria-label', `${pretty(card)}${wild}`);
    }
  }
  function chooseSuit(s) {
    suit = s;
    for (const k of suits.querySelectorAll('.suit')) k.setAttribute('aria-pressed', String(k.dataset.suit === s));
    ranks.className = `ranks suit-${s.toLowerCase()}`;
    rankLabels();
  }

  function showCount() {
    if (active === null) return;
    const n = cardsOf(active).length;
    count.textContent = `${players[active].dataset.player} · ${say('count', { count: n, size: handSize })}`;
  }

  function add(card) {
    const i = active;
    const cards = cardsOf(i);
    const name = players[i].dataset.player;
    if (cards.length >= handSize) {
      message.textContent = say('holds', { name, count: cards.length, why: info.limitWhy });
      return;
    }
    const limit = card === 'JK' ? jokers : decks;
    if (countInRound(card) >= limit) {
      message.textContent = card === 'JK' ? say('jokers', { count: jokers })
        : limit === 1 ? say('copy', { card: pretty(card) }) : say('copies', { count: limit, card: pretty(card), decks });
      return;
    }
    message.textContent = '';
    setCards(i, [...cards, card]);
    history.push([i, card]);
    if ((isRound || isHand) && cards.length + 1 === handSize) moveOn(i);
  }

  // The next player to enter after seat i: not marked as gone out, hand not full.
  function nextPlayer(i) {
    for (let j = i + 1; j < players.length; j += 1) {
      if (!(outs[j] && outs[j].checked) && cardsOf(j).length < handSize && !players[j].querySelector('.points input').value.trim()) return j;
    }
    return null;
  }
  function moveOn(i) {
    const j = nextPlayer(i);
    if (j === null) {
      close();
      form.querySelector('.save-bar button')?.focus();
    } else {
      open(j, true);
    }
  }

  ranks.addEventListener('click', (e) => {
    const key = e.target.closest('button');
    if (!key || active === null) return;
    add(key.classList.contains('joker') ? 'JK' : key.dataset.rank + suit);
  });
  suits.addEventListener('click', (e) => {
    const key = e.target.closest('button');
    if (key) chooseSuit(key.dataset.suit);
  });
  undo.addEventListener('click', () => {
    const last = history.pop();
    if (!last) return;
    const [i, card] = last;
    const cards = cardsOf(i);
    const at = cards.lastIndexOf(card);
    if (at >= 0) cards.splice(at, 1);
    setCards(i, cards);
    if (active !== i) open(i);
    message.textContent = '';
  });
  done.addEventListener('click', () => close());

  function open(i, moved = false) {
    active = i;
    picker.setAttribute('aria-label', say('pickerFor', { name: players[i].dataset.player }));
    players[i].after(picker);                  // below the player's block, the form's full width
    picker.hidden = false;
    message.textContent = '';
    chooseSuit('S');
    for (const p of players) p.querySelector('.pick').setAttribute('aria-expanded', String(p === players[i]));
    for (const p of players) p.classList.toggle('active', p === players[i]);
    showCount();
    if (moved) picker.scrollIntoView({ block: 'nearest' });
  }
  function close() {
    picker.hidden = true;
    for (const p of players) {
      p.querySelector('.pick').setAttribute('aria-expanded', 'false');
      p.classList.remove('active');
    }
    active = null;
  }

  players.forEach((fieldset, i) => {
    const input = inputs[i];
    const chips = el('div', { class: 'chips', role: 'group', 'aria-label': say('cardsOf', { name: fieldset.dataset.player }) });
    const pick = el('button', { type: 'button', class: 'pick', 'aria-expanded': 'false' }, say('tapCards'));
    const preview = el('div', { class: 'preview', 'aria-live': 'polite' });
    const warn = el('p', { class: 'error size-warning', role: 'alert' });
    // The server's message for this field, if the page came back with one: it already says what
    // is wrong with the text as sent, so the live warning waits until the text changes.
    const sent = input.closest('.field').querySelector('.error:not(.size-warning)') ? input.value : null;
    input.closest('.field').append(chips, warn, pick, preview);
    pick.addEventListener('click', () => (active === i ? close() : open(i)));

    const render = () => {
      const { cards, bad } = readCards(input.value);
      const groups = new Map();
      for (const card of cards) groups.set(card, (groups.get(card) || 0) + 1);
      chips.replaceChildren(...[...groups].map(([card, n]) => {
        const label = n > 1 ? `${pretty(card)} ×${n}` : pretty(card);
        const chip = el('button', { type: 'button', class: `chip ${suitClass(card)}`, 'aria-label': say('remove', { card: label }) }, label);
        chip.addEventListener('click', () => {
          const now = readCards(input.value).cards;
          now.splice(now.lastIndexOf(card), 1);
          setCards(i, now);
        });
        return chip;
      }), ...bad.map((token) => el('span', { class: 'chip bad' }, say('notCard', { token }))));
      warn.textContent = cards.length > handSize && input.value !== sent
        ? say('tooMany', { count: cards.length, why: info.limitWhy }) : '';
      if (active === i) showCount();
    };
    let timer = null;
    let asked = 0;
    const solve = async () => {
      if (info.preview === 'off') return;
      const { cards, bad } = readCards(input.value);
      asked += 1;
      const mine = asked;
      if (!cards.length || bad.length) { preview.replaceChildren(); return; }
      const url = `${info.api}?cards=${encodeURIComponent(cards.join(' '))}&round=${info.round}&game=${encodeURIComponent(info.game)}`;
      try {
        const res = await fetch(url);
        const data = await res.json();
        if (mine !== asked) return;
        preview.replaceChildren(describe(data, outs[i] !== null && outs[i].checked));
        // A preview above the picker pushes it down: keep the picker in view.
        if (active !== null && active > i) picker.scrollIntoView({ block: 'nearest' });
      } catch (e) {
        if (mine === asked) preview.replaceChildren();
      }
    };
    input.addEventListener('input', () => {
      render();
      clearTimeout(timer);
      timer = setTimeout(solve, 200);
    });
    if (outs[i]) {
      outs[i].addEventListener('change', () => {
        for (const other of inputs) other.dispatchEvent(new Event('input'));
        if (isRound && active === i && outs[i].checked && !cardsOf(i).length) moveOn(i);
      });
    }
    render();
    if (input.value.trim()) solve();
  });
  form.append(picker);

  // Enter moves to the next player's field of the same kind; on the last one it saves.
  form.addEventListener('keydown', (e) => {
    if (e.key !== 'Enter' || e.target.tagName !== 'INPUT' || e.target.type === 'radio') return;
    const here = players.findIndex((p) => p.contains(e.target));
    if (here >= 0 && here < players.length - 1) {
      e.preventDefault();
      const kind = e.target.closest('.points') ? '.points input' : 'input.cards-input';
      players[here + 1].querySelector(kind).focus();
    }
  });

  if (isRound) {
    keepDraft(form, () => players.forEach((_, i) => inputs[i].dispatchEvent(new Event('input'))));
    if (info.draftsUrl) followDrafts(form, players, inputs, outs);
  }
  if (isRound || isHand) {
    // Open the picker on the first player still to enter, so the first tap is a card.
    const first = nextPlayer(-1);
    if (first !== null && !form.querySelector('[aria-invalid=true]')) open(first);
  }
}

// The scorekeeper's round page fills in as the seated players enter their own hands (asked every
// 1.5 s): a seat the scorekeeper has not touched takes what its player entered, marked as theirs;
// what the scorekeeper types is never overwritten. Nothing is saved until Save.
function followDrafts(form, players, inputs, outs) {
  const touched = new Set();
  let applying = false;
  let outTouched = false;
  players.forEach((fieldset, i) => {
    fieldset.addEventListener('input', () => { if (!applying) touched.add(i); });
  });
  for (const out of outs) out?.addEventListener('change', () => { if (!applying) outTouched = true; });
  const apply = (drafts) => {
    applying = true;
    try {
      for (const [seat, draft] of Object.entries(drafts)) {
        const i = Number(seat);
        if (touched.has(i) || !players[i]) continue;
        const points = players[i].querySelector('.points input');
        inputs[i].value = draft.cards || '';
        points.value = draft.points || '';
        if (draft.went_out && outs[i] && !outTouched) outs[i].checked = true;
        inputs[i].dispatchEvent(new Event('input', { bubbles: true }));
        players[i].querySelector('.entered-by').textContent = form.dataset.enteredBy.replace('{player}', draft.player);
        players[i].classList.add('self-entered');
      }
    } finally {
      applying = false;
    }
  };
  // Pushed by the server as the players send them; asked every 1.5 s where a stream can't be held.
  if ('EventSource' in window && form.dataset.eventsUrl) {
    const source = new EventSource(form.dataset.eventsUrl);
    source.addEventListener('drafts', (e) => apply(JSON.parse(e.data)));
    return;
  }
  let last = '';
  setInterval(async () => {
    if (document.visibilityState !== 'visible') return;
    try {
      const res = await fetch(form.dataset.draftsUrl, { cache: 'no-store' });
      const body = res.ok ? await res.text() : last;
      if (body !== last) { last = body; apply(JSON.parse(body)); }
    } catch (e) {
      // offline for now: the next tick tries again
    }
  }, 1500);
}

// What is typed on the round page stays on this phone until the round is saved: after a failed
// save (network gone, phone locked, server error), a reload brings it all back, with the
// version it was made from, so saving it still checks that nobody saved the round meanwhile.
function keepDraft(form, refresh) {
  const key = `draft:${form.dataset.game}:${form.dataset.round}`;
  const banner = document.getElementById('draft-banner');
  const fields = () => [...form.querySelectorAll('input[name^=entries-], input[name=went_out], input[name=version]')];
  const snapshot = () => Object.fromEntries(fields().map((f) => [f.type === 'radio' ? `went_out=${f.value}` : f.name,
    f.type === 'radio' ? f.checked : f.value]));
  if (form.dataset.saved === '1') localStorage.removeItem(key);
  let stored = null;
  try { stored = JSON.parse(localStorage.getItem(key)); } catch (e) { stored = null; }
  const now = snapshot();
  const differs = stored && Object.keys(now).some((k) => k !== 'version' && k in stored && stored[k] !== now[k]);
  if (differs && form.dataset.problem !== '1' && form.dataset.saved !== '1') {
    for (const f of fields()) {
      const k = f.type === 'radio' ? `went_out=${f.value}` : f.name;
      if (!(k in stored)) continue;
      if (f.type === 'radio') f.checked = stored[k]; else f.value = stored[k];
    }
    refresh();
    if (banner) banner.hidden = false;
  }
  form.addEventListener('input', () => {
    localStorage.setItem(key, JSON.stringify(snapshot()));
    if (banner) banner.hidden = false;
  });
  form.addEventListener('change', () => localStorage.setItem(key, JSON.stringify(snapshot())));
}

const form = document.querySelector('form.round-form, form.audit-form, form.hand-form');
if (form) {
  if (!form.classList.contains('audit-form')) keepAwake();
  setup(form);
}
