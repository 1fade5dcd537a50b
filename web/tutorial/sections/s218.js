// 2.1.8 Numerical stability (r is the distance, d the dimension). Part "bound": the sinusoidal bound C
// and the growth of a bias b against e^{b} (named objects, 2.1.8-a). Part "deriv": f′(r) analytic
// against finite differences (2.1.8-b). Part "precision": rotary angles in float32 / float16 / bfloat16
// against float64 (2.1.8-c). Part "softmax": the naive float32 softmax against the core's (2.1.8-d).
import {
  biasReadout,
  derivativeCheck,
  precisionBreaks,
  PRECISION_PIPELINES,
  PRECISION_POSITIONS,
  sinusoidalBound,
  softmaxOverflow,
} from '../verdicts.js';
import { byPart, controls, curveFigure, figure, live, statsRow } from '../demo.js';
import { fmt } from '../format.js';
import { t } from '../../i18n/index.js';
import { schemeOptions, select, slider, stat, textOptions } from '../ui.js';

// The schemes of the bias-growth check (2.1.8-a) and of the derivative check (2.1.8-b).
const GROWTH_SCHEMES = ['alibi', 'kerple-log', 't5', 'exp-decay', 'sin-freq', 'sandwich'];
const DERIVATIVE_SCHEMES = ['alibi', 'kerple-log', 'kerple-power', 'sin-freq', 'sandwich', 'exp-decay'];

function mountBound(root, rp) {
  const d = slider({ key: 's218.d', min: 8, max: 256, step: 8, value: 64, name: 'd', unit: 'ui.unit.dims' });
  const cStat = stat('s218.C', 'C');
  const normalised = stat('s218.normalised', 'normalised');
  const scheme = select({
    key: 's218.scheme',
    name: 'bscheme',
    value: 'alibi',
    options: schemeOptions(GROWTH_SCHEMES),
  });
  // Bounded or not: the one definition the 2.1.9 "Bounded?" column uses (verdicts.js boundedness).
  const growth = stat('s218.growth', 'growth');
  const expMax = stat('s218.expMax', 'expMax');
  root.append(controls(d, scheme), figure('2.1.8-a', 's218.fig.a', statsRow(cStat, normalised, growth, expMax)));

  function update() {
    const pe = sinusoidalBound(rp, d.value);
    cStat.set(t('s218.CValue', { C: fmt(pe.C), measured: fmt(pe.measured), element: fmt(pe.elementBound) }));
    // The original's normalisation of the encoding: p / C has norm 1 (measured, not assumed).
    normalised.set(t('s218.normalisedValue', { value: fmt(pe.measured / pe.C, 6) }));
    const g = biasReadout(rp, scheme.value);
    const b = g.bounded;
    const head = g.slope === null ? t('s218.head') : t('s218.headSlope', { slope: `1/${Math.round(1 / g.slope)}` });
    const words = t(`s219.value.${b.definition}`, {
      value: fmt(b.value),
      bound: b.bound === undefined ? '' : fmt(b.bound),
    });
    growth.set(t(b.verdict ? 's218.growthBounded' : 's218.growthGrows', { head, value: words }), b.verdict);
    expMax.set(fmt(g.expMax), g.expMax <= 1);
  }
  live(root, update, [d, scheme]);
}

function mountDeriv(root, rp) {
  const options = schemeOptions(DERIVATIVE_SCHEMES);
  const scheme = select({ key: 's218.derivScheme', name: 'dscheme', value: 'kerple-log', options });
  const plot = curveFigure('2.1.8-b', 's218.fig.b');
  const fd = stat('s218.fd', 'fd');
  root.append(controls(scheme), statsRow(fd), plot.root);

  function update() {
    const c = derivativeCheck(rp, scheme.value);
    fd.set(fmt(c.worst), c.worst < 1e-2);
    const series = [
      { label: t('s218.f'), y: Array.from(c.value) },
      { label: t('s218.fprime'), y: Array.from(c.derivative) },
    ];
    plot.draw(c.at, series, ['s218.distance', 's218.value']);
  }
  live(root, update, [scheme]);
}

function mountPrecision(root, rp) {
  const base = select({ key: 's218.base', name: 'base', value: '10000', options: textOptions(['10000', '500000']) });
  const plot = curveFigure('2.1.8-c', 's218.fig.c');
  // bfloat16 twice: θ and m themselves in bfloat16, and the usual pipeline (angles in float32, the
  // cos/sin tables stored in bfloat16).
  const dtypes = PRECISION_PIPELINES;
  const stats = dtypes.map((dtype) => stat(`s218.breaks.${dtype}`, `breaks-${dtype}`));
  root.append(controls(base), statsRow(...stats), plot.root);

  function update() {
    const b = precisionBreaks(rp, Number(base.value));
    dtypes.forEach((dtype, index) => {
      const at = b[dtype].breaksAt;
      const breaks = Number.isFinite(at);
      stats[index].set(breaks ? t('s218.breaksAt', { m: at.toLocaleString('en') }) : t('s218.neverBreaks'), !breaks);
    });
    const series = dtypes.map((dtype) => ({
      label: t(`s218.pipeline.${dtype}`),
      y: Array.from(b[dtype].error, (v) => (v > 0 && Number.isFinite(v) ? v : null)),
    }));
    plot.draw(PRECISION_POSITIONS, series, ['s218.position', 's218.rotError'], { log: true, logX: true });
  }
  live(root, update, [base]);
}

function mountSoftmax(root, rp) {
  const scale = slider({ key: 's218.scale', min: 1, max: 200, step: 1, value: 20, name: 'scale' });
  const naive = stat('s218.naive', 'naive');
  const stable = stat('s218.stable', 'stable');
  const largest = stat('s218.largest', 'largest');
  root.append(controls(scale), figure('2.1.8-d', 's218.fig.d', statsRow(largest, naive, stable)));

  function update() {
    const s = softmaxOverflow(rp, scale.value);
    largest.set(t('s218.largestValue', { max: fmt(s.maxLogit), abs: fmt(s.maxAbsLogit) }));
    naive.set(t('s218.naiveValue', { bad: s.bad, m: s.m }), !s.bad);
    stable.set(t('s218.stableValue', { sum: fmt(s.stableSum, 6) }), s.stableFinite);
  }
  live(root, update, [scale]);
}

export const mount = byPart({ bound: mountBound, deriv: mountDeriv, precision: mountPrecision, softmax: mountSoftmax });
