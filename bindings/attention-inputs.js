// What rp.attention reads beside its options (attention-options.js): q, k, v as matrices or batches
// in the caller's axes, and the attention mask. Apart from convert.js, which every call uses, so that a page whose first
// heatmap is a call on a scheme does not fetch them (extras.js).
import { isPlainObject, isTypedArray, toTensor } from './convert.js';
import { HeapTensor, isHeapTensor } from './heap-tensor.js';
import { checkAxes, toRows } from './axes.js';

// q, k, v of attention: a matrix, or with a leading batch dimension.
export function requireTensor(where, name, tensor, what) {
  if (!tensor || !Array.isArray(tensor.shape) || (tensor.shape.length !== 2 && tensor.shape.length !== 3)) {
    const got =
      tensor === undefined
        ? 'nothing'
        : Array.isArray(tensor?.shape)
          ? `shape [${tensor.shape.join(', ')}]`
          : typeof tensor;
    throw new TypeError(
      `${where}: ${name} must be a tensor of shape ${what}, got ${got} (with a batch: [batch, ${what.slice(1)})`,
    );
  }
}

// An attention mask, read as PyTorch's scaled_dot_product_attention reads one (docs/api.md, "Masks"):
// boolean data (nested booleans, a Uint8Array) keeps the key where true and must hold only 0 / 1;
// floating-point typed data (Float32Array, Float64Array) is added to the logits; plain numbers
// (nested lists, other integer arrays) could be either, so they need `kind`. `kind` ('boolean' |
// 'additive', or the option maskKind) always wins. Returns the tensor and its kind.
export function toMask(where, mask, maskKind) {
  let kind = maskKind;
  // An rp.alloc tensor: its floats (a Float32Array, so additive unless kind says otherwise).
  let value = isHeapTensor(mask) ? HeapTensor.copy(where, 'mask', mask) : mask;
  if (isPlainObject(mask) && 'kind' in mask) {
    ({ kind, ...value } = mask);
    if (maskKind !== undefined && maskKind !== kind) {
      throw new RangeError(`${where}: mask.kind ('${kind}') and maskKind ('${maskKind}') disagree`);
    }
  }
  if (kind !== undefined && kind !== 'boolean' && kind !== 'additive') {
    throw new RangeError(`${where}: mask.kind must be 'boolean' or 'additive', got ${JSON.stringify(kind)}`);
  }
  // { data, kind } with nested data and no shape: the data are the mask.
  if (isPlainObject(value) && 'data' in value && !('shape' in value)) value = value.data;
  const data = isPlainObject(value) && 'data' in value ? value.data : value;
  const numeric = (node) => (Array.isArray(node) ? node.map(numeric) : typeof node === 'boolean' ? Number(node) : node);
  if (Array.isArray(value)) value = numeric(value);
  else if (isPlainObject(value) && Array.isArray(value.data)) value = { ...value, data: numeric(value.data) };
  const tensor = toTensor(where, 'mask', value); // kinds and shapes first
  const poisoned = tensor.data.findIndex((x) => Number.isNaN(x) || x === Infinity);
  if (poisoned >= 0) {
    throw new RangeError(
      `${where}: mask must hold finite numbers or -Infinity, got ${tensor.data[poisoned]} at flat index ${poisoned}`,
    );
  }
  const found = maskDataKind(data);
  if (found === 'mixed') {
    throw new TypeError(`${where}: mask mixes booleans and numbers; give one kind of value`);
  }
  if (kind === undefined) {
    if (found === 'numbers') {
      throw new TypeError(
        `${where}: mask holds plain numbers, which read two ways: as a boolean mask (nonzero keeps the key, as Hugging Face's attention_mask of 1 / 0) or as an additive mask (0 keeps, -Infinity masks, as PyTorch's float masks); say which with mask: { shape, data, kind: 'boolean' | 'additive' } (or a Uint8Array / booleans for boolean, a Float32Array for additive)`,
      );
    }
    kind = found;
  } else if (kind === 'additive' && found === 'boolean') {
    throw new TypeError(
      `${where}: mask.kind is 'additive', but the mask holds booleans (or a Uint8Array): an additive mask holds 0 and -Infinity (or any logit offsets); use kind: 'boolean' to keep where true`,
    );
  }
  if (kind === 'boolean') {
    const bad = tensor.data.findIndex((x) => x !== 0 && x !== 1);
    if (bad >= 0) {
      throw new RangeError(
        `${where}: a boolean mask holds only 0 / 1 (false / true), got ${tensor.data[bad]} at flat index ${bad}; an additive mask (0 / -Infinity) needs kind: 'additive'`,
      );
    }
  }
  return { mask: tensor, maskKind: kind };
}

// 'boolean' (booleans, Uint8Array), 'additive' (Float32Array / Float64Array), 'numbers' (plain
// numbers or other integer arrays: ambiguous) or 'mixed', from the data's leaves.
function maskDataKind(data) {
  let kind;
  const meet = (k) => {
    kind = kind === undefined || kind === k ? k : 'mixed';
  };
  const walk = (node) => {
    if (node instanceof Uint8Array || node instanceof Uint8ClampedArray) meet('boolean');
    else if (node instanceof Float32Array || node instanceof Float64Array) meet('additive');
    else if (isTypedArray(node)) meet('numbers');
    else if (Array.isArray(node)) {
      for (const child of node) {
        walk(child);
        if (kind === 'mixed') return;
      }
    } else if (typeof node === 'boolean') meet('boolean');
    else meet('numbers');
  };
  walk(data);
  return kind ?? 'numbers';
}

// q, k, v in the caller's axes → the core's [batch?, n, heads·d]; heads (kvHeads) taken from the
// shape when it has a heads axis (k's gives kvHeads unless the caller did; v must agree with k).
// Returns how to put the output back.
export function readAttentionAxes(where, merged, axes) {
  checkAxes(where, axes);
  const shapes = { axes: axes ?? 'bnd' };
  const givenKv = merged.kvHeads;
  for (const name of ['q', 'k', 'v']) {
    const t = merged[name];
    if (!t || !Array.isArray(t.shape)) continue;
    if (axes === undefined) {
      const headsName = name === 'q' || merged.kvHeads === undefined ? 'heads' : 'kvHeads';
      toRows(where, name, t, undefined, { heads: merged[headsName] ?? 1, headsName });
      continue;
    }
    const declared = name === 'q' ? merged.heads : name === 'k' ? givenKv : (merged.kvHeads ?? merged.heads);
    const read = toRows(where, name, t, axes, { headsName: name === 'q' ? 'heads' : 'kvHeads', declared });
    merged[name] = read.tensor;
    if (read.heads === undefined) continue;
    if (name === 'q') merged.heads = shapes.heads = read.heads;
    else if (name === 'k' && read.heads !== merged.heads) merged.kvHeads = read.heads;
    if (read.batch !== undefined) shapes.batch = read.batch;
  }
  return shapes;
}
