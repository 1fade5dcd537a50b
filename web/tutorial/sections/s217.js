// 2.1.7 Decay and frequency design (r is the distance, d the dimension). Part "profiles": f(r) =
// e^{−λ|r|} and sin(r/α), the dimension budget (2.1.7-a). Part "bound": RoPE's long-range decay bound
// on a log distance axis (2.1.7-b). Part "turns": turns per pair over the training window and the
// angles reached at the target length s·L, plain against scaled (2.1.7-c, -d). Part "extra": the
// extrapolation test of 2.1.9 (2.1.7-e).
import { renderCurve } from '../../components/relpos-curve.js';
import {
  angleReach,
  decayBounds,
  dimensionBudget,
  extrapolation,
  pastProfile,
  profileValues,
  SCALINGS,
  turns,
  unitScaled,
} from '../verdicts.js';
import {
  controls,
  el,
  figure,
  fmt,
  localize,
  onLang,
  schemeOptions,
  select,
  setCaption,
  slider,
  stat,
  t,
} from '../ui.js';

const range = (n, from = 0) => Array.from({ length: n }, (_, i) => from + i);

function mountProfiles(root, rp) {
  const lambda = slider({ key: 's217.lambda', min: 0.01, max: 1, step: 0.01, value: 0.1, name: 'lambda' });
  const alpha = slider({
    key: 's217.alpha',
    min: 1,
    max: 32,
    step: 1,
    value: 8,
    name: 'alpha',
    unit: 'ui.unit.positions',
  });
  const dim = slider({ key: 's217.d', min: 8, max: 256, step: 8, value: 64, name: 'd', unit: 'ui.unit.dims' });
  const budget = stat('s217.budget', 'budget');
  const box = el('div', { className: 'curve-box' });
  root.append(
    controls(lambda.root, alpha.root, dim.root),
    el('div', { className: 'stats' }, budget.root),
    figure('2.1.7-a', 's217.fig.a', box),
  );

  function update() {
    const n = 64;
    renderCurve(box, {
      x: range(2 * n - 1, -(n - 1)),
      series: [
        { label: t('s217.decayLabel'), y: profileValues(rp, { name: 'exp-decay', lambda: lambda.value }, n) },
        { label: t('s217.freqLabel'), y: profileValues(rp, { name: 'sin', alpha: alpha.value }, n) },
      ],
      xLabel: t('s217.distance'),
      yLabel: t('s217.value'),
    });
    const b = dimensionBudget(rp, dim.value);
    budget.set(t('s217.budgetValue', { d: b.d, count: b.count }));
  }
  for (const c of [lambda, alpha, dim]) c.input.addEventListener('input', update);
  onLang(update);
  localize(root);
  update();
}

function mountBound(root, rp) {
  const dim = slider({ key: 's217.d', min: 8, max: 256, step: 8, value: 128, name: 'd', unit: 'ui.unit.dims' });
  const box = el('div', { className: 'curve-box' });
  const fig = figure('2.1.7-b', 's217.fig.b', box, { values: { d: dim.value } });
  root.append(controls(dim.root), fig);
  const bases = [100, 10000, 500000];

  function update() {
    const maxDistance = 65536;
    const x = range(maxDistance, 1);
    const bounds = decayBounds(rp, { d: dim.value, bases, maxDistance });
    renderCurve(box, {
      x,
      series: bounds.map((y, k) => ({ label: t('s217.baseLabel', { base: bases[k] }), y })),
      xLabel: t('s217.distanceLog'),
      yLabel: t('s217.boundY'),
      logX: true,
      log: true,
    });
    setCaption(fig, { d: dim.value });
  }
  dim.input.addEventListener('input', update);
  onLang(update);
  localize(root);
  update();
}

function mountTurns(root, rp) {
  const preset = select({
    key: 's217.preset',
    name: 'preset',
    value: '',
    options: [
      { value: '', key: 's217.preset.none' },
      ...rp.presets.filter((p) => SCALINGS.includes(p.scheme)).map((p) => ({ value: p.id, text: p.name })),
    ],
  });
  const scaling = select({
    key: 's217.scaling',
    name: 'scaling',
    value: 'rope-linear',
    options: schemeOptions(SCALINGS),
  });
  const factor = slider({ key: 's217.factor', min: 1, max: 32, step: 1, value: 8, name: 'factor' });
  const base = select({
    key: 's217.base',
    name: 'base',
    value: '10000',
    options: ['10000', '500000', '1000000'].map((v) => ({ value: v, text: v })),
  });
  const train = select({
    key: 's217.train',
    name: 'train',
    value: '4096',
    options: ['512', '2048', '4096', '8192', '32768'].map((v) => ({ value: v, text: v })),
  });
  const rotD = select({
    key: 's217.rotD',
    name: 'rotD',
    value: '128',
    options: ['64', '96', '128'].map((v) => ({ value: v, text: v })),
  });
  const turnsBox = el('div', { className: 'curve-box' });
  const reachBox = el('div', { className: 'curve-box' });
  const incomplete = stat('s217.incomplete', 'incomplete');
  const unseenPlain = stat('s217.unseenPlain', 'unseenPlain');
  const unseenScaled = stat('s217.unseenScaled', 'unseenScaled');
  const turnsFig = figure('2.1.7-c', 's217.fig.c', turnsBox, { values: { L: train.value } });
  const reachFig = figure('2.1.7-d', 's217.fig.d', reachBox, { values: { s: factor.value, L: train.value } });
  root.append(
    controls(preset.root, scaling.root, factor.root, base.root, train.root, rotD.root),
    el('div', { className: 'stats' }, incomplete.root, unseenPlain.root, unseenScaled.root),
    el('div', { className: 'demo-row' }, turnsFig, reachFig),
  );

  const ensureOption = (control, value) => {
    if (![...control.input.options].some((o) => o.value === value)) control.input.add(new Option(value, value));
    control.value = value;
  };

  function update() {
    const d = Number(rotD.value);
    const L = Number(train.value);
    const b = Number(base.value);
    const s = factor.value;
    const plainTurns = turns(rp, { d, base: b, L });
    const plain = angleReach(rp, { d, base: b, L, s, scheme: 'rope' });
    const scaled = angleReach(rp, { d, base: b, L, s, scheme: scaling.value });
    incomplete.set(
      t('s217.incompleteValue', { count: plainTurns.incompleteCount, pairs: d / 2, first: plainTurns.firstIncomplete }),
      plainTurns.incompleteCount ? 'no' : 'yes',
    );
    unseenPlain.set(
      t('s217.unseenValue', { count: plain.unseenCount, pairs: d / 2 }),
      plain.unseenCount ? 'no' : 'yes',
    );
    unseenScaled.set(
      t('s217.unseenValue', { count: scaled.unseenCount, pairs: d / 2 }),
      scaled.unseenCount ? 'no' : 'yes',
    );
    root.dataset.incomplete = String(plainTurns.incompleteCount);
    root.dataset.unseenPlain = String(plain.unseenCount);
    root.dataset.unseenScaled = String(scaled.unseenCount);
    const pairs = range(d / 2);
    renderCurve(turnsBox, {
      x: pairs,
      series: [
        { label: t('s217.turnsPlain'), y: Array.from(plainTurns.turns) },
        { label: t('s217.oneTurn'), y: pairs.map(() => 1) },
      ],
      xLabel: t('s217.pair'),
      yLabel: t('s217.turnsY'),
      log: true,
    });
    renderCurve(reachBox, {
      x: pairs,
      series: [
        { label: t('s217.reachPlain'), y: plain.ratio },
        { label: t('scheme.' + scaling.value), y: scaled.ratio },
        { label: t('s217.trainedRange'), y: pairs.map(() => 1) },
      ],
      xLabel: t('s217.pair'),
      yLabel: t('s217.reachY'),
      log: true,
    });
    setCaption(turnsFig, { L });
    setCaption(reachFig, { s, L });
  }

  preset.input.addEventListener('change', () => {
    const p = rp.presets.find((x) => x.id === preset.value);
    if (!p) return;
    if (SCALINGS.includes(p.scheme) && p.scheme !== 'rope') scaling.value = p.scheme;
    if (p.params.factor) factor.value = p.params.factor;
    ensureOption(base, String(p.params.base ?? 10000));
    const original = p.params.originalMaxPositionEmbeddings ?? p.model?.maxPositionEmbeddings;
    if (original) ensureOption(train, String(original));
    ensureOption(rotD, String(p.params.d ?? 128));
    update();
  });
  factor.input.addEventListener('input', update);
  for (const c of [scaling, base, train, rotD]) c.input.addEventListener('change', update);
  onLang(update);
  localize(root);
  update();
}

function mountExtra(root, rp) {
  const L = slider({ key: 's217.L', min: 16, max: 128, step: 16, value: 32, name: 'L', unit: 'ui.unit.positions' });
  const ids = ['rope', 'alibi', 'kerple-log'];
  const box = el('div', { className: 'curve-box' });
  const stats = ids.map((id) => stat(`scheme.${id}`, `extra-${id}`));
  const fig = figure('2.1.7-e', 's217.fig.e', box, { values: { L: L.value } });
  root.append(controls(L.root), el('div', { className: 'stats' }, ...stats.map((s) => s.root)), fig);

  function update() {
    const length = L.value;
    const series = ids.map((id, index) => {
      const info = rp.schemes.find((s) => s.id === id);
      const profile = pastProfile(rp, info, 4 * length, length);
      const e = extrapolation(rp, info, profile, length);
      stats[index].set(
        e.kind === 'angles'
          ? t('s217.extraAngles', { count: e.value, pairs: e.pairs })
          : t(e.verdict ? 's217.extraStays' : 's217.extraRises', { value: fmt(e.value) }),
        e.verdict ? 'yes' : 'no',
      );
      return { label: t(`scheme.${id}`), y: unitScaled(profile) };
    });
    renderCurve(box, {
      x: range(4 * length),
      series,
      xLabel: t('s217.pastDistance'),
      yLabel: t('s217.scaled'),
    });
    setCaption(fig, { L: length });
  }
  L.input.addEventListener('input', update);
  onLang(update);
  localize(root);
  update();
}

export function mount(root, { rp, part }) {
  if (part === 'bound') mountBound(root, rp);
  else if (part === 'turns') mountTurns(root, rp);
  else if (part === 'extra') mountExtra(root, rp);
  else mountProfiles(root, rp);
}
