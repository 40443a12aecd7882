// The scorer client: the phone's Python (web/phone.py in Pyodide, static/js/scorer-worker.js),
// asked a question by name. One worker a page, started when first asked. A worker that cannot
// start (its bundle gone) answers every question with an error, and the next question starts a
// new one.
import { PAGE } from './page.js';
import { kept } from './store.js';

let worker = null;
let asked = 0;
const waiting = new Map();

export function ask(name, args) {
  if (!worker) {
    worker = new Worker(`/offline/${kept()}/worker.js`, { type: 'module' });
    worker.onmessage = (e) => { const done = waiting.get(e.data.id); waiting.delete(e.data.id); if (done) done(e.data); };
    const started = worker;
    worker.onerror = (e) => stopScorer(started, e.message || 'the scorer did not start');
  }
  asked += 1;
  const id = asked;
  return new Promise((resolve) => { waiting.set(id, resolve); worker.postMessage({ id, name, language: PAGE.language, args }); });
}

// Stop a scorer: if it is this page's, every question still waiting is answered with the error,
// and the next question starts a new one.
function stopScorer(which, error) {
  which.terminate();
  if (worker !== which) return;
  worker = null;
  for (const done of waiting.values()) done({ error });
  waiting.clear();
}

// A page left lets its scorer go (a page kept in the back-forward cache would hold it, and the
// bundle it reads, which a new release drops); it starts again if the page is shown again.
window.addEventListener('pagehide', () => { if (worker) stopScorer(worker, 'the page was left'); });
