import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { relposSite } from './web/site/build-plugin.js';

// The tutorial site lives in web/; it imports the package entry from ../bindings. Pages: index.html
// (the chapter), playground.html, lab.html and 404.html, each with the shared shell
// (web/site/partials.js). Asset URLs are relative (base './'), so the same web/dist works at a
// domain's root, under a subpath such as /relpos/, or from any folder; RELPOS_BASE=/relpos/ makes
// them absolute instead (then 404.html also works for missing pages deeper than the site's top).
// RELPOS_SITE_URL=https://example.org/relpos/ makes the language alternates and the link-preview
// image absolute, as link previews require.
const page = (name) => fileURLToPath(new URL(`./web/${name}`, import.meta.url));

export default defineConfig({
  root: fileURLToPath(new URL('./web', import.meta.url)),
  base: process.env.RELPOS_BASE || './',
  plugins: [relposSite({ siteUrl: process.env.RELPOS_SITE_URL || '' })],
  server: { host: '127.0.0.1', port: 5173, fs: { allow: [fileURLToPath(new URL('.', import.meta.url))] } },
  preview: { host: '127.0.0.1', port: 4173 },
  // The relpos worker (bindings/worker.js) loads the core with a dynamic import: an ES module worker.
  worker: { format: 'es' },
  build: {
    outDir: fileURLToPath(new URL('./web/dist', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    // Fonts (KaTeX) stay files: the pages' CSP has no data: font source.
    assetsInlineLimit: (file) => (/\.(woff2?|ttf)$/.test(file) ? false : undefined),
    rollupOptions: {
      input: {
        index: page('index.html'),
        playground: page('playground.html'),
        lab: page('lab.html'),
        notfound: page('404.html'),
      },
    },
  },
});
