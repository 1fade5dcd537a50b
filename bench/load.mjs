// The chapter's first view on a slow phone (npm run bench:load): the published site (a production
// build served by scripts/serve-site.mjs under /relpos/, as `npm run preview:site` serves it)
// loaded cold in Debian's Chromium with the network and CPU emulated through the DevTools
// protocol — Lighthouse's mobile profile: 150 ms round trips, 1.6 Mbps down, 750 kbps up, CPU ×4,
// a 390 × 844 viewport, no HTTP cache, no service worker. Five cold loads; for each, the waterfall
// of the first live heatmap (the explorer's <relpos-heatmap id="map"> drawn from the core): HTML
// received, the core's wasm downloaded, instantiated, the heatmap computed, drawn; the largest
// contentful paint (LCP); the bytes transferred before the heatmap by kind, and file by file. Then the median and the
// worst of each against the targets (LCP ≤ 1.5 s, first live heatmap ≤ 2.5 s, ≤ 230 KB before it),
// and the same for the desktop first view (no emulation, 1280 × 900, target ≤ 1 s). The machine's
// load average (1, 5 and 15 minutes) is printed before and after: on a shared machine the
// figures mean little without it.
//   node bench/load.mjs [--root DIR] (a built site; default: build one into a temporary folder)
//   RELPOS_LOAD_RUNS=5, RELPOS_CHROMIUM=/usr/bin/chromium; RELPOS_LOAD_PROFILES=phone,desktop (the
//   default; one of them alone for A/B runs); RELPOS_LOAD_WATERFALL=1 prints every request too
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium } from '../scripts/chromium.mjs';
import { build } from 'vite';
import { serveSite } from '../scripts/serve-site.mjs';

const RUNS = Number(process.env.RELPOS_LOAD_RUNS ?? 5);
const PROFILES = {
  phone: {
    title: 'slow phone (150 ms RTT, 1.6 Mbps down, 750 kbps up, CPU ×4, 390 × 844, cold)',
    context: { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true },
    network: { latency: 150, downloadKbps: 1600, uploadKbps: 750 },
    cpu: 4,
    targets: { lcp: 1500, heatmap: 2500, bytes: 230 * 1024 },
  },
  desktop: {
    title: 'desktop (no emulation, 1280 × 900, cold)',
    context: { viewport: { width: 1280, height: 900 } },
    targets: { heatmap: 1000 },
  },
};
const chosen = (process.env.RELPOS_LOAD_PROFILES ?? 'phone,desktop').split(',').filter(Boolean);
for (const name of chosen) {
  if (!Object.hasOwn(PROFILES, name)) throw new RangeError(`bench/load.mjs: unknown profile '${name}'`);
}

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

// Runs in the page before its scripts: when the core's wasm was instantiated (the first
// instantiation whose instance has the core's many exports; the relaxed side module has one), when
// the first heatmap was drawn and how long it took to compute and draw, and every LCP candidate.
function instrument() {
  const phases = { lcp: [] };
  window.__phases = phases;
  const coreReady = (result) => {
    const instance = result?.instance ?? result;
    if (instance instanceof WebAssembly.Instance && Object.keys(instance.exports).length > 10) {
      phases.instantiated ??= performance.now();
    }
    return result;
  };
  for (const name of ['instantiateStreaming', 'instantiate']) {
    const original = WebAssembly[name];
    if (!original) continue;
    WebAssembly[name] = function (...args) {
      return original.apply(this, args).then(coreReady);
    };
  }
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const el = e.element;
      const what = el
        ? `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.className ? `.${String(el.className).split(' ')[0]}` : ''}`
        : '(removed)';
      phases.lcp.push({ at: e.startTime, size: e.size, what });
    }
  }).observe({ type: 'largest-contentful-paint', buffered: true });
  document.addEventListener(
    'relpos-render',
    (event) => {
      if (phases.drawn !== undefined || event.target.id !== 'map') return;
      phases.drawn = performance.now();
      phases.computeMs = event.detail?.computeMs;
      phases.drawMs = event.detail?.drawMs;
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

/** One cold load of the chapter: its phases (ms from navigation), LCP and bytes before the heatmap. */
async function coldLoad(browser, url, profile) {
  const context = await browser.newContext({ serviceWorkers: 'block', ...profile.context });
  try {
    await context.addInitScript(instrument);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    if (profile.network) {
      const { latency, downloadKbps, uploadKbps } = profile.network;
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency,
        downloadThroughput: (downloadKbps * 1000) / 8,
        uploadThroughput: (uploadKbps * 1000) / 8,
      });
    }
    if (profile.cpu) await cdp.send('Emulation.setCPUThrottlingRate', { rate: profile.cpu });
    await page.goto(url);
    await page.waitForFunction(() => window.__phases.drawn !== undefined, null, { timeout: 120000, polling: 50 });
    // LCP stops at the first input; none comes here, so its candidates are read once the page has
    // loaded and a frame has passed after the heatmap (later candidates would be larger ones).
    await page.waitForFunction(() => document.readyState === 'complete', null, { timeout: 120000, polling: 50 });
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    return await page.evaluate(() => {
      const p = window.__phases;
      const nav = performance.getEntriesByType('navigation')[0];
      const resources = performance.getEntriesByType('resource');
      const wasm = resources.find((r) => /\/relpos\.(simd|baseline)[^/]*\.wasm$/.test(r.name));
      const lcp = p.lcp.at(-1);
      const before = [
        { name: location.href, transferSize: nav.transferSize, responseEnd: nav.responseEnd },
        ...resources,
      ].filter((r) => r.responseEnd <= p.drawn);
      return {
        html: nav.responseEnd,
        wasmDownloaded: wasm?.responseEnd,
        instantiated: p.instantiated,
        computed: p.drawn - p.drawMs,
        drawn: p.drawn,
        computeMs: p.computeMs,
        drawMs: p.drawMs,
        lcp: lcp?.at,
        lcpElement: lcp?.what,
        resources: before.map((r) => ({ name: r.name, size: r.transferSize })),
        waterfall: resources.map((r) => [
          r.name.replace(location.origin, ''),
          Math.round(r.startTime),
          Math.round(r.responseEnd),
          r.transferSize,
        ]),
      };
    });
  } finally {
    await context.close();
  }
}

const load = () =>
  loadavg()
    .map((v) => v.toFixed(2))
    .join(' / ');
const ms = (v) => (v === undefined || Number.isNaN(v) ? '–' : `${Math.round(v)}`);
const seconds = (v) => `${(v / 1000).toFixed(2)} s`;
const kb = (v) => `${(v / 1024).toFixed(0)} KB`;
const PHASES = ['html', 'wasmDownloaded', 'instantiated', 'computed', 'drawn', 'lcp'];
const PHASE_NAMES = {
  html: 'HTML',
  wasmDownloaded: 'wasm downloaded',
  instantiated: 'wasm instantiated',
  computed: 'computed',
  drawn: 'drawn (first live heatmap)',
  lcp: 'LCP',
};

/** The median and the worst of `values` (the worst: the largest). */
function spread(values) {
  const sorted = values.filter((v) => v !== undefined && !Number.isNaN(v)).sort((a, b) => a - b);
  return { median: sorted[sorted.length >> 1], worst: sorted.at(-1) };
}

function bytesByKind(resources) {
  const bytes = {};
  for (const r of resources) bytes[kindOf(r.name)] = (bytes[kindOf(r.name)] ?? 0) + r.size;
  return bytes;
}

const verdict = (value, target) => (target === undefined ? '' : value <= target ? ' PASS' : ' MISS');

const host = await serveSite({ root, base: '/relpos/' });
const browser = await launchChromium();
const lines = [];
try {
  for (const name of chosen) {
    const profile = PROFILES[name];
    const before = load();
    const runs = [];
    for (let run = 0; run < RUNS; run++) {
      const r = await coldLoad(browser, host.url, profile);
      r.bytes = bytesByKind(r.resources);
      r.total = Object.values(r.bytes).reduce((a, b) => a + b, 0);
      runs.push(r);
      if (process.env.RELPOS_LOAD_WATERFALL) console.table(r.waterfall);
      console.log(
        `${name} load ${run + 1}: ${PHASES.map((k) => `${PHASE_NAMES[k]} ${ms(r[k])}`).join(', ')} ms ` +
          `(compute ${ms(r.computeMs)}, draw ${ms(r.drawMs)} ms; LCP element ${r.lcpElement}); ` +
          `${kb(r.total)} before the heatmap`,
      );
    }
    const after = load();
    const { targets } = profile;
    // A busy machine slows the emulated CPU's work too: above 2 (this 2-core machine's cores) the
    // figures are not an idle machine's, and the targets are read with that in mind.
    const busy = Math.max(...[before, after].map((l) => Number(l.split(' / ')[0]))) > 2;
    const out = [
      `${profile.title}, ${runs.length} cold loads; load average ${before} before, ${after} after` +
        `${busy ? ' (busy: above 2)' : ''}:`,
    ];
    for (const k of PHASES) {
      if (k === 'lcp' && !targets.lcp) continue;
      const { median, worst } = spread(runs.map((r) => r[k]));
      const target = k === 'drawn' ? targets.heatmap : k === 'lcp' ? targets.lcp : undefined;
      const goal = target === undefined ? '' : ` (target ≤ ${seconds(target)})${verdict(median, target)}`;
      out.push(
        `  ${PHASE_NAMES[k].padEnd(27)} median ${ms(median).padStart(5)} ms, worst ${ms(worst).padStart(5)} ms${goal}`,
      );
    }
    const middle = [...runs].sort((a, b) => a.drawn - b.drawn)[runs.length >> 1];
    const bytes = spread(runs.map((r) => r.total));
    out.push(
      `  bytes before the heatmap    median ${kb(bytes.median)}, worst ${kb(bytes.worst)}` +
        `${targets.bytes ? ` (target ≤ ${kb(targets.bytes)})${verdict(bytes.median, targets.bytes)}` : ''}; ` +
        `median load: ${Object.entries(middle.bytes)
          .sort((a, b) => b[1] - a[1])
          .map(([k, v]) => `${k} ${(v / 1024).toFixed(1)} KB`)
          .join(', ')}`,
    );
    // Which files those bytes are (the median load's, largest first), so a budget reads as a list.
    out.push(
      `  files before the heatmap    ${middle.resources
        .filter((r) => r.size > 0)
        .sort((a, b) => b.size - a.size)
        .map((r) => `${new URL(r.name).pathname.split('/').pop() || 'index.html'} ${(r.size / 1024).toFixed(1)} KB`)
        .join(', ')}`,
    );
    lines.push(...out);
  }
} finally {
  await browser.close();
  await host.close();
  remove();
}
console.log(`\n${lines.join('\n')}`);
