// The scorer on the phone: a Web Worker running this project's own Python (scorer/ and
// web/phone.py, with the server's templates and catalogs) in Pyodide, all from this origin.
// Served as /offline/<release>/worker.js; it loads the bundle of the same release, and Pyodide from
// its own version's address (/offline/pyodide/<version>/, written in here by the server), and the
// Python packages the scorer imports (jinja2, babel, ...) from theirs (/offline/packages/<hash>/):
// a release of this project changes neither.
//
// A message is {id, name, language, args}; the answer is {id, ok} or {id, problem} (a round that
// cannot be saved, as scorer words it), or {id, error} (something broke).
const base = new URL('./', self.location.href).href;           // /offline/<release>/
const PYODIDE = new URL('__PYODIDE__', self.location.href).href;  // /offline/pyodide/<version>/
const PACKAGES = new URL('__PACKAGES__', self.location.href).href;  // /offline/packages/<hash>/packages.zip

async function start() {
  const { loadPyodide } = await import(`${PYODIDE}pyodide.mjs`);
  const pyodide = await loadPyodide({ indexURL: PYODIDE, packages: [] });
  for (const address of [PACKAGES, `${base}python.zip`]) {
    const zip = await fetch(address);
    if (!zip.ok) throw new Error(`${address}: ${zip.status}`);
    pyodide.unpackArchive(await zip.arrayBuffer(), 'zip', { extractDir: '/bundle' });
  }
  pyodide.runPython("import sys; sys.path.insert(0, '/bundle')");
  return pyodide.pyimport('web.phone').call;
}

const ready = start();

self.onmessage = async (event) => {
  const { id, name, language, args } = event.data;
  try {
    const call = await ready;
    const answer = JSON.parse(call(name, JSON.stringify({ language, args })));
    self.postMessage({ id, ...answer });
  } catch (err) {
    self.postMessage({ id, error: String(err && err.message ? err.message : err) });
  }
};
