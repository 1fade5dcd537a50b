// A pool of relpos workers (docs/workers.md): module workers — Web Workers in browsers, worker
// threads in Node — each with its own core instance, serving the protocol of worker.js. A long call
// with `workers: N | 'auto'` is cut into independent parts, one per worker, and put back together
// so that the result equals the one-thread result bit for bit:
//   attentionMap   map rows (mapRows [first, end)); each part's rows are copied into the whole map
//   attentionAsync blocks of query rows (q and every row-indexed input sliced, queryOffset moved);
//                  each block's weight and output rows are copied into place
//   lab.trainMany  every run is a job of its own, on the first free worker
// Progress is the share-weighted sum of the parts'; one AbortSignal cancels every part; a part that
// fails (a bad option, or a worker that dies) cancels the others and rejects the call with its
// error, and the dead worker's slot starts a fresh worker for the next job.

import { attentionResult } from './attention-options.js';
import { abortError, errorType } from './errors.js';


const STOPPED =
  'relpos worker: the worker stopped (out of memory, or ended by the browser); pending calls failed, the next call starts a fresh worker';


/** One worker and the calls pending on it; when the worker dies, every pending call rejects. */
export class Connection {
  pending = new Map();
  dead = false;

  /**
   * @param {{ onmessage, onerror, postMessage, terminate, ref?, unref?, onexit? }} worker a Web
   *   Worker, or a Node worker thread adapted to the same shape (nodeWorker below)
   */
  constructor(worker) {
    this.worker = worker;
    this.worker.onmessage = ({ data }) => this.#receive(data);
    this.worker.onerror = (event) => {
      event.preventDefault?.();
      const what = event.message || 'the worker failed to start';
      this.end(`relpos worker: ${what}; pending calls failed, the next call starts a fresh worker`);
    };
    // Node: a thread that exits (process.exit in it, a crash, terminate() from elsewhere) ends here.
    this.worker.onexit = (code) =>
      this.end(
        `relpos worker: the worker thread exited (code ${code}); pending calls failed, the next call starts a fresh worker`,
      );
    // The worker holds this lock while it lives: our request for it is granted once it is gone.
    if (worker.locks !== false && globalThis.navigator?.locks && globalThis.crypto?.randomUUID) {
      this.worker.postMessage({ type: 'hello', lock: `relpos-worker-${crypto.randomUUID()}` });
    }
    this.worker.unref?.();
  }

  /** Stops the worker; every pending call rejects with `message`. */
  end(message) {
    if (this.dead) return;
    this.dead = true;
    this.worker.terminate();
    for (const entry of this.pending.values()) {
      entry.cleanup();
      entry.reject(new Error(message));
    }
    this.pending.clear();
  }

  #receive(data) {
    if (data?.type === 'alive') {
      navigator.locks.request(data.lock, () => this.end(STOPPED));
      return;
    }
    if (data?.type === 'fatal') {
      this.end(`relpos worker: ${data.error?.message ?? 'the core failed'}`);
      return;
    }
    const entry = this.pending.get(data?.id);
    if (!entry) return;
    if (data.type === 'progress') {
      entry.onProgress?.(data.value, data.detail);
      return;
    }
    this.#settle(data.id);
    entry.cleanup();
    if (data.type === 'result') entry.resolve(data.result);
    else entry.reject(new (errorType(data.error?.name))(data.error?.message ?? 'relpos worker failed'));
  }

  #settle(id) {
    this.pending.delete(id);
    // An idle Node thread must not keep the process alive; a busy one must.
    if (this.pending.size === 0) this.worker.unref?.();
  }

  /** Posts a call; resolves with its result. */
  call(id, method, args, { onProgress, signal } = {}) {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) {
        reject(abortError('relpos worker'));
        return;
      }
      if (this.dead) {
        reject(new Error('relpos worker: the worker has stopped'));
        return;
      }
      const onAbort = () => this.worker.postMessage({ id, type: 'cancel' });
      signal?.addEventListener('abort', onAbort, { once: true });
      const cleanup = () => signal?.removeEventListener('abort', onAbort);
      this.pending.set(id, { resolve, reject, onProgress, cleanup });
      this.worker.ref?.();
      try {
        this.worker.postMessage({ id, type: 'call', method, args });
      } catch (error) {
        this.#settle(id);
        cleanup();
        reject(new TypeError(`relpos worker: ${method} arguments cannot be sent to a worker (${error.message})`));
      }
    });
  }
}

let nextId = 0;

/**
 * A fixed number of worker slots and a queue: each slot runs one call at a time (a job keeps its
 * worker's core busy; a second one there would only interleave with it), and a slot whose worker
 * died starts a fresh one for its next call.
 */
export class Pool {
  #spawn;
  #slots;
  #queue = [];

  /** @param {() => object} spawn makes one worker (see Connection) @param {number} size */
  constructor(spawn, size) {
    this.#spawn = spawn;
    this.#slots = Array.from({ length: size }, () => ({ connection: null, busy: false }));
  }

  get size() {
    return this.#slots.length;
  }

  /** Worker slots that currently hold a live worker (for tests and diagnostics). */
  get live() {
    return this.#slots.filter((slot) => slot.connection && !slot.connection.dead).length;
  }

  /**
   * Runs `method(...args)` on the first free worker. control: { onProgress, signal, control }, where
   * `control: true` marks the last argument as the options that receive onProgress / signal in the
   * worker (worker.js).
   */
  call(method, args, { onProgress, signal, control = false } = {}) {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) {
        reject(abortError('relpos worker'));
        return;
      }
      const job = { method, args, onProgress, signal, control, resolve, reject };
      job.onAbort = () => {
        const queued = this.#queue.indexOf(job);
        if (queued >= 0) {
          this.#queue.splice(queued, 1);
          reject(abortError('relpos worker'));
        }
      };
      signal?.addEventListener('abort', job.onAbort, { once: true });
      this.#queue.push(job);
      this.#dispatch();
    });
  }

  #dispatch() {
    for (const slot of this.#slots) {
      if (!this.#queue.length) return;
      if (slot.busy) continue;
      const job = this.#queue.shift();
      job.signal?.removeEventListener('abort', job.onAbort);
      slot.busy = true;
      if (!slot.connection || slot.connection.dead) slot.connection = new Connection(this.#spawn());
      let args = job.args;
      if (job.control) {
        const marks = job.onProgress ? { __relposControl: true } : { __relposControl: true, __relposProgress: false };
        args = [...args.slice(0, -1), { ...args.at(-1), ...marks }];
      }
      slot.connection
        .call(++nextId, job.method, args, { onProgress: job.onProgress, signal: job.signal })
        .then(job.resolve, job.reject)
        .finally(() => {
          slot.busy = false;
          this.#dispatch();
        });
    }
  }

  /** Stops every worker: running calls reject, queued ones too; later calls start fresh workers. */
  terminate(message = 'relpos worker: terminated') {
    for (const job of this.#queue.splice(0)) job.reject(new Error(message));
    for (const slot of this.#slots) slot.connection?.end(message);
  }

  /** Test hook: the raw worker of slot `index` (to kill it from outside), or null. */
  workerOf(index) {
    const connection = this.#slots[index]?.connection;
    return connection && !connection.dead ? connection.worker : null;
  }
}

/** The number of workers `workers` asks for: a whole number ≥ 1, or 'auto' (cores − 1, at least 1). */
export function poolSize(where, workers) {
  if (workers === 'auto') return autoWorkers();
  if (!Number.isInteger(workers) || workers < 1 || workers > 256) {
    throw new RangeError(
      `${where}: workers must be a whole number from 1 to 256 or 'auto', got ${typeof workers === 'number' ? workers : (JSON.stringify(workers) ?? typeof workers)}`,
    );
  }
  return workers;
}

/** Cores − 1, at least 1: the page's (or the process's) own thread keeps a core. */
export function autoWorkers() {
  const os = isNode() ? process.getBuiltinModule?.('node:os') : null;
  const cores = os?.availableParallelism?.() ?? globalThis.navigator?.hardwareConcurrency ?? 0;
  return Math.max(1, (Number.isInteger(cores) && cores > 0 ? cores : 2) - 1);
}

// ---- Splitting calls -------------------------------------------------------------------------

/** [first, end) cuts of `total` rows into at most `parts` nearly equal non-empty ranges. */
export function cuts(first, end, parts) {
  const count = Math.max(1, Math.min(parts, end - first));
  return Array.from({ length: count }, (_, t) => [
    first + Math.round((t * (end - first)) / count),
    first + Math.round(((t + 1) * (end - first)) / count),
  ]);
}

/**
 * Cuts units 0 … count − 1 into at most `parts` non-empty ranges of nearly equal total weight
 * (`weight(u)` ≥ 0, the work of unit u): a causal row sees more keys the later it sits, so equal
 * row counts would leave the first worker idle half the time.
 */
export function weightedCuts(count, parts, weight) {
  const prefix = [0];
  for (let u = 0; u < count; u++) prefix.push(prefix[u] + Math.max(0, weight(u)));
  const total = prefix[count];
  const wanted = Math.max(1, Math.min(parts, count));
  if (!(total > 0)) return cuts(0, count, wanted);
  const bounds = [0];
  for (let t = 1; t < wanted; t++) {
    const goal = (t * total) / wanted;
    let u = bounds.at(-1) + 1;
    while (u < count - (wanted - t) && prefix[u] < goal) u++;
    // The nearer of the two unit edges around the goal.
    if (u > bounds.at(-1) + 1 && goal - prefix[u - 1] < prefix[u] - goal) u--;
    bounds.push(u);
  }
  bounds.push(count);
  return bounds.slice(0, -1).map((a, t) => [a, bounds[t + 1]]);
}

/** The work of sequence rows [a, b) of a call with m keys: all m each, or up to the diagonal. */
function rowWork(a, b, m, causal, base) {
  if (!causal) return (b - a) * m;
  // Row i sees keys 0 … i + base (at most m): the sum of min(m, i + base + 1) over the rows.
  let sum = 0;
  for (let i = a; i < b; i++) sum += Math.max(0, Math.min(m, i + base + 1));
  return sum;
}

/**
 * Runs parts on the pool with one progress and one cancellation for them all: `parts` is a list of
 * { method, args, share } (shares sum to 1). Resolves with the results in order; the first failure
 * cancels every other part and rejects with that failure.
 */
export async function runParts(pool, parts, { onProgress, signal, where }) {
  if (onProgress !== undefined && typeof onProgress !== 'function') {
    throw new TypeError(`${where}: onProgress must be a function`);
  }
  if (signal !== undefined && (signal === null || typeof signal.aborted !== 'boolean')) {
    throw new TypeError(`${where}: signal must be an AbortSignal`);
  }
  if (signal?.aborted) throw abortError(where, signal);
  const inner = new AbortController();
  const onAbort = () => inner.abort();
  signal?.addEventListener('abort', onAbort, { once: true });
  const done = parts.map(() => 0);
  const report = () => onProgress?.(parts.reduce((sum, part, t) => sum + part.share * done[t], 0));
  try {
    return await Promise.all(
      parts.map((part, t) =>
        pool
          .call(part.method, part.args, {
            control: true,
            signal: inner.signal,
            // Only a caller that listens gets progress posted from the workers.
            onProgress:
              onProgress || part.onProgress
                ? (value, detail) => {
                    done[t] = value;
                    if (part.onProgress) part.onProgress(value, detail);
                    else report();
                  }
                : undefined,
          })
          .then((result) => {
            done[t] = 1;
            if (!part.onProgress) report();
            return result;
          })
          .catch((error) => {
            inner.abort(); // the other parts stop too
            throw error;
          }),
      ),
    );
  } catch (error) {
    if (signal?.aborted || error?.name === 'AbortError') throw abortError(where, signal);
    // The core's own messages already name their call (as the one-thread call's do); the pool's
    // (a worker that died) gain the name of the call that failed.
    const prefix = /^relpos\.[\w.]+: /.test(error.message) ? '' : `${where}: `;
    throw new (errorType(error.name))(`${prefix}${error.message}`, { cause: error });
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
}

const isCount = (value) => Number.isInteger(value) && value > 0;

/**
 * rp.attentionMap over the pool: the [size, size] map cut into row ranges (mapRows). Options the
 * split cannot read (no whole n, a bad size or mapRows) go to one worker whole, whose core then
 * reports them as the one-thread call does.
 */
export async function splitMap(pool, options, control) {
  const { n, size = 512 } = options;
  // normaliseOptions made a given mapRows a tensor.
  const mapRows = options.mapRows?.data ? Array.from(options.mapRows.data) : options.mapRows;
  const side = isCount(n) && isCount(size) ? Math.min(size, n) : 0;
  const [first, end] =
    mapRows === undefined ? [0, side] : Array.isArray(mapRows) && mapRows.length === 2 ? mapRows : [0, 0];
  const valid =
    side > 0 && Number.isInteger(first) && Number.isInteger(end) && 0 <= first && first < end && end <= side;
  if (!valid) {
    const [whole] = await runParts(pool, [{ method: 'attentionMap', args: [options], share: 1 }], control);
    return whole;
  }
  const ranges = cuts(first, end, pool.size);
  const results = await runParts(
    pool,
    ranges.map(([a, b]) => ({
      method: 'attentionMap',
      args: [{ ...options, mapRows: [a, b] }],
      share: (b - a) / (end - first),
    })),
    control,
  );
  const whole = results[0];
  for (const [t, [a, b]] of ranges.entries()) {
    if (t > 0) whole.data.set(results[t].data.subarray(a * side, b * side), a * side);
  }
  return whole;
}

const shapeOf = (tensor) => (tensor && Array.isArray(tensor.shape) ? tensor.shape : null);

/** The rows [a, b) along axis `axis` of a { shape, data } tensor (a copy, so it can be transferred). */
function sliceRows(tensor, axis, a, b) {
  const { shape, data } = tensor;
  const outer = shape.slice(0, axis).reduce((x, y) => x * y, 1);
  const inner = shape.slice(axis + 1).reduce((x, y) => x * y, 1);
  const rows = shape[axis];
  const out = new data.constructor(outer * (b - a) * inner);
  for (let o = 0; o < outer; o++) {
    out.set(data.subarray((o * rows + a) * inner, (o * rows + b) * inner), o * (b - a) * inner);
  }
  return { shape: [...shape.slice(0, axis), b - a, ...shape.slice(axis + 1)], data: out };
}

/** Writes the rows of `part` (rows [a, b) along `axis` of the whole) into `whole`. */
function placeRows(whole, part, axis, a) {
  const { shape } = whole;
  const outer = shape.slice(0, axis).reduce((x, y) => x * y, 1);
  const inner = shape.slice(axis + 1).reduce((x, y) => x * y, 1);
  const rows = shape[axis];
  const count = part.shape[axis];
  for (let o = 0; o < outer; o++) {
    whole.data.set(part.data.subarray(o * count * inner, (o + 1) * count * inner), (o * rows + a) * inner);
  }
}

/**
 * rp.attentionAsync over the pool: query rows in blocks, each block with its rows of q and of every
 * input indexed by the query (a mask or B of [n, m], [heads, n, m] or [batch, ·, n, m]; a pair
 * table P [n, m, d]) and queryOffset moved by the block's start, so every query keeps its position.
 * `checked` is attentionOptions' reading of the call (the tensors already converted).
 */
// Each worker has a heap of its own: the caller hands rp.alloc tensors over as copies (index.js,
// attentionAsync; relpos/worker refuses them).
export async function splitAttention(pool, { merged, scheme, out, shapes }, control) {
  const q = merged.q;
  const batched = q.shape.length === 3;
  const rowAxis = batched ? 1 : 0;
  const n = q.shape[rowAxis];
  const m = merged.k.shape[rowAxis];
  const base = merged.queryOffset ?? m - n;
  // Inputs indexed by query row, and the axis of that row (their shapes are checked by the core of
  // each worker; a shape that is not [.., n, m] goes whole and the core refuses it as the one-thread
  // call does).
  const rowInputs = [];
  for (const name of ['mask', 'B']) {
    const shape = shapeOf(merged[name]);
    if (shape && shape.length >= 2 && shape.at(-2) === n && shape.at(-1) === m) {
      rowInputs.push([name, shape.length - 2]);
    }
  }
  const pShape = shapeOf(merged.P);
  if (pShape && pShape.length === 3 && pShape[0] === n && pShape[1] === m) rowInputs.push(['P', 0]);
  // Per-query positions ([n] or [batch, n], Hugging Face's position_ids) go with their rows.
  const positionShape = shapeOf(merged.positions);
  if (positionShape && positionShape.at(-1) === n) rowInputs.push(['positions', positionShape.length - 1]);
  // The core computes query rows in blocks of rowsPerBlock(m) (src/relpos/ops/attention.cpp: a
  // block of weights within 256 KiB, whole register tiles of 4 rows), and a row's arithmetic
  // depends on the block it shares (the key range and logit tiles of its 4-row tile): parts are
  // whole blocks, so each worker runs exactly the blocks the one-thread call runs.
  const block = Math.floor(Math.min(256, Math.max(4, Math.floor(65536 / Math.max(m, 1)))) / 4) * 4;
  const blocks = Math.ceil(n / block);
  const causal = merged.causal === true;
  const work = (a, b) => rowWork(a, b, m, causal, base);
  const ranges =
    typeof base === 'number' && Number.isFinite(base)
      ? weightedCuts(blocks, pool.size, (u) => work(u * block, Math.min(n, (u + 1) * block))).map(([a, b]) => [
          a * block,
          Math.min(n, b * block),
        ])
      : [[0, n]];
  const total = ranges.reduce((sum, [a, b]) => sum + work(a, b), 0);
  const args = ranges.map(([a, b]) => {
    const part = { ...merged };
    if (ranges.length > 1) {
      Object.assign(part, { q: sliceRows(q, rowAxis, a, b), queryOffset: base + a });
      for (const [name, axis] of rowInputs) part[name] = sliceRows(merged[name], axis, a, b);
    }
    // The worker reads the options afresh (attention-options.js): q, k, v are already in the core's
    // [batch?, n, heads·d], the mask goes back as { shape, data, kind }, the temperature as its two
    // numbers.
    part.axes = 'bnd';
    if (part.mask) part.mask = { ...part.mask, kind: part.maskKind };
    delete part.maskKind;
    if (part.temperatureTuning) part.temperatureTuning = part.temperatureTuning.data;
    if (scheme !== undefined) part.scheme = scheme;
    return part;
  });
  const results = await runParts(
    pool,
    ranges.map(([a, b], t) => ({
      method: 'attentionAsync',
      args: [args[t]],
      share: total > 0 ? work(a, b) / total : 1 / ranges.length,
    })),
    control,
  );
  let whole = results.length === 1 ? results[0] : stitch(results, ranges, rowAxis, n);
  whole = attentionResult(whole, shapes);
  if (out) {
    const target = whole.weights ?? whole.output;
    if (out.length !== target.data.length) {
      throw new RangeError(
        `${control.where}: out must be a Float32Array of ${target.data.length} values, got ${out.length}`,
      );
    }
    out.set(target.data);
    target.data = out;
  }
  return whole;
}

// The parts' results as one: their query rows placed in order, with the first part's notes.
function stitch(results, ranges, rowAxis, n) {
  const whole = {};
  for (const key of ['weights', 'output']) {
    if (!results[0][key]) continue;
    const axis = key === 'weights' ? rowAxis + 1 : rowAxis; // [batch?, heads, n, m] or [batch?, n, heads·dv]
    const shape = results[0][key].shape.slice();
    shape[axis] = n;
    const tensor = { shape, data: new Float32Array(shape.reduce((x, y) => x * y, 1)) };
    for (const [t, [a]] of ranges.entries()) placeRows(tensor, results[t][key], axis, a);
    whole[key] = tensor;
  }
  for (const note of ['synthetic', 'sameForEveryHead', 'notes']) if (results[0][note]) whole[note] = results[0][note];
  return whole;
}

/**
 * rp.lab.trainMany over the pool: every run a job of its own. onProgress(fraction, { run, fraction,
 * detail }) reports each run's step (fraction over all runs).
 */
export function splitTrain(pool, runs, { onProgress, signal, where }) {
  const fractions = runs.map(() => 0);
  const total = () => fractions.reduce((x, y) => x + y, 0) / runs.length;
  return runParts(
    pool,
    runs.map((run, index) => ({
      method: 'lab.train',
      args: [run],
      share: 1 / runs.length,
      onProgress:
        onProgress &&
        ((value, detail) => {
          fractions[index] = value;
          onProgress(total(), { run: index, fraction: value, detail });
        }),
    })),
    { signal, where },
  );
}

// ---- Spawning --------------------------------------------------------------------------------

const isNode = () => typeof process === 'object' && typeof process.versions?.node === 'string';

/** A Node worker thread in the shape Connection reads (onmessage, onerror, onexit, ref, unref). */
export function nodeWorker(Worker, url) {
  const thread = new Worker(url);
  const adapted = {
    locks: false,
    thread,
    postMessage: (message, transfer) => thread.postMessage(message, transfer),
    terminate: () => thread.terminate(),
    ref: () => thread.ref(),
    unref: () => thread.unref(),
    set onmessage(fn) {
      thread.on('message', (data) => fn({ data }));
    },
    set onerror(fn) {
      thread.on('error', (error) => fn({ message: error?.message ?? String(error) }));
    },
    set onexit(fn) {
      thread.on('exit', (code) => fn(code));
    },
  };
  return adapted;
}

// Not written as new Worker(new URL('./worker.js', import.meta.url)) in one expression: bundlers
// would then bundle worker.js (which imports index.js, which imports this file) into itself. A
// bundled page hands its own worker URL to relpos/worker's createRelposWorker instead.
const WORKER_FILE = './worker.js';
const NODE_WORKER_FILE = './worker-node.js';

/** The default spawn: worker threads of worker-node.js in Node, module Web Workers of worker.js. */
export async function defaultSpawn() {
  if (isNode() && typeof globalThis.Worker !== 'function') {
    const name = 'node:worker_threads';
    const { Worker } = await import(/* @vite-ignore */ name);
    const url = new URL(NODE_WORKER_FILE, import.meta.url);
    return () => nodeWorker(Worker, url);
  }
  const url = new URL(WORKER_FILE, import.meta.url);
  return () => new Worker(url, { type: 'module' });
}

let shared = null;

/** The process's (or page's) pool of `size` workers, made on first use and remade for a new size. */
export async function sharedPool(size) {
  if (shared?.size === size) return shared;
  const spawn = await defaultSpawn();
  if (shared?.size !== size) {
    shared?.terminate('relpos worker: the pool was resized');
    shared = new Pool(spawn, size);
  }
  return shared;
}

/** Stops the shared pool's workers (a later call with `workers` starts fresh ones). */
export function terminateShared() {
  shared?.terminate();
  shared = null;
}
