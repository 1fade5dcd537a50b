// The 2.1.9 summary criteria, each computed from the core (the page only compares the numbers the
// core returns). Shared by the summary table and the sections that discuss the same property.

/** Position-only score matrix [1, n, n] of a scheme (probe width d). */
export function scoreMatrix(rp, id, n, d = 32) {
  return rp.scores(id, { n, d, heads: 1 });
}

/** s(r) for r = 0 … n−1: the last query against keys r positions in the past. */
export function pastProfile(S) {
  const n = S.shape.at(-1);
  const s = new Float64Array(n);
  for (let r = 0; r < n; r++) s[r] = S.data[(n - 1) * n + (n - 1 - r)];
  return s;
}

/** k(r) for r = −(n−1) … n−1 read off a Toeplitz S (row n−1 for r ≤ 0, row 0 for r > 0). */
export function toeplitzValues(S) {
  const n = S.shape.at(-1);
  const values = new Float32Array(2 * n - 1);
  for (let j = 0; j < n; j++) values[j] = S.data[(n - 1) * n + j];
  for (let j = 1; j < n; j++) values[n - 1 + j] = S.data[j];
  return values;
}

function maxAbs(data) {
  let m = 0;
  for (const v of data) if (Number.isFinite(v) && Math.abs(v) > m) m = Math.abs(v);
  return m;
}

/** Theorem 1 measured: translation defect of the scores. */
export function invariance(rp, id, n) {
  const S = scoreMatrix(rp, id, n);
  const td = rp.analysis.translationDefect(S);
  return { verdict: td.isToeplitz, value: td.max, relative: td.relative, S };
}

/** Decay: far keys (r ≥ n/2) never score above halfway between the nearest key and the lowest score. */
export function decay(rp, id, n, S = scoreMatrix(rp, id, n)) {
  const s = pastProfile(S);
  let lo = Infinity;
  for (const v of s) if (v < lo) lo = v;
  let farMax = -Infinity;
  for (let r = Math.floor(n / 2); r < n; r++) farMax = Math.max(farMax, s[r]);
  const threshold = s[0] - 0.5 * (s[0] - lo);
  return { verdict: farMax < threshold, value: farMax - s[0], profile: s };
}

/** Positive semi-definite as a kernel: kernelCheck by scheme id (bias schemes) or on the Toeplitz profile. */
export function psd(rp, info, n, S = scoreMatrix(rp, info.id, n)) {
  let check;
  if (info.calls.includes('bias')) check = rp.analysis.kernelCheck({ name: info.id }, { n });
  else if (rp.analysis.translationDefect(S).isToeplitz) {
    check = rp.analysis.kernelCheck({ values: toeplitzValues(S) }, { n });
  } else return { verdict: null, value: NaN };
  return { verdict: check.isPSD, value: check.minEigenvalue, symmetric: check.symmetric };
}

/** Bounded: max|S| stops growing from n to 4n. */
export function bounded(rp, id, n) {
  const small = maxAbs(scoreMatrix(rp, id, n).data);
  const large = maxAbs(scoreMatrix(rp, id, 4 * n).data);
  return { verdict: large <= small * (1 + 1e-3) + 1e-6, value: large / (small || 1), small, large };
}

/**
 * Extrapolates past a training length L: rotary schemes — every pair completes a turn inside the
 * window (angleCoverage); others — no key beyond L scores above the key at the window's edge.
 */
export function extrapolation(rp, info, L, d = 64) {
  if (info.calls.includes('frequencies')) {
    try {
      const cov = rp.analysis.angleCoverage({ d, trainLength: L, scheme: info.id });
      return { verdict: cov.incompleteCount === 0, value: cov.incompleteCount, kind: 'angles', pairs: d / 2 };
    } catch {
      // schemes angleCoverage does not know fall back to the profile test
    }
  }
  const s = pastProfile(scoreMatrix(rp, info.id, 4 * L));
  const edge = s[L - 1];
  let beyond = -Infinity;
  for (let r = L; r < s.length; r++) beyond = Math.max(beyond, s[r]);
  const scale = maxAbs(s) || 1;
  return { verdict: beyond <= edge + 1e-6 * scale, value: (beyond - edge) / scale, kind: 'profile' };
}

/** Schemes the summary covers: every scheme with position-only scores (CoPE needs content). */
export function summarySchemes(rp) {
  return rp.schemes.filter((s) => s.calls.includes('scores'));
}
