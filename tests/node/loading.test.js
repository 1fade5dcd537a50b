// Loading (docs/api.md, load): load() instantiates the core module and the models module (the
// models' own test: tests/node/loading-models.test.js); the analysis module
// (rp.analysis, rp.lab) arrives on first use — rp.analysis.ready, load({ analysis: true }) or
// rp.lab.train() — and until then the synchronous analysis calls say what to wait for. Each Vitest
// file runs in a fresh module context, so nothing here is loaded before the test loads it.
import { describe, expect, it } from 'vitest';
import { load } from '../../bindings/index.js';

const STILL_LOADING = /still loading; await rp\.analysis\.ready, or load\(\{ analysis: true \}\), before calling it/;

describe('load() and the analysis module', () => {
  it('load() gives the core at once; an analysis call before rp.analysis.ready is an Error saying to await it', async () => {
    const rp = await load();
    expect(rp.bias('alibi', { n: 4 }).shape).toEqual([1, 4, 4]);
    expect(() =>
      rp.analysis.svd([
        [1, 0],
        [0, 1],
      ]),
    ).toThrow(STILL_LOADING);
    expect(() =>
      rp.analysis.svd([
        [1, 0],
        [0, 1],
      ]),
    ).toThrow(/^relpos\.analysis\.svd: /);
    expect(() => rp.lab.tasks).toThrow(/^relpos\.lab\.schema: the analysis module .* still loading/);
    await rp.analysis.ready;
    expect(
      rp.analysis.svd([
        [3, 0],
        [0, 4],
      ]).singularValues,
    ).toEqual(new Float32Array([4, 3]));
    expect(rp.lab.tasks.map((t) => t.id)).toContain('copy');
    // rp.lab.ready is the same module.
    await rp.lab.ready;
    expect(rp.lab.ready).toBe(rp.analysis.ready);
  });

  it('load({ analysis: true }) resolves to the same instance with the analysis module ready', async () => {
    const rp = await load();
    const same = await load({ analysis: true });
    expect(same).toBe(rp);
    expect(same.analysis.kernelCheck('gaussian', { n: 8 }).isPSD).toBe(true);
    expect(await load({ lab: true })).toBe(rp);
  });

  it('rp.lab.train() loads the analysis module by itself', async () => {
    const rp = await load({ simd: false }); // a separate instance whose analysis module is not loaded yet
    expect(() => rp.lab.defaults).toThrow(STILL_LOADING);
    const result = await rp.lab.train({ steps: 2, length: 8, evalSequences: 2 });
    expect(result.loss).toHaveLength(2);
    expect(rp.lab.defaults.steps).toBeGreaterThan(2);
  });

  it('heapInUse counts the analysis module’s allocator once it is loaded', async () => {
    const rp = await load({ analysis: true });
    const M = { shape: [64, 64], data: new Float32Array(64 * 64).fill(1) };
    rp.analysis.svd(M); // first call: one-time tables
    const before = rp.heapInUse();
    rp.analysis.svd(M);
    expect(rp.heapInUse()).toBe(before);
    expect(before).toBeGreaterThan(0);
  });

  it('refuses unknown or mistyped load options', () => {
    expect(() => load({ analyses: true })).toThrow(RangeError);
    expect(() => load({ analyses: true })).toThrow(
      "relpos.load: unknown option 'analyses'; allowed: 'simd', 'relaxed', 'models', 'analysis', 'lab'",
    );
    expect(() => load({ analysis: 'yes' })).toThrow(new TypeError('relpos.load: analysis must be a boolean'));
    expect(() => load({ lab: 1 })).toThrow(TypeError);
    expect(() => load({ models: 'no' })).toThrow(new TypeError('relpos.load: models must be a boolean'));
    expect(() => load(null)).toThrow(TypeError);
  });
});
