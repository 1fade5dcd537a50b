// The site's service worker: the pages work offline after the first visit. On install it caches the
// pages, scripts, styles and fonts of this build (the list below is written by
// web/site/build-plugin.js); the page then asks it to cache the one wasm build this browser runs
// (a 'cache-wasm' message, see web/site/shell.js), so the other build is never downloaded.
// Hashed files (assets/) are served from the cache first: their names change whenever their bytes
// do. Pages are fetched from the network first (a new version is seen at once) and served from the
// cache when the network fails. It only ever answers requests inside its own scope.
const MANIFEST = /* rp:manifest */ { version: 'dev', files: [], wasm: {} }; /* /rp:manifest */
const CACHE = `relpos-${MANIFEST.version}`;
const scope = new URL('./', self.location.href);
const within = (url) => url.href.startsWith(scope.href);
const inScope = (path) => new URL(path, scope).href;

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(MANIFEST.files.map(inScope)))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) =>
        Promise.all(keys.filter((k) => k.startsWith('relpos-') && k !== CACHE).map((k) => caches.delete(k))),
      )
      .then(() => self.clients.claim()),
  );
});

// { type: 'cache-wasm', build: 'simd' | 'baseline' | 'relaxed' | 'models' } → caches that build
// (relaxed: the side module loaded beside the SIMD build; models: the models module of every
// build); replies { cached, version }.
self.addEventListener('message', (event) => {
  const { data } = event;
  if (!data || data.type !== 'cache-wasm') return;
  const file = MANIFEST.wasm[data.build];
  const reply = (message) => event.ports[0]?.postMessage({ ...message, version: MANIFEST.version });
  event.waitUntil(
    (file
      ? caches.open(CACHE).then(async (cache) => {
          if (!(await cache.match(inScope(file)))) await cache.add(inScope(file));
        })
      : Promise.reject(new Error(`no ${data.build} wasm in this build`))
    ).then(
      () => reply({ cached: file }),
      (error) => reply({ error: String(error) }),
    ),
  );
});

// A page request: index.html for the directory; the language query does not change the page.
function pageKey(url) {
  const key = new URL(url);
  key.search = '';
  key.hash = '';
  if (key.pathname.endsWith('/')) key.pathname += 'index.html';
  return key.href;
}

async function fromNetworkThenCache(request) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(pageKey(request.url), response.clone());
    return response;
  } catch (error) {
    const cached = (await cache.match(pageKey(request.url))) ?? (await cache.match(inScope('404.html')));
    if (cached) return cached;
    throw error;
  }
}

async function fromCacheThenNetwork(request) {
  const cache = await caches.open(CACHE);
  const cached = await cache.match(request, { ignoreSearch: true });
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok && request.method === 'GET') await cache.put(request, response.clone());
  return response;
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (request.method !== 'GET' || !within(url) || url.pathname === new URL('sw.js', scope).pathname) return;
  if (request.mode === 'navigate') event.respondWith(fromNetworkThenCache(request));
  else event.respondWith(fromCacheThenNetwork(request));
});
