// Normalises user options into what the Embind layer accepts: numbers, booleans, strings, string
// lists and tensors { shape, data: Float32Array }. Wrong kinds are TypeErrors naming the argument.

const TYPED_ARRAYS = [
  Float32Array,
  Float64Array,
  Int32Array,
  Int16Array,
  Int8Array,
  Uint32Array,
  Uint16Array,
  Uint8Array,
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

function flattenNested(where, name, rows) {
  const shape = [];
  for (let level = rows; Array.isArray(level); level = level[0]) shape.push(level.length);
  const out = new Float32Array(product(shape));
  let at = 0;
  const walk = (node, depth) => {
    if (depth === shape.length) {
      if (typeof node !== 'number') throw new TypeError(`${where}: ${name} must hold only numbers`);
      out[at++] = node;
      return;
    }
    if (!Array.isArray(node) || node.length !== shape[depth]) {
      throw new RangeError(`${where}: ${name} is ragged; every row must have ${shape[depth]} entries`);
    }
    for (const child of node) walk(child, depth + 1);
  };
  walk(rows, 0);
  return { shape, data: out };
}

// FIRE's MLP list [{ w1, b1, w2, b2 }, ...] (one per head) → [heads, 3·hidden + 1].
function flattenMlp(where, list) {
  const hidden = list[0]?.w1?.length;
  if (!hidden) throw new TypeError(`${where}: mlp must be a list of { w1, b1, w2, b2 } per head`);
  const width = 3 * hidden + 1;
  const data = new Float32Array(list.length * width);
  list.forEach((head, h) => {
    if (!isPlainObject(head) || typeof head.b2 !== 'number') {
      throw new TypeError(`${where}: mlp[${h}] must be { w1, b1, w2, b2 } with b2 a number`);
    }
    ['w1', 'b1', 'w2'].forEach((key, part) => {
      const values = head[key];
      if (!(Array.isArray(values) || isTypedArray(values)) || values.length !== hidden) {
        throw new RangeError(`${where}: mlp[${h}].${key} must hold ${hidden} numbers`);
      }
      data.set(Array.from(values, Number), h * width + part * hidden);
    });
    data[h * width + 3 * hidden] = head.b2;
  });
  return { shape: [list.length, width], data };
}

export function toTensor(where, name, value) {
  if (isTypedArray(value)) {
    return { shape: [value.length], data: value instanceof Float32Array ? value : Float32Array.from(value) };
  }
  if (Array.isArray(value)) {
    if (value.length > 0 && Array.isArray(value[0])) return flattenNested(where, name, value);
    if (!value.every((x) => typeof x === 'number')) throw new TypeError(`${where}: ${name} must hold only numbers`);
    return { shape: [value.length], data: Float32Array.from(value) };
  }
  if (isPlainObject(value) && 'shape' in value && 'data' in value) {
    const { shape, data } = value;
    if (!Array.isArray(shape) || !shape.every((e) => Number.isInteger(e) && e >= 0)) {
      throw new TypeError(`${where}: ${name}.shape must be a list of non-negative integers`);
    }
    if (!(Array.isArray(data) || isTypedArray(data))) {
      throw new TypeError(`${where}: ${name}.data must be a Float32Array or a list of numbers`);
    }
    if (data.length !== product(shape)) {
      throw new RangeError(
        `${where}: ${name} has ${data.length} values, but its shape [${shape.join(', ')}] needs ${product(shape)}`,
      );
    }
    return { shape: shape.slice(), data: data instanceof Float32Array ? data : Float32Array.from(data, Number) };
  }
  throw new TypeError(`${where}: ${name} must be a number array or a tensor { shape, data }`);
}

// Converts one options object. `undefined` entries are dropped, as if absent.
export function normaliseOptions(where, options) {
  if (options === undefined) return {};
  if (!isPlainObject(options)) throw new TypeError(`${where}: options must be a plain object`);
  const out = {};
  for (const name of Object.keys(options)) {
    const value = options[name];
    if (value === undefined) continue;
    if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'string') {
      out[name] = value;
    } else if (Array.isArray(value) && value.length > 0 && value.every((x) => typeof x === 'string')) {
      out[name] = value.slice();
    } else if (name === 'mlp' && Array.isArray(value) && value.length > 0 && isPlainObject(value[0])) {
      out[name] = flattenMlp(where, value);
    } else if (value === null || typeof value !== 'object') {
      throw new TypeError(
        `${where}: ${name} must be a number, boolean, string or array, got ${value === null ? 'null' : typeof value}`,
      );
    } else {
      out[name] = toTensor(where, name, value);
    }
  }
  return out;
}

export function requireSchemeId(where, id) {
  if (typeof id !== 'string') throw new TypeError(`${where}: id must be a scheme id string, got ${typeof id}`);
}

export function requireMatrix(where, name, tensor, what = '[n, d]') {
  if (!tensor || !Array.isArray(tensor.shape) || tensor.shape.length !== 2) {
    const got =
      tensor === undefined
        ? 'nothing'
        : Array.isArray(tensor?.shape)
          ? `shape [${tensor.shape.join(', ')}]`
          : typeof tensor;
    throw new TypeError(`${where}: ${name} must be a tensor of shape ${what}, got ${got}`);
  }
}
