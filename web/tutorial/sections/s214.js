// 2.1.4 Linear algebra (Eigen in the core). Part "spectrum": singular values, numerical and effective
// rank, condition number, top singular vectors (2.1.4-a, -b). Part "lowrank": PE rebuilt from its top k
// singular values and the error (2.1.4-c, -d). Part "eig": symmetry, eigenvalues of the symmetric part
// and the kernel verdict (2.1.4-e).
import { renderCurve } from '../../components/relpos-curve.js';
import { lowRank, spectrum } from '../verdicts.js';
import {
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

const IDS = ['sinusoidal', 'rope', 'alibi', 't5', 'kerple-log', 'exp-decay', 'sin-freq', 'fire'];
const range = (n) => Array.from({ length: n }, (_, i) => i);

function schemeSelect(value) {
  return select({ key: 's214.scheme', name: 'scheme', value, options: schemeOptions(IDS) });
}

function mountSpectrum(root, rp) {
  const scheme = schemeSelect('sinusoidal');
  const n = slider({ key: 's214.n', min: 16, max: 256, step: 16, value: 64, name: 'n', unit: 'ui.unit.positions' });
  const spectrumBox = el('div', { className: 'curve-box' });
  const modes = el('div', { className: 'curve-box' });
  const rank = stat('s214.rank', 'rank');
  const effRank = stat('s214.effRank', 'effRank');
  const cond = stat('s214.cond', 'cond');
  root.append(
    controls(scheme.root, n.root),
    el('div', { className: 'stats' }, rank.root, effRank.root, cond.root),
    el(
      'div',
      { className: 'demo-row' },
      figure('2.1.4-a', 's214.fig.a', spectrumBox),
      figure('2.1.4-b', 's214.fig.b', modes),
    ),
  );

  function update() {
    const size = n.value;
    const { svd } = spectrum(rp, scheme.value, size);
    rank.set(t('s214.rankValue', { rank: svd.rank, n: size, tolerance: fmt(svd.tolerance) }));
    effRank.set(fmt(svd.effectiveRank));
    cond.set(svd.conditionNumber === Infinity ? t('s214.condInfinite') : fmt(svd.conditionNumber));
    root.dataset.rank = String(svd.rank);
    const index = range(size);
    renderCurve(spectrumBox, {
      x: index.map((i) => i + 1),
      series: [{ label: t('s214.sigma'), y: Array.from(svd.singularValues, (v) => (v > 0 ? v : null)) }],
      xLabel: t('s214.index'),
      yLabel: t('s214.sigma'),
      log: true,
    });
    const k = svd.U.shape[1];
    renderCurve(modes, {
      x: index,
      series: [0, 1, 2].map((c) => ({
        label: t('s214.mode', { k: c + 1 }),
        y: index.map((i) => svd.U.data[i * k + c]),
      })),
      xLabel: t('s214.position'),
      yLabel: t('s214.component'),
    });
  }
  n.input.addEventListener('input', update);
  scheme.input.addEventListener('change', update);
  onLang(update);
  localize(root);
  update();
}

function mountLowRank(root, rp) {
  const size = 64;
  const scheme = schemeSelect('sinusoidal');
  const k = slider({ key: 's214.k', min: 1, max: size, value: 8, name: 'k' });
  const original = new MatrixView({ unitKey: 's214.unit' });
  const rebuilt = new MatrixView({ unitKey: 's214.unit' });
  const errorBox = el('div', { className: 'curve-box' });
  const error = stat('s214.error', 'error');
  root.append(
    controls(scheme.root, k.root),
    el(
      'div',
      { className: 'demo-row' },
      figure('2.1.4-c', 's214.fig.c', el('div', { className: 'demo-row' }, original.root, rebuilt.root)),
      figure('2.1.4-d', 's214.fig.d', errorBox),
    ),
    el('div', { className: 'stats' }, error.root),
  );
  let cached = null;

  function update() {
    if (!cached || cached.id !== scheme.value) {
      const { M, svd } = spectrum(rp, scheme.value, size);
      const errors = range(size + 1).map((c) => lowRank(M, svd, c).predicted);
      cached = { id: scheme.value, M, svd, errors };
    }
    const { M, svd, errors } = cached;
    const r = lowRank(M, svd, k.value);
    const drawn = original.show(M);
    rebuilt.show(r.approx, { range: drawn.range, colormap: drawn.colormap });
    error.set(t('s214.errorValue', { k: k.value, measured: fmt(r.error), predicted: fmt(r.predicted) }));
    root.dataset.error = String(r.error);
    renderCurve(errorBox, {
      x: range(size + 1),
      series: [{ label: t('s214.errorLabel'), y: errors.map((e) => (e > 0 ? e : null)) }],
      xLabel: t('s214.kAxis'),
      yLabel: t('s214.errorLabel'),
      log: true,
    });
  }
  k.input.addEventListener('input', update);
  scheme.input.addEventListener('change', update);
  onLang(update);
  localize(root);
  update();
}

function mountEig(root, rp) {
  const scheme = schemeSelect('sin-freq');
  const n = slider({ key: 's214.n', min: 16, max: 256, step: 16, value: 64, name: 'n', unit: 'ui.unit.positions' });
  const eigBox = el('div', { className: 'curve-box' });
  const symmetric = stat('s214.symmetric', 'symmetric');
  const psd = stat('s214.psd', 'psd');
  root.append(
    controls(scheme.root, n.root),
    el('div', { className: 'stats' }, symmetric.root, psd.root),
    figure('2.1.4-e', 's214.fig.e', eigBox),
  );

  function update() {
    const size = n.value;
    const { eig } = spectrum(rp, scheme.value, size);
    symmetric.set(
      t(eig.symmetric ? 's214.symYes' : 's214.symNo', { asym: fmt(eig.asymmetry) }),
      eig.symmetric ? 'yes' : 'no',
    );
    psd.set(
      eig.symmetric
        ? t(eig.isPSD ? 's214.psdYes' : 's214.psdNo', { min: fmt(eig.values[0]) })
        : t('s214.psdNotSymmetric'),
      eig.isPSD ? 'yes' : 'no',
    );
    root.dataset.psd = eig.isPSD ? 'yes' : 'no';
    renderCurve(eigBox, {
      x: range(size),
      series: [{ label: t('s214.lambda'), y: Array.from(eig.values) }],
      xLabel: t('s214.index'),
      yLabel: t('s214.lambda'),
    });
  }
  n.input.addEventListener('input', update);
  scheme.input.addEventListener('change', update);
  onLang(update);
  localize(root);
  update();
}

export function mount(root, { rp, part }) {
  if (part === 'lowrank') mountLowRank(root, rp);
  else if (part === 'eig') mountEig(root, rp);
  else mountSpectrum(root, rp);
}
