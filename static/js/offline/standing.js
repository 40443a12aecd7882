// Where this page's game stands on this phone: rounds saved here and not sent yet, a game made
// here that the server has not got (or will not take), and the one line that says so.
import { PAGE, li, say } from './page.js';
import { isKept } from './service-worker.js';
import { keys, read } from './store.js';

let unsent = 0;                      // rounds saved here and not sent yet (known before a submit)
let made = false;                    // this game was made here and the server has not got it yet
let refused = false;                 // ... and will not take it (its file can still be imported)

// Whether anything of this game is on this phone alone (a save then waits its turn here).
export const onPhoneAlone = () => Boolean(unsent || made);
export const madeHereUnsent = () => made;

let sent = false;                    // a send just gave the server every round this phone held

export function sentAll() { sent = true; }   // until a round waits here again (status)

export function madeHere(isMade, isRefused) {
  made = Boolean(isMade);
  refused = Boolean(isMade && isRefused);
}

export async function countUnsent() {
  unsent = (await read(keys.queue(PAGE.game), [])).length;
  return unsent;
}

// The line that says where the game stands on this phone, and the rounds set aside.
export async function status() {
  const { box, game } = PAGE;
  const queue = await read(keys.queue(game), []);
  unsent = queue.length;
  if (queue.length) sent = false;
  const aside = await read(keys.aside(game), []);
  const line = box.querySelector('.offline-line');
  line.textContent = made && refused ? say('refused')
    : queue.length ? say(navigator.onLine ? 'unsent' : 'unsentOffline', { n: queue.length })
    : made ? say('made') : !navigator.onLine ? say('offline') : sent ? say('sent') : isKept(game) ? say('ready') : '';
  box.classList.toggle('warning', Boolean(queue.length || made || !navigator.onLine));
  const list = box.querySelector('.aside');
  const players = aside.length ? (await read(keys.game(game), null))?.game.players || [] : [];
  list.replaceChildren(...aside.map((item) => li(say('asideItem', { n: item.round, entries: summary(players, item.fields) }))));
  list.hidden = !aside.length;
}

// A round as typed, in words: "Ana: went out · Bruno: 7♥ 8♥ 9♥ · Zoë: 12".
function summary(players, fields) {
  const get = (name) => (fields.find(([k]) => k === name) || [])[1] || '';
  const out = new Set(fields.filter(([k]) => k === 'went_out').map(([, v]) => v));
  return players.map((p, i) => `${p}: ${out.has(String(i)) ? say('wentOut')
    : get(`entries-${i}-cards`) || get(`entries-${i}-points`) || '–'}`).join(' · ');
}

// A game made here whose id was taken when it was sent, or that the server made outside the table it
// was started in (this phone had not the table's keeper rights): its page says so, once.
export function movedNote() {
  const { box, game } = PAGE;
  if (PAGE.kind === 'made-here') return;
  const from = localStorage.getItem(`moved:${game}`);
  const outside = localStorage.getItem(`outside-table:${game}`);
  localStorage.removeItem(`moved:${game}`);
  localStorage.removeItem(`outside-table:${game}`);
  const notes = [from && say('moved', { old: `/games/${from}` }), outside && say('outsideTable')].filter(Boolean);
  for (const text of notes.reverse()) {
    const note = document.createElement('p');
    note.className = 'moved-note';
    note.setAttribute('role', 'status');
    note.textContent = text;
    box.querySelector('.offline-line')?.after(note);
  }
}

export const outsideTable = (id) => localStorage.setItem(`outside-table:${id}`, '1');

// A game made here whose id was taken when it was sent: its page under the new one says so.
export const movedTo = (to, from) => localStorage.setItem(`moved:${to}`, from);
