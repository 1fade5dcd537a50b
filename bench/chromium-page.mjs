// A bench page in Debian's Chromium (bench/browser.mjs, bench/decode-browser.mjs): the repository's
// files served from 127.0.0.1 with an import map for the peers' browser bundles, the page's module
// run in a headless Chromium that may reach nothing else, and what the ORT wasm it fetched is.
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium } from '../scripts/chromium.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const MIME = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm' };

// Bare module names for the page: the peers' browser bundles; tfjs-backend-wasm's Node-only imports
// (its glue reads fs/path/os/perf_hooks only under Node) get an empty module.
const empty = 'data:text/javascript,export default {}';
const importMap = {
  imports: {
    '@tensorflow/tfjs-core': '/node_modules/@tensorflow/tfjs-core/dist/tf-core.fesm.js',
    '@tensorflow/tfjs-backend-wasm': '/node_modules/@tensorflow/tfjs-backend-wasm/dist/tf-backend-wasm.fesm.js',
    'onnxruntime-web': '/node_modules/onnxruntime-web/dist/ort.wasm.min.mjs',
    fs: empty,
    path: empty,
    os: empty,
    perf_hooks: empty,
    worker_threads: empty,
  },
};
const pageOf = (script) => `<!doctype html><meta charset="utf-8"><title>relpos bench</title>
<script type="importmap">${JSON.stringify(importMap)}</script>
<script type="module" src="${script}"></script>`;

// The page at /, and every file of the repository below it.
function serve(page) {
  const server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url, 'http://127.0.0.1').pathname);
    if (path === '/') {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end(page);
      return;
    }
    const file = normalize(join(root, path));
    if (!file.startsWith(root.endsWith(sep) ? root : root + sep) || !existsSync(file) || !statSync(file).isFile()) {
      response.writeHead(404);
      response.end();
      return;
    }
    response.writeHead(200, { 'content-type': MIME[extname(file)] ?? 'application/octet-stream' });
    response.end(readFileSync(file));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/**
 * Opens the page of `script` (a path from the repository's root, such as /bench/decode-page.mjs) in
 * Chromium launched with `--js-flags=${jsFlags}`, waits until the page sets window[ready] to true,
 * and resolves to { result: what run(tab) resolves to, version: Chromium's }. A page error or a
 * request off 127.0.0.1 fails the run.
 */
export async function inChromium(script, jsFlags, ready, run) {
  const server = await serve(pageOf(script));
  const { port } = server.address();
  const browser = await launchChromium([`--js-flags=${jsFlags}`]);
  try {
    const tab = await browser.newPage();
    const problems = [];
    tab.on('pageerror', (error) => problems.push(String(error)));
    await tab.route(/^(?!http:\/\/127\.0\.0\.1[:/]|data:|blob:)/, (route) => {
      problems.push(`blocked request to ${route.request().url()}`);
      route.abort();
    });
    await tab.goto(`http://127.0.0.1:${port}/`);
    await tab
      .waitForFunction((name) => window[name] === true || null, ready, { timeout: 60000 })
      .catch(() => {
        throw new Error(`the bench page did not start: ${problems.join('; ')}`);
      });
    const result = await run(tab);
    if (problems.length) throw new Error(problems.join('; '));
    return { result, version: browser.version() };
  } finally {
    await browser.close();
    server.close();
  }
}

// What the ORT file the page fetched is: one of the package's SIMD builds, and (checked here in
// Node 20, which has no relaxed SIMD without its flag) whether its bytes validate without relaxed SIMD.
export function describeWasm(url) {
  const file = `${root}${new URL(url).pathname.slice(1)}`;
  const bytes = readFileSync(file);
  return {
    file: file.split('/').pop(),
    sha256: createHash('sha256').update(bytes).digest('hex').slice(0, 12),
    validatesWithoutRelaxedSimd: WebAssembly.validate(bytes),
  };
}

/** The one SIMD ORT wasm among the URLs a page saw instantiated; anything else is an error. */
export function ortWasm(seen) {
  const files = seen.filter((s) => s.startsWith('http')).map(describeWasm);
  if (files.length !== 1 || !files[0].file.includes('simd')) {
    throw new Error(`onnxruntime-web: expected one SIMD wasm fetched, saw ${JSON.stringify(seen)}`);
  }
  return files[0];
}
