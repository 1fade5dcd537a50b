// A pooled attention map split between worker threads, as a caller would split it
// (docs/attention.md, "Splitting a map between workers"): every thread holds its own relpos
// instance and computes its share of the map rows (`mapRows`); the parts, 0 outside their rows,
// are summed. Used by bench/attention.mjs; run as a worker thread, this file is the worker.
import { Worker, isMainThread, parentPort } from 'node:worker_threads';
import { load } from '../bindings/index.js';

if (!isMainThread) {
  const rp = await load();
  parentPort.on('message', async (options) => {
    try {
      const map = await rp.attentionMap(options);
      parentPort.postMessage({ data: map.data }, [map.data.buffer]);
    } catch (error) {
      parentPort.postMessage({ error: error.message });
    }
  });
  parentPort.postMessage({ ready: true });
}

/** One answer of a worker thread. */
function reply(worker) {
  return new Promise((resolve, reject) => {
    const done = () => {
      worker.off('message', onMessage);
      worker.off('error', onError);
    };
    const onMessage = (message) => {
      done();
      if (message.error) reject(new Error(message.error));
      else resolve(message);
    };
    const onError = (error) => {
      done();
      reject(error);
    };
    worker.on('message', onMessage);
    worker.on('error', onError);
  });
}

/** `threads` worker threads, each with relpos loaded, that compute one map together. */
export async function startSplitMap(threads) {
  const workers = Array.from({ length: threads }, () => new Worker(new URL(import.meta.url)));
  await Promise.all(workers.map(reply));
  return {
    async attentionMap(options) {
      const size = Math.min(options.size ?? 512, options.n);
      const cuts = workers.map((_, t) => Math.round((t * size) / threads)).concat(size);
      const parts = await Promise.all(
        workers.map((worker, t) => {
          const answer = reply(worker);
          worker.postMessage({ ...options, mapRows: [cuts[t], cuts[t + 1]] });
          return answer;
        }),
      );
      const data = parts[0].data;
      for (const part of parts.slice(1)) for (let c = 0; c < data.length; c++) data[c] += part.data[c];
      return { shape: [size, size], data };
    },
    stop: () => Promise.all(workers.map((worker) => worker.terminate())),
  };
}
