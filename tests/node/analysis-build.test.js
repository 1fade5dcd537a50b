// The analysis module's two builds (docs/build.md): the SIMD build runs Eigen's SSE4.2 path, compiled
// to WebAssembly SIMD, and says so; the baseline build runs Eigen's scalar code. Both compute the same
// analyses: every analysis of rp.analysis, run on the same input in each, agrees within the
// tolerances the analysis tests use.
import { describe, expect, it } from 'vitest';
import { load } from '../../bindings/index.js';

const simd = await load({ simd: true, analysis: true });
const baseline = await load({ simd: false, analysis: true });

// Deterministic numbers in [-1, 1) (a linear congruential generator): the same input for both builds.
function values(count, seed) {
  let s = seed >>> 0;
  return Float32Array.from({ length: count }, () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 31 - 1;
  });
}

const matrix = (rows, cols, seed) => ({ shape: [rows, cols], data: values(rows * cols, seed) });
const symmetric = (n, seed) => {
  const m = matrix(n, n, seed);
  for (let i = 0; i < n; i++) for (let j = 0; j < i; j++) m.data[i * n + j] = m.data[j * n + i];
  return m;
};
const softmaxRows = (m) => {
  const [rows, cols] = m.shape;
  const data = Float32Array.from(m.data, Math.exp);
  for (let i = 0; i < rows; i++) {
    let sum = 0;
    for (let j = 0; j < cols; j++) sum += data[i * cols + j];
    for (let j = 0; j < cols; j++) data[i * cols + j] /= sum;
  }
  return { shape: m.shape, data };
};

// One call of each analysis, as the chapter and the analysis tests make them.
const CALLS = {
  translationDefect: (rp) => rp.analysis.translationDefect(rp.scores('rope', { n: 48, d: 32 })),
  svd: (rp) => rp.analysis.svd(matrix(96, 64, 1)),
  svdVectors: (rp) => rp.analysis.svd(matrix(24, 16, 2), { vectors: true }).singularValues,
  eig: (rp) => rp.analysis.eig(symmetric(80, 3)),
  distances: (rp) => rp.analysis.distances(rp.encoding('sinusoidal', { n: 40, d: 32 }), 'cosine'),
  project2d: (rp) => rp.analysis.project2d(rp.encoding('sinusoidal', { n: 40, d: 32 })).explained,
  entropy: (rp) => rp.analysis.entropy(softmaxRows(matrix(32, 32, 4))),
  distanceEntropy: (rp) => rp.analysis.distanceEntropy(softmaxRows(matrix(32, 32, 5))),
  kernelCheck: (rp) => rp.analysis.kernelCheck('alibi', { n: 64 }),
  gpSample: (rp) => rp.analysis.gpSample('gaussian', { n: 48, count: 3, seed: 7 }),
  gpPosterior: (rp) => rp.analysis.gpPosterior('exp-decay', { n: 32, at: [0, 9, 31], y: [1, -1, 0.5], noise: 0.01 }),
  derivative: (rp) => rp.analysis.derivative('kerple-log', { n: 32 }),
  decayBound: (rp) => rp.analysis.decayBound({ d: 64, maxDistance: 256 }),
  precision: (rp) => rp.analysis.precision({ d: 64, n: 512 }),
  angleCoverage: (rp) => rp.analysis.angleCoverage({ d: 64, trainLength: 2048 }),
  scaledCosine: (rp) => rp.analysis.scaledCosine({ d: 64, n: 128 }),
  peBound: (rp) => rp.analysis.peBound({ d: 64, n: 256 }),
};

// Every number and verdict of two results, paired by path ('svd.singularValues[3]').
function* pairs(a, b, path) {
  if (typeof a === 'number' || typeof a === 'boolean') {
    yield [path, a, b];
  } else if (ArrayBuffer.isView(a) || Array.isArray(a)) {
    expect(b.length, path).toBe(a.length);
    for (let i = 0; i < a.length; i++) yield* pairs(a[i], b[i], `${path}[${i}]`);
  } else if (a && typeof a === 'object') {
    expect(Object.keys(b).sort(), path).toEqual(Object.keys(a).sort());
    for (const key of Object.keys(a)) yield* pairs(a[key], b[key], `${path}.${key}`);
  }
}

describe('the analysis module’s builds', () => {
  it('the SIMD build runs Eigen’s vectorised SSE4.2 path (compiled to WebAssembly SIMD)', () => {
    const info = simd.analysis.buildInfo();
    expect(info).toEqual({
      eigen: '3.4.0',
      vectorized: true,
      instructionSets: expect.stringContaining('SSE4.2'),
      simd: true,
    });
    console.log(`analysis module, SIMD build: Eigen ${info.eigen}, ${info.instructionSets}`);
  });

  it('the baseline build runs Eigen’s scalar code', () => {
    expect(baseline.analysis.buildInfo()).toEqual({
      eigen: '3.4.0',
      vectorized: false,
      instructionSets: 'None',
      simd: false,
    });
  });

  it.each(Object.keys(CALLS))('%s: the SIMD and baseline builds agree', (name) => {
    const a = CALLS[name](simd);
    const b = CALLS[name](baseline);
    let count = 0;
    for (const [path, x, y] of pairs(a, b, name)) {
      count++;
      if (typeof x === 'boolean' || !Number.isFinite(x)) expect(y, path).toBe(x);
      else expect(Math.abs(x - y), path).toBeLessThanOrEqual(1e-5 * Math.max(1, Math.abs(x)));
    }
    expect(count).toBeGreaterThan(0);
  });
});
