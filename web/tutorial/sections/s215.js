// 2.1.5 Probability. Part "gp": is a stationary k(r) a covariance function (symmetry, then PSD), and
// the original's view f(r) ~ GP(m(r), k(r, r′)): samples of f over r and the bias matrix one of them
// induces (2.1.5-a … -d). Part "bayes": prior, observed attention logits, posterior (2.1.5-e). Part
// "entropy": attention entropy per row and of p(r) under a decay and a temperature (2.1.5-f).
import {
  attentionEntropy,
  BAYES,
  bayes,
  BAYES_CONTROLS,
  gpPrior,
  PROFILES,
  profileKernel,
  profileValues,
} from '../verdicts.js';
import { byPart, controls, curveFigure, demoRow, figure, live, range, statsRow } from '../demo.js';
import { fmt } from '../format.js';
import { t } from '../../i18n/index.js';
import { el, keyedOptions, localize, MatrixView, select, slider, stat, verdictLine } from '../ui.js';

const slopeSlider = () => slider({ key: 's215.meanSlope', ...BAYES_CONTROLS.slope, name: 'slope' });

/** The verdicts on kernel k: symmetric? positive semi-definite? a valid covariance function? */
function showKernelVerdict({ symmetric, psd, verdict }, check) {
  symmetric.set(t(check.symmetric ? 's215.symYes' : 's215.symNo', { asym: fmt(check.asymmetry) }), check.symmetric);
  const psdText = t(check.isPSD ? 's215.psdYes' : 's215.psdNo', { min: fmt(check.minEigenvalue) });
  psd.set(check.symmetric ? psdText : t('s215.psdSkipped'), check.isPSD);
  verdict.set(t(check.isPSD ? 's215.valid' : check.symmetric ? 's215.invalidPSD' : 's215.invalidSym'), check.isPSD);
}

/** The GP's mean and samples of f over r (2.1.5-c) and the bias matrix the first sample induces (2.1.5-d). */
function gpSamples() {
  const samples = curveFigure('2.1.5-c', 's215.fig.c');
  const bias = new MatrixView({ unitKey: 's215.biasUnit' });
  const root = demoRow(samples, figure('2.1.5-d', 's215.fig.d', bias.root));
  const note = el('p', { className: 'note' });
  return {
    parts: [root, note],
    show(prior) {
      const series = [
        { label: t('s215.meanLabel'), y: prior.mean },
        ...prior.samples.map((y, c) => ({ label: t('s215.sample', { k: c + 1 }), y })),
      ];
      samples.draw(prior.r, series, ['s215.r', 's215.f']);
      bias.show(prior.bias);
      root.style.display = '';
      note.textContent = '';
    },
    // Only a valid covariance function has samples.
    none() {
      root.style.display = 'none';
      note.textContent = t('s215.noSamples');
    },
  };
}

function mountGp(root, rp) {
  const profile = select({
    key: 's215.profile',
    name: 'profile',
    value: 'exp-decay',
    options: keyedOptions('s215.profile', Object.keys(PROFILES)),
  });
  const param = slider({ key: 's215.param', min: 0.01, max: 1, step: 0.01, value: 0.1, name: 'param' });
  const n = slider({ key: 's215.n', min: 16, max: 128, step: 8, value: 64, name: 'n', unit: 'ui.unit.positions' });
  const slope = slopeSlider();
  const verdicts = {
    symmetric: stat('s215.symmetric', 'symmetric'),
    psd: stat('s215.psd', 'psd'),
    verdict: verdictLine(),
  };
  const kernel = curveFigure('2.1.5-a', 's215.fig.a');
  const eigenvalues = curveFigure('2.1.5-b', 's215.fig.b');
  const samples = gpSamples();
  root.append(
    controls(profile, param, n, slope),
    statsRow(verdicts.symmetric, verdicts.psd, verdicts.verdict),
    demoRow(kernel, eigenvalues),
    ...samples.parts,
  );

  // Each profile has its own parameter, range and default.
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
    showKernelVerdict(verdicts, check);
    root.dataset.kernel = check.isPSD ? 'valid' : 'invalid';
    // The box window has no analytic form in the core (rp.analysis.derivative): its curve is left out.
    kernel.root.style.display = name === 'box' ? 'none' : '';
    if (name !== 'box') {
      const k = profileValues(rp, { name, [PROFILES[name].param]: param.value }, size);
      kernel.draw(range(2 * size - 1, -(size - 1)), [{ label: t('s215.k'), y: k }], ['s215.r', 's215.k']);
    }
    const lambda = [{ label: t('s215.lambda'), y: Array.from(check.eigenvalues) }];
    eigenvalues.draw(range(size), lambda, ['s215.index', 's215.lambda']);
    if (check.isPSD) samples.show(gpPrior(rp, { name, value: param.value, n: size, slope: slope.value }));
    else samples.none();
  }

  profile.input.addEventListener('change', selectProfile);
  selectProfile();
  live(root, update, [profile, param, n, slope]);
}

function mountBayes(root, rp) {
  const count = slider({ key: 's215.count', ...BAYES_CONTROLS.count, name: 'count' });
  const sigma = slider({ key: 's215.lengthScale', ...BAYES_CONTROLS.sigma, name: 'sigma', unit: 'ui.unit.positions' });
  const slope = slopeSlider();
  const plot = curveFigure('2.1.5-e', 's215.fig.e');
  const error = stat('s215.bayesError', 'bayes-error');
  root.append(controls(count, sigma, slope), plot.root, statsRow(error));

  function update() {
    const b = bayes(rp, { count: count.value, sigma: sigma.value, slope: slope.value });
    const r = range(BAYES.R);
    const observed = r.map((x) => {
      const at = b.at.indexOf(x);
      return at < 0 ? null : b.y[at];
    });
    const mean = Array.from(b.posterior.mean);
    const series = [
      { label: t('s215.truth'), y: b.truth },
      { label: t('s215.priorMean'), y: b.prior.mean },
      { label: t('s215.postMean'), y: mean },
      { label: t('s215.postLow'), y: mean.map((m, i) => m - 2 * b.posterior.std[i]) },
      { label: t('s215.postHigh'), y: mean.map((m, i) => m + 2 * b.posterior.std[i]) },
      { label: t('s215.observed'), y: observed },
    ];
    plot.draw(r, series, ['s215.pastDistance', 's215.logit']);
    error.set(t('s215.bayesErrorValue', { prior: fmt(b.priorError), post: fmt(b.posteriorError) }));
    root.dataset.posteriorError = String(b.posteriorError);
  }
  live(root, update, [count, sigma, slope]);
}

function mountEntropy(root, rp) {
  const lambda = slider({ key: 's215.decay', min: 0, max: 1, step: 0.01, value: 0.1, name: 'decay' });
  const temperature = slider({ key: 's215.temperature', min: 0.1, max: 4, step: 0.1, value: 1, name: 'temperature' });
  const plot = curveFigure('2.1.5-f', 's215.fig.f');
  const hRow = stat('s215.rowEntropy', 'rowEntropy');
  const hDist = stat('s215.distEntropy', 'distEntropy');
  root.append(controls(lambda, temperature), statsRow(hRow, hDist), plot.root);

  function update() {
    const h = attentionEntropy(rp, { lambda: lambda.value, tau: temperature.value });
    hRow.set(t('s215.rowEntropyValue', { mean: fmt(h.rowEntropy), max: fmt(h.uniformRow) }));
    const dist = { h: fmt(h.distanceEntropy), mean: fmt(h.meanDistance), max: fmt(h.maxDistanceEntropy) };
    hDist.set(t('s215.distEntropyValue', dist));
    root.dataset.entropy = String(h.distanceEntropy);
    const series = [
      { label: t('s215.rowEntropyShort'), y: Array.from(h.rows) },
      { label: t('s215.uniformShort'), y: h.uniformRows },
    ];
    plot.draw(range(h.rows.length), series, ['s215.query', 's215.nats']);
  }
  live(root, update, [lambda, temperature]);
}

export const mount = byPart({ gp: mountGp, bayes: mountBayes, entropy: mountEntropy });
