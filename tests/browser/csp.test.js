// A page under a strict Content-Security-Policy, sent as an HTTP header (not a <meta>):
//   script-src 'self' 'wasm-unsafe-eval'   (no 'unsafe-eval', no inline script)
// loads relpos, computes, draws a heatmap (programmatically and with <relpos-heatmap>), and
// triggers no CSP violation, no console error and no request outside 127.0.0.1.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { createServer } from 'vite';
import { startBrowser } from './browser.js';

const CSP = "script-src 'self' 'wasm-unsafe-eval'";
const repo = fileURLToPath(new URL('../../', import.meta.url)).replace(/\/$/, '');

// The page's module goes through Vite's pipeline (bare imports resolved) as a virtual module, so
// it is served from 'self' like any bundled app script.
const PAGE_MODULE = `
import { load } from '/@fs${repo}/bindings/index.js';
import { createRelposWorker } from '/@fs${repo}/bindings/worker-client.js';
import { renderHeatmap } from '/@fs${repo}/web/index.js';
const report = { steps: [] };
window.__report = report;
try {
  const rp = await load();
  report.steps.push('loaded');
  const bias = rp.bias('alibi', { n: 32, heads: 2 });
  report.bias = { shape: bias.shape, corner: bias.data[31] };
  const { invFreq } = rp.frequencies('rope', { d: 16 });
  report.invFreq1 = invFreq[1];
  try { rp.bias('alibi', { n: NaN }); } catch (error) { report.error = error.constructor.name + ': ' + error.message; }
  const canvas = document.querySelector('#map');
  renderHeatmap(canvas, bias, { colormap: 'viridis' });
  const pixel = canvas.getContext('2d').getImageData(0, 31, 1, 1).data;
  report.pixel = Array.from(pixel);
  const map = await rp.attentionMap({ n: 4096, scheme: 'alibi', size: 32 });
  report.mapShape = map.shape;
  // The worker pool under the same policy: module Web Workers from 'self', through the client and
  // through rp.attentionMap's own pool, the same bits as one thread.
  const content = { n: 2048, seed: 1, scheme: 'rope', size: 32 };
  const whole = await rp.attentionMap(content);
  const client = createRelposWorker();
  const viaClient = await client.attentionMap({ ...content, workers: 2 });
  const direct = await rp.attentionMap({ ...content, workers: 2 });
  report.poolSame = [viaClient, direct].map((m) => m.data.every((x, i) => Object.is(x, whole.data[i])));
  client.terminate();
  document.querySelector('relpos-heatmap').setAttribute('n', '24');
  report.steps.push('done');
} catch (error) {
  report.failure = String(error && error.stack || error);
}
report.finished = true;
`;

const PAGE_HTML = `<!doctype html>
<html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>relpos under a strict CSP</title></head>
<body>
<canvas id="map"></canvas>
<relpos-heatmap scheme="alibi" n="16" heads="2"></relpos-heatmap>
<script type="module" src="/@id/virtual:csp-page"></script>
</body></html>`;

function cspPagePlugin() {
  return {
    name: 'relpos-csp-page',
    resolveId(id) {
      return id === 'virtual:csp-page' ? '\0virtual:csp-page' : null;
    },
    load(id) {
      if (id !== '\0virtual:csp-page') return null;
      return `import '/@fs${repo}/web/index.js';\n${PAGE_MODULE}`;
    },
    configureServer(server) {
      // Every response of this server carries the policy; the test page is served raw (no
      // injected client script).
      server.middlewares.use((request, response, next) => {
        response.setHeader('Content-Security-Policy', CSP);
        if (request.url === '/csp.html') {
          response.setHeader('Content-Type', 'text/html; charset=utf-8');
          response.end(PAGE_HTML);
          return;
        }
        next();
      });
    },
  };
}

let server;
let browser;
let origin;

beforeAll(async () => {
  server = await createServer({
    configFile: fileURLToPath(new URL('../../vite.config.js', import.meta.url)),
    server: { port: 0, strictPort: false, host: '127.0.0.1', hmr: false },
    plugins: [cspPagePlugin()],
    logLevel: 'error',
  });
  await server.listen();
  origin = `http://127.0.0.1:${server.httpServer.address().port}`;
  browser = await startBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('strict Content-Security-Policy', () => {
  it('loads relpos, computes and renders a heatmap with no violation and no request off 127.0.0.1', async () => {
    const page = await browser.newPage();
    const consoleErrors = [];
    const requests = [];
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    page.on('pageerror', (error) => consoleErrors.push(String(error)));
    page.on('request', (request) => requests.push(request.url()));
    page.on('response', (response) => {
      if (response.status() >= 400) consoleErrors.push(`HTTP ${response.status()} for ${response.url()}`);
    });
    // Injected through the DevTools protocol, so the page's own CSP does not block it.
    await page.addInitScript(() => {
      window.__violations = [];
      document.addEventListener('securitypolicyviolation', (event) => {
        window.__violations.push(
          `${event.violatedDirective} blocked ${event.blockedURI || '(inline)'} at ${event.sourceFile}:${event.lineNumber}`,
        );
      });
    });

    const response = await page.goto(`${origin}/csp.html`);
    expect(response.headers()['content-security-policy']).toBe(CSP);
    await page.waitForFunction(() => window.__report?.finished === true, null, { timeout: 45000 });
    // The custom element renders asynchronously; wait for its canvas to hold the new size.
    await page
      .waitForFunction(
        () => {
          const canvas = document.querySelector('relpos-heatmap')?.shadowRoot?.querySelector('canvas');
          return canvas && canvas.width > 0;
        },
        null,
        { timeout: 20000 },
      )
      .catch(() => {});

    const element = await page.evaluate(() => {
      const host = document.querySelector('relpos-heatmap');
      const canvas = host?.shadowRoot?.querySelector('canvas') ?? host?.querySelector('canvas');
      return {
        defined: !!customElements.get('relpos-heatmap'),
        width: canvas?.width ?? 0,
        height: canvas?.height ?? 0,
      };
    });
    expect(element.defined).toBe(true);
    expect(element.width).toBeGreaterThan(0);
    const report = await page.evaluate(() => window.__report);
    const violations = await page.evaluate(() => window.__violations);
    expect(report.failure).toBeUndefined();
    expect(report.steps).toEqual(['loaded', 'done']);
    expect(report.bias.shape).toEqual([2, 32, 32]);
    expect(report.bias.corner).toBeLessThan(0); // alibi: -m·31 at the far corner
    expect(report.invFreq1).toBeCloseTo(10000 ** (-2 / 16), 6);
    expect(report.error).toMatch(/^RangeError: relpos\.bias: n must be finite, got NaN/);
    expect(report.pixel[3]).toBe(255);
    expect(report.mapShape).toEqual([32, 32]);
    expect(report.poolSame).toEqual([true, true]);

    expect(violations).toEqual([]);
    expect(consoleErrors).toEqual([]);
    // The wasm binary came from the same origin and nothing left loopback.
    expect(requests.some((url) => /relpos\.(simd|baseline)\.wasm/.test(url))).toBe(true);
    const outside = requests.filter((url) => !url.startsWith(`${origin}/`) && !/^(data|blob):/.test(url));
    expect(outside).toEqual([]);

    // A control: the same server without 'wasm-unsafe-eval' would block compilation, so the
    // policy really is in force (the listener sees violations when there are some).
    const strict = await browser.newPage();
    await strict.route(`${origin}/csp.html`, async (route) => {
      const upstream = await route.fetch();
      await route.fulfill({
        response: upstream,
        headers: { ...upstream.headers(), 'content-security-policy': "script-src 'self'" },
      });
    });
    await strict.addInitScript(() => {
      window.__violations = [];
      document.addEventListener('securitypolicyviolation', (event) =>
        window.__violations.push(event.violatedDirective),
      );
    });
    await strict.goto(`${origin}/csp.html`);
    await strict.waitForFunction(() => window.__report?.finished === true || window.__violations.length > 0, null, {
      timeout: 45000,
    });
    await strict.waitForFunction(() => window.__report?.finished === true, null, { timeout: 45000 }).catch(() => {});
    const strictReport = await strict.evaluate(() => ({ report: window.__report, violations: window.__violations }));
    expect(strictReport.violations.length).toBeGreaterThan(0);
    expect(strictReport.report?.steps ?? []).not.toContain('done');
    await strict.close();
    await page.close();
  });
});
