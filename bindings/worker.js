// The relpos Web Worker: runs the core off the page's main thread. Use it through
// createRelposWorker() from worker-client.js. Messages in (anything else is ignored):
//   { type: 'hello', lock }            hold the Web Lock `lock` while alive, then answer { type: 'alive' }
//   { id, type: 'call', method, args } method: a member of the loaded instance ('bias', 'schemes', …)
//                                       or of its analysis / lab ('analysis.svd', 'lab.train'); the
//                                       analysis module is loaded before the first such call, and
//                                       the models module before the first 'presets' / 'fromConfig'
//   { id, type: 'cancel' }             aborts that call's job
// Messages out: { id, type: 'progress', value, detail }, { id, type: 'result', result } (typed
// arrays transferred, not copied), { id, type: 'error', error: { name, message } }, and
// { type: 'fatal', error } when the core itself failed (a WebAssembly trap: its state cannot be
// trusted) — the worker then closes; the client starts a fresh one for the next call.
// Every message gets an answer or is ignored; none throws out of the handler.
import { load } from './index.js';

const NAMESPACES = ['analysis', 'lab'];
// The members of the models module (rp.modelsReady): a worker that only computes never fetches it.
const MODELS_MEMBERS = ['presets', 'fromConfig'];
// runJob's third argument holds functions (onProgress, signal), which cannot cross to a worker;
// the jobs it runs are served as attentionMap and lab.train, with progress and cancellation.
// unbounded: the worker's instance is already the one without a work budget.
const NOT_SERVED = ['constructor', 'runJob', 'unbounded', 'modelsReady', ...NAMESPACES];

// Every typed-array buffer in a result, so postMessage can transfer instead of copy.
function transferables(value, out = new Set()) {
  if (ArrayBuffer.isView(value)) out.add(value.buffer);
  else if (Array.isArray(value)) value.forEach((v) => transferables(v, out));
  else if (value && typeof value === 'object') Object.values(value).forEach((v) => transferables(v, out));
  return [...out];
}

function isPlainObject(value) {
  return value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype;
}

/** The public members of the instance: its own fields and its class's methods and getters. */
function publicNames(rp) {
  const names = [...Object.getOwnPropertyNames(rp), ...Object.getOwnPropertyNames(Object.getPrototypeOf(rp))];
  return names.filter((name) => !NOT_SERVED.includes(name));
}

/** Resolves 'bias' | 'analysis.svd' | 'schemes' to a function of the arguments; TypeError otherwise. */
function operation(rp, method) {
  if (typeof method !== 'string') {
    throw new TypeError(
      `relpos worker: method must be a string such as 'bias' or 'analysis.svd', got ${typeof method}`,
    );
  }
  const parts = method.split('.');
  const [owner, names] =
    parts.length === 2 && NAMESPACES.includes(parts[0])
      ? [rp[parts[0]], Object.keys(rp[parts[0]])]
      : [rp, parts.length === 1 ? publicNames(rp) : []];
  const name = parts.at(-1);
  if (!names.includes(name)) {
    const known = [...publicNames(rp), ...NAMESPACES.map((ns) => `${ns}.*`)].join(', ');
    throw new TypeError(`relpos worker: unknown method '${method.slice(0, 80)}'; methods: ${known}`);
  }
  return typeof owner[name] === 'function' ? (...args) => owner[name](...args) : () => owner[name];
}

// Off the page's main thread a long call blocks nothing: the worker's instance has no work budget
// (docs/api.md, "Limits"); memory limits still hold. `flavour` ('simd' | 'baseline' | 'relaxed')
// is the build a pool's caller runs (pool.js), so the worker computes what the caller would; the
// default build without it.
const FLAVOURS = { simd: { simd: true, relaxed: false }, baseline: { simd: false }, relaxed: { relaxed: true } };
export function loadFlavour(flavour) {
  if (flavour != null && !Object.hasOwn(FLAVOURS, flavour)) {
    return Promise.reject(new TypeError(`relpos worker: unknown build flavour '${String(flavour).slice(0, 40)}'`));
  }
  return load({ models: false, ...FLAVOURS[flavour] }).then((rp) => rp.unbounded());
}
const loadUnbounded = () => loadFlavour(undefined);

/**
 * Answers the protocol on `scope` (a worker's global scope, or anything with onmessage,
 * postMessage and close). `loadCore` makes the instance (default: relpos's load(), unbounded).
 */
export function serve(scope, { loadCore = loadUnbounded } = {}) {
  const ready = Promise.resolve().then(loadCore);
  ready.catch(() => {}); // each call reports a failed load itself
  const running = new Map();
  let closed = false;
  // Settles once this worker holds its Web Lock and has told the client (see hold): calls wait for
  // it, so a worker that is stopped mid-call has always said 'alive' first — a busy worker would
  // otherwise run its first job steps before the lock's grant, and could be stopped before the
  // client ever learned to watch for its end.
  let held = Promise.resolve();

  function fatal(error) {
    closed = true;
    scope.postMessage({ type: 'fatal', error: { name: error.name, message: error.message } });
    for (const controller of running.values()) controller.abort();
    scope.close();
  }

  async function run(id, method, args) {
    const controller = new AbortController();
    running.set(id, controller);
    try {
      await held;
      const rp = await ready;
      const namespace = typeof method === 'string' ? NAMESPACES.find((ns) => method.startsWith(`${ns}.`)) : undefined;
      if (namespace) await rp[namespace].ready;
      if (MODELS_MEMBERS.includes(method)) await rp.modelsReady;
      const fn = operation(rp, method);
      if (!Array.isArray(args)) throw new TypeError(`relpos worker: args of ${method} must be an array`);
      // Long calls take { onProgress, signal } in their options object (the last argument).
      const last = args.at(-1);
      if (isPlainObject(last) && last.__relposControl === true) {
        // __relposProgress: false — the caller wants no progress (a lab run then skips reading its
        // curves after every step, and nothing is posted per step).
        const progress = last.__relposProgress !== false;
        delete last.__relposControl;
        delete last.__relposProgress;
        if (progress) last.onProgress = (value, detail) => scope.postMessage({ id, type: 'progress', value, detail });
        last.signal = controller.signal;
      }
      const result = await fn(...args);
      try {
        scope.postMessage({ id, type: 'result', result }, transferables(result));
      } catch (error) {
        throw new TypeError(`relpos worker: the result of ${method} cannot be sent to the page (${error.message})`, {
          cause: error,
        });
      }
    } catch (error) {
      const trapped = error instanceof WebAssembly.RuntimeError;
      const message = trapped
        ? `relpos worker: the core failed in ${method} (${error.message}); the worker stopped and the next call starts a fresh one`
        : String(error?.message ?? error);
      scope.postMessage({ id, type: 'error', error: { name: trapped ? 'Error' : (error?.name ?? 'Error'), message } });
      if (trapped) fatal(error);
    } finally {
      running.delete(id);
    }
  }

  function hold(lock) {
    // Held until this worker ends, however it ends: the client's request for the same lock is
    // granted only then, which is how it learns of a worker the browser stopped without a word.
    const locks = scope.navigator?.locks;
    if (!locks) return;
    held = new Promise((resolve) => {
      locks
        .request(lock, () => {
          scope.postMessage({ type: 'alive', lock });
          resolve();
          return new Promise(() => {});
        })
        .catch(resolve);
    });
  }

  scope.onmessage = ({ data }) => {
    if (closed || !isPlainObject(data)) return;
    const { id, type } = data;
    if (type === 'hello' && typeof data.lock === 'string') hold(data.lock);
    else if (type === 'cancel') running.get(id)?.abort();
    else if (type === 'call' && (typeof id === 'number' || typeof id === 'string') && !running.has(id)) {
      run(id, data.method, data.args);
    }
  };
}

if (typeof WorkerGlobalScope === 'function' && self instanceof WorkerGlobalScope) {
  const flavour = new URLSearchParams(self.location.search).get('flavour');
  serve(self, { loadCore: () => loadFlavour(flavour) });
}
