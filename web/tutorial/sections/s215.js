// 2.1.5 Probability. Part "gp": is a stationary k(r) a covariance function (symmetry, then PSD), and
// the original's view f(r) ~ GP(m(r), k(r, r′)): samples of f over r and the bias matrix one of them
// induces (2.1.5-a … -d). Part "bayes": prior, observed attention logits, posterior (2.1.5-e). Part
// "entropy": attention entropy per row and of p(r) under a decay and a temperature (2.1.5-f).
import { renderCurve } from '../../components/relpos-curve.js';
import { attentionEntropy, BAYES, bayes, gpPrior, PROFILES, profileKernel, profileValues } from '../verdicts.js';
import { controls, el, figure, fmt, localize, MatrixView, onLang, select, slider, stat, t } from '../ui.js';

const range = (n, from = 0) => Array.from({ length: n }, (_, i) => from + i);

function mountGp(root, rp) {
  const profile = select({
    key: 's215.profile',
    name: 'profile',
    value: 'exp-decay',
    options: Object.keys(PROFILES).map((p) => ({ value: p, key: `s215.profile.${p}` })),
  });
  const param = slider({ key: 's215.param', min: 0.01, max: 1, step: 0.01, value: 0.1, name: 'param' });
  const n = slider({ key: 's215.n', min: 16, max: 128, step: 8, value: 64, name: 'n', unit: 'ui.unit.positions' });
  const slope = slider({ key: 's215.meanSlope', min: 0, max: 0.5, step: 0.05, value: 0.1, name: 'slope' });
  const symmetric = stat('s215.symmetric', 'symmetric');
  const psd = stat('s215.psd', 'psd');
  const verdict = el('p', { className: 'verdict', attrs: { 'aria-live': 'polite' } });
  const profileBox = el('div', { className: 'curve-box' });
  const eigBox = el('div', { className: 'curve-box' });
  const samplesBox = el('div', { className: 'curve-box' });
  const biasView = new MatrixView({ unitKey: 's215.biasUnit' });
  const noSamples = el('p', { className: 'note' });
  const samplesFigures = el(
    'div',
    { className: 'demo-row' },
    figure('2.1.5-c', 's215.fig.c', samplesBox),
    figure('2.1.5-d', 's215.fig.d', biasView.root),
  );
  root.append(
    controls(profile.root, param.root, n.root, slope.root),
    el('div', { className: 'stats' }, symmetric.root, psd.root, verdict),
    el(
      'div',
      { className: 'demo-row' },
      figure('2.1.5-a', 's215.fig.a', profileBox),
      figure('2.1.5-b', 's215.fig.b', eigBox),
    ),
    samplesFigures,
    noSamples,
  );

  function selectProfile() {
    const p = PROFILES[profile.value];
    Object.assign(param.input, { min: p.min, max: p.max, step: p.step });
    param.value = p.value;
    param.root.querySelector('span').dataset.i18n = `s215.param.${p.param}`;
    localize(param.root);
  }

  function update() {
    const size = n.value;
    const name = profile.value;
    const check = profileKernel(rp, name, param.value, size);
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
    const r = range(2 * size - 1, -(size - 1));
    // The box window has no analytic form in the core (rp.analysis.derivative): its curve is left out.
    profileBox.closest('figure').style.display = name === 'box' ? 'none' : '';
    if (name !== 'box') {
      renderCurve(profileBox, {
        x: r,
        series: [{ label: t('s215.k'), y: profileValues(rp, { name, [PROFILES[name].param]: param.value }, size) }],
        xLabel: t('s215.r'),
        yLabel: t('s215.k'),
      });
    }
    renderCurve(eigBox, {
      x: range(size),
      series: [{ label: t('s215.lambda'), y: Array.from(check.eigenvalues) }],
      xLabel: t('s215.index'),
      yLabel: t('s215.lambda'),
    });
    if (check.isPSD) {
      const prior = gpPrior(rp, { name, value: param.value, n: size, slope: slope.value });
      renderCurve(samplesBox, {
        x: prior.r,
        series: [
          { label: t('s215.meanLabel'), y: prior.mean },
          ...prior.samples.map((y, c) => ({ label: t('s215.sample', { k: c + 1 }), y })),
        ],
        xLabel: t('s215.r'),
        yLabel: t('s215.f'),
      });
      biasView.show(prior.bias);
      samplesFigures.style.display = '';
      noSamples.textContent = '';
    } else {
      samplesFigures.style.display = 'none';
      noSamples.textContent = t('s215.noSamples');
    }
  }

  profile.input.addEventListener('change', () => {
    selectProfile();
    update();
  });
  for (const c of [param, n, slope]) c.input.addEventListener('input', update);
  onLang(update);
  localize(root);
  selectProfile();
  update();
}

function mountBayes(root, rp) {
  const count = slider({ key: 's215.count', min: 0, max: 16, value: 4, name: 'count' });
  const sigma = slider({
    key: 's215.lengthScale',
    min: 1,
    max: 12,
    step: 0.5,
    value: 4,
    name: 'sigma',
    unit: 'ui.unit.positions',
  });
  const slope = slider({ key: 's215.meanSlope', min: 0, max: 0.5, step: 0.05, value: 0.1, name: 'slope' });
  const box = el('div', { className: 'curve-box' });
  const error = stat('s215.bayesError', 'bayes-error');
  root.append(
    controls(count.root, sigma.root, slope.root),
    figure('2.1.5-e', 's215.fig.e', box),
    el('div', { className: 'stats' }, error.root),
  );

  function update() {
    const b = bayes(rp, { count: count.value, sigma: sigma.value, slope: slope.value });
    const r = range(BAYES.R);
    const observed = r.map((x) => {
      const at = b.at.indexOf(x);
      return at < 0 ? null : b.y[at];
    });
    const mean = Array.from(b.posterior.mean);
    renderCurve(box, {
      x: r,
      series: [
        { label: t('s215.truth'), y: b.truth },
        { label: t('s215.priorMean'), y: b.prior.mean },
        { label: t('s215.postMean'), y: mean },
        { label: t('s215.postLow'), y: mean.map((m, i) => m - 2 * b.posterior.std[i]) },
        { label: t('s215.postHigh'), y: mean.map((m, i) => m + 2 * b.posterior.std[i]) },
        { label: t('s215.observed'), y: observed },
      ],
      xLabel: t('s215.pastDistance'),
      yLabel: t('s215.logit'),
    });
    error.set(t('s215.bayesErrorValue', { prior: fmt(b.priorError), post: fmt(b.posteriorError) }));
    root.dataset.posteriorError = String(b.posteriorError);
  }
  for (const c of [count, sigma, slope]) c.input.addEventListener('input', update);
  onLang(update);
  localize(root);
  update();
}

function mountEntropy(root, rp) {
  const lambda = slider({ key: 's215.decay', min: 0, max: 1, step: 0.01, value: 0.1, name: 'decay' });
  const temperature = slider({ key: 's215.temperature', min: 0.1, max: 4, step: 0.1, value: 1, name: 'temperature' });
  const box = el('div', { className: 'curve-box' });
  const hRow = stat('s215.rowEntropy', 'rowEntropy');
  const hDist = stat('s215.distEntropy', 'distEntropy');
  root.append(
    controls(lambda.root, temperature.root),
    el('div', { className: 'stats' }, hRow.root, hDist.root),
    figure('2.1.5-f', 's215.fig.f', box),
  );

  function update() {
    const h = attentionEntropy(rp, { lambda: lambda.value, tau: temperature.value });
    hRow.set(t('s215.rowEntropyValue', { mean: fmt(h.rowEntropy), max: fmt(h.uniformRow) }));
    hDist.set(
      t('s215.distEntropyValue', {
        h: fmt(h.distanceEntropy),
        mean: fmt(h.meanDistance),
        max: fmt(h.maxDistanceEntropy),
      }),
    );
    root.dataset.entropy = String(h.distanceEntropy);
    renderCurve(box, {
      x: range(h.rows.length),
      series: [
        { label: t('s215.rowEntropyShort'), y: Array.from(h.rows) },
        { label: t('s215.uniformShort'), y: h.uniformRows },
      ],
      xLabel: t('s215.query'),
      yLabel: t('s215.nats'),
    });
  }
  for (const c of [lambda, temperature]) c.input.addEventListener('input', update);
  onLang(update);
  localize(root);
  update();
}

export function mount(root, { rp, part }) {
  if (part === 'bayes') mountBayes(root, rp);
  else if (part === 'entropy') mountEntropy(root, rp);
  else mountGp(root, rp);
}
