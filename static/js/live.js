// One live connection to a game, for every page that follows one (the sheet, the big screen, the
// round page, "my hand"). The server pushes each save as it happens (Server-Sent Events from
// /games/<id>/events). A stream that stays silent past two and a half pings has died (a phone
// whose network went away often gets no error at all): it is opened again, saying what it last
// saw. Where a stream can't be held (no EventSource, or one that fails again and again, as during
// a server restart) the page asks every POLL_MS instead, and goes back to a stream as soon as the
// server answers again, trying less often each time it fails (up to every five minutes).

const GIVE_UP_STREAM_AFTER = 3;       // failed stream attempts in a row before polling instead
const MOST_BACK_TO_STREAM_MS = 300000;

// What the live sheet says about the game: {nextRound, rematch} (from its .live-state element).
export function liveState(html) {
  const state = new DOMParser().parseFromString(html, 'text/html').querySelector('.live-state');
  if (!state) return null;
  return { nextRound: Number(state.dataset.nextRound) || null, rematch: state.dataset.rematch || '' };
}

// follow(place, handlers): place holds data-events-url (the stream), data-live-url (the sheet, for
// polling, with its ETag in data-etag), optionally data-drafts-url (polled drafts), and the timings
// the server gives (web/live.py live_timing()). Handlers: sheet(html, id), drafts(data), gone(),
// stale(), fresh().
export function follow(place, handlers) {
  const on = { sheet() {}, drafts() {}, gone() {}, stale() {}, fresh() {}, ...handlers };
  const info = place.dataset;
  const pollMs = Number(info.pollMs || 1500);
  const quietMs = Number(info.keepalive || 15) * 2500;
  const backToStreamMs = Number(info.backToStreamMs || 10000);
  let source = null;
  let timer = null;
  let failures = 0;
  let lastHeard = Date.now();
  let lastId = null;
  let etag = info.etag || '';
  let lastDrafts = '';
  let backoff = backToStreamMs;
  let pollingSince = 0;
  let over = false;
  const canStream = 'EventSource' in window && info.eventsUrl;

  const heard = () => { lastHeard = Date.now(); };
  const end = () => { over = true; if (source) source.close(); clearInterval(timer); on.gone(); };

  function connect() {
    const url = new URL(info.eventsUrl, window.location.href);
    if (lastId !== null) url.searchParams.set('since', lastId);
    source = new EventSource(url);
    heard();
    source.addEventListener('open', () => { failures = 0; heard(); on.fresh(); });
    source.addEventListener('ping', () => { heard(); on.fresh(); });
    source.addEventListener('sheet', (e) => {
      heard();
      lastId = e.lastEventId;
      failures = 0;
      backoff = backToStreamMs;
      on.sheet(e.data, e.lastEventId);
      on.fresh();
    });
    source.addEventListener('drafts', (e) => { heard(); on.drafts(JSON.parse(e.data)); });
    source.addEventListener('gone', end);
    source.addEventListener('error', () => {
      failures += 1;
      on.stale();                       // EventSource tries again by itself, saying what it last saw
      // A stream refused outright (a proxy's 502 while the server restarts) is not tried again by
      // EventSource; one that keeps failing is given up: either way, poll until the server answers.
      if (source.readyState === EventSource.CLOSED || failures >= GIVE_UP_STREAM_AFTER) { source.close(); poll(); }
    });
  }

  async function ask() {
    if (info.liveUrl) {
      const res = await fetch(info.liveUrl, { headers: etag ? { 'If-None-Match': etag } : {}, cache: 'no-store' });
      if (res.status === 404) { end(); return false; }
      if (res.status === 200) { etag = res.headers.get('ETag') || ''; on.sheet(await res.text(), null); } else if (res.status !== 304) return false;
    }
    if (info.draftsUrl) {
      const res = await fetch(info.draftsUrl, { cache: 'no-store' });
      if (!res.ok) return false;
      const body = await res.text();
      if (body !== lastDrafts) { lastDrafts = body; on.drafts(JSON.parse(body)); }
    }
    return true;
  }

  function poll() {
    clearInterval(timer);
    pollingSince = Date.now();
    let busy = false;
    timer = setInterval(async () => {
      if (busy || over || document.visibilityState !== 'visible') return;
      busy = true;
      try {
        if (await ask()) {
          on.fresh();
          // The server answers again: back to a stream, trying less often each time one fails.
          if (canStream && Date.now() - pollingSince >= backoff) {
            backoff = Math.min(backoff * 2, MOST_BACK_TO_STREAM_MS);
            clearInterval(timer);
            failures = 0;
            connect();
          }
        } else if (!over) on.stale();
      } catch {
        on.stale();                     // offline for now: try again at the next tick
      } finally {
        busy = false;
      }
    }, pollMs);
  }

  if (!canStream) { poll(); return { end }; }
  const restart = () => { if (over) return; if (source) source.close(); clearInterval(timer); on.stale(); connect(); };
  window.addEventListener('offline', () => { if (source) source.close(); on.stale(); });
  window.addEventListener('online', restart);
  setInterval(() => {
    if (!over && source && source.readyState !== EventSource.CLOSED && Date.now() - lastHeard > quietMs && navigator.onLine) restart();
  }, 1000);
  connect();
  return { end };
}
