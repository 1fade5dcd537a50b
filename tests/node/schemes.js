// Shared checks of the scheme tests (nope, p-rope, rope-2d): reproducible content and "the lab
// trains with it".
import { expect } from 'vitest';

/** A [rows, cols] tensor of sin(rate·i + 0.3). */
export const mat = (rows, cols, rate) => ({
  shape: [rows, cols],
  data: Float32Array.from({ length: rows * cols }, (_, i) => Math.sin(rate * i + 0.3)),
});

/** Trains a tiny lab model with `scheme` and checks that the loss falls and the maps come back. */
export async function expectTrainsInTheLab(rp, scheme) {
  const r = await rp.lab.train({ scheme, length: 8, steps: 40, batch: 8, dModel: 16, dFF: 16, evalSequences: 2 });
  expect(r.loss.length).toBe(40);
  expect(r.loss.every(Number.isFinite)).toBe(true);
  expect(r.loss[39]).toBeLessThan(r.loss[0]);
  expect(r.attention.L.shape).toEqual([2, 8, 8]);
  expect(r.options.scheme).toBe(scheme);
}
