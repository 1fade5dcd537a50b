// relpos: positional encodings for transformers, computed by a C++ core in WebAssembly.
// This module loads the core and exposes the public API (docs/api.md). It validates and converts
// arguments; every number is computed in the core. The calls on schemes (rp.encoding, rp.bias, …)
// are built from the core's operation table (rp.operations).
//
// Three wasm modules: the core (schemes, attention, maps), which load() instantiates; the models
// module (rp.presets, rp.fromConfig: the config.json reader and the presets table), which load()
// instantiates beside it unless `models: false` — then `await rp.modelsReady` before those two; and
// the analysis module (rp.analysis with Eigen, rp.lab), which arrives on first use — `await
// rp.analysis.ready` (or `load({ analysis: true })`) before the synchronous rp.analysis calls;
// rp.lab.train() loads it by itself (docs/api.md, "load").
import { exceptionsSupported, relaxedSimdSupported, simdSupported } from './simd.js';
import {
  deepFreeze,
  isPlainObject,
  normaliseOptions,
  requireMatrix,
  requireOptionsObject,
  requireSchemeId,
  squeezeLeading,
  toTensor,
} from './convert.js';
import { attentionOptions, attentionResult, checkAxes, headsToRows, withNotes } from './attention-options.js';
import { HeapTensor, forCore } from './heap-tensor.js';
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
const LOAD_OPTIONS = ['simd', 'relaxed', 'models', 'analysis', 'lab'];

/**
 * Instantiates the wasm core (once per flavour; later calls return the same instance).
 * @param {{ simd?: boolean, relaxed?: boolean, models?: boolean, analysis?: boolean, lab?: boolean }} [options]
 *   `simd` forces the SIMD (true) or baseline (false) build; `relaxed` forces the relaxed build (the
 *   SIMD core with the fused attention kernels of a relaxed-SIMD side module) on or off; `models`
 *   (default true) loads the models module (rp.presets, rp.fromConfig) beside the core and resolves
 *   once both are there — false resolves with the core alone; `analysis` / `lab` also load the
 *   analysis module (rp.analysis and rp.lab) before resolving
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
  const { simd = simdSupported(), models = true, analysis = false, lab = false } = options;
  const { relaxed = simd && relaxedSimdSupported() } = options;
  for (const [name, value] of Object.entries({ simd, relaxed, models, analysis, lab })) {
    if (typeof value !== 'boolean') throw new TypeError(`${where}: ${name} must be a boolean`);
  }
  if (simd && !simdSupported()) {
    throw new RangeError(`${where}: this engine has no WebAssembly SIMD; use simd: false`);
  }
  if (relaxed && !simd) throw new RangeError(`${where}: relaxed: true needs the SIMD build; drop simd: false`);
  if (relaxed && !relaxedSimdSupported()) {
    throw new RangeError(`${where}: this engine has no WebAssembly relaxed SIMD; use relaxed: false`);
  }
  if (!exceptionsSupported()) {
    throw new Error(
      `${where}: this engine has no WebAssembly exception handling, which relpos needs (Chrome 95, Firefox 100, Safari 15.2, Node 17 and later have it)`,
    );
  }
  // The relaxed flavour asked for by default falls back to the SIMD one if its side module is
  // missing (a build without clang-19); asked for explicitly, it fails.
  const flavour = relaxed ? 'relaxed' : simd ? 'simd' : 'baseline';
  // The models module is fetched while the core is, not after it.
  if (models) loadModels().catch(() => {}); // a failure is reported through the promise below
  if (!instances.has(flavour)) {
    const compiled = relaxed ? compileFusedKernels() : null;
    compiled?.catch(() => {}); // its failure is handled below, once the core is there
    const created = instantiate('core', simd).then(async (core) => {
      const fused = relaxed ? await withFusedKernels(core, compiled).catch((error) => error) : false;
      if (fused instanceof Error) {
        if ('relaxed' in options) throw fused;
        return load({ ...options, relaxed: false });
      }
      return new Relpos(core, simd, true, fused);
    });
    created.catch(() => instances.delete(flavour)); // a failed load may be retried
    instances.set(flavour, created);
  }
  const core = instances.get(flavour);
  if (!models && !analysis && !lab) return core;
  return core.then((rp) =>
    Promise.all([models && rp.modelsReady, (analysis || lab) && rp.analysis.ready]).then(() => rp),
  );
}

// The models module: one build for every flavour (its code reads configs and copies a table; no
// SIMD to gain), shared by every instance. `module` is set once it has arrived.
const modelsState = { loading: null, module: null };

function loadModels() {
  if (!modelsState.loading) {
    modelsState.loading = instantiate('models', false).then((module) => {
      modelsState.module = module;
    });
    modelsState.loading.catch(() => {
      modelsState.loading = null; // a later use retries
    });
  }
  return modelsState.loading;
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
  'models/baseline': () => ({
    glue: import('../dist/relpos-models.mjs'),
    wasm: new URL('../dist/relpos-models.wasm', import.meta.url),
  }),
};

// Node: the web-targeted glue would fetch() a file:// URL, so modules get their bytes instead.
async function readBytes(url) {
  const fsModule = 'node:fs/promises';
  const { readFile } = await import(/* @vite-ignore */ fsModule);
  return readFile(url);
}

// The relaxed build's side module (docs/build.md): the fused attention kernels. Fetched and compiled
// while the core instantiates, from its bytes (it is small; no wasm MIME type needed).
function compileFusedKernels() {
  const url = new URL('../dist/relpos-fused.relaxed.wasm', import.meta.url);
  const bytes =
    url.protocol === 'file:'
      ? readBytes(url)
      : fetch(url).then((response) => {
          if (!response.ok) throw new Error(`relpos.load: ${url.href} answered ${response.status}`);
          return response.arrayBuffer();
        });
  return bytes.then((b) => WebAssembly.compile(b));
}

// The core's memory, one of its exports (emscripten minifies their names at -O3).
function memoryOf(core) {
  return Object.values(core.asm).find((value) => value instanceof WebAssembly.Memory);
}

// Instantiates the compiled side module on the core's own memory; the core's kernels call its
// fusedRows once per block of rows (through Module.fusedRows, src/relpos/kernels/kernels.cpp).
// Resolves to true.
async function withFusedKernels(core, compiled) {
  const memory = memoryOf(core);
  const instance = await WebAssembly.instantiate(await compiled, { env: { memory } });
  core.fusedRows = instance.exports.fusedRows;
  return true;
}

/** Instantiates one wasm module ('core' | 'analysis' | 'models') of one flavour; resolves to its Embind module. */
async function instantiate(part, simd) {
  const { glue, wasm } = BUILDS[`${part}/${simd ? 'simd' : 'baseline'}`]();
  const factory = (await glue).default;
  const moduleOptions = {};
  if (wasm.protocol === 'file:') {
    moduleOptions.wasmBinary = await readBytes(wasm);
  } else {
    moduleOptions.locateFile = (path) => (path.endsWith('.wasm') ? wasm.href : path);
  }
  return factory(moduleOptions);
}

// rp.kvCache's value head width: dv, or a layer's valueHeadDim (DeepSeek's value heads differ from its
// query/key heads), else d.
function cacheValueWidth(where, given, layer) {
  const own = layer?.valueHeadDim;
  if (given.dv !== undefined && own !== undefined && given.dv !== own) {
    throw new RangeError(
      `${where}: dv is set by the layer (valueHeadDim ${own}); got ${given.dv} as well — leave it out`,
    );
  }
  return given.dv ?? own ?? given.d;
}

class Relpos {
  #core;
  #memory; // the core's WebAssembly.Memory (heap-tensor.js: rp.alloc, views into the heap)
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
  constructor(core, simd, bounded = true, relaxed = false) {
    this.#core = core;
    this.#memory = memoryOf(core);
    this.#bounded = bounded;
    this.simd = simd;
    this.relaxed = relaxed;
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
    this.#unboundedView ??= new Relpos(this.#core, this.simd, false, this.relaxed);
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

  /**
   * Resolves once the models module (rp.presets, rp.fromConfig) is there, starting its loading;
   * load() waits for it unless given `models: false`.
   */
  get modelsReady() {
    return loadModels();
  }

  // The models module, or an Error naming `where` and how to wait for it (its loading starts).
  #modelsModule(where) {
    if (modelsState.module) return modelsState.module;
    loadModels().catch(() => {}); // the caller learns of a failed load from modelsReady or the next call
    throw new Error(
      `${where}: the models module (rp.presets, rp.fromConfig) is not loaded yet; await rp.modelsReady, or load() without models: false, before calling it`,
    );
  }

  /** Real-model presets (docs/presets.md): { id, name, scheme, params, heads, source, model }. */
  get presets() {
    this.#presets ??= deepFreeze(parseJson(unwrap(this.#modelsModule('relpos.presets').presetsJson())));
    return this.#presets;
  }

  /**
   * Reads a Hugging Face config.json (object or JSON text) into { scheme, params, heads, warnings }.
   * The core parses it as hostile input: depth, size, types and prototype keys are checked there.
   */
  fromConfig(configJson) {
    const where = 'relpos.fromConfig';
    const models = this.#modelsModule(where);
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
    return parseJson(unwrap(models.fromConfigJson(text)));
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
      if (view) return unwrap(this.#core.computeView(op, id, this.#given(op, rest), !this.#bounded));
      options = rest;
    }
    return unwrap(this.#core.compute(op, id, this.#given(op, options), !this.#bounded));
  }

  // The options of a call on a scheme as the core takes them (convert.js, heap-tensor.js).
  #given(op, options) {
    const where = `relpos.${op}`;
    return forCore(where, normaliseOptions(where, options), this.#core, this.#memory, false);
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
      const given = toTensor(where, input, value);
      // Leading extents of 1 dropped ([1, n, d] is [n, d]), as before axes.
      if (rest.axes === undefined && squeezeLeading(given.shape, 2).length <= 2) {
        const tensor = requireMatrix(where, input, given);
        return shape(this.#call(name, scheme, { ...rest, [input]: tensor }));
      }
      // Rows in other axes, or a batch of sequences: as one [rows, heads·d] call (rotate).
      const { axes, ...others } = rest;
      const call = rowsCall(where, input, given, axes, others);
      return call.restore(shape(this.#call(name, scheme, call.options)));
    };
  }

  /**
   * Attention with a positional term (docs/api.md). The weights come back in `out` (a Float32Array
   * of the right length) when given — with `weights: false`, `out` receives the output instead.
   */
  attention(options) {
    const where = 'relpos.attention';
    const { scheme, merged, view, out, shapes } = attentionOptions(where, options);
    const given = forCore(where, merged, this.#core, this.#memory);
    this.#core.releaseView();
    const result = view
      ? unwrap(this.#core.computeView('attention', scheme ?? '', given, !this.#bounded))
      : unwrap(this.#core.computeAttention(scheme ?? '', given, out ?? null, !this.#bounded));
    return attentionResult(result, shapes);
  }

  /**
   * A tensor in this instance's wasm heap for the caller to fill in place (docs/api.md, "rp.alloc"):
   * rp.attention reads it as q, k, v, B or P without copying it. `data` stays valid across memory
   * growth (a getter); free() returns the floats.
   */
  alloc(shape) {
    const where = 'relpos.alloc';
    if (!Array.isArray(shape) || shape.length < 1 || shape.length > 4) {
      throw new TypeError(
        `${where}: shape must be a list of 1 to 4 extents ([n, m] for a bias B), got ${Array.isArray(shape) ? `[${shape.join(', ')}]` : typeof shape}`,
      );
    }
    for (const extent of shape) {
      if (typeof extent !== 'number') throw new TypeError(`${where}: shape must hold numbers, got ${typeof extent}`);
      if (!Number.isInteger(extent) || extent < 1) {
        throw new RangeError(`${where}: shape must hold positive integers, got [${shape.join(', ')}]`);
      }
    }
    const count = shape.reduce((a, b) => a * b, 1);
    // The heap holds at most 2 GiB, so one tensor at most 2^28 floats (1 GiB).
    if (count > 2 ** 28) {
      throw new RangeError(
        `${where}: shape [${shape.join(', ')}] holds ${count} floats, over the 268435456 (1 GiB) one tensor may hold in the wasm heap`,
      );
    }
    const address = this.#core.heapTensorCreate(count);
    if (!address) {
      throw new RangeError(
        `${where}: out of memory for shape [${shape.join(', ')}] (the wasm heap holds at most 2 GiB, shared with the inputs and anything still held); use smaller sizes`,
      );
    }
    return new HeapTensor(this.#core, this.#memory, address, shape, count);
  }

  /**
   * A KV cache that stays in the wasm heap (docs/api.md, "rp.kvCache"): append(k, v) copies only the
   * new rows; attention(q, options) runs rp.attention over every cached key (positions 0 … length−1)
   * with the options of rp.attention. free() releases it.
   */
  kvCache(options) {
    const where = 'relpos.kvCache';
    requireOptionsObject(where, 'options', options);
    const { layer, ...given } = options;
    const known = ['heads', 'kvHeads', 'd', 'dv'];
    for (const name of Object.keys(given)) {
      if (!known.includes(name)) {
        throw new RangeError(`${where}: unknown option '${name}'; allowed: 'heads', 'kvHeads', 'd', 'dv', 'layer'`);
      }
    }
    if (layer !== undefined && !isPlainObject(layer)) {
      throw new TypeError(`${where}: layer must be a layer group object`);
    }
    const heads = given.heads ?? layer?.heads;
    const kvHeads = given.kvHeads ?? layer?.kvHeads ?? heads;
    const { d } = given;
    const dv = cacheValueWidth(where, given, layer);
    for (const [name, value] of Object.entries({ heads, kvHeads, d, dv })) {
      if (typeof value !== 'number') throw new TypeError(`${where}: ${name} must be a number, got ${typeof value}`);
      if (!Number.isInteger(value) || value < 1 || value > 65536) {
        throw new RangeError(`${where}: ${name} must be an integer in [1, 65536], got ${value}`);
      }
    }
    if (heads % kvHeads !== 0) {
      throw new RangeError(`${where}: kvHeads (${kvHeads}) must divide heads (${heads}), got ${heads}`);
    }
    const core = this.#core;
    const memory = this.#memory;
    const bounded = this.#bounded;
    const handle = core.kvCacheCreate(kvHeads * d, kvHeads * dv);
    let length = 0;
    let freed = false;
    const alive = (call) => {
      if (freed) throw new Error(`${where}.${call}: this cache was freed`);
    };
    return {
      get length() {
        return length;
      },
      append(k, v) {
        alive('append');
        const at = `${where}.append`;
        const keys = requireMatrix(at, 'k', toTensor(at, 'k', k), `[rows, kvHeads·d] = [rows, ${kvHeads * d}]`);
        const values = requireMatrix(at, 'v', toTensor(at, 'v', v), `[rows, kvHeads·dv] = [rows, ${kvHeads * dv}]`);
        if (keys.shape[1] !== kvHeads * d || values.shape[1] !== kvHeads * dv || keys.shape[0] !== values.shape[0]) {
          throw new RangeError(
            `${at}: k and v must be [rows, ${kvHeads * d}] and [rows, ${kvHeads * dv}] with the same rows, got [${keys.shape.join(', ')}] and [${values.shape.join(', ')}]`,
          );
        }
        length = unwrap(core.kvCacheAppend(handle, forCore(at, { k: keys, v: values }, core, memory, false)));
        return length;
      },
      attention(q, callOptions = {}) {
        alive('attention');
        const at = `${where}.attention`;
        requireOptionsObject(at, 'options', callOptions);
        for (const name of ['k', 'v', 'axes']) {
          if (callOptions[name] !== undefined) {
            throw new RangeError(`${at}: ${name} is the cache's own; give q and options`);
          }
        }
        if (length === 0) throw new RangeError(`${at}: the cache is empty; append keys and values first, got length 0`);
        const withShape = layer === undefined ? { heads, kvHeads, ...callOptions } : { layer, ...callOptions };
        const { scheme, merged, out, shapes } = attentionOptions(at, { ...withShape, q }, { m: length });
        if (merged.q.shape.length !== 2) {
          throw new TypeError(`${at}: q must be [n, heads·d] (one sequence), got [${merged.q.shape.join(', ')}]`);
        }
        const given = forCore(at, merged, core, memory);
        core.releaseView();
        return attentionResult(
          unwrap(core.kvCacheAttention(handle, scheme ?? '', given, out ?? null, !bounded)),
          shapes,
        );
      },
      free() {
        if (!freed) core.kvCacheFree(handle);
        freed = true;
      },
    };
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
    const { scheme, merged, view, out, shapes } = checked;
    if (view) throw new TypeError(`${where}: view is not available for a job (its result outlives the call)`);
    // rp.alloc tensors are this instance's, checked now; their values are read when the call is
    // made (a job copies them as it starts, a pool's workers are sent copies), so the caller may
    // free or refill them while it runs.
    const given = forCore(where, merged, this.#core, this.#memory);
    if (workers !== undefined) {
      // Copied now, before the first await: the values are the ones given at the call.
      const copied = { ...checked, merged: forCore(where, merged, this.#core, this.#memory, false) };
      const pool = await withPool(where, workers);
      return (await poolModule()).splitAttention(pool, copied, { onProgress, signal, where });
    }
    if (scheme !== undefined) given.scheme = scheme;
    const result = attentionResult(
      await runJob(this.#core, unwrap, 'attention', given, { onProgress, signal, where }),
      shapes,
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
    const given = forCore(where, merged, this.#core, this.#memory, false);
    if (workers !== undefined) {
      const pool = await withPool(where, workers);
      return (await poolModule()).splitMap(pool, given, { onProgress, signal, where });
    }
    const result = await runJob(this.#core, unwrap, 'attentionMap', given, { onProgress, signal, where });
    return result.data;
  }

  /** Runs a job of the core ('attentionMap') with progress and cancellation. */
  runJob(kind, options, control = {}) {
    if (control === null || typeof control !== 'object') {
      throw new TypeError('relpos.runJob: control must be an object { onProgress?, signal?, where? }');
    }
    const where = control.where ?? 'relpos.runJob';
    const given = isPlainObject(options) ? forCore(where, options, this.#core, this.#memory) : options;
    return runJob(this.#core, unwrap, kind, given, { where: 'relpos.runJob', ...control });
  }

  /** Bytes the allocators hold: the core's, plus the analysis and models modules' once loaded (for leak checks). */
  heapInUse() {
    const models = modelsState.module ? modelsState.module.heapInUse() : 0;
    return this.#core.heapInUse() + (this.#second ? this.#second.heapInUse() : 0) + models;
  }
}

// rp.rotate's x in `axes` ('bnd' [batch, n, heads·d], 'bhnd' [batch, heads, n, d], 'nhd'
// [n, heads, d]) as rows [batch·n, heads·d] with each sequence's positions ([n] or [batch, n],
// default 0 … n−1), and the result put back into the caller's axes.
function rowsCall(where, input, tensor, axes, options) {
  checkAxes(where, axes);
  const shape = tensor.shape;
  const heads = options.heads ?? 1;
  const read = axes ?? 'bnd';
  const rank = { bnd: [2, 3], bhnd: [4], nhd: [3] }[read];
  if (!rank.includes(shape.length)) {
    throw new TypeError(
      `${where}: ${input} must be ${read === 'bnd' ? '[n, heads·d] or [batch, n, heads·d]' : read === 'bhnd' ? '[batch, heads, n, d]' : '[n, heads, d]'} for axes: '${read}', got [${shape.join(', ')}]`,
    );
  }
  if (axes === undefined && shape.length === 3 && shape[1] === heads && shape[0] !== 1) {
    const [a, b, c] = shape;
    throw new TypeError(
      `${where}: ${input} [${shape.join(', ')}] reads two ways: as [batch, n, heads·d] (batch ${a}, n ${b}, d ${c / heads}) or as [n, heads, d] (n ${a}, heads ${b}, d ${c}); say which with axes: 'bnd' or 'nhd'`,
    );
  }
  if (read !== 'bnd') {
    const h = shape[1];
    if (options.heads !== undefined && options.heads !== h) {
      throw new RangeError(`${where}: ${input} has ${h} heads on its heads axis, but heads is ${options.heads}`);
    }
  }
  if (read === 'nhd') {
    const [n, h, d] = shape;
    return {
      options: { ...options, heads: h, [input]: { shape: [n, h * d], data: tensor.data } },
      restore: (t) => ({ ...t, shape: [n, h, d] }),
    };
  }
  const [batch, n, width, h] =
    read === 'bhnd'
      ? [shape[0], shape[2], shape[1] * shape[3], shape[1]]
      : shape.length === 2
        ? [1, shape[0], shape[1], heads]
        : [shape[0], shape[1], shape[2], heads];
  const data = read === 'bhnd' ? headsToRows(tensor.data, batch, h, n, width / h) : tensor.data;
  let positions = options.positions;
  if (positions !== undefined || batch > 1) {
    const given = positions === undefined ? undefined : toTensor(where, 'positions', positions);
    if (
      given &&
      !(given.shape.length === 1 && given.shape[0] === n) &&
      !(given.shape.length === 2 && given.shape[0] === batch && given.shape[1] === n)
    ) {
      throw new RangeError(
        `${where}: positions must have shape [n] = [${n}] or [batch, n] = [${batch}, ${n}] for a batch of sequences, got [${given.shape.join(', ')}]`,
      );
    }
    const flat = new Float64Array(batch * n);
    for (let b = 0; b < batch; b++) {
      for (let i = 0; i < n; i++) {
        flat[b * n + i] = given ? given.data[given.shape.length === 1 ? i : b * n + i] : i;
      }
    }
    positions = { shape: [batch * n], data: flat };
  }
  const rows = { shape: [batch * n, width], data };
  const restore = (t) => {
    if (read === 'bhnd') {
      return { ...t, shape: [batch, h, n, width / h], data: headsToRows(t.data, batch, h, n, width / h, false) };
    }
    return { ...t, shape: shape.slice() };
  };
  const heading = read === 'bhnd' ? { heads: h } : {};
  return { options: { ...options, ...heading, positions, [input]: rows }, restore };
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
