// 2.1.6 Explicit / implicit / mixed: three attention maps from the same seeded Q, K and the chosen
// bias scheme, with α, β, causal and the seed's vs the modern explicit form. Each map also reports the
// translation defect of its positional part, measured with a position-only probe (identical q, k for
// every token): logits are recovered from the weights as log w_ij − log w_ii (the row's normaliser cancels).
import {
  checkbox,
  controls,
  el,
  fmt,
  localize,
  MatrixView,
  onLang,
  randomTensor,
  select,
  slider,
  stat,
  t,
  words,
} from '../ui.js';

const D = 16;

export function mount(root, { rp }) {
  const ids = ['alibi', 't5', 'kerple-log', 'exp-decay', 'sandwich'];
  const scheme = select({
    key: 's216.scheme',
    name: 'scheme',
    value: 'alibi',
    options: ids.map((id) => ({ value: id, text: rp.schemes.find((s) => s.id === id).name })),
  });
  const form = select({
    key: 's216.form',
    name: 'form',
    value: 'modern',
    options: [
      { value: 'modern', key: 's216.form.modern' },
      { value: 'seed', key: 's216.form.seed' },
    ],
  });
  const alpha = slider({ key: 's216.alpha', min: 0, max: 2, step: 0.05, value: 1, name: 'alpha' });
  const beta = slider({ key: 's216.beta', min: 0, max: 2, step: 0.05, value: 1, name: 'beta' });
  const causal = checkbox({ key: 's216.causal', name: 'causal' });
  const n = slider({ key: 's216.n', min: 8, max: 64, step: 4, value: 24, name: 'n' });
  const kinds = ['explicit', 'implicit', 'mixed'];
  const views = kinds.map((kind) => new MatrixView({ captionKey: `s216.cap.${kind}` }));
  const defects = kinds.map((kind) => stat(`s216.defect.${kind}`, `defect-${kind}`));
  root.append(
    controls(scheme.root, form.root, alpha.root, beta.root, causal.root, n.root),
    el('div', { className: 'demo-row three' }, ...views.map((v, i) => el('div', {}, v.root, defects[i].root))),
    el('p', { className: 'note' }, words('s216.note')),
  );

  function options(kind, size) {
    const params = {};
    if (kind === 'explicit') {
      return form.value === 'seed'
        ? { scheme: scheme.value, params, mode: 'mixed', alpha: 1, beta: 0 }
        : { scheme: scheme.value, params, mode: 'explicit' };
    }
    if (kind === 'implicit') return { scheme: 'sinusoidal', params, mode: 'implicit' };
    return {
      scheme: scheme.value,
      params,
      mode: 'mixed',
      alpha: alpha.value,
      beta: beta.value,
      P: rp.encoding('sinusoidal', { n: size, d: D }),
    };
  }

  function logitDefect(W, size) {
    const L = new Float32Array(size * size);
    for (let i = 0; i < size; i++) {
      const diag = Math.log(W[i * size + i]);
      for (let j = 0; j < size; j++) L[i * size + j] = Math.log(W[i * size + j]) - diag;
    }
    return rp.analysis.translationDefect({ shape: [size, size], data: L });
  }

  function update() {
    const size = n.value;
    const q = randomTensor(size, D, 31);
    const k = randomTensor(size, D, 32);
    const v = randomTensor(size, D, 33);
    const probe = randomTensor(1, D, 34).data;
    const same = { shape: [size, D], data: new Float32Array(size * D) };
    for (let i = 0; i < size; i++) same.data.set(probe, i * D);
    const B = rp.bias(scheme.value, { n: size, heads: 1 });
    kinds.forEach((kind, index) => {
      const opts = options(kind, size);
      const { weights } = rp.attention({ q, k, v, causal: causal.value, ...opts });
      const view = views[index];
      view.readout = (i, j, w) =>
        t('s216.readout', {
          i,
          j,
          r: j - i,
          w: fmt(w),
          logit: fmt(Math.log(w) - Math.log(weights.data[i * size + i])),
          b: kind === 'implicit' ? '—' : fmt(B.data[i * size + j]),
        });
      view.show(weights);
      const pos = rp.attention({ q: same, k: same, causal: causal.value, ...opts }).weights;
      const td = logitDefect(pos.data, size);
      defects[index].set(fmt(td.max), td.isToeplitz ? 'yes' : 'no');
      root.dataset[`defect${kind}`] = String(td.max);
    });
  }
  for (const c of [alpha, beta, n]) c.input.addEventListener('input', update);
  for (const c of [scheme, form]) c.input.addEventListener('change', update);
  causal.input.addEventListener('change', update);
  onLang(update);
  localize(root);
  update();
}
