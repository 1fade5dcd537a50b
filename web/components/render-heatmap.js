// Draws one [rows, cols] slice of a tensor onto a canvas, one pixel per cell (CSS scales it up
// with `image-rendering: pixelated`, so small maps stay crisp). -Infinity (masked) cells are
// drawn in a neutral grey.
import { colormapTable } from './colormap.js';

const MASKED = [128, 128, 128, 255];

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

/** The 2-D slice `index` of a [.., rows, cols] tensor. */
export function sliceMatrix(tensor, index = 0) {
  const { shape, data } = tensor;
  if (!shape || shape.length < 2) {
    throw new TypeError('relpos.renderHeatmap: tensor must have shape [rows, cols] or [heads, rows, cols]');
  }
  const rows = shape[shape.length - 2];
  const cols = shape[shape.length - 1];
  const count = data.length / (rows * cols);
  if (!Number.isInteger(index) || index < 0 || index >= count) {
    throw new RangeError(`relpos.renderHeatmap: head must be an integer in [0, ${count - 1}], got ${index}`);
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
  const { rows, cols, data } = sliceMatrix(tensor, options.head ?? 0);
  const scale = options.range
    ? { colormap: options.colormap ?? 'viridis', range: options.range }
    : autoScale(data, options.colormap);
  const [lo, hi] = scale.range;
  if (!(Number.isFinite(lo) && Number.isFinite(hi) && hi > lo)) {
    throw new RangeError(
      `relpos.renderHeatmap: range must be two finite numbers [lo, hi] with lo < hi, got [${lo}, ${hi}]`,
    );
  }
  const lut = colormapTable(scale.colormap);
  canvas.width = cols;
  canvas.height = rows;
  const context = canvas.getContext('2d');
  const image = context.createImageData(cols, rows);
  const pixels = image.data;
  const k = 255 / (hi - lo);
  for (let i = 0; i < data.length; i++) {
    const v = data[i];
    if (Number.isNaN(v) || v === -Infinity) {
      pixels.set(MASKED, i * 4);
      continue;
    }
    const at = Math.max(0, Math.min(255, Math.round((v - lo) * k))) * 4;
    pixels[i * 4] = lut[at];
    pixels[i * 4 + 1] = lut[at + 1];
    pixels[i * 4 + 2] = lut[at + 2];
    pixels[i * 4 + 3] = 255;
  }
  context.putImageData(image, 0, 0);
  return { colormap: scale.colormap, range: [lo, hi], rows, cols };
}
