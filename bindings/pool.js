// A pool of relpos workers (docs/workers.md): module workers — Web Workers in browsers, worker
// threads in Node — each with its own core instance, serving the protocol of worker.js. A long call
// with `workers: N | 'auto'` is cut into independent parts, one per worker, and put back together
// so that the result equals the one-thread result bit for bit:
//   attentionMap   map rows (mapRows [first, end)); each part's rows are copied into the whole map
//   attentionAsync query-row ranges the core plans by its work estimate (attentionCuts); each
//                  worker computes its rows of the whole call (queryRows), copied into place
//   lab.trainMany  every run is a job of its own, on the first free worker
// Progress is the share-weighted sum of the parts'; one AbortSignal cancels every part; a part that
// fails (a bad option, or a worker that dies) cancels the others and rejects the call with its
// error, and the dead worker's slot starts a fresh worker for the next job. Workers load the
// caller's build flavour (simd, baseline or relaxed); pools are kept by size and flavour (Pools).

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
  #retired = false; // end the workers whenever no call is left (Pools: another size took over)
  #closed = null; // terminate()'s message: calls after it reject with it

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
      if (this.#closed) {
        reject(new Error(this.#closed));
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
          this.#endIfIdle();
        });
    }
  }

  /** Ends the workers once no call is left to run (a later call starts fresh ones). */
  retire() {
    this.#retired = true;
    this.#endIfIdle();
  }

  #endIfIdle() {
    if (!this.#retired || this.#queue.length || this.#slots.some((slot) => slot.busy)) return;
    for (const slot of this.#slots) slot.connection?.end('relpos worker: retired');
  }

  /** Stops every worker: running calls reject, queued ones too, and later calls with them. */
  terminate(message = 'relpos worker: terminated') {
    this.#closed = message;
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

/**
 * rp.attentionMap over the pool. The core plans the split (its attentionMapCuts: map rows in ranges
 * of nearly equal work, weighted as attention's cuts are by the keys each row reads) and each worker
 * computes its range (mapRows), which is then copied into the whole map. A call the core cannot
 * plan goes to one worker whole, whose core then reports it as the one-thread call does.
 */
export async function splitMap(pool, options, control) {
  const plan = pool.size > 1 ? await pool.call('attentionMapCuts', [options, pool.size]).catch(() => []) : [];
  if (plan.length < 2) {
    const [whole] = await runParts(pool, [{ method: 'attentionMap', args: [options], share: 1 }], control);
    return whole;
  }
  const total = plan.reduce((sum, cut) => sum + cut.work, 0);
  const results = await runParts(
    pool,
    plan.map((cut) => ({
      method: 'attentionMap',
      args: [{ ...options, mapRows: [cut.first, cut.end] }],
      share: total > 0 ? cut.work / total : 1 / plan.length,
    })),
    control,
  );
  const whole = results[0];
  const side = whole.shape[1];
  for (const [t, { first, end }] of plan.entries()) {
    if (t > 0) whole.data.set(results[t].data.subarray(first * side, end * side), first * side);
  }
  return whole;
}

/**
 * rp.attentionAsync over the pool. The core plans the split (its attentionCuts: query rows in ranges
 * of nearly equal work, on its register tiles) and each worker computes its range of the whole call
 * from the whole inputs (the option queryRows), so which inputs are indexed by query row, and how,
 * stays the core's to know; every row is computed as in the one-thread call. `checked` is
 * attentionOptions' reading of the call (the tensors already converted and copied).
 */
export async function splitAttention(pool, { merged, scheme, out, shapes }, control) {
  const whole = workerOptions(merged, scheme);
  // A call the core cannot plan (shapes it cannot read) runs whole on one worker, whose core then
  // reports it as the one-thread call does.
  const plan = pool.size > 1 ? await pool.call('attentionCuts', [whole, pool.size]).catch(() => []) : [];
  const parts = plan.length > 1 ? plan : [null];
  const total = plan.reduce((sum, cut) => sum + cut.work, 0);
  const results = await runParts(
    pool,
    parts.map((cut) => ({
      method: 'attentionAsync',
      args: [cut ? { ...whole, queryRows: [cut.first, cut.end] } : whole],
      share: !cut ? 1 : total > 0 ? cut.work / total : 1 / parts.length,
    })),
    control,
  );
  const result = attentionResult(results.length === 1 ? results[0] : stitch(results), shapes);
  if (out) {
    const target = result.weights ?? result.output;
    if (out.length !== target.data.length) {
      throw new RangeError(
        `${control.where}: out must be a Float32Array of ${target.data.length} values, got ${out.length}`,
      );
    }
    out.set(target.data);
    target.data = out;
  }
  return result;
}

// The call as a worker reads it afresh (attention-options.js): q, k, v already in the core's
// [batch?, n, heads·d], the mask as { shape, data, kind }, the temperature as its two numbers.
function workerOptions(merged, scheme) {
  const options = { ...merged, axes: 'bnd' };
  if (options.mask) options.mask = { ...options.mask, kind: options.maskKind };
  delete options.maskKind;
  if (options.temperatureTuning) options.temperatureTuning = options.temperatureTuning.data;
  if (scheme !== undefined) options.scheme = scheme;
  return options;
}

// The parts' results as one. A range's result holds its query rows on the second-to-last axis of
// each tensor (weights [batch?, heads, rows, m], output [batch?, rows, heads·dv]:
// src/relpos/ops/attention.hpp, queryRowsParam), and the parts are the ranges in order.
function stitch(results) {
  const whole = {};
  for (const key of ['weights', 'output']) {
    if (!results[0][key]) continue;
    const parts = results.map((result) => result[key]);
    const shape = parts[0].shape.slice();
    const axis = shape.length - 2;
    shape[axis] = parts.reduce((sum, part) => sum + part.shape[axis], 0);
    const inner = shape[axis + 1];
    const outer = shape.slice(0, axis).reduce((x, y) => x * y, 1);
    const data = new Float32Array(outer * shape[axis] * inner);
    let row = 0;
    for (const part of parts) {
      const count = part.shape[axis];
      for (let o = 0; o < outer; o++) {
        data.set(part.data.subarray(o * count * inner, (o + 1) * count * inner), (o * shape[axis] + row) * inner);
      }
      row += count;
    }
    whole[key] = { shape, data };
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

/**
 * A Node worker thread in the shape Connection reads (onmessage, onerror, onexit, ref, unref);
 * `workerData` reaches worker-node.js (the build flavour its core loads).
 */
export function nodeWorker(Worker, url, workerData) {
  const thread = new Worker(url, workerData === undefined ? undefined : { workerData });
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

/**
 * The default spawn of workers whose core is the build `flavour` ('simd' | 'baseline' | 'relaxed':
 * the caller's, so that a pooled call computes what the caller's one-thread call computes): worker
 * threads of worker-node.js in Node, module Web Workers of worker.js (the flavour in its URL).
 */
export async function defaultSpawn(flavour) {
  if (isNode() && typeof globalThis.Worker !== 'function') {
    const name = 'node:worker_threads';
    const { Worker } = await import(/* @vite-ignore */ name);
    const url = new URL(NODE_WORKER_FILE, import.meta.url);
    return () => nodeWorker(Worker, url, { flavour });
  }
  const url = new URL(WORKER_FILE, import.meta.url);
  if (flavour !== undefined) url.searchParams.set('flavour', flavour);
  return () => new Worker(url, { type: 'module' });
}

/**
 * Pools by size for one spawn each (one per build flavour): a call gets the pool of its size; a
 * pool of another size is retired, ending its workers once it has no call left to run, so a call
 * is never failed by another call's size. terminate() ends every pool it made.
 */
export class Pools {
  #spawnOf;
  #pools = new Map(); // `${flavour} ${size}` → Promise<Pool>
  #all = new Set(); // every pool made and not terminated, retired ones too

  /** @param {(flavour: string | undefined) => (() => object) | Promise<() => object>} spawnOf */
  constructor(spawnOf) {
    this.#spawnOf = spawnOf;
  }

  /** The pool of `size` workers of build `flavour`, made on first use (same turn, same pool). */
  get(size, flavour) {
    const key = `${flavour} ${size}`;
    if (!this.#pools.has(key)) {
      for (const [other, pool] of this.#pools) {
        if (other.startsWith(`${flavour} `)) {
          this.#pools.delete(other);
          pool.then((p) => p.retire());
        }
      }
      const made = Promise.resolve(this.#spawnOf(flavour)).then((spawn) => {
        const pool = new Pool(spawn, size);
        this.#all.add(pool);
        return pool;
      });
      made.catch(() => this.#pools.delete(key)); // a failed spawn may be retried
      this.#pools.set(key, made);
    }
    return this.#pools.get(key);
  }

  /** Ends every pool made (running calls reject); pools being made end as they are made. */
  terminate(message) {
    for (const pool of this.#all) pool.terminate(message);
    for (const made of this.#pools.values()) {
      made.then(
        (pool) => pool.terminate(message),
        () => {},
      );
    }
    this.#all.clear();
    this.#pools.clear();
  }

  /** Workers alive in every pool (for tests and diagnostics). */
  get live() {
    return [...this.#all].reduce((sum, pool) => sum + pool.live, 0);
  }
}

const shared = new Pools(defaultSpawn);

/** The process's (or page's) pool of `size` workers of build `flavour`, made on first use. */
export function sharedPool(size, flavour) {
  return shared.get(size, flavour);
}

/** The shared pools (for tests and diagnostics: their live workers). */
export const sharedPools = shared;

/** Stops the workers of every shared pool (a later call with `workers` starts fresh ones). */
export function terminateShared() {
  shared.terminate();
}
