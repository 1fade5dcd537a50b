// rp.alloc's tensors (docs/api.md, "rp.alloc"): floats in one instance's wasm heap that the caller
// fills in place and rp.attention reads where they are (q, k, v, B, P: the options the operation
// table marks inPlace), so an n × m bias the caller computes is never copied into the heap.
// Everywhere else such a tensor is read like any { shape, data } (its values copied, as always).

// The options of rp.attention that take an rp.alloc tensor in place; tests/node/attention-alloc.test.js
// checks that they are the ones rp.operations marks inPlace.
export const IN_PLACE = new Set(['q', 'k', 'v', 'B', 'P']);

export class HeapTensor {
  #core;
  #address;
  #count;
  #memory;
  #view;
  #freed = false;

  /** Made by rp.alloc: `address` (of the first float) as the core's heapTensorCreate returns it. */
  constructor(core, memory, address, shape, count) {
    this.#core = core;
    this.#memory = memory;
    this.#address = address;
    this.#count = count;
    this.#view = new Float32Array(memory.buffer, address, count);
    /** The extents, as given to rp.alloc (frozen). */
    this.shape = Object.freeze(shape.slice());
    Object.freeze(this);
  }

  /**
   * The floats, row-major: a Float32Array over the wasm heap. When the heap grows (any call may grow
   * it) the old view goes empty (its buffer is detached); this getter then returns a fresh view of
   * the same floats, so read `data` again after a call instead of keeping a view across calls.
   */
  get data() {
    if (this.#freed) throw new Error('relpos.alloc: this tensor was freed (free() was called)');
    if (this.#view.buffer !== this.#memory.buffer) {
      this.#view = new Float32Array(this.#memory.buffer, this.#address, this.#count);
    }
    return this.#view;
  }

  /** Whether free() was called. */
  get freed() {
    return this.#freed;
  }

  /** Returns the floats to the heap; the tensor refuses every later use. A second call does nothing. */
  free() {
    if (this.#freed) return;
    this.#freed = true;
    this.#core.heapTensorFree(this.#address);
  }

  /**
   * What a call of `core` hands the binding for this tensor as option `name` of `where`: a
   * reference it reads in place. A freed tensor, or one from another instance (whose heap this call
   * cannot read), is an Error naming the call and the argument.
   */
  static reference(where, name, tensor, core) {
    HeapTensor.#alive(where, name, tensor);
    if (tensor.#core !== core) {
      throw new TypeError(
        `${where}: ${name} is an rp.alloc tensor of another relpos instance (each has its own wasm heap); allocate it with this instance's alloc(), or give { shape: ${name}.shape, data: ${name}.data }`,
      );
    }
    return { shape: tensor.shape.slice(), heapTensor: tensor.#address };
  }

  /** The tensor as a plain { shape, data } of JS-owned floats (where a call copies its input anyway). */
  static copy(where, name, tensor) {
    HeapTensor.#alive(where, name, tensor);
    return { shape: tensor.shape.slice(), data: tensor.data.slice() };
  }

  static #alive(where, name, tensor) {
    if (tensor.#freed) throw new Error(`${where}: ${name} is an rp.alloc tensor that was freed`);
  }
}

/** Whether `value` is an rp.alloc tensor. */
export function isHeapTensor(value) {
  return value instanceof HeapTensor;
}

/**
 * The options of one call of `core` (whose memory is `memory`) as its binding takes them: every
 * rp.alloc tensor under a name of IN_PLACE as a reference the core reads where it is (with `lend`;
 * else its values, copied out), and any other tensor whose data is a view into that memory (an
 * rp.alloc tensor's data, a view: true result) copied out first — copying it into the core could
 * grow the heap, which empties the view. `options` is not changed.
 */
export function forCore(where, options, core, memory, lend = true) {
  let out = options;
  for (const [name, value] of Object.entries(options)) {
    let given;
    if (value instanceof HeapTensor) {
      given =
        lend && IN_PLACE.has(name)
          ? HeapTensor.reference(where, name, value, core)
          : HeapTensor.copy(where, name, value);
    } else if (ArrayBuffer.isView(value?.data) && value.data.buffer === memory.buffer) {
      given = { ...value, data: value.data.slice() };
    } else {
      continue;
    }
    if (out === options) out = { ...options };
    out[name] = given;
  }
  return out;
}

/**
 * A TypeError naming `where` and the option when `args` (a call's arguments, and the options
 * objects among them, nested `params` too) hold an rp.alloc tensor: for calls that go to another
 * instance (a worker), whose heap does not hold it.
 */
export function heapTensorIn(where, args) {
  const visit = (value, path) => {
    if (value instanceof HeapTensor) {
      return new TypeError(
        `${where}: ${path} is an rp.alloc tensor of another relpos instance (a worker has its own wasm heap); give { shape: ${path}.shape, data: ${path}.data } instead`,
      );
    }
    if (value === null || typeof value !== 'object' || ArrayBuffer.isView(value) || Array.isArray(value)) return null;
    for (const [name, inner] of Object.entries(value)) {
      const found = visit(inner, path ? `${path}.${name}` : name);
      if (found) return found;
    }
    return null;
  };
  for (const [index, arg] of args.entries()) {
    const found = visit(arg, arg instanceof HeapTensor ? `argument ${index + 1}` : '');
    if (found) return found;
  }
  return null;
}

/**
 * rp.alloc: a tensor of `shape` in the instance's wasm heap for the caller to fill in place
 * (docs/api.md, "rp.alloc"): rp.attention reads it as q, k, v, B or P without copying it.
 */
export function allocTensor(core, memory, shape) {
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
  const address = core.heapTensorCreate(count);
  if (!address) {
    throw new RangeError(
      `${where}: out of memory for shape [${shape.join(', ')}] (the wasm heap holds at most 2 GiB, shared with the inputs and anything still held); use smaller sizes`,
    );
  }
  return new HeapTensor(core, memory, address, shape, count);
}

/**
 * An `out` array over the wasm heap (an rp.alloc tensor's data, a view result) would be written by
 * the call while the call's own memory moves under it (the heap may grow and detach it): refused,
 * naming the call and the option, before anything is allocated.
 */
export function refuseHeapOut(where, out, memory) {
  if (out !== undefined && out !== null && out.buffer === memory.buffer) {
    throw new TypeError(
      `${where}: out views the wasm heap (an rp.alloc tensor's data or a view result); pass a Float32Array of your own`,
    );
  }
}
