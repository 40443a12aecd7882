// The finger guard. A finger lands ~300 ms after it aimed, so for SETTLE_MS after the keypad opens
// or closes a tap on what just appeared under it is dropped: the keys after it opens, the page below
// its top edge after it closes (Save stays disabled meanwhile); after the page moved on, or a warning
// appeared over it, every tap. A tap dropped always says so.
import { el, say } from './page.js';

// How long, given by the server (web/templating.py SETTLE_MS, the app's FINGER_SETTLE_MS) in the
// page's #picker-timing block: a finger lands ~300 ms after it aimed, so taps this soon after a change are stale.
function settleMs() {
  const ms = Number(JSON.parse(document.getElementById('picker-timing')?.textContent || '{}').settleMs);
  if (!Number.isFinite(ms)) throw new Error('guard.js: the page gives no settleMs');
  return ms;
}

export class FingerGuard {
  constructor(pad, saveButton) {
    this.settleMs = settleMs();
    this.pad = pad;
    this.saveButton = saveButton;
    this.settling = null;      // {until, opened, below} or {until, all}: taps on what just appeared are dropped until then
    this.settled = null;
    this.noted = null;
  }

  // Every tap passes the guard first (the document's, before the page's own); a finger on Save
  // while it is held back (disabled: no click comes) is told too.
  listen() {
    document.addEventListener('click', (e) => {
      if (this.dropsTap(e)) { e.preventDefault(); e.stopPropagation(); this.ignored(); }
    }, true);
    document.addEventListener('touchstart', (e) => {
      const touch = e.touches[0];
      if (touch && this.saveButton?.disabled && this.saveButton.contains(e.target)) this.ignored();
    }, { capture: true, passive: true });
  }

  // The keypad opened (opened) or closed: what appeared under a finger gets no tap for SETTLE_MS.
  settle(opened) {
    const { pad } = this;
    this.settling = { until: performance.now() + this.settleMs, opened, below: pad.getBoundingClientRect().top };
    document.documentElement.dataset.settling = '1';
    if (opened) pad.setAttribute('aria-disabled', 'true');
    else if (this.saveButton) this.saveButton.disabled = true;
    clearTimeout(this.settled);
    this.settled = setTimeout(() => this.settledDown(), this.settleMs);
  }

  settledDown() {
    this.settling = null;
    delete document.documentElement.dataset.settling;
    this.pad.removeAttribute('aria-disabled');
    if (this.saveButton) this.saveButton.disabled = false;
  }

  dropsTap(e) {
    const { settling } = this;
    if (!settling || performance.now() > settling.until) return false;
    if (settling.all) return true;
    const onPad = this.pad.contains(e.target);
    return settling.opened ? onPad : (!onPad && e.clientY >= settling.below && (e.detail > 0 || e.type !== 'click'));
  }

  // A page reached because the game moved on (?after=N), counted from when it shows (its script
  // runs as it is first drawn: until then a browser, a slow phone's most of all, still shows the
  // page before), or a warning that just appeared over the page: a tap landing meanwhile was aimed
  // at what was there before, and does nothing here.
  settleAll() {
    this.settling = { until: performance.now() + this.settleMs, all: true };
    document.documentElement.dataset.settling = '1';
    clearTimeout(this.settled);
    this.settled = setTimeout(() => { this.settling = null; delete document.documentElement.dataset.settling; }, this.settleMs);
  }

  // A tap dropped says so, where nothing can move: a line over the top of the page, for a moment.
  ignored() {
    let note = document.getElementById('tap-ignored');
    if (!note) {
      note = el('p', { id: 'tap-ignored', class: 'tap-ignored', role: 'status' });
      document.body.append(note);
    }
    note.textContent = say('ignored');
    note.classList.add('shown');
    clearTimeout(this.noted);
    this.noted = setTimeout(() => note.classList.remove('shown'), 1500);
  }
}
