// What the chapter measures, one function per quantity, shared by the sections (numbers, badges,
// figures, the 2.1.9 table) and by the claim checks (claims.js, tests/node/claims.test.js), so the page
// and its tests cannot drift. Every function takes the loaded core `rp` and computes through its
// public API; the few steps done here in JavaScript are listed in JS_STEPS and named on the page.
// No DOM.
import { randomTensor } from './random.js';

/** Steps computed in JavaScript rather than in the core (the page names them in its lead). */
export const JS_STEPS = [
  'projections', // 2.1.2: sinusoidal vectors through random W_Q, W_K (a matrix product)
  'relativeMap', // 2.1.3: φ(i, j) from the 2-D pairs of two position vectors
  'lowRank', // 2.1.4: U_k Σ_k V_kᵀ from the core's SVD
  'logits', // 2.1.5, 2.1.6: logits recovered from attention weights (log w_ij − log w_ii)
  'profiles', // 2.1.9: rotary and sinusoidal s(r) as dot products of the core's rotated / encoded vectors
  'angles', // 2.1.7: largest angles (L − 1)θ_k, (sL − 1)θ′_k from the core's θ_k
  'naiveSoftmax', // 2.1.8: the float32 softmax without the max trick, the thing being shown to fail
];

const range = (count, from = 0) => Array.from({ length: count }, (_, k) => from + k);

/**
 * Every value of a figure's control: a discrete control's options (a checkbox is { options: [false,
 * true] }, a form or scheme selector lists its values), or a slider's steps from min to max (rounded to
 * the step's decimals). Claims and their tests sweep these (web/tutorial/claims.js).
 */
export function controlValues(control) {
  if (Array.isArray(control.options)) return [...control.options];
  const step = control.step ?? 1;
  const decimals = (String(step).split('.')[1] ?? '').length;
  const count = Math.round((control.max - control.min) / step);
  return Array.from({ length: count + 1 }, (_, k) => Number((control.min + k * step).toFixed(decimals)));
}

function maxAbs(data) {
  let m = 0;
  for (const v of data) if (Number.isFinite(v) && Math.abs(v) > m) m = Math.abs(v);
  return m;
}

function maxAbsDiff(a, b) {
  let m = 0;
  for (let k = 0; k < a.length; k++) m = Math.max(m, Math.abs(a[k] - b[k]));
  return m;
}

const square = (data, n) => ({ shape: [n, n], data });

// ------------------------------------------------------------------------------------------------
// 2.1.1 Permutation: attention without positions only permutes its outputs.

/**
 * A seeded shuffle of 0 … n − 1 that can test the claim: never the identity or the reversal. Those two
 * are the only permutations that keep every distance |j − i|, so a scheme whose bias depends on |j − i|
 * (ALiBi, KERPLE) cannot see them: "order is invisible" drawn from them would say nothing. Any other
 * permutation changes the distance of some pair. A draw that comes out as one of them has its first two
 * entries swapped (n ≥ 3).
 */
export function shuffleOrder(n, seed) {
  const order = range(n);
  const keys = randomTensor(1, n, seed).data;
  order.sort((a, b) => keys[a] - keys[b]);
  const identity = order.every((from, to) => from === to);
  const reversal = order.every((from, to) => from === n - 1 - to);
  if (identity || reversal) [order[0], order[1]] = [order[1], order[0]];
  return order;
}

/** max |attn(Xπ) − π·attn(X)| for seeded X [n, 16] and a seeded permutation π (shuffleOrder); no scheme = NoPE. */
export function permutationGap(rp, { n, scheme, seed = 1 }) {
  const d = 16;
  const X = randomTensor(n, d, 7);
  const order = shuffleOrder(n, seed);
  const Xp = { shape: [n, d], data: new Float32Array(n * d) };
  order.forEach((from, to) => Xp.data.set(X.data.subarray(from * d, (from + 1) * d), to * d));
  const options = scheme ? { scheme } : {};
  const a = rp.attention({ q: X, k: X, v: X, ...options }).output.data;
  const b = rp.attention({ q: Xp, k: Xp, v: Xp, ...options }).output.data;
  let gap = 0;
  order.forEach((from, to) => {
    for (let c = 0; c < d; c++) gap = Math.max(gap, Math.abs(b[to * d + c] - a[from * d + c]));
  });
  return { gap, order, equivariant: gap < 1e-4 };
}

/**
 * The readout of a permutation test: its verdict message and whether it came out as expected —
 * equivariant without positions, order visible with a scheme (a visible order is no failure there).
 */
export function gapVerdict(g, { positions }) {
  return {
    key: g.equivariant ? 's211.equivariant' : 's211.notEquivariant',
    expected: positions ? !g.equivariant : g.equivariant,
  };
}

/** The relative-distance matrix rel(i, j) = j − i from the core's clipped-distance index map. */
export function relativeDistances(rp, n) {
  const idx = rp.buckets('shaw', { n, clip: n - 1 });
  return { shape: [n, n], data: Float32Array.from(idx.data, (v) => v - (n - 1)) };
}

// ------------------------------------------------------------------------------------------------
// 2.1.2 Theorem 1 measured.

export const PROBE_D = 32;

function projected(rp, n, d) {
  const P = rp.encoding('sinusoidal', { n, d });
  const project = (W) => {
    const out = new Float32Array(n * d);
    for (let i = 0; i < n; i++) {
      for (let c = 0; c < d; c++) {
        let acc = 0;
        for (let m = 0; m < d; m++) acc += P.data[i * d + m] * W.data[m * d + c];
        out[i * d + c] = acc;
      }
    }
    return { shape: [n, d], data: out };
  };
  return [project(randomTensor(d, d, 21, 1 / Math.sqrt(d))), project(randomTensor(d, d, 22, 1 / Math.sqrt(d)))];
}

/**
 * Position-only score matrix S [1, n, n] of a scheme (probe width 32), or of two absolute sources:
 * 'learned' (one seeded random vector per position) and 'sinusoidal-wqk' (sinusoidal vectors through
 * random W_Q, W_K). q_i·k_j/√d of the absolute sources is computed by the core (Shaw scores with a
 * zero relative table).
 */
export function positionScores(rp, id, n, params = {}) {
  const d = PROBE_D;
  if (id === 'learned' || id === 'sinusoidal-wqk') {
    const [Q, K] =
      id === 'learned'
        ? [randomTensor(n, d, 11, 1 / Math.sqrt(d)), randomTensor(n, d, 11, 1 / Math.sqrt(d))]
        : projected(rp, n, d);
    return rp.scores('shaw', { n, d, q: Q, k: K, clip: 1, aK: { shape: [3, d], data: new Float32Array(3 * d) } });
  }
  return rp.scores(id, { n, d, heads: 1, ...params });
}

/** Theorem 1 measured: the translation defect of S (relative to max|S|). */
export function invariance(rp, id, n, params = {}) {
  const S = positionScores(rp, id, n, params);
  const td = rp.analysis.translationDefect(S);
  return { verdict: td.isToeplitz, value: td.max, relative: td.relative, S };
}

/**
 * The verdict line of 2.1.2 for a measured invariance: blank (a zero map is no evidence), invariant,
 * not invariant — and, for a scheme that lays tokens on a grid of `width` columns (2-D axial RoPE),
 * invariant only because all n positions sit in one row, where the scheme is 1-D RoPE.
 */
export function invarianceVerdict(rp, id, inv, n) {
  if (inv.S.data.every((v) => v === 0)) return { key: 's212.zero', holds: inv.verdict, values: {} };
  const width = rp.schemes.find((s) => s.id === id)?.params?.width?.default;
  if (inv.verdict && width && n <= width) return { key: 's212.invariantOneRow', holds: true, values: { n, width } };
  return { key: inv.verdict ? 's212.invariant' : 's212.notInvariant', holds: inv.verdict, values: {} };
}

/** Schemes whose position-only score matrix exists (CoPE's positions come from content). */
export function positionOnlySchemes(rp) {
  return rp.schemes.filter((s) => s.calls.includes('scores') && s.id !== 'cope');
}

// ------------------------------------------------------------------------------------------------
// 2.1.3 Geometry.

export const METRICS = ['euclidean', 'cosine', 'manhattan'];

/** n position vectors [n, d]: sinusoidal, RoPE-rotated unit vectors (interleaved pairs) or learned (random). */
export function positionVectors(rp, source, n, d) {
  if (source === 'sinusoidal') return rp.encoding('sinusoidal', { n, d });
  if (source === 'rope') {
    const x = { shape: [n, d], data: new Float32Array(n * d).fill(1 / Math.sqrt(d)) };
    return rp.rotate(x, { scheme: 'rope', layout: 'interleaved', positions: range(n) });
  }
  return randomTensor(n, d, 5, 1 / Math.sqrt(d));
}

/**
 * The three distance matrices with, per metric, whether it is a function of j − i (translation defect
 * relative to its largest entry) and where the distance from position 0 first stops growing (its first
 * local maximum, −1 when monotone); the PCA of the vectors.
 */
export function geometry(rp, source, n, d) {
  const E = positionVectors(rp, source, n, d);
  const metrics = {};
  for (const metric of METRICS) {
    const D = rp.analysis.distances(E, metric);
    const td = rp.analysis.translationDefect(D);
    const row = Array.from(D.data.subarray(0, n));
    let firstMax = -1;
    for (let r = 1; r < n; r++) {
      if (row[r] < row[r - 1] - 1e-6) {
        firstMax = r - 1;
        break;
      }
    }
    metrics[metric] = { D, row, defect: td.relative, relative: td.isToeplitz, firstMax };
  }
  const pca = rp.analysis.project2d(E);
  return { E, metrics, pca };
}

/**
 * The manifold view φ(i, j): for each 2-D pair k of the vectors (coordinates 2k, 2k + 1), the cosine and
 * sine of the angle from p_i's pair to p_j's pair, (a·b, a×b)/(|a||b|). For sinusoids and RoPE each pair
 * turns at its own rate ω_k, so φ(i, j) = (cos ω_k(j − i), sin ω_k(j − i)): a function of j − i only.
 * Returns the first pair's φ as a [2, n, n] stack (what Figure 2.1.3-e shows) and the translation
 * defect of all d components: the largest spread (max − min) along a diagonal, the quantity
 * rp.analysis.translationDefect computes, taken here in the same pass so that the d × n × n values are
 * never stored (tests/node/chapter-readouts.test.js compares the two).
 */
export function relativeMap(rp, source, n, d) {
  const E = positionVectors(rp, source, n, d);
  const pairs = d / 2;
  const first = new Float32Array(2 * n * n);
  const ux = new Float64Array(n);
  const uy = new Float64Array(n);
  const lo = new Float64Array(2 * (2 * n - 1));
  const hi = new Float64Array(2 * (2 * n - 1));
  const f = Math.fround;
  let defect = 0;
  for (let k = 0; k < pairs; k++) {
    for (let i = 0; i < n; i++) {
      const x = E.data[i * d + 2 * k];
      const y = E.data[i * d + 2 * k + 1];
      const norm = Math.sqrt(x * x + y * y) || 1;
      ux[i] = x / norm;
      uy[i] = y / norm;
    }
    lo.fill(Infinity);
    hi.fill(-Infinity);
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) {
        const c = f(ux[i] * ux[j] + uy[i] * uy[j]);
        const s = f(ux[i] * uy[j] - uy[i] * ux[j]);
        const o = j - i + n - 1;
        const o2 = o + 2 * n - 1;
        if (c < lo[o]) lo[o] = c;
        if (c > hi[o]) hi[o] = c;
        if (s < lo[o2]) lo[o2] = s;
        if (s > hi[o2]) hi[o2] = s;
        if (k === 0) {
          first[i * n + j] = c;
          first[n * n + i * n + j] = s;
        }
      }
    }
    for (let o = 0; o < lo.length; o++) defect = Math.max(defect, hi[o] - lo[o]);
  }
  return { phi: { shape: [2, n, n], data: first }, E, defect, relative: defect < 1e-5 };
}

// ------------------------------------------------------------------------------------------------
// 2.1.4 Linear algebra.

/** The controls of the 2.1.4 spectrum figure: its schemes and the size n of the matrix. */
export const SPECTRUM_CONTROLS = {
  scheme: {
    value: 'sinusoidal',
    options: ['sinusoidal', 'rope', 'alibi', 't5', 'kerple-log', 'exp-decay', 'sin-freq', 'fire'],
  },
  n: { value: 64, min: 16, max: 256, step: 16 },
};

/** The n×n position matrix PE of a scheme (one head, probe width 32) with its SVD, eigenvalues and kernel verdict. */
export function spectrum(rp, id, n) {
  const S = positionScores(rp, id, n);
  const M = square(S.data, n);
  const svd = rp.analysis.svd(M, { vectors: true });
  const eig = rp.analysis.eig(M);
  return { M, svd, eig };
}

/**
 * Rebuilds PE from its top k singular values, PE_k = U_k Σ_k V_kᵀ, and compares the relative error
 * ‖PE − PE_k‖_F / ‖PE‖_F with the Eckart–Young value √(Σ_{i>k} σ_i²) / √(Σ σ_i²).
 */
export function lowRank(M, svd, k) {
  const [rows, cols] = M.shape;
  const width = svd.U.shape[1];
  const approx = new Float32Array(rows * cols);
  for (let c = 0; c < k; c++) {
    const s = svd.singularValues[c];
    for (let i = 0; i < rows; i++) {
      const u = svd.U.data[i * width + c] * s;
      for (let j = 0; j < cols; j++) approx[i * cols + j] += u * svd.V.data[j * width + c];
    }
  }
  let err = 0;
  let total = 0;
  for (let t = 0; t < approx.length; t++) {
    err += (M.data[t] - approx[t]) ** 2;
    total += M.data[t] ** 2;
  }
  let tail = 0;
  let all = 0;
  svd.singularValues.forEach((s, c) => {
    all += s * s;
    if (c >= k) tail += s * s;
  });
  return {
    approx: { shape: [rows, cols], data: approx },
    error: Math.sqrt(err / (total || 1)),
    predicted: Math.sqrt(tail / (all || 1)),
  };
}

// ------------------------------------------------------------------------------------------------
// Kernels (2.1.4, 2.1.5, 2.1.9): one verdict for one object, wherever it is discussed.

/** k(r) for r = −(n−1) … n−1 read off a Toeplitz S (row n−1 for r ≤ 0, row 0 for r > 0). */
export function toeplitzValues(S) {
  const n = S.shape.at(-1);
  const values = new Float32Array(2 * n - 1);
  for (let j = 0; j < n; j++) values[j] = S.data[(n - 1) * n + j];
  for (let j = 1; j < n; j++) values[n - 1 + j] = S.data[j];
  return values;
}

/** Symmetric? PSD? CPD? of the Toeplitz object with values k(r), r = −(n−1) … n−1. */
export function kernelVerdict(rp, values) {
  const check = rp.analysis.kernelCheck({ values });
  return {
    symmetric: check.symmetric,
    psd: check.isPSD,
    cpd: check.isCPD,
    minEigenvalue: check.minEigenvalue,
    minEigenvalueCPD: check.minEigenvalueCPD,
    asymmetry: check.asymmetry,
    eigenvalues: check.eigenvalues,
  };
}

// ------------------------------------------------------------------------------------------------
// 2.1.5 Probability.

/** The profiles of the kernel demo with their one parameter and its slider. */
export const PROFILES = {
  'exp-decay': { param: 'lambda', min: 0.01, max: 1, step: 0.01, value: 0.1 },
  gaussian: { param: 'sigma', min: 0.5, max: 16, step: 0.5, value: 4 },
  cosine: { param: 'omega', min: 0.05, max: 2, step: 0.05, value: 0.5 },
  sinc: { param: 'omega', min: 0.05, max: 2, step: 0.05, value: 0.5 },
  box: { param: 'width', min: 1, max: 6, step: 1, value: 4 },
  sin: { param: 'alpha', min: 1, max: 32, step: 1, value: 8 },
  'sin-even': { param: 'alpha', min: 1, max: 32, step: 1, value: 8 },
};

/** kernelCheck of a named profile with its parameter value. */
export function profileKernel(rp, name, value, n) {
  return rp.analysis.kernelCheck({ name, [PROFILES[name].param]: value }, { n });
}

/**
 * The original's Gaussian-process view: f(r) ~ GP(m(r), k(r, r′)) over the relative positions
 * r = −(n−1) … n−1 with k(r, r′) = k(r − r′), mean function m(r) = −slope·|r|; `count` samples and the
 * bias matrix B_ij = f(j − i) the first sample induces.
 */
export function gpPrior(rp, { name, value, n, slope = 0, count = 3, seed = 1 }) {
  const width = 2 * n - 1;
  const r = range(width, -(n - 1));
  const mean = r.map((x) => -slope * Math.abs(x));
  const raw = rp.analysis.gpSample({ name, [PROFILES[name].param]: value }, { n: width, count, seed });
  const samples = range(count).map((c) =>
    Array.from(raw.data.subarray(c * width, (c + 1) * width), (v, t) => v + mean[t]),
  );
  const B = new Float32Array(n * n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) B[i * n + j] = samples[0][j - i + n - 1];
  const bias = square(B, n);
  return { r, mean, samples, bias, defect: rp.analysis.translationDefect(bias).max };
}

/** The Bayes demo's settings: a teacher bias over R past distances, observed through attention weights. */
export const BAYES = { R: 32, noise: 0.1, teacher: { r1: [2], r2: [0.5] }, seed: 41 };

/**
 * The Bayes view, computed: the teacher's attention weights w_r over keys r = 0 … R−1 positions back
 * (KERPLE-log bias, content zero, core softmax) are observed at `count` evenly spaced distances as
 * logits y_r = log w_r − log w_0 plus seeded noise; the prior is GP(m, k) with m(r) = −slope·r and a
 * Gaussian k of length scale `sigma`; the posterior comes from rp.analysis.gpPosterior.
 */
export function bayes(rp, { count, sigma, slope, seed = BAYES.seed }) {
  const { R, noise, teacher } = BAYES;
  const B = rp.bias('kerple-log', { n: R, heads: 1, causal: true, ...teacher });
  const row = B.data.subarray((R - 1) * R, R * R); // the last query: key j is R − 1 − j back
  const zeros = (rows) => ({ shape: [rows, 8], data: new Float32Array(rows * 8) });
  const w = rp.attention({ q: zeros(1), k: zeros(R), B: { shape: [1, 1, R], data: row } }).weights.data;
  const weights = range(R).map((r) => w[R - 1 - r]);
  const truth = range(R).map((r) => row[R - 1 - r] - row[R - 1]);
  const at = count === 0 ? [] : count === 1 ? [0] : range(count).map((c) => Math.round((c * (R - 1)) / (count - 1)));
  const eps = randomTensor(1, R, seed).data;
  const y = at.map((r, c) => Math.log(weights[r]) - Math.log(weights[0]) + noise * eps[c]);
  const mean = range(R).map((r) => -slope * r);
  const prior = { mean, std: range(R).map(() => 1) };
  const posterior = at.length
    ? rp.analysis.gpPosterior({ name: 'gaussian', sigma }, { n: R, at, y, noise, mean })
    : { mean: Float32Array.from(mean), std: Float32Array.from(prior.std) };
  const error = (m) => Math.max(...truth.map((t, r) => Math.abs(m[r] - t)));
  return {
    weights,
    truth,
    at,
    y,
    prior,
    posterior,
    priorError: error(mean),
    posteriorError: error(posterior.mean),
  };
}

/** The sliders of the Bayes view (2.1.5-e): observed distances, length scale σ of k, mean slope c. */
export const BAYES_CONTROLS = {
  count: { value: 4, min: 0, max: 16, step: 1 },
  sigma: { value: 4, min: 1, max: 12, step: 0.5 },
  slope: { value: 0.1, min: 0, max: 0.5, step: 0.05 },
};

/** The number of noise draws the expected error of the Bayes view averages over. */
export const BAYES_DRAWS = 32;

/**
 * The Bayes view's largest error against the teacher, averaged over BAYES_DRAWS seeded draws of the
 * observation noise (seeds 1 …): one draw's error is not monotone in the number of observations, so
 * "more data, a closer posterior" is stated of this expectation.
 */
export function expectedBayesError(rp, { count, sigma, slope }) {
  let sum = 0;
  for (let seed = 1; seed <= BAYES_DRAWS; seed++) sum += bayes(rp, { count, sigma, slope, seed }).posteriorError;
  return sum / BAYES_DRAWS;
}

/**
 * Attention entropy with an exponential-decay bias exp(−λ|r|) (bias −λ|r|), causal, seeded q [64, 16]
 * scaled by 1/τ (τ divides the content term q·k only) and k [64, 16]: the mean row entropy and the
 * entropy and mean of the attention-weighted distance distribution p(r).
 */
export function attentionEntropy(rp, { lambda, tau }) {
  const n = 64;
  const d = 16;
  const q = randomTensor(n, d, 3, 1 / tau);
  const k = randomTensor(n, d, 4);
  const { weights } = rp.attention({
    q,
    k,
    scheme: 'exp-decay',
    params: { lambda: Math.max(lambda, 1e-6) },
    causal: true,
  });
  const rows = rp.analysis.entropy(weights);
  const dist = rp.analysis.distanceEntropy(square(weights.data, n));
  let mean = 0;
  for (const h of rows) mean += h / rows.length;
  return {
    rows,
    uniformRows: Array.from({ length: n }, (_, i) => Math.log(i + 1)), // a causal row i sees i + 1 keys
    rowEntropy: mean,
    // The mean over the causal rows of a uniform row's entropy ln(i + 1): ln(n!)/n (3.21 at n = 64).
    uniformRow: Array.from({ length: n }, (_, i) => Math.log(i + 1)).reduce((a, b) => a + b, 0) / n,
    distanceEntropy: Number(dist.entropy),
    meanDistance: Number(dist.meanDistance),
    maxDistanceEntropy: Math.log(n), // a causal query sees n distances at most
  };
}

// ------------------------------------------------------------------------------------------------
// 2.1.6 Explicit, implicit, mixed.

export const CLASS_D = 16;

/**
 * One head each, steep enough to be seen against content logits of spread ~1 (n = 24): ALiBi's
 * steepest head of eight (slope 1/2), KERPLE-log with r1 = r2 = 1, exp-decay's λ = 0.1, Sandwich as is.
 */
export const VISIBLE = {
  alibi: { alibiBiasMax: 1 },
  'kerple-log': { r1: [1], r2: [1] },
  'exp-decay': { lambda: 0.1 },
  sandwich: {},
};

/** The relative key table a_clip(j−i) of the implicit relative form (Shaw), seeded. */
function shawTable(clip) {
  return randomTensor(2 * clip + 1, CLASS_D, 35);
}

/** Attention options of each form for scheme `id` (one head). */
export function classificationOptions(rp, { scheme, form = 'modern', alpha = 1, beta = 0, n }) {
  const params = VISIBLE[scheme] ?? {};
  const clip = 8;
  return {
    explicit:
      form === 'seed' ? { scheme, params, mode: 'mixed', alpha: 1, beta: 0 } : { scheme, params, mode: 'explicit' },
    implicitAbsolute: { scheme: 'sinusoidal', params: {}, mode: 'implicit' },
    implicitRelative: { scheme: 'shaw', params: { clip, aK: shawTable(clip) } },
    mixed: { scheme, params, mode: 'mixed', alpha, beta, P: rp.encoding('sinusoidal', { n, d: CLASS_D }) },
  };
}

/**
 * Positional logits of a form measured with a position-only probe (the same vector for every token):
 * the content logit is then the same for every key, and log w_ij − log w_ii leaves only the positional
 * part relative to the diagonal (the row's softmax normaliser cancels).
 */
export function positionalLogits(rp, options, n, causal = false) {
  const probe = randomTensor(1, CLASS_D, 34).data;
  const same = { shape: [n, CLASS_D], data: new Float32Array(n * CLASS_D) };
  for (let i = 0; i < n; i++) same.data.set(probe, i * CLASS_D);
  const W = rp.attention({ q: same, k: same, causal, ...options }).weights.data;
  const L = new Float32Array(n * n);
  for (let i = 0; i < n; i++) {
    const diag = Math.log(W[i * n + i]);
    for (let j = 0; j < n; j++) L[i * n + j] = Math.log(W[i * n + j]) - diag;
  }
  const logits = square(L, n);
  const td = rp.analysis.translationDefect(logits);
  return { logits, defect: td.max, invariant: td.max <= 1e-4 * Math.max(1, maxAbs(L)) };
}

/** The seeded Q, K, V of 2.1.6 and their content-only attention weights. */
function classificationInputs(rp, n, causal) {
  const q = randomTensor(n, CLASS_D, 31);
  const k = randomTensor(n, CLASS_D, 32);
  const v = randomTensor(n, CLASS_D, 33);
  return { q, k, v, content: rp.attention({ q, k, v, causal }).weights };
}

/** A form's attention weights and the largest change they make against content-only attention. */
function movedWeights(rp, inputs, opts, causal) {
  const { q, k, v, content } = inputs;
  const { weights } = rp.attention({ q, k, v, causal, ...opts });
  return { weights, fromContent: maxAbsDiff(weights.data, content.data) };
}

/** The four maps of 2.1.6 from the same seeded Q, K, V, with each form's positional-logit defect. */
export function classification(rp, settings) {
  const { n, causal = false } = settings;
  const inputs = classificationInputs(rp, n, causal);
  const options = classificationOptions(rp, settings);
  const out = { content: inputs.content };
  for (const [kind, opts] of Object.entries(options)) {
    const { weights, fromContent } = movedWeights(rp, inputs, opts, causal);
    out[kind] = { weights, ...positionalLogits(rp, opts, n, causal), fromContent };
  }
  out.bias = rp.bias(settings.scheme, { n, heads: 1, causal, ...(VISIBLE[settings.scheme] ?? {}) });
  return out;
}

/** The controls of the 2.1.6 figure that the explicit map depends on (α and β enter only the mixed map). */
export const CLASSIFICATION_CONTROLS = {
  scheme: { value: 'alibi', options: Object.keys(VISIBLE) },
  form: { value: 'modern', options: ['modern', 'seed'] },
  causal: { value: false, options: [false, true] },
  n: { value: 24, min: 8, max: 64, step: 4 },
};

/** The explicit map's largest change against content-only attention (the figure's readout), one setting. */
export function biasVisibility(rp, { scheme, form = 'modern', causal = false, n }) {
  const opts = classificationOptions(rp, { scheme, form, n }).explicit;
  return movedWeights(rp, classificationInputs(rp, n, causal), opts, causal).fromContent;
}

/**
 * The least change of the explicit map over the product of `controls` (every scheme, form, mask and
 * n given), with the setting where it occurs. Memoised: the figure's sentence reads it at every setting.
 */
const visibilityFloors = new WeakMap();
export function biasVisibilityFloor(rp, controls = CLASSIFICATION_CONTROLS) {
  if (!visibilityFloors.has(rp)) visibilityFloors.set(rp, new Map());
  const memo = visibilityFloors.get(rp);
  const key = JSON.stringify(controls);
  if (memo.has(key)) return memo.get(key);
  let floor = { value: Infinity };
  for (const scheme of controlValues(controls.scheme)) {
    for (const form of controlValues(controls.form)) {
      for (const causal of controlValues(controls.causal)) {
        for (const n of controlValues(controls.n)) {
          const value = biasVisibility(rp, { scheme, form, causal, n });
          if (value < floor.value) floor = { value, scheme, form, causal, n };
        }
      }
    }
  }
  memo.set(key, floor);
  return floor;
}

/** How much smaller the original's form makes the bias: the ratio of the positional logits, modern / seed. */
export function formFactor(rp, scheme, n) {
  const modern = positionalLogits(rp, classificationOptions(rp, { scheme, form: 'modern', n }).explicit, n);
  const seed = positionalLogits(rp, classificationOptions(rp, { scheme, form: 'seed', n }).explicit, n);
  return maxAbs(modern.logits.data) / (maxAbs(seed.logits.data) || 1);
}

// ------------------------------------------------------------------------------------------------
// 2.1.7 Decay and frequency design.

/** d = 2F: the rotary frequencies of dimension d and their count. */
export function dimensionBudget(rp, d) {
  return { d, count: rp.frequencies('rope', { d }).invFreq.length };
}

/** Values of a named profile at r = −(n−1) … n−1 (the core's analytic forms). */
export function profileValues(rp, profile, n) {
  return Array.from(rp.analysis.derivative(profile, { n }).value);
}

/** RoFormer's long-range bound (relative) at distances 1 … maxDistance for each base. */
export function decayBounds(rp, { d, bases, maxDistance }) {
  return bases.map((base) => Array.from(rp.analysis.decayBound({ d, base, maxDistance })).slice(1));
}

export const SCALINGS = ['rope', 'rope-linear', 'rope-ntk', 'rope-yarn', 'rope-llama3'];

/**
 * A rotary scheme's parameters for a target of s·L, read from the parameters it declares
 * (rp.schemes[].params): the factor s, the original length L and the sequence length s·L.
 */
export function scalingParams(rp, id, s, L) {
  const declared = rp.schemes.find((info) => info.id === id).params;
  const wanted = { factor: s, originalMaxPositionEmbeddings: L, seqLen: s * L };
  return Object.fromEntries(Object.entries(wanted).filter(([name]) => Object.hasOwn(declared, name)));
}

/**
 * Angles at the target length against the angles of training. A RoPE model trained at length L saw
 * pair k at angles up to (L − 1)θ_k; when that is less than a turn, the angles past it are new to the
 * model. At s·L a scheme reaches (sL − 1)θ′_k with its own (scaled) θ′_k; the pair meets unseen angles
 * when it never completed a turn in training and its target reach exceeds the trained reach by more
 * than one training step θ_k (the resolution at which training saw that pair). `params`: the scaling's
 * other parameters (a preset's low/high frequency factors, YaRN's betas).
 */
export function angleReach(rp, { d, base, L, s, scheme, params = {} }) {
  const plain = rp.frequencies('rope', { d, base }).invFreq;
  const scaled = rp.frequencies(scheme, { d, base, ...params, ...scalingParams(rp, scheme, s, L) }).invFreq;
  const pairs = plain.length;
  const trained = range(pairs).map((k) => (L - 1) * plain[k]);
  const target = range(pairs).map((k) => (s * L - 1) * scaled[k]);
  const complete = trained.map((a) => a >= 2 * Math.PI);
  const unseen = range(pairs).map((k) => !complete[k] && target[k] > trained[k] + plain[k] * (1 + 1e-6));
  return {
    pairs,
    trained,
    target,
    ratio: range(pairs).map((k) => target[k] / trained[k]),
    complete,
    unseen,
    unseenCount: unseen.filter(Boolean).length,
    incompleteCount: complete.filter((c) => !c).length,
  };
}

/** Turns T_k = (L − 1)θ_k / 2π of plain RoPE over the training window (the core's angleCoverage). */
export function turns(rp, { d, base, L }) {
  return rp.analysis.angleCoverage({ d, base, trainLength: L });
}

// ------------------------------------------------------------------------------------------------
// The past profile of an object: s(r) for a key r positions before the query, r = 0 … R − 1.

/** The object the 2.1.9 table tests for a scheme: a bias b(r), a score s(r), or none. */
export function objectKind(info) {
  if (info.calls.includes('bias')) return 'bias';
  if (info.id === 'cope') return 'content';
  return 'score';
}

/** The table's settings for rotary rows: target 4L, d = 64, base 10000. */
export const ROTARY_TABLE = { d: 64, base: 10000, s: 4 };

/**
 * A rotary scheme whose frequencies need per-pair factors (LongRoPE's longFactor) has no meaningful
 * default for them (1 everywhere: plain RoPE): its row uses the first real preset of that scheme
 * (Phi-3-mini-128k), with that preset's head dimension. Returns the preset, or null.
 */
export function tablePreset(rp, info) {
  if (!Object.hasOwn(info.params, 'longFactor')) return null;
  return rp.presets.find((p) => p.scheme === info.id) ?? null;
}

function objectParams(rp, info, L) {
  if (!info.calls.includes('frequencies')) return {};
  const preset = tablePreset(rp, info);
  const own = preset
    ? { d: preset.params.d, shortFactor: preset.params.shortFactor, longFactor: preset.params.longFactor }
    : {};
  return { ...own, ...scalingParams(rp, info.id, ROTARY_TABLE.s, L) };
}

/**
 * s(r) for r = 0 … R − 1: the score of a query and the key r positions before it. Bias objects: the
 * last row of the core's bias. Rotary objects: the probe (all ones) rotated as a query at position r
 * and as a key at position 0, then their dot product (O(R·d) instead of an R×R score matrix);
 * sinusoidal: p_r · p_0; others: the last row of the core's position-only scores.
 */
export function pastProfile(rp, info, R, L = 32) {
  const s = new Float64Array(R);
  if (objectKind(info) === 'bias' || !(info.calls.includes('frequencies') || info.id === 'sinusoidal')) {
    const S = objectKind(info) === 'bias' ? rp.bias(info.id, { n: R, heads: 1 }) : positionScores(rp, info.id, R);
    for (let r = 0; r < R; r++) s[r] = S.data[(R - 1) * R + (R - 1 - r)];
    return s;
  }
  const params = objectParams(rp, info, L);
  const d = params.d ?? PROBE_D;
  let queries;
  let key;
  if (info.id === 'sinusoidal') {
    queries = rp.encoding('sinusoidal', { n: R, d }).data;
    key = queries.subarray(0, d);
  } else {
    const ones = (rows) => ({ shape: [rows, d], data: new Float32Array(rows * d).fill(1) });
    const role = info.params.role ? { role: 'query' } : {};
    queries = rp.rotate(ones(R), { scheme: info.id, ...params, ...role, positions: range(R) }).data;
    key = rp.rotate(ones(1), {
      scheme: info.id,
      ...params,
      ...(info.params.role ? { role: 'key' } : {}),
      positions: [0],
    }).data;
  }
  for (let r = 0; r < R; r++) {
    let acc = 0;
    for (let c = 0; c < d; c++) acc += queries[r * d + c] * key[c];
    s[r] = acc;
  }
  return s;
}

/** A profile divided by its largest magnitude (profiles of different schemes on one axis). */
export function unitScaled(profile) {
  const m = maxAbs(profile) || 1;
  return Array.from(profile, (v) => v / m);
}

// ------------------------------------------------------------------------------------------------
// 2.1.8 Stability.

/** ‖PE(p)‖ of sinusoidal vectors against √(d/2), and the entry bound. */
export function sinusoidalBound(rp, d) {
  return rp.analysis.peBound({ d, n: 1024 });
}

/** Analytic f′(r) against central finite differences at r = 1 … 128. */
export function derivativeCheck(rp, id) {
  const at = range(128, 1);
  const profile = { name: id };
  const { value, derivative } = rp.analysis.derivative(profile, { at });
  const h = 1e-2;
  const plus = rp.analysis.derivative(profile, { at: at.map((r) => r + h) }).value;
  const minus = rp.analysis.derivative(profile, { at: at.map((r) => r - h) }).value;
  let worst = 0;
  for (let i = 0; i < at.length; i++) worst = Math.max(worst, Math.abs((plus[i] - minus[i]) / (2 * h) - derivative[i]));
  return { at, value, derivative, worst };
}

export const PRECISION_POSITIONS = range(61).map((i) => Math.round(10 ** (i / 10)));

/**
 * The pipelines of 2.1.8-c: float32, float16 and bfloat16 with θ, m and m·θ held in that dtype, and
 * 'bfloat16-stored', the usual one (angles in float32, only the cos/sin tables stored in bfloat16).
 */
export const PRECISION_PIPELINES = ['float32', 'float16', 'bfloat16', 'bfloat16-stored'];

/** Rotation error of m·θ_k in each pipeline against float64 (d = 128), and the first m where it passes 0.01. */
export function precisionBreaks(rp, base) {
  const out = {};
  for (const pipeline of PRECISION_PIPELINES) {
    const [dtype, stored] = pipeline.split('-');
    const angles = stored ? { angles: 'float32' } : {};
    const p = rp.analysis.precision({ d: 128, base, positions: PRECISION_POSITIONS, dtype, ...angles });
    const first = PRECISION_POSITIONS.findIndex((_, i) => !(p.rotationError[i] < 1e-2));
    out[pipeline] = { error: p.rotationError, breaksAt: first < 0 ? Infinity : PRECISION_POSITIONS[first] };
  }
  return out;
}

/** ln of the largest float32: the logit at which exp overflows. */
export const FLOAT32_EXP_LIMIT = Math.log(3.4028234663852886e38);

/**
 * 64 seeded logits of scale `scale`: the naive float32 softmax (exponentiate, then divide, done here
 * in JavaScript to show the failure) against the core's, which subtracts the row maximum first.
 */
export function softmaxOverflow(rp, scale) {
  const m = 64;
  const z = randomTensor(1, m, 9, scale);
  const f = Math.fround;
  let sum = f(0);
  const e = new Float32Array(m);
  for (let j = 0; j < m; j++) {
    e[j] = f(Math.exp(z.data[j]));
    sum = f(sum + e[j]);
  }
  let bad = 0;
  for (let j = 0; j < m; j++) if (!Number.isFinite(f(e[j] / sum))) bad++;
  const zeros = (rows) => ({ shape: [rows, 8], data: new Float32Array(rows * 8) });
  const { weights } = rp.attention({ q: zeros(1), k: zeros(m), B: { shape: [1, 1, m], data: z.data } });
  let total = 0;
  let finite = true;
  for (const w of weights.data) {
    total += w;
    finite &&= Number.isFinite(w);
  }
  let maxLogit = -Infinity;
  for (const v of z.data) maxLogit = Math.max(maxLogit, v);
  let zeroWeights = 0;
  for (let j = 0; j < m; j++) if (f(e[j] / sum) === 0) zeroWeights++;
  // The largest logit (signed: what exp overflows on) and max |logit| are different numbers; `zeros`
  // counts weights the naive softmax returns as 0 (an overflowed sum divides finite terms to 0).
  return { m, bad, zeros: zeroWeights, maxLogit, maxAbsLogit: maxAbs(z.data), stableFinite: finite, stableSum: total };
}

// ------------------------------------------------------------------------------------------------
// 2.1.8 The three strategies, run in the lab (small budgets that decide each comparison).

export const LAB_BUDGET = { task: 'copy', scheme: 'rope', length: 16, steps: 150, seed: 1 };

/** Each strategy's comparison: two or three lab runs that differ in one setting. */
export const STRATEGIES = {
  normalisation: [
    { lr: 0.05, clip: 0, normalisation: false },
    { lr: 0.05, clip: 0, normalisation: true },
  ],
  clipping: [
    { lr: 0.2, clip: 0, normalisation: true },
    { lr: 0.2, clip: 1, normalisation: true },
  ],
  learningRate: [
    { lr: 0.001, clip: 0, normalisation: true },
    { lr: 0.05, clip: 0, normalisation: true },
    { lr: 0.2, clip: 0, normalisation: true },
  ],
};

/** Largest gradient norm and mean loss of the last 20 steps of a lab result. */
export function runSummary(result) {
  const losses = Array.from(result.loss);
  const tail = losses.slice(-20);
  return {
    maxGradNorm: Math.max(...result.gradNorm),
    tailLoss: tail.reduce((a, b) => a + b, 0) / tail.length,
    accuracy: Array.from(result.accuracy),
  };
}

/**
 * The T5 term of the lab (docs/lab.md): a learned table over one-directional buckets (a causal
 * model sees no future keys), with the scheme's default numBuckets and maxDistance.
 */
export const LAB_T5 = { bidirectional: false };

/**
 * T5's buckets, in the lab's own configuration, of the distances a model trained at length L never
 * saw: the buckets of distances L … far − 1 (far = 8L, the lab's longest test) that no distance below
 * L uses. Returns their count, the first and last bucket, and how many buckets the configuration has.
 */
export function t5UnseenBuckets(rp, { L, far = 8 * L }) {
  const n = far;
  const idx = rp.buckets('t5', { n, ...LAB_T5 }).data;
  const bucket = (r) => idx[(n - 1) * n + (n - 1 - r)]; // the last query, key r positions back
  const seen = new Set(range(L).map(bucket));
  const beyond = new Set(range(far - L, L).map(bucket));
  const fresh = [...beyond].filter((b) => !seen.has(b)).sort((a, b) => a - b);
  const total = new Set(range(n).map(bucket)).size;
  return { count: fresh.length, first: fresh[0], last: fresh.at(-1), beyond: beyond.size, total, L, far };
}

/** 2.1.2's lab experiment: copy the token 2 back, trained at L = 16 for 500 steps; NoPE as the baseline. */
export const COPY_BUDGET = {
  task: 'copy',
  length: 16,
  steps: 500,
  seed: 1,
  schemes: ['alibi', 'kerple-log', 't5', 'rope', 'nope'],
  vocab: 16, // the lab's default: chance is 1/16
};

// ------------------------------------------------------------------------------------------------
// 2.1.9 The summary table: one object per row, each column a proxy computed on that object.

// Every verdict the page shows beside a number is { verdict, value, definition }: `definition` names
// an entry of DEFINITIONS, the verdict is that entry's decide(value), and the page shows `value` with
// that entry's words (s219.value.<definition>). So the number beside a verdict is the quantity the
// verdict was taken from (tests/node/verdict-numbers.test.js checks it over the table's sliders).

/** float32 rounding: the core's default tolerance of translationDefect (relative to max|S|). */
export const DEFECT_TOL = 1e-5;
/** The core's default tolerance of kernelCheck (relative to the largest |eigenvalue|). */
export const KERNEL_TOL = 1e-6;

export const DEFINITIONS = {
  // Translation defect relative to max|S|.
  'invariant.defect': { decide: (v) => v <= DEFECT_TOL },
  // The largest score at distance ≥ n/2 minus the halfway line (below it: decays).
  'decays.halfway': { decide: (v) => v < 0 },
  // max|s(r)| up to r = 1023 over max|s(r)| up to 511 (0.1 % allowed).
  'bounded.window': { decide: (v) => v <= 1 + 1e-3 },
  // max|s(r)| over |s(0)|: nothing exceeds the value at r = 0.
  'bounded.peak': { decide: (v) => v <= 1 + 1e-6 },
  // max|f(r)| out to r = 10⁶ over the bound the scheme's closed form states.
  'bounded.form': { decide: (v) => v <= 1 + 1e-6 },
  // λ_min over max|λ| (PSD: of the Toeplitz matrix; CPD: of its double-centred form).
  'kernel.minEigenvalue': { decide: (v) => v >= -KERNEL_TOL },
  // max|k(r) − k(−r)| over max|k|: a kernel must be symmetric first.
  'kernel.asymmetry': { decide: (v) => v <= KERNEL_TOL },
  // Rotary pairs meeting angles unseen in training at 4L.
  'extrapolates.angles': { decide: (v) => v === 0 },
  // The largest score beyond L minus the score at L − 1, over max|s|.
  'extrapolates.rise': { decide: (v) => v <= 1e-6 },
};

/** A verdict taken from `value` by the named definition, with the value it was taken from. */
export function judged(definition, value, extra = {}) {
  return { verdict: DEFINITIONS[definition].decide(value), value, definition, ...extra };
}

/** Decays: keys at distance ≥ n/2 never score above halfway between the nearest key and the lowest score. */
export function decay(profile, n) {
  let lo = Infinity;
  for (let r = 0; r < n; r++) lo = Math.min(lo, profile[r]);
  let far = -Infinity;
  for (let r = Math.floor(n / 2); r < n; r++) far = Math.max(far, profile[r]);
  const threshold = profile[0] - 0.5 * (profile[0] - lo);
  return judged('decays.halfway', far - threshold, { far, threshold });
}

/**
 * Bounded, two finite tests over r ≤ 1023 (the profile of the query at 1023): (a) what that query sees
 * is no more than 0.1 % above what the query at 511 sees (`near`: for a function of r alone, the
 * largest |s(r)| up to r = 511; for FIRE, whose distance is normalised by the query's position, that
 * query's own row); or (b) no |s(r)| exceeds |s(0)| > 0 — sums of cosines and rotations of one vector
 * peak at r = 0 at every r (Sandwich's slowest cosines are still approaching their bound at 1023).
 * Returns the first test that holds, or test (a) when none does.
 */
export function bounded(profile, near = maxAbs(profile.subarray(0, 512))) {
  const far = maxAbs(profile);
  const window = judged('bounded.window', far / (near || 1), { near, far });
  if (window.verdict || !(Math.abs(profile[0]) > 0)) return window;
  const peak = judged('bounded.peak', far / Math.abs(profile[0]), { near, far });
  return peak.verdict ? peak : window;
}

/**
 * Bounded or not, the one definition 2.1.8's readout and 2.1.9's column share: the finite tests of
 * `bounded` on the profile r = 0 … 1023 of the object (the bias of one head, heads = 1), or, where
 * they do not decide, the scheme's form bound (`formBounded`). `near`: what the query at 511 sees —
 * for a function of r alone the profile up to 511; otherwise (FIRE) that query's own row of the bias.
 */
export function boundedness(rp, info, profile = pastProfile(rp, info, 1024)) {
  let near;
  if (!info.capabilities.shiftInvariant && objectKind(info) === 'bias') {
    const row = rp.bias(info.id, { n: 512, heads: 1 }).data.subarray(511 * 512, 512 * 512);
    near = maxAbs(row);
  }
  const b = bounded(profile, near);
  if (b.verdict) return b;
  const form = formBounded(rp, info);
  return form?.verdict ? form : b;
}

/**
 * Bounded by its form where no finite window shows it: the core's closed form states sup |f(r)| for
 * the scheme's declared defaults (Sandwich's b(r) lies in [−d̄/8, 0], but its slowest cosine, period
 * 2π·10⁴, is still approaching that bound at r = 1023); checked on the core's f(r) out to r = 10⁶.
 * null when the scheme has no closed form or its form states no bound.
 */
export function formBounded(rp, info) {
  if (!info.capabilities.closedForm) return null;
  const at = range(4000, 1).map((k) => k * 250 + 0.5);
  const { value, bound } = rp.analysis.derivative({ name: info.id }, { at });
  if (Number.isNaN(bound)) return null;
  const worst = maxAbs(value);
  return judged('bounded.form', worst / bound, { bound, worst });
}

/**
 * 2.1.8's bias readout: `boundedness` of the scheme's bias at one head (the head 2.1.9 tests too),
 * the slope of that head where the scheme has per-head slopes (ALiBi: 1/256 at heads = 1), and the
 * largest e^{b} over r ≤ 1023 (what attention multiplies by).
 */
export function biasReadout(rp, id) {
  const info = rp.schemes.find((s) => s.id === id);
  const profile = pastProfile(rp, info, 1024);
  let expMax = 0;
  for (const v of profile) expMax = Math.max(expMax, Math.exp(v));
  const slope = id === 'alibi' ? rp.bias(id, { heads: 1, output: 'slopes' }).data[0] : null;
  return { bounded: boundedness(rp, info, profile), heads: 1, slope, expMax };
}

/**
 * Extrapolates past L: rotary objects — no pair meets angles unseen in training at 4L (angleReach with
 * the scheme's own scaling at s = 4); others — no key beyond L scores above the key at distance L − 1.
 */
export function extrapolation(rp, info, profile, L) {
  if (info.calls.includes('frequencies')) {
    const { base, s } = ROTARY_TABLE;
    const preset = tablePreset(rp, info);
    const d = preset ? preset.params.d : ROTARY_TABLE.d;
    const params = preset ? { shortFactor: preset.params.shortFactor, longFactor: preset.params.longFactor } : {};
    const reach = angleReach(rp, { d, base, L, s, scheme: info.id, params });
    return judged('extrapolates.angles', reach.unseenCount, { kind: 'angles', pairs: reach.pairs, d });
  }
  const edge = profile[L - 1];
  let beyond = -Infinity;
  for (let r = L; r < 4 * L; r++) beyond = Math.max(beyond, profile[r]);
  const scale = maxAbs(profile.subarray(0, 4 * L)) || 1;
  return judged('extrapolates.rise', (beyond - edge) / scale, { kind: 'profile' });
}

/**
 * A kernel verdict (PSD or CPD) with its deciding number: λ_min over the largest |λ| of the Toeplitz
 * matrix (the double-centred matrix's |λ| are no larger), or, for an asymmetric object, its asymmetry.
 */
function kernelJudged(kernel, minEigenvalue) {
  if (!kernel.symmetric) return judged('kernel.asymmetry', kernel.asymmetry, { symmetric: false });
  let scale = 0;
  for (const v of kernel.eigenvalues.data ?? kernel.eigenvalues) scale = Math.max(scale, Math.abs(v));
  return judged('kernel.minEigenvalue', minEigenvalue / (scale || 1), { symmetric: true });
}

/** Every scheme with position-only scores, in catalogue order (CoPE included: its row says why it is empty). */
export function summarySchemes(rp) {
  return rp.schemes.filter((s) => s.calls.includes('scores'));
}

/**
 * One row of the table: the object (a bias, a score with the probe, nothing) and its verdicts.
 * Rows whose object is zero (NoPE; Transformer-XL without its learned u, v, W_R) or needs content
 * (CoPE) have no verdicts.
 */
export function summaryRow(rp, info, { n, L }) {
  const kind = objectKind(info);
  if (kind === 'content') return { info, kind, empty: 'content' };
  const params = objectParams(rp, info, L);
  const S = kind === 'bias' ? rp.bias(info.id, { n, heads: 1 }) : positionScores(rp, info.id, n, params);
  // No position term: NoPE by design, Transformer-XL without its learned u, v, W_R.
  if (maxAbs(S.data) === 0) return { info, kind, empty: info.family === 'none' ? 'none' : 'zero' };
  const td = rp.analysis.translationDefect(S);
  const invariant = judged('invariant.defect', td.relative);
  const profile = pastProfile(rp, info, 1024, L);
  const kernel = invariant.verdict ? kernelVerdict(rp, toeplitzValues(S)) : null;
  return {
    info,
    kind,
    params,
    invariant,
    decays: decay(profile, n),
    bounded: boundedness(rp, info, profile),
    psd: kernel ? kernelJudged(kernel, kernel.minEigenvalue) : { verdict: null },
    cpd: kernel ? kernelJudged(kernel, kernel.minEigenvalueCPD) : { verdict: null },
    extrapolates: extrapolation(rp, info, profile, L),
  };
}
