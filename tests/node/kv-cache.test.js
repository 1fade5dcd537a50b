// rp.kvCache (docs/api.md): keys and values stay in the wasm heap; a step appends only the new
// rows, and attention over the cache equals rp.attention over the same keys handed over whole.
import { describe, expect, it } from 'vitest';
import { load } from '../../bindings/index.js';

const rp = await load();
const rows = (count, width, seed) => ({
  shape: [count, width],
  data: Float32Array.from({ length: count * width }, (_, i) => Math.fround(Math.sin(seed * (i + 1)))),
});
const concat = (a, b) => {
  const data = new Float32Array(a.data.length + b.data.length);
  data.set(a.data);
  data.set(b.data, a.data.length);
  return { shape: [a.shape[0] + b.shape[0], a.shape[1]], data };
};

describe('rp.kvCache', () => {
  const [heads, kvHeads, d] = [4, 2, 8];
  for (const [label, options] of [
    ['plain, causal', { causal: true }],
    ['RoPE with a window', { scheme: 'rope', causal: true, slidingWindow: 5 }],
    ['ALiBi, output only', { scheme: 'alibi', causal: true, weights: false }],
    ['sinks and soft-cap', { causal: true, sinks: [0.1, -0.2, 0.3, 0], softcap: 5 }],
  ]) {
    it(`${label}: every decode step equals rp.attention over all keys`, () => {
      const cache = rp.kvCache({ heads, kvHeads, d });
      let k = rows(6, kvHeads * d, 1);
      let v = rows(6, kvHeads * d, 2);
      expect(cache.append(k, v)).toBe(6);
      for (let step = 0; step < 4; step++) {
        const q = rows(2, heads * d, 10 + step);
        const newK = rows(2, kvHeads * d, 20 + step);
        const newV = rows(2, kvHeads * d, 30 + step);
        cache.append(newK, newV);
        k = concat(k, newK);
        v = concat(v, newV);
        expect(cache.length).toBe(k.shape[0]);
        const got = cache.attention(q, options);
        const want = rp.attention({ q, k, v, heads, kvHeads, ...options });
        expect(Object.keys(got).sort()).toEqual(Object.keys(want).sort());
        for (const part of Object.keys(want)) {
          expect(got[part].shape).toEqual(want[part].shape);
          expect(Array.from(got[part].data)).toEqual(Array.from(want[part].data));
        }
      }
      cache.free();
      expect(() => cache.attention(rows(1, heads * d, 1))).toThrow(/this cache was freed/);
    });
  }

  it('a layer group sets heads, kvHeads and the layer options', () => {
    const layer = rp.presets.find((p) => p.id === 'qwen3-8b').groups[0];
    const cache = rp.kvCache({ layer, d: 128 });
    const k = rows(5, 8 * 128, 3);
    const v = rows(5, 8 * 128, 4);
    cache.append(k, v);
    const q = rows(1, 32 * 128, 5);
    const want = rp.attention({ q, k, v, layer });
    expect(Array.from(cache.attention(q).weights.data)).toEqual(Array.from(want.weights.data));
    cache.free();
  });

  it('refuses what does not fit, naming it', () => {
    const cache = rp.kvCache({ heads, kvHeads, d });
    expect(() => cache.attention(rows(1, heads * d, 1))).toThrow(/the cache is empty/);
    expect(() => cache.append(rows(2, 3, 1), rows(2, kvHeads * d, 1))).toThrow(
      /relpos\.kvCache\.append: k and v must be \[rows, 16\] and \[rows, 16\]/,
    );
    const bad = rows(1, kvHeads * d, 1);
    bad.data[3] = NaN;
    expect(() => cache.append(bad, rows(1, kvHeads * d, 1))).toThrow(RangeError);
    expect(cache.length).toBe(0);
    cache.append(rows(3, kvHeads * d, 1), rows(3, kvHeads * d, 2));
    expect(() => cache.attention(rows(1, heads * d, 1), { k: rows(1, 16, 1) })).toThrow(/k is the cache's own/);
    expect(() => rp.kvCache({ heads: 4, kvHeads: 3, d: 8 })).toThrow(/kvHeads \(3\) must divide heads \(4\)/);
    expect(() => rp.kvCache({ heads: 4, d: 8, size: 2 })).toThrow(/unknown option 'size'/);
    cache.free();
  });
});
