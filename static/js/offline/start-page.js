// The start page. Online: the games this phone holds that the server has not got all of, each a
// link to its page; they are sent from here too, and the page then shows the server's list. Its
// copy kept here (shown when the server does not answer): every game kept on this phone and every
// table whose page it kept, and once the server answers again, the same sending, then the server's page.
import { PAGE, addresses, languagesLeadHere, say } from './page.js';
import { ask } from './scorer.js';
import { keepShared, keptTables } from './service-worker.js';
import { games, keys, read } from './store.js';
import { isSending, sendGames } from './sync.js';

export async function startPage() {
  const { box, startHere } = PAGE;
  if (startHere) {
    box.querySelector('.offline-line').textContent = say('offlineStart');
    languagesLeadHere();
    listTables();
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
  if (PAGE.sendAgainMs) setInterval(sendAll, PAGE.sendAgainMs);
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
  list.innerHTML = listed.length ? await drawList(listed) : '';
  list.hidden = !listed.length;
  if (startHere) box.querySelector('.kept-none').hidden = Boolean(listed.length);
  else box.querySelector('.kept-title').hidden = !listed.length;
  return listed.filter(({ data, queue }) => data.made || queue.length);
}

// The list as the server's lists draw a game (games/_game_item.html), by the phone's scorer, with
// where each stands on this phone. A scorer that cannot start: each game's link, by its names.
async function drawList(listed) {
  const games = listed.map(({ id, data, queue }) => ({ id, game: data.game, unsent: queue.length,
    made: Boolean(data.made), refused: Boolean(data.refused) }));
  const answer = await ask('game_list', { games });
  if (answer.ok !== undefined) return answer.ok;
  const holder = document.createElement('ul');
  for (const { id, data } of listed) {
    const link = document.createElement('a');
    link.href = addresses(id).sheet;
    link.textContent = data.game.title || data.game.players.join(', ');
    holder.appendChild(document.createElement('li')).append(link);
  }
  return holder.innerHTML;
}

// The tables whose page this phone kept, as the server's start page draws one (games/_table_item.html),
// by the phone's scorer; a scorer that cannot start: each table's link, by its name.
async function listTables() {
  const { box } = PAGE;
  const tables = await keptTables();
  const list = box.querySelector('.kept-tables');
  let drawn = '';
  if (tables.length) {
    const answer = await ask('table_list', { tables });
    drawn = answer.ok !== undefined ? answer.ok : links(tables);
  }
  list.innerHTML = drawn;
  list.hidden = !tables.length;
  box.querySelector('.tables-none').hidden = Boolean(tables.length);
}

function links(tables) {
  const holder = document.createElement('ul');
  for (const { id, name } of tables) {
    const link = document.createElement('a');
    link.href = `/tables/${id}`;
    link.textContent = name;
    holder.appendChild(document.createElement('li')).append(link);
  }
  return holder.innerHTML;
}
