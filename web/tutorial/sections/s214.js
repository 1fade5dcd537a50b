// 2.1.4 Linear algebra (Eigen in the core). Part "spectrum": singular values, numerical and effective
// rank, condition number, top singular vectors (2.1.4-a, -b). Part "lowrank": PE rebuilt from its top k
// singular values and the error (2.1.4-c, -d). Part "eig": symmetry, eigenvalues of the symmetric part
// and the kernel verdict (2.1.4-e).
import { lowRank, spectrum, SPECTRUM_CONTROLS } from '../verdicts.js';
import { byPart, controls, curveFigure, demoRow, figure, live, range, statsRow } from '../demo.js';
import { fmt } from '../format.js';
import { t } from '../../i18n/index.js';
import { MatrixView, schemeOptions, select, slider, stat } from '../ui.js';

const IDS = SPECTRUM_CONTROLS.scheme.options;

function schemeSelect(value) {
  return select({ key: 's214.scheme', name: 'scheme', value, options: schemeOptions(IDS) });
}

/** The scheme (starting at `value`) and the size n of its PE matrix. */
const matrixControls = (value) => ({
  scheme: schemeSelect(value),
  n: slider({ key: 's214.n', ...SPECTRUM_CONTROLS.n, name: 'n', unit: 'ui.unit.positions' }),
});

/** Positive values, with the others left out of a log plot. */
const positive = (values) => Array.from(values, (v) => (v > 0 ? v : null));

function mountSpectrum(root, rp) {
  const { scheme, n } = matrixControls('sinusoidal');
  const sigma = curveFigure('2.1.4-a', 's214.fig.a');
  const modes = curveFigure('2.1.4-b', 's214.fig.b');
  const rank = stat('s214.rank', 'rank');
  const effRank = stat('s214.effRank', 'effRank');
  const cond = stat('s214.cond', 'cond');
  root.append(controls(scheme, n), statsRow(rank, effRank, cond), demoRow(sigma, modes));

  function update() {
    const size = n.value;
    const { svd } = spectrum(rp, scheme.value, size);
    rank.set(t('s214.rankValue', { rank: svd.rank, n: size, tolerance: fmt(svd.tolerance) }));
    effRank.set(fmt(svd.effectiveRank));
    cond.set(svd.conditionNumber === Infinity ? t('s214.condInfinite') : fmt(svd.conditionNumber));
    root.dataset.rank = String(svd.rank);
    const index = range(size);
    const values = [{ label: t('s214.sigma'), y: positive(svd.singularValues) }];
    sigma.draw(range(size, 1), values, ['s214.index', 's214.sigma'], { log: true });
    const k = svd.U.shape[1];
    const vectors = [0, 1, 2].map((c) => ({
      label: t('s214.mode', { k: c + 1 }),
      y: index.map((i) => svd.U.data[i * k + c]),
    }));
    modes.draw(index, vectors, ['s214.position', 's214.component']);
  }
  live(root, update, [n, scheme]);
}

function mountLowRank(root, rp) {
  const size = 64;
  const scheme = schemeSelect('sinusoidal');
  const k = slider({ key: 's214.k', min: 1, max: size, value: 8, name: 'k' });
  const original = new MatrixView({ unitKey: 's214.unit' });
  const rebuilt = new MatrixView({ unitKey: 's214.unit' });
  const errors = curveFigure('2.1.4-d', 's214.fig.d');
  const error = stat('s214.error', 'error');
  root.append(
    controls(scheme, k),
    demoRow(figure('2.1.4-c', 's214.fig.c', demoRow(original, rebuilt)), errors),
    statsRow(error),
  );
  let cached = null;

  function update() {
    if (!cached || cached.id !== scheme.value) {
      const { M, svd } = spectrum(rp, scheme.value, size);
      cached = { id: scheme.value, M, svd, errors: range(size + 1).map((c) => lowRank(M, svd, c).predicted) };
    }
    const { M, svd } = cached;
    const r = lowRank(M, svd, k.value);
    const drawn = original.show(M);
    rebuilt.show(r.approx, { range: drawn.range, colormap: drawn.colormap });
    error.set(t('s214.errorValue', { k: k.value, measured: fmt(r.error), predicted: fmt(r.predicted) }));
    root.dataset.error = String(r.error);
    const series = [{ label: t('s214.errorLabel'), y: positive(cached.errors) }];
    errors.draw(range(size + 1), series, ['s214.kAxis', 's214.errorLabel'], { log: true });
  }
  live(root, update, [k, scheme]);
}

function mountEig(root, rp) {
  const { scheme, n } = matrixControls('sin-freq');
  const plot = curveFigure('2.1.4-e', 's214.fig.e');
  const symmetric = stat('s214.symmetric', 'symmetric');
  const psd = stat('s214.psd', 'psd');
  root.append(controls(scheme, n), statsRow(symmetric, psd), plot.root);

  function update() {
    const size = n.value;
    const { eig } = spectrum(rp, scheme.value, size);
    symmetric.set(t(eig.symmetric ? 's214.symYes' : 's214.symNo', { asym: fmt(eig.asymmetry) }), eig.symmetric);
    const psdText = t(eig.isPSD ? 's214.psdYes' : 's214.psdNo', { min: fmt(eig.values[0]) });
    psd.set(eig.symmetric ? psdText : t('s214.psdNotSymmetric'), eig.isPSD);
    root.dataset.psd = eig.isPSD ? 'yes' : 'no';
    plot.draw(range(size), [{ label: t('s214.lambda'), y: Array.from(eig.values) }], ['s214.index', 's214.lambda']);
  }
  live(root, update, [n, scheme]);
}

export const mount = byPart({ spectrum: mountSpectrum, lowrank: mountLowRank, eig: mountEig });
