import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { relposSite } from './web/site/build-plugin.js';

// The tutorial site lives in web/; it imports the package entry from ../bindings. Pages: index.html
// (the chapter), playground.html, lab.html and 404.html, each file holding only the page's own content;
// the site plugin (web/site/build-plugin.js) writes the shared shell around it. Asset URLs are relative (base './'), so the same web/dist works at a
// domain's root, under a subpath such as /relpos/, or from any folder; RELPOS_BASE=/relpos/ makes
// them absolute instead (then 404.html also works for missing pages deeper than the site's top).
// RELPOS_SITE_URL=https://example.org/relpos/ makes the language alternates and the link-preview
// image absolute, as link previews require.
const page = (name) => fileURLToPath(new URL(`./web/${name}`, import.meta.url));

// What the chapter's first live heatmap waits for, in two chunks instead of a dozen (each request
// costs its headers and a share of the round trips, and one gzip stream compresses better than
// many; docs/build.md, "What the chapter's first view waits for"): 'first-view', the package entry
// (bindings/index.js) and what it and <relpos-heatmap> import statically, with vite's preload
// helper; and <relpos-heatmap>'s own module, a chunk of its own, so the element is defined where
// the page imports it (web/tutorial/main.js: after load() has started), not when the chunk of its
// dependencies runs. Only static imports count, so whatever a page fetches on demand (the wasm
// glue, the instance's calls beyond the calls on schemes (bindings/extras.js, which load() fetches
// and the chapter's first heatmap does not wait for), the WebGL2 renderer (the first frame draws in
// 2D), the exporters, the pool's workers) stays a chunk of its own.
const FIRST_VIEW_ROOTS = ['./bindings/index.js', './web/components/relpos-heatmap.js'].map((path) =>
  fileURLToPath(new URL(path, import.meta.url)),
);
// The set is worked out once per chunking pass (keyed by the pass's module info of the entry).
const firstViews = new WeakMap();
function firstViewChunk(id, ctx) {
  const key = ctx.getModuleInfo(FIRST_VIEW_ROOTS[0]);
  if (!key) return null;
  if (!firstViews.has(key)) {
    const modules = new Set();
    const walk = (module) => {
      if (modules.has(module)) return;
      modules.add(module);
      for (const next of ctx.getModuleInfo(module)?.importedIds ?? []) walk(next);
    };
    FIRST_VIEW_ROOTS.forEach(walk);
    firstViews.set(key, modules);
  }
  if (id === FIRST_VIEW_ROOTS[1]) return null;
  return firstViews.get(key).has(id) || id.includes('vite/preload-helper') ? 'first-view' : null;
}

export default defineConfig({
  root: fileURLToPath(new URL('./web', import.meta.url)),
  base: process.env.RELPOS_BASE || './',
  plugins: [relposSite({ siteUrl: process.env.RELPOS_SITE_URL || '' })],
  server: { host: '127.0.0.1', port: 5173, fs: { allow: [fileURLToPath(new URL('.', import.meta.url))] } },
  preview: { host: '127.0.0.1', port: 4173 },
  // The relpos worker (bindings/worker.js) loads the core with a dynamic import: an ES module worker.
  worker: { format: 'es' },
  // Every third-party module the pages import, pre-bundled up front: a dependency first found at
  // run time makes the dev server reload the page, which a fresh clone (no cache yet) would hit.
  optimizeDeps: { include: ['katex', 'uplot', 'd3-scale-chromatic'] },
  build: {
    outDir: fileURLToPath(new URL('./web/dist', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    // No modulepreload polyfill: every browser the pages support preloads modules itself (the
    // polyfill was one more request before the chapter's first heatmap).
    modulePreload: { polyfill: false },
    // Fonts (KaTeX) stay files: the pages' CSP has no data: font source.
    assetsInlineLimit: (file) => (/\.(woff2?|ttf)$/.test(file) ? false : undefined),
    rollupOptions: {
      input: {
        index: page('index.html'),
        playground: page('playground.html'),
        lab: page('lab.html'),
        notfound: page('404.html'),
      },
      output: { codeSplitting: { groups: [{ name: firstViewChunk }] } },
    },
  },
});
