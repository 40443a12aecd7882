// The sheet offline: drawn here from the game on this phone while it holds rounds the server has
// not, and its Export and Print made here.
import { PAGE } from './page.js';
import { ask } from './scorer.js';
import { madeHereUnsent, onPhoneAlone } from './standing.js';
import { keys, read } from './store.js';

// The sheet drawn here, from the game on this phone, when it holds rounds the server has not.
export async function drawSheet() {
  const live = document.getElementById('live');
  if (!live) return;
  live.dataset.local = '1';                  // live.js's news of the server's sheet waits until sent
  const show = (html) => {
    live.innerHTML = html;
    live.classList.remove('stale');
    const warning = document.getElementById('live-status');
    if (warning) warning.hidden = true;
  };
  const drawn = await read(keys.live(PAGE.game), null);  // drawn by the round page as it saved: shown at once
  if (drawn) { show(drawn); return; }
  const data = await read(keys.game(PAGE.game), null);
  if (!data) return;
  const html = await drawLive(data);
  if (html) show(html);
}

// The live part of the sheet (_live.html) as the phone's scorer draws it for this game; null if it cannot.
export async function drawLive(data) {
  const answer = await ask('live', { game: data.game, game_id: PAGE.game, colours: data.colours, last_save: data.last_save || '' });
  return answer.ok || null;
}

// Export and Print while rounds are on this phone alone (or with no network): the game file is
// made here by the same code as the server's; the printout is this page as drawn here.
export function sheetLinks() {
  const exported = document.querySelector('a[href$="/export.json"]');
  const printed = document.querySelector('a[href$="/print"]');
  const here = () => !navigator.onLine || onPhoneAlone();
  exported?.addEventListener('click', (e) => {
    if (!here()) return;
    e.preventDefault();
    read(keys.game(PAGE.game), null).then((data) => data && ask('export', { game: data.game, game_id: PAGE.game })).then((answer) => {
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
    if (!score || navigator.onLine && !madeHereUnsent()) return;
    e.preventDefault();
    const round = new URL(score.href).pathname.split('/')[4];
    window.location.assign(PAGE.urls.round(round));
  });
  printed?.addEventListener('click', (e) => {
    if (!here()) return;
    e.preventDefault();
    window.print();
  });
}
