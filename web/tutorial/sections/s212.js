// 2.1.2 Theorem 1 measured: the translation defect of the position-score matrix S for any scheme, with
// a k slider comparing S(i + k, j + k) against S(i, j) (Figures 2.1.2-a and 2.1.2-b).
import { invariance, invarianceVerdict, positionOnlySchemes } from '../verdicts.js';
import { controls, demoRow, figure, live, statsRow } from '../demo.js';
import { fmt } from '../format.js';
import { t } from '../../i18n/index.js';
import { MatrixView, schemeOptions, select, slider, stat, verdictLine } from '../ui.js';

export function mount(root, { rp }) {
  const options = [
    ...schemeOptions(positionOnlySchemes(rp).map((s) => s.id)),
    { value: 'learned', key: 's212.learned' },
    { value: 'sinusoidal-wqk', key: 's212.sinusoidalWqk' },
  ];
  const scheme = select({ key: 's212.scheme', name: 'scheme', value: 'alibi', options });
  const n = slider({ key: 's212.n', min: 8, max: 128, step: 4, value: 48, name: 'n', unit: 'ui.unit.positions' });
  const k = slider({ key: 's212.k', min: 1, max: 47, value: 8, name: 'k', unit: 'ui.unit.positions' });
  const unitKey = 's212.unit';
  const full = new MatrixView({ unitKey });
  const shifted = new MatrixView({ unitKey });
  const defect = stat('s212.defect', 'defect');
  const defectK = stat('s212.defectK', 'defectK');
  const verdict = verdictLine();
  root.append(
    controls(scheme, n, k),
    demoRow(figure('2.1.2-a', 's212.fig.a', full.root), figure('2.1.2-b', 's212.fig.b', shifted.root)),
    statsRow(defect, defectK, verdict),
  );

  function crop(S, size, offset, span) {
    const out = new Float32Array(span * span);
    for (let i = 0; i < span; i++) {
      for (let j = 0; j < span; j++) out[i * span + j] = S.data[(i + offset) * size + j + offset];
    }
    return { shape: [span, span], data: out };
  }

  function update() {
    const size = n.value;
    k.input.max = String(size - 1);
    if (k.value > size - 1) k.value = size - 1;
    const inv = invariance(rp, scheme.value, size);
    const tk = rp.analysis.translationDefect(inv.S, { shift: k.value });
    const span = size - k.value;
    const drawn = full.show(crop(inv.S, size, 0, span));
    shifted.show(crop(inv.S, size, k.value, span), { range: drawn.range, colormap: drawn.colormap });
    defect.set(t('s212.defectValue', { max: fmt(inv.value), relative: fmt(inv.relative) }), inv.verdict);
    const scale = inv.value / Math.max(inv.relative, 1e-30);
    defectK.set(t('s212.defectKValue', { k: k.value, max: fmt(tk.max) }), tk.max <= 1e-5 * Math.max(1, scale));
    // A blank map (NoPE, Transformer-XL without its learned weights) is not evidence of invariance;
    // 2-D RoPE with every position in one grid row is 1-D RoPE (invarianceVerdict).
    const v = invarianceVerdict(rp, scheme.value, inv, size);
    verdict.set(t(v.key, v.values), v.holds);
    root.dataset.blank = String(v.key === 's212.zero');
    root.dataset.defect = String(inv.value);
  }
  live(root, update, [n, k, scheme]);
}
