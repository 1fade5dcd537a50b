// Draws one [rows, cols] slice of a tensor onto a canvas, one pixel per cell (CSS scales it up
// with `image-rendering: pixelated`, so small maps stay crisp), coloured by figure/colormap.js's rule
// (−∞ masked cells grey), scaled as figure/scale.js picks.
import { colorize } from '../../figure/colormap.js';
import { autoScale, sliceMatrix } from '../../figure/scale.js';

export { autoScale, finiteRange, sliceMatrix } from '../../figure/scale.js';

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
