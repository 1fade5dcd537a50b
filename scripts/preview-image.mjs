#!/usr/bin/env node
// Draws the site's link-preview image (web/public/preview.png, 1200×630, the size link previews
// use): two heatmaps computed by the core — ALiBi's bias (one head) and RoPE's position-only scores —
// on the site's dark background, in the colormaps the pages use. Run it again when the look changes:
//   node scripts/preview-image.mjs
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { load } from '../bindings/index.js';
import { colormapTable } from '../figure/colormap.js';

const { PNG } = createRequire(import.meta.url)('pngjs');
const WIDTH = 1200;
const HEIGHT = 630;
const BACKGROUND = [0x10, 0x13, 0x17]; // --rp-bg, dark
const N = 64;
const CELL = 7; // 64 cells × 7 px = 448 px per map

const rp = await load();
const maps = [
  { tensor: rp.bias('alibi', { n: N, heads: 8 }), head: 2, colormap: 'viridis' },
  { tensor: rp.scores('rope', { n: N, d: 64 }), head: 0, colormap: 'viridis' },
];

const png = new PNG({ width: WIDTH, height: HEIGHT, colorType: 2 });
for (let p = 0; p < WIDTH * HEIGHT; p++) png.data.set([...BACKGROUND, 255], p * 4);

const side = N * CELL;
const gap = (WIDTH - 2 * side) / 3;
const top = Math.round((HEIGHT - side) / 2);
maps.forEach(({ tensor, head, colormap }, index) => {
  const slice = tensor.data.subarray(head * N * N, (head + 1) * N * N);
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of slice) {
    lo = Math.min(lo, v);
    hi = Math.max(hi, v);
  }
  const lut = colormapTable(colormap);
  const left = Math.round(gap + index * (side + gap));
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      const v = slice[Math.floor(y / CELL) * N + Math.floor(x / CELL)];
      const k = Math.max(0, Math.min(255, Math.round(((v - lo) / (hi - lo)) * 255))) * 4;
      png.data.set([lut[k], lut[k + 1], lut[k + 2], 255], ((top + y) * WIDTH + left + x) * 4);
    }
  }
});

const out = new URL('../web/public/preview.png', import.meta.url);
writeFileSync(out, PNG.sync.write(png, { colorType: 2 }));
console.log(`wrote ${out.pathname}`);
