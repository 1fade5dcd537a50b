// Reads what a <relpos-heatmap> shows: its data and, for every cell inside the visible window, the
// colour at the cell's centre on the displayed canvas (WebGL2 or 2D — copied through drawImage, the
// WebGL context keeps its drawing buffer).
export async function readHeatmap(page, { selector = 'relpos-heatmap', expectedN, renderer } = {}) {
  await page.waitForFunction(
    ([sel, n, kind]) => {
      const el = document.querySelector(sel);
      return (
        el?.dataset.state === 'ready' &&
        el.tensor &&
        (n === undefined || el.tensor.shape.at(-1) === n) &&
        (!kind || el.renderer === kind)
      );
    },
    [selector, expectedN, renderer],
  );
  // Let a pending animation frame (pan / zoom) land.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  return page.evaluate((sel) => {
    const el = document.querySelector(sel);
    const canvas = el.shadowRoot.querySelector('canvas.map');
    const copy = document.createElement('canvas');
    copy.width = canvas.width;
    copy.height = canvas.height;
    const context = copy.getContext('2d');
    context.drawImage(canvas, 0, 0);
    const pixels = context.getImageData(0, 0, copy.width, copy.height).data;
    const rows = el.tensor.shape.at(-2);
    const cols = el.tensor.shape.at(-1);
    // The shown head as drawn (the attribute is clamped to the heads computed; a weights view's masked
    // cells are −∞ there, while el.tensor keeps the core's 0).
    const shown = el.figure().data;
    const [x0, y0, x1, y1] = el.window;
    const cells = {};
    const cellValues = {};
    for (let i = Math.ceil(y0); i < Math.floor(y1); i++) {
      for (let j = Math.ceil(x0); j < Math.floor(x1); j++) {
        const px = Math.floor(((j + 0.5 - x0) / (x1 - x0)) * copy.width);
        const py = Math.floor(((i + 0.5 - y0) / (y1 - y0)) * copy.height);
        const at = (py * copy.width + px) * 4;
        cells[`${i},${j}`] = [pixels[at], pixels[at + 1], pixels[at + 2]];
        const v = shown[i * cols + j];
        cellValues[`${i},${j}`] = Number.isFinite(v) ? v : String(v);
      }
    }
    const finite = shown.filter(Number.isFinite);
    const [lo, hi] = finite.reduce(([a, b], v) => [Math.min(a, v), Math.max(b, v)], [Infinity, -Infinity]);
    // Whole-slice values only for small maps (serialising millions of numbers is slow).
    const values = rows * cols <= 65536 ? Array.from(shown, (v) => (Number.isFinite(v) ? v : String(v))) : null;
    return {
      shape: el.tensor.shape,
      rows,
      cols,
      values,
      cells,
      cellValues,
      finiteRange: [lo, hi],
      window: [x0, y0, x1, y1],
      renderer: el.renderer,
      canvasSize: [copy.width, copy.height],
    };
  }, selector);
}

export function cellColor(shot, i, j) {
  return shot.cells[`${i},${j}`];
}
