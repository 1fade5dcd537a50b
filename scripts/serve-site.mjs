#!/usr/bin/env node
// A static host for the built site (web/dist), as a real one serves it: under a subpath (default
// /relpos/), .wasm as application/wasm, gzip for text, hashed assets/ cached for a year as
// immutable and everything else revalidated (ETag), 404.html for missing pages. `npm run
// preview:site` runs it; the publishing tests use serveSite() directly.
//   node scripts/serve-site.mjs [--base /relpos/] [--port 4174] [--root web/dist]
import { createServer } from 'node:http';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

export const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};
const COMPRESSIBLE = new Set([
  '.html',
  '.js',
  '.mjs',
  '.css',
  '.json',
  '.wasm',
  '.svg',
  '.txt',
  '.ttf',
  '.webmanifest',
]);
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Serves `root` under `base` on 127.0.0.1. Options: port (0: any free one), mime (overrides of the
 * MIME table, e.g. { '.wasm': 'application/octet-stream' } to see a host without the wasm type).
 * Resolves to { url, close, requests } (requests: every { method, path, status } served).
 */
export async function serveSite({
  root = 'web/dist',
  base = '/relpos/',
  port = 0,
  host = '127.0.0.1',
  mime = {},
} = {}) {
  const dir = resolve(root);
  if (!existsSync(join(dir, 'index.html'))) {
    throw new Error(`serveSite: no built site in ${dir} (run npm run build:site)`);
  }
  const prefix = `/${base.replace(/^\/+|\/+$/g, '')}/`.replace('//', '/');
  const types = { ...MIME, ...mime };
  const gzipped = new Map();
  const requests = [];

  const server = createServer((request, response) => {
    const url = new URL(request.url, 'http://localhost');
    const path = decodeURIComponent(url.pathname);
    const send = (status, file, headers = {}) => {
      requests.push({ method: request.method, path: url.pathname, status });
      if (!file) {
        response.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', ...headers });
        response.end(status === 404 ? 'Not found' : '');
        return;
      }
      const ext = extname(file);
      const stat = statSync(file);
      const etag = `W/"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`;
      const hashed = file.startsWith(join(dir, 'assets') + sep);
      const common = {
        'Content-Type': types[ext] ?? 'application/octet-stream',
        'Cache-Control': hashed ? IMMUTABLE : 'no-cache',
        ETag: etag,
        Vary: 'Accept-Encoding',
        ...headers,
      };
      if (status === 200 && request.headers['if-none-match'] === etag) {
        requests[requests.length - 1].status = 304;
        response.writeHead(304, common);
        response.end();
        return;
      }
      let body = readFileSync(file);
      if (COMPRESSIBLE.has(ext) && /\bgzip\b/.test(request.headers['accept-encoding'] ?? '')) {
        const key = `${file}:${etag}`;
        if (!gzipped.has(key)) gzipped.set(key, gzipSync(body));
        body = gzipped.get(key);
        common['Content-Encoding'] = 'gzip';
      }
      response.writeHead(status, { ...common, 'Content-Length': body.length });
      response.end(request.method === 'HEAD' ? undefined : body);
    };
    if (request.method !== 'GET' && request.method !== 'HEAD') return send(405, null, { Allow: 'GET, HEAD' });
    if (path === prefix.slice(0, -1)) return send(301, null, { Location: prefix + url.search });
    if (!path.startsWith(prefix)) return send(404, null);
    let file = normalize(join(dir, path.slice(prefix.length)));
    if (!file.startsWith(dir)) return send(404, null);
    if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
    if (existsSync(file)) return send(200, file);
    const notFound = join(dir, '404.html');
    return send(404, existsSync(notFound) ? notFound : null);
  });
  await new Promise((done) => server.listen(port, host, done));
  const address = server.address();
  return {
    url: `http://${host}:${address.port}${prefix}`,
    requests,
    close: () => new Promise((done) => server.close(done)),
    closeAllConnections: () => server.closeAllConnections(),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const option = (name, fallback) => {
    const at = args.indexOf(`--${name}`);
    return at >= 0 ? args[at + 1] : fallback;
  };
  const site = await serveSite({
    root: option('root', 'web/dist'),
    base: option('base', '/relpos/'),
    port: Number(option('port', process.env.PORT ?? 4174)),
  });
  console.log(`relpos site: ${site.url} (serving ${option('root', 'web/dist')}; Ctrl-C stops)`);
}
