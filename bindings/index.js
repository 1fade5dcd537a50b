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
import { deepFreeze, isPlainObject, normaliseOptions } from './convert.js';
import { allocTensor } from './heap-tensor.js';
import { createAnalysis } from './analysis.js';
import { runJob } from './jobs.js';
import { createLab } from './lab.js';
import { createKvCache } from './kv-cache.js';
import { parseJson, unwrap } from './errors.js';
import {
  SecondModule,
  compileFusedKernels,
  instantiate,
  loadModels,
  memoryOf,
  modelsModule,
  modelsState,
  readConfig,
  withFusedKernels,
} from './loading.js';
import { schemeCall } from './scheme-calls.js';
import { attention, attentionAsync, attentionMap, attentionMapCuts, runCoreJob } from './attention-calls.js';
import { attentionCuts, pooledTrain } from './pooled.js';

export { terminateWorkers } from './pooled.js';

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

class Relpos {
  #core;
  #memory; // the core's WebAssembly.Memory (heap-tensor.js: rp.alloc, views into the heap)
  #bounded;
  #ctx; // { core, memory, bounded, flavour }: what the calls of scheme-calls.js and attention-calls.js use
  #second; // the analysis module (loading.js)
  #unboundedView; // the instance unbounded() returns
  #schemes;
  #presets;
  #analysis;
  #lab;
  #operations;

  // `bounded`: synchronous calls keep to the core's work budget (docs/api.md, "Limits"); false for
  // the instance unbounded() returns.
  constructor(core, simd, bounded = true, relaxed = false, second = new SecondModule(simd)) {
    this.#core = core;
    this.#memory = memoryOf(core);
    this.#bounded = bounded;
    // flavour: the build a pool's workers load (pooled.js), so they compute what this instance does.
    this.#ctx = { core, memory: this.#memory, bounded, flavour: relaxed ? 'relaxed' : simd ? 'simd' : 'baseline' };
    this.#second = second;
    this.simd = simd;
    this.relaxed = relaxed;
    this.version = version;
    this.#operations = deepFreeze(parseJson(unwrap(core.operationsJson())));
    for (const op of this.#operations) {
      // attention and the jobs keep the methods below; every other call on a scheme comes from the table.
      if (op.name in this) continue;
      Object.defineProperty(this, op.name, { value: schemeCall(this.#ctx, op), writable: true, configurable: true });
    }
    this.#analysis = createAnalysis(
      (name, options) => {
        const where = `relpos.analysis.${name}`;
        return unwrap(second.module(where).analyze(name, normaliseOptions(where, options)));
      },
      {
        ready: () => second.load(),
        buildInfo: () => ({
          ...parseJson(unwrap(second.module('relpos.analysis.buildInfo').buildJson())),
          simd: this.simd,
        }),
      },
    );
    this.#lab = createLab({
      ready: () => second.load(),
      schema: () => parseJson(unwrap(second.module('relpos.lab.schema').labSchemaJson())),
      runJob: (kind, options, control) => runJob(second.module(control.where), unwrap, kind, options, control),
      pooled: (runs, workers, control) => pooledTrain(runs, workers, { ...control, flavour: this.#ctx.flavour }),
    });
  }

  /**
   * The same core without the work budget of synchronous calls, for where blocking is fine (Node
   * scripts, a worker); memory limits still hold.
   */
  unbounded() {
    if (!this.#bounded) return this;
    this.#unboundedView ??= new Relpos(this.#core, this.simd, false, this.relaxed, this.#second);
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

  /** Real-model presets (docs/presets.md): { id, name, scheme, params, heads, source, model }. */
  get presets() {
    this.#presets ??= deepFreeze(parseJson(unwrap(modelsModule('relpos.presets').presetsJson())));
    return this.#presets;
  }

  /**
   * Reads a Hugging Face config.json (object or JSON text) into { scheme, params, heads, warnings }.
   * The core parses it as hostile input: depth, size, types and prototype keys are checked there.
   */
  fromConfig(configJson) {
    return readConfig(configJson);
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

  /** Attention with a positional term (docs/api.md; attention-calls.js). */
  attention(options) {
    return attention(this.#ctx, options);
  }

  /** A tensor in this instance's wasm heap for the caller to fill in place (docs/api.md, "rp.alloc"). */
  alloc(shape) {
    return allocTensor(this.#core, this.#memory, shape);
  }

  /**
   * A KV cache that stays in the wasm heap (docs/api.md, "rp.kvCache"; bindings/kv-cache.js).
   */
  kvCache(options) {
    return createKvCache(options, { core: this.#core, memory: this.#memory, bounded: this.#bounded, unwrap });
  }

  /** rp.attention as a job (progress, AbortSignal) or over workers (attention-calls.js). */
  attentionAsync(options) {
    return attentionAsync(this.#ctx, options);
  }

  /** The pool's plan of an attention call: query-row ranges of nearly equal work (pooled.js). */
  attentionCuts(options, parts) {
    return attentionCuts(this.#ctx, options, parts);
  }

  /** A pooled [size, size] attention-weight map of a long sequence (attention-calls.js). */
  attentionMap(options) {
    return attentionMap(this.#ctx, options);
  }

  /** The pool's plan of a map: map-row ranges of nearly equal work (attention-calls.js). */
  attentionMapCuts(options, parts) {
    return attentionMapCuts(this.#ctx, options, parts);
  }

  /** Runs a job of the core ('attentionMap') with progress and cancellation. */
  runJob(kind, options, control = {}) {
    return runCoreJob(this.#ctx, kind, options, control);
  }

  /** Bytes the allocators hold: the core's, plus the analysis and models modules' once loaded (for leak checks). */
  heapInUse() {
    const models = modelsState.module ? modelsState.module.heapInUse() : 0;
    const second = this.#second.loaded;
    return this.#core.heapInUse() + (second ? second.heapInUse() : 0) + models;
  }
}
