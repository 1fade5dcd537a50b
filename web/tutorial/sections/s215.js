// 2.1.5 Probability: is a stationary profile k(r) a covariance? Symmetry first, then PSD of
// K_ij = k(j − i) (kernelCheck); GP samples from the valid ones (Cholesky in the core); attention
// entropy per row and the entropy of the attention-weighted distance distribution p(r).
import { renderCurve } from '../../components/relpos-curve.js';
import { controls, el, fmt, localize, onLang, randomTensor, select, slider, stat, t, words } from '../ui.js';

const PROFILES = {
  'exp-decay': { param: 'lambda', min: 0.01, max: 1, step: 0.01, value: 0.1 },
  gaussian: { param: 'sigma', min: 0.5, max: 16, step: 0.5, value: 4 },
  cosine: { param: 'omega', min: 0.05, max: 2, step: 0.05, value: 0.5 },
  sinc: { param: 'omega', min: 0.05, max: 2, step: 0.05, value: 0.5 },
  box: { param: 'width', min: 1, max: 16, step: 1, value: 4 },
  sin: { param: 'alpha', min: 1, max: 32, step: 1, value: 8 },
  'sin-even': { param: 'alpha', min: 1, max: 32, step: 1, value: 8 },
};

export function mount(root, { rp }) {
  const profile = select({
    key: 's215.profile',
    name: 'profile',
    value: 'sin',
    options: Object.keys(PROFILES).map((p) => ({ value: p, key: `s215.profile.${p}` })),
  });
  const param = slider({ key: 's215.param', min: 0.01, max: 1, step: 0.01, value: 0.1, name: 'param' });
  const n = slider({ key: 's215.n', min: 16, max: 128, step: 8, value: 64, name: 'n' });
  const symmetric = stat('s215.symmetric', 'symmetric');
  const psd = stat('s215.psd', 'psd');
  const verdict = el('p', { className: 'verdict', attrs: { 'aria-live': 'polite' } });
  const profileBox = el('div', { className: 'curve-box' });
  const eigBox = el('div', { className: 'curve-box' });
  const samplesBox = el('div', { className: 'curve-box' });
  const noSamples = el('p', { className: 'note' });
  // Entropy part
  const lambda = slider({ key: 's215.decay', min: 0, max: 1, step: 0.01, value: 0.1, name: 'decay' });
  const temperature = slider({ key: 's215.temperature', min: 0.1, max: 4, step: 0.1, value: 1, name: 'temperature' });
  const entropyBox = el('div', { className: 'curve-box' });
  const hRow = stat('s215.rowEntropy', 'rowEntropy');
  const hDist = stat('s215.distEntropy', 'distEntropy');
  root.append(
    controls(profile.root, param.root, n.root),
    el('div', { className: 'stats' }, symmetric.root, psd.root, verdict),
    el('div', { className: 'demo-row' }, profileBox, eigBox),
    samplesBox,
    noSamples,
    el('h3', {}, words('s215.h.entropy')),
    el('p', {}, words('s215.p.entropy')),
    controls(lambda.root, temperature.root),
    el('div', { className: 'stats' }, hRow.root, hDist.root),
    entropyBox,
  );

  function spec() {
    return { name: profile.value, [PROFILES[profile.value].param]: param.value };
  }

  function selectProfile() {
    const p = PROFILES[profile.value];
    Object.assign(param.input, { min: p.min, max: p.max, step: p.step });
    param.value = p.value;
    param.root.querySelector('span').dataset.i18n = `s215.param.${p.param}`;
    localize(param.root);
  }

  function updateKernel() {
    const size = n.value;
    const prof = spec();
    const check = rp.analysis.kernelCheck(prof, { n: size });
    symmetric.set(
      t(check.symmetric ? 's215.symYes' : 's215.symNo', { asym: fmt(check.asymmetry) }),
      check.symmetric ? 'yes' : 'no',
    );
    psd.set(
      check.symmetric
        ? t(check.isPSD ? 's215.psdYes' : 's215.psdNo', { min: fmt(check.minEigenvalue) })
        : t('s215.psdSkipped'),
      check.isPSD ? 'yes' : 'no',
    );
    verdict.textContent = t(check.isPSD ? 's215.valid' : check.symmetric ? 's215.invalidPSD' : 's215.invalidSym');
    verdict.dataset.kind = check.isPSD ? 'yes' : 'no';
    root.dataset.kernel = check.isPSD ? 'valid' : 'invalid';
    const r = Array.from({ length: 2 * size - 1 }, (_, i) => i - (size - 1));
    if (profile.value !== 'box') {
      const { value } = rp.analysis.derivative(prof, { n: size });
      renderCurve(profileBox, {
        x: r,
        series: [{ label: t('s215.k'), y: Array.from(value) }],
        xLabel: t('s215.r'),
        yLabel: t('s215.k'),
        title: t('s215.profileTitle'),
      });
      profileBox.hidden = false;
    } else {
      profileBox.hidden = true;
    }
    renderCurve(eigBox, {
      x: Array.from({ length: size }, (_, i) => i),
      series: [{ label: t('s215.lambda'), y: Array.from(check.eigenvalues) }],
      xLabel: t('s215.index'),
      yLabel: t('s215.lambda'),
      title: t('s215.eigTitle'),
    });
    if (check.isPSD) {
      const samples = rp.analysis.gpSample(prof, { n: size, count: 3, seed: 1 });
      renderCurve(samplesBox, {
        x: Array.from({ length: size }, (_, i) => i),
        series: [0, 1, 2].map((c) => ({
          label: t('s215.sample', { k: c + 1 }),
          y: Array.from(samples.data.subarray(c * size, (c + 1) * size)),
        })),
        xLabel: t('s215.position'),
        yLabel: t('s215.f'),
        title: t('s215.samplesTitle'),
      });
      samplesBox.hidden = false;
      noSamples.textContent = '';
    } else {
      samplesBox.hidden = true;
      noSamples.textContent = t('s215.noSamples');
    }
  }

  function updateEntropy() {
    const size = 64;
    const d = 16;
    const scale = 1 / temperature.value;
    const q = randomTensor(size, d, 3, scale);
    const k = randomTensor(size, d, 4);
    const { weights } = rp.attention({
      q,
      k,
      scheme: 'exp-decay',
      params: { lambda: Math.max(lambda.value, 1e-6) },
      causal: true,
    });
    const H = rp.analysis.entropy(weights);
    const dist = rp.analysis.distanceEntropy({ shape: [size, size], data: weights.data });
    let mean = 0;
    for (const h of H) mean += h / H.length;
    hRow.set(t('s215.rowEntropyValue', { mean: fmt(mean), max: fmt(Math.log(size)) }));
    hDist.set(t('s215.distEntropyValue', { h: fmt(Number(dist.entropy)), mean: fmt(Number(dist.meanDistance)) }));
    root.dataset.entropy = String(dist.entropy);
    renderCurve(entropyBox, {
      x: Array.from({ length: size }, (_, i) => i),
      series: [{ label: t('s215.rowEntropyShort'), y: Array.from(H) }],
      xLabel: t('s215.query'),
      yLabel: t('s215.nats'),
      title: t('s215.entropyTitle'),
    });
  }

  profile.input.addEventListener('change', () => {
    selectProfile();
    updateKernel();
  });
  for (const c of [param, n]) c.input.addEventListener('input', updateKernel);
  for (const c of [lambda, temperature]) c.input.addEventListener('input', updateEntropy);
  onLang(() => {
    updateKernel();
    updateEntropy();
  });
  localize(root);
  selectProfile();
  updateKernel();
  updateEntropy();
}
