// The pool's former defects, each as a test that failed before the core split attention by
// query rows (bindings/pool.js, docs/workers.md): positions alone, a [n, m] mask whose part had as
// many rows as the batch, the causal-window split, the workers' build flavour, another call's pool
// size, and terminateWorkers() with two sizes in one turn.
import { afterAll, describe, expect, it } from 'vitest';
import { load, terminateWorkers } from '../../bindings/index.js';
import { sharedPool, sharedPools } from '../../bindings/pool.js';

const rp = (await load()).unbounded();
afterAll(() => terminateWorkers());

const random = (length, seed) => Float32Array.from({ length }, (_, i) => Math.sin(i * 12.9898 + seed * 78.233) * 2);
const tensor = (shape, seed) => ({
  shape,
  data: random(
    shape.reduce((x, y) => x * y, 1),
    seed,
  ),
});

/** Same bits: every value equal under Object.is, same shape. */
function expectSame(actual, expected) {
  for (const key of ['weights', 'output']) {
    expect(Boolean(actual[key])).toBe(Boolean(expected[key]));
    if (!expected[key]) continue;
    expect(actual[key].shape).toEqual(expected[key].shape);
    expect(expected[key].data.findIndex((x, i) => !Object.is(x, actual[key].data[i]))).toBe(-1);
  }
}

// Starting worker threads takes a while on a busy machine.
const slow = { timeout: 60_000 };

describe('pooled attention computes what one thread does', slow, () => {
  it('positions alone (n = m: the keys take the same positions) over two workers', async () => {
    const n = 300;
    const q = tensor([n, 16], 1);
    const options = {
      q,
      k: q,
      v: q,
      heads: 2,
      scheme: 'rope',
      causal: true,
      positions: [...Array(n).keys()].map((i) => 3 * i),
    };
    expectSame(await rp.attentionAsync({ ...options, workers: 2 }), await rp.attentionAsync(options));
  });

  it('a [n, m] mask with a batch, whatever rows a part holds', async () => {
    // m = 300: the core's blocks are 216 rows, so the old split gave a part of n − 216 = 2 rows = the batch.
    const [n, m] = [218, 300];
    const mask = { shape: [n, m], data: Float32Array.from({ length: n * m }, (_, i) => (i % 5 === 0 ? 0 : 1)) };
    const options = { q: tensor([2, n, 8], 2), k: tensor([2, m, 8], 3), v: tensor([2, m, 8], 4), mask };
    for (const workers of [2, 3, 4]) {
      expectSame(await rp.attentionAsync({ ...options, workers }), await rp.attentionAsync(options));
    }
  });
});

describe('the split', () => {
  it('a causal window of 256 at n = 8192 splits the keys seen evenly (was 1,450,112 : 614,400)', () => {
    const n = 8192;
    const q = tensor([n, 4], 5);
    const cuts = rp.attentionCuts({ q, k: q, causal: true, slidingWindow: 256 }, 2);
    expect(cuts.length).toBe(2);
    // Row i sees keys max(0, i − 255) … i.
    const seen = ({ first, end }) => {
      let sum = 0;
      for (let i = first; i < end; i++) sum += Math.min(i + 1, 256);
      return sum;
    };
    const [a, b] = cuts.map(seen);
    expect(a + b).toBe(2_064_512);
    expect(Math.abs(a - b)).toBeLessThanOrEqual(4 * 256); // one register tile of rows
    expect(cuts.map((cut) => cut.work)).toEqual([a * 4, b * 4]); // d = 4 multiply-adds per key
  });

  it('attentionCuts refuses a bad part count and reads the call as rp.attention does', () => {
    const q = tensor([8, 4], 6);
    expect(() => rp.attentionCuts({ q, k: q }, 0)).toThrow(/^relpos\.attentionCuts: parts must be a whole number/);
    expect(() => rp.attentionCuts({ q, k: q, axes: 'xyz' }, 2)).toThrow(/^relpos\.attentionCuts: axes must be/);
    expect(rp.attentionCuts({ q, k: q }, 9)).toEqual([
      { first: 0, end: 4, work: 128 },
      { first: 4, end: 8, work: 128 },
    ]);
  });
});

describe('pools', slow, () => {
  it("workers load the caller's build flavour", async () => {
    const baseline = (await load({ simd: false })).unbounded();
    const q = tensor([40, 8], 7);
    const options = { q, k: q, v: q, heads: 2, scheme: 'alibi', causal: true };
    expectSame(await baseline.attentionAsync({ ...options, workers: 2 }), await baseline.attentionAsync(options));
    const baselinePool = await sharedPool(2, 'baseline');
    const simdPool = await sharedPool(2, 'simd');
    expect(await baselinePool.call('simd', [])).toBe(false);
    expect(await simdPool.call('simd', [])).toBe(true);
  });

  it("a running call is never failed by another call's pool size", async () => {
    const q = tensor([3000, 16], 8);
    const options = { q, k: q, v: q, heads: 2, scheme: 'rope', causal: true, weights: false };
    const one = await rp.attentionAsync(options);
    // The second call (another size) starts while the first one's parts run.
    let second;
    const first = rp.attentionAsync({
      ...options,
      workers: 2,
      onProgress: () => {
        second ??= rp.attentionAsync({ ...options, workers: 3 });
      },
    });
    expectSame(await first, one);
    expectSame(await second, one);
  });

  it('terminateWorkers() stops every worker it started, two sizes in one turn too', async () => {
    const map = { n: 1024, seed: 1, size: 32 };
    await Promise.all([rp.attentionMap({ ...map, workers: 2 }), rp.attentionMap({ ...map, workers: 3 })]);
    expect(sharedPools.live).toBeGreaterThan(0);
    await terminateWorkers();
    expect(sharedPools.live).toBe(0);
    // A later call starts fresh workers.
    expect((await rp.attentionMap({ ...map, workers: 2 })).shape).toEqual([32, 32]);
  });
});
