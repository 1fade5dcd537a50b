// Colormaps as 256-entry RGBA lookup tables, the colours d3-scale-chromatic gives (colour-blind
// safe: viridis / cividis for sequential data, RdBu centred at 0 for signed data; RdBu reversed so
// that positive values are red), and the one rule that turns a value into a colour — shared by the
// canvas renderer, the WebGL shader's CPU twin, the exporters and the Node figure writer:
//   colour(v) = LUT[round((v − lo)·255/(hi − lo))] clamped to [0, 255]; −∞ (masked) and NaN are grey.
// The colours are generated data (figure/colormap-tables.js, scripts/gen-colormaps.mjs), so a page
// does not load d3 to draw its first heatmap; tests/node/colormap-tables.test.js compares every
// entry with d3-scale-chromatic.
import { COLORMAPS, DELTAS } from './colormap-tables.js';

export const colormapNames = Object.keys(COLORMAPS);

/** The colour of masked (−∞) and NaN cells. */
export const MASKED_RGB = Object.freeze([128, 128, 128]);

const tables = new Map();

/** A Uint8ClampedArray of 256 RGBA entries for a named colormap. */
export function colormapTable(name) {
  const key = String(name).toLowerCase();
  if (!Object.hasOwn(COLORMAPS, key)) {
    throw new RangeError(`relpos.colormapTable: colormap must be one of ${colormapNames.join(', ')}, got '${name}'`);
  }
  if (!tables.has(key)) {
    const text = COLORMAPS[key];
    const lut = new Uint8ClampedArray(256 * 4);
    for (let c = 0; c < 3; c++) lut[c] = Number.parseInt(text.slice(c * 2, c * 2 + 2), 16);
    lut[3] = 255;
    for (let i = 1; i < 256; i++) {
      for (let c = 0; c < 3; c++) {
        lut[i * 4 + c] = lut[(i - 1) * 4 + c] + DELTAS.indexOf(text[6 + (i - 1) * 3 + c]) - 26;
      }
      lut[i * 4 + 3] = 255;
    }
    tables.set(key, lut);
  }
  return tables.get(key);
}

/** CSS colour at t ∈ [0, 1] (for colorbars). */
export function colormapCss(name, t) {
  const lut = colormapTable(name);
  const i = Math.max(0, Math.min(255, Math.round(t * 255))) * 4;
  return `rgb(${lut[i]}, ${lut[i + 1]}, ${lut[i + 2]})`;
}

/** True for the values drawn grey: −∞ (a masked cell) and NaN. */
export function isMasked(v) {
  return Number.isNaN(v) || v === -Infinity;
}

/** The LUT entry 0…255 of `v` on [lo, hi] (k = 255 / (hi − lo)); +∞ is the top entry. */
export function lutIndex(v, lo, k) {
  return Math.max(0, Math.min(255, Math.round((v - lo) * k)));
}

/**
 * RGBA pixels of a [rows, cols] matrix, `scale` × `scale` pixels per cell, for a colormap and a
 * range [lo, hi]: { width, height, data: Uint8ClampedArray }.
 */
export function colorize({ rows, cols, data }, colormap, [lo, hi], scale = 1) {
  const lut = colormapTable(colormap);
  const k = 255 / (hi - lo);
  const width = cols * scale;
  const pixels = new Uint8ClampedArray(width * rows * scale * 4);
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < cols; j++) {
      const v = data[i * cols + j];
      const at = isMasked(v) ? -1 : lutIndex(v, lo, k) * 4;
      const r = at < 0 ? MASKED_RGB[0] : lut[at];
      const g = at < 0 ? MASKED_RGB[1] : lut[at + 1];
      const b = at < 0 ? MASKED_RGB[2] : lut[at + 2];
      for (let y = i * scale; y < (i + 1) * scale; y++) {
        for (let p = (y * width + j * scale) * 4, end = p + scale * 4; p < end; p += 4) {
          pixels[p] = r;
          pixels[p + 1] = g;
          pixels[p + 2] = b;
          pixels[p + 3] = 255;
        }
      }
    }
  }
  return { width, height: rows * scale, data: pixels };
}
