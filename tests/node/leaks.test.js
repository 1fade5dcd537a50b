// No leaks: the wasm heap (rp.heapInUse(), malloc's bytes in use) returns to its level after
// 10,000 mixed calls, failing ones included, and after cancelled and failed jobs (the binding's
// job registry is freed in runJob's finally).
import { describe, expect, it } from 'vitest';
import { load } from '../../bindings/index.js';
import { callFor, compare, goldenCases } from './golden.js';

const rp = await load({ analysis: true });
const golden = goldenCases();
const mat = (rows, cols, f = (i) => Math.sin(i + 1)) => ({
  shape: [rows, cols],
  data: Float32Array.from({ length: rows * cols }, (_, i) => f(i)),
});
const q = mat(6, 8);
const k = mat(6, 8, Math.cos);
const tallK = mat(8193, 8);
const wideB = mat(5, 8193);
const llama = {
  model_type: 'llama',
  hidden_size: 4096,
  num_attention_heads: 32,
  rope_theta: 500000,
  max_position_embeddings: 131072,
  rope_scaling: {
    rope_type: 'llama3',
    factor: 8,
    low_freq_factor: 1,
    high_freq_factor: 4,
    original_max_position_embeddings: 8192,
  },
};

// Valid and failing calls over every entry family.
const calls = [
  () => rp.encoding('sinusoidal', { n: 8, d: 8 }),
  () => rp.encoding('sinusoidal', { n: -1, d: 8 }),
  () => rp.bias('alibi', { n: 16, heads: 4 }),
  () => rp.bias('alibi', { n: 16, heads: 4, alibiBiasMax: NaN }),
  () => rp.bias('t5', { n: 12, heads: 2, causal: true }),
  () => rp.bias('nope', { n: 4 }),
  () => rp.buckets('deberta', { n: 10 }),
  () => rp.buckets('t5', { n: 10, numBuckets: 'many' }),
  () => rp.frequencies('rope-yarn', { d: 16, factor: 4 }),
  () => rp.frequencies('rope', { d: 7 }),
  () => rp.rotate(q, { scheme: 'xpos' }),
  () => rp.rotate(q, { rotaryDim: 12 }),
  () => rp.scores('shaw', { n: 6, d: 8 }),
  () => rp.scores('rope', { n: 8192, d: 65536 }), // over the working-set limit
  () => rp.scores('cope', { n: 6, d: 8, q, k }),
  () => rp.attention({ q, k, v: q, heads: 2, scheme: 'alibi', causal: true }),
  () => rp.attention({ q, k, v: q, scheme: 'rope', mode: 'explicit' }),
  () => rp.attention({ q, k, scheme: 'shaw' }),
  () => rp.attention({ q, k, heads: 3 }),
  () => rp.attention({ q, k: tallK, v: tallK, heads: 1, B: wideB }), // B of the wrong shape
  () => rp.analysis.svd(q, { vectors: true }),
  () =>
    rp.analysis.eig([
      [1, 2],
      [2, NaN],
    ]),
  () => rp.analysis.kernelCheck('gaussian', { n: 16 }),
  () => rp.analysis.gpSample('sin', { n: 8 }),
  () => rp.fromConfig(llama),
  () => rp.fromConfig('{"model_type": "llama", "__proto__": {}}'),
  () => rp.fromConfig('['.repeat(1000)),
];

const heapAfter = (run) => {
  run();
  return rp.heapInUse();
};

describe('no leaks', () => {
  it('the wasm heap returns to its level after 10,000 mixed calls, failing ones included', () => {
    const runAll = (rounds) => {
      let failures = 0;
      for (let i = 0; i < rounds; i++) {
        try {
          calls[i % calls.length]();
        } catch {
          failures++;
        }
      }
      return failures;
    };
    runAll(calls.length * 2); // first-use statics (catalogue, tables) settle
    const before = rp.heapInUse();
    const failures = runAll(10000);
    expect(failures).toBeGreaterThan(3000);
    expect(rp.heapInUse()).toBe(before);
    const reference = golden.find((c) => c.file.startsWith('056_'));
    expect(compare(Array.from(callFor(reference)(rp).data), reference.data, reference.tol).ok).toBe(true);
  }, 60000);

  it('a cancelled attentionMap frees its job', async () => {
    const map = () => rp.attentionMap({ n: 1 << 16, scheme: 'alibi', size: 64 });
    await map(); // warm up
    const before = rp.heapInUse();
    for (let round = 0; round < 5; round++) {
      const controller = new AbortController();
      let steps = 0;
      const job = rp.attentionMap({
        n: 1 << 16,
        scheme: 'alibi',
        size: 64,
        signal: controller.signal,
        onProgress: () => {
          if (++steps === 1) controller.abort();
        },
      });
      await expect(job).rejects.toThrow(/abort/i);
      expect(steps).toBeGreaterThanOrEqual(1);
    }
    expect(rp.heapInUse()).toBe(before);
    // The instance is fine and a full map still matches a run before the cancellations.
    const again = await map();
    expect(again.shape).toEqual([64, 64]);
    expect(again.data.every(Number.isFinite)).toBe(true);
    expect(heapAfter(() => rp.bias('alibi', { n: 8 }))).toBe(before);
  }, 60000);

  it('failed jobs (bad options, a throwing onProgress, an already aborted signal) free everything', async () => {
    await rp.attentionMap({ n: 4096, scheme: 'rope', params: { d: 16 }, size: 32 });
    const before = rp.heapInUse();
    for (let round = 0; round < 20; round++) {
      await expect(rp.attentionMap({ n: 0, scheme: 'alibi' })).rejects.toThrow(RangeError);
      await expect(rp.attentionMap({ n: 4096, scheme: 'alibi', size: 32, bogus: 1 })).rejects.toThrow(
        /relpos\.attentionMap: unknown parameter 'bogus'/,
      );
      await expect(
        rp.attentionMap({
          n: 4096,
          scheme: 'rope',
          params: { d: 16 },
          size: 32,
          onProgress: () => {
            throw new Error('listener failed');
          },
        }),
      ).rejects.toThrow('listener failed');
      await expect(
        rp.attentionMap({ n: 4096, scheme: 'alibi', size: 32, signal: AbortSignal.abort() }),
      ).rejects.toThrow();
    }
    expect(rp.heapInUse()).toBe(before);
  }, 60000);
});
