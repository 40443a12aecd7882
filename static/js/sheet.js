// The live scoresheet: ask the server every 1.5 s whether the game changed (a 304 when not,
// thanks to the ETag), and swap in the new sheet when it did. Paused while the page is hidden.
// When the server can't be reached the page says "Reconnecting…" (and the sheet dims) until it
// answers again; a deleted game says so and stops asking.
import { keepAwake } from './app.js';

const live = document.getElementById('live');
const status = document.getElementById('live-status');
const EVERY_MS = 1500;

function show(text) {
  if (!status) return;
  status.textContent = text;
  status.hidden = !text;
}

if (live) {
  keepAwake();
  let etag = live.dataset.etag;
  let busy = false;
  let timer = null;
  const poll = async () => {
    if (busy || document.visibilityState !== 'visible') return;
    busy = true;
    try {
      const res = await fetch(live.dataset.liveUrl, { headers: { 'If-None-Match': etag }, cache: 'no-store' });
      if (res.status === 200) {
        live.innerHTML = await res.text();
        etag = res.headers.get('ETag') || etag;
        live.dataset.etag = etag;
      }
      if (res.status === 404) {
        clearInterval(timer);
        live.classList.add('stale');
        show(status.dataset.deleted);
      } else if (res.status === 200 || res.status === 304) {
        live.classList.remove('stale');
        show('');
      } else {
        live.classList.add('stale');
        show(status.dataset.reconnecting);
      }
    } catch (e) {
      live.classList.add('stale');     // offline for now: try again at the next tick
      show(status.dataset.reconnecting);
    } finally {
      busy = false;
    }
  };
  timer = setInterval(poll, EVERY_MS);
  document.addEventListener('visibilitychange', poll);
}
