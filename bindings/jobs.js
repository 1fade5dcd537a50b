// Runs a core job (src/relpos/base/job.hpp) step by step, yielding to the event loop between steps so
// that progress can be shown and an AbortSignal honoured. Steps are sized to take ~30 ms.

import { abortError } from './errors.js';

const TARGET_STEP_MS = 30;

// setTimeout(0) is clamped to 4 ms after a few nested calls in browsers; a message round-trip is
// not. Node has setImmediate.
function nextTurn() {
  if (typeof setImmediate === 'function') return new Promise((resolve) => setImmediate(resolve));
  if (typeof MessageChannel === 'function') {
    return new Promise((resolve) => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        channel.port1.close();
        resolve();
      };
      channel.port2.postMessage(0);
    });
  }
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * @param {object} core the Embind module
 * @param {(result: any) => any} unwrap throws the core's { error, kind } results
 * @param {string} kind job kind ('attentionMap', 'train')
 * @param {object} options normalised options for the core
 * @param {{ onProgress?: (fraction: number, detail?: object) => void, signal?: AbortSignal, where: string, onStep?: (core: object, handle: number) => void }} control
 */
export async function runJob(core, unwrap, kind, options, { onProgress, signal, where, onStep }) {
  if (onProgress !== undefined && typeof onProgress !== 'function') {
    throw new TypeError(`${where}: onProgress must be a function`);
  }
  if (signal !== undefined && (signal === null || typeof signal.aborted !== 'boolean')) {
    throw new TypeError(`${where}: signal must be an AbortSignal`);
  }
  if (signal?.aborted) throw abortError(where, signal);
  const { handle } = unwrap(core.jobStart(kind, options));
  try {
    let budget = 1;
    for (;;) {
      const started = performance.now();
      const status = unwrap(core.jobStep(handle, budget));
      const elapsed = performance.now() - started;
      onStep?.(core, handle);
      onProgress?.(status.progress);
      if (status.done) break;
      // Grow or shrink the step so each takes about TARGET_STEP_MS.
      budget = Math.max(1, Math.round(budget * Math.min(4, Math.max(0.25, TARGET_STEP_MS / Math.max(elapsed, 0.1)))));
      await nextTurn();
      if (signal?.aborted) throw abortError(where, signal);
    }
    return unwrap(core.jobResult(handle));
  } finally {
    core.jobFree(handle);
  }
}
