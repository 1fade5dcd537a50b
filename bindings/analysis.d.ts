// Types of rp.analysis (docs/api.md "rp.analysis"; the chapter's sections 2.1.2–2.1.8).
import type { Tensor, TensorLike, SchemeParams } from './index.js';

/**
 * A stationary profile k(r) of the relative distance r = j − i:
 * - a built-in name, alone or with its one parameter (defaults in brackets):
 *   `'exp-decay'` exp(−λ|r|) {lambda [0.1]}, `'gaussian'` exp(−r²/(2σ²)) {sigma [4]},
 *   `'cosine'` cos(ωr) {omega [0.5]}, `'sinc'` sin(ωr)/(ωr) {omega [0.5]},
 *   `'box'` 1 for |r| ≤ width else 0 {width [4]}, `'sin'` sin(r/α) {alpha [8]}, `'sin-even'` sin(|r|/α) {alpha [8]};
 * - any relative-bias scheme id (`'alibi'`, `'t5'`, `'kerple-log'`, `'sin-freq'`, …) with its parameters: one head,
 *   k(r) read off the bias row of the query at position n − 1 against keys 0 … 2n − 2 (exact for every scheme that
 *   depends on j − i only; FIRE's threshold also sees that query position);
 * - `{ values }`: k(r) for r = −(n−1) … n−1 (2n − 1 numbers; n may then be omitted).
 */
export type Profile =
  | string
  | ({ name: string; lambda?: number; sigma?: number; omega?: number; width?: number; alpha?: number } & SchemeParams)
  | { values: TensorLike };

/** Options naming a rotary scheme (default `'rope'`) and its parameters, flat or in `params`. */
export interface RotaryOptions {
  [name: string]: unknown;
  /** Rotary dimension: the rotated pairs are k = 0 … d/2 − 1. Even. */
  d: number;
  /** Frequency base θ (default 10000). */
  base?: number;
  /** A `rope` family scheme (`'rope'`, `'rope-linear'`, `'rope-ntk'`, `'rope-yarn'`, `'rope-llama3'`, …). */
  scheme?: string;
  /** The scheme's parameters (factor, originalMaxPositionEmbeddings, …); may also stand beside the others. */
  params?: SchemeParams;
}

export interface TranslationDefect {
  /** max |S[i+k, j+k] − S[i, j]| over all i, j and k ≥ 1 with both entries inside (worst head). */
  max: number;
  /** Mean of the same differences over all those (i, j, k) (pooled over heads). */
  mean: number;
  /** max / max|S| (entries of S that are finite). */
  relative: number;
  /** relative ≤ tolerance (default 1e-5, float32 rounding of S). */
  isToeplitz: boolean;
  /** Present when S is [heads, n, n]: the same per head. */
  perHead?: { max: Float32Array; mean: Float32Array };
}

export interface Svd {
  /** Descending, min(rows, cols) values. */
  singularValues: Float32Array;
  /** exp(H(p)) with p_i = σ_i / Σσ and H the Shannon entropy in nats (Roy & Vetterli 2007); 0 for the zero matrix. */
  effectiveRank: number;
  /** σ_max / σ_min; Infinity when M is rank-deficient at the cut (σ_min is then below the float32 rounding of the entries). */
  conditionNumber: number;
  /**
   * Numerical rank: σ_i > tolerance · σ_max. The default is the float32 rounding of the entries, ε_float32 · ‖M‖_F / σ_max
   * (ε_float32 = 2^−23): entries within one float32 step of their exact values move no singular value by more than
   * ε_float32 · ‖M‖_F (Weyl). The `tolerance` option sets another cut.
   */
  rank: number;
  /** The relative cut used for `rank`. */
  tolerance: number;
  /** [rows, k], column i is the i-th left singular vector (k = min(rows, cols)); with `vectors: true`. */
  U?: Tensor;
  /** [cols, k], column i is the i-th right singular vector; with `vectors: true`. */
  V?: Tensor;
}

export interface Eig {
  /** Eigenvalues of (M + Mᵀ)/2, ascending. */
  values: Float32Array;
  /** max|M − Mᵀ| ≤ tolerance · max|M| (tolerance default 1e-6). */
  symmetric: boolean;
  /** max|M − Mᵀ| / max|M| (0 for the zero matrix). */
  asymmetry: number;
  /**
   * M is symmetric and its smallest eigenvalue ≥ −tolerance · max|λ|. An antisymmetric M (an odd k(j − i)) is never
   * PSD, although its symmetric part is 0.
   */
  isPSD: boolean;
  /** [n, n], column i belongs to values[i]; with `vectors: true`. */
  vectors?: Tensor;
}

export interface KernelCheck {
  /** max|k(r) − k(−r)| ≤ tolerance · max|k| (tolerance default 1e-6). */
  symmetric: boolean;
  /** symmetric and the smallest eigenvalue of K ≥ −tolerance · max|λ|. An odd profile is never PSD: its symmetric part is 0. */
  isPSD: boolean;
  /**
   * Conditionally positive definite: symmetric and xᵀKx ≥ 0 for every x with Σx = 0 (eigenvalues of the double-centred
   * K ≥ −tolerance · max|λ|). −|r|-type biases (ALiBi, KERPLE) are CPD without being PSD; exp(b) is PSD for a CPD b.
   */
  isCPD: boolean;
  minEigenvalue: number;
  /** Smallest eigenvalue of the double-centred K (P K P, P = I − 11ᵀ/n). */
  minEigenvalueCPD: number;
  /** Eigenvalues of the symmetric part of K[i, j] = k(j − i), ascending, n values. */
  eigenvalues: Float32Array;
  /** max|k(r) − k(−r)| / max|k|. */
  asymmetry: number;
}

export interface DistanceEntropy {
  /** Relative distances r = −(m−1) … m−1. */
  r: Int32Array;
  /** p(r) = (1/n) Σ_i W[i, j]/Σ_j W[i, j] at j − (i + m − n) = r; [heads, 2m − 1] tensor for [heads, n, m] input. */
  p: Float32Array | Tensor;
  /** −Σ_r p(r) ln p(r), nats; one per head for [heads, n, m] input. */
  entropy: number | Float32Array;
  /** Σ_r p(r)|r|; one per head for [heads, n, m] input. */
  meanDistance: number | Float32Array;
}

export interface Precision {
  /** Per position: max over pairs k of |m·θ_k computed in dtype − m·θ_k in float64| (Infinity once m·θ overflows float16). */
  angleError: Float32Array;
  /** Per position: max over k of ‖(cos, sin) of the dtype angle, rounded to dtype − (cos, sin) in float64‖. */
  rotationError: Float32Array;
  maxAngleError: number;
  maxRotationError: number;
  /** [count, d/2] angle errors, with `perPair: true`. */
  angleErrorPerPair?: Tensor;
}

export interface AngleCoverage {
  /** θ_k per pair (after the scheme's scaling). */
  theta: Float32Array;
  /** 2π / θ_k. */
  wavelength: Float32Array;
  /** (trainLength − 1) · θ_k / 2π: turns over the largest distance inside the training window. */
  turns: Float32Array;
  /** turns ≥ 1. Pairs that never complete a turn meet unseen angles past the window (poor extrapolation). */
  completesTurn: boolean[];
  /** Index of the first pair with turns < 1 (d/2 when all complete). */
  firstIncomplete: number;
  incompleteCount: number;
  /** The scheme's attention factor on cos/sin (YaRN); 1 otherwise. */
  attentionFactor: number;
}

/** How the analysis module was compiled (rp.analysis.buildInfo()). */
export interface AnalysisBuild {
  /** Eigen's version, e.g. '3.4.0'. */
  eigen: string;
  /** Whether Eigen runs its vectorised path. */
  vectorized: boolean;
  /**
   * Eigen's list of the vector instruction sets in use: 'SSE, SSE2, SSE3, SSSE3, SSE4.1, SSE4.2' in
   * the SIMD build (Eigen's SSE path, compiled to WebAssembly SIMD), 'None' in the baseline build.
   */
  instructionSets: string;
  /** True in the SIMD build. */
  simd: boolean;
}

export interface Analysis {
  /**
   * Resolves once the analysis module has loaded; the first read starts loading it. The calls below
   * are synchronous and throw an Error while the module is still loading.
   * @example await rp.analysis.ready;
   */
  readonly ready: Promise<void>;

  /**
   * How the analyses were compiled (Eigen's version and vector path).
   * @example rp.analysis.buildInfo().instructionSets // 'SSE, SSE2, SSE3, SSSE3, SSE4.1, SSE4.2'
   */
  buildInfo(): AnalysisBuild;

  /**
   * Translation defect of a score matrix (Theorem 1, 2.1.2): |S[i+k, j+k] − S[i, j]| over all i, j, k ≥ 1 with both
   * entries inside, computed per diagonal in O(n² log n). `shift` restricts to one k (the chapter's k slider).
   * Masked entries (−Infinity, a causal mask) equal each other; masked against finite counts as Infinity.
   * S may be [heads, n, n]: max is the worst head, mean pools all heads, `perHead` has both per head.
   * @example
   * const { max, isToeplitz } = rp.analysis.translationDefect(rp.scores('rope', { n: 64, d: 32 }));  // ~0, true
   */
  translationDefect(S: TensorLike, options?: { tolerance?: number; shift?: number }): TranslationDefect;

  /**
   * Singular values of M (Eigen BDCSVD in float64), its effective rank and condition number; U, V with `vectors`.
   * At most 2048 rows and columns and rows·cols·min(rows, cols) ≤ 2^31 (about 1290 × 1290: ~3 s in wasm; larger is a
   * RangeError naming the limit). Measured in Node (wasm, float64): 512 × 512 values only ≈ 0.13 s, with U, V ≈ 0.25–0.33 s.
   * @example
   * const S = rp.scores('alibi', { n: 128 });  // [1, 128, 128]
   * const { singularValues, effectiveRank } = rp.analysis.svd({ shape: [128, 128], data: S.data });
   */
  svd(M: TensorLike, options?: { vectors?: boolean; tolerance?: number }): Svd;

  /**
   * Eigenvalues (ascending) of the symmetric part (M + Mᵀ)/2 (Eigen SelfAdjointEigenSolver, float64), whether it is
   * PSD, and the eigenvectors with `vectors`. M square, up to 2048 × 2048.
   * @example
   * rp.analysis.eig([[2, 1], [1, 2]]).values;  // Float32Array [1, 3]
   */
  eig(M: TensorLike, options?: { vectors?: boolean; tolerance?: number }): Eig;

  /**
   * [n, n] distances between the rows of E: `'euclidean'` ‖e_i − e_j‖₂, `'cosine'` 1 − cos(e_i, e_j) (a zero row has
   * cosine 0 with every other row), `'manhattan'` ‖e_i − e_j‖₁.
   * @example
   * const D = rp.analysis.distances(rp.encoding('sinusoidal', { n: 128, d: 64 }), 'cosine');  // D.shape = [128, 128]
   */
  distances(E: TensorLike, metric?: 'euclidean' | 'cosine' | 'manhattan'): Tensor;

  /**
   * PCA of the rows of E via SVD: centred rows projected on the top two principal directions ([n, 2], signs fixed so
   * the largest |coordinate| of each component is positive) and the share of variance each explains.
   * @example
   * const { points, explained } = rp.analysis.project2d(rp.encoding('sinusoidal', { n: 256, d: 16 }));  // points.shape = [256, 2]
   */
  project2d(E: TensorLike): { points: Tensor; explained: Float32Array };

  /**
   * Shannon entropy (nats) of each row of W after normalising it to sum 1 (entries must be ≥ 0). One value per row;
   * for [heads, n, m] input heads·n values, row-major [heads][n].
   * @example
   * rp.analysis.entropy(rp.attention({ q, k, scheme: 'alibi' }).weights);
   */
  entropy(W: TensorLike): Float32Array;

  /**
   * The attention-weighted distance distribution p(r) (query i sits at position i + m − n) and its entropy in nats.
   * @example
   * const { r, p, entropy } = rp.analysis.distanceEntropy({ shape: [n, n], data: weights });
   */
  distanceEntropy(W: TensorLike): DistanceEntropy;

  /**
   * Is k(r) a covariance? Symmetry k(r) = k(−r) first, then positive semi-definiteness of K[i, j] = k(j − i) (n × n,
   * n ≤ 2048) from the eigenvalues of its symmetric part. exp-decay, gaussian, cosine, sinc pass; sin fails symmetry;
   * sin-even and box are symmetric with negative eigenvalues.
   * @example
   * rp.analysis.kernelCheck({ name: 'gaussian', sigma: 8 }, { n: 64 }).isPSD;  // true
   * rp.analysis.kernelCheck('sin', { n: 64 }).symmetric;                    // false
   */
  kernelCheck(profile: Profile, options?: { n?: number; tolerance?: number }): KernelCheck;

  /**
   * `count` samples of the zero-mean Gaussian process with covariance K[i, j] = k(j − i), n ≤ 4096: Cholesky (LLT) of
   * K, adding jitter·I only when needed (1e-10 … 1e-4 of k(0), reported as `jitter`), with a seeded xoshiro256** +
   * Box-Muller generator (same seed, same samples). Profiles that are not symmetric or not PSD are a RangeError.
   * @example
   * const s = rp.analysis.gpSample('exp-decay', { n: 200, count: 3, seed: 1 });  // s.shape = [3, 200]
   */
  gpSample(profile: Profile, options: { n?: number; count?: number; seed?: number }): Tensor & { jitter: number };

  /**
   * Gaussian-process regression on the grid t = 0 … n − 1 (n ≤ 2048): prior f ~ GP(m, k) with K[i, j] = k(j − i) and
   * mean function m (`mean`, n values; default 0), observations y = f(at) + noise·ε. Returns the posterior mean and
   * standard deviation at every grid point (Cholesky of K_oo + noise²·I; jitter as in gpSample). Profiles that are not
   * symmetric are a RangeError; so are `at` entries outside the grid.
   * @example
   * const post = rp.analysis.gpPosterior({ name: 'gaussian', sigma: 4 }, { n: 32, at: [0, 8, 16], y: [0, -1, -2], noise: 0.1 });
   * post.mean.length;  // 32; post.std is near 0.1 at t = 0, 8, 16 and near 1 far from them
   */
  gpPosterior(
    profile: Profile,
    options: { n?: number; at: TensorLike; y: TensorLike; noise?: number; mean?: TensorLike },
  ): { mean: Float32Array; std: Float32Array; jitter: number };

  /**
   * Analytic f(r) and f'(r) of a profile at r = −(n−1) … n−1 or at the given real distances `at`: built-ins except box
   * and the bias schemes alibi (symmetric form), kerple-log, kerple-power, sin-freq, sandwich (one head). At the kink
   * r = 0 of |r| forms the mean of the one-sided slopes (0). Others are a RangeError. `bound` is sup |f(r)| over every
   * real r where the form bounds f although no finite window shows it (sandwich: dBar/8), else NaN.
   * @example
   * rp.analysis.derivative({ name: 'alibi' }, { at: [1, 10, 100] }).derivative;  // −slope each
   */
  derivative(
    profile: Profile,
    options: { n?: number; at?: TensorLike },
  ): { r: Float32Array; value: Float32Array; derivative: Float32Array; bound: number };

  /**
   * RoFormer §3.4.3 long-term decay: for r = 0 … maxDistance (default 1024), (1/(d/2)) Σ_{j=1}^{d/2} |S_j| with
   * S_j = Σ_{k<j} e^{i r θ_k} — the factor bounding |q·k| under RoPE as the distance r grows (θ of any rope scheme).
   * @example
   * const bound = rp.analysis.decayBound({ d: 128, base: 10000, maxDistance: 4096 });  // Float32Array(4097)
   */
  decayBound(options: RotaryOptions & { maxDistance?: number }): Float32Array;

  /**
   * Error of the rotary angles m·θ_k computed in `dtype` (θ and m rounded to it, one rounded product, cos/sin rounded;
   * round-to-nearest-even emulation) against float64, at `positions` (or 0 … n−1). `angles: 'float32'` models the
   * usual pipeline instead: θ, m and m·θ in float32, only cos/sin stored in `dtype`.
   * @example
   * rp.analysis.precision({ d: 128, positions: [1e3, 1e5, 1e6], dtype: 'bfloat16' }).angleError;
   */
  precision(
    options: RotaryOptions & {
      positions?: TensorLike;
      n?: number;
      dtype?: 'float32' | 'float16' | 'bfloat16';
      angles?: 'dtype' | 'float32';
      perPair?: boolean;
    },
  ): Precision;

  /**
   * Per rotary pair: θ_k, wavelength and whether it completes a full turn over the training window (2.1.7), for RoPE
   * or any scaling (`scheme`, `params`).
   * @example
   * rp.analysis.angleCoverage({ d: 128, trainLength: 4096, scheme: 'rope-llama3', params: { factor: 8 } }).incompleteCount;
   */
  angleCoverage(options: RotaryOptions & { trainLength: number }): AngleCoverage;

  /**
   * Cosine between the correctly scaled rotary embedding of a probe vector x (default all ones) and the unscaled RoPE
   * one, per position: what ignoring `rope_scaling` costs. Σ_k w_k cos(m(θ'_k − θ_k)) / ‖x‖² with w_k the pair's ‖x‖².
   * @example
   * rp.analysis.scaledCosine({ d: 128, scheme: 'rope-linear', params: { factor: 4 }, positions: [0, 1000, 8000] });
   */
  scaledCosine(options: RotaryOptions & { positions?: TensorLike; n?: number; x?: TensorLike }): Float32Array;

  /**
   * The bound C of |PE| for the sinusoidal encoding (2.1.8): ‖PE(p)‖ = sqrt(d/2) for every p with even d
   * (sqrt(⌈d/2⌉) bounds odd d), every entry in [−1, 1]; `norms` measures ‖PE(p)‖ for p < n (default 1024) and
   * `elementBound` the largest |entry| measured over those n vectors.
   * @example
   * rp.analysis.peBound({ d: 64 }).C;  // 5.656…
   */
  peBound(options: { d: number; n?: number; base?: number; layout?: 'interleaved' | 'concat' }): {
    C: number;
    elementBound: number;
    measured: number;
    norms: Float32Array;
  };
}
