// The lab page: one <relpos-lab> in the site shell. Training runs on a pool of Web Workers through
// the worker client when this build has it (bindings/worker-client.js; every scheme a run on a
// worker of its own), else on the page through rp.lab.trainMany (each core step is short and the
// page yields between steps, so it stays responsive). Before the first run the page shows what a run measures: empty loss, gradient-norm
// and accuracy plots with their axes, replaced by the lab's own streaming curves once it trains.
// The lab speaks the site's language (?lang=zh or the switch). URL parameters task, schemes, length,
// steps, layers, heads, lr, clip, normalisation, seed preset the form (e.g. ?schemes=rope,alibi&steps=50).
import '../components/relpos-lab.js';
import '../components/relpos-reproduction.js';
import { renderCurve } from '../components/relpos-curve.js';
import { initI18n, lang, onLang, t } from '../i18n/index.js';
import { labMessages } from './messages.js';
import { labMessagesZh } from './messages.zh.js';
// The committed reproduction of Kazemnejad et al. 2023 (npm run lab:reproduce, docs/lab.md).
import reproductionResults from './reproduction.json';
// The worker as this site bundles it (its imports and wasm resolved), handed to the worker client.
import workerUrl from '../../bindings/worker.js?worker&url';

const workerClients = import.meta.glob('../../bindings/worker-client.js');

const lab = document.getElementById('lab');
const preview = document.getElementById('lab-preview');
const query = new URLSearchParams(location.search);
for (const name of ['task', 'schemes', 'length', 'steps', 'layers', 'heads', 'lr', 'clip', 'normalisation', 'seed']) {
  if (query.has(name)) lab.setAttribute(name, query.get(name));
}

initI18n();

// The page's heading names the lab (the navigation's name); the element's own title names the form.
const messages = () => ({ ...(lang() === 'zh' ? labMessagesZh : labMessages), title: t('site.lab.setup') });

/** The empty plots of what a run measures, with the element's own axis words. */
function drawPreview() {
  if (preview.hidden) return;
  const m = messages();
  const steps = Number(lab.getAttribute('steps') ?? 500);
  const length = Number(lab.getAttribute('length') ?? 32);
  const stepAxis = Array.from({ length: Math.max(2, Math.min(steps, 1000)) }, (_, k) => k + 1);
  const empty = (x) => [{ label: '', y: x.map(() => null) }];
  const plots = [
    ['.preview-loss', { x: stepAxis, xLabel: m.step, yLabel: m.lossAxis, title: m.lossTitle }],
    ['.preview-grad', { x: stepAxis, xLabel: m.step, yLabel: m.gradAxis, title: m.gradTitle }],
    [
      '.preview-accuracy',
      { x: [1, 2, 4, 8].map((f) => f * length), xLabel: m.lengthAxis, yLabel: m.accuracyAxis, title: m.accuracyTitle },
    ],
  ];
  for (const [selector, data] of plots) {
    renderCurve(preview.querySelector(selector), { ...data, series: empty(data.x) });
  }
}

// The reproduction below the lab: the committed results, the page's words, the same runner.
const reproduction = document.getElementById('reproduction');
const reproductionWords = () => {
  reproduction.separator = lang() === 'zh' ? '' : ' ';
  reproduction.words = (key) => t(key);
};
reproduction.results = reproductionResults;

lab.messages = messages();
drawPreview();
reproductionWords();
onLang(() => {
  lab.messages = messages();
  drawPreview();
  reproductionWords();
});

// Once a run starts, the element's streaming curves take the preview's place.
function showingResults(runMany) {
  return (runs, control) => {
    preview.hidden = true;
    return runMany(runs, control);
  };
}

async function pageRunMany() {
  const { load } = await import('../../bindings/index.js');
  const rp = await load({ models: false });
  return (runs, control) => rp.lab.trainMany(runs, control);
}

// Every selected scheme trains at once, one run per worker of a pool ('auto': the cores less one).
async function useWorker() {
  const loader = Object.values(workerClients)[0];
  let runMany = null;
  try {
    const { createRelposWorker } = loader ? await loader() : {};
    if (typeof createRelposWorker === 'function') {
      const client = await createRelposWorker(workerUrl);
      runMany = async (runs, control) => {
        try {
          return await client.lab.trainMany(runs, { ...control, workers: 'auto' });
        } catch (error) {
          if (control.signal?.aborted || error?.name === 'AbortError') throw error;
          runMany = null; // these workers have no lab: train on the page from now on
          return (await pageRunMany())(runs, control);
        }
      };
    }
  } catch {
    runMany = null; // fall back to the page's own core
  }
  const trainMany = (runs, control) =>
    runMany ? runMany(runs, control) : pageRunMany().then((train) => train(runs, control));
  lab.runMany = showingResults(trainMany);
  // The reproduction reruns one cell at a time: a pool of one run.
  reproduction.runner = (options, control) => trainMany([options], control).then(([result]) => result);
}

await Promise.all([useWorker(), lab.ready]);
document.documentElement.dataset.ready = 'true';
if (query.has('autorun')) lab.train();
