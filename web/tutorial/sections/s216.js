// 2.1.6 Explicit / implicit / mixed: four attention maps from the same seeded Q, K, V (2.1.6-a … -d) —
// explicit with the chosen bias (modern or the original's form), implicit with absolute sinusoidal P,
// implicit with Shaw's relative a_clip(j−i), mixed with α, β — each with the translation defect of its
// positional logits (measured with a position-only probe, verdicts.js).
import { classification, CLASSIFICATION_CONTROLS } from '../verdicts.js';
import { controls, demoRow, figure, live } from '../demo.js';
import { fmt } from '../format.js';
import { t } from '../../i18n/index.js';
import { checkbox, el, keyedOptions, MatrixView, schemeOptions, select, slider, stat } from '../ui.js';

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
    value: CLASSIFICATION_CONTROLS.scheme.value,
    options: schemeOptions(CLASSIFICATION_CONTROLS.scheme.options),
  });
  const form = select({
    key: 's216.form',
    name: 'form',
    value: CLASSIFICATION_CONTROLS.form.value,
    options: keyedOptions('s216.form', CLASSIFICATION_CONTROLS.form.options),
  });
  const alpha = slider({ key: 's216.alpha', min: 0, max: 2, step: 0.05, value: 1, name: 'alpha' });
  const beta = slider({ key: 's216.beta', min: 0, max: 2, step: 0.05, value: 0, name: 'beta' });
  const causal = checkbox({ key: 's216.causal', checked: CLASSIFICATION_CONTROLS.causal.value, name: 'causal' });
  const n = slider({ key: 's216.n', ...CLASSIFICATION_CONTROLS.n, name: 'n', unit: 'ui.unit.tokens' });
  const views = KINDS.map(() => new MatrixView({ colormap: 'viridis', unitKey: 's216.unit' }));
  const defects = KINDS.map(([kind]) => stat('s216.defect', `defect-${kind}`));
  const moved = KINDS.map(([kind]) => stat('s216.moved', `moved-${kind}`));
  root.append(
    controls(scheme, form, alpha, beta, causal, n),
    demoRow(
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
      defects[index].set(fmt(m.defect), m.invariant);
      moved[index].set(fmt(m.fromContent, 2));
      root.dataset[`defect${kind.toLowerCase()}`] = String(m.defect);
    });
  }
  live(root, update, [alpha, beta, n, scheme, form, causal]);
}
