// A relpos worker that ends mid-job, for tests/browser/worker.test.js: the real worker
// (bindings/worker.js) plus a hook that, once an attentionMap job has reported its first progress,
// ends it the way the URL says — ?death=close stops it without a word (as the browser stops a worker
// that ran out of memory), ?death=throw throws an error nothing catches (a bug). It waits on that
// state, not on a time: how long loading takes (one module or, with the relaxed build, two) and how
// busy the machine is do not matter.
import '../../../bindings/worker.js';

const death = new URL(import.meta.url).searchParams.get('death');
const post = self.postMessage.bind(self);
let dying = false;
self.postMessage = (message, ...rest) => {
  post(message, ...rest);
  if (dying || message?.type !== 'progress') return;
  dying = true;
  setTimeout(() => {
    if (death === 'close') close();
    else throw new Error('a bug in the worker');
  }, 0);
};
