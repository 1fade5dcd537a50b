// 2.1.8 Numerical stability (r is the distance, d the dimension). Part "bound": the sinusoidal bound C
// and the growth of a bias b against e^{b} (named objects, 2.1.8-a). Part "deriv": f′(r) analytic
// against finite differences (2.1.8-b). Part "precision": rotary angles in float32 / float16 / bfloat16
// against float64 (2.1.8-c). Part "softmax": the naive float32 softmax against the core's (2.1.8-d).
import { renderCurve } from '../../components/relpos-curve.js';
import {
  biasGrowth,
  derivativeCheck,
  precisionBreaks,
  PRECISION_POSITIONS,
  sinusoidalBound,
  softmaxOverflow,
} from '../verdicts.js';
import { controls, el, figure, fmt, localize, onLang, schemeOptions, select, slider, stat, t } from '../ui.js';

function mountBound(root, rp) {
  const d = slider({ key: 's218.d', min: 8, max: 256, step: 8, value: 64, name: 'd', unit: 'ui.unit.dims' });
  const cStat = stat('s218.C', 'C');
  const scheme = select({
    key: 's218.scheme',
    name: 'bscheme',
    value: 'alibi',
    options: schemeOptions(['alibi', 'kerple-log', 't5', 'exp-decay', 'sin-freq', 'sandwich']),
  });
  const growth = stat('s218.growth', 'growth');
  const expMax = stat('s218.expMax', 'expMax');
  root.append(
    controls(d.root, scheme.root),
    figure('2.1.8-a', 's218.fig.a', el('div', { className: 'stats' }, cStat.root, growth.root, expMax.root)),
  );

  function update() {
    const pe = sinusoidalBound(rp, d.value);
    cStat.set(t('s218.CValue', { C: fmt(pe.C), measured: fmt(pe.measured), element: fmt(pe.elementBound) }));
    const g = biasGrowth(rp, scheme.value);
    const grows = g.growth > 1 + 1e-3;
    growth.set(
      t(grows ? 's218.growthGrows' : 's218.growthStays', { small: fmt(g.small), large: fmt(g.large) }),
      grows ? 'no' : 'yes',
    );
    expMax.set(fmt(g.expMax), g.expMax <= 1 ? 'yes' : 'no');
  }
  d.input.addEventListener('input', update);
  scheme.input.addEventListener('change', update);
  onLang(update);
  localize(root);
  update();
}

function mountDeriv(root, rp) {
  const scheme = select({
    key: 's218.derivScheme',
    name: 'dscheme',
    value: 'kerple-log',
    options: schemeOptions(['alibi', 'kerple-log', 'kerple-power', 'sin-freq', 'sandwich', 'exp-decay']),
  });
  const box = el('div', { className: 'curve-box' });
  const fd = stat('s218.fd', 'fd');
  root.append(controls(scheme.root), el('div', { className: 'stats' }, fd.root), figure('2.1.8-b', 's218.fig.b', box));

  function update() {
    const c = derivativeCheck(rp, scheme.value);
    fd.set(fmt(c.worst), c.worst < 1e-2 ? 'yes' : 'no');
    renderCurve(box, {
      x: c.at,
      series: [
        { label: t('s218.f'), y: Array.from(c.value) },
        { label: t('s218.fprime'), y: Array.from(c.derivative) },
      ],
      xLabel: t('s218.distance'),
      yLabel: t('s218.value'),
    });
  }
  scheme.input.addEventListener('change', update);
  onLang(update);
  localize(root);
  update();
}

function mountPrecision(root, rp) {
  const base = select({
    key: 's218.base',
    name: 'base',
    value: '10000',
    options: ['10000', '500000'].map((v) => ({ value: v, text: v })),
  });
  const box = el('div', { className: 'curve-box' });
  const dtypes = ['float32', 'float16', 'bfloat16'];
  const stats = dtypes.map((dtype) => stat(`s218.breaks.${dtype}`, `breaks-${dtype}`));
  root.append(
    controls(base.root),
    el('div', { className: 'stats' }, ...stats.map((s) => s.root)),
    figure('2.1.8-c', 's218.fig.c', box),
  );

  function update() {
    const b = precisionBreaks(rp, Number(base.value));
    dtypes.forEach((dtype, index) => {
      const at = b[dtype].breaksAt;
      stats[index].set(
        Number.isFinite(at) ? t('s218.breaksAt', { m: at.toLocaleString('en') }) : t('s218.neverBreaks'),
        Number.isFinite(at) ? 'no' : 'yes',
      );
    });
    renderCurve(box, {
      x: PRECISION_POSITIONS,
      series: dtypes.map((dtype) => ({
        label: dtype,
        y: Array.from(b[dtype].error, (v) => (v > 0 && Number.isFinite(v) ? v : null)),
      })),
      xLabel: t('s218.position'),
      yLabel: t('s218.rotError'),
      log: true,
      logX: true,
    });
  }
  base.input.addEventListener('change', update);
  onLang(update);
  localize(root);
  update();
}

function mountSoftmax(root, rp) {
  const scale = slider({ key: 's218.scale', min: 1, max: 200, step: 1, value: 20, name: 'scale' });
  const naive = stat('s218.naive', 'naive');
  const stable = stat('s218.stable', 'stable');
  const largest = stat('s218.largest', 'largest');
  root.append(
    controls(scale.root),
    figure('2.1.8-d', 's218.fig.d', el('div', { className: 'stats' }, largest.root, naive.root, stable.root)),
  );

  function update() {
    const s = softmaxOverflow(rp, scale.value);
    largest.set(fmt(s.maxLogit));
    naive.set(t('s218.naiveValue', { bad: s.bad, m: s.m }), s.bad ? 'no' : 'yes');
    stable.set(t('s218.stableValue', { sum: fmt(s.stableSum, 6) }), s.stableFinite ? 'yes' : 'no');
  }
  scale.input.addEventListener('input', update);
  onLang(update);
  localize(root);
  update();
}

export function mount(root, { rp, part }) {
  if (part === 'deriv') mountDeriv(root, rp);
  else if (part === 'precision') mountPrecision(root, rp);
  else if (part === 'softmax') mountSoftmax(root, rp);
  else mountBound(root, rp);
}
