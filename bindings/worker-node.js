// The relpos worker as a Node worker thread: worker.js's protocol over worker_threads' parentPort
// (the pool of bindings/pool.js starts these in Node; a browser runs worker.js itself).
import { parentPort, workerData } from 'node:worker_threads';
import { loadFlavour, serve } from './worker.js';

let handler = null;
parentPort.on('message', (data) => handler?.({ data }));

// The pool hands over the caller's build flavour (pool.js, defaultSpawn).
const loadCore = () => loadFlavour(workerData?.flavour);

serve(
  {
    postMessage: (message, transfer) => parentPort.postMessage(message, transfer),
    // After a trap in the core (worker.js, fatal): the thread ends and the pool sees it exit.
    close: () => process.exit(1),
    set onmessage(fn) {
      handler = fn;
    },
  },
  { loadCore },
);
