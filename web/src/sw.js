// The service worker of the installed page: it keeps the page's own files (its HTML, code,
// styles, icons and the engine's WebAssembly) so that the bot in the browser plays offline
// after one visit. It keeps nothing else: never the API (`/api/…`), never a socket (a
// service worker sees none), never an address with a query (a game's link carries its seat's
// token or its invite), and never a page's address. web/build.mjs writes the version (a
// digest of the files) and the list into it: a changed page is a new cache, the old one is
// deleted, and an open page reloads into the new one (app.js), so that no old page talks to a
// newer server.
const VERSION = "__VERSION__";
const FILES = [/* __FILES__ */];
const CACHE = `salpakan-${VERSION}`;
const scope = () => self.registration.scope;

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(FILES.map((file) => new URL(file, scope()).href)))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((name) => name.startsWith("salpakan-") && name !== CACHE).map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});

// Whether `url` is one of the page's own files (never the API, never with a query).
function own(url) {
  if (url.origin !== self.location.origin || url.search || url.pathname.startsWith("/api")) return false;
  const path = url.pathname.slice(new URL(scope()).pathname.length);
  return !path.startsWith("api/") && path !== "api";
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (request.mode === "navigate") {
    // The network first (an address may carry a token: it is never stored); offline, the
    // page's own HTML, which reads the address itself.
    event.respondWith(fetch(request).catch(() => caches.match(new URL("./", scope()).href, { cacheName: CACHE })));
    return;
  }
  if (!own(url)) return;
  event.respondWith(caches.match(request, { cacheName: CACHE }).then((kept) => kept ?? fetch(request)));
});
