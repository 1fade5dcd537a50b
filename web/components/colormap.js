// Colormaps as 256-entry RGBA lookup tables built from d3-scale-chromatic (colour-blind safe:
// viridis / cividis for sequential data, RdBu centred at 0 for signed data).
import { interpolateCividis, interpolateMagma, interpolateRdBu, interpolateViridis } from 'd3-scale-chromatic';
import { rgb } from './rgb.js';

const INTERPOLATORS = {
  viridis: interpolateViridis,
  cividis: interpolateCividis,
  magma: interpolateMagma,
  // RdBu runs red → blue; reversed so that positive values are red and negative blue.
  rdbu: (t) => interpolateRdBu(1 - t),
};

export const colormapNames = Object.keys(INTERPOLATORS);

const tables = new Map();

/** A Uint8ClampedArray of 256 RGBA entries for a named colormap. */
export function colormapTable(name) {
  const key = name.toLowerCase();
  if (!INTERPOLATORS[key]) {
    throw new RangeError(`relpos.renderHeatmap: colormap must be one of ${colormapNames.join(', ')}, got '${name}'`);
  }
  if (!tables.has(key)) {
    const lut = new Uint8ClampedArray(256 * 4);
    for (let i = 0; i < 256; i++) {
      const [r, g, b] = rgb(INTERPOLATORS[key](i / 255));
      lut.set([r, g, b, 255], i * 4);
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
