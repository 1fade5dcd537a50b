// <relpos-heatmap> views and renderers in Chromium: WebGL2 (R32F texture + LUT shader) and the
// canvas-2D fallback both show the colour of every cell's value; each view computes what it says.
import { beforeAll, describe, expect, it } from 'vitest';
import { useSitePage } from './browser.js';
import { addHeatmap, isValueColor, nextRender, withModule, withRp } from './fixtures.js';
import { cellColor, readHeatmap } from './map-pixels.js';

const shared = useSitePage();
let page;
let errors;
beforeAll(() => ({ page, errors } = shared));

function expectPixelsFollowData(shot, colormap, range) {
  let checked = 0;
  for (const key of Object.keys(shot.cells)) {
    const value = shot.cellValues[key];
    if (!isValueColor(shot.cells[key], colormap, value, range)) {
      throw new Error(`cell ${key}: value ${value} drawn as ${shot.cells[key]}`);
    }
    checked++;
  }
  expect(checked).toBe(Object.keys(shot.cells).length);
  return checked;
}

describe('renderers', () => {
  for (const renderer of ['webgl2', '2d']) {
    it(`${renderer}: every cell of ALiBi head 2 has its value's colour; causal cells are grey`, async () => {
      const sel = await addHeatmap(page, { scheme: 'alibi', n: 48, heads: 4, head: 2, causal: 'true', renderer });
      const shot = await readHeatmap(page, { selector: sel, renderer });
      expect(shot.renderer).toBe(renderer);
      expect(shot.rows).toBe(48);
      const detail = await page.evaluate((s) => {
        const el = document.querySelector(s);
        return { aria: el.shadowRoot.querySelector('.surface').getAttribute('aria-label') };
      }, sel);
      expect(detail.aria).toMatch(/48 by 48/);
      const finite = shot.values.filter(Number.isFinite);
      const range = [Math.min(...finite), Math.max(...finite)];
      expect(expectPixelsFollowData(shot, 'viridis', range)).toBe(48 * 48);
      expect(cellColor(shot, 0, 47)).toEqual([128, 128, 128]);
      expect(cellColor(shot, 47, 0)).not.toEqual([128, 128, 128]);
    });
  }

  it('WebGL2 is the default renderer: every heatmap draws through the one shared context', async () => {
    const selectors = [];
    for (const [id, n] of [
      ['gl-a', 8],
      ['gl-b', 12],
      ['gl-c', 16],
    ]) {
      selectors.push(await addHeatmap(page, { scheme: 'alibi', n, heads: 1 }, { id, size: 64 }));
    }
    for (const [k, sel] of selectors.entries()) {
      const shot = await readHeatmap(page, { selector: sel });
      expect(shot.renderer).toBe('webgl2');
      const finite = shot.values.filter(Number.isFinite);
      expect(expectPixelsFollowData(shot, 'viridis', [Math.min(...finite), Math.max(...finite)])).toBe(
        (8 + 4 * k) ** 2,
      );
    }
    const stats = await withModule(page, 'heatmap-webgl.js', (m) => m.heatmapRendererStats());
    const drawing = await page.evaluate(
      () => [...document.querySelectorAll('relpos-heatmap')].filter((el) => el.renderer === 'webgl2').length,
    );
    expect(stats).toMatchObject({ webgl2: true, lost: false, losses: 0 });
    expect(stats.textures).toBe(drawing); // one texture per heatmap, all in one context
    await page.evaluate((ids) => ids.forEach((id) => document.getElementById(id).remove()), ['gl-a', 'gl-b', 'gl-c']);
    const after = await withModule(page, 'heatmap-webgl.js', (m) => m.heatmapRendererStats());
    expect(after.textures).toBe(drawing - 3); // removed elements free their textures
  });

  it('colormap and range attributes are live and do not recompute', async () => {
    const sel = await addHeatmap(page, { scheme: 'alibi', n: 32, heads: 2 });
    const detail = await page.evaluate(
      (s) =>
        new Promise((resolve) => {
          const el = document.querySelector(s);
          el.addEventListener(
            'relpos-render',
            (e) =>
              resolve({
                colormap: e.detail.figure.colormap,
                range: e.detail.figure.range,
                computeMs: e.detail.computeMs,
              }),
            { once: true },
          );
          el.setAttribute('colormap', 'magma');
          el.setAttribute('range', '-4, 0');
        }),
      sel,
    );
    expect(detail).toEqual({ colormap: 'magma', range: [-4, 0], computeMs: 0 });
    const shot = await readHeatmap(page, { selector: sel });
    expectPixelsFollowData(shot, 'magma', [-4, 0]);
  });

  it('a 1024² map renders on WebGL2 and zooms to crisp cells', async () => {
    const sel = await addHeatmap(page, { scheme: 'alibi', n: 1024, heads: 1 });
    await page.evaluate((s) => {
      document.querySelector(s).window = [500, 500, 516, 516];
    }, sel);
    const shot = await readHeatmap(page, { selector: sel });
    expect(shot.window).toEqual([500, 500, 516, 516]);
    expect(Object.keys(shot.cells)).toHaveLength(256);
    expectPixelsFollowData(shot, 'viridis', shot.finiteRange);
  });
});

describe('views', () => {
  it('causal goes to the core call of every view; the map is what the core returns for that call', async () => {
    const sel = await addHeatmap(page, { scheme: 'alibi', n: 6 }, { id: 'causal-views' });
    for (const [scheme, view] of [
      ['alibi', 'bias'],
      ['alibi', 'scores'],
      ['alibi', 'weights'],
      ['rope', 'scores'],
      ['rope', 'weights'],
      ['t5', 'buckets'],
      ['shaw', 'weights'],
    ]) {
      const detail = await nextRender(page, sel, () =>
        page.evaluate(
          ([s, a]) => Object.entries(a).forEach(([k, v]) => document.querySelector(s).setAttribute(k, v)),
          [sel, { scheme, view, causal: '' }],
        ),
      );
      expect(detail.source.options.causal, `${scheme} ${view}`).toBe(true);
      const shown = await page.evaluate((s) => Array.from(document.querySelector(s).tensor.data), sel);
      const direct = await withRp(
        page,
        (rp, { call, scheme, options }) => {
          if (call !== 'attention') return Array.from(rp[call](scheme, options).data);
          const { n, d, heads, params, ...rest } = options;
          const ones = { shape: [n, heads * d], data: new Float32Array(n * heads * d).fill(1) };
          return Array.from(rp.attention({ q: ones, k: ones, heads, scheme, params, ...rest }).weights.data);
        },
        detail.source,
      );
      expect(shown, `${scheme} ${view}`).toEqual(direct);
    }
    // An encoding has no mask: the core refuses causal by name, and the element shows it.
    await page.evaluate((s) => {
      const el = document.querySelector(s);
      el.setAttribute('scheme', 'sinusoidal');
      el.setAttribute('view', 'distances');
    }, sel);
    await page.waitForFunction((s) => document.querySelector(s).dataset.state === 'error', sel);
    const text = await page.evaluate(
      (s) => document.querySelector(s).shadowRoot.querySelector('.error').textContent,
      sel,
    );
    expect(text).toMatch(/causal/);
  });

  async function tensorOf(sel) {
    return page.evaluate((s) => {
      const t = document.querySelector(s).tensor;
      return {
        shape: t.shape,
        data: Array.from(t.data, (v) => (Number.isFinite(v) ? v : String(v))),
        kind: t.data.constructor.name,
      };
    }, sel);
  }

  it('weights: rows are distributions, and for ALiBi they are softmax of the bias', async () => {
    const sel = await addHeatmap(page, { scheme: 'alibi', n: 16, heads: 2, view: 'weights' });
    const w = await tensorOf(sel);
    expect(w.shape).toEqual([2, 16, 16]);
    const b = await withRp(page, (rp) => Array.from(rp.bias('alibi', { n: 16, heads: 2 }).data));
    for (const row of [0, 7, 15, 16 + 3]) {
      const bias = b.slice(row * 16, row * 16 + 16);
      const m = Math.max(...bias);
      const e = bias.map((v) => Math.exp(v - m));
      const z = e.reduce((a, c) => a + c, 0);
      const weights = w.data.slice(row * 16, row * 16 + 16);
      expect(weights.reduce((a, c) => a + c, 0)).toBeCloseTo(1, 5);
      weights.forEach((v, j) => expect(v).toBeCloseTo(e[j] / z, 5));
    }
    const shot = await readHeatmap(page, { selector: sel });
    expect(shot.rows).toBe(16);
  });

  it('weights for RoPE use the ones probe (not uniform), causal rows put no weight on the future', async () => {
    const sel = await addHeatmap(page, { scheme: 'rope', n: 12, d: 16, view: 'weights', causal: 'true' });
    const w = await tensorOf(sel);
    expect(w.data[1]).toBe(0);
    expect(w.data[11 * 12 + 11]).toBeGreaterThan(w.data[11 * 12 + 0]);
  });

  it('weights: the cells the call masks are drawn grey and read "masked"; kept cells keep their colour', async () => {
    const sel = await addHeatmap(page, { scheme: 'alibi', n: 12, heads: 1, view: 'weights', causal: 'true' });
    const shot = await readHeatmap(page, { selector: sel });
    const shown = await page.evaluate((s) => {
      const el = document.querySelector(s);
      const cells = [...el.shadowRoot.querySelectorAll('table tr')]
        .slice(1)
        .map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent));
      return { tensor: Array.from(el.tensor.data), figure: Array.from(el.figure().data), cells };
    }, sel);
    for (let i = 0; i < 12; i++) {
      for (let j = 0; j < 12; j++) {
        const future = j > i;
        // The element's tensor stays the core's result: a masked key's weight is 0.
        expect(shown.tensor[i * 12 + j] === 0).toBe(future);
        expect(shown.figure[i * 12 + j]).toBe(future ? -Infinity : shown.tensor[i * 12 + j]);
        expect(shown.cells[i][j] === '−∞ (masked)').toBe(future);
        expect(cellColor(shot, i, j)[0] === 128 && cellColor(shot, i, j)[1] === 128).toBe(future);
      }
    }
    const finite = shot.values.filter(Number.isFinite);
    expect(expectPixelsFollowData(shot, 'viridis', [Math.min(...finite), Math.max(...finite)])).toBe(144);
  });

  it('distances: symmetric, zero diagonal, equal to the euclidean distances of rp.encoding rows', async () => {
    const sel = await addHeatmap(page, { scheme: 'sinusoidal', n: 20, d: 16, view: 'distances' });
    const t = await tensorOf(sel);
    expect(t.shape).toEqual([20, 20]);
    const enc = await withRp(page, (rp) => Array.from(rp.encoding('sinusoidal', { n: 20, d: 16 }).data));
    for (const [i, j] of [
      [0, 0],
      [0, 5],
      [5, 0],
      [3, 19],
      [10, 11],
    ]) {
      let s = 0;
      for (let k = 0; k < 16; k++) s += (enc[i * 16 + k] - enc[j * 16 + k]) ** 2;
      expect(t.data[i * 20 + j]).toBeCloseTo(Math.sqrt(s), 4);
    }
  });

  it('buckets: an Int32 map; unsupported views and bad attributes show an error, not an exception', async () => {
    const sel = await addHeatmap(page, { scheme: 't5', n: 24, view: 'buckets' });
    expect((await tensorOf(sel)).kind).toBe('Int32Array');
    const bad = await addHeatmap(page, { scheme: 'alibi', n: 8, view: 'distances' }, { id: 'bad' });
    const state = await page.evaluate(
      (s) => ({
        state: document.querySelector(s).dataset.state,
        text: document.querySelector(s).shadowRoot.querySelector('.error').textContent,
      }),
      bad,
    );
    expect(state.state).toBe('error');
    expect(state.text).toMatch(/alibi has no distances output/);
    expect(errors).toEqual([]);
  });
});
