// rp.kvCache (docs/api.md, "rp.kvCache"): keys and values that stay in the wasm heap between decode
// steps. append(k, v) copies only the new rows; attention(q, options) runs rp.attention's options
// over every cached key (positions 0 … length−1). The shape of the cache — heads, kvHeads, the head
// width d and the value width dv — is fixed when it is made: from the layer when one is given (a
// differing value is a RangeError, as rp.attention({ layer }) refuses one), else from the options.
import { isPlainObject, requireMatrix, requireOptionsObject, toTensor } from './convert.js';
import { attentionOptions, attentionResult } from './attention-options.js';
import { forCore, refuseHeapOut } from './heap-tensor.js';
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
    const step = (caches, rows, q, callOptions) => {
      const at = `${where}.attention`;
      const m = Math.max(...caches.map((c) => c.length));
      const call = stepCall(at, q, callOptions, { shape, stepShape, core, memory, m });
      const ids = caches.map((c) => handles.get(c)());
      return attentionResult(
        unwrap(core.kvCacheBatchAttention(ids, rows, call.scheme, call.coreOptions, !bounded)),
        call.shapes,
      );
    };
    return createBatchedKvCache(batch, shape, () => createKvCache({ ...given, layer }, deps), step);
  }
  const handle = core.kvCacheCreate(kvHeads, d, dv);
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
      const call = stepCall(at, q, callOptions, { shape, stepShape, core, memory, m: length });
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
