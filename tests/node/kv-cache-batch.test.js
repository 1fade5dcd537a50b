// rp.kvCache({ batch }) (docs/api.md, "rp.kvCache"): sequences of their own
// lengths and left padding in Hugging Face's cache layout [batch, kvHeads, rows, d], one call a step
// for the whole batch; each sequence's rows equal, bit for bit, the same sequence run alone in a
// cache of its own, and a padding row is zeros.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { load } from '../../bindings/index.js';
import { unwrap } from '../../bindings/errors.js';
import { createKvCache } from '../../bindings/kv-cache.js';
import { instantiate, memoryOf } from '../../bindings/loading.js';
import { values } from './kv-fixture.js';

const rp = await load();

const hf = (batch, heads, rows, width, seed) => ({
  shape: [batch, heads, rows, width],
  data: values(batch * heads * rows * width, seed),
});
// Sequence b's rows from..rows−1 of a [batch, heads, rows, width] tensor as [count, heads·width].
function rowsOf(t, b, from) {
  const [, heads, rows, width] = t.shape;
  const out = new Float32Array((rows - from) * heads * width);
  for (let i = from; i < rows; i++) {
    for (let h = 0; h < heads; h++) {
      const at = ((b * heads + h) * rows + i) * width;
      out.set(t.data.subarray(at, at + width), ((i - from) * heads + h) * width);
    }
  }
  return { shape: [rows - from, heads * width], data: out };
}

const OPTIONS = [
  { causal: true },
  { scheme: 'rope', causal: true },
  { scheme: 'rope', causal: true, slidingWindow: 3, sinks: [0.5, -1, 0.25, 2] },
  { scheme: 'alibi', causal: true },
];

describe('rp.kvCache({ batch })', () => {
  it('each sequence, with its own left padding and length, equals the same sequence alone, bit for bit', () => {
    const [heads, kvHeads, d] = [4, 2, 6];
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 3 }),
        fc.integer({ min: 1, max: 6 }),
        fc.array(fc.integer({ min: 1, max: 2 }), { minLength: 1, maxLength: 3 }),
        fc.nat({ max: OPTIONS.length - 1 }),
        fc.array(fc.nat({ max: 5 }), { minLength: 3, maxLength: 3 }),
        fc.integer({ min: 1, max: 1e6 }),
        (batch, prompt, steps, which, padsDrawn, seed) => {
          const options = OPTIONS[which];
          const pads = padsDrawn.slice(0, batch).map((p) => Math.min(p, prompt - 1));
          const cache = rp.kvCache({ heads, kvHeads, d, batch });
          const alone = Array.from({ length: batch }, () => rp.kvCache({ heads, kvHeads, d }));
          try {
            [prompt, ...steps].forEach((rows, s) => {
              const k = hf(batch, kvHeads, rows, d, seed + 10 * s);
              const v = hf(batch, kvHeads, rows, d, seed + 10 * s + 1);
              const q = hf(batch, heads, rows, d, seed + 10 * s + 2);
              const padOf = (b) => (s === 0 ? pads[b] : 0);
              const mask = {
                shape: [batch, rows],
                data: Float32Array.from({ length: batch * rows }, (_, t) =>
                  t % rows < padOf(Math.floor(t / rows)) ? 0 : 1,
                ),
              };
              cache.append(k, v, mask);
              const got = cache.attention(q, { ...options, weights: false }).output;
              expect(got.shape).toEqual([batch, heads, rows, d]);
              for (let b = 0; b < batch; b++) {
                alone[b].append(rowsOf(k, b, padOf(b)), rowsOf(v, b, padOf(b)));
                const want = alone[b].attention(rowsOf(q, b, padOf(b)), { ...options, weights: false }).output.data;
                const mine = rowsOf({ ...got, data: got.data }, b, 0).data;
                const width = heads * d;
                expect(Array.from(mine.subarray(0, padOf(b) * width)).every((x) => x === 0)).toBe(true);
                expect(Buffer.from(mine.subarray(padOf(b) * width).slice().buffer)).toEqual(
                  Buffer.from(want.slice().buffer),
                );
              }
              expect(cache.lengths).toEqual(alone.map((c) => c.length));
            });
          } finally {
            cache.free();
            for (const c of alone) c.free();
          }
        },
      ),
      { numRuns: 40 },
    );
  }, 60000);

  it('runs a step of every sequence in one core call', async () => {
    const core = await instantiate('core', true);
    const calls = [];
    // The core's module as the cache sees it, with every step call it makes recorded.
    const counted = new Proxy(core, {
      get(target, name) {
        const value = target[name];
        if (typeof name !== 'string' || !/^kvCache.*Attention$/.test(name)) return value;
        return (...args) => {
          calls.push(name);
          return value.apply(target, args);
        };
      },
    });
    const deps = { core: counted, memory: memoryOf(core), bounded: false, unwrap };
    const [batch, heads, kvHeads, d] = [3, 4, 2, 8];
    const cache = createKvCache({ heads, kvHeads, d, batch }, deps);
    const alone = Array.from({ length: batch }, () => createKvCache({ heads, kvHeads, d }, deps));
    try {
      const mask = {
        shape: [batch, 5],
        data: Float32Array.from({ length: 15 }, (_, t) => (t % 5 < Math.floor(t / 5) ? 0 : 1)),
      };
      cache.append(hf(batch, kvHeads, 5, d, 1), hf(batch, kvHeads, 5, d, 2), mask);
      const q = hf(batch, heads, 5, d, 3);
      const got = cache.attention(q, { scheme: 'rope', causal: true }).output.data;
      expect(calls).toEqual(['kvCacheBatchAttention']);
      // Still each sequence alone, bit for bit (its own calls, one each).
      alone.forEach((c, b) => {
        c.append(rowsOf(hf(batch, kvHeads, 5, d, 1), b, b), rowsOf(hf(batch, kvHeads, 5, d, 2), b, b));
        const want = c.attention(rowsOf(q, b, b), { scheme: 'rope', causal: true, weights: false }).output.data;
        const mine = rowsOf({ shape: [batch, heads, 5, d], data: got }, b, b).data;
        expect(Buffer.from(mine.slice().buffer)).toEqual(Buffer.from(want.slice().buffer));
      });
    } finally {
      cache.free();
      for (const c of alone) c.free();
    }
  });

  it('refuses padding after a token, a q that is not the last append’s tokens, and options it cannot honour', () => {
    const cache = rp.kvCache({ heads: 2, kvHeads: 1, d: 4, batch: 2 });
    const k = hf(2, 1, 3, 4, 1);
    expect(() => cache.append(k, k, { shape: [2, 3], data: [1, 0, 1, 1, 1, 1] })).toThrow(
      /relpos\.kvCache\.append: mask row 0 must be left padding/,
    );
    cache.append(k, k, { shape: [2, 3], data: [0, 1, 1, 1, 1, 1] });
    expect(cache.lengths).toEqual([2, 3]);
    expect(() => cache.append(k, k, { shape: [2, 3], data: [0, 1, 1, 1, 1, 1] })).toThrow(
      /sequence 0 already holds tokens/,
    );
    expect(() => cache.attention(hf(2, 2, 1, 4, 2))).toThrow(/q must hold the 3 tokens of the last append/);
    expect(() => cache.attention(hf(2, 2, 3, 4, 2), { mask: [[1]] })).toThrow(/mask is not taken by a batched cache/);
    expect(() => cache.attention(hf(2, 2, 3, 4, 2), { weights: true })).toThrow(/returns the output only/);
    expect(() => cache.append({ shape: [2, 3, 4], data: new Float32Array(24) }, k)).toThrow(
      /k must be \[batch, kvHeads, rows, d\] = \[2, 1, rows, 4\]/,
    );
    expect(() => rp.kvCache({ heads: 2, d: 4, batch: 0 })).toThrow(/batch must be an integer in \[1, 4096\]/);
    cache.free();
  });
});
