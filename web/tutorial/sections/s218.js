// 2.1.8 Numerical stability: the bound C, analytic f'(d) checked by finite differences, the float32 /
// float16 / bfloat16 error of RoPE angles m·θ against float64, and softmax overflow without the max trick.
import { renderCurve } from '../../components/relpos-curve.js';
import { controls, el, fmt, localize, onLang, randomTensor, select, slider, stat, t, words } from '../ui.js';
import { bounded } from '../verdicts.js';

export function mount(root, { rp }) {
  const d = slider({ key: 's218.d', min: 8, max: 256, step: 8, value: 64, name: 'd' });
  const cStat = stat('s218.C', 'C');
  const boundScheme = select({
    key: 's218.scheme',
    name: 'bscheme',
    value: 'alibi',
    options: ['alibi', 'kerple-log', 't5', 'exp-decay', 'sinusoidal', 'rope'].map((id) => ({
      value: id,
      text: rp.schemes.find((s) => s.id === id).name,
    })),
  });
  const growth = stat('s218.growth', 'growth');
  const derivScheme = select({
    key: 's218.derivScheme',
    name: 'dscheme',
    value: 'kerple-log',
    options: ['alibi', 'kerple-log', 'kerple-power', 'sin-freq', 'sandwich', 'exp-decay'].map((id) => ({
      value: id,
      text: rp.schemes.find((s) => s.id === id).name,
    })),
  });
  const derivBox = el('div', { className: 'curve-box' });
  const fdStat = stat('s218.fd', 'fd');
  const base = select({
    key: 's218.base',
    name: 'base',
    value: '10000',
    options: ['10000', '500000'].map((v) => ({ value: v, text: v })),
  });
  const precBox = el('div', { className: 'curve-box' });
  const precStats = ['float32', 'float16', 'bfloat16'].map((dtype) => stat(`s218.breaks.${dtype}`, `breaks-${dtype}`));
  const scale = slider({ key: 's218.scale', min: 1, max: 200, step: 1, value: 20, name: 'scale' });
  const naive = stat('s218.naive', 'naive');
  const stable = stat('s218.stable', 'stable');
  root.append(
    el('h3', {}, words('s218.h.bound')),
    controls(d.root, boundScheme.root),
    el('div', { className: 'stats' }, cStat.root, growth.root),
    el('h3', {}, words('s218.h.deriv')),
    controls(derivScheme.root),
    el('div', { className: 'stats' }, fdStat.root),
    derivBox,
    el('h3', {}, words('s218.h.precision')),
    el('p', {}, words('s218.p.precision')),
    controls(base.root),
    el('div', { className: 'stats' }, ...precStats.map((s) => s.root)),
    precBox,
    el('h3', {}, words('s218.h.softmax')),
    el('p', {}, words('s218.p.softmax')),
    controls(scale.root),
    el('div', { className: 'stats' }, naive.root, stable.root),
  );

  function updateBound() {
    const pe = rp.analysis.peBound({ d: d.value, n: 1024 });
    cStat.set(t('s218.CValue', { C: fmt(pe.C), measured: fmt(pe.measured), element: fmt(pe.elementBound) }));
    const g = bounded(rp, boundScheme.value, 64);
    growth.set(
      t(g.verdict ? 's218.growthBounded' : 's218.growthUnbounded', { small: fmt(g.small), large: fmt(g.large) }),
      g.verdict ? 'yes' : 'no',
    );
  }

  function updateDeriv() {
    const at = Array.from({ length: 128 }, (_, i) => i + 1);
    const profile = { name: derivScheme.value };
    const { value, derivative } = rp.analysis.derivative(profile, { at });
    const h = 1e-2;
    const plus = rp.analysis.derivative(profile, { at: at.map((r) => r + h) }).value;
    const minus = rp.analysis.derivative(profile, { at: at.map((r) => r - h) }).value;
    let worst = 0;
    for (let i = 0; i < at.length; i++) {
      worst = Math.max(worst, Math.abs((plus[i] - minus[i]) / (2 * h) - derivative[i]));
    }
    fdStat.set(fmt(worst), worst < 1e-2 ? 'yes' : 'no');
    renderCurve(derivBox, {
      x: at,
      series: [
        { label: t('s218.f'), y: Array.from(value) },
        { label: t('s218.fprime'), y: Array.from(derivative) },
      ],
      xLabel: t('s218.distance'),
      yLabel: t('s218.value'),
      title: t('s218.derivTitle'),
    });
  }

  function updatePrecision() {
    const positions = Array.from({ length: 61 }, (_, i) => Math.round(10 ** (i / 10)));
    const series = [];
    ['float32', 'float16', 'bfloat16'].forEach((dtype, index) => {
      const p = rp.analysis.precision({ d: 128, base: Number(base.value), positions, dtype });
      const first = positions.findIndex((_, i) => !(p.rotationError[i] < 1e-2));
      precStats[index].set(
        first < 0 ? t('s218.neverBreaks') : t('s218.breaksAt', { m: positions[first].toLocaleString() }),
        first < 0 ? 'yes' : 'no',
      );
      series.push({ label: dtype, y: Array.from(p.rotationError, (v) => (v > 0 && Number.isFinite(v) ? v : null)) });
    });
    renderCurve(precBox, {
      x: positions.map(Math.log10),
      series,
      xLabel: t('s218.log10m'),
      yLabel: t('s218.rotError'),
      log: true,
      title: t('s218.precisionTitle'),
    });
  }

  function updateSoftmax() {
    const m = 64;
    const z = randomTensor(1, m, 9, scale.value);
    // Naive float32 softmax (exp then divide) overflows once a logit passes ~88.7.
    const f = Math.fround;
    let sum = f(0);
    const e = new Float32Array(m);
    for (let j = 0; j < m; j++) {
      e[j] = f(Math.exp(z.data[j]));
      sum = f(sum + e[j]);
    }
    let bad = 0;
    for (let j = 0; j < m; j++) if (!Number.isFinite(f(e[j] / sum))) bad++;
    naive.set(t('s218.naiveValue', { bad, m }), bad ? 'no' : 'yes');
    // The core's softmax subtracts the row maximum: logits given as the bias B, content zero.
    const zeros = (rows) => ({ shape: [rows, 8], data: new Float32Array(rows * 8) });
    const { weights } = rp.attention({ q: zeros(1), k: zeros(m), B: { shape: [1, 1, m], data: z.data } });
    let total = 0;
    let finite = true;
    for (const w of weights.data) {
      total += w;
      finite &&= Number.isFinite(w);
    }
    stable.set(t('s218.stableValue', { sum: fmt(total, 6) }), finite ? 'yes' : 'no');
  }

  d.input.addEventListener('input', updateBound);
  boundScheme.input.addEventListener('change', updateBound);
  derivScheme.input.addEventListener('change', updateDeriv);
  base.input.addEventListener('change', updatePrecision);
  scale.input.addEventListener('input', updateSoftmax);
  onLang(() => {
    updateBound();
    updateDeriv();
    updatePrecision();
    updateSoftmax();
  });
  localize(root);
  updateBound();
  updateDeriv();
  updatePrecision();
  updateSoftmax();
}
