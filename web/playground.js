// The playground: two schemes side by side (pane A with ids map, n, scheme, …; pane B prefixed b-),
// any preset, a Hugging Face config.json read by rp.fromConfig, long-context pooled maps through
// rp.attentionMap (on a pool of Web Workers, so the page stays responsive), and the whole state in the URL hash.
import { load } from '../bindings/index.js';
import { applyI18n, initI18n, t } from './i18n/index.js';
import { createPane, syncHash } from './tutorial/pane.js';
import { fmt } from './tutorial/format.js';
import { el, MatrixView, showBuild, words } from './tutorial/ui.js';
import { createRelposWorker } from '../bindings/worker-client.js';

const rp = await load();
let worker = null; // one worker for the page's long-context maps, started on first use
initI18n();
const $ = (id) => document.getElementById(id);

showBuild(rp);

let writeHash = () => {};
const paneA = createPane(rp, $('pane-a'), {
  id: '',
  key: '',
  scheme: 'alibi',
  presets: true,
  title: 'pg.paneA',
  onChange: () => writeHash(),
});
const paneB = createPane(rp, $('pane-b'), {
  id: 'b-',
  key: 'b.',
  scheme: 'rope',
  presets: true,
  title: 'pg.paneB',
  onChange: () => writeHash(),
});
// Each pane leads with its title and its figure; the controls follow (web/styles/playground.css).
for (const name of ['pane-a', 'pane-b']) {
  const title = $(name).querySelector('.pane-title');
  title.id = `${name}-title`;
  $(name).prepend(title);
}
writeHash = syncHash([paneA, paneB]);
if (location.hash) writeHash();

// ---- config.json ----
$('config-apply').addEventListener('click', () => {
  const result = $('config-result');
  const list = $('config-warnings');
  list.replaceChildren();
  let reading;
  try {
    reading = rp.fromConfig($('config-json').value);
  } catch (error) {
    result.dataset.kind = 'no';
    result.textContent = t('pg.config.error', { message: error.message });
    return;
  }
  const pane = $('config-target').value === 'b' ? paneB : paneA;
  const loaded = pane.load(reading);
  result.dataset.kind = loaded ? 'yes' : 'no';
  result.textContent = t('pg.config.read', {
    scheme: reading.scheme,
    heads: reading.heads,
    d: reading.params.d ?? '—',
    base: reading.params.base ?? '—',
    type: reading.model?.type ?? '—',
    context: reading.model?.maxPositionEmbeddings ?? '—',
  });
  // The core's warnings are shown as it words them.
  for (const warning of reading.warnings) list.append(el('li', { textContent: warning }));
  if (!reading.warnings.length) list.append(el('li', {}, words('pg.config.noWarnings')));
  writeHash();
});

// ---- long-context pooled maps ----
function longContext(pane, prefix) {
  const box = el('details', { className: 'long' }, el('summary', {}, words('pg.long.title')));
  const n = el('input', { type: 'number', id: `${prefix}long-n`, min: 1024, max: 1048576, step: 1024, value: 65536 });
  const size = el(
    'select',
    { id: `${prefix}long-size` },
    ...[128, 256, 512].map((s) => new Option(String(s), String(s))),
  );
  size.value = '256';
  const pool = el(
    'select',
    { id: `${prefix}long-pool` },
    ...['max', 'mean'].map((p) => {
      const o = new Option('', p);
      o.dataset.i18n = `pg.long.pool.${p}`;
      return o;
    }),
  );
  const seed = el('input', { type: 'number', id: `${prefix}long-seed`, min: 0, max: 1e6, step: 1, value: 0 });
  const run = el('button', { type: 'button', dataset: { i18n: 'pg.long.run' } });
  const cancel = el('button', { type: 'button', disabled: true, dataset: { i18n: 'pg.long.cancel' } });
  const progress = el('progress', { max: 1, value: 0 });
  const status = el('p', { className: 'status', attrs: { 'aria-live': 'polite' } });
  const view = new MatrixView({ readout: (i, j, v) => t('pg.long.readout', { i, j, value: fmt(v) }) });
  const label = (key, input) => el('label', { className: 'control', htmlFor: input.id }, words(key), input);
  box.append(
    el(
      'div',
      { className: 'controls' },
      label('pg.long.n', n),
      label('pg.long.size', size),
      label('pg.long.pool', pool),
      label('pg.long.seed', seed),
      run,
      cancel,
    ),
    progress,
    status,
    view.root,
  );
  pane.root.append(box);
  let controller = null;
  run.addEventListener('click', async () => {
    const { info, params } = pane.current();
    controller = new AbortController();
    run.disabled = true;
    cancel.disabled = false;
    progress.value = 0;
    status.removeAttribute('data-i18n');
    status.textContent = t('pg.long.running');
    const onProgress = (p) => {
      const fraction = typeof p === 'number' ? p : (p?.fraction ?? (p?.total ? p.done / p.total : (p?.progress ?? 0)));
      progress.value = Math.max(0, Math.min(1, fraction));
    };
    // workers: a pool ('auto': the cores less one) splits the map's rows, same bits (docs/workers.md).
    const options = { n: +n.value, scheme: info.id, params, size: +size.value, pool: pool.value, workers: 'auto' };
    if (Number(seed.value) > 0) options.seed = Number(seed.value);
    const started = performance.now();
    try {
      worker ??= createRelposWorker();
      const tensor = await worker.call('attentionMap', options, { onProgress, signal: controller.signal });
      progress.value = 1;
      view.show(tensor);
      status.textContent = t('pg.long.done', {
        n: Number(n.value).toLocaleString(),
        size: size.value,
        ms: fmt(performance.now() - started),
      });
    } catch (error) {
      status.textContent = controller.signal.aborted
        ? t('pg.long.cancelled')
        : t('pg.long.error', { message: error.message });
    } finally {
      run.disabled = false;
      cancel.disabled = true;
    }
  });
  cancel.addEventListener('click', () => controller?.abort());
}
longContext(paneA, '');
longContext(paneB, 'b-');
applyI18n(document);
document.documentElement.dataset.ready = 'true';
