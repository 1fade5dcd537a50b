// The page side of the relpos Web Worker: the same API as `load()`'s instance, promise-based, so a
// page never blocks. Progress arrives through `onProgress`, cancellation through `signal`, and
// results are transferred from the worker, not copied.
//
//   const rp = createRelposWorker();
//   const map = await rp.attentionMap({ n: 1 << 20, scheme: 'alibi', onProgress: (p) => bar.value = p });
//   const svd = await rp.analysis.svd(matrix);
//   rp.terminate();

const ERRORS = { TypeError, RangeError, Error };
const PROPERTIES = ['version', 'simd', 'schemes', 'presets', 'operations'];
// Names a caller probes on any object (await, JSON.stringify) that must not become worker calls.
const NOT_METHODS = new Set(['then', 'toJSON']);

/**
 * @param {URL | string} [url] the worker script (default: worker.js beside this file)
 */
export function createRelposWorker(url = new URL('./worker.js', import.meta.url)) {
  const worker = new Worker(url, { type: 'module' });
  const pending = new Map();
  let next = 0;

  worker.onmessage = ({ data }) => {
    const entry = pending.get(data?.id);
    if (!entry) return;
    if (data.type === 'progress') {
      entry.onProgress?.(data.value, data.detail);
      return;
    }
    pending.delete(data.id);
    entry.cleanup();
    if (data.type === 'result') entry.resolve(data.result);
    else entry.reject(new (ERRORS[data.error?.name] ?? Error)(data.error?.message ?? 'relpos worker failed'));
  };
  worker.onerror = (event) => {
    const error = new Error(`relpos worker: ${event.message ?? 'failed to start'}`);
    for (const entry of pending.values()) entry.reject(error);
    pending.clear();
  };

  function call(method, ...args) {
    const id = ++next;
    const last = args.at(-1);
    let onProgress;
    let signal;
    if (
      last &&
      typeof last === 'object' &&
      !Array.isArray(last) &&
      !ArrayBuffer.isView(last) &&
      ('onProgress' in last || 'signal' in last)
    ) {
      ({ onProgress, signal } = last);
      const { onProgress: _p, signal: _s, ...rest } = last;
      args = [...args.slice(0, -1), { ...rest, __relposControl: true }];
    }
    return new Promise((resolve, reject) => {
      if (signal?.aborted) {
        reject(Object.assign(new Error('relpos worker: aborted'), { name: 'AbortError' }));
        return;
      }
      const onAbort = () => {
        worker.postMessage({ id, type: 'cancel' });
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      pending.set(id, { resolve, reject, onProgress, cleanup: () => signal?.removeEventListener('abort', onAbort) });
      try {
        worker.postMessage({ id, type: 'call', method, args });
      } catch (error) {
        pending.delete(id);
        reject(new TypeError(`relpos worker: ${method} arguments cannot be sent to a worker (${error.message})`));
      }
    });
  }

  const client = { call, terminate: () => worker.terminate() };
  for (const property of PROPERTIES) {
    Object.defineProperty(client, property, { get: () => call(property), enumerable: true });
  }
  client.analysis = new Proxy(
    {},
    {
      get:
        (_, name) =>
        (...args) =>
          call(`analysis.${String(name)}`, ...args),
    },
  );
  client.lab = new Proxy(
    {},
    {
      get:
        (_, name) =>
        (...args) =>
          call(`lab.${String(name)}`, ...args),
    },
  );
  // Every other name is a method of the worker's instance (rp.bias, rp.attentionMap, …; the calls on
  // schemes are those of the core's operation table), called by name.
  return new Proxy(client, {
    get: (target, name) =>
      name in target || typeof name !== 'string' || NOT_METHODS.has(name)
        ? target[name]
        : (...args) => call(name, ...args),
  });
}
