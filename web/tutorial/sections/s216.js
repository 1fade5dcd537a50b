// 2.1.6 Explicit / implicit / mixed: four attention maps from the same seeded Q, K, V (2.1.6-a … -d) —
// explicit with the chosen bias (modern or the original's form), implicit with absolute sinusoidal P,
// implicit with Shaw's relative a_clip(j−i), mixed with α, β — each with the translation defect of its
// positional logits (measured with a position-only probe, verdicts.js).
import { classification, VISIBLE } from '../verdicts.js';
import {
  checkbox,
  controls,
  el,
  figure,
  fmt,
  localize,
  MatrixView,
  onLang,
  schemeOptions,
  select,
  slider,
  stat,
  t,
} from '../ui.js';

const KINDS = [
  ['explicit', '2.1.6-a'],
  ['implicitAbsolute', '2.1.6-b'],
  ['implicitRelative', '2.1.6-c'],
  ['mixed', '2.1.6-d'],
];

export function mount(root, { rp }) {
  const scheme = select({
    key: 's216.scheme',
    name: 'scheme',
    value: 'alibi',
    options: schemeOptions(Object.keys(VISIBLE)),
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
  const beta = slider({ key: 's216.beta', min: 0, max: 2, step: 0.05, value: 0, name: 'beta' });
  const causal = checkbox({ key: 's216.causal', name: 'causal' });
  const n = slider({ key: 's216.n', min: 8, max: 64, step: 4, value: 24, name: 'n', unit: 'ui.unit.tokens' });
  const views = KINDS.map(() => new MatrixView({ colormap: 'viridis', unitKey: 's216.unit' }));
  const defects = KINDS.map(([kind]) => stat('s216.defect', `defect-${kind}`));
  const moved = KINDS.map(([kind]) => stat('s216.moved', `moved-${kind}`));
  root.append(
    controls(scheme.root, form.root, alpha.root, beta.root, causal.root, n.root),
    el(
      'div',
      { className: 'demo-row' },
      ...KINDS.map(([kind, number], i) =>
        figure(number, `s216.fig.${kind}`, el('div', {}, views[i].root, defects[i].root, moved[i].root)),
      ),
    ),
    el('p', { className: 'note' }, el('span', { dataset: { i18n: 's216.note' } })),
  );

  function update() {
    const size = n.value;
    const c = classification(rp, {
      scheme: scheme.value,
      form: form.value,
      alpha: alpha.value,
      beta: beta.value,
      causal: causal.value,
      n: size,
    });
    KINDS.forEach(([kind], index) => {
      const m = c[kind];
      const W = m.weights.data;
      views[index].readout = (i, j, w) =>
        t('s216.readout', {
          i,
          j,
          r: j - i,
          w: fmt(w),
          logit: fmt(m.logits.data[i * size + j]),
          b: kind === 'explicit' || kind === 'mixed' ? fmt(c.bias.data[i * size + j]) : '—',
        });
      views[index].show(m.weights, { colormap: 'viridis', range: [0, Math.max(...W)] });
      defects[index].set(fmt(m.defect), m.invariant ? 'yes' : 'no');
      moved[index].set(fmt(m.fromContent, 2));
      root.dataset[`defect${kind.toLowerCase()}`] = String(m.defect);
    });
  }
  for (const c of [alpha, beta, n]) c.input.addEventListener('input', update);
  for (const c of [scheme, form]) c.input.addEventListener('change', update);
  causal.input.addEventListener('change', update);
  onLang(update);
  localize(root);
  update();
}
