// The scorer on the phone: a Web Worker running this project's own Python (scorer/ and
// web/phone.py, with the server's templates and catalogs) in Pyodide, all from this origin.
// Served as /offline/<release>/worker.js; it loads the bundle of the same release, and Pyodide from
// its own version's address (/offline/pyodide/<version>/, written in here by the server), which a
// release of this project does not change.
//
// A message is {id, name, language, args}; the answer is {id, ok} or {id, problem} (a round that
// cannot be saved, as scorer words it), or {id, error} (something broke).
const base = new URL('./', self.location.href).href;           // /offline/<release>/
const PYODIDE = new URL('__PYODIDE__', self.location.href).href;  // /offline/pyodide/<version>/

async function start() {
  const { loadPyodide } = await import(`${PYODIDE}pyodide.mjs`);
  const pyodide = await loadPyodide({ indexURL: PYODIDE, packages: [] });
  const zip = await fetch(`${base}python.zip`);
  if (!zip.ok) throw new Error(`python.zip: ${zip.status}`);
  pyodide.unpackArchive(await zip.arrayBuffer(), 'zip', { extractDir: '/bundle' });
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
