// Helpers shared by the component tests: one browser + site per file, and elements added to the
// playground page (which registers the custom elements under its strict CSP).
import { colormapTable } from '../../figure/colormap.js';

/** Adds a <relpos-heatmap id=…> with the given attributes at the top of the page. */
export async function addHeatmap(page, attributes, { id = 't', size = 256 } = {}) {
  await page.waitForFunction(
    () => customElements.get('relpos-heatmap') && document.getElementById('map')?.dataset.state,
  );
  await page.evaluate(
    ([attrs, elId, px]) => {
      document.getElementById(elId)?.remove();
      const el = document.createElement('relpos-heatmap');
      el.id = elId;
      el.style.setProperty('--relpos-size', `${px}px`);
      for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
      document.body.prepend(el);
    },
    [attributes, id, size],
  );
  await page.waitForFunction((elId) => ['ready', 'error'].includes(document.getElementById(elId)?.dataset.state), id);
  return `#${id}`;
}

/** The LUT colour of `value` in [lo, hi] (what renderHeatmap and the shader compute), shifted by `offset` entries. */
export function lutColor(name, value, [lo, hi], offset = 0) {
  const lut = colormapTable(name);
  const index = Math.max(0, Math.min(255, Math.round(((value - lo) / (hi - lo)) * 255) + offset));
  return [lut[index * 4], lut[index * 4 + 1], lut[index * 4 + 2]];
}

/** True when `color` is the LUT colour of `value`, allowing one LUT step (float32 rounding on the GPU). */
export function isValueColor(color, name, value, range) {
  if (value === '-Infinity' || value === 'NaN' || value === -Infinity) return color.every((c) => c === 128);
  return [-1, 0, 1].some((o) => lutColor(name, value, range, o).every((c, k) => c === color[k]));
}

/** Waits for a render of the element after `action` (resolves with the event detail). */
export async function nextRender(page, selector, action) {
  const wait = page.evaluate(
    (sel) =>
      new Promise((resolve) => {
        document
          .querySelector(sel)
          .addEventListener('relpos-render', (e) => resolve({ ...e.detail, tensor: undefined }), { once: true });
      }),
    selector,
  );
  await action();
  return wait;
}

const BINDINGS = `/@fs${new URL('../../bindings/index.js', import.meta.url).pathname}`;
// The URL the pages import the components from (Vite serves web/ at /): the page's own module instances.
const COMPONENTS = '/components/';

/** Runs fn(rp, arg) in the page with the page's own wasm instance (same module URL Vite serves). */
export function withRp(page, fn, arg) {
  return page.evaluate(
    `(async () => { const { load } = await import(${JSON.stringify(BINDINGS)}); const rp = await load(); return (${fn.toString()})(rp, ${JSON.stringify(arg ?? null)}); })()`,
  );
}

/** Runs fn(module, arg) in the page with a web component module (e.g. 'relpos-curve.js'). */
export function withModule(page, file, fn, arg) {
  return page.evaluate(
    `(async () => { const m = await import(${JSON.stringify(COMPONENTS + file)}); return (${fn.toString()})(m, ${JSON.stringify(arg ?? null)}); })()`,
  );
}
