// A pooled attention map (rp.attentionMap with workers) is split by the core's plan
// (rp.attentionMapCuts, src/relpos/ops/attention_map.cpp): map rows weighted by the keys each
// sequence row reads, the estimate attention's cuts use, not equal counts of map rows.
import { afterAll, describe, expect, it } from 'vitest';
import { load, terminateWorkers } from '../../bindings/index.js';
import { splitMap } from '../../bindings/pool.js';

const rp = (await load()).unbounded();
afterAll(() => terminateWorkers());

/** The keys the sequence rows of map rows [a, b) see in a causal map of n rows at `size`. */
function causalKeys(n, size, a, b) {
  let sum = 0;
  for (let i = Math.floor((a * n) / size); i < Math.floor((b * n) / size); i++) sum += i + 1;
  return sum;
}

/** A pool of `size` that runs each part on this thread and records what it was asked. */
function recordingPool(size) {
  const asked = [];
  return {
    asked,
    size,
    call: async (method, args) => {
      asked.push({ method, args });
      return method === 'attentionMapCuts' ? rp.attentionMapCuts(...args) : rp.attentionMap(args[0]);
    },
  };
}

const causalMap = { n: 4096, d: 16, size: 512, seed: 3, causal: true };

describe('pooled attention maps', () => {
  it('are cut by the keys their rows see: a causal map within one map row of even', () => {
    const [a, b] = rp.attentionMapCuts(causalMap, 2);
    expect([a.first, a.end, b.first, b.end]).toEqual([0, a.end, a.end, 512]);
    const keys = [causalKeys(4096, 512, a.first, a.end), causalKeys(4096, 512, b.first, b.end)];
    // Equal halves of the map rows would split 2,098,176 : 6,292,480 keys.
    expect(Math.abs(keys[0] - keys[1])).toBeLessThanOrEqual(8 * 4096);
    expect(a.work).toBe(keys[0] * 16);
  });

  it('hand each worker the rows of the core plan, and the parts make the one-thread map', async () => {
    const pool = recordingPool(2);
    const pooled = await splitMap(pool, causalMap, { where: 'relpos.attentionMap' });
    const parts = pool.asked.filter((call) => call.method === 'attentionMap').map((call) => call.args[0].mapRows);
    expect(parts).toEqual(rp.attentionMapCuts(causalMap, 2).map((cut) => [cut.first, cut.end]));
    const whole = await rp.attentionMap(causalMap);
    expect(pooled.shape).toEqual(whole.shape);
    expect(whole.data.findIndex((x, i) => !Object.is(x, pooled.data[i]))).toBe(-1);
  });

  it('over worker threads equal the one-thread map bit for bit', { timeout: 60_000 }, async () => {
    const options = { n: 1024, d: 16, size: 256, seed: 5, causal: true, mapRows: [10, 250] };
    const whole = await rp.attentionMap(options);
    const pooled = await rp.attentionMap({ ...options, workers: 2 });
    expect(whole.data.findIndex((x, i) => !Object.is(x, pooled.data[i]))).toBe(-1);
  });

  it('refuse a bad part count and plan nothing for a call the core cannot read', () => {
    expect(() => rp.attentionMapCuts(causalMap, 0)).toThrow(/^relpos\.attentionMapCuts: parts must be a whole number/);
    expect(rp.attentionMapCuts({ ...causalMap, mapRows: [3, 2] }, 2)).toEqual([]);
  });
});
