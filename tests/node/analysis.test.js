// rp.analysis through the public API against the real wasm build: what each chapter section computes
// (tutorial.md 2.1.2–2.1.8), and bad input named precisely without harming the instance.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { load } from '../../bindings/index.js';
import { randomNormal } from '../../web/tutorial/random.js';
import { thrownBy } from './thrown.js';

const rp = await load({ analysis: true });
const A = rp.analysis;

// (E W_Q)(E W_K)ᵀ / √d for E [n, d] and random W_Q, W_K [d, d].
function projectedLogits(E, seed) {
  const [n, d] = E.shape;
  // Deterministic N(0, 1) weights, the chapter's own seeded generator.
  const wq = randomNormal(d * d, seed);
  const wk = randomNormal(d * d, seed + 1);
  const project = (w) =>
    Array.from({ length: n * d }, (_, at) => {
      const i = Math.floor(at / d),
        c = at % d;
      let sum = 0;
      for (let t = 0; t < d; t++) sum += E.data[i * d + t] * w[t * d + c];
      return sum;
    });
  const q = project(wq),
    k = project(wk);
  const data = new Float32Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      let dot = 0;
      for (let c = 0; c < d; c++) dot += q[i * d + c] * k[j * d + c];
      data[i * n + j] = dot / Math.sqrt(d);
    }
  }
  return { shape: [n, n], data };
}

describe('2.1.2 translation invariance: translationDefect', () => {
  it('RoPE scores are Toeplitz: the defect is ~0', () => {
    const S = rp.scores('rope', { n: 64, d: 32 });
    const result = A.translationDefect(S);
    expect(result.isToeplitz).toBe(true);
    expect(result.relative).toBeLessThan(1e-5);
    expect(result.perHead.max).toHaveLength(1);
  });

  it('sinusoidal raw dot products are invariant, but not once random W_Q, W_K project them', () => {
    const E = rp.encoding('sinusoidal', { n: 48, d: 32 });
    expect(A.translationDefect(rp.scores('sinusoidal', { n: 48, d: 32 })).isToeplitz).toBe(true);
    const projected = A.translationDefect(projectedLogits(E, 5));
    expect(projected.isToeplitz).toBe(false);
    expect(projected.relative).toBeGreaterThan(0.01);
    expect(projected.mean).toBeGreaterThan(0);
  });

  it('matches the O(n³) definition and takes a single shift k', () => {
    const rows = [
      [1, 2, 3],
      [4, 1, 2],
      [0, 4, 5],
    ];
    let max = 0,
      sum = 0,
      count = 0;
    for (let i = 0; i < 3; i++) {
      for (let j = 0; j < 3; j++) {
        for (let k = 1; i + k < 3 && j + k < 3; k++) {
          const diff = Math.abs(rows[i + k][j + k] - rows[i][j]);
          max = Math.max(max, diff);
          sum += diff;
          count++;
        }
      }
    }
    const result = A.translationDefect(rows);
    expect(result.max).toBe(max);
    expect(result.mean).toBeCloseTo(sum / count, 6);
    expect(A.translationDefect(rows, { shift: 2 }).max).toBe(Math.abs(rows[2][2] - rows[0][0]));
  });

  it('causal ALiBi is invariant where it is defined (masked entries match each other)', () => {
    expect(A.translationDefect(rp.bias('alibi', { n: 32, heads: 4, causal: true })).max).toBe(0);
  });
});

describe('2.1.3 geometry: distances and project2d', () => {
  const E = rp.encoding('sinusoidal', { n: 64, d: 16 });

  it('gives [n, n] symmetric matrices with a zero diagonal for each metric', () => {
    for (const metric of ['euclidean', 'cosine', 'manhattan']) {
      const D = A.distances(E, metric);
      expect(D.shape).toEqual([64, 64]);
      for (let i = 0; i < 64; i += 7) {
        expect(D.data[i * 64 + i]).toBe(0);
        for (let j = 0; j < 64; j += 5) expect(D.data[i * 64 + j]).toBe(D.data[j * 64 + i]);
      }
    }
    // Sinusoidal vectors all have norm sqrt(d/2), so ‖p_i − p_j‖² = d·(1 − cos).
    const euclid = A.distances(E).data,
      cosine = A.distances(E, 'cosine').data;
    expect(euclid[3 * 64 + 17] ** 2).toBeCloseTo(16 * cosine[3 * 64 + 17], 3);
  });

  it('projects the position vectors onto their two main directions', () => {
    const { points, explained } = A.project2d(E);
    expect(points.shape).toEqual([64, 2]);
    expect(explained).toHaveLength(2);
    expect(explained[0]).toBeGreaterThanOrEqual(explained[1]);
    expect(explained[0] + explained[1]).toBeLessThanOrEqual(1 + 1e-6);
  });
});

describe('2.1.4 linear algebra: svd and eig', () => {
  it('SVD of a diagonal matrix: its |entries| sorted, effective rank exp(H), condition number', () => {
    const r = A.svd([
      [1, 0, 0],
      [0, -3, 0],
      [0, 0, 2],
    ]);
    expect(Array.from(r.singularValues)).toEqual([3, 2, 1]);
    expect(r.conditionNumber).toBeCloseTo(3, 6);
    const p = [3 / 6, 2 / 6, 1 / 6];
    expect(r.effectiveRank).toBeCloseTo(Math.exp(-p.reduce((h, x) => h + x * Math.log(x), 0)), 5);
    expect(r.U).toBeUndefined();
  });

  it('SVD with vectors of a rank-1 matrix: one non-zero value, U Σ Vᵀ rebuilds it', () => {
    const M = [
      [2, 4],
      [1, 2],
      [3, 6],
    ];
    const r = A.svd(M, { vectors: true });
    expect(r.rank).toBe(1);
    expect(r.singularValues[1]).toBeLessThan(1e-6);
    expect(r.U.shape).toEqual([3, 2]);
    expect(r.V.shape).toEqual([2, 2]);
    for (let i = 0; i < 3; i++) {
      for (let j = 0; j < 2; j++) {
        let sum = 0;
        for (let k = 0; k < 2; k++) sum += r.U.data[i * 2 + k] * r.singularValues[k] * r.V.data[j * 2 + k];
        expect(sum).toBeCloseTo(M[i][j], 5);
      }
    }
  });

  it('eigenvalues of the symmetric part, ascending, with a PSD verdict', () => {
    const r = A.eig(
      [
        [2, 1],
        [1, 2],
      ],
      { vectors: true },
    );
    expect(Array.from(r.values)).toEqual([1, 3]);
    expect(r.isPSD).toBe(true);
    expect(r.vectors.shape).toEqual([2, 2]);
    const skew = A.eig([
      [1, 4],
      [0, 1],
    ]); // symmetric part [[1, 2], [2, 1]]
    expect(skew.values[0]).toBeCloseTo(-1, 6);
    expect(skew.isPSD).toBe(false);
  });

  it('the rank cut is the float32 rounding of the entries: P·Pᵀ of float32 sinusoids has rank ≤ d and no finite condition number', () => {
    for (const n of [64, 256]) {
      const S = rp.scores('sinusoidal', { n, d: 32, heads: 1 });
      const r = A.svd({ shape: [n, n], data: S.data });
      const frobenius = Math.sqrt(Array.from(r.singularValues).reduce((a, s) => a + s * s, 0));
      expect(r.tolerance).toBeCloseTo((2 ** -23 * frobenius) / r.singularValues[0], 9); // ε_float32 · ‖M‖_F / σ_max
      expect(r.rank).toBeLessThanOrEqual(32);
      expect(r.conditionNumber).toBe(Infinity);
      // The same singular values counted with a float64 cut would call rounding noise rank.
      expect(A.svd({ shape: [n, n], data: S.data }, { tolerance: n * 2 ** -52 }).rank).toBeGreaterThan(32);
    }
    // A well-conditioned matrix keeps its full rank and finite condition number.
    const full = A.svd([
      [2, 1],
      [1, 2],
    ]);
    expect([full.rank, full.conditionNumber]).toEqual([2, 3]);
    expect(() => A.svd([[1]], { tolerance: 2 })).toThrow(RangeError);
  });

  it('eig reports symmetry: an antisymmetric matrix (an odd k(j − i)) is not PSD, whatever its symmetric part', () => {
    const B = rp.bias('sin-freq', { n: 32 }); // sin((j − i)/α): odd
    const r = A.eig({ shape: [32, 32], data: B.data });
    expect(r.symmetric).toBe(false);
    expect(r.asymmetry).toBeCloseTo(2, 5);
    expect(Math.max(...Array.from(r.values, Math.abs))).toBe(0); // its symmetric part is exactly 0
    expect(r.isPSD).toBe(false);
    // The kernel check of the same profile says the same.
    expect(A.kernelCheck('sin-freq', { n: 32 }).isPSD).toBe(false);
    const sym = A.eig([
      [2, 1],
      [1, 2],
    ]);
    expect([sym.symmetric, sym.asymmetry, sym.isPSD]).toEqual([true, 0, true]);
  });

  it('a 512×512 SVD runs in both builds', async () => {
    const M = { shape: [512, 512], data: randomNormal(512 * 512, 9) };
    const simd = A.svd(M);
    const baseline = (await load({ simd: false, analysis: true })).analysis.svd(M);
    expect(simd.singularValues).toHaveLength(512);
    for (let i = 0; i < 512; i += 51) expect(baseline.singularValues[i]).toBeCloseTo(simd.singularValues[i], 3);
    // Marchenko–Pastur: the largest singular value of an n×n N(0, 1) matrix is about 2√n.
    expect(simd.singularValues[0] / (2 * Math.sqrt(512))).toBeGreaterThan(0.9);
    expect(simd.singularValues[0] / (2 * Math.sqrt(512))).toBeLessThan(1.1);
  }, 60000);
});

describe('2.1.5 probability: kernelCheck, gpSample, entropy, distanceEntropy', () => {
  it('exp-decay, Gaussian, cosine and sinc are valid kernels', () => {
    for (const name of ['exp-decay', 'gaussian', 'cosine', 'sinc']) {
      const r = A.kernelCheck(name, { n: 64 });
      expect(r.symmetric, name).toBe(true);
      expect(r.isPSD, name).toBe(true);
      expect(r.eigenvalues, name).toHaveLength(64);
    }
  });

  it('sin fails the first test (odd, so K is antisymmetric); sin-even and box fail the second', () => {
    const sin = A.kernelCheck({ name: 'sin', alpha: 8 }, { n: 64 });
    expect(sin.symmetric).toBe(false);
    expect(sin.isPSD).toBe(false);
    for (const name of ['sin-even', 'box']) {
      const r = A.kernelCheck({ name }, { n: 64 });
      expect(r.symmetric, name).toBe(true);
      expect(r.isPSD, name).toBe(false);
      expect(r.minEigenvalue, name).toBeLessThan(0);
    }
  });

  it('accepts tabulated values and bias scheme ids', () => {
    const values = Array.from({ length: 15 }, (_, t) => Math.exp(-Math.abs(t - 7) / 3));
    const r = A.kernelCheck({ values });
    expect(r.eigenvalues).toHaveLength(8);
    expect(r.isPSD).toBe(true);
    expect(A.kernelCheck({ name: 'sin-freq', alpha: 4 }, { n: 16 }).symmetric).toBe(false);
    expect(A.kernelCheck('alibi', { n: 16 }).isPSD).toBe(false);
  });

  it('conditional positive definiteness: −|r|-type biases are CPD but not PSD, exp(−λ|r|) is both, an odd profile neither', () => {
    for (const name of ['alibi', 'kerple-log', 'kerple-power']) {
      const r = A.kernelCheck({ name }, { n: 64 });
      expect([r.isPSD, r.isCPD], name).toEqual([false, true]);
      expect(r.minEigenvalue, name).toBeLessThan(0);
    }
    const values = Array.from({ length: 63 }, (_, t) => -0.1 * Math.abs(t - 31));
    expect(A.kernelCheck({ values }).isCPD).toBe(true); // the bias −λ|r| …
    expect(A.kernelCheck({ values: values.map(Math.exp) }).isPSD).toBe(true); // … and its exponential (Schoenberg)
    expect(A.kernelCheck('exp-decay', { n: 64 }).isCPD).toBe(true); // PSD implies CPD
    expect(A.kernelCheck('sin', { n: 64 }).isCPD).toBe(false);
    const square = Array.from({ length: 63 }, (_, t) => (t - 31) ** 2); // +r² is conditionally negative definite
    expect(A.kernelCheck({ values: square }).isCPD).toBe(false);
  });

  it('GP regression: the posterior passes near the observations, its spread shrinks there and returns to the prior far away', () => {
    const post = A.gpPosterior({ name: 'gaussian', sigma: 3 }, { n: 40, at: [0, 10, 20], y: [0, -1, -2], noise: 0.05 });
    expect(post.mean).toHaveLength(40);
    for (const [t, y] of [
      [0, 0],
      [10, -1],
      [20, -2],
    ]) {
      expect(Math.abs(post.mean[t] - y)).toBeLessThan(0.05);
      expect(post.std[t]).toBeLessThan(0.06);
    }
    expect(post.std[39]).toBeCloseTo(1, 3); // far from the data: the prior's k(0) = 1
    expect(Math.abs(post.mean[39])).toBeLessThan(1e-3);
    // A prior mean function m shifts where the posterior returns to.
    const mean = Array.from({ length: 40 }, (_, t) => -0.1 * t);
    const shifted = A.gpPosterior({ name: 'gaussian', sigma: 3 }, { n: 40, at: [0], y: [0], noise: 0.05, mean });
    expect(shifted.mean[39]).toBeCloseTo(-3.9, 3);
    // Exact conditioning on one point: mean k(t)/(1 + σ²) · y.
    const one = A.gpPosterior({ name: 'exp-decay', lambda: 0.5 }, { n: 5, at: [2], y: [1], noise: 0.5 });
    expect(one.mean[4]).toBeCloseTo(Math.exp(-1) / 1.25, 5);
    expect(() => A.gpPosterior('sin', { n: 8, at: [1], y: [0] })).toThrow(/not symmetric/);
    expect(() => A.gpPosterior('gaussian', { n: 8, at: [8], y: [0] })).toThrow(RangeError);
    expect(() => A.gpPosterior('gaussian', { n: 8, at: [1, 2], y: [0] })).toThrow(/one value per entry/);
  });

  it('GP samples are [count, n], seeded, and their covariance approaches k(j − i)', () => {
    const s = A.gpSample({ name: 'exp-decay', lambda: 0.5 }, { n: 5, count: 20000, seed: 3 });
    expect(s.shape).toEqual([20000, 5]);
    expect(s.jitter).toBe(0);
    for (let i = 0; i < 5; i++) {
      for (let j = 0; j < 5; j++) {
        let cov = 0;
        for (let c = 0; c < 20000; c++) cov += s.data[c * 5 + i] * s.data[c * 5 + j];
        expect(Math.abs(cov / 20000 - Math.exp(-0.5 * Math.abs(j - i)))).toBeLessThan(0.04);
      }
    }
    expect(A.gpSample('exp-decay', { n: 5, count: 3, seed: 3 }).data).toEqual(
      A.gpSample('exp-decay', { n: 5, count: 3, seed: 3 }).data,
    );
    expect(A.gpSample('cosine', { n: 32, seed: 1 }).jitter).toBeGreaterThan(0); // rank 2 needs jitter
  });

  it('entropy per row in nats, and the distance distribution p(r) of attention', () => {
    const uniform = Array.from({ length: 4 }, () => [1, 1, 1, 1]);
    expect(Array.from(A.entropy(uniform))).toEqual(Array(4).fill(Math.fround(Math.log(4))));
    const eye = [
      [1, 0, 0],
      [0, 1, 0],
      [0, 0, 1],
    ];
    const d = A.distanceEntropy(eye);
    expect(Array.from(d.r)).toEqual([-2, -1, 0, 1, 2]);
    expect(Array.from(d.p)).toEqual([0, 0, 1, 0, 0]);
    expect(d.entropy).toBe(0);
    const W = rp.attention({
      q: { shape: [16, 4], data: new Float32Array(64) },
      k: { shape: [16, 4], data: new Float32Array(64) },
      scheme: 'alibi',
      causal: true,
      heads: 2,
    }).weights;
    const perHead = A.distanceEntropy(W);
    expect(perHead.p.shape).toEqual([2, 31]);
    expect(perHead.entropy).toHaveLength(2);
    expect(perHead.entropy[0]).toBeLessThan(perHead.entropy[1]); // the steeper slope concentrates p(r)
    expect(A.entropy(W)).toHaveLength(32);
  });
});

describe('2.1.7 decay and frequency design', () => {
  it('decayBound starts at (d/2 + 1)/2 and decays with distance', () => {
    const b = A.decayBound({ d: 128, base: 10000, maxDistance: 2000 });
    expect(b).toHaveLength(2001);
    expect(b[0]).toBeCloseTo(32.5, 4);
    const mean = (from, to) => b.slice(from, to).reduce((s, x) => s + x, 0) / (to - from);
    expect(mean(0, 10)).toBeGreaterThan(mean(10, 100));
    expect(mean(10, 100)).toBeGreaterThan(mean(100, 2000));
  });

  it('angleCoverage: the low-frequency pairs never complete a turn; scaling moves them', () => {
    const plain = A.angleCoverage({ d: 128, base: 10000, trainLength: 4096 });
    expect(plain.completesTurn[0]).toBe(true);
    expect(plain.completesTurn[63]).toBe(false);
    expect(plain.firstIncomplete).toBe(plain.completesTurn.indexOf(false));
    expect(plain.wavelength[0]).toBeCloseTo(2 * Math.PI, 5);
    const linear = A.angleCoverage({ d: 128, trainLength: 4096, scheme: 'rope-linear', params: { factor: 4 } });
    expect(linear.incompleteCount).toBeGreaterThan(plain.incompleteCount);
  });

  it('scaledCosine is 1 at position 0 and falls when a scaling is ignored', () => {
    const c = A.scaledCosine({ d: 64, scheme: 'rope-linear', params: { factor: 4 }, positions: [0, 10, 10000] });
    expect(c[0]).toBeCloseTo(1, 6);
    expect(c[2]).toBeLessThan(c[1]);
    expect(Array.from(A.scaledCosine({ d: 64, scheme: 'rope-linear', factor: 1, n: 5 }))).toEqual([1, 1, 1, 1, 1]);
  });
});

describe('2.1.8 numerical stability', () => {
  it('peBound: every sinusoidal vector has norm C = sqrt(d/2)', () => {
    const r = A.peBound({ d: 64, n: 300 });
    expect(r.C).toBeCloseTo(Math.sqrt(32), 6);
    expect(r.measured).toBeCloseTo(r.C, 5);
    expect(r.norms).toHaveLength(300);
  });

  it("derivative: analytic f'(r) agrees with central differences of f", () => {
    const at = [-9.5, -1.25, 0.75, 3.5, 40.25];
    for (const profile of [
      'exp-decay',
      { name: 'gaussian', sigma: 3 },
      'sinc',
      'alibi',
      'kerple-log',
      { name: 'kerple-power', r2: 0.5 },
      'sin-freq',
    ]) {
      const h = 1e-2;
      const plus = A.derivative(profile, { at: at.map((r) => r + h) }).value;
      const minus = A.derivative(profile, { at: at.map((r) => r - h) }).value;
      const { derivative } = A.derivative(profile, { at });
      at.forEach((r, t) => {
        const fd = (plus[t] - minus[t]) / (2 * h);
        expect(Math.abs(derivative[t] - fd), `${JSON.stringify(profile)} at ${r}`).toBeLessThan(
          2e-3 * Math.max(1, Math.abs(fd)),
        );
      });
    }
  });

  it('derivative: bound is sup |f(r)| where the form states one (sandwich: dBar/8 at every dBar, base, r), else NaN', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1 << 15 }),
        fc.double({ min: 1.5, max: 1e6, noNaN: true }),
        fc.array(fc.double({ min: -1e9, max: 1e9, noNaN: true }), { minLength: 1, maxLength: 16 }),
        (half, base, at) => {
          const dBar = 2 * half;
          const { value, bound } = A.derivative({ name: 'sandwich', dBar, base }, { at });
          expect(bound).toBe(dBar / 8);
          for (const v of value) expect(Math.abs(v)).toBeLessThanOrEqual(bound * (1 + 1e-6));
        },
      ),
      { numRuns: 60, seed: 2026 },
    );
    for (const profile of ['exp-decay', 'gaussian', 'alibi', 'kerple-log', 'kerple-power', 'sin-freq']) {
      expect(A.derivative(profile, { at: [1] }).bound, profile).toBeNaN();
    }
  });

  it('precision: angle error grows with position and bfloat16 > float16 > float32', () => {
    const positions = [10, 1000, 60000];
    const err = (dtype) => A.precision({ d: 128, positions, dtype }).angleError;
    const [f32, f16, bf16] = ['float32', 'float16', 'bfloat16'].map(err);
    for (let i = 0; i < 3; i++) {
      expect(f32[i]).toBeLessThan(f16[i]);
      expect(f16[i]).toBeLessThan(bf16[i]);
    }
    expect(f32[2]).toBeGreaterThan(f32[0]);
    expect(A.precision({ d: 128, positions: [1e6], dtype: 'float16' }).maxAngleError).toBe(Infinity); // 1e6 > 65504
    expect(A.precision({ d: 8, n: 3, perPair: true }).angleErrorPerPair.shape).toEqual([3, 4]);
  });

  it("precision with angles: 'float32': float32's angles, only the tables stored in the dtype", () => {
    const positions = [10, 1000, 60000, 1e6];
    const f32 = A.precision({ d: 128, positions, dtype: 'float32' });
    for (const dtype of ['float16', 'bfloat16']) {
      const stored = A.precision({ d: 128, positions, dtype, angles: 'float32' });
      const worst = A.precision({ d: 128, positions, dtype });
      expect(Array.from(stored.angleError)).toEqual(Array.from(f32.angleError));
      for (let i = 0; i < positions.length; i++) {
        // The stored tables move the float32 result by at most the dtype's rounding (2⁻⁸ per component).
        expect(Math.abs(stored.rotationError[i] - f32.rotationError[i])).toBeLessThan(6e-3);
        if (i < 3) expect(stored.rotationError[i]).toBeLessThan(worst.rotationError[i]);
      }
      // Storing cos/sin in bfloat16 costs about its half-ulp, 2⁻⁹, per component: well below 0.01.
      expect(stored.rotationError[0]).toBeLessThan(1e-2);
    }
    expect(() => A.precision({ d: 8, n: 2, angles: 'float64' })).toThrow(/angles/);
  });
});

describe('bad input names the function and the argument; the instance keeps working', () => {
  const cases = [
    [
      'svd of a string',
      () => A.svd('M'),
      TypeError,
      /^relpos\.analysis\.svd: M must be a tensor of shape \[rows, cols\]$/,
    ],
    [
      'svd of a vector',
      () => A.svd([1, 2, 3]),
      TypeError,
      /relpos\.analysis\.svd: M must be a tensor of shape \[rows, cols\]/,
    ],
    ['svd with NaN', () => A.svd([[1, NaN]]), RangeError, /relpos\.analysis\.svd: M must hold finite numbers, got NaN/],
    [
      'svd too large',
      () => A.svd({ shape: [2049, 2], data: new Float32Array(4098) }),
      RangeError,
      /relpos\.analysis\.svd: M is 2049×2; at most 2048/,
    ],
    [
      'svd too much work',
      () => A.svd({ shape: [1400, 1400], data: new Float32Array(1400 * 1400) }),
      RangeError,
      /relpos\.analysis\.svd: M is 1400×1400; an SVD needs rows·cols·min\(rows, cols\) <= 2\^31/,
    ],
    [
      'eig too large',
      () => A.eig({ shape: [2049, 2049], data: new Float32Array(2049 * 2049) }),
      RangeError,
      /relpos\.analysis\.eig: M is 2049×2049; at most 2048/,
    ],
    [
      'eig of a non-square matrix',
      () =>
        A.eig([
          [1, 2, 3],
          [4, 5, 6],
        ]),
      RangeError,
      /relpos\.analysis\.eig: M must be square, got shape \[2, 3\]/,
    ],
    [
      'translationDefect of a non-square S',
      () => A.translationDefect([[1, 2]]),
      RangeError,
      /relpos\.analysis\.translationDefect: S must be square/,
    ],
    [
      'translationDefect with Infinity',
      () =>
        A.translationDefect([
          [1, Infinity],
          [0, 1],
        ]),
      RangeError,
      /S must hold finite numbers, got Infinity/,
    ],
    [
      'distances with an unknown metric',
      () => A.distances([[1, 2]], 'chebyshev'),
      RangeError,
      /relpos\.analysis\.distances: metric must be one of 'euclidean', 'cosine', 'manhattan', got 'chebyshev'/,
    ],
    [
      'entropy with a negative weight',
      () => A.entropy([[0.5, -0.5]]),
      RangeError,
      /relpos\.analysis\.entropy: W must be non-negative/,
    ],
    [
      'kernelCheck with no profile',
      () => A.kernelCheck(42, { n: 4 }),
      TypeError,
      /relpos\.analysis\.kernelCheck: profile must be a name/,
    ],
    [
      'kernelCheck with an unknown profile',
      () => A.kernelCheck('triangle', { n: 4 }),
      RangeError,
      /relpos\.analysis\.kernelCheck: profile must be one of 'exp-decay', .*'alibi'.* got 'triangle'/,
    ],
    [
      'kernelCheck with a parameter of another profile',
      () => A.kernelCheck({ name: 'gaussian', lambda: 1 }, { n: 4 }),
      RangeError,
      /relpos\.analysis\.kernelCheck: unknown parameter 'lambda'/,
    ],
    [
      'kernelCheck with a bad sigma',
      () => A.kernelCheck({ name: 'gaussian', sigma: -1 }, { n: 4 }),
      RangeError,
      /relpos\.analysis\.kernelCheck: sigma must be > 0/,
    ],
    [
      'kernelCheck values of the wrong length',
      () => A.kernelCheck({ values: [1, 2, 3] }, { n: 4 }),
      RangeError,
      /values must hold 2n - 1 = 7 numbers/,
    ],
    [
      'kernelCheck n too large',
      () => A.kernelCheck('gaussian', { n: 3000 }),
      RangeError,
      /relpos\.analysis\.kernelCheck: n must be <= 2048/,
    ],
    [
      'gpSample n too large',
      () => A.gpSample('gaussian', { n: 5000 }),
      RangeError,
      /relpos\.analysis\.gpSample: n must be <= 4096/,
    ],
    [
      'gpSample of sin',
      () => A.gpSample('sin', { n: 8 }),
      RangeError,
      /relpos\.analysis\.gpSample: profile 'sin' is not symmetric/,
    ],
    [
      'gpSample with a fractional count',
      () => A.gpSample('gaussian', { n: 8, count: 1.5 }),
      RangeError,
      /relpos\.analysis\.gpSample: count must be an integer, got 1.5/,
    ],
    [
      'derivative of the box',
      () => A.derivative('box', { n: 4 }),
      RangeError,
      /relpos\.analysis\.derivative: profile 'box' has no analytic derivative/,
    ],
    [
      'decayBound with odd d',
      () => A.decayBound({ d: 63 }),
      RangeError,
      /relpos\.analysis\.decayBound: d must be even, got 63/,
    ],
    ['decayBound without d', () => A.decayBound({}), TypeError, /relpos\.analysis\.decayBound: d is required/],
    [
      'precision with an unknown dtype',
      () => A.precision({ d: 8, n: 2, dtype: 'float8' }),
      RangeError,
      /relpos\.analysis\.precision: dtype must be one of 'float32', 'float16', 'bfloat16', got 'float8'/,
    ],
    [
      'angleCoverage with a non-rotary scheme',
      () => A.angleCoverage({ d: 8, trainLength: 16, scheme: 'alibi' }),
      RangeError,
      /relpos\.analysis\.angleCoverage: scheme must be a rotary scheme/,
    ],
    [
      'angleCoverage with an unknown parameter',
      () => A.angleCoverage({ d: 8, trainLength: 16, fctor: 2 }),
      RangeError,
      /relpos\.analysis\.angleCoverage: unknown parameter 'fctor'/,
    ],
    [
      'scaledCosine with base NaN',
      () => A.scaledCosine({ d: 8, n: 2, base: NaN }),
      RangeError,
      /relpos\.analysis\.scaledCosine: base must be finite, got NaN/,
    ],
    [
      'options not an object',
      () => A.svd([[1]], 'vectors'),
      TypeError,
      /relpos\.analysis\.svd: options must be a plain object/,
    ],
  ];

  for (const [what, call, ErrorType, message] of cases) {
    it(`${what} → ${ErrorType.name}`, () => {
      const caught = thrownBy(call);
      expect(caught).toBeInstanceOf(ErrorType);
      expect(caught.message).toMatch(message);
      expect(
        A.eig([
          [2, 1],
          [1, 2],
        ]).values[1],
      ).toBe(3);
    });
  }

  it('does not leak on failing calls', () => {
    for (const [, call] of cases) thrownBy(call);
    A.svd([
      [1, 2],
      [3, 4],
    ]);
    const before = rp.heapInUse();
    for (let round = 0; round < 300; round++) {
      thrownBy(cases[round % cases.length][1]);
      A.kernelCheck('gaussian', { n: 16 });
    }
    expect(rp.heapInUse()).toBe(before);
  });
});
