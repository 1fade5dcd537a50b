// rp.kvCache (docs/api.md, "rp.kvCache"): keys and values that stay in the wasm heap between decode
// steps. append(k, v) copies only the new rows; attention(q, options) runs rp.attention's options
// over every cached key (positions 0 … length−1). The shape of the cache — heads, kvHeads, the head
// width d and the value width dv — is fixed when it is made: from the layer when one is given (a
// differing value is a RangeError, as rp.attention({ layer }) refuses one), else from the options.
import { isPlainObject, normaliseOptions, requireMatrix, requireOptionsObject, toTensor } from './convert.js';
import { attentionOptions, attentionResult } from './attention-options.js';
import { IN_PLACE, forCore, refuseHeapOut } from './heap-tensor.js';
import { KV_CACHE_HELD, KV_CACHE_SHAPE } from './option-table.js';
import { createBatchedKvCache } from './kv-cache-batch.js';

const SHAPE_OPTIONS = ['heads', 'kvHeads', 'd', 'dv'];
// What the cache holds or fixes for every step (the core's option description, option-table.js): a
// step that names them is refused, at the top level or under params, rather than read one way here
// and another in the core. The cache's own name for each shape option:
const SHAPE_NAME = { heads: 'heads', kvHeads: 'kvHeads', valueHeadDim: 'dv' };

// The cache's sizes: each of heads, kvHeads, d, dv from the layer when it sets it (valueHeadDim for
// dv, headDim for d), else from the options; the same value given twice is fine, two values are not.
function cacheShape(where, given, layer) {
  const fromLayer = {
    heads: layer?.heads,
    kvHeads: layer?.kvHeads ?? layer?.heads,
    d: layer?.headDim,
    dv: layer?.valueHeadDim,
  };
  const layerName = { heads: 'heads', kvHeads: 'kvHeads', d: 'headDim', dv: 'valueHeadDim' };
  const shape = {};
  for (const name of SHAPE_OPTIONS) {
    const own = fromLayer[name];
    if (own !== undefined && given[name] !== undefined && given[name] !== own) {
      throw new RangeError(
        `${where}: ${name} is set by the layer (${layerName[name]} ${own}); got ${given[name]} as well — leave it out`,
      );
    }
    shape[name] = own ?? given[name];
  }
  shape.kvHeads ??= shape.heads;
  shape.dv ??= shape.d;
  for (const name of SHAPE_OPTIONS) {
    const value = shape[name];
    if (typeof value !== 'number') {
      const hint = name === 'd' && layer !== undefined ? ' (the head width of q and k; the layer does not set it)' : '';
      throw new TypeError(`${where}: ${name} must be a number${hint}, got ${typeof value}`);
    }
    if (!Number.isInteger(value) || value < 1 || value > 65536) {
      throw new RangeError(`${where}: ${name} must be an integer in [1, 65536], got ${value}`);
    }
  }
  if (shape.heads % shape.kvHeads !== 0) {
    throw new RangeError(`${where}: kvHeads (${shape.kvHeads}) must divide heads (${shape.heads}), got ${shape.heads}`);
  }
  return shape;
}

// A step's options may not name what the cache holds (k, v, axes) nor give its shape another value.
function checkStepOptions(where, options, shape) {
  const { params, ...top } = options;
  const levels = [['', top]];
  if (isPlainObject(params)) levels.push(['params.', params]);
  for (const [prefix, level] of levels) {
    for (const name of KV_CACHE_HELD) {
      if (level[name] !== undefined) {
        throw new RangeError(`${where}: ${prefix}${name} is the cache's own; give q and options`);
      }
    }
    for (const name of KV_CACHE_SHAPE) {
      const mine = SHAPE_NAME[name];
      if (level[name] !== undefined && level[name] !== shape[mine]) {
        throw new RangeError(
          `${where}: ${prefix}${name} is the cache's (${shape[mine]}); got ${level[name]} — leave it out`,
        );
      }
    }
  }
}

// A step's q and options as the core takes them: refused where they name what the cache holds, then
// read as rp.attention reads them (m: the cached length, 0 refused). q is [rows, heads·d].
function stepCall(at, q, callOptions, { shape, stepShape, core, memory, m }) {
  requireOptionsObject(at, 'options', callOptions);
  checkStepOptions(at, callOptions, shape);
  refuseHeapOut(at, callOptions.out, memory);
  if (m === 0) throw new RangeError(`${at}: the cache is empty; append keys and values first, got length 0`);
  const { heads: _h, kvHeads: _k, valueHeadDim: _v, ...rest } = callOptions;
  const { scheme, merged, out, shapes } = attentionOptions(at, { ...stepShape, ...rest, q }, { m });
  if (merged.q.shape.length !== 2) {
    throw new TypeError(`${at}: q must be [n, heads·d] (one sequence), got [${merged.q.shape.join(', ')}]`);
  }
  const { heads, d } = shape;
  if (merged.q.shape[1] !== heads * d) {
    throw new RangeError(
      `${at}: q must be [n, heads·d] = [n, ${heads * d}] (${heads} heads of d = ${d}), got [${merged.q.shape.join(', ')}]`,
    );
  }
  const coreOptions = forCore(at, merged, core, memory);
  core.releaseView();
  return { scheme: scheme ?? '', coreOptions, out: out ?? null, shapes };
}

// A decode loop gives every step the same options and new queries. stepCall's reading of the options
// is kept, with a copy of them, and reused while a step's options are the same settings: the same
// names, primitives equal (Object.is), lists of primitives equal element by element (copied, so a list
// changed in place counts as changed), params the same by the same rule, out the same array. Only q
// is read again, as stepCall reads it; q of another shape, a mask (read against the cached length),
// or any other value (a tensor, a typed array, an rp.alloc tensor) reads the whole step again. Reading
// them took about an eighth of a gpt-oss decode step (bench/decode.mjs's shape, 128 keys a step).
const isPrimitive = (value) => value === null || (typeof value !== 'object' && typeof value !== 'function');

// The copy settingsCopy keeps of `options`, or null when it holds a value it does not compare.
function settingsCopy(options, nested = false) {
  const copy = {};
  for (const name of Object.keys(options)) {
    const value = options[name];
    if (name === 'mask') {
      return null;
    } else if (isPrimitive(value)) {
      copy[name] = value;
    } else if (Array.isArray(value) && Array.from(value).every(isPrimitive)) {
      copy[name] = Array.from(value);
    } else if (!nested && name === 'out' && value instanceof Float32Array) {
      copy[name] = value;
    } else if (!nested && name === 'params' && isPlainObject(value)) {
      copy[name] = settingsCopy(value, true);
      if (copy[name] === null) return null;
    } else {
      return null;
    }
  }
  return copy;
}

function sameSettings(options, copy) {
  const names = Object.keys(options);
  if (names.length !== Object.keys(copy).length) return false;
  for (const name of names) {
    if (!Object.hasOwn(copy, name)) return false;
    const value = options[name];
    const kept = copy[name];
    if (Object.is(value, kept)) continue; // a primitive, or the same out (lists and params are copies)
    if (Array.isArray(kept)) {
      if (!Array.isArray(value) || value.length !== kept.length) return false;
      for (let i = 0; i < kept.length; i++) if (!Object.is(value[i], kept[i])) return false;
    } else if (name !== 'params' || !isPlainObject(value) || !isPlainObject(kept) || !sameSettings(value, kept)) {
      return false;
    }
  }
  return true;
}

const sameShape = (a, b) => Array.isArray(a) && a.length === b.length && a.every((e, i) => e === b[i]);

// A layer group the cache reads at every step can change between steps unless it is frozen
// (rp.presets' are; rp.fromConfig's are the caller's): only a frozen one lets a reading be kept.
function frozenThrough(value, seen = new Set()) {
  if (isPrimitive(value) || seen.has(value)) return true;
  seen.add(value);
  return Object.isFrozen(value) && Object.values(value).every((inner) => frozenThrough(inner, seen));
}

// stepCall for one cache (`context` as stepCall takes it, without m), with the last step's reading.
function stepReader(context) {
  const { core, memory, stepShape } = context;
  const keeps = stepShape.layer === undefined || frozenThrough(stepShape.layer);
  let last = null; // { settings, call }
  return (at, q, callOptions, m) => {
    if (last !== null && m > 0 && isPlainObject(callOptions) && sameSettings(callOptions, last.settings)) {
      const fresh = forCore(at, normaliseOptions(at, { q }, IN_PLACE), core, memory);
      if (sameShape(fresh.q?.shape, last.call.coreOptions.q.shape)) {
        core.releaseView();
        return { ...last.call, coreOptions: { ...last.call.coreOptions, q: fresh.q } };
      }
    }
    last = null;
    const call = stepCall(at, q, callOptions, { ...context, m });
    const settings = keeps ? settingsCopy(callOptions) : null;
    if (settings !== null) last = { settings, call };
    return call;
  };
}

// Each single cache's core handle, for the batched step (one core call for every sequence).
const handles = new WeakMap();

/**
 * Makes one cache on `core` (its Embind module) whose heap is `memory`; `bounded` keeps steps to the
 * synchronous work budget; `unwrap` throws the core's { error, kind } failures.
 */
export function createKvCache(options, deps) {
  const { core, memory, bounded, unwrap } = deps;
  const where = 'relpos.kvCache';
  requireOptionsObject(where, 'options', options);
  const { layer, batch, ...given } = options;
  for (const name of Object.keys(given)) {
    if (!SHAPE_OPTIONS.includes(name)) {
      throw new RangeError(
        `${where}: unknown option '${name}'; allowed: 'heads', 'kvHeads', 'd', 'dv', 'layer', 'batch'`,
      );
    }
  }
  if (layer !== undefined && !isPlainObject(layer)) {
    throw new TypeError(`${where}: layer must be a layer group object`);
  }
  const shape = cacheShape(where, given, layer);
  const { heads, kvHeads, d, dv } = shape;
  // Every step runs with the cache's shape: the layer's own, or the options' (dv as valueHeadDim).
  const stepShape = layer === undefined ? { heads, kvHeads, ...(dv !== d ? { valueHeadDim: dv } : {}) } : { layer };
  if (batch !== undefined) {
    // Sequences of their own (kv-cache-batch.js): each one this function's cache of the same shape,
    // and a step of several of them one core call (relpos::attentionBatch, src/relpos/ops/decode.hpp).
    const read = stepReader({ shape, stepShape, core, memory });
    const step = (caches, rows, q, callOptions) => {
      const at = `${where}.attention`;
      const m = Math.max(...caches.map((c) => c.length));
      const call = read(at, q, callOptions, m);
      const ids = caches.map((c) => handles.get(c)());
      return attentionResult(
        unwrap(core.kvCacheBatchAttention(ids, rows, call.scheme, call.coreOptions, !bounded)),
        call.shapes,
      );
    };
    return createBatchedKvCache(batch, shape, () => createKvCache({ ...given, layer }, deps), step);
  }
  const handle = core.kvCacheCreate(kvHeads, d, dv);
  const read = stepReader({ shape, stepShape, core, memory });
  let length = 0;
  let freed = false;
  const alive = (call) => {
    if (freed) throw new Error(`${where}.${call}: this cache was freed`);
  };
  const cache = {
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
      const call = read(at, q, callOptions, length);
      return attentionResult(
        unwrap(core.kvCacheAttention(handle, call.scheme, call.coreOptions, call.out, !bounded)),
        call.shapes,
      );
    },
    free() {
      if (!freed) core.kvCacheFree(handle);
      freed = true;
    },
  };
  handles.set(cache, () => {
    alive('attention');
    return handle;
  });
  return cache;
}
