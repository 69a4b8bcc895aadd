// The service worker (served at /sw.js, so that it may answer for every page): a page
// added to a phone's home screen opens, and says that the server cannot be reached,
// even when it cannot be. It keeps copies of the static files only (the tables' code,
// styles, icons and word books under /static/) and of the pages' one HTML shell; never
// an answer of the API, a WebSocket or anything of a game, which only the server holds.
//
// Network first: while the server answers, every file comes from it (so an update of
// the files is picked up at the next load, as without a worker) and the copy is
// refreshed; only when it does not answer does the copy stand in. A page with no copy
// of its own gets the offline page, which says so and tries again. The server writes
// its version and its files' fingerprint into VERSION: a new release is a new worker,
// which drops the old copies.

/// <reference lib="webworker" />
const sw = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));

const VERSION = "__VERSION__";
const CACHE = `euphrates-${VERSION}`;
const OFFLINE = "/offline";
/** What the offline page needs before any page was ever opened. */
const FIRST = [OFFLINE, "/static/css/style.css", "/static/js/offline.js", "/static/js/shared/i18n.js",
  "/static/js/shared/dom.js", "/static/js/shared/net.js", "/static/js/shared/json.js",
  "/static/js/shared/patch.js", "/static/js/shared/install.js", "/static/words/languages.json",
  "/static/icon.svg", ...(/** @type {string[]} */ (JSON.parse('__PAGES__')))];

sw.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await cache.addAll(FIRST);
    await sw.skipWaiting();
  })());
});

sw.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith("euphrates-") && name !== CACHE) await caches.delete(name);
    }
    await sw.clients.claim();
  })());
});

/**
 * Whether a request is for a file the worker may keep: a GET of this server's static
 * files. Everything else (the API, WebSockets, a game's record) passes untouched.
 * @param {Request} request
 */
function kept(request) {
  const url = new URL(request.url);
  return request.method === "GET" && url.origin === sw.location.origin && url.pathname.startsWith("/static/");
}

/**
 * From the server, the copy refreshed; from the copy when the server does not answer.
 * @param {Request} request
 * @param {string} [key] what the copy is kept under (a page: its shell)
 */
async function networkFirst(request, key) {
  const cache = await caches.open(CACHE);
  try {
    const answer = await fetch(request);
    if (answer.ok && answer.type === "basic") await cache.put(key ?? request, answer.clone());
    return answer;
  } catch (e) {
    const copy = await cache.match(key ?? request);
    if (copy) return copy;
    throw e;
  }
}

/** The offline page, as kept at install. */
async function offline() {
  const page = await caches.match(OFFLINE);
  return page ?? new Response("The server cannot be reached.", { status: 503, headers: { "content-type": "text/plain" } });
}

sw.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.mode === "navigate" && request.method === "GET") {
    // a page: the server's, else the offline page (which asks again and goes back); a
    // proxy's 502-504 is the server not answering too
    event.respondWith(fetch(request).then((answer) => (answer.status >= 502 && answer.status <= 504 ? offline() : answer), offline));
  } else if (kept(request)) {
    event.respondWith(networkFirst(request));
  }
});
