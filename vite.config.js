import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// The tutorial / playground lives in web/; it imports the package entry from ../bindings.
// Multi-page: index.html (the chapter), playground.html, and lab.html when the lab page exists.
const page = (name) => fileURLToPath(new URL(`./web/${name}`, import.meta.url));
const input = { index: page('index.html'), playground: page('playground.html') };
if (existsSync(page('lab.html'))) input.lab = page('lab.html');

export default defineConfig({
  root: fileURLToPath(new URL('./web', import.meta.url)),
  server: { host: '127.0.0.1', port: 5173, fs: { allow: [fileURLToPath(new URL('.', import.meta.url))] } },
  preview: { host: '127.0.0.1', port: 4173 },
  build: {
    outDir: fileURLToPath(new URL('./web/dist', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    // Fonts (KaTeX) stay files: the pages' CSP has no data: font source.
    assetsInlineLimit: (file) => (/\.(woff2?|ttf)$/.test(file) ? false : undefined),
    rollupOptions: { input },
  },
});
