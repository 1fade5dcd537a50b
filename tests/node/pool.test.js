// The worker pool (bindings/pool.js, docs/workers.md) in Node's worker threads: `workers` on
// rp.attentionMap, rp.attentionAsync and rp.lab.trainMany gives the one-thread result bit for bit
// (every scheme, both map paths, uneven splits, masks, biases, batches), one progress and one
// cancellation over the pool, and a worker killed mid-job fails the call with a clear error while
// the pool recovers for the next one.
import { afterAll, describe, expect, it } from 'vitest';
import { availableParallelism } from 'node:os';
import fc from 'fast-check';
import { load, terminateWorkers } from '../../bindings/index.js';
import { autoWorkers, poolSize, sharedPool } from '../../bindings/pool.js';
import { mapAborted, mapInterrupted } from './interrupted-map.js';

const rp = (await load()).unbounded();
afterAll(() => terminateWorkers());

/** Same bits: every value equal under Object.is (NaN and ±0 included), same shape. */
function expectSameTensor(actual, expected) {
  expect(actual.shape).toEqual(expected.shape);
  expect(actual.data.length).toBe(expected.data.length);
  const differing = expected.data.findIndex((x, i) => !Object.is(x, actual.data[i]));
  expect(differing).toBe(-1);
}

/** The outcome of a call as something comparable: its result, or its error class and message. */
async function outcome(promise) {
  try {
    return { value: await promise };
  } catch (error) {
    return { error: `${error.constructor.name}: ${error.message}` };
  }
}

/** rp.attentionAsync over three workers gives what one thread gives, bit for bit, with the same notes. */
async function expectPooledAsOne(options) {
  const one = await rp.attentionAsync(options);
  const pooled = await rp.attentionAsync({ ...options, workers: 3 });
  for (const key of ['weights', 'output']) {
    expect(Boolean(pooled[key])).toBe(Boolean(one[key]));
    if (one[key]) expectSameTensor(pooled[key], one[key]);
  }
  expect(pooled.notes).toEqual(one.notes);
}

// Calls that start worker threads take a while on a busy machine (npm test runs files side by side).
const slow = { timeout: 30_000 };

const random = (length, seed) => Float32Array.from({ length }, (_, i) => Math.sin(i * 12.9898 + seed * 78.233) * 2);

describe('pool sizes', () => {
  it("'auto' is the cores less one, at least one; counts are whole numbers from 1 to 256", () => {
    expect(autoWorkers()).toBe(Math.max(1, availableParallelism() - 1));
    expect(poolSize('where', 'auto')).toBe(autoWorkers());
    for (const good of [1, 2, 7, 256]) expect(poolSize('where', good)).toBe(good);
    for (const bad of [0, -1, 1.5, 257, NaN, '2', null, true]) {
      expect(() => poolSize('relpos.attentionMap', bad)).toThrow(
        /^relpos\.attentionMap: workers must be a whole number/,
      );
    }
  });

  it('bad counts are RangeErrors naming the call; the module keeps working', async () => {
    await expect(rp.attentionMap({ n: 64, scheme: 'alibi', workers: 0 })).rejects.toThrow(
      /^relpos\.attentionMap: workers must be a whole number from 1 to 256 or 'auto', got 0/,
    );
    const q = { shape: [4, 4], data: random(16, 1) };
    await expect(rp.attentionAsync({ q, k: q, v: q, workers: 'all' })).rejects.toThrow(RangeError);
    await expect(rp.lab.trainMany([{ scheme: 'rope' }], { workers: 1.5 })).rejects.toThrow(
      /^relpos\.lab\.trainMany: workers must be/,
    );
    expect(rp.bias('alibi', { n: 4 }).shape).toEqual([1, 4, 4]);
  });
});

describe('rp.attentionMap with workers', slow, () => {
  const cases = [
    { n: 2048, seed: 3, scheme: 'rope', size: 64 }, // content, streamed rows
    { n: 1 << 16, scheme: 'alibi', size: 128, causal: true }, // shift-invariant profile path
    { n: 1000, seed: 1, scheme: 't5', size: 7, pool: 'mean' }, // uneven rows per worker
    { n: 777, scheme: 'fire', size: 33 },
    { n: 512, seed: 2, scheme: 'xpos', size: 512, causal: true }, // size = n
    { n: 3, scheme: 'alibi', size: 64 }, // fewer map rows than workers
    { n: 1024, seed: 5, size: 32, mapRows: [5, 26] }, // the caller's own range, split further
  ];
  for (const workers of [2, 3]) {
    for (const options of cases) {
      it(`${JSON.stringify(options)} over ${workers} workers equals one thread`, async () => {
        const one = await rp.attentionMap(options);
        const progress = [];
        const pooled = await rp.attentionMap({ ...options, workers, onProgress: (p) => progress.push(p) });
        expectSameTensor(pooled, one);
        expect(progress.length).toBeGreaterThan(0);
        expect(progress.every((p) => p >= 0 && p <= 1 + 1e-12)).toBe(true);
        expect(progress.at(-1)).toBeCloseTo(1, 12);
      });
    }
  }

  it('bad options fail as the one-thread call fails (same class, same message)', async () => {
    for (const bad of [
      { n: 64, scheme: 'alibi', size: 0 },
      { n: 64, scheme: 'nonesuch' },
      { n: -5, scheme: 'alibi' },
      { n: 64, scheme: 'alibi', mapRows: [3, 2] },
      { n: 64, scheme: 'alibi', head: 4, heads: 2 },
    ]) {
      const one = await outcome(rp.attentionMap(bad));
      const pooled = await outcome(rp.attentionMap({ ...bad, workers: 2 }));
      expect(one.error).toBeDefined();
      expect(pooled).toEqual(one);
    }
  });
});

describe('rp.attentionAsync with workers', slow, () => {
  const attentionSchemes = rp.schemes.filter((s) => s.calls.includes('attention')).map((s) => s.id);
  // n = m = 600: the core's query blocks are 108 rows (src/relpos/ops/attention.cpp), and its cuts
  // (on 4-row register tiles) fall inside blocks as well as on their edges.
  const [n, heads, d] = [600, 2, 8];
  const q = { shape: [n, heads * d], data: random(n * heads * d, 1) };
  const k = { shape: [n, heads * d], data: random(n * heads * d, 2) };
  const v = { shape: [n, heads * d], data: random(n * heads * d, 3) };

  for (const scheme of [undefined, ...attentionSchemes]) {
    it(`${scheme ?? 'no scheme'}: weights and output over 2 and 3 workers equal one thread (causal and not)`, async () => {
      for (const causal of [false, true]) {
        const options = { q, k, v, heads, causal, ...(scheme ? { scheme } : {}) };
        const one = await outcome(rp.attentionAsync(options));
        for (const workers of [2, 3]) {
          const pooled = await outcome(rp.attentionAsync({ ...options, workers }));
          if (one.error) {
            expect(pooled).toEqual(one);
            continue;
          }
          expectSameTensor(pooled.value.weights, one.value.weights);
          expectSameTensor(pooled.value.output, one.value.output);
          expect(pooled.value.synthetic).toEqual(one.value.synthetic);
        }
      }
    });
  }

  it('a KV cache (queryOffset), a mask, a bias B, a batch, weights: false and out split the same way', async () => {
    const m = 700;
    const keys = { shape: [m, heads * d], data: random(m * heads * d, 4) };
    const values = { shape: [m, heads * d], data: random(m * heads * d, 5) };
    const mask = { shape: [n, m], data: Float32Array.from({ length: n * m }, (_, i) => ((i * 7) % 11 === 0 ? 0 : 1)) };
    const additive = {
      shape: [heads, n, m],
      data: Float32Array.from({ length: heads * n * m }, (_, i) => (i % 13 === 0 ? -Infinity : Math.cos(i))),
      kind: 'additive',
    };
    const B = { shape: [heads, n, m], data: random(heads * n * m, 6) };
    const batched = (t, rows, seed) => ({ shape: [2, rows, heads * d], data: random(2 * rows * heads * d, seed) });
    const variants = [
      { q, k: keys, v: values, heads, scheme: 'alibi', causal: true },
      { q, k: keys, v: values, heads, scheme: 'rope', queryOffset: 5, causal: true, slidingWindow: 9 },
      { q, k: keys, v: values, heads, scheme: 't5', mask },
      { q, k: keys, v: values, heads, mask: additive },
      { q, k: keys, v: values, heads, B, mode: 'mixed', alpha: 0.5 },
      { q: batched(q, n, 7), k: batched(k, m, 8), v: batched(v, m, 9), heads, scheme: 'kerple-log', causal: true },
      { q, k: keys, v: values, heads, kvHeads: 1, scheme: 'rope', causal: true, weights: false },
    ].map((o) =>
      o.kvHeads
        ? {
            ...o,
            k: { shape: [m, d], data: keys.data.slice(0, m * d) },
            v: { shape: [m, d], data: values.data.slice(0, m * d) },
          }
        : o,
    );
    for (const options of variants) await expectPooledAsOne(options);
    const out = new Float32Array(n * heads * d);
    const only = await rp.attentionAsync({ q, k, v, heads, scheme: 'rope', weights: false, out, workers: 2 });
    expect(only.output.data).toBe(out);
    expectSameTensor(only.output, (await rp.attentionAsync({ q, k, v, heads, scheme: 'rope', weights: false })).output);
  });

  it('positions, axes, sinks, soft-capping, chunks, temperature and a key-padding mask split the same way', async () => {
    const m = n;
    const rows = (b) => ({ shape: [b, n, heads * d], data: random(b * n * heads * d, 10 + b) });
    const positions = Array.from({ length: n }, (_, i) => 3 * i + 7);
    const padded = [Array.from({ length: n }, (_, i) => (i < 5 ? 0 : i - 5)), positions];
    const padding = [Array.from({ length: m }, (_, j) => (j < 5 ? 0 : 1)), Array.from({ length: m }, () => 1)];
    const variants = [
      { q, k, v, heads, scheme: 'rope', causal: true, positions, keyPositions: positions },
      {
        q: rows(2),
        k: rows(2),
        v: rows(2),
        heads,
        scheme: 'rope',
        causal: true,
        positions: padded,
        keyPositions: padded,
      },
      { q: rows(2), k: rows(2), v: rows(2), heads, scheme: 'alibi', mask: Uint8Array.from(padding.flat()) },
      { q, k, v, heads, scheme: 'rope', causal: true, sinks: [0.5, -1], softcap: 20 },
      { q, k, v, heads, causal: true, attentionChunkSize: 64, temperatureTuning: { floorScale: 32, attnScale: 0.1 } },
      {
        q: { shape: [n, heads, d], data: q.data },
        k: { shape: [n, heads, d], data: k.data },
        v: { shape: [n, heads, d], data: v.data },
        axes: 'nhd',
        scheme: 'rope',
        causal: true,
      },
      {
        q: { shape: [1, heads, n, d], data: q.data },
        k: { shape: [1, heads, n, d], data: k.data },
        v: { shape: [1, heads, n, d], data: v.data },
        axes: 'bhnd',
        scheme: 'alibi',
        weights: false,
      },
    ].map((o) => (o.mask ? { ...o, mask: { shape: [2, m], data: o.mask, kind: 'boolean' } } : o));
    for (const options of variants) await expectPooledAsOne(options);
  });

  it('random shapes and query offsets (fast-check) split exactly', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 400 }),
        fc.integer({ min: 0, max: 600 }),
        fc.constantFrom('alibi', 'rope', 'fire', 'cope', 'sinusoidal', 'shaw'),
        fc.boolean(),
        fc.integer({ min: 2, max: 4 }),
        async (rows, extra, scheme, causal, workers) => {
          const m = rows + extra;
          const query = { shape: [rows, 8], data: random(rows * 8, rows) };
          const key = { shape: [m, 8], data: random(m * 8, m) };
          const options = { q: query, k: key, v: key, scheme, causal };
          const one = await outcome(rp.attentionAsync(options));
          const pooled = await outcome(rp.attentionAsync({ ...options, workers }));
          if (one.error) expect(pooled).toEqual(one);
          else {
            expectSameTensor(pooled.value.weights, one.value.weights);
            expectSameTensor(pooled.value.output, one.value.output);
          }
        },
      ),
      { numRuns: 15 },
    );
  }, 120_000);
});

describe('rp.lab.trainMany', slow, () => {
  const runs = [
    { scheme: 'rope', steps: 12, length: 16, seed: 1 },
    { scheme: 'alibi', steps: 12, length: 16, seed: 1 },
    { scheme: 'nope', steps: 12, length: 16, seed: 2 },
  ];

  it('with and without workers equals train() run by run, with progress over all runs', async () => {
    const alone = [];
    for (const run of runs) alone.push(await rp.lab.train(run));
    const inTurn = await rp.lab.trainMany(runs);
    const seen = [];
    const pooled = await rp.lab.trainMany(runs, {
      workers: 2,
      onProgress: (f, p) => seen.push([f, p.run, p.fraction]),
    });
    for (const results of [inTurn, pooled]) {
      expect(results.length).toBe(runs.length);
      for (const [i, result] of results.entries()) {
        expect(result.options).toEqual(alone[i].options);
        for (const key of ['loss', 'gradNorm', 'accuracy', 'evalLoss']) {
          expectSameTensor(
            { shape: [result[key].length], data: result[key] },
            { shape: [alone[i][key].length], data: alone[i][key] },
          );
        }
        expectSameTensor(result.attention['4L'], alone[i].attention['4L']);
      }
    }
    expect(new Set(seen.map(([, run]) => run))).toEqual(new Set([0, 1, 2]));
    expect(seen.every(([f]) => f >= 0 && f <= 1)).toBe(true);
  });

  it('refuses runs that are not options, and options it does not know', async () => {
    await expect(rp.lab.trainMany([])).rejects.toThrow(/^relpos\.lab\.trainMany: runs must be a non-empty array/);
    await expect(rp.lab.trainMany([{ scheme: 'rope' }], { worker: 2 })).rejects.toThrow(/unknown option 'worker'/);
    await expect(rp.lab.trainMany([{ scheme: 'rope', signal: null }])).rejects.toThrow(/runs\[0\] must not hold/);
    // A run the core refuses fails the call as it fails without workers.
    const bad = [
      { scheme: 'rope', steps: 3 },
      { scheme: 'nonesuch', steps: 3 },
    ];
    const inTurn = await outcome(rp.lab.trainMany(bad));
    expect(inTurn.error).toMatch(/^RangeError: .*nonesuch/);
    expect(await outcome(rp.lab.trainMany(bad, { workers: 2 }))).toEqual(inTurn);
  });
});

describe('cancellation and a dying worker', slow, () => {
  it('one AbortSignal stops every part; the pool serves the next call', async () => {
    expect(await mapAborted(rp, { seed: 1, workers: 2 })).toBe('AbortError: relpos.attentionMap: aborted');
    const before = new AbortController();
    before.abort();
    await expect(rp.lab.trainMany([{ scheme: 'rope' }], { workers: 2, signal: before.signal })).rejects.toMatchObject({
      name: 'AbortError',
    });
    expectSameTensor(
      await rp.attentionMap({ n: 256, seed: 1, size: 16, workers: 2 }),
      await rp.attentionMap({ n: 256, seed: 1, size: 16 }),
    );
  });

  it('a worker thread killed mid-job fails the call with a clear error; the pool starts a fresh worker', async () => {
    const pool = await sharedPool(2, rp.relaxed ? 'relaxed' : 'simd');
    const died = await mapInterrupted(rp, { seed: 2, workers: 2 }, () => pool.workerOf(1).thread.terminate());
    expect(died).toMatch(
      /^Error: relpos\.attentionMap: relpos worker: the worker thread exited \(code 1\); pending calls failed, the next call starts a fresh worker$/,
    );
    expectSameTensor(
      await rp.attentionMap({ n: 512, seed: 4, size: 32, workers: 2 }),
      await rp.attentionMap({ n: 512, seed: 4, size: 32 }),
    );
    expect(pool.live).toBe(2);
  });
});
