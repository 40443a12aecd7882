// The service worker: it makes the app installable. Pages always come from the server, so a
// scoresheet is never stale.
self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));
self.addEventListener('fetch', () => {});
