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

const ERRORS = { TypeError, RangeError, Error };
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

const STOPPED =
  'relpos worker: the worker stopped (out of memory, or ended by the browser); pending calls failed, the next call starts a fresh worker';

/** One worker and the calls pending on it; when the worker dies, every pending call rejects. */
class Connection {
  pending = new Map();
  dead = false;

  constructor(worker) {
    this.worker = worker;
    this.worker.onmessage = ({ data }) => this.#receive(data);
    this.worker.onerror = (event) => {
      event.preventDefault();
      const what = event.message || 'the worker failed to start';
      this.end(`relpos worker: ${what}; pending calls failed, the next call starts a fresh worker`);
    };
    // The worker holds this lock while it lives: our request for it is granted once it is gone.
    if (globalThis.navigator?.locks) {
      this.worker.postMessage({ type: 'hello', lock: `relpos-worker-${crypto.randomUUID()}` });
    }
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
    this.pending.delete(data.id);
    entry.cleanup();
    if (data.type === 'result') entry.resolve(data.result);
    else entry.reject(new (ERRORS[data.error?.name] ?? Error)(data.error?.message ?? 'relpos worker failed'));
  }

  /** Posts a call; resolves with its result. */
  call(id, method, args, { onProgress, signal }) {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) {
        reject(Object.assign(new Error('relpos worker: aborted'), { name: 'AbortError' }));
        return;
      }
      const onAbort = () => this.worker.postMessage({ id, type: 'cancel' });
      signal?.addEventListener('abort', onAbort, { once: true });
      const cleanup = () => signal?.removeEventListener('abort', onAbort);
      this.pending.set(id, { resolve, reject, onProgress, cleanup });
      try {
        this.worker.postMessage({ id, type: 'call', method, args });
      } catch (error) {
        this.pending.delete(id);
        cleanup();
        reject(new TypeError(`relpos worker: ${method} arguments cannot be sent to a worker (${error.message})`));
      }
    });
  }
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
  let next = 0;
  const live = () => (connection && !connection.dead ? connection : (connection = new Connection(spawn())));

  function call(method, ...rawArgs) {
    const { args, onProgress, signal } = controlOf(rawArgs);
    return live().call(++next, method, args, { onProgress, signal });
  }

  const client = {
    call,
    /** Stops the worker: pending calls reject; a later call starts a fresh worker. */
    terminate: () => connection?.end('relpos worker: terminated'),
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
