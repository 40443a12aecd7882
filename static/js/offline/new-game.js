// The new-game page: with a network the game is made on the server, as always; without one (or
// when the server does not answer) it is made here, by the same Python, and sent later. Either
// way it has its id (of the server's format) before it is sent, so a game sent twice is one game.
import { newId } from './ids.js';
import { PAGE, problems, say } from './page.js';
import { ask } from './scorer.js';
import { keepShell } from './service-worker.js';
import { keys, write } from './store.js';

export function newGame() {
  const form = document.querySelector('form.new-game');
  if (!form) return;
  const { box } = PAGE;
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
    const id = newId(PAGE.gameId);
    body.set('made_here', id);
    body.set('made_key', newId(PAGE.gameId) + newId(PAGE.gameId));   // this phone's own: sent again, the same game
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

const strings = (body) => [...body.entries()].filter(([, v]) => typeof v === 'string');

// The first dealer drawn by the phone's Python (scorer.gamefile.new_game, as the server draws it),
// before the form is sent, so that the server and this phone have the same one whichever makes the
// game. A form the scorer finds wrong keeps 'draw': the server's page (or makeHere) says what is wrong.
// Start takes no second tap meanwhile, and says it is busy.
async function drawDealer(form, body) {
  const start = form.querySelector('button.primary');
  form.setAttribute('aria-busy', 'true');
  if (start) start.disabled = true;
  try {
    const answer = await ask('make_game', { fields: strings(body) });
    if (answer.ok && answer.ok.game) body.set('first_dealer', String(answer.ok.game.first_dealer));
  } finally {
    form.removeAttribute('aria-busy');
    if (start) start.disabled = false;
  }
}

async function makeHere(form, id, body) {
  const fields = strings(body);
  const answer = await ask('make_game', { fields });
  if (!answer.ok || answer.ok.message) { problems(form, [answer.ok ? answer.ok.message : answer.error]); return; }
  const { game, rounds } = answer.ok;
  // The form sent later names the dealer this game has (drawn by the scorer just now if need be).
  const made = fields.map(([k, v]) => [k, k === 'first_dealer' ? String(game.first_dealer) : v]);
  const versions = Object.fromEntries(rounds.map((n) => [n, 0]));      // as the server has them: none saved
  await write(keys.game(id), { game_id: id, game, versions, colours: game.players.map((p, i) => i), revision: 0, made });
  await keepShell(id, rounds);
  window.location.assign(`/games/${id}`);
}
