// Normalises user options into what the Embind layer accepts: numbers, booleans, strings, string
// lists and tensors { shape, data: Float32Array }. Wrong kinds are TypeErrors naming the argument.
import { HeapTensor, isHeapTensor } from './heap-tensor.js';

// The typed arrays a tensor's numbers may come in (BigInt arrays hold no numbers).
const TYPED_ARRAYS = [
  Float32Array,
  Float64Array,
  Int32Array,
  Int16Array,
  Int8Array,
  Uint32Array,
  Uint16Array,
  Uint8Array,
  Uint8ClampedArray,
];

export function isTypedArray(value) {
  return TYPED_ARRAYS.some((T) => value instanceof T);
}

/** Freezes an object and everything it holds (the core's metadata is handed out read-only). */
export function deepFreeze(value) {
  if (value && typeof value === 'object') {
    Object.values(value).forEach(deepFreeze);
    Object.freeze(value);
  }
  return value;
}

export function isPlainObject(value) {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function product(shape) {
  return shape.reduce((a, b) => a * b, 1);
}

// What a value is, for "got …" in messages.
function kindOf(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (ArrayBuffer.isView(value)) return `a ${value.constructor.name}`;
  return typeof value;
}

// Numbers kept in float64 on their way to the core (the angle of a rotation is formed in float64:
// a float32 invFreq of 1/1.1 is off by 2.7e-3 rad at position 100,000; docs/rotary.md).
export const WIDE_OPTIONS = new Set([
  'invFreq',
  'shortFactor',
  'longFactor',
  'positions',
  'queryPositions',
  'keyPositions',
  'sinks',
  'temperatureTuning',
]);

// Nested lists, or lists of typed-array rows (at any depth), as one row-major tensor; the shape
// comes from the first entry at each depth and every other entry must match it.
function flattenNested(where, name, rows, wide = false) {
  const shape = [];
  let level = rows;
  for (; Array.isArray(level); level = level[0]) shape.push(level.length);
  if (isTypedArray(level)) shape.push(level.length);
  const out = allocate(where, name, product(shape), wide);
  let at = 0;
  const walk = (node, depth, path) => {
    if (depth === shape.length) {
      if (typeof node !== 'number') {
        throw new TypeError(`${where}: ${name}${path} must be a number, got ${kindOf(node)}`);
      }
      out[at++] = node;
      return;
    }
    const leaf = depth === shape.length - 1 && isTypedArray(node);
    if (!(Array.isArray(node) || leaf) || node.length !== shape[depth]) {
      const got = Array.isArray(node) || isTypedArray(node) ? `${node.length} entries` : kindOf(node);
      throw new RangeError(
        `${where}: ${name} is ragged; every row${path ? ` (at ${name}${path})` : ''} must have ${shape[depth]} entries, got ${got}`,
      );
    }
    if (leaf) {
      out.set(node, at);
      at += node.length;
      return;
    }
    node.forEach((child, i) => walk(child, depth + 1, `${path}[${i}]`));
  };
  walk(rows, 0, '');
  return { shape, data: out };
}

// A Float32Array (wide: Float64Array) of `count` values; running out of memory names the call and the argument.
function allocate(where, name, count, wide = false) {
  try {
    return wide ? new Float64Array(count) : new Float32Array(count);
  } catch (error) {
    throw new RangeError(`${where}: out of memory converting ${name} (${count} values)`, { cause: error });
  }
}

function toFloat32(where, name, values, wide = false) {
  if (values instanceof Float32Array || (wide && values instanceof Float64Array)) return values;
  const out = allocate(where, name, values.length, wide);
  for (let i = 0; i < values.length; i++) {
    const x = values[i];
    if (typeof x !== 'number') throw new TypeError(`${where}: ${name}[${i}] must be a number, got ${kindOf(x)}`);
    out[i] = x;
  }
  return out;
}

// FIRE's MLP list [{ w1, b1, w2, b2 }, ...] (one per head) → [heads, 3·hidden + 1].
function flattenMlp(where, list) {
  const hidden = list[0]?.w1?.length;
  if (!hidden) {
    throw new TypeError(`${where}: mlp must be a list of { w1, b1, w2, b2 } per head, got ${kindOf(list[0])} entries`);
  }
  const width = 3 * hidden + 1;
  const data = new Float32Array(list.length * width);
  list.forEach((head, h) => {
    if (!isPlainObject(head) || typeof head.b2 !== 'number') {
      throw new TypeError(
        `${where}: mlp[${h}] must be { w1, b1, w2, b2 } with b2 a number, got ${isPlainObject(head) ? `b2 ${kindOf(head.b2)}` : kindOf(head)}`,
      );
    }
    ['w1', 'b1', 'w2'].forEach((key, part) => {
      const values = head[key];
      if (!(Array.isArray(values) || isTypedArray(values)) || values.length !== hidden) {
        throw new RangeError(
          `${where}: mlp[${h}].${key} must hold ${hidden} numbers, got ${values?.length ?? kindOf(values)}`,
        );
      }
      data.set(Array.from(values, Number), h * width + part * hidden);
    });
    data[h * width + 3 * hidden] = head.b2;
  });
  return { shape: [list.length, width], data };
}

/**
 * A tensor argument in any form the types promise (index.d.ts TensorLike): a flat number list or
 * typed array, nested lists, a list of typed-array rows, or { shape, data }.
 */
export function toTensor(where, name, value, wide = WIDE_OPTIONS.has(name)) {
  // An rp.alloc tensor where it is not read in place: its values, copied out of the heap first (a
  // view into the heap would go empty if the copy into the core grew it).
  if (isHeapTensor(value)) value = HeapTensor.copy(where, name, value);
  if (isTypedArray(value)) return { shape: [value.length], data: toFloat32(where, name, value, wide) };
  if (Array.isArray(value)) {
    if (value.length > 0 && (Array.isArray(value[0]) || isTypedArray(value[0]))) {
      return flattenNested(where, name, value, wide);
    }
    return { shape: [value.length], data: toFloat32(where, name, value, wide) };
  }
  if (isPlainObject(value) && 'shape' in value && 'data' in value) {
    const { shape, data } = value;
    if (!Array.isArray(shape) || !shape.every((e) => Number.isInteger(e) && e >= 0)) {
      throw new TypeError(
        `${where}: ${name}.shape must be a list of non-negative integers, got ${JSON.stringify(shape)}`,
      );
    }
    if (!(Array.isArray(data) || isTypedArray(data))) {
      throw new TypeError(`${where}: ${name}.data must be a Float32Array or a list of numbers, got ${kindOf(data)}`);
    }
    if (data.length !== product(shape)) {
      throw new RangeError(
        `${where}: ${name} has ${data.length} values, but its shape [${shape.join(', ')}] needs ${product(shape)}`,
      );
    }
    return { shape: shape.slice(), data: toFloat32(where, `${name}.data`, data, wide) };
  }
  throw new TypeError(`${where}: ${name} must be a number array or a tensor { shape, data }, got ${kindOf(value)}`);
}

// Converts one options object. `undefined` entries are dropped, as if absent. rp.alloc tensors under
// the names in `inPlace` stay as they are (the call reads them in place; heap-tensor.js).
export function normaliseOptions(where, options, inPlace) {
  if (options === undefined) return {};
  requireOptionsObject(where, 'options', options);
  const out = {};
  for (const name of Object.keys(options)) {
    const value = options[name];
    if (value === undefined) continue;
    if (inPlace?.has(name) && isHeapTensor(value)) {
      out[name] = value;
    } else if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'string') {
      out[name] = value;
    } else if (Array.isArray(value) && value.length > 0 && value.every((x) => typeof x === 'string')) {
      out[name] = value.slice();
    } else if (name === 'mlp' && Array.isArray(value) && value.length > 0 && isPlainObject(value[0])) {
      out[name] = flattenMlp(where, value);
    } else if (value === null || typeof value !== 'object') {
      throw new TypeError(`${where}: ${name} must be a number, boolean, string or array, got ${kindOf(value)}`);
    } else {
      out[name] = toTensor(where, name, value);
    }
  }
  return out;
}

export function requireSchemeId(where, id, name = 'id') {
  if (typeof id !== 'string') throw new TypeError(`${where}: ${name} must be a scheme id string, got ${typeof id}`);
}

export function requireOptionsObject(where, name, value) {
  if (!isPlainObject(value)) {
    throw new TypeError(`${where}: ${name} must be a plain object, got ${kindOf(value)}`);
  }
}

// Leading extents of 1 beyond `rank` dropped: wherever a matrix is expected, the [1, n, n] a call
// returns for one head is that [n, n] matrix (the core reads its matrices the same way).
export function squeezeLeading(shape, rank) {
  let drop = 0;
  while (shape.length - drop > rank && shape[drop] === 1) drop++;
  return shape.slice(drop);
}

/**
 * A tensor of rank 2 ([1, …, 1, rows, cols] counts as one), returned with its matrix shape;
 * otherwise a TypeError showing the shape it got.
 */
export function requireMatrix(where, name, tensor, what = '[n, d]') {
  const shape = Array.isArray(tensor?.shape) ? squeezeLeading(tensor.shape, 2) : undefined;
  if (!shape || shape.length !== 2) {
    const got = tensor === undefined ? 'nothing' : shape ? `shape [${tensor.shape.join(', ')}]` : kindOf(tensor);
    throw new TypeError(`${where}: ${name} must be a tensor of shape ${what}, got ${got}`);
  }
  return { ...tensor, shape };
}
