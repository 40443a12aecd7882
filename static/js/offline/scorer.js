// The scorer client: the phone's Python (web/phone.py in Pyodide, static/js/scorer-worker.js),
// asked a question by name. One Python a phone where the browser has SharedWorker: every page of
// the release kept talks to the same one, through its own port, and it outlives a navigation from
// one page to the next (extendedLifetime, where the browser has it), so the next page does not
// start Python again. Its address and name are the release's (/offline/<release>/worker.js): after
// an update, the pages of the new release start the new release's Python, never the old one's.
// Without SharedWorker, one dedicated worker a page, as before. Either is started when first asked.
// A worker whose script cannot load (its bundle gone) answers every question waiting with an
// error, and the next question starts a new one.
import { PAGE } from './page.js';
import { kept } from './store.js';

let worker = null;      // {port: where questions go, stop: let it go} of this page
let asked = 0;
const waiting = new Map();

// The name a release's shared scorer goes by (its address names the release too).
const scorerName = (release) => `scorer ${release}`;

// Whether this phone's pages share one Python (else each page starts its own).
export const oneForThePhone = () => typeof SharedWorker === 'function';

// This page's way to the scorer: a port of the phone's shared one, else a worker of its own.
function connect() {
  const url = `/offline/${kept()}/worker.js`;
  const hear = (e) => { const done = waiting.get(e.data.id); waiting.delete(e.data.id); if (done) done(e.data); };
  let made = null;
  if (oneForThePhone()) {
    const shared = new SharedWorker(url, { type: 'module', name: scorerName(kept()), extendedLifetime: true });
    shared.port.onmessage = hear;
    made = { port: shared.port, stop: () => shared.port.close(), on: shared };
  } else {
    const own = new Worker(url, { type: 'module' });
    own.onmessage = hear;
    made = { port: own, stop: () => own.terminate(), on: own };
  }
  made.on.onerror = (e) => stopScorer(made, e.message || 'the scorer did not start');
  return made;
}

export function ask(name, args) {
  if (!worker) worker = connect();
  asked += 1;
  const id = asked;
  return new Promise((resolve) => { waiting.set(id, resolve); worker.port.postMessage({ id, name, language: PAGE.language, args }); });
}

// Let this page's scorer go: every question still waiting is answered with the error, and the next
// question connects again.
function stopScorer(which, error) {
  which.stop();
  if (worker !== which) return;
  worker = null;
  for (const done of waiting.values()) done({ error });
  waiting.clear();
}

// A page left lets go of its scorer (a page kept in the back-forward cache would hold it, and the
// bundle it reads, which a new release drops): its own worker ends; the shared one lives on for the
// next page (and ends after the last page of the phone lets go of it). A question still waiting is
// answered with the error; it starts again if the page is shown again.
window.addEventListener('pagehide', () => { if (worker) stopScorer(worker, 'the page was left'); });
