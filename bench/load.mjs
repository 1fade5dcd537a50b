// The chapter's first view on a slow phone (npm run bench:load): the published site (a production
// build served by scripts/serve-site.mjs under /relpos/, as `npm run preview:site` serves it)
// loaded cold in Debian's Chromium with the network and CPU emulated through the DevTools
// protocol — Lighthouse's mobile profile: 150 ms round trips, 1.6 Mbps down, 750 kbps up, CPU ×4,
// a 390 × 844 viewport, no HTTP cache, no service worker. Reports the time from navigation to the
// first live heatmap (the explorer's <relpos-heatmap id="map"> drawn from the core), median of
// five cold loads, against the 2.5 s target, and the bytes transferred before it by kind.
//   node bench/load.mjs [--root DIR] (a built site; default: build one into a temporary folder)
//   RELPOS_LOAD_RUNS=5, RELPOS_CHROMIUM=/usr/bin/chromium; RELPOS_LOAD_DESKTOP=1 loads without
//   emulation at 1280 × 900 (the desktop first view of tests/browser/first-view.test.js), for A/B runs
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium } from '../scripts/chromium.mjs';
import { build } from 'vite';
import { serveSite } from '../scripts/serve-site.mjs';

const TARGET_MS = 2500;
const RUNS = Number(process.env.RELPOS_LOAD_RUNS ?? 5);
const DESKTOP = process.env.RELPOS_LOAD_DESKTOP === '1';
const PROFILE = { latency: 150, downloadKbps: 1600, uploadKbps: 750, cpu: 4, viewport: { width: 390, height: 844 } };

const rootArg = process.argv.indexOf('--root');
let root = rootArg > 0 ? process.argv[rootArg + 1] : null;
let remove = () => {};
if (!root) {
  root = mkdtempSync(join(tmpdir(), 'relpos-load-'));
  remove = () => rmSync(root, { recursive: true, force: true });
  await build({
    configFile: fileURLToPath(new URL('../vite.config.js', import.meta.url)),
    logLevel: 'error',
    build: { outDir: root, emptyOutDir: true },
  });
}

// Runs in the page before its scripts: the time the first heatmap is drawn, and (for the
// waterfall) when the core's wasm was instantiated and how long the heatmap took to compute and draw.
function instrument() {
  window.__phases = {};
  const original = WebAssembly.instantiateStreaming;
  if (original) {
    WebAssembly.instantiateStreaming = async function (...args) {
      const result = await original.apply(this, args);
      window.__phases.wasmReady ??= Math.round(performance.now());
      return result;
    };
  }
  document.addEventListener(
    'relpos-render',
    (event) => {
      if (window.__firstHeatmap !== undefined || event.target.id !== 'map') return;
      window.__firstHeatmap = performance.now();
      Object.assign(window.__phases, { computeMs: event.detail?.computeMs, drawMs: event.detail?.drawMs });
    },
    true,
  );
}

const kindOf = (url) => {
  const path = new URL(url).pathname;
  if (path.endsWith('.wasm')) return 'wasm';
  if (/\.m?js$/.test(path)) return 'js';
  if (path.endsWith('.css')) return 'css';
  if (/\.(woff2?|ttf)$/.test(path)) return 'fonts';
  if (path.endsWith('.html') || path.endsWith('/')) return 'html';
  return 'other';
};

const host = await serveSite({ root, base: '/relpos/' });
const browser = await launchChromium();
const runs = [];
try {
  for (let run = 0; run < RUNS; run++) {
    const context = await browser.newContext(
      DESKTOP
        ? { serviceWorkers: 'block', viewport: { width: 1280, height: 900 } }
        : { serviceWorkers: 'block', viewport: PROFILE.viewport, deviceScaleFactor: 3, isMobile: true, hasTouch: true },
    );
    await context.addInitScript(instrument);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    if (!DESKTOP) {
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: PROFILE.latency,
        downloadThroughput: (PROFILE.downloadKbps * 1000) / 8,
        uploadThroughput: (PROFILE.uploadKbps * 1000) / 8,
      });
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: PROFILE.cpu });
    }
    await page.goto(host.url);
    await page.waitForFunction(() => window.__firstHeatmap !== undefined, null, { timeout: 120000, polling: 50 });
    const measured = await page.evaluate(() => ({
      waterfall: performance
        .getEntriesByType('resource')
        .map((r) => [
          r.name.replace(location.origin, ''),
          Math.round(r.startTime),
          Math.round(r.responseEnd),
          r.transferSize,
        ]),
      firstHeatmapMs: window.__firstHeatmap,
      resources: [
        {
          name: location.href,
          transferSize: performance.getEntriesByType('navigation')[0].transferSize,
          responseEnd: 0,
        },
        ...performance
          .getEntriesByType('resource')
          .map((r) => ({ name: r.name, transferSize: r.transferSize, responseEnd: r.responseEnd })),
      ],
    }));
    const bytes = {};
    for (const r of measured.resources) {
      if (r.responseEnd > measured.firstHeatmapMs) continue;
      bytes[kindOf(r.name)] = (bytes[kindOf(r.name)] ?? 0) + r.transferSize;
    }
    runs.push({ ms: measured.firstHeatmapMs, bytes });
    if (process.env.RELPOS_LOAD_WATERFALL) {
      console.table(measured.waterfall);
      console.log(await page.evaluate(() => window.__phases));
    }
    console.log(
      `load ${run + 1}: first heatmap ${Math.round(measured.firstHeatmapMs)} ms; before it ${Object.entries(bytes)
        .map(([k, v]) => `${k} ${(v / 1024).toFixed(1)} KB`)
        .join(', ')}`,
    );
    await context.close();
  }
} finally {
  await browser.close();
  await host.close();
  remove();
}

const sorted = [...runs].sort((a, b) => a.ms - b.ms);
const middle = sorted[sorted.length >> 1];
const total = (b) => Object.values(b).reduce((x, y) => x + y, 0);
console.log(
  `\n${DESKTOP ? 'desktop (no emulation, 1280 × 900, cold)' : 'slow phone (150 ms RTT, 1.6 Mbps down, 750 kbps up, CPU ×4, 390 × 844, cold)'}: first live heatmap median of ${runs.length} ` +
    `${(middle.ms / 1000).toFixed(2)} s (target ≤ ${(TARGET_MS / 1000).toFixed(1)} s) ${middle.ms <= TARGET_MS ? 'PASS' : 'MISS'}; ` +
    `${(total(middle.bytes) / 1024).toFixed(0)} KB before it (${Object.entries(middle.bytes)
      .sort((a, b) => b[1] - a[1])
      .map(([k, v]) => `${k} ${(v / 1024).toFixed(0)} KB`)
      .join(', ')})`,
);
