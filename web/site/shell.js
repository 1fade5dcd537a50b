// The site shell's behaviour on every page: the language switch (web/i18n/index.js), the colour
// scheme switch (remembered, applied before paint by public/boot.js), the page's title and
// description in the reader's language, navigation links that keep the language, and, in the
// production build, the service worker that makes the pages work offline (web/site/sw.js).
import { relaxedSimdSupported, simdSupported } from '../../bindings/simd.js';
import { initI18n, lang, onLang, t } from '../i18n/index.js';

const THEME_KEY = 'relpos-theme';
const root = document.documentElement;
const page = root.dataset.page;

function store(key, value) {
  try {
    if (value) localStorage.setItem(key, value);
    else localStorage.removeItem(key);
  } catch {
    // not remembered (storage unavailable)
  }
}

/** '' (follow the system), 'light' or 'dark'. */
export function theme() {
  return root.dataset.theme ?? '';
}

/** Sets the colour scheme for this page and the next ones. */
export function setTheme(value) {
  if (!['', 'light', 'dark'].includes(value)) {
    throw new RangeError(`setTheme: theme must be '', 'light' or 'dark', got ${value}`);
  }
  if (value) root.dataset.theme = value;
  else delete root.dataset.theme;
  store(THEME_KEY, value);
  const select = document.getElementById('theme');
  if (select) select.value = value;
}

function wireTheme() {
  const select = document.getElementById('theme');
  if (!select) return;
  select.value = theme();
  select.addEventListener('change', () => setTheme(select.value));
}

// Links between pages carry ?lang=zh, so a shared link or a new tab keeps the reader's language.
function carryLanguage(current) {
  for (const link of document.querySelectorAll('a[data-page]')) {
    const url = new URL(link.getAttribute('href'), location.href);
    if (current === 'en') url.searchParams.delete('lang');
    else url.searchParams.set('lang', current);
    link.href = url.href;
  }
}

function describe() {
  const meta = document.querySelector('meta[name="description"]');
  if (meta && page) meta.content = t(`site.description.${page}`);
}

/** Resolves when this page is controlled by the service worker and its wasm build is cached. */
async function registerServiceWorker() {
  const registration = await navigator.serviceWorker.register('./sw.js');
  await navigator.serviceWorker.ready;
  const worker = registration.active;
  const cache = (build) =>
    new Promise((resolve) => {
      const channel = new MessageChannel();
      channel.port1.onmessage = (event) => resolve(event.data);
      worker.postMessage({ type: 'cache-wasm', build }, [channel.port2]);
    });
  const reply = await cache(simdSupported() ? 'simd' : 'baseline');
  if (reply.error) throw new Error(reply.error);
  // The models module (rp.presets, rp.fromConfig), which the playground reads at once.
  const models = await cache('models');
  if (models.error) throw new Error(models.error);
  // The relaxed build's side module too, where load() picks it (docs/build.md, "The relaxed build").
  if (simdSupported() && relaxedSimdSupported()) {
    const relaxed = await cache('relaxed');
    if (relaxed.error) throw new Error(relaxed.error);
  }
  root.dataset.offline = 'ready';
  return reply;
}

initI18n();
wireTheme();
describe();
carryLanguage(lang());
root.dataset.shell = 'ready';
onLang((current) => {
  describe();
  carryLanguage(current);
  // The address keeps naming the language the reader now reads, if it named one.
  const url = new URL(location.href);
  if (url.searchParams.has('lang') && url.searchParams.get('lang') !== current) {
    url.searchParams.set('lang', current);
    history.replaceState(history.state, '', url);
  }
});

// Only a built site has a service worker (development serves modules that change on every edit).
if (import.meta.env.RELPOS_SERVICE_WORKER && 'serviceWorker' in navigator) {
  const start = () =>
    registerServiceWorker().catch((error) => {
      root.dataset.offline = 'unavailable';
      console.warn(`relpos: offline copy not available (${error.message})`);
    });
  // After the first view is drawn: caching never competes with it.
  if (document.readyState === 'complete') setTimeout(start, 0);
  else addEventListener('load', () => setTimeout(start, 0), { once: true });
}
