// The chapter's first view, production build, cold: how long from navigation to the first live
// heatmap (the explorer's <relpos-heatmap> drawn from the core), and where that time goes. Three
// cold loads (fresh browser contexts: no HTTP cache, no compiled-code cache, no service worker)
// of the site served by scripts/serve-site.mjs on 127.0.0.1. The numbers are reported (printed and
// written to build/reports/first-view.json), not asserted: speed is measured, never a timed test.
// The test asserts only that the heatmap appears.
import { mkdirSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { usePublishedSite } from './site-pages.js';

const published = usePublishedSite();

// Runs in the page before its scripts: records when the first heatmap is drawn, how long the wasm
// took to compile and instantiate, the long main-thread tasks, the heatmap's own timings and the
// largest contentful paint's candidates.
function instrument() {
  const marks = { longTasks: [], wasm: [], lcp: [] };
  window.__firstView = marks;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) marks.lcp.push([Math.round(e.startTime), e.element?.tagName ?? null]);
  }).observe({ type: 'largest-contentful-paint', buffered: true });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) marks.longTasks.push([Math.round(e.startTime), Math.round(e.duration)]);
  }).observe({ type: 'longtask', buffered: true });
  for (const name of ['instantiateStreaming', 'compileStreaming', 'instantiate', 'compile']) {
    const original = WebAssembly[name];
    WebAssembly[name] = async function (...args) {
      const start = performance.now();
      try {
        return await original.apply(this, args);
      } finally {
        marks.wasm.push({ call: name, start: Math.round(start), end: Math.round(performance.now()) });
      }
    };
  }
  document.addEventListener(
    'relpos-render',
    (event) => {
      if (marks.heatmap === undefined && event.target.id === 'map') {
        marks.heatmap = performance.now();
        marks.render = {
          computeMs: event.detail.computeMs,
          drawMs: event.detail.drawMs,
          renderer: event.detail.renderer,
        };
      }
    },
    true,
  );
}

describe('production build, first view', () => {
  it('cold-loads the chapter and reports the time to its first live heatmap', async () => {
    const runs = [];
    for (let run = 0; run < 3; run++) {
      const context = await published.browser.newContext({
        serviceWorkers: 'block',
        viewport: { width: 1280, height: 900 },
      });
      await context.addInitScript(instrument);
      const page = await context.newPage();
      await page.goto(published.host.url);
      await page.waitForFunction(() => window.__firstView?.heatmap !== undefined, null, { timeout: 60000 });
      const shown = await page.evaluate(() => {
        const map = document.getElementById('map');
        return map.dataset.state === 'ready' && map.shadowRoot.querySelector('canvas.map').width > 0;
      });
      expect(shown).toBe(true);
      runs.push(
        await page.evaluate(() => {
          const m = window.__firstView;
          const nav = performance.getEntriesByType('navigation')[0];
          const resources = performance.getEntriesByType('resource');
          const end = (test) =>
            Math.round(Math.max(0, ...resources.filter((r) => test(r.name)).map((r) => r.responseEnd)));
          const wasm = resources.find((r) => r.name.endsWith('.wasm'));
          return {
            firstHeatmapMs: Math.round(m.heatmap),
            htmlMs: Math.round(nav.responseEnd),
            domContentLoadedMs: Math.round(nav.domContentLoadedEventEnd),
            lastScriptBeforeHeatmapMs: end((u) => /\.js$/.test(u)),
            wasmFetch: wasm && { start: Math.round(wasm.startTime), end: Math.round(wasm.responseEnd) },
            wasmCompile: m.wasm,
            heatmapComputeMs: m.render.computeMs,
            heatmapDrawMs: m.render.drawMs,
            // The first frame is drawn in 2D (web/site/first-figure.js), the picture shown until then.
            heatmapRenderer: m.render.renderer,
            largestContentfulPaint: m.lcp.at(-1),
            longTasksBeforeHeatmap: m.longTasks.filter(([start]) => start < m.heatmap),
          };
        }),
      );
      await context.close();
    }
    const sorted = runs.map((r) => r.firstHeatmapMs).sort((a, b) => a - b);
    const report = { medianFirstHeatmapMs: sorted[1], runs };
    mkdirSync('build/reports', { recursive: true });
    writeFileSync('build/reports/first-view.json', `${JSON.stringify(report, null, 2)}\n`);
    console.log(
      `production build, cold first view: first live heatmap at ${sorted.join(' / ')} ms (median ${sorted[1]} ms)\n${JSON.stringify(runs[1], null, 1)}`,
    );
  }, 180000);
});
