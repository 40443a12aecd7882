// The live scoresheet. The server pushes each save as it happens (Server-Sent Events from
// /games/<id>/events); where a stream can't be held (no EventSource, or a proxy that cuts it
// again and again) the page asks every 1.5 s instead, and gets a 304 while nothing changed.
// While the server can't be reached the page says "Reconnecting…" and dims the sheet until it
// answers again; a deleted game says so and stops.
import { keepAwake } from './app.js';

const live = document.getElementById('live');
const status = document.getElementById('live-status');
const EVERY_MS = 1500;
const GIVE_UP_STREAM_AFTER = 3;       // failed stream attempts in a row before polling instead

function show(text) {
  if (!status) return;
  status.textContent = text || '';
  status.hidden = !text;
}

function fresh(html, etag) {
  if (html !== null) live.innerHTML = html;
  if (etag) live.dataset.etag = etag;
  live.classList.remove('stale');
  show('');
}

function stale(why) {
  live.classList.add('stale');
  show(status?.dataset[why]);
}

function poll() {
  let busy = false;
  const timer = setInterval(async () => {
    if (busy || document.visibilityState !== 'visible') return;
    busy = true;
    try {
      const res = await fetch(live.dataset.liveUrl, { headers: { 'If-None-Match': live.dataset.etag }, cache: 'no-store' });
      if (res.status === 200) fresh(await res.text(), res.headers.get('ETag'));
      else if (res.status === 304) fresh(null);
      else if (res.status === 404) { clearInterval(timer); stale('deleted'); } else stale('reconnecting');
    } catch (e) {
      stale('reconnecting');           // offline for now: try again at the next tick
    } finally {
      busy = false;
    }
  }, EVERY_MS);
}

// A stream that stays silent past two and a half pings has died (a phone whose network went
// away often gets no error at all): say so, and open a new one, which says what it last saw.
function push() {
  const quiet = Number(live.dataset.keepalive || 15) * 2500;
  let source = null;
  let failures = 0;
  let lastMessage = Date.now();
  let lastId = null;
  const heard = () => { lastMessage = Date.now(); };
  const connect = () => {
    const url = new URL(live.dataset.eventsUrl, window.location.href);
    if (lastId !== null) url.searchParams.set('since', lastId);
    source = new EventSource(url);
    heard();
    source.addEventListener('open', () => { failures = 0; heard(); if (!live.classList.contains('gone')) fresh(null); });
    source.addEventListener('ping', () => { heard(); if (!live.classList.contains('gone')) fresh(null); });
    source.addEventListener('sheet', (e) => { heard(); lastId = e.lastEventId; fresh(e.data, null); failures = 0; });
    source.addEventListener('gone', () => { source.close(); live.classList.add('gone'); stale('deleted'); });
    source.addEventListener('error', () => {
      failures += 1;
      stale('reconnecting');            // EventSource tries again by itself, saying what it last saw
      if (failures >= GIVE_UP_STREAM_AFTER) { source.close(); poll(); }
    });
  };
  const restart = () => { source.close(); stale('reconnecting'); connect(); };
  window.addEventListener('offline', () => { source.close(); stale('reconnecting'); });
  window.addEventListener('online', () => restart());
  setInterval(() => {
    if (source.readyState !== EventSource.CLOSED && Date.now() - lastMessage > quiet && navigator.onLine) restart();
  }, 1000);
  connect();
}

if (live) {
  keepAwake();
  if ('EventSource' in window && live.dataset.eventsUrl) push(); else poll();
}
