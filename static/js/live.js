// One live connection to a game, for every page that follows one (the sheet, the big screen, the
// round page, "my hand"). The server pushes each save as it happens (Server-Sent Events from
// /games/<id>/events). A stream that stays silent past two and a half pings has died (a phone
// whose network went away often gets no error at all): it is opened again, saying what it last
// saw. Where a stream can't be held (no EventSource, or one that fails again and again, as during
// a server restart) the page asks every POLL_MS instead, and goes back to a stream as soon as the
// server answers again, trying less often each time it fails (up to every five minutes).

// What the live sheet says about the game: {nextRound, rematch, lastSave} (from its .live-state
// element; lastSave, for a scorekeeper, the save Undo may undo: '3:2', or '' for none).
export function liveState(html) {
  const state = new DOMParser().parseFromString(html, 'text/html').querySelector('.live-state');
  if (!state) return null;
  return { nextRound: Number(state.dataset.nextRound) || null, rematch: state.dataset.rematch || '',
    lastSave: state.dataset.lastSave ?? null };
}

// The timings the server gives (web/live.py TIMINGS, as data-live-* attributes): the page has none of its own.
function timings(info) {
  const number = (name) => {
    const value = Number(info[name]);
    if (!Number.isFinite(value)) throw new Error(`live.js: the page gives no ${name}`);
    return value;
  };
  return {
    pollMs: number('livePollMs'), quietMs: number('liveKeepalive') * 1000 * number('liveSilentPings'),
    backToStreamMs: number('liveBackToStreamMs'), mostBackToStreamMs: number('liveMostBackToStreamMs'),
    giveUpAfter: number('liveGiveUpStreamAfter'),
  };
}

// follow(place, handlers): place holds data-events-url (the stream), data-live-url (the sheet, for
// polling, with its ETag in data-etag), optionally data-drafts-url (polled drafts), and the timings
// the server gives (web/live.py live_timing()). Handlers: sheet(html, id), drafts(data), gone(),
// stale(), fresh(). Returns { end }.
export function follow(place, handlers) {
  const link = new Link(place.dataset, { sheet() {}, drafts() {}, gone() {}, stale() {}, fresh() {}, ...handlers });
  link.start();
  return { end: () => link.end() };
}

// One page's link to its game: a stream while one can be held, else polling, and back.
class Link {
  constructor(info, on) {
    this.info = info;
    this.on = on;
    this.time = timings(info);
    this.source = null;
    this.timer = null;
    this.failures = 0;
    this.lastHeard = Date.now();
    this.lastId = null;
    this.etag = info.etag || '';
    this.lastDrafts = '';
    this.backoff = this.time.backToStreamMs;
    this.pollingSince = 0;
    this.over = false;
    this.canStream = 'EventSource' in window && Boolean(info.eventsUrl);
  }

  start() {
    if (!this.canStream) { this.poll(); return; }
    window.addEventListener('offline', () => { if (this.source) this.source.close(); this.on.stale(); });
    window.addEventListener('online', () => this.restart());
    setInterval(() => this.watch(), 1000);
    this.connect();
  }

  heard() { this.lastHeard = Date.now(); }

  end() {
    this.over = true;
    if (this.source) this.source.close();
    clearInterval(this.timer);
    this.on.gone();
  }

  // A stream, saying what it last saw; each event says the link is alive.
  connect() {
    const url = new URL(this.info.eventsUrl, window.location.href);
    if (this.lastId !== null) url.searchParams.set('since', this.lastId);
    const source = new EventSource(url);
    this.source = source;
    this.heard();
    // Open: the server answers again; the page's other parts may want to know (offline.js sends what waits).
    source.addEventListener('open', () => { this.failures = 0; this.heard(); this.on.fresh(); document.dispatchEvent(new Event('live-open')); });
    source.addEventListener('ping', () => { this.heard(); this.on.fresh(); });
    source.addEventListener('sheet', (e) => this.sheet(e));
    source.addEventListener('drafts', (e) => { this.heard(); this.on.drafts(JSON.parse(e.data)); });
    source.addEventListener('gone', () => this.end());
    source.addEventListener('error', () => this.failed(source));
  }

  sheet(e) {
    this.heard();
    this.lastId = e.lastEventId;
    this.failures = 0;
    this.backoff = this.time.backToStreamMs;
    this.on.sheet(e.data, e.lastEventId);
    this.on.fresh();
  }

  // EventSource tries again by itself, saying what it last saw. A stream refused outright (a
  // proxy's 502 while the server restarts) is not tried again by EventSource; one that keeps
  // failing is given up: either way, poll until the server answers.
  failed(source) {
    this.failures += 1;
    this.on.stale();
    if (source.readyState === EventSource.CLOSED || this.failures >= this.time.giveUpAfter) { source.close(); this.poll(); }
  }

  // A stream silent past its pings has died (a phone whose network went away often gets no error).
  watch() {
    const { source } = this;
    if (!this.over && source && source.readyState !== EventSource.CLOSED && Date.now() - this.lastHeard > this.time.quietMs
        && navigator.onLine) this.restart();
  }

  restart() {
    if (this.over) return;
    if (this.source) this.source.close();
    clearInterval(this.timer);
    this.on.stale();
    this.connect();
  }

  // One poll: the sheet (if it changed since its ETag) and the drafts; false if the server did not answer.
  async ask() {
    const { info } = this;
    if (info.liveUrl) {
      const res = await fetch(info.liveUrl, { headers: this.etag ? { 'If-None-Match': this.etag } : {}, cache: 'no-store' });
      if (res.status === 404) { this.end(); return false; }
      if (res.status === 200) { this.etag = res.headers.get('ETag') || ''; this.on.sheet(await res.text(), null); } else if (res.status !== 304) return false;
    }
    if (info.draftsUrl) {
      const res = await fetch(info.draftsUrl, { cache: 'no-store' });
      if (!res.ok) return false;
      const body = await res.text();
      if (body !== this.lastDrafts) { this.lastDrafts = body; this.on.drafts(JSON.parse(body)); }
    }
    return true;
  }

  poll() {
    clearInterval(this.timer);
    this.pollingSince = Date.now();
    let busy = false;
    this.timer = setInterval(async () => {
      if (busy || this.over || document.visibilityState !== 'visible') return;
      busy = true;
      try {
        if (await this.ask()) this.answered(); else if (!this.over) this.on.stale();
      } catch {
        this.on.stale();                // offline for now: try again at the next tick
      } finally {
        busy = false;
      }
    }, this.time.pollMs);
  }

  // The server answers again: back to a stream, trying less often each time one fails.
  answered() {
    this.on.fresh();
    if (this.canStream && Date.now() - this.pollingSince >= this.backoff) {
      this.backoff = Math.min(this.backoff * 2, this.time.mostBackToStreamMs);
      clearInterval(this.timer);
      this.failures = 0;
      this.connect();
    }
  }
}
