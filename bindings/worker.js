// The relpos Web Worker: runs the core off the page's main thread. Messages in:
//   { id, type: 'call', method: 'bias' | 'analysis.svd' | 'attentionMap' | …, args: [...] }
//   { id, type: 'cancel' }
// Messages out: { id, type: 'progress', value }, { id, type: 'result', result } (typed arrays
// transferred, not copied) and { id, type: 'error', error: { name, message } }.
// Use it through createRelposWorker() from worker-client.js.
import { load } from './index.js';

const ready = load();
const running = new Map();

// Every typed-array buffer in a result, so postMessage can transfer instead of copy.
function transferables(value, out = new Set()) {
  if (ArrayBuffer.isView(value)) out.add(value.buffer);
  else if (Array.isArray(value)) value.forEach((v) => transferables(v, out));
  else if (value && typeof value === 'object') Object.values(value).forEach((v) => transferables(v, out));
  return [...out];
}

function resolveMethod(rp, method) {
  const path = String(method).split('.');
  let owner = rp;
  for (const key of path.slice(0, -1)) owner = owner?.[key];
  const name = path.at(-1);
  if (!owner || (typeof owner[name] !== 'function' && !(name in owner))) {
    throw new TypeError(`relpos worker: unknown method '${method}'`);
  }
  return typeof owner[name] === 'function' ? (...args) => owner[name](...args) : () => owner[name];
}

async function run(id, method, args) {
  const controller = new AbortController();
  running.set(id, controller);
  try {
    const rp = await ready;
    const fn = resolveMethod(rp, method);
    // Long calls take { onProgress, signal } in their options object (the last argument).
    const last = args.at(-1);
    if (last && typeof last === 'object' && !Array.isArray(last) && last.__relposControl) {
      delete last.__relposControl;
      last.onProgress = (value, detail) => postMessage({ id, type: 'progress', value, detail });
      last.signal = controller.signal;
    }
    const result = await fn(...args);
    postMessage({ id, type: 'result', result }, transferables(result));
  } catch (error) {
    postMessage({
      id,
      type: 'error',
      error: { name: error?.name ?? 'Error', message: error?.message ?? String(error) },
    });
  } finally {
    running.delete(id);
  }
}

self.onmessage = ({ data }) => {
  if (!data || typeof data !== 'object') return;
  if (data.type === 'cancel') running.get(data.id)?.abort();
  else if (data.type === 'call') run(data.id, data.method, Array.isArray(data.args) ? data.args : []);
};
