// rp.attentionMap: pooled long-context maps with exact row normalisation, progress and cancellation.
import { describe, expect, it } from 'vitest';
import { load } from '../../bindings/index.js';

const rp = await load();

// Pools the full [n, n] weights of rp.attention over size x size tiles.
function pooled(weights, n, size, pool) {
  const out = new Float64Array(size * size);
  for (let a = 0; a < size; a++) {
    for (let b = 0; b < size; b++) {
      const [i0, i1, j0, j1] = [
        Math.floor((a * n) / size),
        Math.floor(((a + 1) * n) / size),
        Math.floor((b * n) / size),
        Math.floor(((b + 1) * n) / size),
      ];
      let acc = 0;
      for (let i = i0; i < i1; i++) {
        for (let j = j0; j < j1; j++) {
          acc = pool === 'max' ? Math.max(acc, weights[i * n + j]) : acc + weights[i * n + j];
        }
      }
      out[a * size + b] = pool === 'max' ? acc : acc / ((i1 - i0) * (j1 - j0));
    }
  }
  return out;
}

describe('rp.attentionMap', () => {
  it('equals the pooled full attention weights (position-only ALiBi, both pools, causal or not)', async () => {
    const n = 96;
    const zeros = { shape: [n, 8], data: new Float32Array(n * 8) };
    for (const causal of [false, true]) {
      const full = rp.attention({ q: zeros, k: zeros, scheme: 'alibi', heads: 2, causal }).weights.data.subarray(n * n);
      for (const pool of ['max', 'mean']) {
        const map = await rp.attentionMap({ n, scheme: 'alibi', heads: 2, head: 1, size: 12, pool, causal });
        expect(map.shape).toEqual([12, 12]);
        const want = pooled(full, n, 12, pool);
        map.data.forEach((v, t) => expect(v).toBeCloseTo(want[t], 6));
      }
    }
  });

  // xPos without causal grows towards far keys: late rows see only logits far below the profile's
  // top, beyond what one shared profile holds in float, so the map is made row by row.
  it('equals the pooled full attention weights for xPos without causal (logits spanning far beyond e^80)', async () => {
    const n = 2100;
    const ones = { shape: [n, 8], data: new Float32Array(n * 8).fill(1) };
    const full = rp.attention({ q: ones, k: ones, scheme: 'xpos' }).weights.data;
    const map = await rp.attentionMap({ n, scheme: 'xpos', d: 8, size: 100 });
    const want = pooled(full, n, 100, 'max');
    map.data.forEach((v, t) => {
      expect(v).toBeGreaterThanOrEqual(0);
      expect(v).toBeCloseTo(want[t], 5);
    });
  });

  it('with given q and k equals pooled RoPE attention', async () => {
    const n = 64;
    const d = 16;
    const q = { shape: [n, d], data: Float32Array.from({ length: n * d }, (_, i) => Math.sin(i * 0.37)) };
    const k = { shape: [n, d], data: Float32Array.from({ length: n * d }, (_, i) => Math.cos(i * 0.11)) };
    const full = rp.attention({ q, k, scheme: 'rope', causal: true }).weights.data;
    const map = await rp.attentionMap({ n, d, q, k, scheme: 'rope', size: 16, pool: 'mean', causal: true });
    const want = pooled(full, n, 16, 'mean');
    map.data.forEach((v, t) => expect(v).toBeCloseTo(want[t], 6));
  });

  it('with given q and k equals pooled attention by max over uneven tiles, with or without causal', async () => {
    const n = 150; // 7 tiles of 21 or 22 keys: every tile ends inside a four-lane step
    const d = 8;
    const q = { shape: [n, d], data: Float32Array.from({ length: n * d }, (_, i) => 2 * Math.sin(i * 0.71)) };
    const k = { shape: [n, d], data: Float32Array.from({ length: n * d }, (_, i) => 2 * Math.cos(i * 0.23)) };
    for (const causal of [false, true]) {
      const full = rp.attention({ q, k, causal }).weights.data;
      for (const pool of ['max', 'mean']) {
        const map = await rp.attentionMap({ n, d, q, k, size: 7, pool, causal });
        const want = pooled(full, n, 7, pool);
        map.data.forEach((v, t) => expect(v).toBeCloseTo(want[t], 6));
      }
    }
  });

  it('rp.runJob takes tensors as they are: number lists and Float64Arrays give what Float32Arrays give', async () => {
    const n = 40;
    const d = 8;
    const values = Array.from({ length: n * d }, (_, i) => Math.fround(Math.sin(i * 0.37)));
    const job = (data) =>
      rp.runJob('attentionMap', { n, d, q: { shape: [n, d], data }, k: { shape: [n, d], data }, size: 8 }, {});
    const want = await job(Float32Array.from(values));
    expect(await job(values)).toEqual(want);
    expect(await job(Float64Array.from(values))).toEqual(want);
    // and a NaN in a list is refused as in a Float32Array
    values[n * d - 1] = NaN;
    await expect(job(values)).rejects.toThrow('relpos.attentionMap: q must hold finite numbers, got NaN');
  });

  it('rp.runJob works without its optional control argument and refuses a control that is no object', async () => {
    const map = await rp.runJob('attentionMap', { n: 64, scheme: 'alibi', size: 8 });
    expect(map.data.shape).toEqual([8, 8]);
    expect(() => rp.runJob('attentionMap', { n: 64 }, 5)).toThrow('relpos.runJob: control must be an object');
  });

  it('is reproducible for a seed and reports monotone progress ending at 1', async () => {
    const progress = [];
    const a = await rp.attentionMap({
      n: 2048,
      seed: 7,
      scheme: 'alibi',
      size: 64,
      onProgress: (p) => progress.push(p),
    });
    const b = await rp.attentionMap({ n: 2048, seed: 7, scheme: 'alibi', size: 64 });
    const c = await rp.attentionMap({ n: 2048, seed: 8, scheme: 'alibi', size: 64 });
    expect(a.data).toEqual(b.data);
    expect(a.data).not.toEqual(c.data);
    expect(progress.at(-1)).toBe(1);
    progress.slice(1).forEach((p, t) => expect(p).toBeGreaterThanOrEqual(progress[t]));
  });

  it('maps a million positions without holding n×n', async () => {
    const map = await rp.attentionMap({ n: 1 << 20, scheme: 'alibi', heads: 8, size: 256, pool: 'max', causal: true });
    expect(map.shape).toEqual([256, 256]);
    expect(map.data[0]).toBeGreaterThan(0); // diagonal tile carries weight
    expect(map.data[1]).toBe(0); // causal: the future is empty
    expect(map.data[255 * 256 + 254]).toBeGreaterThan(0);
  });

  it('cancels through an AbortSignal and frees its job', async () => {
    const before = rp.heapInUse();
    const controller = new AbortController();
    const run = rp.attentionMap({
      n: 32768,
      seed: 1,
      size: 64,
      onProgress: (p) => p > 0 && controller.abort(),
      signal: controller.signal,
    });
    await expect(run).rejects.toThrow(/abort/i);
    expect(rp.heapInUse()).toBe(before);
  });

  // One map split between workers: each computes its own rows (mapRows), the rest stay 0, and the
  // parts add up to the whole map exactly — by both paths (one shared profile, or row by row with
  // content), both pools, equal and uneven tiles, causal or not.
  it('maps of disjoint row ranges (mapRows) are 0 elsewhere and sum to the whole map, value for value', async () => {
    const cases = [
      { n: 2048, scheme: 'alibi', heads: 4, head: 2, size: 64, pool: 'mean', causal: true },
      { n: 2000, scheme: 't5', size: 48, pool: 'max' },
      { n: 1030, seed: 3, scheme: 'rope', size: 40, pool: 'max' },
      { n: 1030, seed: 3, scheme: 'kerple-log', size: 40, pool: 'mean', causal: true },
      { n: 777, seed: 9, size: 50, pool: 'mean' },
    ];
    for (const options of cases) {
      const whole = await rp.attentionMap(options);
      const { size } = options;
      const cuts = [0, 1, Math.floor(size / 3), size - 1, size];
      const sum = new Float32Array(size * size);
      for (let p = 0; p + 1 < cuts.length; p++) {
        const [first, end] = [cuts[p], cuts[p + 1]];
        const part = await rp.attentionMap({ ...options, mapRows: [first, end] });
        expect(part.shape).toEqual([size, size]);
        part.data.forEach((v, t) => {
          const row = Math.floor(t / size);
          if (row < first || row >= end) expect(v).toBe(0);
          sum[t] += v;
        });
      }
      expect(sum, JSON.stringify(options)).toEqual(whole.data);
      expect(whole.data.some((v) => v > 0)).toBe(true);
    }
  });

  it('refuses mapRows that are not whole map rows [first, end) within the map', async () => {
    const base = { n: 64, scheme: 'alibi', size: 8 };
    for (const mapRows of [[0, 9], [3, 3], [-1, 2], [1.5, 4], [0, 1, 2], [4]]) {
      await expect(rp.attentionMap({ ...base, mapRows })).rejects.toThrow(
        /relpos\.attentionMap: mapRows must be \[first, end\) of whole map rows with 0 <= first < end <= size \(8\)/,
      );
    }
    await expect(rp.attentionMap({ ...base, mapRows: 'top' })).rejects.toThrow(/relpos\.attentionMap: mapRows/);
    expect((await rp.attentionMap({ ...base, mapRows: [0, 8] })).data).toEqual((await rp.attentionMap(base)).data);
  });

  it('refuses what it cannot do, naming the argument', async () => {
    await expect(rp.attentionMap({ n: 200000, seed: 1 })).rejects.toThrow(/relpos\.attentionMap: n must be <= 131072/);
    await expect(rp.attentionMap({ n: 64, scheme: 'cope' })).rejects.toThrow(RangeError);
    await expect(rp.attentionMap({ n: 64, scheme: 'alibi', size: 0 })).rejects.toThrow(/size must be >= 1/);
    await expect(rp.attentionMap({ n: 64, scheme: 'alibi', pool: 'median' })).rejects.toThrow(/pool must be one of/);
    await expect(rp.attentionMap({ n: 64, scheme: 'alibi', colour: 1 })).rejects.toThrow(/unknown parameter 'colour'/);
    await expect(rp.attentionMap({ n: 64, onProgress: 3 })).rejects.toThrow(TypeError);
    expect((await rp.attentionMap({ n: 8, scheme: 'alibi', size: 8 })).shape).toEqual([8, 8]);
  });
});
