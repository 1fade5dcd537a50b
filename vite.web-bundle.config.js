// Builds dist/web/relpos-web.js: relpos/web as one self-contained ES module for pages without a
// bundler (<script type="module" src=".../relpos/dist/web/relpos-web.js">). Third-party
// dependencies (uplot) are bundled in; the package's own core stays outside
// the bundle: imports of bindings/ (loader, wasm glue) stay imports, and new URL(…, import.meta.url)
// references to bindings/ or dist/ (a worker, a wasm file) stay URLs — both rewritten relative to
// dist/web/ — so the wasm files are not duplicated and load from the installed package as usual.
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));
const outDir = resolve(root, 'dist/web');
const bindings = resolve(root, 'bindings') + '/';
const dist = resolve(root, 'dist') + '/';
const isCore = (path) => path.startsWith(bindings) || (path.startsWith(dist) && !path.startsWith(outDir));
const fromOutDir = (path) => {
  const rel = relative(outDir, path);
  return rel.startsWith('.') ? rel : `./${rel}`;
};

/** Keeps new URL('<core file>', import.meta.url) in web/ sources as a runtime URL (no asset, no worker bundle). */
function keepCoreUrls() {
  const pattern = /new URL\(\s*(['"])([^'"]+)\1\s*,\s*import\.meta\.url\s*\)/g;
  return {
    name: 'relpos:keep-core-urls',
    enforce: 'pre',
    transform(code, id) {
      if (!id.startsWith(resolve(root, 'web') + '/') || !code.includes('import.meta.url')) return null;
      let changed = false;
      const out = code.replace(pattern, (match, quote, spec) => {
        const target = resolve(dirname(id), spec);
        if (!isCore(target)) return match;
        changed = true;
        return `new URL(/* @vite-ignore */ ${JSON.stringify(fromOutDir(target))}, import.meta.url)`;
      });
      return changed ? { code: out, map: null } : null;
    },
  };
}

export default defineConfig({
  root,
  logLevel: 'warn',
  publicDir: false,
  plugins: [keepCoreUrls()],
  build: {
    outDir,
    emptyOutDir: true,
    target: 'es2022',
    minify: true,
    sourcemap: false,
    copyPublicDir: false,
    lib: {
      entry: resolve(root, 'web/index.js'),
      formats: ['es'],
      fileName: () => 'relpos-web.js',
    },
    rollupOptions: {
      // Resolved files of the core stay imports, rewritten relative to dist/web/ (../../bindings/index.js).
      external: (id) => isCore(id),
      makeAbsoluteExternalsRelative: false,
      output: {
        // Vite keeps whitespace in ES library builds (for downstream tree-shaking); this file is
        // loaded by pages as it is, so minify it fully.
        minify: true,
        paths: (id) => (isCore(id) ? fromOutDir(id) : id),
      },
    },
  },
});
