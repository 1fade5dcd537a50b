// The whole chain in a real browser: C++ core → wasm → ES module → <relpos-heatmap> → pixels.
import { describe, expect, it } from 'vitest';
import { colormapTable } from '../../figure/colormap.js';
import { autoScale } from '../../figure/scale.js';
import { openPage, useSite } from './browser.js';
import { cellColor, readHeatmap } from './map-pixels.js';

const shared = useSite();

// Reads the element's data and the displayed pixels (cell centres, WebGL2 or 2D) once it has
// rendered `expectedN` rows.
async function snapshot(page, expectedN) {
  const shot = await readHeatmap(page, { expectedN });
  return { ...shot, grid: [shot.cols, shot.rows] };
}

function pixelAt(shot, i, j) {
  return cellColor(shot, i, j);
}

function lutColor(name, value, [lo, hi]) {
  const lut = colormapTable(name);
  const at = Math.max(0, Math.min(255, Math.round(((value - lo) / (hi - lo)) * 255))) * 4;
  return [lut[at], lut[at + 1], lut[at + 2]];
}

describe('playground page in Chromium', () => {
  it('draws an ALiBi heatmap whose pixels follow the data, and redraws when n changes', async () => {
    const { page, errors } = await openPage(shared.browser, `${shared.site.url}playground.html`);
    const shot = await snapshot(page, 64);
    expect(shot.shape).toEqual([8, 64, 64]);
    expect(shot.grid).toEqual([64, 64]);
    const finite = shot.values.filter(Number.isFinite);
    const range = [Math.min(...finite), Math.max(...finite)];
    // ALiBi head 0: 0 on the diagonal, most negative in the far corner: opposite ends of viridis.
    expect(shot.values[0]).toBe(0);
    expect(shot.values[63]).toBe(range[0]);
    expect(pixelAt(shot, 10, 10)).toEqual(lutColor('viridis', 0, range));
    expect(pixelAt(shot, 0, 63)).toEqual(lutColor('viridis', range[0], range));
    expect(pixelAt(shot, 10, 10)).not.toEqual(pixelAt(shot, 0, 63));
    // Every pixel is the colour of its value.
    for (const [i, j] of [
      [3, 40],
      [40, 3],
      [20, 21],
      [63, 0],
    ]) {
      expect(pixelAt(shot, i, j)).toEqual(lutColor('viridis', shot.values[i * 64 + j], range));
    }

    await page.evaluate(() => {
      const n = document.getElementById('n');
      n.value = '128';
      n.dispatchEvent(new Event('input', { bubbles: true }));
    });
    const bigger = await snapshot(page, 128);
    expect(bigger.grid).toEqual([128, 128]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("draws RoPE scores: the diagonal is the maximum and every pixel is its value's colour", async () => {
    const { page, errors } = await openPage(shared.browser, `${shared.site.url}playground.html`);
    await snapshot(page, 64);
    await page.selectOption('#scheme', 'rope');
    await page.waitForFunction(() => document.querySelector('relpos-heatmap').getAttribute('scheme') === 'rope');
    const shot = await snapshot(page, 64);
    const max = Math.max(...shot.values);
    // Ones probe, d = 64: S(i, i) = d, the largest value.
    expect(shot.values[5 * 64 + 5]).toBeCloseTo(64, 3);
    expect(max).toBeCloseTo(64, 3);
    const { colormap, range } = autoScale(shot.values);
    for (const [i, j] of [
      [5, 5],
      [0, 63],
      [30, 2],
      [12, 50],
    ]) {
      expect(pixelAt(shot, i, j)).toEqual(lutColor(colormap, shot.values[i * 64 + j], range));
    }
    expect(pixelAt(shot, 5, 5)).not.toEqual(pixelAt(shot, 0, 63));
    expect(errors).toEqual([]);
    await page.close();
  });
});
