// 2.1.4 Linear algebra: singular values, effective rank, condition number, eigenvalues of the
// symmetric part, and the top singular vectors of the position matrix S (Eigen in the core).
import { renderCurve } from '../../components/relpos-curve.js';
import { controls, el, fmt, localize, onLang, select, slider, stat, t } from '../ui.js';

export function mount(root, { rp }) {
  const ids = ['alibi', 't5', 'kerple-log', 'exp-decay', 'sin-freq', 'sinusoidal', 'rope', 'fire'];
  const scheme = select({
    key: 's214.scheme',
    name: 'scheme',
    value: 'sinusoidal',
    options: ids.map((id) => ({ value: id, text: rp.schemes.find((s) => s.id === id).name })),
  });
  const n = slider({ key: 's214.n', min: 16, max: 256, step: 16, value: 64, name: 'n' });
  const spectrum = el('div', { className: 'curve-box' });
  const eigen = el('div', { className: 'curve-box' });
  const modes = el('div', { className: 'curve-box' });
  const rank = stat('s214.effRank', 'effRank');
  const cond = stat('s214.cond', 'cond');
  const psd = stat('s214.psd', 'psd');
  root.append(
    controls(scheme.root, n.root),
    el('div', { className: 'stats' }, rank.root, cond.root, psd.root),
    el('div', { className: 'demo-row' }, spectrum, eigen),
    modes,
  );

  function update() {
    const size = n.value;
    const S = rp.scores(scheme.value, { n: size, d: 32, heads: 1 });
    const M = { shape: [size, size], data: S.data };
    const svd = rp.analysis.svd(M, { vectors: true });
    const eig = rp.analysis.eig(M);
    rank.set(t('s214.effRankValue', { value: fmt(svd.effectiveRank), rank: svd.rank, n: size }));
    cond.set(fmt(svd.conditionNumber));
    psd.set(t(eig.isPSD ? 's214.psdYes' : 's214.psdNo', { min: fmt(eig.values[0]) }), eig.isPSD ? 'yes' : 'no');
    const index = Array.from({ length: size }, (_, i) => i);
    const positive = Array.from(svd.singularValues, (v) => (v > 0 ? v : null));
    renderCurve(spectrum, {
      x: index,
      series: [{ label: t('s214.sigma'), y: positive }],
      xLabel: t('s214.index'),
      yLabel: t('s214.sigma'),
      log: true,
      title: t('s214.spectrumTitle'),
    });
    renderCurve(eigen, {
      x: index,
      series: [{ label: t('s214.lambda'), y: Array.from(eig.values) }],
      xLabel: t('s214.index'),
      yLabel: t('s214.lambda'),
      title: t('s214.eigTitle'),
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
      title: t('s214.modesTitle'),
    });
  }
  n.input.addEventListener('input', update);
  scheme.input.addEventListener('change', update);
  onLang(update);
  localize(root);
  update();
}
