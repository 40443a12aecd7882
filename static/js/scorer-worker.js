// The scorer on the phone: a worker running this project's own Python (scorer/ and web/phone.py,
// with the server's templates and catalogs) in Pyodide, all from this origin. Served as
// /offline/<release>/worker.js; it loads the bundle of the same release, and Pyodide from its own
// version's address (/offline/pyodide/<version>/, written in here by the server), and the Python
// packages the scorer imports (jinja2, babel, ...) from theirs (/offline/packages/<hash>/): a
// release of this project changes neither.
//
// One Python a phone where the browser allows it: a SharedWorker (offline/scorer.js) that every page
// of the origin asks, each through its own port, kept alive across a navigation from one page to the
// next (extendedLifetime), so a page opens on a Python already started. Its address and name are its
// release's, so a page of a new release starts a new one. Where a browser has no SharedWorker, each
// page starts its own dedicated worker, this same script. Python answers one question at a time: two
// pages (two tabs) asking at once are answered in turn.
//
// What Python compiles (the modules' bytecode, which only Pyodide's own Python version can make,
// and the templates) is kept once a release, in Cache Storage ('compiled',
// /offline/<release>/compiled.zip): the next worker imports without compiling. Another release's
// is dropped as this one's is kept.
//
// A message is {id, name, language, args}; the answer is {id, ok} or {id, problem} (a round that
// cannot be saved, as scorer words it), or {id, error} (something broke). The question 'timings' is
// answered here: when this worker was made ('born', ms since the epoch: the same on two pages, the
// same Python) and the steps of its start and its answers (performance marks, ms since it was
// made), which bench/offline.py reads.
const base = new URL('./', self.location.href).href;           // /offline/<release>/
const PYODIDE = new URL('__PYODIDE__', self.location.href).href;  // /offline/pyodide/<version>/
const PACKAGES = new URL('__PACKAGES__', self.location.href).href;  // /offline/packages/<hash>/packages.zip
const COMPILED = 'compiled';                     // the cache of what this release's Python compiled
const COMPILED_ZIP = `${base}compiled.zip`;      // its one entry
const COMPILED_DIR = '/compiled';                // sys.pycache_prefix, and the templates' (web/phone.py)

async function start() {
  performance.mark('start');
  const { loadPyodide } = await import(`${PYODIDE}pyodide.mjs`);
  const pyodide = await loadPyodide({ indexURL: PYODIDE, packages: [], env: { PHONE_COMPILED: COMPILED_DIR } });
  performance.mark('loadPyodide');
  for (const address of [PACKAGES, `${base}python.zip`]) {
    const zip = await fetch(address);
    if (!zip.ok) throw new Error(`${address}: ${zip.status}`);
    pyodide.unpackArchive(await zip.arrayBuffer(), 'zip', { extractDir: '/bundle' });
  }
  performance.mark('unpacked');
  const compiled = await keptCompiled();
  if (compiled) pyodide.unpackArchive(compiled, 'zip', { extractDir: COMPILED_DIR });
  performance.mark(compiled ? 'compiled kept' : 'compiled none');
  // The bytecode kept is checked against its source's time: every unpacked file gets the same one.
  pyodide.runPython(`
import os, sys
for folder, _, files in os.walk('/bundle'):
    for name in files:
        os.utime(os.path.join(folder, name), (1767225600, 1767225600))
sys.path.insert(0, '/bundle')
sys.dont_write_bytecode = False
sys.pycache_prefix = ${JSON.stringify(COMPILED_DIR)}
os.makedirs(os.path.join(sys.pycache_prefix, 'templates'), exist_ok=True)`);
  const call = pyodide.pyimport('web.phone').call;
  performance.mark('imported');
  return { pyodide, call, files: compiledFiles(pyodide) };
}

// This release's compiled Python, as the first worker to answer kept it (null: none yet).
async function keptCompiled() {
  try {
    const hit = await (await caches.open(COMPILED)).match(COMPILED_ZIP);
    return hit ? await hit.arrayBuffer() : null;
  } catch {
    return null;
  }
}

// How many files this worker's Python has compiled or found kept.
const compiledFiles = (pyodide) => pyodide.runPython(`import os
sum(len(files) for _, _, files in os.walk(${JSON.stringify(COMPILED_DIR)}))`);

// Keep what this worker compiled (after an answer that compiled more: the modules and templates
// it used), in place of any other release's. Not kept is no harm: the next worker compiles again.
async function keepCompiled(pyodide) {
  try {
    pyodide.runPython(`import shutil; shutil.make_archive('/tmp/compiled', 'zip', ${JSON.stringify(COMPILED_DIR)})`);
    const zip = pyodide.FS.readFile('/tmp/compiled.zip');
    const cache = await caches.open(COMPILED);
    for (const request of await cache.keys()) await cache.delete(request);
    await cache.put(COMPILED_ZIP, new Response(zip, { headers: { 'Content-Type': 'application/zip' } }));
    performance.mark('compiled saved');
  } catch { /* compiled again next time */ }
}

// This worker's Python, started as the worker starts. A start that failed (its bundle gone) is
// answered to every question waiting for it, and the next question starts it again.
let ready = null;
function started() {
  if (!ready) {
    ready = start();
    ready.catch(() => { ready = null; });
  }
  return ready;
}
started();

let saving = Promise.resolve();  // one keeping of the compiled files at a time (two pages may ask at once)

// The answer to one question, on the port it came from (a page's, or this dedicated worker's own).
async function answer(port, { id, name, language, args }) {
  if (name === 'timings') {
    const marks = performance.getEntriesByType('mark').map((m) => [m.name, m.startTime]);
    port.postMessage({ id, ok: [['born', performance.timeOrigin], ...marks] });
    return;
  }
  try {
    const scorer = await started();
    const answered = JSON.parse(scorer.call(name, JSON.stringify({ language, args })));
    performance.mark(`answered ${name}`);
    port.postMessage({ id, ...answered });
    const files = compiledFiles(scorer.pyodide);
    if (files > scorer.files) { scorer.files = files; saving = saving.then(() => keepCompiled(scorer.pyodide)); }
  } catch (err) {
    port.postMessage({ id, error: String(err && err.message ? err.message : err) });
  }
}

if ('onconnect' in self) {                       // a SharedWorker: a port a page
  self.onconnect = (event) => {
    const [port] = event.ports;
    port.onmessage = (e) => answer(port, e.data);
  };
} else {
  self.onmessage = (e) => answer(self, e.data);
}
