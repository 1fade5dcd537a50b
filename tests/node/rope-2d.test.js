// rope-2d through the public API (docs/rotary.md): scores depend only on the grid offset (dx, dy),
// positions may be given as (x, y), and the lab trains with it.
import { describe, expect, it } from 'vitest';
import { load } from '../../bindings/index.js';
import { expectTrainsInTheLab } from './schemes.js';

const rp = await load();
const width = 4;
const dx = (i, j) => (j % width) - (i % width);
const dy = (i, j) => Math.floor(j / width) - Math.floor(i / width);

describe('rope-2d', () => {
  it('is an axial rotary scheme: width, base 100, interleaved pairs by default', () => {
    const info = rp.schemes.find((s) => s.id === 'rope-2d');
    expect(info.params.width.default).toBe(8);
    expect(info.params.base.default).toBe(100);
    expect(info.params.layout.default).toBe('interleaved');
    expect(info.cite).toMatch(/arXiv:2403\.13298/);
  });

  it('scores depend on (dx, dy) only, not on j − i alone', () => {
    const n = 24;
    const q = Array.from({ length: 16 }, (_, c) => Math.cos(0.7 * c));
    const k = Array.from({ length: 16 }, (_, c) => Math.sin(1.9 * c + 0.2));
    const s = rp.scores('rope-2d', { n, d: 16, width, q, k }).data;
    const byOffset = new Map();
    let sameDistanceOtherOffset = 0;
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) {
        const key = `${dx(i, j)},${dy(i, j)}`;
        if (!byOffset.has(key)) byOffset.set(key, s[i * n + j]);
        expect(Math.abs(s[i * n + j] - byOffset.get(key))).toBeLessThan(1e-5);
      }
    }
    for (let i = 0; i + 5 < n; i++) {
      // j − i = 3 crosses a row boundary or not, depending on the column of i
      if (dx(i, i + 3) !== dx(i + 1, i + 4) && Math.abs(s[i * n + i + 3] - s[(i + 1) * n + i + 4]) > 1e-3) {
        sameDistanceOtherOffset++;
      }
    }
    expect(sameDistanceOtherOffset).toBeGreaterThan(0);
  });

  it('takes positions as (x, y) rows', () => {
    const x = { shape: [3, 8], data: Float32Array.from({ length: 24 }, (_, i) => Math.sin(i)) };
    const flat = rp.rotate(x, { scheme: 'rope-2d', width, positions: [0, 6, 11] });
    const grid = rp.rotate(x, {
      scheme: 'rope-2d',
      width,
      positions: [
        [0, 0],
        [2, 1],
        [3, 2],
      ],
    });
    expect(Array.from(grid.data)).toEqual(Array.from(flat.data));
  });

  it('trains in the lab', () => expectTrainsInTheLab(rp, 'rope-2d'));
});
