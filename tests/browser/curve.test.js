// <relpos-curve> and renderCurve in Chromium: uPlot draws inside the shadow root (its CSS included
// as a <style>), the line's pixels sit where the data says, the keyboard cursor is announced.
import { beforeAll, describe, expect, it } from 'vitest';
import { useSitePage } from './browser.js';
import { withModule, withRp } from './fixtures.js';

const shared = useSitePage('', () => document.getElementById('curve')?.dataset.state === 'ready');
let page;
let errors;
beforeAll(() => ({ page, errors } = shared));

/**
 * renderCurve(host, data) into a new 400-px host at the top of the page; after its first render,
 * fn(el, host, module) runs there and its result comes back.
 */
function drawCurve(data, fn) {
  return withModule(
    page,
    'relpos-curve.js',
    `async (m, data) => {
      const host = document.createElement('div');
      host.style.width = '400px';
      document.body.prepend(host);
      const el = m.renderCurve(host, data);
      await new Promise((resolve) => el.addEventListener('relpos-render', resolve, { once: true }));
      return (${fn})(el, host, m);
    }`,
    data,
  );
}

describe('<relpos-curve>', () => {
  it('the playground draws ALiBi decay profiles, one series per head, with uPlot styles in the shadow root', async () => {
    const info = await page.evaluate(() => {
      const el = document.getElementById('curve');
      const root = el.shadowRoot;
      const canvas = root.querySelector('.uplot canvas');
      const context = canvas.getContext('2d');
      const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
      let ink = 0;
      for (let p = 3; p < data.length; p += 4) if (data[p] > 0) ink++;
      return {
        series: el.figure().series.length,
        x: el.figure().x.slice(0, 3),
        ink,
        css: root.querySelector('style').textContent.includes('.u-wrap'),
        over: getComputedStyle(root.querySelector('.u-over')).position,
      };
    });
    expect(info.series).toBe(8);
    expect(info.x).toEqual([-32, -31, -30]);
    expect(info.ink).toBeGreaterThan(500);
    expect(info.css).toBe(true);
    expect(info.over).toBe('absolute');
  });

  it('renderCurve draws programmatic data: the line passes through its points', async () => {
    const line = { x: [0, 1, 2, 3, 4], series: [{ label: 'y = x', y: [0, 1, 2, 3, 4] }], xLabel: 'x', yLabel: 'y' };
    const result = await drawCurve(line, (el, host, m) => {
      const u = el.plot;
      const canvas = u.ctx.canvas;
      const dpr = devicePixelRatio;
      const context = canvas.getContext('2d');
      // Along the segment from (1, 1) to (3, 3): sample the series colour at its midpoints.
      const hits = [];
      for (const v of [1.5, 2, 2.5]) {
        const px = Math.round(u.valToPos(v, 'x', true));
        const py = Math.round(u.valToPos(v, 'y', true));
        let found = false;
        for (let dx = -2; dx <= 2 && !found; dx++) {
          for (let dy = -2; dy <= 2 && !found; dy++) {
            const [r, g, b, a] = context.getImageData(px + dx, py + dy, 1, 1).data;
            if (a > 0 && b > r && b > g) found = true; // #0072b2 is blue
          }
        }
        hits.push(found);
      }
      // And no ink far from the line (top-left of the plotting area is y = 4 at x = 0).
      const [, , , a] = context.getImageData(
        Math.round(u.valToPos(0.2, 'x', true)),
        Math.round(u.valToPos(3.8, 'y', true)),
        1,
        1,
      ).data;
      const again = m.renderCurve(host, { x: [0, 1], series: [{ label: 'b', y: [1, 2] }] });
      return { hits, emptyAlpha: a, same: again === el, count: host.querySelectorAll('relpos-curve').length, dpr };
    });
    expect(result.hits).toEqual([true, true, true]);
    expect(result.emptyAlpha).toBe(0);
    expect(result.same).toBe(true);
    expect(result.count).toBe(1);
  });

  it('a flat series gets an axis around its value (all-zero eigenvalues: −1 … 1, not 0 … 100); dashed series draw dashed', async () => {
    const flat = {
      x: [0, 1, 2],
      series: [
        { label: 'zero', y: [0, 0, 0] },
        { label: 'level', y: [0, 0, 0], dashed: true },
      ],
    };
    const result = await drawCurve(flat, (el) => {
      const { min, max } = el.plot.scales.y;
      return { min, max, dash: el.plot.series[2].dash, plain: el.plot.series[1].dash ?? null };
    });
    expect(result).toMatchObject({ min: -1, max: 1, dash: [6, 4], plain: null });
  });

  it('rotary inverse frequencies on a log axis equal rp.frequencies', async () => {
    await page.evaluate(() => {
      const el = document.createElement('relpos-curve');
      el.id = 'freq';
      el.setAttribute('kind', 'frequencies');
      el.setAttribute('scheme', 'rope');
      el.setAttribute('d', '32');
      document.body.prepend(el);
    });
    await page.waitForFunction(() => document.getElementById('freq')?.dataset.state === 'ready');
    const shown = await page.evaluate(() => {
      const el = document.getElementById('freq');
      return { y: el.figure().series[0].y, log: el.figure().log, distr: el.plot.scales.y.distr };
    });
    const expected = await withRp(page, (rp) => Array.from(rp.frequencies('rope', { d: 32 }).invFreq));
    expect(shown.log).toBe(true);
    expect(shown.distr).toBe(3);
    shown.y.forEach((v, k) => expect(v).toBeCloseTo(expected[k], 7));
  });

  it('is keyboard-accessible: arrow keys move the cursor and the aria-live readout follows', async () => {
    await page.evaluate(() => document.getElementById('curve').shadowRoot.querySelector('.plot').focus());
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    const readout = await page.evaluate(() => {
      const r = document.getElementById('curve').shadowRoot.querySelector('.readout');
      return { text: r.textContent, live: r.getAttribute('aria-live') };
    });
    expect(readout.live).toBe('polite');
    expect(readout.text).toMatch(/^relative distance r = j − i = −31: head 0 = /);
    expect(errors).toEqual([]);
  });

  it('bad data shows an error instead of throwing', async () => {
    const state = await withModule(page, 'relpos-curve.js', async (_m) => {
      const el = document.createElement('relpos-curve');
      document.body.prepend(el);
      const done = new Promise((resolve) => el.addEventListener('relpos-error', resolve, { once: true }));
      el.data = { x: [1, 2, 3], series: [{ label: 'short', y: [1] }] };
      await done;
      return { state: el.dataset.state, text: el.shadowRoot.querySelector('.error').textContent };
    });
    expect(state.state).toBe('error');
    expect(state.text).toMatch(/must have 3 values/);
  });
});
