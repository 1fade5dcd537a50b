// The instance load() resolves with (docs/api.md): the calls on schemes made from the core's
// operation table, and the calls of extras.js (rp.attention and its forms, rp.analysis, rp.lab,
// rp.kvCache). index.js's load() waits for the core and extras.js; loadCore() (for
// <relpos-heatmap> and the chapter's entry, web/components/element.js) waits for the core alone,
// so a page's first heatmap of a scheme call does not wait for code it does not run. Either way the
// instance is the same one per flavour.
import { exceptionsSupported, relaxedSimdSupported, simdSupported } from './simd.js';
import { deepFreeze, isPlainObject, normaliseOptions } from './convert.js';
import { allocTensor } from './heap-tensor.js';
import { parseJson, unwrap } from './errors.js';
import { onDemand } from './on-demand.js';
import {
  SecondModule,
  compileFusedKernels,
  instantiate,
  loadModels,
  memoryOf,
  modelsModule,
  modelsWasm,
  readConfig,
  withFusedKernels,
} from './loading.js';
import { schemeCall } from './scheme-calls.js';
import { pooledTrain } from './pooled.js';

export const version = '0.1.0';

const instances = new Map();
const LOAD_OPTIONS = ['simd', 'relaxed', 'models', 'analysis', 'lab'];

// The calls of extras.js: fetched once, by load().
const extrasModule = onDemand(() => import('./extras.js'));

/** Resolves once extras.js is here (load() waits for it; loadCore() does not). */
export function loadExtras() {
  return extrasModule.load();
}

// Only an instance reached through loadCore() before load() has resolved can get here.
function extras(where) {
  if (extrasModule.value) return extrasModule.value;
  throw new Error(`${where}: not loaded yet; await relpos.load() before calling it`);
}

/**
 * load()'s options checked (the same errors, thrown at once) and the core of that flavour asked for
 * (once per flavour; a failed load may be retried): { core, models, analysis, lab }, `core` the
 * promise of the instance. The models module is fetched while the core is, not after it.
 */
export function coreInstance(options) {
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
  if (models) loadModels().catch(() => {}); // a failure is reported through the promise below
  if (!instances.has(flavour)) {
    const compiled = relaxed ? compileFusedKernels() : null;
    compiled?.catch(() => {}); // its failure is handled below, once the core is there
    const created = instantiate('core', simd).then(async (core) => {
      const fused = relaxed ? await withFusedKernels(core, compiled).catch((error) => error) : false;
      if (fused instanceof Error) {
        if ('relaxed' in options) throw fused;
        return coreInstance({ ...options, relaxed: false }).core;
      }
      return new Relpos(core, simd, true, fused);
    });
    created.catch(() => instances.delete(flavour)); // a failed load may be retried
    instances.set(flavour, created);
  }
  return { core: instances.get(flavour), models, analysis, lab };
}

/**
 * Whether `rp[name]` works on an instance loadCore() gave before load() has resolved: the calls on
 * schemes, which the constructor makes from the core's operation table (own properties).
 */
export function schemeCallReady(rp, name) {
  return Object.hasOwn(rp, name);
}

/** The instance once the core of `options`' flavour is here (load()'s options; extras.js not awaited). */
export function loadCore(options = {}) {
  return coreInstance(options).core;
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
  }

  /** The analyses of chapter 2.1 (analysis.js), in the analysis module: `await rp.analysis.ready` first. */
  get analysis() {
    const second = this.#second;
    this.#analysis ??= extras('relpos.analysis').createAnalysis(
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
    return this.#analysis;
  }

  /**
   * The extrapolation lab: train a tiny attention model per scheme, test it on longer sequences
   * (lab.js). In the analysis module: train() loads it; schema, tasks, schemes and defaults need
   * `await rp.lab.ready` first.
   */
  get lab() {
    const second = this.#second;
    this.#lab ??= extras('relpos.lab').createLab({
      ready: () => second.load(),
      schema: () => parseJson(unwrap(second.module('relpos.lab.schema').labSchemaJson())),
      runJob: (kind, options, control) =>
        extras(control.where).runJob(second.module(control.where), unwrap, kind, options, control),
      pooled: (runs, workers, control) => pooledTrain(runs, workers, { ...control, flavour: this.#ctx.flavour }),
    });
    return this.#lab;
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

  /** Attention with a positional term (docs/api.md; attention-calls.js). */
  attention(options) {
    return extras('relpos.attention').attention(this.#ctx, options);
  }

  /** A tensor in this instance's wasm heap for the caller to fill in place (docs/api.md, "rp.alloc"). */
  alloc(shape) {
    return allocTensor(this.#core, this.#memory, shape);
  }

  /**
   * A KV cache that stays in the wasm heap (docs/api.md, "rp.kvCache"; bindings/kv-cache.js).
   */
  kvCache(options) {
    return extras('relpos.kvCache').createKvCache(options, {
      core: this.#core,
      memory: this.#memory,
      bounded: this.#bounded,
      unwrap,
    });
  }

  /** rp.attention as a job (progress, AbortSignal) or over workers (attention-calls.js). */
  attentionAsync(options) {
    return extras('relpos.attentionAsync').attentionAsync(this.#ctx, options);
  }

  /** The pool's plan of an attention call: query-row ranges of nearly equal work (pooled.js). */
  attentionCuts(options, parts) {
    return extras('relpos.attentionCuts').attentionCuts(this.#ctx, options, parts);
  }

  /** A pooled [size, size] attention-weight map of a long sequence (attention-calls.js). */
  attentionMap(options) {
    return extras('relpos.attentionMap').attentionMap(this.#ctx, options);
  }

  /** The pool's plan of a map: map-row ranges of nearly equal work (attention-calls.js). */
  attentionMapCuts(options, parts) {
    return extras('relpos.attentionMapCuts').attentionMapCuts(this.#ctx, options, parts);
  }

  /** Runs a job of the core ('attentionMap') with progress and cancellation. */
  runJob(kind, options, control = {}) {
    return extras('relpos.runJob').runCoreJob(this.#ctx, kind, options, control);
  }

  /** Bytes the allocators hold: the core's, plus the analysis and models modules' once loaded (for leak checks). */
  heapInUse() {
    const modelsHeap = modelsWasm.value ? modelsWasm.value.heapInUse() : 0;
    const second = this.#second.loaded;
    return this.#core.heapInUse() + (second ? second.heapInUse() : 0) + modelsHeap;
  }
}
