// rp.attention for real models (docs/api.md, "rp.attention"): grouped-query heads, masks, sliding
// windows, a custom scale, a batch dimension, output-only attention at any length (synchronous
// within the work budget, a job with progress and cancel beyond it, also in the worker), results
// into a caller's array, and the SIMD and scalar builds agreeing bit for bit on all of it. Each
// option is checked against the plain call it must equal; tests/node/reference-fixtures.test.js
// checks the same options against Hugging Face's eager attention.
import { describe, expect, it } from 'vitest';
import { load } from '../../bindings/index.js';
import { serve } from '../../bindings/worker.js';

const rp = await load();
const baseline = await load({ simd: false });

function tensor(shape, seed) {
  const size = shape.reduce((a, b) => a * b, 1);
  return { shape, data: Float32Array.from({ length: size }, (_, i) => Math.sin(seed * 1000 + i * 12.9898) * 1.5) };
}

/** Hugging Face's repeat_kv: kv head g repeated `group` times, consecutively. */
function repeatKv(t, kvHeads, group) {
  const [rows, width] = t.shape;
  const w = width / kvHeads;
  const out = new Float32Array(rows * width * group);
  for (let i = 0; i < rows; i++) {
    for (let h = 0; h < kvHeads * group; h++) {
      const g = Math.floor(h / group);
      out.set(t.data.subarray(i * width + g * w, i * width + (g + 1) * w), (i * kvHeads * group + h) * w);
    }
  }
  return { shape: [rows, width * group], data: out };
}

const maxDiff = (a, b) => a.reduce((worst, x, i) => Math.max(worst, Math.abs(x - b[i])), 0);

describe('grouped-query attention (kvHeads)', () => {
  it('equals attention on key and value heads repeated as repeat_kv does, bit for bit', () => {
    const q = tensor([9, 8 * 4], 1);
    const k = tensor([11, 2 * 4], 2);
    const v = tensor([11, 2 * 3], 3);
    const grouped = rp.attention({ q, k, v, heads: 8, kvHeads: 2, causal: true, scheme: 'rope' });
    const full = rp.attention({
      q,
      k: repeatKv(k, 2, 4),
      v: repeatKv(v, 2, 4),
      heads: 8,
      causal: true,
      scheme: 'rope',
    });
    expect(grouped.weights).toEqual(full.weights);
    expect(grouped.output).toEqual(full.output);
  });

  it('multi-query attention (kvHeads 1) and a bias scheme', () => {
    const q = tensor([6, 4 * 8], 4);
    const k = tensor([6, 8], 5);
    const mqa = rp.attention({ q, k, heads: 4, kvHeads: 1, scheme: 'alibi' });
    const full = rp.attention({ q, k: repeatKv(k, 1, 4), heads: 4, scheme: 'alibi' });
    expect(mqa.weights).toEqual(full.weights);
  });

  it('refuses kvHeads that do not divide heads, and k of the wrong width', () => {
    const q = tensor([4, 24], 6);
    expect(() => rp.attention({ q, k: tensor([4, 8], 7), heads: 6, kvHeads: 4 })).toThrow(
      /relpos\.attention: kvHeads \(4\) must divide heads \(6\)/,
    );
    expect(() => rp.attention({ q, k: tensor([4, 12], 7), heads: 6, kvHeads: 2 })).toThrow(
      /relpos\.attention: k must have kvHeads \* d = 8 columns \(d = 4 from q\), got 12/,
    );
  });
});

describe('masks', () => {
  const q = tensor([5, 16], 8);
  const k = tensor([7, 16], 9);
  const v = tensor([7, 6], 10);
  const keep = Array.from({ length: 5 }, (_, i) => Array.from({ length: 7 }, (_, j) => (i * 7 + j) % 3 !== 1));
  const additive = keep.map((row) => row.map((x) => (x ? 0 : -Infinity)));

  it('a boolean mask (true keeps) equals the additive mask of 0 and -Infinity, in every accepted form', () => {
    const fromAdditive = rp.attention({
      q,
      k,
      v,
      heads: 2,
      mask: { shape: [5, 7], data: additive.flat(), kind: 'additive' },
    });
    for (const mask of [
      keep,
      { shape: [5, 7], data: keep.flat() },
      { shape: [5, 7], data: Uint8Array.from(keep.flat(), Number) },
      { shape: [5, 7], data: Float32Array.from(keep.flat(), Number), kind: 'boolean' },
    ]) {
      const got = rp.attention({ q, k, v, heads: 2, mask });
      expect(got).toEqual(fromAdditive);
    }
    // Masked keys get exactly 0.
    const { weights } = fromAdditive;
    for (let t = 0; t < weights.data.length; t++) if (!keep.flat()[t % 35]) expect(weights.data[t]).toBe(0);
  });

  it('an additive mask adds to the logits like a given bias B; per head [heads, n, m]', () => {
    const B = tensor([2, 5, 7], 11);
    expect(rp.attention({ q, k, heads: 2, mask: { ...B, kind: 'additive' } }).weights).toEqual(
      rp.attention({ q, k, heads: 2, B }).weights,
    );
  });

  it('a row whose every key is masked has zero weights and a zero output', () => {
    const none = keep.map((row, i) => (i === 2 ? row.map(() => false) : row));
    const { weights, output } = rp.attention({ q, k, v, heads: 2, mask: none });
    for (let h = 0; h < 2; h++) {
      expect(Array.from(weights.data.subarray((h * 5 + 2) * 7, (h * 5 + 3) * 7))).toEqual(Array(7).fill(0));
    }
    expect(Array.from(output.data.subarray(12, 18))).toEqual(Array(6).fill(0));
  });

  it('refuses a mask of the wrong shape or kind, with the shape it got', () => {
    expect(() => rp.attention({ q, k, mask: { shape: [7, 5], data: new Float32Array(35) } })).toThrow(
      /relpos\.attention: mask must have shape \[n, m\] = \[5, 7\].*got \[7, 5\]/,
    );
    expect(() => rp.attention({ q, k, mask: { shape: [5, 7], data: new Float32Array(35), kind: 'soft' } })).toThrow(
      /mask\.kind must be 'boolean' or 'additive'/,
    );
  });
});

describe('sliding windows and scale', () => {
  const q = tensor([12, 8], 12);
  const k = tensor([12, 8], 13);
  const v = tensor([12, 4], 14);

  it('slidingWindow w keeps keys with 0 <= i + queryOffset - j < w (with causal), as the equivalent mask', () => {
    for (const [n, queryOffset] of [
      [12, 0],
      [3, 9],
    ]) {
      const qn = { shape: [n, 8], data: q.data.subarray(0, n * 8) };
      const mask = Array.from({ length: n }, (_, i) =>
        Array.from({ length: 12 }, (_, j) => i + queryOffset - j >= 0 && i + queryOffset - j < 4),
      );
      const windowed = rp.attention({ q: qn, k, v, causal: true, slidingWindow: 4, queryOffset, scheme: 'alibi' });
      const masked = rp.attention({ q: qn, k, v, mask, queryOffset, scheme: 'alibi' });
      expect(maxDiff(windowed.weights.data, masked.weights.data)).toBeLessThan(1e-7);
      expect(maxDiff(windowed.output.data, masked.output.data)).toBeLessThan(1e-6);
    }
  });

  it('without causal a window keeps |i + queryOffset - j| < w', () => {
    const mask = Array.from({ length: 12 }, (_, i) => Array.from({ length: 12 }, (_, j) => Math.abs(i - j) < 3));
    const windowed = rp.attention({ q, k, slidingWindow: 3 }).weights;
    expect(maxDiff(windowed.data, rp.attention({ q, k, mask }).weights.data)).toBeLessThan(1e-7);
  });

  it('scale replaces 1/sqrt(d): scale s equals the default on queries multiplied by s·sqrt(d)', () => {
    const scaled = { shape: q.shape, data: q.data.map((x) => x * 0.3 * Math.sqrt(8)) };
    expect(
      maxDiff(rp.attention({ q, k, scale: 0.3 }).weights.data, rp.attention({ q: scaled, k }).weights.data),
    ).toBeLessThan(1e-6);
    // CoPE computes its logits itself and declares its own scale (the gates'): that parameter goes
    // under params; scale beside q and k is rp.attention's option, which does not apply to CoPE.
    const cope = (options) => rp.attention({ q, k, scheme: 'cope', causal: true, ...options }).weights.data;
    expect(() => cope({ scale: 2 })).toThrow(/scale does not apply to scheme 'cope'.*params: \{ scale \}/);
    expect(maxDiff(cope({ params: { scale: 2 } }), cope({}))).toBeGreaterThan(1e-4);
  });
});

describe('a batch dimension', () => {
  it('[batch, n, heads·d] equals one call per sequence, with per-sequence masks [batch, 1, n, m]', () => {
    const q = tensor([3, 5, 16], 15);
    const k = tensor([3, 6, 8], 16);
    const v = tensor([3, 6, 8], 17);
    const mask = { shape: [3, 1, 5, 6], data: Float32Array.from({ length: 90 }, (_, t) => (t % 7 === 3 ? 0 : 1)) };
    const batched = rp.attention({ q, k, v, heads: 4, kvHeads: 2, mask, causal: true, scheme: 'rope' });
    expect(batched.weights.shape).toEqual([3, 4, 5, 6]);
    expect(batched.output.shape).toEqual([3, 5, 16]);
    for (let b = 0; b < 3; b++) {
      const slice = (t, rows, width) => ({
        shape: [rows, width],
        data: t.data.subarray(b * rows * width, (b + 1) * rows * width),
      });
      const one = rp.attention({
        q: slice(q, 5, 16),
        k: slice(k, 6, 8),
        v: slice(v, 6, 8),
        heads: 4,
        kvHeads: 2,
        mask: slice(mask, 5, 6),
        causal: true,
        scheme: 'rope',
      });
      expect(batched.weights.data.subarray(b * 120, (b + 1) * 120)).toEqual(one.weights.data);
      expect(batched.output.data.subarray(b * 80, (b + 1) * 80)).toEqual(one.output.data);
    }
  });

  it('refuses k or v without the batch of q', () => {
    expect(() => rp.attention({ q: tensor([2, 3, 4], 1), k: tensor([3, 3, 4], 2) })).toThrow(
      /relpos\.attention: k must have the rank and batch of q \[2, 3, 4\], got \[3, 3, 4\]/,
    );
  });
});

describe('output only (weights: false)', () => {
  it('equals the output of the full call for every kind of term, range and grouping', () => {
    const cases = [
      { scheme: 'alibi', causal: true },
      { scheme: 'rope', slidingWindow: 40 },
      { scheme: 'fire', causal: true }, // a bias filled per block of rows
      { scheme: 't5' },
      { scheme: 'shaw', clip: 4 }, // a pair table with value vectors: the block path
      { scheme: 'cope', causal: true }, // the scheme's own logits
      { B: tensor([300, 300], 20), kvHeads: 1 },
    ];
    const q = tensor([300, 2 * 16], 21);
    const k = tensor([300, 2 * 16], 22);
    const v = tensor([300, 2 * 8], 23);
    for (const options of cases) {
      const kv = options.kvHeads
        ? {
            k: { shape: [300, 16], data: k.data.subarray(0, 4800) },
            v: { shape: [300, 8], data: v.data.subarray(0, 2400) },
          }
        : { k, v };
      const full = rp.attention({ q, ...kv, heads: 2, ...options });
      const only = rp.attention({ q, ...kv, heads: 2, ...options, weights: false });
      // The same result less the weights (notes such as `synthetic` stay).
      expect(Object.keys(only)).toEqual(Object.keys(full).filter((key) => key !== 'weights'));
      expect(maxDiff(only.output.data, full.output.data), JSON.stringify(Object.keys(options))).toBeLessThan(2e-6);
    }
  });

  it('runs where the weights could never be held: n = 16,384 with 2 heads is 2 GiB of weights', () => {
    const n = 16384;
    const q = tensor([n, 2 * 8], 24);
    const v = tensor([n, 2 * 4], 25);
    expect(() => rp.attention({ q, k: q, v, heads: 2, causal: true })).toThrow(RangeError);
    const { output } = rp.attention({ q, k: q, v, heads: 2, causal: true, weights: false, scheme: 'alibi' });
    expect(output.shape).toEqual([n, 8]);
    // Spot check the last row of head 1 against a float64 computation.
    const i = n - 1;
    const slope = 2 ** -4; // ALiBi, two heads: slopes 2^-4, 2^-8
    const logits = [];
    for (let j = 0; j <= i; j++) {
      let dot = 0;
      for (let c = 0; c < 8; c++) dot += q.data[i * 16 + 8 + c] * q.data[j * 16 + 8 + c];
      logits.push(dot / Math.sqrt(8) - (slope / 16) * (i - j));
    }
    const top = Math.max(...logits);
    const w = logits.map((l) => Math.exp(l - top));
    const sum = w.reduce((a, b) => a + b, 0);
    for (let c = 0; c < 4; c++) {
      const want = w.reduce((acc, x, j) => acc + (x / sum) * v.data[j * 8 + 4 + c], 0);
      expect(output.data[i * 8 + 4 + c]).toBeCloseTo(want, 5);
    }
  });

  it('beyond the synchronous budget it names rp.attentionAsync, which runs it with progress and cancel', async () => {
    const n = 16384; // 16,384² keys × (64 + 64) = 2^35 multiply-adds
    const q = tensor([n, 64], 26);
    const v = tensor([n, 64], 27);
    expect(() => rp.attention({ q, k: q, v, weights: false })).toThrow(
      /over the synchronous budget of 2\^34.*rp\.attentionAsync/,
    );
    const controller = new AbortController();
    const seen = [];
    const job = rp.attentionAsync({
      q,
      k: q,
      v,
      weights: false,
      onProgress: (p) => {
        seen.push(p);
        if (seen.length === 2) controller.abort();
      },
      signal: controller.signal,
    });
    await expect(job).rejects.toThrow(/abort/i);
    expect(seen[0]).toBeGreaterThan(0);
    expect(seen[1]).toBeGreaterThan(seen[0]);
  }, 30000);

  it('rp.attentionAsync gives what rp.attention gives, also in the worker', async () => {
    const q = tensor([70, 24], 28);
    const v = tensor([70, 12], 29);
    const options = { q, k: q, v, heads: 3, scheme: 'alibi', causal: true };
    const sync = rp.attention(options);
    const progress = [];
    expect(await rp.attentionAsync({ ...options, onProgress: (p) => progress.push(p) })).toEqual(sync);
    expect(progress.at(-1)).toBe(1);
    // The worker's protocol in-process: attentionAsync with progress, the result transferred.
    const replies = [];
    const scope = { postMessage: (message) => replies.push(structuredClone(message)), close() {} };
    serve(scope, { loadCore: () => rp });
    scope.onmessage({
      data: structuredClone({
        type: 'call',
        id: 1,
        method: 'attentionAsync',
        args: [{ ...options, __relposControl: true }],
      }),
    });
    while (!replies.some((r) => r.type === 'result' || r.type === 'error')) {
      await new Promise((wake) => setTimeout(wake, 5));
    }
    expect(replies.some((r) => r.type === 'progress')).toBe(true);
    expect(replies.find((r) => r.type === 'result').result).toEqual(sync);
  });
});

describe("results into the caller's array (out)", () => {
  const q = tensor([6, 8], 30);
  const v = tensor([6, 4], 31);

  it('fills out with the weights and returns it; with weights: false out receives the output', () => {
    const out = new Float32Array(2 * 36);
    const result = rp.attention({ q, k: q, v, heads: 2, out });
    expect(result.weights.data).toBe(out);
    expect(result).toEqual(rp.attention({ q, k: q, v, heads: 2 }));
    const outputOnly = new Float32Array(6 * 4);
    expect(rp.attention({ q, k: q, v, heads: 2, weights: false, out: outputOnly }).output.data).toBe(outputOnly);
  });

  it('refuses an out of the wrong length or type, and out with view', () => {
    expect(() => rp.attention({ q, k: q, out: new Float32Array(35) })).toThrow(
      /relpos\.attention: out must be a Float32Array of 36 values for the weights, got 35/,
    );
    expect(() => rp.attention({ q, k: q, out: new Float64Array(36) })).toThrow(TypeError);
    expect(() => rp.attention({ q, k: q, out: new Float32Array(36), view: true })).toThrow(
      /out and view exclude each other/,
    );
  });
});

describe('one computation, whatever the path', () => {
  const q = tensor([70, 2 * 16], 32);
  const k = tensor([90, 2 * 16], 33);
  const v = tensor([90, 2 * 8], 34);

  it('a scheme bias computed from its profile equals the same bias given as B, bit for bit', () => {
    for (const scheme of ['alibi', 'kerple-log', 't5', 'sandwich']) {
      const B = rp.bias(scheme, { n: 90, heads: 2 });
      // The last 70 queries of 90 keys: rows 20 .. 89 of the square bias.
      const rows = { shape: [2, 70, 90], data: new Float32Array(2 * 70 * 90) };
      for (let h = 0; h < 2; h++) rows.data.set(B.data.subarray((h * 90 + 20) * 90, (h + 1) * 90 * 90), h * 70 * 90);
      expect(rp.attention({ q, k, v, heads: 2, scheme }).weights, scheme).toEqual(
        rp.attention({ q, k, v, heads: 2, B: rows }).weights,
      );
    }
  });

  // Long enough that a given tensor crosses the binding's copy chunks (32,768 floats): B [2, 300, 300]
  // is 180,000 values.
  it('a given B of several copy chunks equals the scheme bias (ALiBi), bit for bit, in both builds', () => {
    const n = 300;
    const long = { q: tensor([n, 2 * 16], 36), k: tensor([n, 2 * 16], 37), heads: 2 };
    const B = rp.bias('alibi', { n, heads: 2 });
    expect(B.shape).toEqual([2, n, n]);
    // The index of the first float whose bits differ (-1: none); toEqual is slow on 180,000 values.
    const firstDifference = (a, b) => {
      const x = new Uint32Array(a.buffer, a.byteOffset, a.length);
      const y = new Uint32Array(b.buffer, b.byteOffset, b.length);
      return a.length !== b.length ? 0 : x.findIndex((bits, i) => bits !== y[i]);
    };
    for (const build of [rp, baseline]) {
      const scheme = build.attention({ ...long, scheme: 'alibi' }).weights;
      const given = build.attention({ ...long, B }).weights;
      expect(given.shape).toEqual(scheme.shape);
      expect(firstDifference(given.data, scheme.data)).toBe(-1);
      const view = build.attention({ ...long, B, view: true }).weights;
      expect(firstDifference(view.data, scheme.data)).toBe(-1);
    }
  });

  it('a given B or additive mask holds finite numbers or -Infinity, wherever the bad value is', () => {
    const n = 300;
    const long = { q: tensor([n, 16], 38), k: tensor([n, 16], 39) };
    const plain = rp.attention(long).weights.data;
    // First and last entry, and either side of a copy-chunk boundary.
    for (const at of [0, 32767, 32768, 65535, n * n - 1]) {
      const i = Math.floor(at / n);
      const j = at % n;
      for (const build of [rp, baseline]) {
        for (const [bad, shown] of [
          [NaN, 'NaN'],
          [Infinity, 'Infinity'],
        ]) {
          const data = new Float32Array(n * n);
          data[at] = bad;
          for (const [name, given] of [
            ['B', { B: { shape: [n, n], data } }],
            ['mask', { mask: { shape: [n, n], data, kind: 'additive' } }],
          ]) {
            expect(() => build.attention({ ...long, ...given }), `${name} at ${at}`).toThrow(RangeError);
            expect(() => build.attention({ ...long, ...given }), `${name} at ${at}`).toThrow(
              `relpos.attention: ${name} must hold finite numbers or -Infinity, got ${shown}`,
            );
          }
        }
        // -Infinity masks that pair: its weight is 0 and the rest of row i is renormalised.
        const data = new Float32Array(n * n);
        data[at] = -Infinity;
        const w = build.attention({ ...long, B: { shape: [n, n], data } }).weights.data;
        expect(w[at]).toBe(0);
        const row = (weights) => weights.subarray(i * n, (i + 1) * n);
        const kept = 1 - plain[at];
        expect(
          maxDiff(
            row(w),
            row(plain).map((x, c) => (c === j ? 0 : x / kept)),
          ),
        ).toBeLessThan(1e-6);
      }
    }
  });

  it('q, k and v hold finite numbers, wherever the bad value is', () => {
    const n = 600;
    for (const name of ['q', 'k', 'v']) {
      for (const at of [0, 32768, n * 64 - 1]) {
        const given = { q: tensor([n, 64], 40), k: tensor([n, 64], 41), v: tensor([n, 64], 42) };
        given[name].data[at] = NaN;
        expect(() => rp.attention(given), `${name} at ${at}`).toThrow(
          `relpos.attention: ${name} must hold finite numbers, got NaN`,
        );
      }
    }
  });

  it('copied, zero-copy and job results are equal, and the SIMD and scalar builds agree bit for bit', async () => {
    for (const options of [
      { scheme: 'alibi', causal: true },
      {
        scheme: 'rope',
        kvHeads: 1,
        k: { shape: [90, 16], data: k.data.subarray(0, 1440) },
        v: { shape: [90, 8], data: v.data.subarray(0, 720) },
      },
      { scheme: 'fire', slidingWindow: 9, causal: true },
      { mask: { ...tensor([70, 90], 35), kind: 'additive' }, scale: 0.2 },
    ]) {
      const call = { q, k, v, heads: 2, ...options };
      const copied = rp.attention(call);
      const view = rp.attention({ ...call, view: true });
      expect({
        ...view,
        weights: { shape: view.weights.shape, data: view.weights.data.slice() },
        output: { shape: view.output.shape, data: view.output.data.slice() },
      }).toEqual(copied);
      expect(await rp.attentionAsync(call)).toEqual(copied);
      expect(baseline.attention(call)).toEqual(copied);
      expect(baseline.attention({ ...call, weights: false })).toEqual(rp.attention({ ...call, weights: false }));
    }
  });

  it('leaves the wasm heap as it found it, failing calls included', () => {
    const calls = [
      () => rp.attention({ q, k, v, heads: 2, scheme: 'alibi', causal: true }),
      () => rp.attention({ q, k, v, heads: 2, weights: false, slidingWindow: 5, causal: true }),
      () => rp.attention({ q, k, v, heads: 2, mask: { shape: [70, 90], data: new Float32Array(6300) } }),
      () => rp.attention({ q, k, v, heads: 2, out: new Float32Array(3) }),
      () => rp.attention({ q, k, v, heads: 2, B: { shape: [70, 90], data: new Float32Array(6300).fill(NaN) } }),
      () => rp.attention({ q, k, v, heads: 2, B: { shape: [2, 70, 90], data: new Float32Array(12600).fill(-1) } }),
      () => rp.attention({ q, k, v, heads: 3 }),
    ];
    const runAll = () =>
      calls.forEach((call) => {
        try {
          call();
        } catch {
          /* expected for some */
        }
      });
    runAll();
    const before = rp.heapInUse();
    for (let round = 0; round < 20; round++) runAll();
    expect(rp.heapInUse()).toBe(before);
  });
});
