// rp.attention's options as the core reads them (docs/api.md, "Attention"): a layer group's
// settings, q / k / v in the caller's axes, masks broadcast as PyTorch's SDPA broadcasts them, and the result put back
// into the caller's axes with the core's notes. Shared by the instance (index.js) and the worker
// client's pool (worker-client.js), so a pooled call reads its inputs exactly as a one-thread call.
import {
  isPlainObject,
  isTypedArray,
  normaliseOptions,
  requireOptionsObject,
  requireSchemeId,
  toTensor,
} from './convert.js';
import { readAttentionAxes, requireTensor, toMask } from './attention-inputs.js';
import { IN_PLACE } from './heap-tensor.js';
import { withNotes } from './scheme-calls.js';
import { fromRows } from './axes.js';
import { LAYER_OPTIONS, SCHEME_PARAMS_NAMED_LIKE_OPTIONS } from './option-table.js';

// With axes 'bhnd' or 'nhd' q, k, v are rearranged in JS into the core's layout, so an rp.alloc
// tensor there is copied like any other; B and P are read in place whatever the axes.
const IN_PLACE_REARRANGED = new Set([...IN_PLACE].filter((name) => !['q', 'k', 'v'].includes(name)));

// attention's options: a layer's settings filled in, params merged in (params wins), `view` and
// `out` taken out, q / k / v read in their `axes`, the mask turned into a tensor plus maskKind.
// rp.alloc tensors stay as they are where they are read in place (heap-tensor.js).
// Returns what the call needs to put the output back into the caller's axes too.
// `cached`: the m keys live in a KV cache (rp.kvCache), not in the options.
export function attentionOptions(where, options, cached) {
  requireOptionsObject(where, 'options', options);
  const { layer, ...own } = options;
  const { scheme, params = {}, ...rest } = layer === undefined ? own : withLayer(where, layer, own);
  if (scheme !== undefined) requireSchemeId(where, scheme, 'scheme');
  requireOptionsObject(where, 'params', params);
  const { view = false, out, mask, maskKind, axes, temperatureTuning, ...given } = withParams(scheme, rest, params);
  if (typeof view !== 'boolean') throw new TypeError(`${where}: view must be a boolean, got ${typeof view}`);
  if (out !== undefined && !(out instanceof Float32Array)) {
    throw new TypeError(`${where}: out must be a Float32Array, got ${out?.constructor?.name ?? typeof out}`);
  }
  if (view && out !== undefined) throw new TypeError(`${where}: out and view exclude each other`);
  const inPlace = axes === undefined || axes === 'bnd' ? IN_PLACE : IN_PLACE_REARRANGED;
  const merged = normaliseOptions(where, given, inPlace);
  if (temperatureTuning !== undefined) merged.temperatureTuning = toTemperature(where, temperatureTuning);
  const shapes = readAttentionAxes(where, merged, axes);
  if (out !== undefined && shapes.axes === 'bhnd' && merged.weights === false) {
    throw new TypeError(`${where}: out receives the output in [batch, n, heads·dv]; with axes: 'bhnd' leave out out`);
  }
  for (const name of cached ? ['q'] : ['q', 'k']) {
    requireTensor(where, name, merged[name], name === 'q' ? '[n, heads*d]' : '[m, heads*d]');
  }
  if (merged.v) requireTensor(where, 'v', merged.v, '[m, heads*dv]');
  const m = cached ? cached.m : merged.k.shape[merged.k.shape.length - 2];
  if (mask !== undefined) {
    const read = keyPadding(where, toMask(where, mask, maskKind), merged, m);
    Object.assign(merged, { ...read, mask: sdpaBroadcast(read.mask, merged.q.shape) });
  } else if (maskKind !== undefined) merged.maskKind = maskKind; // the core says it needs a mask
  return { scheme, merged, view, out, shapes };
}

// The call's options with the scheme's parameters: params win over the same names, except a
// parameter the scheme names like an rp.attention option of another meaning (sin-freq's alpha beside
// mixed mode's alpha; option-table.js): there the option keeps its name and goes to the core as
// "call.<name>" (callValueKey in src/relpos/ops/operations.hpp), the parameter comes from params
// only. A pooled part read again (pool.js) already has its "call.<name>" and keeps it.
function withParams(scheme, rest, params) {
  const merged = { ...rest, ...params };
  for (const [name, ids] of Object.entries(SCHEME_PARAMS_NAMED_LIKE_OPTIONS)) {
    if (!ids.includes(scheme) || `call.${name}` in rest) continue;
    delete merged[name];
    if (rest[name] !== undefined) merged[`call.${name}`] = rest[name];
    if (params[name] !== undefined) merged[name] = params[name];
  }
  return merged;
}

// The settings a layer group (rp.fromConfig(…).groups, rp.presets[…].groups) runs with, under the
// caller's options; an option the caller gives that the layer sets differently is refused. The
// layer's valueHeadDim applies to a v only (the core refuses valueHeadDim without v).
function withLayer(where, layer, options) {
  if (!isPlainObject(layer) || typeof layer.scheme !== 'string' || !isPlainObject(layer.params)) {
    throw new TypeError(
      `${where}: layer must be a group of rp.fromConfig(…).groups or rp.presets[…].groups ({ scheme, params, heads, … }), got ${layer === null ? 'null' : typeof layer}`,
    );
  }
  const set = {};
  for (const name of LAYER_OPTIONS) if (layer[name] !== undefined) set[name] = layer[name];
  const conflict = (name, mine, given) => {
    if (JSON.stringify(mine) !== JSON.stringify(given)) {
      throw new RangeError(
        `${where}: ${name} is set by the layer (${JSON.stringify(mine)}); got ${JSON.stringify(given)} as well — leave it out, or pass the layer's fields yourself without layer`,
      );
    }
  };
  const { params = {}, ...rest } = options;
  requireOptionsObject(where, 'params', params);
  for (const [name, value] of Object.entries(rest)) if (name in set) conflict(name, set[name], value);
  // The caller's params add to the layer's (a learned table, for one); a name in both must agree.
  for (const [name, value] of Object.entries(params)) {
    if (name in set.params) conflict(`params.${name}`, set.params[name], value);
  }
  for (const need of layer.needs ?? []) {
    if (rest[need.option] === undefined && params[need.option] === undefined) {
      throw new RangeError(
        `${where}: this layer needs ${need.option} (${need.why}), which a config.json does not hold`,
      );
    }
  }
  const { valueHeadDim: _width, ...withoutWidth } = set;
  const applied = rest.v === undefined ? withoutWidth : set;
  return { ...applied, ...rest, params: { ...set.params, ...params } };
}

// temperatureTuning { floorScale, attnScale } as the core's two numbers [floorScale, attnScale]
// (which may also be given as they are), in float64.
function toTemperature(where, value) {
  if (Array.isArray(value) || isTypedArray(value)) return toTensor(where, 'temperatureTuning', value);
  const number = (x) => typeof x === 'number';
  if (!isPlainObject(value) || !number(value.floorScale) || !number(value.attnScale)) {
    throw new TypeError(
      `${where}: temperatureTuning must be { floorScale, attnScale } with numbers (Llama 4: { floorScale: 8192, attnScale: 0.1 }), got ${JSON.stringify(value)}`,
    );
  }
  for (const key of ['floorScale', 'attnScale']) {
    if (!Number.isFinite(value[key])) {
      throw new RangeError(`${where}: temperatureTuning.${key} must be finite, got ${value[key]}`);
    }
  }
  const extra = Object.keys(value).filter((key) => key !== 'floorScale' && key !== 'attnScale');
  if (extra.length) {
    throw new RangeError(`${where}: temperatureTuning has no field '${extra[0]}' (floorScale, attnScale)`);
  }
  return { shape: [2], data: Float64Array.of(value.floorScale, value.attnScale) };
}

// A key-padding mask: Hugging Face's attention_mask [batch, m] (1 = a real token) as the core's
// [batch, 1, 1, m], broadcast over heads and queries. With a batch equal to n the [n, m] reading
// would fit too; then the caller says which by the shape.
function keyPadding(where, { mask, maskKind }, merged, m) {
  const q = merged.q.shape;
  if (q.length !== 3 || mask.shape.length !== 2) return { mask, maskKind };
  const [batch, n] = q;
  if (mask.shape[0] !== batch || mask.shape[1] !== m) return { mask, maskKind };
  if (batch === n && batch > 1) {
    throw new TypeError(
      `${where}: mask [${mask.shape.join(', ')}] reads two ways when batch = n = ${n}: a key-padding mask [batch, m] (Hugging Face's attention_mask) or one [n, m] mask for every sequence; give it as [${batch}, 1, 1, ${m}] or [1, ${n}, ${m}] → [${batch}, 1, ${n}, ${m}]`,
    );
  }
  return { mask: { shape: [batch, 1, 1, m], data: mask.data }, maskKind };
}

// PyTorch's broadcast masks read as scaled_dot_product_attention broadcasts them against the
// weights [batch?, heads, n, m] (docs/attention.md, "Masks"): a leading extent of 1 on a 4-D mask
// is every sequence's ([1, h, n, m] → [h, n, m] when the queries are not one batch of 1), and a
// leading 1 on a 3-D one every head's ([1, n, m] → [n, m]); the core reads the rest.
function sdpaBroadcast(mask, qShape) {
  let shape = mask.shape;
  const batch = qShape.length === 3 ? qShape[0] : undefined;
  if (shape.length === 4 && shape[0] === 1 && batch !== 1) shape = shape.slice(1);
  if (shape.length === 3 && shape[0] === 1) shape = shape.slice(1);
  return shape === mask.shape ? mask : { shape, data: mask.data };
}

export function attentionResult(result, shapes) {
  const out = {};
  if (result.weights) out.weights = result.weights;
  if (result.output) out.output = toCallerAxes(result.output, shapes);
  return withNotes(out, result);
}

// The output [batch?, n, heads·dv] in the axes the caller's q came in.
function toCallerAxes(output, shapes) {
  return shapes ? fromRows(output, shapes.axes, shapes.heads) : output;
}
