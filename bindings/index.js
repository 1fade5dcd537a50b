// relpos: positional encodings for transformers, computed by a C++ core in WebAssembly.
// This module loads the core and exposes the public API (docs/api.md). It validates and converts
// arguments; every number is computed in the core. The calls on schemes (rp.encoding, rp.bias, …)
// are built from the core's operation table (rp.operations).
//
// Two wasm modules per build flavour: the core (schemes, attention, maps, presets, configs), which
// load() instantiates, and the analysis module (rp.analysis with Eigen, rp.lab), which arrives on
// first use — `await rp.analysis.ready` (or `load({ analysis: true })`) before the synchronous
// rp.analysis calls; rp.lab.train() loads it by itself (docs/api.md, "Loading").
import { exceptionsSupported, simdSupported } from './simd.js';
import {
  deepFreeze,
  isPlainObject,
  normaliseOptions,
  requireMatrix,
  requireOptionsObject,
  requireSchemeId,
  toTensor,
  attentionOptions,
} from './convert.js';
import { createAnalysis } from './analysis.js';
import { runJob } from './jobs.js';
import { createLab } from './lab.js';

// The worker pool (pool.js) is fetched on the first call with `workers`.
const poolModule = () => import('./pool.js');

/** The shared pool of `workers` (N | 'auto'); a RangeError naming `where` for a bad count. */
async function withPool(where, workers) {
  const { poolSize, sharedPool } = await poolModule();
  return sharedPool(poolSize(where, workers));
}

async function splitTrain(pool, runs, control) {
  return (await poolModule()).splitTrain(pool, runs, control);
}

/** Stops the workers of calls made with `workers` (a later such call starts fresh ones). */
export async function terminateWorkers() {
  (await poolModule()).terminateShared();
}

export const version = '0.1.0';

const instances = new Map();
const LOAD_OPTIONS = ['simd', 'analysis', 'lab'];

/**
 * Instantiates the wasm core (once per flavour; later calls return the same instance).
 * @param {{ simd?: boolean, analysis?: boolean, lab?: boolean }} [options] `simd` forces the SIMD
 *   (true) or baseline (false) build; `analysis` / `lab` also load the analysis module (rp.analysis
 *   and rp.lab) before resolving
 */
export function load(options = {}) {
  const where = 'relpos.load';
  if (!isPlainObject(options)) throw new TypeError(`${where}: options must be a plain object`);
  for (const name of Object.keys(options)) {
    if (!LOAD_OPTIONS.includes(name)) {
      throw new RangeError(
        `${where}: unknown option '${name}'; allowed: ${LOAD_OPTIONS.map((o) => `'${o}'`).join(', ')}`,
      );
    }
  }
  const { simd = simdSupported(), analysis = false, lab = false } = options;
  for (const [name, value] of Object.entries({ simd, analysis, lab })) {
    if (typeof value !== 'boolean') throw new TypeError(`${where}: ${name} must be a boolean`);
  }
  if (simd && !simdSupported()) {
    throw new RangeError(`${where}: this engine has no WebAssembly SIMD; use simd: false`);
  }
  if (!exceptionsSupported()) {
    throw new Error(
      `${where}: this engine has no WebAssembly exception handling, which relpos needs (Chrome 95, Firefox 100, Safari 15.2, Node 17 and later have it)`,
    );
  }
  if (!instances.has(simd)) {
    const created = instantiate('core', simd).then((core) => new Relpos(core, simd));
    created.catch(() => instances.delete(simd)); // a failed load may be retried
    instances.set(simd, created);
  }
  const core = instances.get(simd);
  return analysis || lab ? core.then((rp) => rp.analysis.ready.then(() => rp)) : core;
}

// Each module's glue and wasm file. Static specifiers and new URL(…, import.meta.url) let bundlers
// find and copy every build; the analysis module's glue becomes a chunk of its own, fetched only
// when a page first asks for it.
const BUILDS = {
  'core/simd': () => ({
    glue: import('../dist/relpos.simd.mjs'),
    wasm: new URL('../dist/relpos.simd.wasm', import.meta.url),
  }),
  'core/baseline': () => ({
    glue: import('../dist/relpos.baseline.mjs'),
    wasm: new URL('../dist/relpos.baseline.wasm', import.meta.url),
  }),
  'analysis/simd': () => ({
    glue: import('../dist/relpos-analysis.simd.mjs'),
    wasm: new URL('../dist/relpos-analysis.simd.wasm', import.meta.url),
  }),
  'analysis/baseline': () => ({
    glue: import('../dist/relpos-analysis.baseline.mjs'),
    wasm: new URL('../dist/relpos-analysis.baseline.wasm', import.meta.url),
  }),
};

/** Instantiates one wasm module ('core' | 'analysis') of one flavour; resolves to its Embind module. */
async function instantiate(part, simd) {
  const { glue, wasm } = BUILDS[`${part}/${simd ? 'simd' : 'baseline'}`]();
  const factory = (await glue).default;
  const moduleOptions = {};
  if (wasm.protocol === 'file:') {
    // Node: the web-targeted glue would fetch() a file:// URL, so hand it the bytes instead.
    const fsModule = 'node:fs/promises';
    const { readFile } = await import(/* @vite-ignore */ fsModule);
    moduleOptions.wasmBinary = await readFile(wasm);
  } else {
    moduleOptions.locateFile = (path) => (path.endsWith('.wasm') ? wasm.href : path);
  }
  return factory(moduleOptions);
}

class Relpos {
  #core;
  #unboundedView; // the instance unbounded() returns
  #bounded;
  #schemes;
  #presets;
  #analysis;
  #lab;
  #operations;
  // The analysis module once instantiated, and its loading promise (null again after a failure, so
  // a later use retries).
  #second = null;
  #secondLoading = null;

  // `bounded`: synchronous calls keep to the core's work budget (docs/api.md, "Limits"); false for
  // the instance unbounded() returns.
  constructor(core, simd, bounded = true) {
    this.#core = core;
    this.#bounded = bounded;
    this.simd = simd;
    this.version = version;
    this.#operations = deepFreeze(parseJson(unwrap(core.operationsJson())));
    for (const op of this.#operations) {
      // attention and the jobs keep the methods below; every other call on a scheme comes from the table.
      if (op.name in this) continue;
      Object.defineProperty(this, op.name, { value: this.#schemeCall(op), writable: true, configurable: true });
    }
    const ready = () => this.#loadSecond();
    this.#analysis = createAnalysis(
      (name, options) => {
        const where = `relpos.analysis.${name}`;
        return unwrap(this.#secondModule(where).analyze(name, normaliseOptions(where, options)));
      },
      {
        ready,
        buildInfo: () => ({
          ...parseJson(unwrap(this.#secondModule('relpos.analysis.buildInfo').buildJson())),
          simd: this.simd,
        }),
      },
    );
    this.#lab = createLab({
      ready,
      schema: () => parseJson(unwrap(this.#secondModule('relpos.lab.schema').labSchemaJson())),
      runJob: (kind, options, control) => runJob(this.#secondModule(control.where), unwrap, kind, options, control),
      pooled: (runs, workers, control) =>
        withPool(control.where, workers).then((pool) => splitTrain(pool, runs, control)),
    });
  }

  // The analysis module, or an Error naming `where` and how to wait for it (its loading starts).
  #secondModule(where) {
    if (this.#second) return this.#second;
    this.#loadSecond().catch(() => {}); // the caller learns of a failed load from ready or the next call
    throw new Error(
      `${where}: the analysis module (rp.analysis, rp.lab) is still loading; await rp.analysis.ready, or load({ analysis: true }), before calling it`,
    );
  }

  #loadSecond() {
    if (!this.#secondLoading) {
      this.#secondLoading = instantiate('analysis', this.simd).then((module) => {
        this.#second = module;
      });
      this.#secondLoading.catch(() => {
        this.#secondLoading = null;
      });
    }
    return this.#secondLoading;
  }

  /**
   * The same core without the work budget of synchronous calls, for where blocking is fine (Node
   * scripts, a worker); memory limits still hold.
   */
  unbounded() {
    if (!this.#bounded) return this;
    this.#unboundedView ??= new Relpos(this.#core, this.simd, false);
    return this.#unboundedView;
  }

  /** The calls on schemes with their options, as the core defines them: { name, doc, options, … }[]. */
  get operations() {
    return this.#operations;
  }

  /** @returns {import('./index').SchemeInfo[]} */
  get schemes() {
    this.#schemes ??= deepFreeze(parseJson(unwrap(this.#core.catalogueJson())));
    return this.#schemes;
  }

  /** Real-model presets (docs/presets.md): { id, name, scheme, params, heads, source, model }. */
  get presets() {
    this.#presets ??= deepFreeze(parseJson(unwrap(this.#core.presetsJson())));
    return this.#presets;
  }

  /**
   * Reads a Hugging Face config.json (object or JSON text) into { scheme, params, heads, warnings }.
   * The core parses it as hostile input: depth, size, types and prototype keys are checked there.
   */
  fromConfig(configJson) {
    const where = 'relpos.fromConfig';
    let text = configJson;
    if (typeof configJson !== 'string') {
      if (configJson === null || typeof configJson !== 'object' || Array.isArray(configJson)) {
        throw new TypeError(`${where}: configJson must be a config.json object or its JSON text`);
      }
      try {
        text = JSON.stringify(configJson);
      } catch (error) {
        throw new TypeError(`${where}: configJson must be plain JSON data (${error.message})`, { cause: error });
      }
    }
    return parseJson(unwrap(this.#core.fromConfigJson(text)));
  }

  /**
   * The extrapolation lab: train a tiny attention model per scheme, test it on longer sequences
   * (lab.js). In the analysis module: train() loads it; schema, tasks, schemes and defaults need
   * `await rp.lab.ready` first.
   */
  get lab() {
    return this.#lab;
  }

  /** The analyses of chapter 2.1 (analysis.js), in the analysis module: `await rp.analysis.ready` first. */
  get analysis() {
    return this.#analysis;
  }

  // `view: true` returns views into the wasm heap instead of copies (see viewsValidUntilNextCall).
  #call(op, id, options) {
    this.#core.releaseView();
    if (isPlainObject(options) && options.view !== undefined) {
      const { view, ...rest } = options;
      if (typeof view !== 'boolean') throw new TypeError(`relpos.${op}: view must be a boolean, got ${typeof view}`);
      if (view) return unwrap(this.#core.computeView(op, id, normaliseOptions(`relpos.${op}`, rest), !this.#bounded));
      options = rest;
    }
    return unwrap(this.#core.compute(op, id, normaliseOptions(`relpos.${op}`, options), !this.#bounded));
  }

  // One call of the operation table: (id, options), or (input, { scheme = defaultScheme, … }) for an
  // operation on a tensor (rotate); the result shaped as the table's `returns` says.
  #schemeCall({ name, input, defaultScheme, returns }) {
    const where = `relpos.${name}`;
    const kinds = Object.entries(returns);
    const unpack = { tensor: (t) => t, array: (t) => t.data, number: (t) => t.data[0] };
    const shape = (result) =>
      withNotes(
        kinds.length === 1 && kinds[0][1] === 'tensor'
          ? result[kinds[0][0]]
          : Object.fromEntries(kinds.map(([key, kind]) => [key, unpack[kind](result[key])])),
        result,
      );
    if (!input) {
      return (id, options) => {
        requireSchemeId(where, id);
        return shape(this.#call(name, id, options));
      };
    }
    return (value, options = {}) => {
      requireOptionsObject(where, 'options', options);
      const { scheme = defaultScheme, ...rest } = options;
      requireSchemeId(where, scheme, 'scheme');
      if (value === null || typeof value !== 'object') {
        throw new TypeError(
          `${where}: ${input} must be a tensor of shape [n, d], got ${value === null ? 'null' : typeof value}`,
        );
      }
      const tensor = requireMatrix(where, input, toTensor(where, input, value));
      return shape(this.#call(name, scheme, { ...rest, [input]: tensor }));
    };
  }

  /**
   * Attention with a positional term (docs/api.md). The weights come back in `out` (a Float32Array
   * of the right length) when given — with `weights: false`, `out` receives the output instead.
   */
  attention(options) {
    const where = 'relpos.attention';
    const { scheme, merged, view, out } = attentionOptions(where, options);
    this.#core.releaseView();
    const result = view
      ? unwrap(this.#core.computeView('attention', scheme ?? '', merged, !this.#bounded))
      : unwrap(this.#core.computeAttention(scheme ?? '', merged, out ?? null, !this.#bounded));
    return attentionResult(result);
  }

  /**
   * The same call as a job, for calls over the synchronous work budget (e.g. `weights: false` at
   * long n): resolves to what rp.attention returns, with `onProgress` and an AbortSignal `signal`.
   */
  async attentionAsync(options) {
    const where = 'relpos.attentionAsync';
    requireOptionsObject(where, 'options', options);
    const { onProgress, signal, workers, ...rest } = options;
    const checked = attentionOptions(where, rest);
    const { scheme, merged, view, out } = checked;
    if (view) throw new TypeError(`${where}: view is not available for a job (its result outlives the call)`);
    if (workers !== undefined) {
      const pool = await withPool(where, workers);
      return (await poolModule()).splitAttention(pool, checked, { onProgress, signal, where });
    }
    if (scheme !== undefined) merged.scheme = scheme;
    const result = attentionResult(
      await runJob(this.#core, unwrap, 'attention', merged, { onProgress, signal, where }),
    );
    if (out) {
      const target = result.weights ?? result.output;
      if (out.length !== target.data.length) {
        throw new RangeError(`${where}: out must be a Float32Array of ${target.data.length} values, got ${out.length}`);
      }
      out.set(target.data);
      target.data = out;
    }
    return result;
  }

  /**
   * A pooled [size, size] attention-weight map of a long sequence, never holding n×n: content-free
   * (position-only logits) unless `seed` (random Q, K) or `q`, `k` are given. Resolves to a tensor.
   */
  async attentionMap(options) {
    const where = 'relpos.attentionMap';
    requireOptionsObject(where, 'options', options);
    const { scheme, params = {}, onProgress, signal, workers, ...rest } = options;
    if (scheme !== undefined) requireSchemeId(where, scheme, 'scheme');
    requireOptionsObject(where, 'params', params);
    const merged = normaliseOptions(where, { ...rest, ...params });
    if (scheme !== undefined) merged.scheme = scheme;
    if (workers !== undefined) {
      const pool = await withPool(where, workers);
      return (await poolModule()).splitMap(pool, merged, { onProgress, signal, where });
    }
    const result = await runJob(this.#core, unwrap, 'attentionMap', merged, { onProgress, signal, where });
    return result.data;
  }

  /** Runs a job of the core ('attentionMap') with progress and cancellation. */
  runJob(kind, options, control = {}) {
    if (control === null || typeof control !== 'object') {
      throw new TypeError('relpos.runJob: control must be an object { onProgress?, signal?, where? }');
    }
    return runJob(this.#core, unwrap, kind, options, { where: 'relpos.runJob', ...control });
  }

  /** Bytes the allocators hold: the core's, plus the analysis module's once loaded (for leak checks). */
  heapInUse() {
    return this.#core.heapInUse() + (this.#second ? this.#second.heapInUse() : 0);
  }
}

function attentionResult(result) {
  const out = {};
  if (result.weights) out.weights = result.weights;
  if (result.output) out.output = result.output;
  return withNotes(out, result);
}

// The core's notes on a result (docs/api.md, "Options"): `synthetic` names the learned inputs a call
// filled with untrained demonstration values; `sameForEveryHead` marks the one map a view returns for
// every head. Present only when they say something.
function withNotes(value, { synthetic, sameForEveryHead }) {
  if (synthetic) value.synthetic = synthetic;
  if (sameForEveryHead) value.sameForEveryHead = true;
  return value;
}

const utf8 = new TextDecoder();

// The core hands JSON over as its UTF-8 bytes (jsonBytes in binding.hpp): one decode, one parse.
function parseJson(bytes) {
  return JSON.parse(utf8.decode(bytes));
}

const ERROR_TYPES = { TypeError, RangeError, Error };

// The core reports failures as { error, kind } (see binding.hpp); throw them here.
function unwrap(result) {
  if (result && typeof result === 'object' && typeof result.error === 'string') {
    throw new (ERROR_TYPES[result.kind] ?? Error)(result.error);
  }
  return result;
}
