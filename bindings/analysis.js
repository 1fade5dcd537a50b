// rp.analysis: thin wrappers that shape arguments for the core's analyses and unpack results.
// `call(name, options)` runs one analysis in the analysis module and returns its named tensors (or
// throws while that module is still loading: `ready` resolves once it has arrived). Every number is
// computed in the core (src/relpos/analysis/); this file only moves arguments and results.
import { isPlainObject, isTypedArray } from './convert.js';

const WHERE = 'relpos.analysis';
const BUILTIN_PROFILES = ['exp-decay', 'gaussian', 'cosine', 'sinc', 'box', 'sin', 'sin-even'];

const number = (tensor) => tensor.data[0];
const flag = (tensor) => tensor.data[0] !== 0;

function requireTensorLike(where, name, value, shapeText) {
  const ok = Array.isArray(value) || isTypedArray(value) || isPlainObject(value);
  if (!ok) throw new TypeError(`${where}: ${name} must be a tensor of shape ${shapeText}`);
}

function requireOptions(where, options) {
  if (options === undefined) return {};
  if (!isPlainObject(options)) throw new TypeError(`${where}: options must be a plain object`);
  return options;
}

// Options with a nested scheme `params` object ({ scheme, params }) flattened into one level.
function flattenParams(where, options) {
  const { params = {}, ...rest } = requireOptions(where, options);
  if (!isPlainObject(params)) throw new TypeError(`${where}: params must be a plain object`);
  return { ...rest, ...params };
}

// A profile is a name, { name, ...params } or { values } (k(r) for r = -(n-1) .. n-1); the binding
// takes flat options only, so it becomes { profile: name, ...params } or { values }.
function flattenProfile(where, profile) {
  if (typeof profile === 'string') return { profile };
  if (isPlainObject(profile)) {
    if ('values' in profile) {
      const { values, ...rest } = profile;
      if (Object.keys(rest).length > 0) {
        throw new TypeError(`${where}: profile { values } takes no other fields, got ${Object.keys(rest).join(', ')}`);
      }
      requireTensorLike(where, 'profile.values', values, '[2n - 1]');
      return { values };
    }
    const { name, ...params } = profile;
    if (typeof name === 'string') return { profile: name, ...params };
  }
  throw new TypeError(
    `${where}: profile must be a name (${BUILTIN_PROFILES.map((p) => `'${p}'`).join(', ')} or a bias scheme id), { name, ...params } or { values }`,
  );
}

/**
 * @param {(name: string, options: object) => object} call runs one analysis
 * @param {{ ready: () => Promise<void>, buildInfo: () => object }} module `ready` loads the analysis
 *   module (once), `buildInfo` says how it was compiled
 */
export function createAnalysis(call, { ready, buildInfo }) {
  function translationDefect(S, options) {
    const where = `${WHERE}.translationDefect`;
    requireTensorLike(where, 'S', S, '[n, n] or [heads, n, n]');
    const r = call('translationDefect', { ...requireOptions(where, options), S });
    const out = {
      max: number(r.max),
      mean: number(r.mean),
      relative: number(r.relative),
      isToeplitz: flag(r.isToeplitz),
    };
    const batched = (S.shape ?? []).length === 3 || (Array.isArray(S) && Array.isArray(S[0]?.[0]));
    if (batched) out.perHead = { max: r.perHeadMax.data, mean: r.perHeadMean.data };
    return out;
  }

  function svd(M, options) {
    const where = `${WHERE}.svd`;
    requireTensorLike(where, 'M', M, '[rows, cols]');
    const r = call('svd', { ...requireOptions(where, options), M });
    const out = {
      singularValues: r.singularValues.data,
      effectiveRank: number(r.effectiveRank),
      conditionNumber: number(r.conditionNumber),
      rank: number(r.rank),
      tolerance: number(r.tolerance),
    };
    if (r.U) Object.assign(out, { U: r.U, V: r.V });
    return out;
  }

  function eig(M, options) {
    const where = `${WHERE}.eig`;
    requireTensorLike(where, 'M', M, '[n, n]');
    const r = call('eig', { ...requireOptions(where, options), M });
    const out = {
      values: r.values.data,
      symmetric: flag(r.symmetric),
      asymmetry: number(r.asymmetry),
      isPSD: flag(r.isPSD),
    };
    if (r.vectors) out.vectors = r.vectors;
    return out;
  }

  function distances(E, metric = 'euclidean') {
    const where = `${WHERE}.distances`;
    requireTensorLike(where, 'E', E, '[n, d]');
    if (typeof metric !== 'string') {
      throw new TypeError(`${where}: metric must be 'euclidean', 'cosine' or 'manhattan'`);
    }
    return call('distances', { E, metric }).data;
  }

  function project2d(E) {
    const where = `${WHERE}.project2d`;
    requireTensorLike(where, 'E', E, '[n, d]');
    const r = call('project2d', { E });
    return { points: r.points, explained: r.explained.data };
  }

  function entropy(W) {
    const where = `${WHERE}.entropy`;
    requireTensorLike(where, 'W', W, '[n, m] or [heads, n, m]');
    return call('entropy', { W }).data.data;
  }

  function distanceEntropy(W) {
    const where = `${WHERE}.distanceEntropy`;
    requireTensorLike(where, 'W', W, '[n, m] or [heads, n, m]');
    const r = call('distanceEntropy', { W });
    const width = r.p.shape[r.p.shape.length - 1];
    const m = (width + 1) / 2;
    const distance = Int32Array.from({ length: width }, (_, t) => t - (m - 1));
    if (r.p.shape.length === 1) {
      return { r: distance, p: r.p.data, entropy: number(r.entropy), meanDistance: number(r.meanDistance) };
    }
    return { r: distance, p: r.p, entropy: r.entropy.data, meanDistance: r.meanDistance.data };
  }

  function kernelCheck(profile, options) {
    const where = `${WHERE}.kernelCheck`;
    const r = call('kernelCheck', { ...requireOptions(where, options), ...flattenProfile(where, profile) });
    return {
      symmetric: flag(r.symmetric),
      isPSD: flag(r.isPSD),
      isCPD: flag(r.isCPD),
      minEigenvalue: number(r.minEigenvalue),
      minEigenvalueCPD: number(r.minEigenvalueCPD),
      eigenvalues: r.eigenvalues.data,
      asymmetry: number(r.asymmetry),
    };
  }

  function gpSample(profile, options) {
    const where = `${WHERE}.gpSample`;
    const r = call('gpSample', { ...requireOptions(where, options), ...flattenProfile(where, profile) });
    return { shape: r.data.shape, data: r.data.data, jitter: number(r.jitter) };
  }

  function gpPosterior(profile, options) {
    const where = `${WHERE}.gpPosterior`;
    const r = call('gpPosterior', { ...requireOptions(where, options), ...flattenProfile(where, profile) });
    return { mean: r.mean.data, std: r.std.data, jitter: number(r.jitter) };
  }

  function derivative(profile, options) {
    const where = `${WHERE}.derivative`;
    const r = call('derivative', { ...requireOptions(where, options), ...flattenProfile(where, profile) });
    return { r: r.r.data, value: r.value.data, derivative: r.derivative.data, bound: number(r.bound) };
  }

  // Analyses that return one curve: options (with a nested `params`) in, the values out.
  const curve = (name) => (options) => call(name, flattenParams(`${WHERE}.${name}`, options)).data.data;
  const decayBound = curve('decayBound');
  const scaledCosine = curve('scaledCosine');

  function precision(options) {
    const where = `${WHERE}.precision`;
    const r = call('precision', flattenParams(where, options));
    const out = {
      angleError: r.angleError.data,
      rotationError: r.rotationError.data,
      maxAngleError: number(r.maxAngleError),
      maxRotationError: number(r.maxRotationError),
    };
    if (r.angleErrorPerPair) out.angleErrorPerPair = r.angleErrorPerPair;
    return out;
  }

  function angleCoverage(options) {
    const where = `${WHERE}.angleCoverage`;
    const r = call('angleCoverage', flattenParams(where, options));
    return {
      theta: r.theta.data,
      wavelength: r.wavelength.data,
      turns: r.turns.data,
      completesTurn: Array.from(r.completesTurn.data, (x) => x !== 0),
      firstIncomplete: number(r.firstIncomplete),
      incompleteCount: number(r.incompleteCount),
      attentionFactor: number(r.attentionFactor),
    };
  }

  function peBound(options) {
    const where = `${WHERE}.peBound`;
    const r = call('peBound', requireOptions(where, options));
    return { C: number(r.C), elementBound: number(r.elementBound), measured: number(r.measured), norms: r.norms.data };
  }

  return Object.freeze({
    /** Resolves once the analysis module has loaded (the first read starts loading it). */
    get ready() {
      return ready();
    },
    buildInfo,
    translationDefect,
    svd,
    eig,
    distances,
    project2d,
    entropy,
    distanceEntropy,
    kernelCheck,
    gpSample,
    gpPosterior,
    derivative,
    decayBound,
    precision,
    angleCoverage,
    scaledCosine,
    peBound,
  });
}
