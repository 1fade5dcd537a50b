// Draws one [rows, cols] slice of a tensor onto a canvas, one pixel per cell (CSS scales it up
// with `image-rendering: pixelated`, so small maps stay crisp), coloured by colormap.js's rule
// (−∞ masked cells grey). Also the scale pickers shared by the element, the exporters and the CLI.
import { colorize } from './colormap.js';

/** The finite min/max of the values (ignores ±Infinity and NaN). */
export function finiteRange(data) {
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of data) {
    if (Number.isFinite(v)) {
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
  }
  return lo <= hi ? [lo, hi] : [0, 1];
}

/** Picks a colormap and range for the data: diverging and symmetric about 0 when signed. */
export function autoScale(data, colormap) {
  const [lo, hi] = finiteRange(data);
  if (lo < 0 && hi > 0) {
    const m = Math.max(-lo, hi);
    return { colormap: colormap ?? 'rdbu', range: [-m, m] };
  }
  return { colormap: colormap ?? 'viridis', range: lo === hi ? [lo - 1, hi + 1] : [lo, hi] };
}

/** The 2-D slice `index` of a [.., rows, cols] tensor; errors name `where`. */
export function sliceMatrix(tensor, index = 0, where = 'relpos.sliceMatrix') {
  const { shape, data } = tensor ?? {};
  if (!Array.isArray(shape) || shape.length < 2 || !ArrayBuffer.isView(data)) {
    throw new TypeError(`${where}: tensor must have shape [rows, cols] or [heads, rows, cols]`);
  }
  const rows = shape[shape.length - 2];
  const cols = shape[shape.length - 1];
  const count = data.length / (rows * cols);
  if (!Number.isInteger(index) || index < 0 || index >= count) {
    throw new RangeError(`${where}: head must be an integer in [0, ${count - 1}], got ${index}`);
  }
  return { rows, cols, data: data.subarray(index * rows * cols, (index + 1) * rows * cols) };
}

/**
 * Renders a tensor to a canvas.
 * @param {HTMLCanvasElement} canvas
 * @param {{shape: number[], data: Float32Array|Int32Array}} tensor
 * @param {{colormap?: string, range?: [number, number], head?: number}} [options]
 * @returns {{colormap: string, range: [number, number], rows: number, cols: number}}
 */
export function renderHeatmap(canvas, tensor, options = {}) {
  const { rows, cols, data } = sliceMatrix(tensor, options.head ?? 0, 'relpos.renderHeatmap');
  const scale = options.range
    ? { colormap: options.colormap ?? 'viridis', range: options.range }
    : autoScale(data, options.colormap);
  const [lo, hi] = scale.range;
  if (!(Number.isFinite(lo) && Number.isFinite(hi) && hi > lo)) {
    throw new RangeError(
      `relpos.renderHeatmap: range must be two finite numbers [lo, hi] with lo < hi, got [${lo}, ${hi}]`,
    );
  }
  const { width, height, data: pixels } = colorize({ rows, cols, data }, scale.colormap, [lo, hi]);
  canvas.width = width;
  canvas.height = height;
  canvas.getContext('2d').putImageData(new ImageData(pixels, width, height), 0, 0);
  return { colormap: scale.colormap, range: [lo, hi], rows, cols };
}
