// A long attention map interrupted at its first progress report (aborted by its signal, or its
// workers stopped), for the worker tests in Node (tests/node/pool.test.js) and in Chromium
// (tests/browser/worker.test.js imports this file into its page): plain JS, no test framework.

/** Enough rows that the map reports progress several times before it ends. */
const LONG_MAP = { n: 16384, size: 64 };

/** What a call settled to, as text: 'finished', or the error's name and message. */
export function settled(promise) {
  return promise.then(
    () => 'finished',
    (error) => `${error.name}: ${error.message}`,
  );
}

/** rp.attentionMap of a long map with `options`; `interrupt()` runs once, at its first progress report. */
export function mapInterrupted(rp, options, interrupt) {
  let first = true;
  const onProgress = () => {
    if (!first) return;
    first = false;
    interrupt();
  };
  return settled(rp.attentionMap({ ...LONG_MAP, ...options, onProgress }));
}

/** The same map aborted by its own signal at its first progress report. */
export function mapAborted(rp, options) {
  const controller = new AbortController();
  return mapInterrupted(rp, { ...options, signal: controller.signal }, () => controller.abort());
}
