// The page offline play runs on, as its #offline box describes it (templates/games/_offline.html):
// which page it is, its game and that game's addresses, its words in the page's language. Read
// once as the page loads, never changed.
import { sayer } from '../words.js';

const box = document.getElementById('offline');
const info = box ? box.dataset : {};

// The page of a game made on this phone (made_here.html, kept under the game's own addresses):
// its game and addresses come from the page's address.
const madeHere = Boolean(info.madeHere);
const game = madeHere ? window.location.pathname.split('/')[2] : info.game || '';

// The addresses of a game's own pages, as the server routes them.
export const addresses = (id) => ({
  sheet: `/games/${id}`, round: (n) => `/games/${id}/rounds/${n}`, offline: `/games/${id}/offline.json`,
});

export const PAGE = Object.freeze({
  box,
  kind: !box ? null : madeHere ? 'made-here' : info.newGame ? 'new-game' : info.start ? 'start' : 'game',
  startHere: info.start === 'here',      // the start page's copy kept here, shown when the server does not answer
  game,
  urls: addresses(game),
  tokenUrl: info.tokenUrl,
  // How often what waits is sent again: the server's OFFLINE_SEND_AGAIN_MS (a page kept from before it
  // said so sends when it loads and when the network comes back).
  sendAgainMs: Number(info.sendAgainMs) || null,
  gameId: info.gameId ? JSON.parse(info.gameId) : null,     // the server's format of a game's id (new-game page)
  language: document.documentElement.dataset.language || 'en',   // the catalog's code (pt), not the tag (pt-BR)
});

// A text of the page's, in its language, its {names} filled in.
export const say = sayer(info);

export const within = (ms, promise) => Promise.race([promise, new Promise((resolve) => { setTimeout(resolve, ms); })]);

export function li(text) { const node = document.createElement('li'); node.textContent = text; return node; }

// A language chosen leads back to this address, not to the kept page's own.
export function languagesLeadHere() {
  for (const link of document.querySelectorAll('footer.languages a')) {
    const chosen = new URL(link.href);
    chosen.searchParams.set('next', window.location.pathname);
    link.href = chosen.pathname + chosen.search;
  }
}

// What keeps a form from being saved here, in a box above it: nothing was saved, and why.
export function problems(form, messages) {
  let node = document.getElementById('offline-problems');
  if (!node) {
    node = document.createElement('div');
    node.id = 'offline-problems';
    node.className = 'error-box';
    node.setAttribute('role', 'alert');
    form.before(node);
  }
  node.replaceChildren(...[say('notSaved'), ...messages].map((m) => { const p = document.createElement('p'); p.textContent = m; return p; }));
  node.scrollIntoView({ block: 'nearest' });
  return node;
}
