// The start page. Online: the games this phone holds that the server has not got all of, each a
// link to its page; they are sent from here too, and the page then shows the server's list. Its
// copy kept here (shown when the server does not answer): every game kept on this phone, and
// once the server answers again, the same sending, then the server's page.
import { PAGE, addresses, bdi, languagesLeadHere, say } from './page.js';
import { keepShared } from './service-worker.js';
import { games, keys, read } from './store.js';
import { isSending, sendGames } from './sync.js';

export async function startPage() {
  const { box, startHere } = PAGE;
  if (startHere) {
    box.querySelector('.offline-line').textContent = say('offlineStart');
    languagesLeadHere();
  } else {
    keepShared();
  }
  let pending = await listKept();
  const sendAll = async () => {
    if (isSending() || !navigator.onLine || !(pending.length || startHere)) return;
    let sent = null;
    try {
      sent = await sendGames(pending.map(({ id }) => id));
    } finally {
      pending = await listKept();
    }
    if (sent !== null && (sent || startHere)) window.location.reload();     // the server's list (it has them now)
  };
  window.addEventListener('online', sendAll);
  setInterval(sendAll, 15000);
  sendAll();
}

// List the games kept here (all of them on the copy kept for no network); those with something
// to send.
async function listKept() {
  const { box, startHere } = PAGE;
  const listed = [];
  for (const [id, data] of await games()) {
    if (!data.game || data.moved_to) continue;
    const queue = await read(keys.queue(id), []);
    if (startHere || data.made || queue.length) listed.push({ id, data, queue });
  }
  listed.sort((a, b) => (b.data.game.date || '').localeCompare(a.data.game.date || ''));
  const list = box.querySelector('.kept-here');
  list.replaceChildren(...listed.map(item));
  list.hidden = !listed.length;
  if (startHere) box.querySelector('.kept-none').hidden = Boolean(listed.length);
  else box.querySelector('.kept-title').hidden = !listed.length;
  return listed.filter(({ data, queue }) => data.made || queue.length);
}

// One game of that list, as the server's list writes one (games/_list.html), with where it
// stands on this phone.
function item({ id, data, queue }) {
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
  const li = document.createElement('li');
  li.append(link);
  return li;
}

// A date (YYYY-MM-DD) as the page's language writes it (the server's day(): Babel's medium date).
function day(iso) {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(iso || '')) return '';
  return new Intl.DateTimeFormat(PAGE.language, { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(`${iso}T00:00:00Z`));
}
