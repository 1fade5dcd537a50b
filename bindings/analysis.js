// rp.analysis: thin wrappers that shape arguments for the core's analyses and unpack results.
// `call(name, options)` runs one analysis in the analysis module and returns its named tensors (or
// throws while that module is still loading: `ready` resolves once it has arrived). Every number is
// computed in the core (src/relpos/analysis/); this file only moves arguments and results.
import { isPlainObject, isTypedArray } from './convert.js';

const WHERE = 'relpos.analysis';
const BUILTIN_PROFILES = ['exp-decay', 'gaussian', 'cosine', 'sinc', 'box', 'sin', 'sin-even'];

const number = (tensor) => tensor.data[0];
const flag = (tensor) => tensor.data[0] !== 0;
const values = (tensor) => tensor.data;
// The core's record as JS values: each named field through its reader (number, flag, values).
const fields = (r, readers) => Object.fromEntries(Object.entries(readers).map(([name, read]) => [name, read(r[name])]));

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
  // Analysis `name` of one tensor, the argument `arg` (checked; shapeText names its shape in the
  // message), with the options checked; the core's record back.
  function ofTensor(name, arg, value, shapeText, options) {
    const where = `${WHERE}.${name}`;
    requireTensorLike(where, arg, value, shapeText);
    return call(name, { ...requireOptions(where, options), [arg]: value });
  }

  // Analysis `name` of a kernel profile (a name, { name, ...params } or { values }), with the options.
  function ofProfile(name, profile, options) {
    const where = `${WHERE}.${name}`;
    return call(name, { ...requireOptions(where, options), ...flattenProfile(where, profile) });
  }

  function translationDefect(S, options) {
    const r = ofTensor('translationDefect', 'S', S, '[n, n] or [heads, n, n]', options);
    const out = fields(r, { max: number, mean: number, relative: number, isToeplitz: flag });
    const batched = (S.shape ?? []).length === 3 || (Array.isArray(S) && Array.isArray(S[0]?.[0]));
    if (batched) out.perHead = { max: r.perHeadMax.data, mean: r.perHeadMean.data };
    return out;
  }

  function svd(M, options) {
    const r = ofTensor('svd', 'M', M, '[rows, cols]', options);
    const out = fields(r, {
      singularValues: values,
      effectiveRank: number,
      conditionNumber: number,
      rank: number,
      tolerance: number,
    });
    if (r.U) Object.assign(out, { U: r.U, V: r.V });
    return out;
  }

  function eig(M, options) {
    const r = ofTensor('eig', 'M', M, '[n, n]', options);
    const out = fields(r, { values, symmetric: flag, asymmetry: number, isPSD: flag });
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
    const r = ofTensor('project2d', 'E', E, '[n, d]');
    return { points: r.points, explained: r.explained.data };
  }

  function entropy(W) {
    return ofTensor('entropy', 'W', W, '[n, m] or [heads, n, m]').data.data;
  }

  function distanceEntropy(W) {
    const r = ofTensor('distanceEntropy', 'W', W, '[n, m] or [heads, n, m]');
    const width = r.p.shape[r.p.shape.length - 1];
    const m = (width + 1) / 2;
    const distance = Int32Array.from({ length: width }, (_, t) => t - (m - 1));
    if (r.p.shape.length === 1) {
      return { r: distance, p: r.p.data, entropy: number(r.entropy), meanDistance: number(r.meanDistance) };
    }
    return { r: distance, p: r.p, entropy: r.entropy.data, meanDistance: r.meanDistance.data };
  }

  function kernelCheck(profile, options) {
    return fields(ofProfile('kernelCheck', profile, options), {
      symmetric: flag,
      isPSD: flag,
      isCPD: flag,
      minEigenvalue: number,
      minEigenvalueCPD: number,
      eigenvalues: values,
      asymmetry: number,
    });
  }

  function gpSample(profile, options) {
    const r = ofProfile('gpSample', profile, options);
    return { shape: r.data.shape, data: r.data.data, jitter: number(r.jitter) };
  }

  function gpPosterior(profile, options) {
    return fields(ofProfile('gpPosterior', profile, options), { mean: values, std: values, jitter: number });
  }

  function derivative(profile, options) {
    const readers = { r: values, value: values, derivative: values, bound: number };
    return fields(ofProfile('derivative', profile, options), readers);
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
