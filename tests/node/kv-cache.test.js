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

  // A step reuses the last step's reading of its options while they are the same settings
  // (kv-cache.js, stepReader): whatever changed since, in place or not, must be read again.
  it('reads again what changed since the last step: a list or params changed in place, a new option, q, out', () => {
    const cache = rp.kvCache({ heads, kvHeads, d });
    let k = rows(4, kvHeads * d, 1);
    let v = rows(4, kvHeads * d, 2);
    cache.append(k, v);
    const options = {
      scheme: 'rope',
      params: { d, base: 10000 },
      causal: true,
      weights: false,
      sinks: [0.1, -0.2, 0.3, 0],
    };
    // Each step's change; `n` query rows, `out` the index of the out array it writes into.
    const steps = [
      { change: () => {}, n: 2 },
      { change: () => (options.sinks[2] = 2), n: 2 },
      { change: () => (options.params.base = 500), n: 2 },
      { change: () => {}, n: 1 },
      { change: () => (options.slidingWindow = 3), n: 1 },
      { change: () => (options.sinks = [...options.sinks]), n: 2, out: 0 },
      { change: () => {}, n: 2, out: 1 },
      { change: () => delete options.slidingWindow, n: 2, out: 1 },
    ];
    const outs = [new Float32Array(2 * heads * d), new Float32Array(2 * heads * d)];
    steps.forEach(({ change, n, out }, step) => {
      change();
      const newK = rows(1, kvHeads * d, 20 + step);
      const newV = rows(1, kvHeads * d, 30 + step);
      cache.append(newK, newV);
      k = concat(k, newK);
      v = concat(v, newV);
      const q = rows(n, heads * d, 40 + step);
      const given = out === undefined ? options : { ...options, out: outs[out] };
      const got = cache.attention(q, given).output;
      const want = rp.attention({ q, k, v, heads, kvHeads, ...options }).output;
      expect(got.shape).toEqual(want.shape);
      expect(Buffer.from(got.data.buffer, got.data.byteOffset, got.data.byteLength)).toEqual(
        Buffer.from(want.data.buffer),
      );
      if (out !== undefined) expect(got.data).toBe(outs[out]);
    });
    // q is read at every step: one of another width is refused as it is at a first step.
    expect(() => cache.attention(rows(1, heads * d + 4, 50), { ...options, out: outs[1] })).toThrow(
      /relpos\.kvCache\.attention: q must be \[n, heads·d\] = \[n, 32\]/,
    );
    cache.free();
  });

  it("follows a layer group changed between steps (rp.fromConfig's are the caller's objects)", () => {
    const layer = rp.fromConfig({
      model_type: 'llama',
      hidden_size: 4 * d,
      num_attention_heads: heads,
      num_key_value_heads: kvHeads,
      rope_theta: 10000,
    }).groups[0];
    const cache = rp.kvCache({ layer, d });
    const k = rows(5, kvHeads * d, 3);
    const v = rows(5, kvHeads * d, 4);
    cache.append(k, v);
    const q = rows(1, heads * d, 5);
    const before = cache.attention(q, { weights: false }).output.data;
    layer.params.base = 7;
    const got = cache.attention(q, { weights: false }).output.data;
    const want = rp.attention({ q, k, v, layer, weights: false }).output.data;
    expect(Buffer.from(got.buffer)).toEqual(Buffer.from(want.buffer));
    expect(Buffer.from(got.buffer)).not.toEqual(Buffer.from(before.buffer));
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
