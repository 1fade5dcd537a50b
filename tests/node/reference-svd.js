// A float64 reference for singular values that shares no code with the core's Eigen BDCSVD: Householder
// tridiagonalisation and implicit QL on a symmetric matrix (M itself, or [[0, M], [Mᵀ, 0]] whose
// eigenvalues are ±σ_i). Absolute error about ε_float64 · ‖M‖, far below the float32 cuts it checks.
/** Eigenvalues of a symmetric n×n matrix (float64): Householder to tridiagonal, then implicit QL. */
export function symmetricEigenvalues(S, n) {
  const A = Array.from({ length: n }, (_, i) => Float64Array.from(S.subarray(i * n, (i + 1) * n)));
  const v = new Float64Array(n);
  const p = new Float64Array(n);
  for (let k = 0; k < n - 2; k++) {
    let norm = 0;
    for (let i = k + 1; i < n; i++) norm += A[i][k] * A[i][k];
    norm = Math.sqrt(norm);
    if (norm === 0) continue;
    const alpha = A[k + 1][k] > 0 ? -norm : norm;
    let vv = 0;
    for (let i = k + 1; i < n; i++) {
      v[i] = A[i][k] - (i === k + 1 ? alpha : 0);
      vv += v[i] * v[i];
    }
    if (vv === 0) continue;
    const scale = 1 / Math.sqrt(vv);
    for (let i = k + 1; i < n; i++) v[i] *= scale;
    // A ← H A H on the trailing block, H = I − 2 v vᵀ: A − v wᵀ − w vᵀ with w = 2p − 2(vᵀp) v.
    let vp = 0;
    for (let i = k + 1; i < n; i++) {
      let s = 0;
      const row = A[i];
      for (let j = k + 1; j < n; j++) s += row[j] * v[j];
      p[i] = s;
      vp += v[i] * s;
    }
    for (let i = k + 1; i < n; i++) p[i] = 2 * p[i] - 2 * vp * v[i];
    for (let i = k + 1; i < n; i++) {
      const row = A[i];
      for (let j = k + 1; j < n; j++) row[j] -= v[i] * p[j] + p[i] * v[j];
    }
    A[k + 1][k] = alpha;
    A[k][k + 1] = alpha;
    for (let i = k + 2; i < n; i++) A[i][k] = A[k][i] = 0;
  }
  const d = Float64Array.from({ length: n }, (_, i) => A[i][i]);
  const e = Float64Array.from({ length: n }, (_, i) => (i < n - 1 ? A[i + 1][i] : 0));
  return tridiagonalEigenvalues(d, e);
}

/** Eigenvalues of the symmetric tridiagonal matrix with diagonal d and off-diagonal e (e[n − 1] = 0), implicit QL, ascending. */
function tridiagonalEigenvalues(d, e) {
  const n = d.length;
  const EPS = 2 ** -52;
  for (let l = 0; l < n; l++) {
    for (let iter = 0; ; iter++) {
      let m = l;
      for (; m < n - 1; m++) if (Math.abs(e[m]) <= EPS * (Math.abs(d[m]) + Math.abs(d[m + 1]))) break;
      if (m === l) break;
      if (iter > 60) throw new Error('symmetricEigenvalues: no convergence');
      let g = (d[l + 1] - d[l]) / (2 * e[l]);
      let r = Math.hypot(g, 1);
      g = d[m] - d[l] + e[l] / (g + (g >= 0 ? r : -r));
      let s = 1;
      let c = 1;
      let q = 0;
      let i = m - 1;
      let underflow = false;
      for (; i >= l; i--) {
        const f = s * e[i];
        const b = c * e[i];
        r = Math.hypot(f, g);
        e[i + 1] = r;
        if (r === 0) {
          d[i + 1] -= q;
          e[m] = 0;
          underflow = true;
          break;
        }
        s = f / r;
        c = g / r;
        g = d[i + 1] - q;
        r = (d[i] - g) * s + 2 * c * b;
        q = s * r;
        d[i + 1] = g + q;
        g = c * r - b;
      }
      if (underflow) continue;
      d[l] -= q;
      e[l] = g;
      e[m] = 0;
    }
  }
  return Array.from(d).sort((a, b) => a - b);
}

/**
 * Singular values of a square n×n matrix via Householder bidiagonalisation B = Uᵀ M V, then the
 * eigenvalues of the 2n×2n Golub–Kahan matrix (zero diagonal, off-diagonal d_0, e_0, d_1, …), which
 * are ±σ_i: float64 throughout, absolute error about ε_float64 · ‖M‖.
 */
function bidiagonalSingularValues(data, n) {
  const A = Array.from({ length: n }, (_, i) => Float64Array.from(data.subarray(i * n, (i + 1) * n)));
  const d = new Float64Array(n);
  const e = new Float64Array(n);
  const v = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    // Left: zero column k below the diagonal.
    let norm = 0;
    for (let i = k; i < n; i++) norm += A[i][k] * A[i][k];
    norm = Math.sqrt(norm);
    let alpha = A[k][k] > 0 ? -norm : norm;
    let vv = 0;
    for (let i = k; i < n; i++) {
      v[i] = A[i][k] - (i === k ? alpha : 0);
      vv += v[i] * v[i];
    }
    if (vv > 0) {
      for (let j = k; j < n; j++) {
        let s = 0;
        for (let i = k; i < n; i++) s += v[i] * A[i][j];
        const f = (2 * s) / vv;
        for (let i = k; i < n; i++) A[i][j] -= f * v[i];
      }
    }
    d[k] = A[k][k];
    if (k >= n - 1) continue;
    // Right: zero row k right of the superdiagonal.
    norm = 0;
    for (let j = k + 1; j < n; j++) norm += A[k][j] * A[k][j];
    norm = Math.sqrt(norm);
    alpha = A[k][k + 1] > 0 ? -norm : norm;
    vv = 0;
    for (let j = k + 1; j < n; j++) {
      v[j] = A[k][j] - (j === k + 1 ? alpha : 0);
      vv += v[j] * v[j];
    }
    if (vv > 0) {
      for (let i = k; i < n; i++) {
        const row = A[i];
        let s = 0;
        for (let j = k + 1; j < n; j++) s += row[j] * v[j];
        const f = (2 * s) / vv;
        for (let j = k + 1; j < n; j++) row[j] -= f * v[j];
      }
    }
    e[k] = A[k][k + 1];
  }
  const T = new Float64Array(2 * n);
  for (let k = 0; k < n; k++) {
    T[2 * k] = d[k];
    T[2 * k + 1] = k < n - 1 ? e[k] : 0;
  }
  const lambda = tridiagonalEigenvalues(new Float64Array(2 * n), T);
  return lambda
    .slice(-n)
    .map((x) => Math.max(x, 0))
    .reverse();
}

/**
 * Singular values of a rows×cols matrix in float64, descending: the non-negative eigenvalues of the
 * symmetric [[0, M], [Mᵀ, 0]] (±σ_i), or |λ| when M itself is symmetric.
 */
export function referenceSingularValues(data, rows, cols = rows) {
  let symmetric = rows === cols;
  for (let i = 0; symmetric && i < rows; i++) {
    for (let j = 0; j < i; j++) if (data[i * cols + j] !== data[j * cols + i]) symmetric = false;
  }
  if (symmetric) {
    return symmetricEigenvalues(Float64Array.from(data), rows)
      .map(Math.abs)
      .sort((a, b) => b - a);
  }
  if (rows === cols) return bidiagonalSingularValues(Float64Array.from(data), rows);
  const N = rows + cols;
  const B = new Float64Array(N * N);
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < cols; j++) B[i * N + rows + j] = B[(rows + j) * N + i] = data[i * cols + j];
  }
  const lambda = symmetricEigenvalues(B, N);
  return lambda
    .slice(-Math.min(rows, cols))
    .map((x) => Math.max(x, 0))
    .reverse();
}
