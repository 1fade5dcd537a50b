// rp.lab through the public API against the real wasm build: a small training run is reproducible
// for a seed, streams its loss, cancels cleanly (job freed, heap back to its level) and returns
// tensors of the documented shapes.
import { describe, expect, it } from 'vitest';
import { load } from '../../bindings/index.js';

const rp = await load({ analysis: true });
const small = {
  scheme: 'kerple-log',
  task: 'copy',
  length: 8,
  steps: 12,
  batch: 4,
  dModel: 16,
  dFF: 16,
  evalSequences: 2,
  seed: 5,
};

describe('rp.lab', () => {
  it('lists its tasks and schemes', () => {
    expect(rp.lab.tasks.map((t) => t.id)).toEqual([
      'copy',
      'retrieve',
      'duplicate',
      'reverse',
      'sort',
      'addition',
      'count',
    ]);
    expect(rp.lab.schemes.map((s) => s.id)).toContain('rope-linear');
    expect(rp.lab).toBe(rp.lab);
  });

  it('returns curves, accuracy per evaluation length and attention maps at L and 4L', async () => {
    const r = await rp.lab.train({ ...small, heads: 2, layers: 2 });
    expect(r.loss).toBeInstanceOf(Float32Array);
    expect(r.loss.length).toBe(12);
    expect(r.gradNorm.length).toBe(12);
    expect(r.learningRate.length).toBe(12);
    expect(r.evalLengths).toEqual([8, 16, 32, 64]);
    expect(r.accuracy.length).toBe(4);
    for (const a of r.accuracy) (expect(a).toBeGreaterThanOrEqual(0), expect(a).toBeLessThanOrEqual(1));
    expect(r.attention.L.shape).toEqual([4, 8, 8]);
    expect(r.attention['4L'].shape).toEqual([4, 32, 32]);
    expect(r.tokens['4L'].length).toBe(32);
    expect(r.options.scheme).toBe('kerple-log');
  });

  it('is reproducible for a seed and differs for another', async () => {
    const a = await rp.lab.train(small);
    const b = await rp.lab.train(small);
    const c = await rp.lab.train({ ...small, seed: 6 });
    expect(Array.from(b.loss)).toEqual(Array.from(a.loss));
    expect(Array.from(b.accuracy)).toEqual(Array.from(a.accuracy));
    expect(Array.from(b.attention['4L'].data)).toEqual(Array.from(a.attention['4L'].data));
    expect(Array.from(c.loss)).not.toEqual(Array.from(a.loss));
  });

  it('streams the latest loss through onProgress', async () => {
    const seen = [];
    const r = await rp.lab.train({ ...small, onProgress: (fraction, detail) => seen.push({ fraction, ...detail }) });
    expect(seen.length).toBeGreaterThan(0);
    const last = seen[seen.length - 1];
    expect(last.fraction).toBe(1);
    expect(last.step).toBe(12);
    expect(last.loss).toBe(r.loss[11]);
    expect(Array.from(last.losses)).toEqual(Array.from(r.loss));
    for (let k = 1; k < seen.length; k++) expect(seen[k].fraction).toBeGreaterThanOrEqual(seen[k - 1].fraction);
  });

  it('cancels through an AbortSignal and frees the job', async () => {
    await rp.lab.train(small); // warm caches so the heap level is stable
    const before = rp.heapInUse();
    const controller = new AbortController();
    let steps = 0;
    const run = rp.lab.train({
      ...small,
      steps: 100000,
      onProgress: () => {
        if (++steps === 3) controller.abort();
      },
      signal: controller.signal,
    });
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    expect(steps).toBe(3);
    expect(rp.heapInUse()).toBe(before);
    // An already-aborted signal never starts a job.
    await expect(rp.lab.train({ ...small, signal: AbortSignal.abort() })).rejects.toThrow();
    expect(rp.heapInUse()).toBe(before);
  });

  it('names bad options', async () => {
    await expect(rp.lab.train({ bogus: 1 })).rejects.toThrow(RangeError);
    await expect(rp.lab.train({ scheme: 'bogus' })).rejects.toThrow(/scheme/);
    await expect(rp.lab.train({ heads: 3 })).rejects.toThrow(/divisible/);
    await expect(rp.lab.train({ lr: [1] })).rejects.toThrow(TypeError);
    await expect(rp.lab.train(5)).rejects.toThrow(TypeError);
  });
});
