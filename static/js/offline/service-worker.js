// The service worker's part (static/sw.js): what it keeps for this phone to play without a network,
// asked by message ('keep', 'take-over'), and the mark of a game kept (kept:<id>, the release and
// revision it was kept at).
import { PAGE, within } from './page.js';
import { keepRelease, kept, keys, read, write } from './store.js';

// The pages kept for any game: the start page as shown without a network (an installed app opens
// on it; it lists the games kept here), the new-game page (a kept sheet's "New game" leads there),
// the page each address of a game made here shows (made_here.html), and the one for any page that
// needs the server.
const SHELL = '/offline/made-here';
const START = '/offline/start';
const SHARED_PAGES = ['/games/new', SHELL, START, '/offline/needs-network'];
const SHARED_KEY = 'kept-shared-pages';             // the release and language they were kept for

const sharedMark = () => `${kept()}:${PAGE.language}`;

// Whether this game's pages are kept for the release this phone has (and the mark, any release).
export const keptMark = (id) => localStorage.getItem(`kept:${id}`) || '';
export const isKept = (id) => keptMark(id).startsWith(`${kept()}:`);
export const forget = (id) => localStorage.removeItem(`kept:${id}`);

// Keep the game on this phone (with a network): its data, its pages, the bundle. `then` runs once
// its pages are kept (not waited for: the page goes on meanwhile).
export async function keepGame(then) {
  const { urls, game } = PAGE;
  const res = await fetch(urls.offline, { cache: 'no-store', credentials: 'same-origin' });
  if (!res.ok) return;
  const data = await res.json();
  if (!data.bundle.length) return;                         // Pyodide is not installed on this server
  keepRelease(data.release);
  if (!(await read(keys.queue(game), [])).length) await write(keys.game(game), data);
  const mark = `${data.release}:${data.revision}`;
  if (!('serviceWorker' in navigator)) return;
  if (keptMark(game) === mark) { takeOver(); return; }
  const rounds = Object.keys(data.versions).map((n) => urls.round(n));
  // The shared pages are the same for every game: kept once a release and language, not at each
  // save (the new-game page is kept afresh whenever it opens online).
  const shared = localStorage.getItem(SHARED_KEY) === sharedMark() ? [] : SHARED_PAGES.map((url) => [url, url]);
  const pages = [[urls.sheet, urls.sheet], ...rounds.map((url) => [url, `${url}?ahead=1`]),
    ...data.static.map((url) => [url, url]), ['/manifest.webmanifest', '/manifest.webmanifest'], ...shared];
  askToKeep(game, data.bundle, pages).then(async (answer) => {
    if (answer.type !== 'kept') return;
    await takeOver();
    localStorage.setItem(`kept:${game}`, mark);
    localStorage.setItem(SHARED_KEY, sharedMark());
    then();
  });
}

// A new release's service worker, once installed, takes over when this page asks: after the game
// is kept (the old worker has kept the new release, and is idle), so that no navigation is in the
// old worker's hands as it goes (see sw.js). Waits until it has (at most a few seconds).
async function takeOver() {
  const registration = await navigator.serviceWorker.getRegistration();
  if (!registration) return;
  const installing = registration.installing;
  if (installing) {
    await within(10000, new Promise((resolve) => {
      installing.addEventListener('statechange', () => { if (installing.state !== 'installing') resolve(); });
    }));
  }
  if (!registration.waiting) return;
  const changed = new Promise((resolve) => { navigator.serviceWorker.addEventListener('controllerchange', resolve, { once: true }); });
  registration.waiting.postMessage({ type: 'take-over' });
  await within(5000, changed);
}

// Ask the service worker to keep these (sw.js, 'keep'); its answer is {type: 'kept'} or
// {type: 'not-kept'}. Any worker keeps the release it is asked for: the one in charge is asked,
// even with a new release's worker waiting. If a new one takes over before the answer (another
// page asked it to), the old one may have gone with the question, so the new one is asked again.
async function askToKeep(game, bundle, pages) {
  const registration = await navigator.serviceWorker.ready;
  const message = { type: 'keep', game, release: kept(), bundle, pages };
  return new Promise((resolve) => {
    const answered = (e) => {
      if (e.data.game !== game) return;
      navigator.serviceWorker.removeEventListener('message', answered);
      navigator.serviceWorker.removeEventListener('controllerchange', askAgain);
      resolve(e.data);
    };
    const askAgain = () => registration.active?.postMessage(message);
    navigator.serviceWorker.addEventListener('message', answered);
    navigator.serviceWorker.addEventListener('controllerchange', askAgain);
    registration.active.postMessage(message);
  });
}

// The service worker keeps made_here.html under each address of a game made here. Not waited for
// longer than a few seconds: without it, the worker shows that page for any game address it
// does not hold.
export async function keepShell(id, rounds) {
  if (!('serviceWorker' in navigator)) return;
  const pages = [`/games/${id}`, ...rounds.map((n) => `/games/${id}/rounds/${n}`)].map((address) => [address, SHELL]);
  await within(10000, askToKeep(id, [], pages));
}

// The shared pages, from the start page too (a phone that kept its games before the start page was
// among them, or in another language, has it as soon as it opens the app online).
export async function keepShared() {
  if (!('serviceWorker' in navigator) || localStorage.getItem(SHARED_KEY) === sharedMark()) return;
  const answer = await askToKeep('shared', [], SHARED_PAGES.map((url) => [url, url]));
  if (answer.type === 'kept') localStorage.setItem(SHARED_KEY, sharedMark());
}

// The tables whose page this phone kept (static/sw.js keeps a table's page to read it offline), the
// last kept first: {id, name, keeper}, as each page's heading says them (templates/tables/table.html).
export async function keptTables() {
  if (!('caches' in window) || !(await caches.has('pages'))) return [];
  const cache = await caches.open('pages');
  const found = new Map();
  for (const request of (await cache.keys()).reverse()) {
    const path = new URL(request.url).pathname;
    if (!path.startsWith('/tables/') || found.has(path)) continue;      // a table's page, once (of any filter)
    const res = await cache.match(request);
    const heading = res && new DOMParser().parseFromString(await res.text(), 'text/html').querySelector('h1[data-table]');
    if (heading) found.set(path, { id: heading.dataset.table, name: heading.textContent, keeper: Boolean(heading.dataset.keeper) });
  }
  return [...found.values()];
}
