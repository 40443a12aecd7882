// The round page at the table: a card picker for each player (rank keypad, suit buttons, chips
// that a tap removes, kept in step with the text field both ways), the minimal penalty shown
// as cards are entered (from /api/solve), and Enter moving on to the next player.
// Without JavaScript the page works with the text fields alone.
import { keepAwake } from './app.js';

const RANKS = ['A', '2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K'];
const SUITS = [['S', '♠'], ['H', '♥'], ['D', '♦'], ['C', '♣']];

// How cards are read: the tables of scorer/cards.py, handed over by the page as JSON
// (templates/games/_picker_data.html), so the browser and the server read the same cards.
function loadTables() {
  const node = typeof document !== 'undefined' && document.getElementById('card-tables');
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

const TABLES = loadTables();
const SYMBOL = TABLES ? TABLES.symbols : Object.fromEntries(SUITS);

// A card as typed, in canonical text ('10H', 'QS', 'JK'), or null.
export const readCard = TABLES ? cardReader(TABLES) : () => null;

// The page's words, in its language (templates/games/_picker_words.html); English if missing.
const WORDS = Object.assign({
  tapCards: 'Tap cards', done: 'Done', hint: 'Tap a rank, then a suit.', rankFirst: 'Tap a rank first.',
  holds: '{name} already holds {count} cards: {why}.',
  copies: 'All {count} {card} are already in this round ({decks} decks).',
  copy: '{card} is already in this round (1 deck).', jokers: 'All {count} jokers are already in this round.',
  penalty: 'Penalty {points}', melds: 'every card melds', notMeld: 'went out, but these do not meld', left: 'left:',
  notCard: "'{token}' is not a card", remove: 'Remove {card}', cardsOf: 'Cards of {name}',
  pickerFor: 'Card picker for {name}', wild: 'wild', joker: 'joker', spades: 'spades', hearts: 'hearts',
  diamonds: 'diamonds', clubs: 'clubs', set: 'set', run: 'run',
}, JSON.parse(document.getElementById('picker-words')?.textContent || '{}'));

function say(key, values = {}) {
  return WORDS[key].replace(/\{(\w+)\}/g, (_, name) => String(values[name] ?? ''));
}

export function readCards(text) {
  const cards = [], bad = [];
  for (const token of text.split(/[\s,;]+/).filter(Boolean)) {
    const card = readCard(token);
    if (card) cards.push(card); else bad.push(token);
  }
  return { cards, bad };
}

export function pretty(card) {
  return card === 'JK' ? '🃏' : card.slice(0, -1) + SYMBOL[card.slice(-1)];
}

function el(tag, attrs = {}, text = '') {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text) node.textContent = text;
  return node;
}

function setup(form) {
  const info = form.dataset;
  const handSize = Number(info.handSize);
  const decks = Number(info.decks);
  const jokers = Number(info.jokers);
  const players = [...form.querySelectorAll('fieldset.player')];
  const inputs = players.map((p) => p.querySelector('input.cards-input'));
  let active = null;

  // One picker, shown under the player being entered.
  const picker = el('div', { class: 'picker', role: 'group' });
  const ranks = el('div', { class: 'ranks' });
  const suits = el('div', { class: 'suits' });
  const message = el('p', { class: 'picker-message', role: 'status', 'aria-live': 'polite' });
  let rank = null;
  for (const r of RANKS) {
    const b = el('button', { type: 'button', class: 'key rank', 'aria-pressed': 'false', 'data-rank': r }, r);
    if (r === info.wild) { b.classList.add('wild'); b.append(el('small', {}, WORDS.wild)); b.setAttribute('aria-label', `${r}, ${WORDS.wild}`); }
    ranks.append(b);
  }
  if (jokers) ranks.append(el('button', { type: 'button', class: 'key joker', 'aria-label': WORDS.joker }, '🃏'));
  for (const [s, sym] of SUITS) {
    suits.append(el('button', { type: 'button', class: `key suit suit-${s.toLowerCase()}`, 'data-suit': s, 'aria-label': WORDS[{ S: 'spades', H: 'hearts', D: 'diamonds', C: 'clubs' }[s]] }, sym));
  }
  const done = el('button', { type: 'button', class: 'done' }, WORDS.done);
  picker.append(el('p', { class: 'help' }, `${WORDS.hint} ${info.wildWords ? `${info.wildWords}.` : ''}`), ranks, suits, message, done);

  function countInRound(card) {
    return inputs.reduce((n, input) => n + readCards(input.value).cards.filter((c) => c === card).length, 0);
  }

  function add(card) {
    const input = inputs[active];
    const { cards } = readCards(input.value);
    const name = players[active].dataset.player;
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
    input.value = [...cards, card].join(' ');
    input.dispatchEvent(new Event('input', { bubbles: true }));
  }

  ranks.addEventListener('click', (e) => {
    const b = e.target.closest('button');
    if (!b) return;
    if (b.classList.contains('joker')) { add('JK'); return; }
    rank = b.dataset.rank;
    for (const k of ranks.querySelectorAll('.rank')) k.setAttribute('aria-pressed', String(k === b));
    message.textContent = '';
  });
  suits.addEventListener('click', (e) => {
    const b = e.target.closest('button');
    if (!b) return;
    if (!rank) { message.textContent = WORDS.rankFirst; return; }
    add(rank + b.dataset.suit);
  });
  done.addEventListener('click', () => close());

  function open(i) {
    active = i;
    picker.setAttribute('aria-label', say('pickerFor', { name: players[i].dataset.player }));
    players[i].querySelector('.chips').after(picker);
    picker.hidden = false;
    message.textContent = '';
    for (const b of players) b.querySelector('.pick').setAttribute('aria-expanded', String(b === players[i]));
  }
  function close() {
    picker.hidden = true;
    for (const b of players) b.querySelector('.pick').setAttribute('aria-expanded', 'false');
    if (active !== null) players[active].querySelector('.pick').focus();
    active = null;
  }

  players.forEach((fieldset, i) => {
    const input = inputs[i];
    const chips = el('div', { class: 'chips', role: 'group', 'aria-label': say('cardsOf', { name: fieldset.dataset.player }) });
    const pick = el('button', { type: 'button', class: 'pick', 'aria-expanded': 'false' }, WORDS.tapCards);
    const preview = el('div', { class: 'preview', 'aria-live': 'polite' });
    input.closest('.field').append(chips, pick, preview);
    pick.addEventListener('click', () => (active === i ? close() : open(i)));

    const render = () => {
      const { cards, bad } = readCards(input.value);
      chips.replaceChildren(...cards.map((card, at) => {
        const chip = el('button', { type: 'button', class: `chip suit-${card.slice(-1).toLowerCase()}`, 'aria-label': say('remove', { card: pretty(card) }) }, pretty(card));
        chip.addEventListener('click', () => {
          const now = readCards(input.value).cards;
          now.splice(at, 1);
          input.value = now.join(' ');
          input.dispatchEvent(new Event('input', { bubbles: true }));
        });
        return chip;
      }), ...bad.map((token) => el('span', { class: 'chip bad' }, say('notCard', { token }))));
    };
    let timer = null, asked = 0;
    const solve = async () => {
      if (info.preview === 'off') return;
      const { cards, bad } = readCards(input.value);
      const mine = ++asked;
      if (!cards.length || bad.length) { preview.textContent = ''; return; }
      const url = `${info.api}?cards=${encodeURIComponent(cards.join(' '))}&round=${info.round}&game=${encodeURIComponent(info.game)}`;
      try {
        const res = await fetch(url);
        const data = await res.json();
        if (mine !== asked) return;
        const out = fieldset.querySelector('input[name=went_out]');
        preview.replaceChildren(describe(data, out !== null && out.checked));
      } catch (e) {
        if (mine === asked) preview.textContent = '';
      }
    };
    input.addEventListener('input', () => {
      render();
      clearTimeout(timer);
      timer = setTimeout(solve, 200);
    });
    const out = fieldset.querySelector('input[name=went_out]');
    if (out) {
      out.addEventListener('change', () => {
        for (const other of players) other.querySelector('.cards-input').dispatchEvent(new Event('input'));
      });
    }
    render();
    if (input.value.trim()) solve();
  });
  picker.hidden = true;
  form.append(picker);

  // Enter moves to the next player; on the last one it saves.
  form.addEventListener('keydown', (e) => {
    if (e.key !== 'Enter' || e.target.tagName !== 'INPUT' || e.target.type === 'radio') return;
    const here = players.findIndex((p) => p.contains(e.target));
    if (here >= 0 && here < players.length - 1) {
      e.preventDefault();
      inputs[here + 1].focus();
    }
  });
}

function describe(data, wentOut) {
  const box = el('p', { class: 'preview-line' });
  if (data.error) {
    box.classList.add('error');
    box.textContent = data.error;
    return box;
  }
  box.append(el('strong', { class: 'penalty' }, say('penalty', { points: data.penalty })));
  if (data.penalty === 0) box.append(` · ${WORDS.melds}`);
  else if (wentOut) { box.classList.add('error'); box.append(` · ${WORDS.notMeld}`); }
  for (const m of data.melds) box.append(' · ', `${WORDS[m.kind]} ${m.cards.map(pretty).join(' ')}`);
  if (data.deadwood.length) box.append(` · ${WORDS.left} `, data.deadwood.map(pretty).join(' '));
  return box;
}

const form = document.querySelector('form.round-form, form.audit-form');
if (form) {
  if (form.classList.contains('round-form')) keepAwake();
  setup(form);
}
