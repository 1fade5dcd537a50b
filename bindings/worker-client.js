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
const METHODS = [
  'encoding',
  'bias',
  'buckets',
  'frequencies',
  'rotate',
  'scores',
  'attention',
  'attentionMap',
  'fromConfig',
];
const PROPERTIES = ['version', 'simd', 'schemes', 'presets'];

/** Splits { onProgress, signal } off the last argument (they stay on the page). */
function controlOf(args) {
  const last = args.at(-1);
  const isOptions = last && typeof last === 'object' && !Array.isArray(last) && !ArrayBuffer.isView(last);
  if (!isOptions || !('onProgress' in last || 'signal' in last)) return { args };
  const { onProgress, signal, ...rest } = last;
  return { args: [...args.slice(0, -1), { ...rest, __relposControl: true }], onProgress, signal };
}

/**
 * @param {URL | string} [url] the worker script (default: worker.js beside this file)
 */
export function createRelposWorker(url = new URL('./worker.js', import.meta.url)) {
  let current = null; // { worker, pending, dead } of the live worker
  let next = 0;

  /** Ends a worker: every pending call rejects with `message`; the next call starts a fresh one. */
  function retire(state, message) {
    if (state.dead) return;
    state.dead = true;
    state.worker.terminate();
    if (current === state) current = null;
    for (const entry of state.pending.values()) {
      entry.cleanup();
      entry.reject(new Error(message));
    }
    state.pending.clear();
  }

  function receive(state, data) {
    if (data?.type === 'alive') {
      // Granted only once the worker no longer holds it: the worker is gone.
      navigator.locks.request(data.lock, () =>
        retire(
          state,
          'relpos worker: the worker stopped (out of memory, or ended by the browser); pending calls failed, the next call starts a fresh worker',
        ),
      );
      return;
    }
    if (data?.type === 'fatal') {
      retire(state, `relpos worker: ${data.error?.message ?? 'the core failed'}`);
      return;
    }
    const entry = state.pending.get(data?.id);
    if (!entry) return;
    if (data.type === 'progress') {
      entry.onProgress?.(data.value, data.detail);
      return;
    }
    state.pending.delete(data.id);
    entry.cleanup();
    if (data.type === 'result') entry.resolve(data.result);
    else entry.reject(new (ERRORS[data.error?.name] ?? Error)(data.error?.message ?? 'relpos worker failed'));
  }

  function start() {
    const worker = new Worker(url, { type: 'module' });
    const state = { worker, pending: new Map(), dead: false };
    worker.onmessage = ({ data }) => receive(state, data);
    worker.onerror = (event) => {
      event.preventDefault();
      retire(
        state,
        `relpos worker: ${event.message || 'the worker failed to start'}; pending calls failed, the next call starts a fresh worker`,
      );
    };
    if (globalThis.navigator?.locks) {
      worker.postMessage({ type: 'hello', lock: `relpos-worker-${crypto.randomUUID()}` });
    }
    return state;
  }

  function call(method, ...rawArgs) {
    const { args, onProgress, signal } = controlOf(rawArgs);
    const state = (current ??= start());
    const id = ++next;
    return new Promise((resolve, reject) => {
      if (signal?.aborted) {
        reject(Object.assign(new Error('relpos worker: aborted'), { name: 'AbortError' }));
        return;
      }
      const onAbort = () => state.worker.postMessage({ id, type: 'cancel' });
      signal?.addEventListener('abort', onAbort, { once: true });
      state.pending.set(id, {
        resolve,
        reject,
        onProgress,
        cleanup: () => signal?.removeEventListener('abort', onAbort),
      });
      try {
        state.worker.postMessage({ id, type: 'call', method, args });
      } catch (error) {
        state.pending.delete(id);
        reject(new TypeError(`relpos worker: ${method} arguments cannot be sent to a worker (${error.message})`));
      }
    });
  }

  const client = {
    call,
    /** Stops the worker: pending calls reject; a later call starts a fresh worker. */
    terminate: () => current && retire(current, 'relpos worker: terminated'),
  };
  for (const method of METHODS) client[method] = (...args) => call(method, ...args);
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
  return client;
}
