// The new-game page: with a network the game is made on the server, as always; without one (or
// when the server does not answer) it is made here, by the same Python, and sent later. Either
// way it has its id (of the server's format) before it is sent, so a game sent twice is one game.
import { drawAhead } from './ahead.js';
import { newId } from './ids.js';
import { PAGE, problems, say } from './page.js';
import { ask } from './scorer.js';
import { keepShell } from './service-worker.js';
import { outsideTable } from './standing.js';
import { keys, read, write } from './store.js';

export function newGame() {
  const form = document.querySelector('form.new-game');
  if (!form) return;
  const { box } = PAGE;
  const line = () => {
    box.querySelector('.offline-line').textContent = navigator.onLine ? '' : say('offline');
    box.classList.toggle('warning', !navigator.onLine);
  };
  // With a network the server makes the game and draws its first dealer ('draw'): Start waits for
  // no Python here. Without one, the phone's Python checks the form and draws (the same function,
  // scorer.gamefile.new_game), started as the page opens offline, while names are typed.
  const warmUp = () => { if (!navigator.onLine) ask('solve_many', { queries: [] }); };
  line();
  warmUp();
  window.addEventListener('online', line);
  window.addEventListener('offline', () => { line(); warmUp(); });
  form.addEventListener('submit', async (e) => {
    if (form.dataset.native) return;
    e.preventDefault();                                   // decided at once: the default can only be stopped now
    if (form.dataset.sending) return;                     // a second tap while the first is on its way: one game
    form.dataset.sending = '1';
    try { await startGame(form); } finally { delete form.dataset.sending; }
  });
}

// Start the game: on the server when it answers (it draws the first dealer), else here. One started
// from a table's page (/games/new?table=<id>) names its table: the copy of this page kept for no
// network has no table field, so the table comes from the page's address; the server decides, when
// it gets the game, whether this phone may start games in that table (else the game is made outside
// it, and its page says so).
async function startGame(form) {
  const body = new FormData(form);
  const table = new URLSearchParams(window.location.search).get('table');
  if (table && !body.get('table')) body.set('table', table);
  const id = newId(PAGE.gameId);
  body.set('made_here', id);
  body.set('made_key', newId(PAGE.gameId) + newId(PAGE.gameId));   // this phone's own: sent again, the same game
  if (navigator.onLine) {
    let res = null;
    try {
      res = await fetch(form.action || window.location.href, { method: 'POST', body, credentials: 'same-origin',
        headers: { Accept: 'application/json' } });
    } catch {
      res = null;                                       // no answer: made here below
    }
    if (res && res.ok) {
      try {
        const answer = await res.json();
        if (body.get('table') && answer.table !== body.get('table')) outsideTable(answer.id);
        window.location.assign(answer.sheet);
        return;
      } catch { res = null; }
    }
    if (res) { form.dataset.native = '1'; form.submit(); return; }   // the server's page says what is wrong
  }
  await makeHere(form, id, body);
}

const strings = (body) => [...body.entries()].filter(([, v]) => typeof v === 'string');

// The game made by the phone's Python (scorer.gamefile.new_game, as the server makes it: the first
// dealer drawn there if 'draw'), kept here and sent later. The Python may take seconds to start on a
// phone: meanwhile the page says it is working, and Start takes no second tap.
async function makeHere(form, id, body) {
  const fields = strings(body);
  const made = await working(form, async () => {
    const answer = await ask('make_game', { fields });
    if (!answer.ok || answer.ok.message) return answer;
    const { game, rounds } = answer.ok;
    // The form sent later names the dealer this game has (drawn by the scorer just now if need be).
    const sent = fields.map(([k, v]) => [k, k === 'first_dealer' ? String(game.first_dealer) : v]);
    const versions = Object.fromEntries(rounds.map((n) => [n, 0]));      // as the server has them: none saved
    await write(keys.game(id), { game_id: id, game, versions, colours: game.players.map((p, i) => i), revision: 0, made: sent });
    await keepShell(id, rounds);
    await drawAhead(await read(keys.game(id), null), id);           // its sheet shown at once, no Python to start there
    return answer;
  });
  if (!made.ok || made.ok.message) { problems(form, [made.ok ? made.ok.message : made.error]); return; }
  window.location.assign(`/games/${id}`);
}

// job(), with the page saying it is working (the offline line, the form busy, Start not tappable).
async function working(form, job) {
  const start = form.querySelector('button.primary'), line = PAGE.box.querySelector('.offline-line');
  const before = line.textContent;
  form.setAttribute('aria-busy', 'true');
  if (start) start.disabled = true;
  line.textContent = say('starting');
  try {
    return await job();
  } finally {
    form.removeAttribute('aria-busy');
    if (start) start.disabled = false;
    line.textContent = before;
  }
}
