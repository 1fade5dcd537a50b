// A page of forty <relpos-heatmap> elements in Chromium — more than the ~16 live WebGL contexts a
// browser keeps. For 30 s their attributes change at random (scheme, view, n, heads, head, causal,
// colormap, range, renderer, size, and elements leaving and rejoining the page), and the shared
// WebGL2 context is lost on purpose (WEBGL_lose_context) and restored. Throughout: every map
// draws its values' colours, no error anywhere, one WebGL context for the page (lost only when we
// said so, and back), one texture per heatmap, and the memory where it started.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openPage, useSite } from './browser.js';
import { isValueColor, withModule, withRp } from './fixtures.js';
import { readHeatmap } from './map-pixels.js';

const COUNT = 40;
const SEED = Number(process.env.RELPOS_FORTY_SEED ?? 20240917);
const shared = useSite();

const PAGE = `@fs${new URL('./pages/forty-heatmaps.html', import.meta.url).pathname}`;

// Counts the WebGL contexts the page creates and how often any is lost (before the page's own scripts).
function countContexts() {
  const getContext = HTMLCanvasElement.prototype.getContext;
  window.relposGL = { contexts: 0, lost: 0 };
  HTMLCanvasElement.prototype.getContext = function (kind, ...rest) {
    const context = getContext.call(this, kind, ...rest);
    if (context && /webgl/.test(kind) && !this.relposCounted) {
      this.relposCounted = true;
      window.relposGL.contexts++;
      this.addEventListener('webglcontextlost', () => window.relposGL.lost++);
    }
    return context;
  };
}

/**
 * Changes attributes at random for `ms` (in the page; draws seeded by fast-check), always to a valid setting:
 * a scheme with one of its views, causal never on the distances view. Returns what happened.
 */
function randomChanges(page, ms, seed) {
  const uniform = fc.noBias(fc.integer({ min: 0, max: 2 ** 31 - 1 })).map((v) => v / 2 ** 31);
  const draws = fc.sample(uniform, { seed, numRuns: 100000 });
  return page.evaluate(
    async ([ms, draws]) => {
      const { viewsFor, rp } = window.relposForty;
      let at = 0;
      const random = () => draws[at++ % draws.length];
      const pick = (list) => list[Math.floor(random() * list.length)];
      const int = (lo, hi) => lo + Math.floor(random() * (hi - lo + 1));
      const schemes = ['alibi', 't5', 'kerple-log', 'rope', 'sinusoidal', 'exp-decay', 'fire', 'xpos', 'shaw', 'cope'];
      const viewsOf = (id) => {
        const views = viewsFor(rp.schemes.find((s) => s.id === id));
        return id === 'cope' ? ['weights'] : views; // CoPE's scores need content (q, k)
      };
      const actions = {
        scheme(el) {
          const scheme = pick(schemes);
          const view = pick(viewsOf(scheme));
          el.setAttribute('scheme', scheme);
          el.setAttribute('view', view);
          if (view === 'distances') el.removeAttribute('causal');
        },
        view(el) {
          const view = pick(viewsOf(el.getAttribute('scheme')));
          el.setAttribute('view', view);
          if (view === 'distances') el.removeAttribute('causal');
        },
        n: (el) => el.setAttribute('n', String(int(4, 48))),
        heads(el) {
          const heads = int(1, 4);
          el.setAttribute('heads', String(heads));
          el.setAttribute('head', String(int(0, heads - 1)));
        },
        head: (el) => el.setAttribute('head', String(int(0, 3))),
        causal(el) {
          if (el.getAttribute('view') === 'distances') return;
          if (el.hasAttribute('causal')) el.removeAttribute('causal');
          else el.setAttribute('causal', '');
        },
        colormap: (el) => el.setAttribute('colormap', pick(['viridis', 'cividis', 'magma', 'rdbu'])),
        range: (el) => (random() < 0.5 ? el.setAttribute('range', 'auto') : el.removeAttribute('range')),
        renderer: (el) => el.setAttribute('renderer', pick(['auto', 'auto', 'webgl2', '2d'])),
        size: (el) => el.style.setProperty('--relpos-size', `${int(48, 160)}px`),
        rejoin(el) {
          const next = el.nextSibling;
          el.remove();
          document.body.insertBefore(el, next);
        },
      };
      const names = Object.keys(actions);
      const elements = [...document.querySelectorAll('relpos-heatmap')];
      const counts = { changes: 0, frames: 0, errors: [], renderers: {} };
      const onRender = (e) => {
        counts.frames++;
        counts.renderers[e.detail.renderer] = (counts.renderers[e.detail.renderer] ?? 0) + 1;
      };
      const onError = (e) => counts.errors.push(`${e.target.id}: ${e.detail.message}`);
      for (const el of elements) {
        el.addEventListener('relpos-render', onRender);
        el.addEventListener('relpos-error', onError);
      }
      const end = performance.now() + ms;
      while (performance.now() < end) {
        for (let k = int(1, 4); k > 0; k--) {
          actions[pick(names)](pick(elements));
          counts.changes++;
        }
        await new Promise((resolve) => setTimeout(resolve, int(0, 20)));
      }
      for (const el of elements) {
        el.removeEventListener('relpos-render', onRender);
        el.removeEventListener('relpos-error', onError);
      }
      return counts;
    },
    [ms, draws],
  );
}

/** Checks the pixels of every heatmap against its values and colour scale; returns the renderers seen. */
async function checkAllPixels(page) {
  const renderers = new Set();
  for (let k = 0; k < COUNT; k++) {
    const selector = `#h${k}`;
    const shot = await readHeatmap(page, { selector });
    const { colormap, range } = await page.evaluate((s) => document.querySelector(s).figure(), selector);
    renderers.add(shot.renderer);
    let checked = 0;
    for (const [cell, colour] of Object.entries(shot.cells)) {
      const value = shot.cellValues[cell];
      if (!isValueColor(colour, colormap, value, range)) {
        throw new Error(`${selector} (${shot.renderer}) cell ${cell}: value ${value} drawn as ${colour}`);
      }
      checked++;
    }
    expect(checked, selector).toBe(shot.rows * shot.cols);
  }
  return renderers;
}

/** The JS heap after a full garbage collection, and the wasm core's heap, in bytes. */
async function memory(page, cdp) {
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  return { js: usedSize, wasm: await withRp(page, (rp) => rp.heapInUse()) };
}

const stats = (page) => withModule(page, 'heatmap-webgl.js', (m) => m.heatmapRendererStats());
const setRenderers = (page, value) =>
  page.evaluate(
    (v) => document.querySelectorAll('relpos-heatmap').forEach((el) => el.setAttribute('renderer', v)),
    value,
  );

describe('a page of forty heatmaps', () => {
  it('keeps drawing correct pixels for 30 s of random changes and a lost WebGL context, in one context, with stable memory', async () => {
    const { page, errors } = await openPage(shared.browser, `${shared.site.url}${PAGE}`, { init: countContexts });
    const bindings = `/@fs${new URL('../../bindings/index.js', import.meta.url).pathname}`;
    const views = `/@fs${new URL('../../figure/views.js', import.meta.url).pathname}`;
    // A string, so that Vitest leaves the page's import() alone.
    await page.evaluate(
      `Promise.all([import('${views}'), import('${bindings}').then((m) => m.load())]).then(([views, rp]) => { window.relposForty = { viewsFor: views.viewsFor, rp }; })`,
    );
    await page.waitForFunction(
      (count) =>
        [...document.querySelectorAll('relpos-heatmap')].filter((el) => el.dataset.state === 'ready').length === count,
      COUNT,
    );
    const cdp = await page.context().newCDPSession(page);
    await checkAllPixels(page);
    const start = await memory(page, cdp);

    // 10 s of changes, then every map checked; the memory now (every scheme and view has been
    // drawn, caches are warm) is the level it must keep.
    const first = await randomChanges(page, 10000, SEED);
    await setRenderers(page, 'auto');
    expect(await checkAllPixels(page)).toEqual(new Set(['webgl2']));
    const before = await memory(page, cdp);

    // The shared context is lost: 5 s of changes drawn in 2D, every map checked, then restored.
    const lost = await withModule(page, 'heatmap-webgl.js', (m) => {
      window.relposLoseContext = m.heatmapWebGLContext().getExtension('WEBGL_lose_context');
      window.relposLoseContext.loseContext();
      return m.heatmapRendererStats().lost;
    });
    expect(lost).toBe(true);
    const during = await randomChanges(page, 5000, SEED + 1);
    await setRenderers(page, 'auto'); // every map draws again: in 2D while the context is lost
    expect(await checkAllPixels(page)).toEqual(new Set(['2d']));
    await page.evaluate(() => window.relposLoseContext.restoreContext());
    await page.waitForFunction(() => window.relposGL.lost === 1);
    await withModule(page, 'heatmap-webgl.js', async (m) => {
      while (m.heatmapRendererStats().lost) await new Promise((resolve) => setTimeout(resolve, 20));
    });

    // 15 s more after the restore; every map back on WebGL2 with correct pixels.
    const last = await randomChanges(page, 15000, SEED + 2);
    await setRenderers(page, 'auto');
    expect(await checkAllPixels(page)).toEqual(new Set(['webgl2']));

    const after = await memory(page, cdp);
    const renderer = await stats(page);
    const gl = await page.evaluate(() => window.relposGL);
    const frames = first.frames + during.frames + last.frames;
    const changes = first.changes + during.changes + last.changes;
    console.log(
      `forty heatmaps: ${changes} changes, ${frames} frames (${JSON.stringify({ first: first.renderers, lost: during.renderers, last: last.renderers })}), ` +
        `${gl.contexts} WebGL context(s), ${renderer.losses} loss(es) / ${renderer.restores} restore(s), ${renderer.textures} textures, ` +
        `JS heap ${(start.js / 2 ** 20).toFixed(1)} (start) / ${(before.js / 2 ** 20).toFixed(1)} (after 10 s) → ${(after.js / 2 ** 20).toFixed(1)} MiB (end), ` +
        `wasm heap ${start.wasm} / ${before.wasm} → ${after.wasm} B`,
    );
    expect([...first.errors, ...during.errors, ...last.errors]).toEqual([]);
    expect(errors).toEqual([]);
    expect(frames).toBeGreaterThan(COUNT * 10);
    expect(during.renderers).toEqual({ '2d': during.frames }); // nothing tried the lost context
    expect(gl).toEqual({ contexts: 1, lost: 1 }); // one context for forty maps, lost only when we said so
    expect(renderer).toMatchObject({ webgl2: true, lost: false, losses: 1, restores: 1, textures: COUNT });
    const dpr = await page.evaluate(() => devicePixelRatio);
    expect(Math.max(...renderer.canvas)).toBeLessThanOrEqual(160 * dpr); // the largest map, not more
    expect(after.wasm).toBe(before.wasm);
    expect(after.js).toBeLessThan(before.js * 1.25 + 4 * 2 ** 20);
    await page.close();
  }, 180000);
});
