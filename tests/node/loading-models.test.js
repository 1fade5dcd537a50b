// The models module (docs/api.md, load): rp.presets and rp.fromConfig live in a wasm module of their
// own, which load() instantiates beside the core; load({ models: false }) resolves with the core
// alone, and until `await rp.modelsReady` the two say what to wait for. Each Vitest file runs in a
// fresh module context, so nothing here is loaded before the test loads it.
import { describe, expect, it } from 'vitest';
import { load } from '../../bindings/index.js';

const NOT_LOADED =
  /the models module \(rp\.presets, rp\.fromConfig\) is not loaded yet; await rp\.modelsReady, or load\(\) without models: false, before calling it/;
const LLAMA = { model_type: 'llama', hidden_size: 64, num_attention_heads: 4, rope_theta: 500000 };

describe('load() and the models module', () => {
  it('load({ models: false }) gives the core alone; rp.presets and rp.fromConfig before rp.modelsReady are Errors naming the call', async () => {
    const rp = await load({ models: false });
    expect(rp.bias('alibi', { n: 4 }).shape).toEqual([1, 4, 4]);
    expect(() => rp.presets).toThrow(NOT_LOADED);
    expect(() => rp.presets).toThrow(/^relpos\.presets: /);
    expect(() => rp.fromConfig(LLAMA)).toThrow(NOT_LOADED);
    expect(() => rp.fromConfig(LLAMA)).toThrow(/^relpos\.fromConfig: /);
    // The core keeps working meanwhile.
    expect(rp.schemes.length).toBeGreaterThan(15);
    await rp.modelsReady;
    expect(rp.presets.find((p) => p.id === 'llama-3.1-8b').scheme).toBe('rope-llama3');
    const reading = rp.fromConfig(LLAMA);
    expect([reading.scheme, reading.params.base, reading.heads]).toEqual(['rope', 500000, 4]);
    // Its errors are the reader's as before.
    expect(() => rp.fromConfig('{')).toThrow(/^relpos\.fromConfig: /);
    expect(() => rp.fromConfig(null)).toThrow(TypeError);
    await expect(rp.modelsReady).resolves.toBeUndefined();
  });

  it('load() resolves with the models module ready, on the same instance', async () => {
    const rp = await load({ models: false });
    const same = await load();
    expect(same).toBe(rp);
    expect(same.presets.length).toBeGreaterThan(10);
  });

  it('is one module for every build: an instance of the other build reads presets at once', async () => {
    const baseline = await load({ simd: false, models: false });
    expect(baseline.simd).toBe(false);
    expect(baseline.presets).toEqual((await load()).presets);
    expect(baseline.unbounded().fromConfig(LLAMA)).toEqual((await load()).fromConfig(LLAMA));
  });

  it('heapInUse counts the models module’s allocator', async () => {
    const rp = await load();
    rp.fromConfig(LLAMA); // first call: one-time tables
    const before = rp.heapInUse();
    rp.fromConfig(LLAMA);
    expect(rp.presets.length).toBeGreaterThan(0);
    expect(rp.heapInUse()).toBe(before);
  });
});
