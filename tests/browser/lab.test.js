// /lab.html in Chromium: a tiny experiment (two schemes, a few steps) trains in the page's wasm
// core; the loss and gradient-norm curves, the accuracy-against-length plot and the attention maps
// at L and 4L render; no console errors; nothing requested beyond 127.0.0.1.
import { beforeAll, describe, expect, it } from 'vitest';
import { useSitePage } from './browser.js';

const shared = useSitePage(
  'lab.html?schemes=alibi,rope&length=8&steps=15&seed=3',
  () => customElements.get('relpos-lab') && document.getElementById('lab')?.shadowRoot?.querySelector('form'),
);
let page;
let errors;
beforeAll(() => ({ page, errors } = shared));

const inked = (canvas) => {
  const context = canvas.getContext('2d');
  const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
  let ink = 0;
  for (let p = 3; p < data.length; p += 4) if (data[p] > 0) ink++;
  return ink;
};

describe('lab.html', () => {
  it('trains a tiny experiment and draws the loss curve, accuracy plot and attention maps', async () => {
    const summary = await page.evaluate(async (inkedSource) => {
      const ink = new Function(`return (${inkedSource})`)();
      const lab = document.getElementById('lab');
      const progress = [];
      lab.addEventListener('relpos-lab-result', () => progress.push('result'));
      const done = await lab.train();
      const root = lab.shadowRoot;
      const curve = (selector) => root.querySelector(`${selector} relpos-curve`);
      // Wait for every curve to finish drawing.
      for (const selector of ['.loss', '.grad', '.accuracy']) {
        const el = curve(selector);
        if (!el.plot) await new Promise((resolve) => el.addEventListener('relpos-render', resolve, { once: true }));
      }
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      const figure = (selector) => curve(selector).figure();
      const canvasInk = (selector) => ink(curve(selector).shadowRoot.querySelector('.uplot canvas'));
      const mapL = root.querySelector('.map-L');
      const map4L = root.querySelector('.map-4L');
      return {
        runs: done.length,
        event: progress.length,
        status: root.querySelector('.status').textContent,
        lossSeries: figure('.loss').series.map((s) => s.label),
        lossPoints: figure('.loss').x.length,
        lossInk: canvasInk('.loss'),
        accuracyX: figure('.accuracy').x,
        accuracySeries: figure('.accuracy').series.map((x) => x.label),
        chance: figure('.accuracy').series.at(-1).y,
        accuracyInk: canvasInk('.accuracy'),
        gradLog: figure('.grad').log,
        maps: [mapL.width, mapL.height, map4L.width, map4L.height],
        mapInk: ink(mapL) > 0 && ink(map4L) > 0,
        heatmapsShown: !root.querySelector('.heatmaps').hidden,
        heads: root.querySelector('.head-select').options.length,
      };
    }, inked.toString());
    expect(summary.runs).toBe(2);
    expect(summary.event).toBe(1);
    expect(summary.status).toMatch(/Done: 2 run/);
    expect(summary.lossSeries).toHaveLength(2);
    expect(summary.lossSeries[0]).toMatch(/ALiBi/);
    expect(summary.lossPoints).toBe(15);
    expect(summary.lossInk).toBeGreaterThan(200);
    expect(summary.accuracyX).toEqual([8, 16, 32, 64]);
    // The two runs, then the copy task's chance level 1/vocab (dashed).
    expect(summary.accuracySeries).toHaveLength(3);
    expect(summary.accuracySeries[2]).toBe('chance, 1/16');
    expect(summary.chance).toEqual([1 / 16, 1 / 16, 1 / 16, 1 / 16]);
    expect(summary.accuracyInk).toBeGreaterThan(200);
    expect(summary.gradLog).toBe(true);
    expect(summary.maps).toEqual([8, 8, 32, 32]);
    expect(summary.mapInk).toBe(true);
    expect(summary.heatmapsShown).toBe(true);
    expect(summary.heads).toBe(2);
    expect(errors).toEqual([]);
  });

  it('cancels a long run from the Cancel button', async () => {
    const status = await page.evaluate(async () => {
      const lab = document.getElementById('lab');
      const root = lab.shadowRoot;
      root.querySelector('input[name=steps]').value = '100000';
      const running = lab.train();
      await new Promise((resolve) => setTimeout(resolve, 300));
      root.querySelector('.cancel').click();
      const done = await running;
      return {
        runs: done.length,
        text: root.querySelector('.status').textContent,
        trainEnabled: !root.querySelector('.train').disabled,
      };
    });
    expect(status.runs).toBe(0);
    expect(status.text).toBe('Cancelled.');
    expect(status.trainEnabled).toBe(true);
    expect(errors).toEqual([]);
  });

  it('its attributes are live, and a scheme it cannot train is an error, not a silent omission', async () => {
    const seen = await page.evaluate(async () => {
      const lab = document.getElementById('lab');
      const root = lab.shadowRoot;
      const checked = () => Array.from(root.querySelectorAll('input[name=scheme]:checked'), (i) => i.value);
      lab.setAttribute('schemes', 'kerple-log,nope');
      lab.setAttribute('steps', '7');
      const live = { schemes: checked(), steps: root.querySelector('input[name=steps]').value };
      const error = new Promise((resolve) => lab.addEventListener('relpos-lab-error', (e) => resolve(e.detail.error)));
      lab.setAttribute('schemes', 'rope,no-such-scheme');
      const raised = await error;
      return {
        live,
        name: raised.name,
        message: raised.message,
        status: root.querySelector('.status').textContent,
        after: checked(),
      };
    });
    expect(seen.live).toEqual({ schemes: ['kerple-log', 'nope'], steps: '7' });
    expect(seen.name).toBe('RangeError');
    expect(seen.message).toMatch(/^relpos-lab: schemes: unknown scheme id 'no-such-scheme'; the lab trains .*'rope'/);
    expect(seen.status).toContain('no-such-scheme');
    expect(seen.after).toEqual(['rope']);
  });
});
