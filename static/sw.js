// The service worker: it makes the app installable and keeps a game playable without a network.
//
// Pages come from the server whenever it answers (a scoresheet is never stale while online); a
// game's pages are also kept, so without a network the last copy opens instead of the browser's
// error page, and the start page (an installed app opens on it) is a copy that lists the games
// kept here. The offline bundle (this project's scorer under /offline/<release>/, and Pyodide under
// its own version's address, /offline/pyodide/<version>/) is fetched only when a scorekeeper's page
// asks for it (a 'keep' message), never for a follower: a new release (this file changes with it)
// fetches the files whose address is new, keeps those it has (Pyodide, while its version stays) and
// drops the rest.
const RELEASE = '__RELEASE__';
const BUNDLE = 'bundle';             // the offline bundle's files, each under its release's address
const PAGES = 'pages';               // the kept pages of games, and the static files they use
const START = '/offline/start';      // the start page without a network: the games kept here
const SHELL = '/offline/made-here';  // the page of a game made here (offline.js draws it)
const NEEDS_NETWORK = '/offline/needs-network';   // any other page, without a network
const GAME_ID = '__GAME_ID__';       // the pattern of a game's id (web/store/database.py GAME_ID)
const A_GAMES_PAGE = new RegExp(`^/games/${GAME_ID}(/rounds/\\d+)?$`);   // its sheet or a round's page
const A_TABLES_PAGE = new RegExp(`^/tables/${GAME_ID}$`);   // a table's page (its id is of a game's kind): kept to read offline
// A static file under its release's address (web/statics.py): never changes, so once kept it is
// answered from the copy, without asking the server.
const A_RELEASED_STATIC = /^\/static\/([0-9a-f]{12})\//;

// A new release's worker waits until a scorekeeper's page asks it to take over ('take-over'),
// which the page does once the old worker has kept the new release for it and is idle: a worker
// taking over while the old one still answered a navigation left that navigation hanging in
// Chromium (see docs/internals.md). The very first worker takes over at once.
self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

// Once a release is kept, every bundle file it does not list is dropped, one by one: the old
// release's own files, and an older Pyodide's; the Pyodide it still runs on stays.
async function dropOthers(bundle) {
  const listed = new Set(bundle.map((url) => new URL(url, self.location.origin).pathname));
  for (const name of await caches.keys()) {
    if (name !== BUNDLE && !name.startsWith('bundle-')) continue;   // bundle-<release>: as kept before
    const cache = await caches.open(name);
    for (const request of await cache.keys()) {
      if (!listed.has(new URL(request.url).pathname)) await cache.delete(request);
    }
  }
}

// {type: 'keep', game, release, bundle: [urls], pages: [[address kept, url fetched]]}: keep them all
// (and drop other releases' files), then answer {type: 'kept', game, release} (or {type: 'not-kept',
// game, error}) to the page that asked. {type: 'take-over'}: a new worker waiting takes over.
self.addEventListener('message', (event) => {
  const ask = event.data || {};
  if (ask.type === 'take-over') self.skipWaiting();
  if (ask.type !== 'keep') return;
  event.waitUntil(keep(ask).then(
    async () => {
      if (ask.bundle && ask.bundle.length) await dropOthers(ask.bundle);
      event.source.postMessage({ type: 'kept', game: ask.game, release: ask.release || RELEASE });
    },
    (err) => event.source.postMessage({ type: 'not-kept', game: ask.game, error: String(err) })));
});

// Any worker keeps the release the page names (the server's newest): a page may ask the old worker
// to keep the new release, which the new worker then finds in place.
async function keep({ bundle = [], pages = [] }) {
  const kept = await caches.open(BUNDLE);
  for (const url of bundle) {
    if (!(await kept.match(url))) await kept.add(url);
  }
  const cache = await caches.open(PAGES);
  await Promise.all(pages.map(async ([page, url]) => {
    const address = pageKey(new URL(page, self.location.origin));
    if (A_RELEASED_STATIC.test(address) && await cache.match(address)) return;     // kept, and it never changes
    // Without a network (a game made offline), the copy kept of that page will do.
    const res = await fetch(url, { credentials: 'same-origin', cache: 'no-store', headers: { 'X-Keep': '1' } })
      .catch(() => cache.match(address));
    if (res && res.ok) await cache.put(address, res);
  }));
  await dropOtherStatics(cache, pages);
}

// The static files of releases other than those just kept are dropped (each release's are all of them).
async function dropOtherStatics(cache, pages) {
  const releases = new Set(pages.map(([page]) => (page.match(A_RELEASED_STATIC) || [])[1]).filter(Boolean));
  if (!releases.size) return;
  for (const request of await cache.keys()) {
    const found = new URL(request.url).pathname.match(A_RELEASED_STATIC);
    if (found && !releases.has(found[1])) await cache.delete(request);
  }
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method === 'POST' && request.mode === 'navigate' && SENT.some(([pattern]) => pattern.test(url.pathname))) {
    event.respondWith(saveOrKeep(request, url));
    return;
  }
  if (request.method !== 'GET') return;
  if (request.mode === 'navigate' && url.pathname === '/') {
    event.respondWith(orKept(request, START));
  } else if (url.pathname.startsWith('/offline/')) {
    event.respondWith(caches.match(request).then((hit) => hit || fetchAndKeep(request, url)));
  } else if (A_RELEASED_STATIC.test(url.pathname)) {
    event.respondWith(keptOrFresh(request, url));
  } else if (request.mode === 'navigate' && (url.pathname.startsWith('/games/') || A_TABLES_PAGE.test(url.pathname))
             || url.pathname.startsWith('/static/') || url.pathname === '/manifest.webmanifest') {
    event.respondWith(fresh(request, url));
  } else if (request.mode === 'navigate') {
    event.respondWith(orKept(request, NEEDS_NETWORK));
  }
});

// Pyodide or the packages asked for while not kept (a worker of before they had addresses of their
// own dropped them while it kept the update): kept again as they come, so the phone plays offline.
async function fetchAndKeep(request, url) {
  const res = await fetch(request);
  if (res.ok && /^\/offline\/(pyodide|packages)\//.test(url.pathname)) {
    await (await caches.open(BUNDLE)).put(request, res.clone());
  }
  return res;
}

// A static file of a release: the copy kept, else from the network (and kept).
async function keptOrFresh(request, url) {
  const hit = await (await caches.open(PAGES)).match(url.pathname);
  return hit || fresh(request, url);
}

// A page is kept under its address with the parameters that change what it shows: its language
// (?lang=), a finished game opened to correct it (?edit=1), the big screen (?view=tv). /games/x and
// /games/x?lang=es are two pages, each kept as it came; what only tells the page what just happened
// (?saved=1, ?offline=1, ?ahead=1, ...) is left out, so the one kept copy answers for all of them.
const SHOWN = ['edit', 'lang', 'view', 'kind', 'period'];   // kind, period: a table's filters

function pageKey(url) {
  const kept = new URLSearchParams();
  for (const name of SHOWN) {
    for (const value of url.searchParams.getAll(name)) kept.append(name, value);
  }
  const search = kept.toString();
  return search ? `${url.pathname}?${search}` : url.pathname;
}

// From the network, keeping a copy of every sheet and "my hand" page, of a kept game's other pages
// and of the static files; from the copy when the network fails (a follower sees the last sheet
// it had, in the language it asked for). A game made on this phone offline has the page
// made_here.html kept under its addresses, shown until the server has the game.
async function fresh(request, url) {
  const cache = await caches.open(PAGES);
  const address = pageKey(url);
  try {
    const res = await fetch(request);
    if (res.status === 404) {            // a game made on this phone, not on the server yet: its page kept here
      const hit = await cache.match(address);
      if (hit && hit.headers.get('X-Made-Here')) return hit;
    }
    const wanted = address.startsWith('/static/') || /^\/games\/[^/]+(\/hand)?$/.test(url.pathname)
      || A_TABLES_PAGE.test(url.pathname) || await cache.match(address);
    if (res.ok && !res.redirected && wanted) await cache.put(address, res.clone());
    return res;
  } catch (err) {
    const hit = await cache.match(address);
    if (hit) return hit;
    // A page of a game not kept (a score's audit, the print page): back to the game's sheet, if kept.
    const sheet = url.pathname.match(/^\/games\/[^/]+/);
    if (request.mode === 'navigate' && sheet && sheet[0] !== url.pathname && await cache.match(sheet[0])) {
      return Response.redirect(sheet[0], 303);
    }
    // A game not kept here: the page of a game made here, which says it is not on this phone.
    const shell = request.mode === 'navigate' && A_GAMES_PAGE.test(url.pathname) && await cache.match(SHELL);
    if (shell) return shell;
    throw err;
  }
}

// A page from the server; without one, the page kept for it: the start page (an installed app
// opens on it) lists the games kept here; any other page that only the server makes (an audit,
// history, another language) says it needs a network, with a way back to the games.
async function orKept(request, kept) {
  try {
    return await fetch(request);
  } catch (err) {
    const hit = await (await caches.open(PAGES)).match(kept);
    if (hit) return hit;
    throw err;
  }
}

// What is posted while the server does not answer goes back to its page (kept), which has what
// was typed (picker.js keeps it): a round is then saved on this phone (offline.js, told by
// ?offline=1); a seated player's hand is said to be unsent (?unsent=1), to send again later.
const SENT = [[/^\/games\/[^/]+\/rounds\/\d+$/, 'offline'], [/^\/games\/[^/]+\/hand$/, 'unsent']];

async function saveOrKeep(request, url) {
  try {
    return await fetch(request);
  } catch (err) {
    if (!(await (await caches.open(PAGES)).match(pageKey(url)))) throw err;
    const [, flag] = SENT.find(([pattern]) => pattern.test(url.pathname));
    return Response.redirect(`${url.pathname}?${flag}=1`, 303);
  }
}
