// Sending what this phone holds once the server answers: a game made here (as the new-game form),
// then its rounds, oldest first, each with the version it was based on, so the server's conflict
// check decides; a round another phone saved meanwhile waits in its own box for a person to
// choose (send mine, or keep theirs and set mine aside).
import { PAGE, addresses } from './page.js';
import { ask } from './scorer.js';
import { forget } from './service-worker.js';
import { drawSheet } from './sheet-page.js';
import { madeHere, movedTo, outsideTable, sentAll, status } from './standing.js';
import { kept, keys, read, write } from './store.js';

// Everything that reads and writes a game's queue here (sending, a choice in a conflict box) runs
// one at a time, so that none of them works from a queue another has changed.
let chain = Promise.resolve();
let sending = false;
let again = false;               // asked to send while a send was on: once more when it ends
let soon = null;                 // the next try after a send that found no network yet
let soonMs = 0;
const serially = (job) => { chain = chain.then(job, job); return chain; };

export const isSending = () => sending;

// Send the rounds of this page's game saved here, oldest first, each with the version it was based
// on. Asked while a send is on (the network back, a live stream open again), it sends once more
// after. A send that finds no network though the phone says it has one (it has just come back) tries
// again soon, then less often, up to the page's own pace (sendAgainMs), never waiting for it.
export function send() {
  if (!kept()) return chain;
  if (sending) { again = true; return chain; }
  sending = true;
  clearTimeout(soon);
  return serially(async () => {
    let reached = false;
    try {
      const token = await freshToken();
      if (token === null) return;                          // still no network: tried again below
      reached = true;
      soonMs = 0;
      const held = (await read(keys.queue(PAGE.game), [])).length;
      const sent = await sendOne(PAGE.game, token, true);
      if (sent && sent !== PAGE.game) { moveTo(sent); return; }
      // The line says "All sent" after a send that held rounds; a later send with none leaves it
      // so (a round saved here since takes it away: status()).
      if (sent) { if (held) sentAll(); await caughtUp(); }
    } finally {
      sending = false;
      await status();                                      // what the server has now, said at once
      await drawConflicts();
      if (again) { again = false; send(); } else if (!reached) trySoon();
    }
  });
}

function trySoon() {
  if (!navigator.onLine) { soonMs = 0; return; }         // the online event sends
  soonMs = Math.min(soonMs ? soonMs * 2 : FIRST_TRY_AGAIN_MS, PAGE.sendAgainMs || Infinity);
  soon = setTimeout(send, soonMs);
}

// How soon a send that found no network tries again while the phone says it is online.
const FIRST_TRY_AGAIN_MS = 250;

// Send these games (the start page's): how many are all sent now, or null without a network.
export async function sendGames(ids) {
  sending = true;
  try {
    const token = await freshToken();
    if (token === null) return null;                       // the server does not answer yet
    let sent = 0;
    for (const id of ids) sent += (await sendOne(id, token, false)) ? 1 : 0;
    return sent;
  } finally {
    sending = false;
  }
}

// Send what this phone holds of one game: the game itself if it was made here, then its rounds,
// oldest first, each with the version it was based on. A round another phone saved meanwhile (409)
// waits for a person to choose, in its own box, and the rounds after it are still sent. The game's
// id once all is sent (a game made here may have been given a new one); false until then.
async function sendOne(id, token, here) {
  const data = await read(keys.game(id), null);
  if (data && data.made) {
    const sent = data.refused ? null : await sendGame(data, token);
    if (!sent) {
      if (here) madeHere(true, data.refused);
      return false;
    }
    id = sent;
  }
  if (here) madeHere(false);
  const urls = addresses(id);
  let queue = await read(keys.queue(id), []);
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
      await write(keys.queue(id), queue);
      if (here) await status();                            // one fewer to send, said as it goes
    } else if (res.status === 409) {
      item.conflict = conflictOf(await res.text());
      await write(keys.queue(id), queue);
      waiting = true;
    } else if (res.ok) {
      return false;                                        // an earlier round is not on the server yet: it waits
    } else {
      item.refused = res.status;
      await write(keys.queue(id), queue);
      return false;
    }
  }
  if (waiting) return false;
  const fresh = await fetch(urls.offline, { cache: 'no-store', credentials: 'same-origin' });
  if (fresh.ok) await write(keys.game(id), await fresh.json());      // the server's scores are the ones kept
  await write(keys.live(id), null);
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
  if (PAGE.kind === 'made-here') {         // the server has the game now: its own pages, kept anew
    forget(PAGE.game);
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
async function freshToken() {
  try {
    const res = await fetch(PAGE.tokenUrl, { cache: 'no-store', credentials: 'same-origin' });
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
      await write(keys.game(data.game_id), data);
    }
    return null;
  }
  const answer = await res.json();
  const table = (data.made.find(([k]) => k === 'table') || [])[1];
  if (table && answer.table !== table) outsideTable(answer.id);      // made, but not in the table it was started in
  if (answer.id === data.game_id) {
    data.made = null;
    await write(keys.game(data.game_id), data);
    return data.game_id;
  }
  // Its id was taken: the game and its rounds go on under the new one; the old record stays, as
  // the file it was, saying where the game went.
  const moved = { ...data, game_id: answer.id, made: null, moved_from: data.game_id };
  await write(keys.game(answer.id), moved);
  await write(keys.queue(answer.id), await read(keys.queue(data.game_id), []));
  await write(keys.queue(data.game_id), []);
  await write(keys.game(data.game_id), { ...data, made: null, moved_to: answer.id });
  movedTo(answer.id, data.game_id);
  return answer.id;
}

// This page's game went to the server under a new id: its page is there now.
export function moveTo(id) {
  forget(PAGE.game);
  window.location.replace(`/games/${id}`);
}

// Rounds another phone saved meanwhile: one box a round, drawn from the queue (so a box is never
// drawn twice, and survives a reload), each deciding its own round only; a box goes once answered.
// One drawing at a time (each asks the phone's scorer for its boxes).
let drawing = Promise.resolve();
export function drawConflicts() {
  drawing = drawing.then(drawConflictsNow, drawConflictsNow);
  return drawing;
}

async function drawConflictsNow() {
  const place = PAGE.box && PAGE.box.querySelector('.conflicts');
  if (!place || !PAGE.game) return;
  const waiting = (await read(keys.queue(PAGE.game), [])).filter((item) => item.conflict);
  const rounds = new Set(waiting.map((item) => String(item.round)));
  for (const section of place.querySelectorAll('section.conflict')) {
    if (!rounds.has(section.dataset.round)) section.remove();
  }
  for (const item of waiting) {
    const section = place.querySelector(`section.conflict[data-round="${item.round}"]`);
    if (section && section.dataset.version === String(item.conflict.version)) continue;
    const fresh = await conflictBox(item);
    if (!fresh) continue;                                   // the scorer did not answer: drawn at the next try
    if (section) section.replaceWith(fresh); else place.append(fresh);
  }
}

// A round's box as the phone's scorer draws it (games/_unsent_conflict.html), its buttons answered here.
async function conflictBox(item) {
  const answer = await ask('conflict_box', { number: item.round, version: String(item.conflict.version),
    versions: item.conflict.versions, again: Boolean(item.changedAgain) });
  if (answer.ok === undefined) return null;
  const drawn = document.createElement('template');
  drawn.innerHTML = answer.ok;
  const section = drawn.content.querySelector('section.conflict');
  for (const b of section.querySelectorAll('button[data-choice]')) {
    b.addEventListener('click', () => choose(item.round, b.dataset.choice));
  }
  return section;
}

// A choice in round n's box. Before anything is sent the round's version on the server is looked
// at again: moved again since the box was drawn, nothing is sent and the box is drawn anew.
function choose(number, which) {
  const { box, game, urls } = PAGE;
  const place = box.querySelector(`.conflicts section.conflict[data-round="${number}"]`);
  for (const b of place?.querySelectorAll('button') || []) b.disabled = true;
  return serially(async () => {
    const queue = await read(keys.queue(game), []);
    const item = queue.find((q) => q.round === number && q.conflict);
    if (!item) return;                                       // answered already
    const res = await fetch(urls.offline, { cache: 'no-store', credentials: 'same-origin' });
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
      const aside = await read(keys.aside(game), []);
      aside.push({ round: item.round, fields: item.fields, at: item.at });
      await write(keys.aside(game), aside);
      queue.splice(queue.indexOf(item), 1);
    }
    await write(keys.queue(game), queue);
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
  await write(keys.game(PAGE.game), { ...server, game });
  await write(keys.live(PAGE.game), null);
  if (queue.length && document.getElementById('live')?.dataset.local) await drawSheet();
}
