// loadCore() (bindings/core-instance.js), what <relpos-heatmap> waits for: the core's instance with
// its calls on schemes, without rp.attention and its forms, rp.analysis, rp.lab and rp.kvCache
// (bindings/extras.js), which load() fetches beside the core. The instance is the one load() resolves with; once load() has resolved,
// every call behaves as it always has. Each Vitest file runs in a fresh module context, so nothing
// here is loaded before the test loads it.
import { describe, expect, it } from 'vitest';
import { loadCore, schemeCallReady } from '../../bindings/core-instance.js';
import { load } from '../../bindings/index.js';

describe('loadCore()', () => {
  it('resolves with load()’s instance; its calls on schemes work at once, the rest once load() has resolved', async () => {
    const rp = await loadCore({ models: false });
    expect(rp.bias('alibi', { n: 4 }).shape).toEqual([1, 4, 4]);
    const ones = { shape: [4, 4], data: new Float32Array(16).fill(1) };
    expect(schemeCallReady(rp, 'bias')).toBe(true);
    expect(schemeCallReady(rp, 'attention')).toBe(false);
    for (const [where, call] of [
      ['relpos.attention', () => rp.attention({ q: ones, k: ones, scheme: 'alibi' })],
      ['relpos.attentionMapCuts', () => rp.attentionMapCuts({ n: 8 }, 2)],
      ['relpos.kvCache', () => rp.kvCache({ heads: 1, d: 4 })],
      ['relpos.analysis', () => rp.analysis],
      ['relpos.lab', () => rp.lab],
    ]) {
      expect(call, where).toThrow(`${where}: not loaded yet; await relpos.load() before calling it`);
    }
    expect(await load({ models: false })).toBe(rp);
    expect(rp.attention({ q: ones, k: ones, scheme: 'alibi' }).weights.shape).toEqual([1, 4, 4]);
    expect(() => rp.attention({ q: ones })).toThrow(/^relpos\.attention: /);
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
