// The lab page: one <relpos-lab>. Training runs in a Web Worker through the worker client when this
// build has it (bindings/worker-client.js), else on the page through rp.lab.train (each core step
// is short and the page yields between steps, so it stays responsive). ?lang=zh switches the words;
// URL parameters task, schemes, length, steps, seed preset the form (e.g. ?schemes=rope,alibi&steps=50).
import '../components/relpos-lab.js';
import { labMessages } from './messages.js';
import { labMessagesZh } from './messages.zh.js';

const workerClients = import.meta.glob('../../bindings/worker-client.js');

const lab = document.getElementById('lab');
const query = new URLSearchParams(location.search);
for (const name of ['task', 'schemes', 'length', 'steps', 'layers', 'heads', 'lr', 'clip', 'normalisation', 'seed']) {
  if (query.has(name)) lab.setAttribute(name, query.get(name));
}
if (query.get('lang') === 'zh') {
  document.documentElement.lang = 'zh';
  lab.messages = labMessagesZh;
} else {
  lab.messages = labMessages;
}

async function useWorker() {
  const loader = Object.values(workerClients)[0];
  if (!loader) return;
  try {
    const { createRelposWorker } = await loader();
    if (typeof createRelposWorker !== 'function') return;
    const client = await createRelposWorker();
    lab.runner = async (options, control) => {
      try {
        return await client.call('lab.train', { ...options, ...control }); // onProgress/signal travel in the options
      } catch (error) {
        if (control.signal?.aborted || error?.name === 'AbortError') throw error;
        lab.runner = null; // this worker has no lab: train on the page from now on
        const { load } = await import('../../bindings/index.js');
        return (await load()).lab.train({ ...options, ...control });
      }
    };
  } catch {
    lab.runner = null; // fall back to the page's own core
  }
}

await useWorker();
if (query.has('autorun')) lab.train();
