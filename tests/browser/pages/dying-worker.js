// A relpos worker that ends mid-job, for tests/browser/worker.test.js: the real worker
// (bindings/worker.js) plus a listener that, 150 ms after an attentionMap call arrives, ends it the
// way the URL says — ?death=close stops it without a word (as the browser stops a worker that ran
// out of memory), ?death=throw throws an error nothing catches (a bug).
import '../../../bindings/worker.js';

const death = new URL(import.meta.url).searchParams.get('death');
addEventListener('message', ({ data }) => {
  if (data?.type !== 'call' || data.method !== 'attentionMap') return;
  setTimeout(() => {
    if (death === 'close') close();
    else throw new Error('a bug in the worker');
  }, 150);
});
