// 2.1.7 Decay and frequency design (r is the distance, d the dimension). Part "profiles": f(r) =
// e^{−λ|r|} and sin(r/α), the dimension budget (2.1.7-a). Part "bound": RoPE's long-range decay bound
// on a log distance axis (2.1.7-b). Part "turns": turns per pair over the training window and the
// angles reached at the target length s·L, plain against scaled (2.1.7-c, -d). Part "extra": the
// extrapolation test of 2.1.9 (2.1.7-e).
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
import { byPart, controls, curveFigure, demoRow, live, range, setCaption, statsRow } from '../demo.js';
import { fmt } from '../format.js';
import { t } from '../../i18n/index.js';
import { schemeOptions, select, slider, stat, textOptions } from '../ui.js';

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
  const plot = curveFigure('2.1.7-a', 's217.fig.a');
  root.append(controls(lambda, alpha, dim), statsRow(budget), plot.root);

  function update() {
    const n = 64;
    const series = [
      { label: t('s217.decayLabel'), y: profileValues(rp, { name: 'exp-decay', lambda: lambda.value }, n) },
      { label: t('s217.freqLabel'), y: profileValues(rp, { name: 'sin', alpha: alpha.value }, n) },
    ];
    plot.draw(range(2 * n - 1, -(n - 1)), series, ['s217.distance', 's217.value']);
    const b = dimensionBudget(rp, dim.value);
    budget.set(t('s217.budgetValue', { d: b.d, count: b.count }));
  }
  live(root, update, [lambda, alpha, dim]);
}

function mountBound(root, rp) {
  const dim = slider({ key: 's217.d', min: 8, max: 256, step: 8, value: 128, name: 'd', unit: 'ui.unit.dims' });
  const plot = curveFigure('2.1.7-b', 's217.fig.b', { values: { d: dim.value } });
  root.append(controls(dim), plot.root);
  const bases = [100, 10000, 500000];

  function update() {
    const maxDistance = 65536;
    const bounds = decayBounds(rp, { d: dim.value, bases, maxDistance });
    const series = bounds.map((y, k) => ({ label: t('s217.baseLabel', { base: bases[k] }), y }));
    plot.draw(range(maxDistance, 1), series, ['s217.distanceLog', 's217.boundY'], { logX: true, log: true });
    setCaption(plot.root, { d: dim.value });
  }
  live(root, update, [dim]);
}

/** The controls of part "turns": a real model's preset, or a scaling, its factor, base, window, dimension. */
function turnsControls(rp) {
  const presets = rp.presets.filter((p) => SCALINGS.includes(p.scheme)).map((p) => ({ value: p.id, text: p.name }));
  const choice = (key, name, value, options) => select({ key, name, value, options });
  return {
    preset: choice('s217.preset', 'preset', '', [{ value: '', key: 's217.preset.none' }, ...presets]),
    scaling: choice('s217.scaling', 'scaling', 'rope-linear', schemeOptions(SCALINGS)),
    factor: slider({ key: 's217.factor', min: 1, max: 32, step: 1, value: 8, name: 'factor' }),
    base: choice('s217.base', 'base', '10000', textOptions(['10000', '500000', '1000000'])),
    train: choice('s217.train', 'train', '4096', textOptions(['512', '2048', '4096', '8192', '32768'])),
    rotD: choice('s217.rotD', 'rotD', '128', textOptions(['64', '96', '128'])),
  };
}

/** Sets the controls of part "turns" to a preset's scaling, factor, base, window and dimension. */
function applyPreset(p, { scaling, factor, base, train, rotD }) {
  const ensureOption = (control, value) => {
    if (![...control.input.options].some((o) => o.value === value)) control.input.add(new Option(value, value));
    control.value = value;
  };
  if (SCALINGS.includes(p.scheme) && p.scheme !== 'rope') scaling.value = p.scheme;
  if (p.params.factor) factor.value = p.params.factor;
  ensureOption(base, String(p.params.base ?? 10000));
  const original = p.params.originalMaxPositionEmbeddings ?? p.model?.maxPositionEmbeddings;
  if (original) ensureOption(train, String(original));
  ensureOption(rotD, String(p.params.d ?? 128));
}

function mountTurns(root, rp) {
  const c = turnsControls(rp);
  const turnsPlot = curveFigure('2.1.7-c', 's217.fig.c', { values: { L: c.train.value } });
  const reachPlot = curveFigure('2.1.7-d', 's217.fig.d', { values: { s: c.factor.value, L: c.train.value } });
  const incomplete = stat('s217.incomplete', 'incomplete');
  const unseenPlain = stat('s217.unseenPlain', 'unseenPlain');
  const unseenScaled = stat('s217.unseenScaled', 'unseenScaled');
  root.append(
    controls(c.preset, c.scaling, c.factor, c.base, c.train, c.rotD),
    statsRow(incomplete, unseenPlain, unseenScaled),
    demoRow(turnsPlot, reachPlot),
  );

  function update() {
    const [d, L, b, s] = [Number(c.rotD.value), Number(c.train.value), Number(c.base.value), c.factor.value];
    const plainTurns = turns(rp, { d, base: b, L });
    const plain = angleReach(rp, { d, base: b, L, s, scheme: 'rope' });
    const scaled = angleReach(rp, { d, base: b, L, s, scheme: c.scaling.value });
    const { incompleteCount: count, firstIncomplete: first } = plainTurns;
    incomplete.set(t('s217.incompleteValue', { count, pairs: d / 2, first }), !count);
    unseenPlain.set(t('s217.unseenValue', { count: plain.unseenCount, pairs: d / 2 }), !plain.unseenCount);
    unseenScaled.set(t('s217.unseenValue', { count: scaled.unseenCount, pairs: d / 2 }), !scaled.unseenCount);
    root.dataset.incomplete = String(count);
    root.dataset.unseenPlain = String(plain.unseenCount);
    root.dataset.unseenScaled = String(scaled.unseenCount);
    const pairs = range(d / 2);
    const one = pairs.map(() => 1);
    const turnSeries = [
      { label: t('s217.turnsPlain'), y: Array.from(plainTurns.turns) },
      { label: t('s217.oneTurn'), y: one },
    ];
    turnsPlot.draw(pairs, turnSeries, ['s217.pair', 's217.turnsY'], { log: true });
    const reachSeries = [
      { label: t('s217.reachPlain'), y: plain.ratio },
      { label: t('scheme.' + c.scaling.value), y: scaled.ratio },
      { label: t('s217.trainedRange'), y: one },
    ];
    reachPlot.draw(pairs, reachSeries, ['s217.pair', 's217.reachY'], { log: true });
    setCaption(turnsPlot.root, { L });
    setCaption(reachPlot.root, { s, L });
  }

  c.preset.input.addEventListener('change', () => {
    const p = rp.presets.find((x) => x.id === c.preset.value);
    if (!p) return;
    applyPreset(p, c);
    update();
  });
  live(root, update, [c.factor, c.scaling, c.base, c.train, c.rotD]);
}

function mountExtra(root, rp) {
  const L = slider({ key: 's217.L', min: 16, max: 128, step: 16, value: 32, name: 'L', unit: 'ui.unit.positions' });
  const ids = ['rope', 'alibi', 'kerple-log'];
  const stats = ids.map((id) => stat(`scheme.${id}`, `extra-${id}`));
  const plot = curveFigure('2.1.7-e', 's217.fig.e', { values: { L: L.value } });
  root.append(controls(L), statsRow(...stats), plot.root);

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
        e.verdict,
      );
      return { label: t(`scheme.${id}`), y: unitScaled(profile) };
    });
    plot.draw(range(4 * length), series, ['s217.pastDistance', 's217.scaled']);
    setCaption(plot.root, { L: length });
  }
  live(root, update, [L]);
}

export const mount = byPart({ profiles: mountProfiles, bound: mountBound, turns: mountTurns, extra: mountExtra });
