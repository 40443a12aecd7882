// Offline play, for the scorekeeper's pages (the sheet and the round page).
//
// When the scorekeeper opens a game with a network, the page keeps it on the phone: the game
// (/games/<id>/offline.json) in IndexedDB through idb-keyval, and the service worker keeps the
// game's pages and the offline bundle (Pyodide running this project's own scorer: see
// scorer-worker.js and web/phone.py). Without a network, a round is read, checked and scored by
// that same Python, saved on the phone, and the sheet is drawn by the server's own template. The
// rounds saved so ("not sent yet") are sent in order as soon as the server answers, each with
// the version it was based on, so the server's conflict check decides; a conflict shows both
// versions and the scorekeeper chooses. Nothing typed is dropped: a round set aside stays listed.
//
// A new game can be made without a network too: the new-game page's fields are read by the same
// Python (scorer.gamefile.new_game), the game gets an id of the server's kind, and the service
// worker keeps the page made_here.html under that game's addresses; in it this script draws the
// sheet and the rounds with the server's partials. Once the server answers, the game is sent as
// the new-game form (with its id: sent twice, it is one game) and then its rounds, as above.
import { newId } from './offline/ids.js';

const box = document.getElementById('offline');
const info = box ? box.dataset : null;
const madeHere = Boolean(info && info.madeHere);       // the page of a game made on this phone
const newGamePage = Boolean(info && info.newGame);     // the new-game page
const startPage = Boolean(info && info.start);         // the start page, the list of games
const startHere = Boolean(info && info.start === 'here');  // its copy kept here, shown when the server does not answer
if (madeHere) {
  info.game = window.location.pathname.split('/')[2];
  info.sheetUrl = `/games/${info.game}`;
  info.roundUrl = `/games/${info.game}/rounds/{n}`;
  info.offlineUrl = `/games/${info.game}/offline.json`;
}
const language = document.documentElement.lang || 'en';
const RELEASE_KEY = 'offline-release';

let release = localStorage.getItem(RELEASE_KEY);
let idb = null;
let worker = null;
let asked = 0;
let unsent = 0;                      // rounds saved here and not sent yet (known before a submit)
let made = false;                    // this game was made here and the server has not got it yet
let refused = false;                 // ... and will not take it (its file can still be imported)
const waiting = new Map();

const say = (key, values = {}) => (info[key] || '').replace(/\{(\w+)\}/g, (m, k) => (k in values ? values[k] : m));

async function store() {
  if (!idb) {
    idb = import(`/offline/${release}/idb-keyval.js`).catch((err) => { idb = null; throw err; });
  }
  return idb;
}
const gameKey = () => `game:${info.game}`;
const queueKey = () => `queue:${info.game}`;
const asideKey = () => `aside:${info.game}`;
const liveKey = () => `live:${info.game}`;
async function read(key, empty) { const { get } = await store(); return (await get(key)) ?? empty; }
async function write(key, value) { const { set } = await store(); await set(key, value); }

// The scorer: one worker a page, started when first asked. A worker that cannot start (its bundle
// gone) answers every question with an error, and the next question starts a new one.
export function ask(name, args) {
  if (!worker) {
    worker = new Worker(`/offline/${release}/worker.js`, { type: 'module' });
    worker.onmessage = (e) => { const done = waiting.get(e.data.id); waiting.delete(e.data.id); if (done) done(e.data); };
    const started = worker;
    worker.onerror = (e) => stopScorer(started, e.message || 'the scorer did not start');
  }
  asked += 1;
  const id = asked;
  return new Promise((resolve) => { waiting.set(id, resolve); worker.postMessage({ id, name, language, args }); });
}

// Stop a scorer: if it is this page's, every question still waiting is answered with the error,
// and the next question starts a new one.
function stopScorer(which, error) {
  which.terminate();
  if (worker !== which) return;
  worker = null;
  for (const done of waiting.values()) done({ error });
  waiting.clear();
}

// A page left lets its scorer go (a page kept in the back-forward cache would hold it, and the
// bundle it reads, which a new release drops); it starts again if the page is shown again.
window.addEventListener('pagehide', () => { if (worker) stopScorer(worker, 'the page was left'); });

// The pages kept for any game: the start page as shown without a network (an installed app opens
// on it; it lists the games kept here), the new-game page (a kept sheet's "New game" leads there),
// the page each address of a game made here shows (made_here.html), and the one for any page that
// needs the server.
const SHELL = '/offline/made-here';
const START = '/offline/start';
const SHARED_PAGES = ['/games/new', SHELL, START, '/offline/needs-network'];
const SHARED_KEY = 'kept-shared-pages';             // the release and language they were kept for

// Keep the game on this phone (with a network): its data, its pages, the bundle.
async function keep() {
  const res = await fetch(info.offlineUrl, { cache: 'no-store', credentials: 'same-origin' });
  if (!res.ok) return;
  const data = await res.json();
  if (!data.bundle.length) return;                         // Pyodide is not installed on this server
  release = data.release;
  localStorage.setItem(RELEASE_KEY, release);
  if (!(await read(queueKey(), [])).length) await write(gameKey(), data);
  const mark = `${release}:${data.revision}`;
  if (!('serviceWorker' in navigator)) return;
  if (localStorage.getItem(`kept:${info.game}`) === mark) { takeOver(); return; }
  const rounds = Object.keys(data.versions).map((n) => info.roundUrl.replace('{n}', n));
  // The shared pages are the same for every game: kept once a release and language, not at each
  // save (the new-game page is kept afresh whenever it opens online).
  const shared = localStorage.getItem(SHARED_KEY) === `${release}:${language}` ? [] : SHARED_PAGES.map((url) => [url, url]);
  const pages = [[info.sheetUrl, info.sheetUrl], ...rounds.map((url) => [url, `${url}?ahead=1`]),
    ...data.static.map((url) => [url, url]), ['/manifest.webmanifest', '/manifest.webmanifest'], ...shared];
  askToKeep(info.game, data.bundle, pages).then(async (answer) => {   // not waited for: the page goes on meanwhile
    if (answer.type !== 'kept') return;
    await takeOver();
    localStorage.setItem(`kept:${info.game}`, mark);
    localStorage.setItem(SHARED_KEY, `${release}:${language}`);
    status();
    warm();
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

const within = (ms, promise) => Promise.race([promise, new Promise((resolve) => { setTimeout(resolve, ms); })]);

// Ask the service worker to keep these (sw.js, 'keep'); its answer is {type: 'kept'} or
// {type: 'not-kept'}. Any worker keeps the release it is asked for: the one in charge is asked,
// even with a new release's worker waiting. If a new one takes over before the answer (another
// page asked it to), the old one may have gone with the question, so the new one is asked again.
async function askToKeep(game, bundle, pages) {
  const registration = await navigator.serviceWorker.ready;
  const message = { type: 'keep', game, release, bundle, pages };
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

// Start the scorer on the round page, so that offline the preview answers at once (the sheet
// starts it only when it has to draw).
let warming = null;
async function warm() {
  if (warming || !document.querySelector('form.round-form')) return;
  const data = await read(gameKey(), null);
  if (data) warming = ask('sheet', { game: data.game }).then(() => { box.dataset.warm = '1'; });
}

// A game made here whose id was taken when it was sent: its page says so, once.
function movedNote() {
  const from = localStorage.getItem(`moved:${info.game}`);
  if (!from || madeHere) return;
  localStorage.removeItem(`moved:${info.game}`);
  const note = document.createElement('p');
  note.className = 'moved-note';
  note.setAttribute('role', 'status');
  note.textContent = say('moved', { old: `/games/${from}` });
  box.querySelector('.offline-line')?.after(note);
}

// The line that says where the game stands on this phone.
async function status() {
  const queue = await read(queueKey(), []);
  unsent = queue.length;
  const aside = await read(asideKey(), []);
  const line = box.querySelector('.offline-line');
  const kept = (localStorage.getItem(`kept:${info.game}`) || '').startsWith(`${release}:`);
  line.textContent = made && refused ? say('refused')
    : queue.length ? say(navigator.onLine ? 'unsent' : 'unsentOffline', { n: queue.length })
    : made ? say('made') : !navigator.onLine ? say('offline') : kept ? say('ready') : '';
  box.classList.toggle('warning', Boolean(queue.length || made || !navigator.onLine));
  const list = box.querySelector('.aside');
  list.replaceChildren(...aside.map((item) => li(say('asideItem', { n: item.round, entries: summary(item.fields) }))));
  list.hidden = !aside.length;
}

function li(text) { const node = document.createElement('li'); node.textContent = text; return node; }

// A round as typed, in words: "Ana: went out · Bruno: 7♥ 8♥ 9♥ · Zoë: 12".
function summary(fields) {
  const get = (name) => (fields.find(([k]) => k === name) || [])[1] || '';
  const out = new Set(fields.filter(([k]) => k === 'went_out').map(([, v]) => v));
  return JSON.parse(info.players).map((p, i) => `${p}: ${out.has(String(i)) ? say('wentOut')
    : get(`entries-${i}-cards`) || get(`entries-${i}-points`) || '–'}`).join(' · ');
}

// The sheet drawn here, from the game on this phone, when it holds rounds the server has not.
async function drawSheet() {
  const live = document.getElementById('live');
  if (!live) return;
  live.dataset.local = '1';                  // live.js's news of the server's sheet waits until sent
  const show = (html) => {
    live.innerHTML = html;
    live.classList.remove('stale');
    const warning = document.getElementById('live-status');
    if (warning) warning.hidden = true;
  };
  const drawn = await read(liveKey(), null);  // drawn by the round page as it saved: shown at once
  if (drawn) { show(drawn); return; }
  const data = await read(gameKey(), null);
  if (!data) return;
  const answer = await ask('live', { game: data.game, game_id: info.game, colours: data.colours, last_save: data.last_save || '' });
  if (answer.ok) show(answer.ok);
}

// Everything that reads and writes a game's queue here (sending, a choice in a conflict box) runs
// one at a time, so that none of them works from a queue another has changed.
let chain = Promise.resolve();
const serially = (job) => { chain = chain.then(job, job); return chain; };

// Send the rounds saved here, oldest first, each with the version it was based on.
let sending = false;
function send() {
  if (sending || !release) return chain;
  sending = true;
  return serially(async () => {
    try {
      const token = await fresh_token();
      if (token === null) return;                          // still no network: the next try sends it
      const sent = await sendOne(info.game, token, true);
      if (sent && sent !== info.game) { moveTo(sent); return; }
      if (sent) await caughtUp();
    } finally {
      sending = false;
      await drawConflicts();
      status();
    }
  });
}

// The addresses of a game's own pages (as the server routes them).
const addresses = (id) => ({ sheet: `/games/${id}`, round: (n) => `/games/${id}/rounds/${n}`, offline: `/games/${id}/offline.json` });

// Send what this phone holds of one game: the game itself if it was made here, then its rounds,
// oldest first, each with the version it was based on. A round another phone saved meanwhile (409)
// waits for a person to choose, in its own box, and the rounds after it are still sent. The game's
// id once all is sent (a game made here may have been given a new one); false until then.
async function sendOne(id, token, here) {
  let data = await read(`game:${id}`, null);
  if (data && data.made) {
    const sent = data.refused ? null : await sendGame(data, token);
    if (!sent) {
      if (here) refused = Boolean(data.refused);
      return false;
    }
    id = sent;
  }
  if (here) made = false;
  const urls = addresses(id);
  let queue = await read(`queue:${id}`, []);
  let waiting = false;
  for (const item of [...queue]) {
    if (item.conflict) { waiting = true; continue; }     // nothing is sent for a round nobody chose
    let res;
    try {
      res = await fetch(urls.round(item.round), { method: 'POST', body: withToken(item.fields, token), credentials: 'same-origin' });
    } catch {
      return false;                                        // still no network: the next try sends it
    }
    const landed = new URL(res.url, window.location.href);
    if (res.ok && landed.pathname === urls.round(item.round) && landed.searchParams.get('saved') === '1') {
      queue = queue.filter((q) => q !== item);
      await write(`queue:${id}`, queue);
    } else if (res.status === 409) {
      item.conflict = conflictOf(await res.text());
      await write(`queue:${id}`, queue);
      waiting = true;
    } else if (res.ok) {
      return false;                                        // an earlier round is not on the server yet: it waits
    } else {
      item.refused = res.status;
      await write(`queue:${id}`, queue);
      return false;
    }
  }
  if (waiting) return false;
  const fresh = await fetch(urls.offline, { cache: 'no-store', credentials: 'same-origin' });
  if (fresh.ok) await write(`game:${id}`, await fresh.json());      // the server's scores are the ones kept
  await write(`live:${id}`, null);
  return id;
}

// What the server's page of a conflict (409) says: the round's version there now, and both
// versions as it lists them (its cards with suit symbols, in the page's language).
function conflictOf(html) {
  const page = new DOMParser().parseFromString(html, 'text/html');
  const version = page.querySelector('form.round-form input[name=version]')?.value ?? '';
  const versions = page.querySelector('.conflict .versions');
  return { version, versions: versions ? versions.outerHTML : '' };
}

// This page's game is all sent: the page shows the server's game.
async function caughtUp() {
  if (madeHere) {                          // the server has the game now: its own pages, kept anew
    localStorage.removeItem(`kept:${info.game}`);
    window.location.reload();
    return;
  }
  const live = document.getElementById('live');
  if (live && live.dataset.local) {
    const page = await fetch(live.dataset.liveUrl, { cache: 'no-store' });
    if (page.ok) { live.innerHTML = await page.text(); delete live.dataset.local; }
  }
}

// A fresh CSRF token for what is sent (the page that kept a round may be older than the session);
// null without a network.
async function fresh_token() {
  try {
    const res = await fetch(info.tokenUrl, { cache: 'no-store', credentials: 'same-origin' });
    return res.ok ? (await res.json()).csrf : null;
  } catch {
    return null;
  }
}

function withToken(fields, token) {
  return new URLSearchParams([...fields.filter(([k]) => k !== 'csrf_token'), ['csrf_token', token]]);
}

// A game made here goes to the server as the new-game form, with the id it has here and the key
// it was made with (sent twice, with or without this browser's cookie, it is still one game);
// X-Keep: no "game created" message waits for a later page. Its id on the server once sent: the
// one it has here, or a new one when that was taken (the phone keeps its file, and says so).
async function sendGame(data, token) {
  let res;
  try {
    res = await fetch('/games/new', { method: 'POST', body: withToken(data.made, token), credentials: 'same-origin',
      headers: { 'X-Keep': '1', Accept: 'application/json' } });
  } catch {
    return null;
  }
  if (!res.ok) {
    // Refused (sent before and deleted since, or a form a newer server no longer takes): it stays
    // here, and the page says to export its file and import it. A server that failed, or that asks
    // to wait (too many new games from this address, or a body too slow), is asked again later.
    if (res.status >= 400 && res.status < 500 && res.status !== 408 && res.status !== 429) {
      data.refused = res.status;
      await write(`game:${data.game_id}`, data);
    }
    return null;
  }
  const answer = await res.json();
  if (answer.id === data.game_id) {
    data.made = null;
    await write(`game:${data.game_id}`, data);
    return data.game_id;
  }
  // Its id was taken: the game and its rounds go on under the new one; the old record stays, as
  // the file it was, saying where the game went.
  const moved = { ...data, game_id: answer.id, made: null, moved_from: data.game_id };
  await write(`game:${answer.id}`, moved);
  await write(`queue:${answer.id}`, await read(`queue:${data.game_id}`, []));
  await write(`queue:${data.game_id}`, []);
  await write(`game:${data.game_id}`, { ...data, made: null, moved_to: answer.id });
  localStorage.setItem(`moved:${answer.id}`, data.game_id);
  return answer.id;
}

// This page's game went to the server under a new id: its page is there now.
function moveTo(id) {
  localStorage.removeItem(`kept:${info.game}`);
  window.location.replace(`/games/${id}`);
}

// Rounds another phone saved meanwhile: one box a round, drawn from the queue (so a box is never
// drawn twice, and survives a reload), each deciding its own round only; a box goes once answered.
async function drawConflicts() {
  const place = box && box.querySelector('.conflicts');
  if (!place || !info.game) return;
  const waiting = (await read(queueKey(), [])).filter((item) => item.conflict);
  const rounds = new Set(waiting.map((item) => String(item.round)));
  for (const section of place.querySelectorAll('section.conflict')) {
    if (!rounds.has(section.dataset.round)) section.remove();
  }
  for (const item of waiting) {
    let section = place.querySelector(`section.conflict[data-round="${item.round}"]`);
    if (section && section.dataset.version === String(item.conflict.version)) continue;
    const fresh = conflictBox(item);
    if (section) section.replaceWith(fresh); else place.append(fresh);
  }
}

function conflictBox(item) {
  const section = document.createElement('section');
  section.className = 'conflict error-box';
  section.dataset.round = String(item.round);
  section.dataset.version = String(item.conflict.version);
  section.setAttribute('role', 'alert');
  const h = document.createElement('h2');
  h.textContent = say('conflict', { n: item.round });
  section.append(h);
  if (item.changedAgain) {
    const again = document.createElement('p');
    again.textContent = say('changedAgain', { n: item.round });
    section.append(again);
  }
  const versions = document.createElement('div');
  versions.innerHTML = item.conflict.versions;              // the server's own page drew them
  section.append(...versions.childNodes);
  const actions = document.createElement('p');
  actions.className = 'actions';
  const sendMine = button(say('sendMine'), () => choose(item.round, 'mine'));
  sendMine.classList.add('primary');
  actions.append(sendMine, button(say('keepTheirs'), () => choose(item.round, 'theirs')));
  section.append(actions);
  return section;
}

// A choice in round n's box. Before anything is sent the round's version on the server is looked
// at again: moved again since the box was drawn, nothing is sent and the box is drawn anew.
function choose(number, which) {
  const place = box.querySelector(`.conflicts section.conflict[data-round="${number}"]`);
  for (const b of place?.querySelectorAll('button') || []) b.disabled = true;
  return serially(async () => {
    const queue = await read(queueKey(), []);
    const item = queue.find((q) => q.round === number && q.conflict);
    if (!item) return;                                       // answered already
    const res = await fetch(info.offlineUrl, { cache: 'no-store', credentials: 'same-origin' });
    if (!res.ok) return;
    const server = await res.json();
    if (String(server.versions[number]) !== String(item.conflict.version)) {
      item.conflict = null;                                  // sent as it was: the server shows it again
      item.changedAgain = true;
    } else if (which === 'mine') {
      item.fields = item.fields.map(([k, v]) => [k, k === 'version' ? String(item.conflict.version) : v]);
      item.conflict = null;
      item.changedAgain = false;
    } else {
      const aside = await read(asideKey(), []);
      aside.push({ round: item.round, fields: item.fields, at: item.at });
      await write(asideKey(), aside);
      queue.splice(queue.indexOf(item), 1);
    }
    await write(queueKey(), queue);
    await agree(server, queue);
  }).then(() => { drawConflicts(); status(); send(); });
}

// After a choice, the phone's game is the server's with the rounds still waiting here on it, so
// the sheet, "not sent yet" and the server agree.
async function agree(server, queue) {
  let { game } = server;
  for (const item of queue) {
    const fields = new URLSearchParams(item.fields);
    const typed = game.players.map((p, i) => ({ cards: fields.get(`entries-${i}-cards`) || '', points: fields.get(`entries-${i}-points`) || '' }));
    const answer = await ask('enter', { game, number: item.round, out: fields.getAll('went_out').map(Number), typed,
      confirm: fields.get('confirm') || '' });
    if (answer.ok && answer.ok.game) game = answer.ok.game;
  }
  await write(gameKey(), { ...server, game });
  await write(liveKey(), null);
  if (queue.length && document.getElementById('live')?.dataset.local) await drawSheet();
}

function button(text, action) {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = 'button';
  b.textContent = text;
  b.addEventListener('click', action);
  return b;
}

// The round page: the preview and the save work without a network too.
function roundPage(form) {
  const number = Number(form.dataset.round);
  window.threeThirteenOffline = {
    async preview(args) {
      const data = await read(gameKey(), null);
      if (!data) return null;
      const answer = await ask('preview', { game: data.game, args });
      return answer.ok ? answer.ok.html : null;
    },
  };
  if (!madeHere) fillFromPhone(form, number);           // a page made here was filled as it was drawn
  // With a network the form posts as always; this phone keeps the round when there is none, when
  // rounds wait to be sent before it (they go first), or when the server just failed to answer.
  const failed = new URL(window.location.href).searchParams.get('offline') === '1';
  form.addEventListener('submit', async (e) => {
    if (form.dataset.native) return;
    // Decided before anything is awaited: a submit's default can only be stopped at once.
    if (navigator.onLine && !unsent && !failed && !made) return;
    e.preventDefault();
    const done = saving(form);
    try {
      const body = new FormData(form);
      if (navigator.onLine && !unsent && !made) {
        let res = null;
        try {
          res = await fetch(form.action || window.location.href, { method: 'POST', body, credentials: 'same-origin', redirect: 'manual' });
        } catch {
          res = null;                                      // still no answer: kept on this phone below
        }
        if (res && res.type === 'opaqueredirect') { form.dataset.leaving = '1'; window.location.assign(`${info.roundUrl.replace('{n}', number)}?saved=1`); return; }
        if (res) { form.dataset.native = '1'; form.submit(); return; }   // the server refused: its page says why
      }
      await saveHere(form, number, body);
    } finally {
      if (!form.dataset.leaving && !form.dataset.native) done();     // saved: the page goes, still saying so
    }
  });
}

// A save kept on the phone can take seconds (the first one starts the phone's scorer): its button
// says it is saving and takes no second tap until the save is done or refused.
function saving(form) {
  const button = form.querySelector('.save-bar button');
  if (!button || !info.saving) return () => {};
  const text = button.textContent;
  button.textContent = info.saving;
  button.disabled = true;
  form.setAttribute('aria-busy', 'true');
  const done = () => { button.textContent = text; button.disabled = false; form.removeAttribute('aria-busy'); delete form.dataset.leaving; };
  window.addEventListener('pageshow', done, { once: true });      // back to this page from the next one
  return done;
}

// The round, after an offline save of it, as this phone holds it.
async function fillFromPhone(form, number) {
  const queue = await read(queueKey(), []);
  const item = queue.find((q) => q.round === number);
  if (!item) return;
  for (const input of form.querySelectorAll('input[name^=entries-], input[name=version]')) {
    const found = item.fields.find(([k]) => k === input.name);
    if (found) input.value = found[1];
  }
  const out = new Set(item.fields.filter(([k]) => k === 'went_out').map(([, v]) => v));
  for (const input of form.querySelectorAll('input[name=went_out]')) input.checked = out.has(input.value);
  for (const input of form.querySelectorAll('input.cards-input')) input.dispatchEvent(new Event('input'));
}

async function saveHere(form, number, body) {
  const data = await read(gameKey(), null);
  if (!data) { form.dataset.native = '1'; form.submit(); return; }
  const players = data.game.players;
  const typed = players.map((p, i) => ({ cards: body.get(`entries-${i}-cards`) || '', points: body.get(`entries-${i}-points`) || '' }));
  const out = body.getAll('went_out').map(Number);
  const answer = await ask('enter', { game: data.game, number, out, typed, confirm: body.get('confirm') || '' });
  if (answer.error) { problems(form, [answer.error]); return; }
  if (answer.problem) { problems(form, Object.values(answer.problem.errors).flat()); return; }
  if (answer.ok.unsure) { doubts(form, number, answer.ok.unsure, answer.ok.key); return; }
  data.game = answer.ok.game;
  const shown = (name) => { const m = name.match(/^entries-(\d+)-cards$/); return m ? answer.ok.shown[Number(m[1])] : null; };
  const fields = [...body.entries()].filter(([, v]) => typeof v === 'string').map(([k, v]) => [k, shown(k) ?? v]);
  const queue = await read(queueKey(), []);
  const at = queue.findIndex((q) => q.round === number);
  const item = { round: number, fields: at >= 0 ? keepVersion(fields, queue[at].fields) : fields, at: Date.now() };
  if (at >= 0) queue[at] = item; else queue.push(item);
  const drawn = await ask('live', { game: data.game, game_id: info.game, colours: data.colours, last_save: data.last_save || '' });
  await write(gameKey(), data);
  await write(queueKey(), queue);
  await write(liveKey(), drawn.ok || null);
  localStorage.removeItem(`draft:${info.game}:${number}`);
  form.dataset.leaving = '1';
  window.location.assign(`${info.sheetUrl}?unsent=1`);
}

// A round corrected before it was sent is still based on the version it first was.
function keepVersion(fields, first) {
  const version = (first.find(([k]) => k === 'version') || [])[1];
  return fields.map(([k, v]) => [k, k === 'version' && version !== undefined ? version : v]);
}

function problems(form, messages) {
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
}

function doubts(form, number, messages, key) {
  problems(form, []);
  const node = document.getElementById('offline-problems');
  const list = document.createElement('ul');
  list.append(...messages.map(li));
  const label = document.createElement('label');
  label.className = 'confirm';
  const box = document.createElement('input');
  box.type = 'checkbox';
  box.name = 'confirm';
  box.value = key;
  box.setAttribute('form', form.id);
  label.append(box, ` ${say('confirm', { n: number })}`);
  node.replaceChildren(list, label);
}

// Export and Print while rounds are on this phone alone (or with no network): the game file is
// made here by the same code as the server's; the printout is this page as drawn here.
function sheetLinks() {
  const exported = document.querySelector('a[href$="/export.json"]');
  const printed = document.querySelector('a[href$="/print"]');
  exported?.addEventListener('click', (e) => {
    if (navigator.onLine && !unsent && !made) return;
    e.preventDefault();
    read(gameKey(), null).then((data) => data && ask('export', { game: data.game, game_id: info.game })).then((answer) => {
      if (!answer || !answer.ok) return;
      const link = document.createElement('a');
      link.href = URL.createObjectURL(new Blob([answer.ok.text], { type: 'application/json' }));
      link.download = answer.ok.name;
      document.body.append(link);
      link.click();
      link.remove();
    });
  });
  // A score opens its audit page online; here, without a network, its round's page (to correct it).
  document.getElementById('live')?.addEventListener('click', (e) => {
    const score = e.target.closest('a.score-link');
    if (!score || navigator.onLine && !made) return;
    e.preventDefault();
    const round = new URL(score.href).pathname.split('/')[4];
    window.location.assign(info.roundUrl.replace('{n}', round));
  });
  printed?.addEventListener('click', (e) => {
    if (navigator.onLine && !unsent && !made) return;
    e.preventDefault();
    window.print();
  });
}

// The page of a game made here: its sheet or a round's page, drawn by the phone's scorer with the
// server's partials (web/phone.py made_page). False when this phone holds no such game.
async function drawMadeHere() {
  const data = release ? await read(gameKey(), null) : null;
  if (data && data.moved_to) { moveTo(data.moved_to); return false; }    // sent, under a new id
  const answer = data && await ask('made_page', { game: data.game, game_id: info.game, number: roundNumber(), colours: data.colours });
  if (!answer || !answer.ok) {
    box.querySelector('.offline-line').textContent = say('missing');
    box.classList.add('warning');
    return false;
  }
  made = Boolean(data.made);
  refused = Boolean(data.made && data.refused);
  info.players = JSON.stringify(data.game.players);
  document.getElementById('made-here').innerHTML = answer.ok.above;
  document.getElementById('made-here-below').innerHTML = answer.ok.below;
  document.title = [answer.ok.title, ...document.title.split(' · ').slice(1)].join(' · ');
  languagesLeadHere();
  const form = document.querySelector('form.round-form');
  if (form) {
    document.body.classList.add('entry');
    const link = document.createElement('a');
    link.href = info.sheetUrl;
    link.textContent = say('sheetWord');
    document.querySelector('header nav').prepend(link);
    await fillFromPhone(form, roundNumber());
    await import('./picker.js');                  // it reads the form as it starts: drawn first
  }
  return true;
}

// A language chosen leads back to this address, not to the kept page's own.
function languagesLeadHere() {
  for (const link of document.querySelectorAll('footer.languages a')) {
    const chosen = new URL(link.href);
    chosen.searchParams.set('next', window.location.pathname);
    link.href = chosen.pathname + chosen.search;
  }
}

function roundNumber() {
  const n = Number(window.location.pathname.split('/')[4]);
  return Number.isInteger(n) && n > 0 ? n : null;
}

// The new-game page: with a network the game is made on the server, as always; without one (or
// when the server does not answer) it is made here, by the same Python, and sent later. Either
// way it has its id before it is sent, so a game sent twice is one game.
function newGame() {
  const form = document.querySelector('form.new-game');
  if (!form) return;
  const line = () => {
    box.querySelector('.offline-line').textContent = navigator.onLine ? '' : say('offline');
    box.classList.toggle('warning', !navigator.onLine);
  };
  // The phone's Python checks the form without a network, and draws the first dealer ('draw')
  // with or without one: started as the page opens (or as it is needed), while names are typed, so
  // Start does not wait for it.
  const drawing = () => form.elements.first_dealer?.value === 'draw';
  const warmUp = () => { if (!navigator.onLine || drawing()) ask('solve_many', { queries: [] }); };
  line();
  warmUp();
  window.addEventListener('online', line);
  window.addEventListener('offline', () => { line(); warmUp(); });
  form.elements.first_dealer?.addEventListener('change', warmUp);
  form.addEventListener('submit', async (e) => {
    if (form.dataset.native) return;
    e.preventDefault();                                   // decided at once: the default can only be stopped now
    const body = new FormData(form);
    const format = JSON.parse(info.gameId);               // the server's (store.GAME_ID)
    const id = newId(format);
    body.set('made_here', id);
    body.set('made_key', newId(format) + newId(format));  // this phone's own: sent again, the same game
    if (body.get('first_dealer') === 'draw') await drawDealer(form, body);
    if (navigator.onLine) {
      let res = null;
      try {
        res = await fetch(form.action || window.location.href, { method: 'POST', body, credentials: 'same-origin',
          headers: { Accept: 'application/json' } });
      } catch {
        res = null;                                       // no answer: made here below
      }
      if (res && res.ok) {
        try { window.location.assign((await res.json()).sheet); return; } catch { res = null; }
      }
      if (res) { form.dataset.native = '1'; form.submit(); return; }   // the server's page says what is wrong
    }
    await makeHere(form, id, body);
  });
}

// The first dealer drawn by the phone's Python (scorer.gamefile.new_game, as the server draws it),
// before the form is sent, so that the server and this phone have the same one whichever makes the
// game. A form the scorer finds wrong keeps 'draw': the server's page (or makeHere) says what is wrong.
async function drawDealer(form, body) {
  form.setAttribute('aria-busy', 'true');
  try {
    const answer = await ask('make_game', { fields: [...body.entries()].filter(([, v]) => typeof v === 'string') });
    if (answer.ok && answer.ok.game) body.set('first_dealer', String(answer.ok.game.first_dealer));
  } finally {
    form.removeAttribute('aria-busy');
  }
}

async function makeHere(form, id, body) {
  const fields = [...body.entries()].filter(([, v]) => typeof v === 'string');
  const answer = await ask('make_game', { fields });
  if (!answer.ok || answer.ok.message) { problems(form, [answer.ok ? answer.ok.message : answer.error]); return; }
  const { game, rounds } = answer.ok;
  const versions = Object.fromEntries(rounds.map((n) => [n, 0]));      // as the server has them: none saved
  await write(`game:${id}`, { game_id: id, game, versions, colours: game.players.map((p, i) => i), revision: 0, made: fields });
  await keepShell(id, rounds);
  window.location.assign(`/games/${id}`);
}

// The service worker keeps made_here.html under each address of the new game. Not waited for
// longer than a few seconds: without it, the worker shows that page for any game address it
// does not hold.
async function keepShell(id, rounds) {
  if (!('serviceWorker' in navigator)) return;
  const pages = [`/games/${id}`, ...rounds.map((n) => `/games/${id}/rounds/${n}`)].map((address) => [address, SHELL]);
  await within(10000, askToKeep(id, [], pages));
}

// The shared pages, from the start page too (a phone that kept its games before the start page was
// among them, or in another language, has it as soon as it opens the app online).
async function keepShared() {
  if (!('serviceWorker' in navigator) || localStorage.getItem(SHARED_KEY) === `${release}:${language}`) return;
  const answer = await askToKeep('shared', [], SHARED_PAGES.map((url) => [url, url]));
  if (answer.type === 'kept') localStorage.setItem(SHARED_KEY, `${release}:${language}`);
}

// The start page. Online: the games this phone holds that the server has not got all of, each a
// link to its page; they are sent from here too, and the page then shows the server's list. Its
// copy kept here (shown when the server does not answer): every game kept on this phone, and
// once the server answers again, the same sending, then the server's page.
async function listKept() {
  const { entries } = await store();
  const games = [];
  for (const [key, data] of await entries()) {
    if (typeof key !== 'string' || !key.startsWith('game:') || !data || !data.game || data.moved_to) continue;
    const id = key.slice(5);
    const queue = await read(`queue:${id}`, []);
    if (startHere || data.made || queue.length) games.push({ id, data, queue });
  }
  games.sort((a, b) => (b.data.game.date || '').localeCompare(a.data.game.date || ''));
  const list = box.querySelector('.kept-here');
  list.replaceChildren(...games.map(listed));
  list.hidden = !games.length;
  if (startHere) box.querySelector('.kept-none').hidden = Boolean(games.length);
  else box.querySelector('.kept-title').hidden = !games.length;
  return games.filter(({ data, queue }) => data.made || queue.length);
}

// One game of that list, as the server's list writes one (games/_list.html), with where it
// stands on this phone.
function listed({ id, data, queue }) {
  const { game } = data;
  const names = () => game.players.flatMap((p, i) => [...(i ? [', '] : []), bdi(p)]);
  const last = Object.keys(data.versions || {}).length;       // one version a round of the game
  const played = game.rounds.length;
  const entered = new Set(game.rounds.map((r) => r.round));
  let now = 1;                                                // the round played now, as the sheet says it
  while (entered.has(now)) now += 1;
  const state = data.refused ? say('refused') : queue.length ? say('unsent', { n: queue.length }) : data.made ? say('made') : '';
  const where = !last ? '' : played >= last ? say('gameOver') : say('roundOf', { n: now, last });
  const name = document.createElement('strong');
  name.append(...(game.title ? [game.title] : names()));
  const what = document.createElement('span');
  what.className = 'quiet';
  const parts = [state, where, day(game.date)].filter(Boolean).map((part) => part.replace(/\.$/, '')).join(' · ');
  what.append(...(game.title ? [...names(), ' · '] : []), parts);
  const link = document.createElement('a');
  link.href = addresses(id).sheet;
  link.append(name, ' ', what);
  const item = document.createElement('li');
  item.append(link);
  return item;
}

function bdi(text) { const node = document.createElement('bdi'); node.textContent = text; return node; }

// A date (YYYY-MM-DD) as the page's language writes it (the server's day(): Babel's medium date).
function day(iso) {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(iso || '')) return '';
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(`${iso}T00:00:00Z`));
}

async function startPageKept() {
  if (startHere) {
    box.querySelector('.offline-line').textContent = say('offlineStart');
    languagesLeadHere();
  } else {
    keepShared();
  }
  let pending = await listKept();
  const sendAll = async () => {
    if (sending || !navigator.onLine || !(pending.length || startHere)) return;
    sending = true;
    let sent = 0;
    try {
      const token = await fresh_token();
      if (token === null) return;                        // the server does not answer yet
      for (const { id } of pending) sent += (await sendOne(id, token, false)) ? 1 : 0;
    } finally {
      sending = false;
      pending = await listKept();
    }
    if (sent || startHere) window.location.reload();     // the server's list (it has them now)
  };
  window.addEventListener('online', sendAll);
  setInterval(sendAll, 15000);
  sendAll();
}

async function main() {
  if (newGamePage) { if (release) newGame(); return; }
  if (startPage) { if (release) startPageKept(); return; }
  if (madeHere && !(await drawMadeHere())) return;
  const form = document.querySelector('form.round-form');
  // With a network, first learn the release (a new one replaces the old bundle, which the new
  // service worker may already have dropped); then what the phone holds.
  if (navigator.onLine && !madeHere) {
    try { await keep(); } catch { /* the server is away: what the phone holds will do */ }
  }
  if (!release) return;
  unsent = (await read(queueKey(), [])).length;
  if (form) roundPage(form);
  window.addEventListener('online', () => { status(); send(); });
  window.addEventListener('offline', status);
  setInterval(() => { if (navigator.onLine) send(); }, 15000);
  const queue = await read(queueKey(), []);
  status();
  movedNote();
  await drawConflicts();
  if (!form) sheetLinks();
  if (!form && queue.length && !madeHere) await drawSheet();
  if (localStorage.getItem(`kept:${info.game}`)) warm();
  if (navigator.onLine) send();
}

if (info) main();
