// The page side of the relpos Web Worker: the same API as `load()`'s instance, promise-based, so a
// page never blocks. Progress arrives through `onProgress`, cancellation through `signal`, and
// results are transferred from the worker, not copied.
//
//   const rp = createRelposWorker();
//   const map = await rp.attentionMap({ n: 1 << 20, scheme: 'alibi', onProgress: (p) => bar.value = p });
//   const svd = await rp.analysis.svd(matrix);
//   rp.terminate();
//
// A worker that dies — out of memory, a trap in the core, an uncaught error, or stopped by the
// browser without a word (seen through a Web Lock the worker holds while it lives) — rejects every
// pending call with an Error saying so, and the next call starts a fresh worker.

import { attentionOptions } from './attention-options.js';
import { heapTensorIn } from './heap-tensor.js';
import { NOT_THROUGH_WORKER } from './option-table.js';
import { Connection, Pools, poolSize, splitAttention, splitMap, splitTrain } from './pool.js';

const PROPERTIES = ['version', 'simd', 'schemes', 'presets', 'operations'];
// Names a caller probes on any object (await, JSON.stringify) that must not become worker calls.
const NOT_METHODS = new Set(['then', 'toJSON']);

/** Splits { onProgress, signal } off the last argument (they stay on the page). */
function controlOf(args) {
  const last = args.at(-1);
  const isOptions = last && typeof last === 'object' && !Array.isArray(last) && !ArrayBuffer.isView(last);
  if (!isOptions || !('onProgress' in last || 'signal' in last)) return { args };
  const { onProgress, signal, ...rest } = last;
  return { args: [...args.slice(0, -1), { ...rest, __relposControl: true }], onProgress, signal };
}

// The calls a pool of workers splits (pool.js), with how each reads its arguments.
const SPLIT = {
  attentionMap: (pool, [options = {}, control = {}]) => {
    const { workers: _workers, onProgress, signal, ...rest } = { ...options, ...control };
    return splitMap(pool, rest, { onProgress, signal, where: 'relpos.attentionMap' });
  },
  attentionAsync: (pool, [options = {}, control = {}]) => {
    const where = 'relpos.attentionAsync';
    const { workers: _workers, onProgress, signal, ...rest } = { ...options, ...control };
    const checked = attentionOptions(where, rest);
    if (checked.view) throw new TypeError(`${where}: view is not available for a job (its result outlives the call)`);
    return splitAttention(pool, checked, { onProgress, signal, where });
  },
  'lab.trainMany': (pool, [runs, options = {}]) => {
    const { workers: _workers, onProgress, signal, ...rest } = options;
    const where = 'relpos.lab.trainMany';
    const unknown = Object.keys(rest);
    if (unknown.length) {
      throw new RangeError(`${where}: unknown option '${unknown[0]}'; allowed: 'workers', 'onProgress', 'signal'`);
    }
    if (!Array.isArray(runs) || runs.length === 0) {
      throw new TypeError(`${where}: runs must be a non-empty array of train() options`);
    }
    return splitTrain(pool, runs, { onProgress, signal, where });
  },
};

// An rp.attention option the worker cannot carry (option-table.js: the page's own `out` would stay
// unfilled — the worker fills a copy — and `view` would view the worker's heap): an error naming it.
function notCarried(method, options) {
  if (method !== 'attention' && method !== 'attentionAsync') return null;
  if (options === null || typeof options !== 'object') return null;
  const name = NOT_THROUGH_WORKER.find((n) => options[n] !== undefined);
  if (name === undefined) return null;
  return new TypeError(
    `relpos.${method}: ${name} is not available through relpos/worker (${name === 'out' ? 'the worker would fill a copy, not your array' : "views would be into the worker's heap"}); leave it out and read the result's data`,
  );
}

/** The `workers` a split call asks for, or undefined (then the call goes to the one worker). */
function workersOf(method, args) {
  if (!(method in SPLIT)) return undefined;
  const options = method === 'lab.trainMany' ? args[1] : { ...args[0], ...args[1] };
  return options && typeof options === 'object' ? options.workers : undefined;
}

/**
 * @param {URL | string} [url] the worker script (default: worker.js beside this file)
 */
export function createRelposWorker(url) {
  // `new Worker(new URL(…, import.meta.url))` in one expression is the form bundlers (Vite, webpack)
  // recognise and bundle as a worker; a URL made elsewhere would be copied (or inlined) as a plain asset.
  const spawn =
    url === undefined
      ? () => new Worker(new URL('./worker.js', import.meta.url), { type: 'module' })
      : () => new Worker(url, { type: 'module' });
  let connection = null;
  // The workers of calls with `workers`, a pool per count asked for (another count retires a pool
  // once its calls are done); the client's workers all load the default build.
  const pools = new Pools(() => spawn);
  let pool = null; // the pool of the latest such call
  let next = 0;
  const live = () => (connection && !connection.dead ? connection : (connection = new Connection(spawn())));

  async function split(method, rawArgs, workers) {
    pool = await pools.get(poolSize(`relpos.${method}`, workers));
    return SPLIT[method](pool, rawArgs);
  }

  function call(method, ...rawArgs) {
    // The worker's instance cannot read the page's heap (and an rp.alloc tensor does not survive
    // postMessage): refused here, naming the option. Its own tensors the page could not write.
    if (method === 'alloc') {
      return Promise.reject(
        new TypeError(
          "relpos.alloc: not available through relpos/worker (the tensor would live in the worker's wasm heap, which the page cannot write); use load() in the thread that fills it",
        ),
      );
    }
    const foreign = heapTensorIn(`relpos.${method}`, rawArgs) ?? notCarried(method, rawArgs[0]);
    if (foreign) return Promise.reject(foreign);
    const workers = workersOf(method, rawArgs);
    if (workers !== undefined) {
      try {
        return split(method, rawArgs, workers);
      } catch (error) {
        return Promise.reject(error);
      }
    }
    const { args, onProgress, signal } = controlOf(rawArgs);
    return live().call(++next, method, args, { onProgress, signal });
  }

  const client = {
    call,
    /** Refused: its tensors would live in the worker's heap, which the page cannot fill. */
    alloc: (...args) => call('alloc', ...args),
    /** The pool of the latest call with `workers` (null before the first): its size, live workers, workerOf(i). */
    get pool() {
      return pool;
    },
    /** Stops the worker and every pool's: pending calls reject; a later call starts fresh workers. */
    terminate: () => {
      connection?.end('relpos worker: terminated');
      pools.terminate();
      pool = null;
    },
  };
  for (const property of PROPERTIES) {
    Object.defineProperty(client, property, { get: () => call(property), enumerable: true });
  }
  for (const namespace of ['analysis', 'lab']) {
    client[namespace] = new Proxy(
      {},
      {
        get:
          (_, name) =>
          (...args) =>
            call(`${namespace}.${String(name)}`, ...args),
      },
    );
  }
  // Every other name is a method of the worker's instance (rp.bias, rp.attentionMap, …; the calls on
  // schemes are those of the core's operation table), called by name.
  return new Proxy(client, {
    get: (target, name) =>
      name in target || typeof name !== 'string' || NOT_METHODS.has(name)
        ? target[name]
        : (...args) => call(name, ...args),
  });
}
