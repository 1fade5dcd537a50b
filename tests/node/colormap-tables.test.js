// The colormaps the pages draw with (figure/colormap.js, from the generated figure/colormap-tables.js)
// are d3-scale-chromatic's colours: every entry of every table against d3 itself, and the generated
// file against what scripts/gen-colormaps.mjs writes now.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { colormapNames, colormapTable } from '../../figure/colormap.js';
import { rgb } from '../../figure/rgb.js';
import { INTERPOLATORS, TARGET, colormapTablesSource } from '../../scripts/gen-colormaps.mjs';

describe('colormap tables', () => {
  it('name the same colormaps, in the same order, as the generator', () => {
    expect(colormapNames).toEqual(Object.keys(INTERPOLATORS));
  });

  it.each(Object.keys(INTERPOLATORS))(
    '%s: each of the 256 entries is d3-scale-chromatic’s colour at i / 255',
    (name) => {
      const lut = colormapTable(name);
      expect(lut.length).toBe(256 * 4);
      for (let i = 0; i < 256; i++) {
        expect([...lut.subarray(i * 4, i * 4 + 4)], `${name}[${i}]`).toEqual([
          ...rgb(INTERPOLATORS[name](i / 255)),
          255,
        ]);
      }
    },
  );

  it('figure/colormap-tables.js is what scripts/gen-colormaps.mjs generates', async () => {
    expect(readFileSync(TARGET, 'utf8')).toBe(await colormapTablesSource());
  });
});
