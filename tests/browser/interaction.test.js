// <relpos-heatmap> interaction in Chromium: wheel zoom, drag pan, hover readout, click lock,
// keyboard cursor with aria-live readout, hidden table for small n, messages, reduced motion.
import { beforeAll, describe, expect, it } from 'vitest';
import { useSitePage } from './browser.js';
import { addHeatmap, isValueColor } from './fixtures.js';
import { readHeatmap } from './map-pixels.js';

const shared = useSitePage();
let page;
let errors;
beforeAll(() => ({ page, errors } = shared));

const state = (sel) =>
  page.evaluate((s) => {
    const el = document.querySelector(s);
    const root = el.shadowRoot;
    return {
      window: el.window,
      cursor: el.cursor,
      locked: el.locked,
      readout: root.querySelector('.readout').textContent,
      live: root.querySelector('.readout').getAttribute('aria-live'),
    };
  }, sel);

async function surfaceBox(sel) {
  return page.evaluate((s) => {
    const r = document.querySelector(s).shadowRoot.querySelector('.surface').getBoundingClientRect();
    return { x: r.left, y: r.top, w: r.width, h: r.height };
  }, sel);
}

async function cellCentre(sel, i, j) {
  const box = await surfaceBox(sel);
  const {
    window: [x0, y0, x1, y1],
  } = await state(sel);
  return { x: box.x + ((j + 0.5 - x0) / (x1 - x0)) * box.w, y: box.y + ((i + 0.5 - y0) / (y1 - y0)) * box.h };
}

describe('zoom and pan', () => {
  it('wheel zooms at the pointer, drag pans, and the pixels still follow the data', async () => {
    const sel = await addHeatmap(page, { scheme: 'alibi', n: 64, heads: 1 });
    expect((await state(sel)).window).toEqual([0, 0, 64, 64]);
    const p = await cellCentre(sel, 16, 16);
    await page.mouse.move(p.x, p.y);
    await page.mouse.wheel(0, -400);
    await page.waitForFunction(
      (s) => document.querySelector(s).window[2] - document.querySelector(s).window[0] < 64,
      sel,
    );
    const zoomed = (await state(sel)).window;
    const width = zoomed[2] - zoomed[0];
    expect(width).toBeLessThan(40);
    // The cell under the pointer stays under the pointer.
    expect(zoomed[0] + ((16.5 - 0) / 64) * width).toBeCloseTo(16.5, 0);
    let shot = await readHeatmap(page, { selector: sel });
    expect(Object.keys(shot.cells).length).toBeLessThan(64 * 64);
    for (const [key, color] of Object.entries(shot.cells)) {
      expect(isValueColor(color, 'viridis', shot.cellValues[key], shot.finiteRange), key).toBe(true);
    }

    // Drag to the left by 100 px: the window moves right (towards larger j).
    const box = await surfaceBox(sel);
    await page.mouse.move(box.x + box.w / 2, box.y + box.h / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.w / 2 - 100, box.y + box.h / 2, { steps: 5 });
    await page.mouse.up();
    const panned = (await state(sel)).window;
    expect(panned[0]).toBeGreaterThan(zoomed[0]);
    expect(panned[2] - panned[0]).toBeCloseTo(width, 6);
    expect(panned[1]).toBeCloseTo(zoomed[1], 6);
    shot = await readHeatmap(page, { selector: sel });
    expect(shot.window).toEqual(panned);
    for (const [key, color] of Object.entries(shot.cells)) {
      expect(isValueColor(color, 'viridis', shot.cellValues[key], shot.finiteRange), key).toBe(true);
    }

    // Double-click resets (reduced motion: at once).
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.mouse.dblclick(box.x + 10, box.y + 10);
    expect((await state(sel)).window).toEqual([0, 0, 64, 64]);
    await page.emulateMedia({ reducedMotion: 'no-preference' });
  });

  it('toolbar buttons zoom and reset; the window never leaves the matrix', async () => {
    const sel = await addHeatmap(page, { scheme: 'alibi', n: 32, heads: 1 });
    await page.evaluate(
      (s) => document.querySelector(s).shadowRoot.querySelector('[data-action="zoom-in"]').click(),
      sel,
    );
    expect((await state(sel)).window).toEqual([8, 8, 24, 24]);
    await page.evaluate((s) => {
      document.querySelector(s).window = [-100, -100, -90, -90];
    }, sel);
    expect((await state(sel)).window).toEqual([0, 0, 10, 10]);
    await page.evaluate((s) => {
      document.querySelector(s).window = [0, 0, 1e6, 1e6];
    }, sel);
    expect((await state(sel)).window).toEqual([0, 0, 32, 32]);
    const label = await page.evaluate(
      (s) => document.querySelector(s).shadowRoot.querySelector('[data-action="zoom-in"]').getAttribute('aria-label'),
      sel,
    );
    expect(label).toBe('Zoom in');
  });
});

describe('readout', () => {
  it('hover shows i, j, r = j − i and the value; click locks it, a second click unlocks', async () => {
    const sel = await addHeatmap(page, { scheme: 'alibi', n: 16, heads: 1 });
    const values = await page.evaluate((s) => Array.from(document.querySelector(s).tensor.data), sel);
    let p = await cellCentre(sel, 3, 9);
    await page.mouse.move(p.x, p.y);
    let s = await state(sel);
    expect(s.cursor).toEqual([3, 9]);
    expect(s.readout).toContain('i = 3, j = 9, r = j − i = 6, value = ');
    expect(s.readout).toContain(`${String(Number(values[3 * 16 + 9].toPrecision(5))).replace('-', '−')}`);
    await page.mouse.down();
    await page.mouse.up();
    expect((await state(sel)).locked).toBe(true);
    const q = await cellCentre(sel, 10, 2);
    await page.mouse.move(q.x, q.y);
    s = await state(sel);
    expect(s.cursor).toEqual([3, 9]);
    expect(s.readout).toMatch(/i = 3, j = 9, r = j − i = 6, .*\(locked\)/);
    p = await cellCentre(sel, 3, 9);
    await page.mouse.move(p.x, p.y);
    await page.mouse.down();
    await page.mouse.up();
    expect((await state(sel)).locked).toBe(false);
    await page.mouse.move(q.x, q.y);
    expect((await state(sel)).readout).toContain('i = 10, j = 2, r = j − i = −8');
  });

  it('the map is focusable; arrow keys move a cell cursor and the aria-live readout follows', async () => {
    const sel = await addHeatmap(page, { scheme: 'alibi', n: 16, heads: 1 });
    await page.evaluate((s) => document.querySelector(s).shadowRoot.querySelector('.surface').focus(), sel);
    const focused = await page.evaluate((s) => document.querySelector(s).shadowRoot.activeElement?.className, sel);
    expect(focused).toBe('surface');
    await page.keyboard.press('ArrowDown');
    let s = await state(sel);
    expect(s.live).toBe('polite');
    expect(s.cursor).toEqual([0, 0]);
    expect(s.readout).toContain('i = 0, j = 0, r = j − i = 0');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowDown');
    s = await state(sel);
    expect(s.cursor).toEqual([1, 2]);
    expect(s.readout).toContain('i = 1, j = 2, r = j − i = 1');
    await page.keyboard.press('Shift+ArrowRight');
    expect((await state(sel)).cursor).toEqual([1, 12]);
    await page.keyboard.press('End');
    expect((await state(sel)).cursor).toEqual([1, 15]);
    await page.keyboard.press('Enter');
    expect((await state(sel)).readout).toContain('(locked)');
    await page.keyboard.press('Escape');
    expect((await state(sel)).locked).toBe(false);
    // Zooming with + keeps the cursor in view; moving past the edge pans.
    await page.keyboard.press('+');
    await page.keyboard.press('+');
    let w = (await state(sel)).window;
    expect(w[2] - w[0]).toBe(4);
    for (let k = 0; k < 6; k++) await page.keyboard.press('ArrowDown');
    s = await state(sel);
    w = s.window;
    expect(s.cursor).toEqual([7, 15]);
    expect(w[1] <= 7 && w[3] >= 8).toBe(true);
    await page.keyboard.press('0');
  });
});

describe('accessibility and words', () => {
  it('small maps carry a visually hidden table; large ones do not', async () => {
    const sel = await addHeatmap(page, { scheme: 'alibi', n: 16, heads: 1 });
    const table = await page.evaluate((s) => {
      const t = document.querySelector(s).shadowRoot.querySelector('table');
      const box = t.parentElement.getBoundingClientRect();
      return {
        hidden: t.hidden,
        rows: t.querySelectorAll('tr').length,
        cells: t.querySelectorAll('td').length,
        caption: t.caption?.textContent,
        area: box.width * box.height,
        first: t.querySelectorAll('tr')[1].querySelector('td').textContent,
      };
    }, sel);
    expect(table).toMatchObject({ hidden: false, rows: 17, cells: 256, first: '0' });
    expect(table.caption).toMatch(/ALiBi/);
    expect(table.area).toBeLessThanOrEqual(1);
    const big = await addHeatmap(page, { scheme: 'alibi', n: 64, heads: 1 });
    expect(await page.evaluate((s) => document.querySelector(s).shadowRoot.querySelector('table').hidden, big)).toBe(
      true,
    );
  });

  it('every word comes from messages: per element and page-wide', async () => {
    const sel = await addHeatmap(page, { scheme: 'alibi', n: 8, heads: 1 });
    const words = await page.evaluate((s) => {
      const el = document.querySelector(s);
      el.messages = {
        axisKey: '键 j',
        axisQuery: '查询 i',
        exportMenu: '导出',
        readout: '行 {i} 列 {j} 距离 {r} 值 {value}',
        views: { bias: '偏置' },
      };
      const root = el.shadowRoot;
      return {
        axes: Array.from(root.querySelectorAll('svg.axes text.label'), (t) => t.textContent),
        menu: root.querySelector('.export summary').textContent,
        caption: root.querySelector('table caption').textContent,
      };
    }, sel);
    expect(words.axes).toEqual(['键 j →', '← 查询 i']);
    expect(words.menu).toBe('导出');
    expect(words.caption).toContain('偏置');
    await page.evaluate((s) => document.querySelector(s).shadowRoot.querySelector('.surface').focus(), sel);
    await page.keyboard.press('ArrowRight');
    expect((await state(sel)).readout).toMatch(/^行 0 列 0 距离 0 值 /);
    // Markup in a message stays text.
    const safe = await page.evaluate((s) => {
      const el = document.querySelector(s);
      el.messages = { axisKey: '<img src=x>' };
      return {
        imgs: el.shadowRoot.querySelectorAll('img').length,
        text: el.shadowRoot.querySelector('svg.axes text.label').textContent,
      };
    }, sel);
    expect(safe).toEqual({ imgs: 0, text: '<img src=x> →' });
    expect(errors).toEqual([]);
  });

  it('follows prefers-color-scheme', async () => {
    const sel = await addHeatmap(page, { scheme: 'alibi', n: 8, heads: 1 });
    const color = () => page.evaluate((s) => getComputedStyle(document.querySelector(s)).color, sel);
    await page.emulateMedia({ colorScheme: 'light' });
    const light = await color();
    await page.emulateMedia({ colorScheme: 'dark' });
    const dark = await color();
    expect(light).not.toBe(dark);
    await page.emulateMedia({ colorScheme: 'light' });
  });
});
