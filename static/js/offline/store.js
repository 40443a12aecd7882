// The phone store: what this phone keeps of its games, in IndexedDB through idb-keyval (from the
// offline bundle of the release kept), under one key a game and a job: the game (game:<id>, as
// /games/<id>/offline.json gives it), its rounds not sent yet (queue:), those set aside in a
// conflict (aside:), the sheet drawn here as the last round was saved (live:), and a game made
// here, its next pages drawn ahead (drawn:, offline/ahead.js).
const RELEASE_KEY = 'offline-release';

let release = localStorage.getItem(RELEASE_KEY);
let idb = null;

// The offline bundle's release this phone keeps (null: none yet).
export const kept = () => release;

export function keepRelease(r) {
  release = r;
  localStorage.setItem(RELEASE_KEY, r);
}

async function store() {
  if (!idb) {
    idb = import(`/offline/${release}/idb-keyval.js`).catch((err) => { idb = null; throw err; });
  }
  return idb;
}

export const keys = {
  game: (id) => `game:${id}`, queue: (id) => `queue:${id}`, aside: (id) => `aside:${id}`, live: (id) => `live:${id}`,
  drawn: (id) => `drawn:${id}`,
};

export async function read(key, empty) { const { get } = await store(); return (await get(key)) ?? empty; }
export async function write(key, value) { const { set } = await store(); await set(key, value); }

// Every game this phone keeps: [id, its data].
export async function games() {
  const { entries } = await store();
  return (await entries()).filter(([key, data]) => typeof key === 'string' && key.startsWith('game:') && data)
    .map(([key, data]) => [key.slice(5), data]);
}
