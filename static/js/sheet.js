// The live scoresheet: ask the server every 1.5 s whether the game changed (a 304 when not,
// thanks to the ETag), and swap in the new sheet when it did. Paused while the page is hidden.
import { keepAwake } from './app.js';

const live = document.getElementById('live');
const EVERY_MS = 1500;

if (live) {
  keepAwake();
  let etag = live.dataset.etag;
  let busy = false;
  const poll = async () => {
    if (busy || document.visibilityState !== 'visible') return;
    busy = true;
    try {
      const res = await fetch(live.dataset.liveUrl, { headers: { 'If-None-Match': etag }, cache: 'no-store' });
      if (res.status === 200) {
        live.innerHTML = await res.text();
        etag = res.headers.get('ETag') || etag;
        live.dataset.etag = etag;
        live.classList.remove('stale');
      } else if (res.status !== 304) {
        live.classList.add('stale');
      }
    } catch (e) {
      live.classList.add('stale');     // offline for now: try again at the next tick
    } finally {
      busy = false;
    }
  };
  setInterval(poll, EVERY_MS);
  document.addEventListener('visibilitychange', poll);
}
