// Offline play, for the scorekeeper's pages (the sheet and the round page), the new-game page and
// the start page. Its parts, one module a job, are in offline/:
//
//   page.js            the page as its #offline box describes it (its game, addresses, words)
//   store.js           the phone store: the games kept here, in IndexedDB (idb-keyval)
//   scorer.js          the scorer client: the phone's Python (web/phone.py in Pyodide) asked by name
//   service-worker.js  what the service worker keeps for the phone to play without a network
//   standing.js        where this page's game stands on the phone, and the line that says so
//   sync.js            sending what the phone holds once the server answers; conflicts
//   ids.js             a game's id, in the server's format (store.GAME_ID, given as data)
//   preview.js         the hand's preview drawn here, offered to the keypad (picker.js)
//   sheet-page.js, round-page.js, made-here.js, new-game.js, start-page.js: what each page does
//
// When the scorekeeper opens a game with a network, the page keeps it on the phone: the game
// (/games/<id>/offline.json) in IndexedDB, and the service worker keeps the game's pages and the
// offline bundle (Pyodide running this project's own scorer). Without a network, a round is read,
// checked and scored by that same Python, saved on the phone, and the sheet is drawn by the
// server's own template. The rounds saved so ("not sent yet") are sent in order as soon as the
// server answers, each with the version it was based on, so the server's conflict check decides;
// a conflict shows both versions and the scorekeeper chooses. Nothing typed is dropped: a round
// set aside stays listed.
//
// A new game can be made without a network too: the new-game page's fields are read by the same
// Python (scorer.gamefile.new_game), the game gets an id of the server's kind, and the service
// worker keeps the page made_here.html under that game's addresses; in it the phone's scorer draws
// the sheet and the rounds with the server's partials. Once the server answers, the game is sent
// as the new-game form (with its id: sent twice, it is one game) and then its rounds, as above.
import { drawMadeHere } from './offline/made-here.js';
import { newGame } from './offline/new-game.js';
import { PAGE } from './offline/page.js';
import { roundPage, warm } from './offline/round-page.js';
import { keepGame, keptMark } from './offline/service-worker.js';
import { drawSheet, sheetLinks } from './offline/sheet-page.js';
import { countUnsent, movedNote, onPhoneAlone, status } from './offline/standing.js';
import { startPage } from './offline/start-page.js';
import { kept } from './offline/store.js';
import { drawConflicts, send } from './offline/sync.js';

export { ask } from './offline/scorer.js';

async function main() {
  const { kind, game } = PAGE;
  if (kind === 'new-game') { if (kept()) newGame(); return; }
  if (kind === 'start') { if (kept()) startPage(); return; }
  if (kind === 'made-here' && !(await drawMadeHere())) return;
  const form = document.querySelector('form.round-form');
  // With a network, first learn the release (a new one replaces the old bundle, which the new
  // service worker may already have dropped); then what the phone holds.
  if (navigator.onLine && kind !== 'made-here') {
    try { await keepGame(() => { status(); warm(); }); } catch { /* the server is away: what the phone holds will do */ }
  }
  if (!kept()) return;
  const unsent = await countUnsent();
  if (form) roundPage(form);
  window.addEventListener('online', () => { status(); send(); });
  // The page's live stream open again (live.js): the server answers, so what waits goes now.
  document.addEventListener('live-open', () => { if (onPhoneAlone()) send(); });
  window.addEventListener('offline', () => { status(); if (keptMark(game)) warm(); });
  if (PAGE.sendAgainMs) setInterval(() => { if (navigator.onLine) send(); }, PAGE.sendAgainMs);
  status();
  movedNote();
  await drawConflicts();
  if (!form) sheetLinks();
  if (!form && unsent && kind !== 'made-here') await drawSheet();
  // A round's page starts its scorer as it opens, for the preview: a game made here's too (its page
  // drawn ahead started none).
  if (keptMark(game) || kind === 'made-here') warm();
  if (navigator.onLine) send();
}

if (PAGE.kind) main();
