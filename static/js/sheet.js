// The live scoresheet (and the big screen): each save arrives as it happens through live.js.
// While the server can't be reached the page says "Reconnecting…" and dims the sheet until it
// answers again; a deleted game says so and stops. At game over a follower's page drops
// "Take your seat"; once the scorekeeper starts a rematch it offers one tap to the new game.
import { keepAwake, withdrawUndo } from './app.js';
import { follow, liveState } from './live.js';

const live = document.getElementById('live');
const status = document.getElementById('live-status');

function show(text) {
  if (!status) return;
  status.textContent = text || '';
  status.hidden = !text;
}

// What depends on the state of the game but sits outside the live part of the page.
function turns(html) {
  const state = liveState(html);
  if (!state) return;
  for (const node of document.querySelectorAll('[data-while-playing]')) node.hidden = state.nextRound === null;
  const rematch = document.getElementById('follow-rematch');
  if (rematch && state.rematch) rematch.hidden = false;
  withdrawUndo(state.lastSave);
}

// When the sheet was last known to be right: the page's own time, then each update.
let heard = new Date(live?.dataset.at || Date.now());

if (live) {
  keepAwake();
  follow(live, {
    // A sheet drawn on this phone from rounds not sent yet (offline.js) stays until they are sent.
    sheet(html) { if (live.dataset.local) return; live.innerHTML = html; turns(html); heard = new Date(); },
    fresh() { if (!live.classList.contains('gone')) { live.classList.remove('stale'); show(''); } },
    stale() {
      if (live.dataset.local) return;
      live.classList.add('stale');
      show(status?.dataset.reconnecting.replace('{time}', heard.toLocaleTimeString(document.documentElement.lang, { hour: '2-digit', minute: '2-digit' })));
    },
    gone() { live.classList.add('gone', 'stale'); show(status?.dataset.deleted); },
  });
}
