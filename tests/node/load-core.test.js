// loadCore() (bindings/core-instance.js), what <relpos-heatmap> waits for: the core's instance
// without the wrappers of rp.analysis, rp.lab and rp.kvCache (bindings/extras.js), which load()
// fetches beside the core. The instance is the one load() resolves with; once load() has resolved,
// every call behaves as it always has. Each Vitest file runs in a fresh module context, so nothing
// here is loaded before the test loads it.
import { describe, expect, it } from 'vitest';
import { loadCore } from '../../bindings/core-instance.js';
import { load } from '../../bindings/index.js';

describe('loadCore()', () => {
  it('resolves with load()’s instance; its core calls work at once, the wrappers once load() has resolved', async () => {
    const rp = await loadCore({ models: false });
    expect(rp.bias('alibi', { n: 4 }).shape).toEqual([1, 4, 4]);
    for (const [where, call] of [
      ['relpos.kvCache', () => rp.kvCache({ heads: 1, d: 4 })],
      ['relpos.analysis', () => rp.analysis],
      ['relpos.lab', () => rp.lab],
    ]) {
      expect(call, where).toThrow(`${where}: not loaded yet; await relpos.load() before calling it`);
    }
    expect(await load({ models: false })).toBe(rp);
    const cache = rp.kvCache({ heads: 1, d: 4 });
    expect(cache.length).toBe(0);
    expect(() => rp.kvCache({ heads: 0, d: 4 })).toThrow(RangeError);
    expect(() => rp.analysis.svd('x')).toThrow(TypeError);
    expect(rp.lab.ready).toBe(rp.analysis.ready);
  });

  it('checks load()’s options the same way, at once', () => {
    expect(() => loadCore({ analyses: true })).toThrow(
      "relpos.load: unknown option 'analyses'; allowed: 'simd', 'relaxed', 'models', 'analysis', 'lab'",
    );
    expect(() => loadCore({ models: 'no' })).toThrow(new TypeError('relpos.load: models must be a boolean'));
  });
});
