// Browser benchmark (not a test): time from a parameter change on <relpos-heatmap> to the redrawn
// frame, in Debian's Chromium (playwright-core) against the Vite dev server on 127.0.0.1.
//   node bench/heatmap-frame.mjs [--runs 9] [--sizes 512,1024,4096] [--renderers webgl2,2d]
// For each n and renderer it measures, as medians over --runs changes:
//   scheme param  alibiBiasMax changes → recompute in wasm (rp.bias) + upload + draw
//   range         range attribute changes → no recompute, re-upload + draw
//   colormap      colormap attribute changes → no recompute (LUT texture on WebGL2)
//   pan/zoom      el.window changes → one draw (what dragging / wheel costs per frame)
// Columns: compute = the wasm call; upload+draw = texture upload + draw call as the element timed it.
// "frame" = setAttribute … until the pixels are drawn (a 1-pixel readback forces the GPU to
// finish); "+raf" additionally waits for the next animation frame (presentation).
import { startBrowser, startSite, openPage } from '../tests/browser/browser.js';

const args = Object.fromEntries(
  process.argv
    .slice(2)
    .reduce((pairs, a, k, all) => (a.startsWith('--') ? [...pairs, [a.slice(2), all[k + 1]]] : pairs), []),
);
const RUNS = Number(args.runs ?? 9);
const SIZES = (args.sizes ?? '512,1024,4096').split(',').map(Number);
const RENDERERS = (args.renderers ?? 'webgl2,2d').split(',');

const site = await startSite();
const browser = await startBrowser();
const { page, errors } = await openPage(browser, site.url);
await page.waitForFunction(() => document.getElementById('map')?.dataset.state === 'ready');

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

const rows = [];
for (const renderer of RENDERERS) {
  for (const n of SIZES) {
    const result = await page.evaluate(
      async ([size, kind, runs]) => {
        document.getElementById('bench')?.remove();
        const el = document.createElement('relpos-heatmap');
        el.id = 'bench';
        el.style.setProperty('--relpos-size', '480px');
        Object.entries({ scheme: 'alibi', n: size, heads: 1, renderer: kind }).forEach(([k, v]) =>
          el.setAttribute(k, String(v)),
        );
        const first = new Promise((resolve) => el.addEventListener('relpos-render', resolve, { once: true }));
        document.body.prepend(el);
        await first;
        // The element's canvas is 2D (WebGL2 frames are copied onto it): reading one pixel waits for both.
        const finish = () => el.shadowRoot.querySelector('canvas.map').getContext('2d').getImageData(0, 0, 1, 1);
        const raf = () => new Promise((resolve) => requestAnimationFrame(() => resolve()));
        async function change(apply) {
          const frame = [];
          const presented = [];
          const compute = [];
          const draw = [];
          for (let r = 0; r < runs; r++) {
            await raf();
            const done = new Promise((resolve) =>
              el.addEventListener('relpos-render', (e) => resolve(e.detail), { once: true }),
            );
            const t0 = performance.now();
            apply(r);
            const detail = await done;
            finish();
            frame.push(performance.now() - t0);
            await raf();
            presented.push(performance.now() - t0);
            compute.push(detail.computeMs);
            draw.push(detail.drawMs);
          }
          return { frame, presented, compute, draw };
        }
        async function pan() {
          const frame = [];
          const presented = [];
          for (let r = 0; r < runs; r++) {
            await raf();
            const t0 = performance.now();
            const w = size / 4;
            el.window = [(r % 3) * w * 0.5, (r % 2) * w * 0.5, (r % 3) * w * 0.5 + w, (r % 2) * w * 0.5 + w];
            await raf();
            finish();
            presented.push(performance.now() - t0);
            // Direct cost of the draw itself (no frame wait): one more window change drawn synchronously.
            const t1 = performance.now();
            el.zoom(r % 2 ? 0.9 : 1 / 0.9);
            await raf();
            finish();
            frame.push(performance.now() - t1);
          }
          return { frame, presented, compute: [0], draw: frame };
        }
        const out = {
          'scheme param': await change((r) => el.setAttribute('alibibiasmax', String(r % 2 ? 4 : 6))),
          range: await change((r) => el.setAttribute('range', r % 2 ? '-100, 0' : '-50, 0')),
          colormap: await change((r) => el.setAttribute('colormap', r % 2 ? 'magma' : 'viridis')),
          'pan/zoom': await pan(),
        };
        el.remove();
        return { renderer: el.renderer, out };
      },
      [n, renderer, RUNS],
    );
    for (const [what, m] of Object.entries(result.out)) {
      rows.push({
        renderer: result.renderer,
        n,
        change: what,
        'frame ms': median(m.frame).toFixed(1),
        '+raf ms': median(m.presented).toFixed(1),
        'compute ms': median(m.compute).toFixed(1),
        'upload+draw ms': median(m.draw).toFixed(1),
      });
    }
    console.error(`done: ${renderer} n=${n}`);
  }
}

const ua = await page.evaluate(() => {
  const gl = document.createElement('canvas').getContext('webgl2');
  const info = gl?.getExtension('WEBGL_debug_renderer_info');
  return `${navigator.userAgent.match(/Chrome\/[\d.]+/)?.[0]}; GL: ${info ? gl.getParameter(info.UNMASKED_RENDERER_WEBGL) : gl ? gl.getParameter(gl.RENDERER) : 'none'}; dpr ${devicePixelRatio}`;
});
console.log(`<relpos-heatmap> parameter change → redrawn frame, medians of ${RUNS} (${ua})`);
console.table(rows);
if (errors.length) console.log('page errors:', errors);
await browser.close();
await site.close();
