// The round page offline: the preview and the save work without a network too. A round saved
// here is read, checked and scored by the phone's scorer, kept in the queue (sent later by
// sync.js), and the sheet it makes is drawn at once.
import { drawAhead } from './ahead.js';
import { PAGE, problems, say } from './page.js';
import { offerPreview } from './preview.js';
import { ask, oneForThePhone } from './scorer.js';
import { drawLive } from './sheet-page.js';
import { onPhoneAlone } from './standing.js';
import { keys, read, write } from './store.js';

let warming = null;

// This page was served by the phone because the server just failed to answer (?offline=1).
const serverFailed = () => new URL(window.location.href).searchParams.get('offline') === '1';

// Start the scorer on the round page once there is no network (or the server did not answer), so
// that the preview answers at once; with a network the server previews, and the phone spends no
// CPU or battery on a Python it does not need: it starts when first asked. Where the phone's pages
// share one Python (offline/scorer.js), the sheet without a network holds it too: the round page
// opened from it finds it running (a page's own Python, the fallback, would end with the sheet, so
// that sheet starts it only when it has to draw).
export async function warm() {
  if (warming || (navigator.onLine && !serverFailed())) return;
  if (!document.querySelector('form.round-form') && !oneForThePhone()) return;
  const data = await read(keys.game(PAGE.game), null);
  if (data) warming = ask('sheet', { game: data.game }).then(() => { PAGE.box.dataset.warm = '1'; });
}

export function roundPage(form) {
  const number = Number(form.dataset.round);
  offerPreview(async (args) => {
    const data = await read(keys.game(PAGE.game), null);
    if (!data) return null;
    const answer = await ask('preview', { game: data.game, args });
    return answer.ok ? answer.ok.html : null;
  });
  if (PAGE.kind !== 'made-here') fillFromPhone(form, number);   // a page made here was filled as it was drawn
  // With a network the form posts as always; this phone keeps the round when there is none, when
  // rounds wait to be sent before it (they go first), or when the server just failed to answer.
  const failed = serverFailed();
  form.addEventListener('submit', async (e) => {
    if (form.dataset.native) return;
    // Decided before anything is awaited: a submit's default can only be stopped at once.
    if (navigator.onLine && !onPhoneAlone() && !failed) return;
    e.preventDefault();
    const done = saving(form);
    try {
      const body = new FormData(form);
      if (navigator.onLine && !onPhoneAlone()) {
        let res = null;
        try {
          res = await fetch(form.action || window.location.href, { method: 'POST', body, credentials: 'same-origin', redirect: 'manual' });
        } catch {
          res = null;                                      // still no answer: kept on this phone below
        }
        if (res && res.type === 'opaqueredirect') { form.dataset.leaving = '1'; window.location.assign(`${PAGE.urls.round(number)}?saved=1`); return; }
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
  const text = say('saving');
  if (!button || !text) return () => {};
  const was = button.textContent;
  button.textContent = text;
  button.disabled = true;
  form.setAttribute('aria-busy', 'true');
  const done = () => { button.textContent = was; button.disabled = false; form.removeAttribute('aria-busy'); delete form.dataset.leaving; };
  window.addEventListener('pageshow', done, { once: true });      // back to this page from the next one
  return done;
}

// The round, after an offline save of it, as this phone holds it.
export async function fillFromPhone(form, number) {
  const queue = await read(keys.queue(PAGE.game), []);
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
  const { game } = PAGE;
  const data = await read(keys.game(game), null);
  if (!data) { form.dataset.native = '1'; form.submit(); return; }
  const players = data.game.players;
  const typed = players.map((p, i) => ({ cards: body.get(`entries-${i}-cards`) || '', points: body.get(`entries-${i}-points`) || '' }));
  const out = body.getAll('went_out').map(Number);
  const answer = await ask('enter', { game: data.game, number, out, typed, confirm: body.get('confirm') || '' });
  if (answer.error) { problems(form, [answer.error]); return; }
  if (answer.problem) { problems(form, Object.values(answer.problem.errors).flat()); return; }
  if (answer.ok.unsure) { doubts(form, answer.ok.unsure); return; }
  data.game = answer.ok.game;
  const shown = (name) => { const m = name.match(/^entries-(\d+)-cards$/); return m ? answer.ok.shown[Number(m[1])] : null; };
  const fields = [...body.entries()].filter(([, v]) => typeof v === 'string').map(([k, v]) => [k, shown(k) ?? v]);
  const queue = await read(keys.queue(game), []);
  const at = queue.findIndex((q) => q.round === number);
  const item = { round: number, fields: at >= 0 ? keepVersion(fields, queue[at].fields) : fields, at: Date.now() };
  if (at >= 0) queue[at] = item; else queue.push(item);
  // The sheet this phone goes to next, drawn while this page's scorer runs (a game made here: its
  // page; a kept page of the server's: its live part).
  const drawn = PAGE.kind === 'made-here' ? null : await drawLive(data);
  if (PAGE.kind === 'made-here') await drawAhead(data, game);
  await write(keys.game(game), data);
  await write(keys.queue(game), queue);
  await write(keys.live(game), drawn);
  localStorage.removeItem(`draft:${game}:${number}`);
  form.dataset.leaving = '1';
  window.location.assign(`${PAGE.urls.sheet}?unsent=1`);
}

// A round corrected before it was sent is still based on the version it first was.
function keepVersion(fields, first) {
  const version = (first.find(([k]) => k === 'version') || [])[1];
  return fields.map(([k, v]) => [k, k === 'version' && version !== undefined ? version : v]);
}

// A round that looks like an entry mistake: the round page's own box (games/_doubts.html, drawn by
// the phone's scorer), where the server's page has it, in place of any earlier one.
function doubts(form, html) {
  document.getElementById('offline-problems')?.remove();
  const drawn = document.createElement('template');
  drawn.innerHTML = html;
  const box = drawn.content.firstElementChild;
  const earlier = document.querySelector('section.doubts');
  if (earlier) earlier.replaceWith(box); else form.before(box);
  box.scrollIntoView({ block: 'nearest' });
}
