// 2.1.7 Decay and frequency design (r is the distance, d the dimension). Part "profiles": f(r) =
// e^{−λ|r|} and sin(r/α), the dimension budget (2.1.7-a). Part "bound": RoPE's long-range decay bound
// on a log distance axis (2.1.7-b). Part "turns": turns per pair over the training window and the
// angles reached at the target length s·L, plain against scaled (2.1.7-c, -d); its state and
// readouts are turns-state.js. Part "extra": the
// extrapolation test of 2.1.9 (2.1.7-e).
import {
  decayBounds,
  dimensionBudget,
  extrapolation,
  pastProfile,
  profileValues,
  SCALINGS,
  unitScaled,
} from '../verdicts.js';
import {
  FACTOR_RANGE,
  turnsChoices,
  turnsPresets,
  turnsReadouts,
  turnsReduce,
  TURNS_DEFAULTS,
} from '../turns-state.js';
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

/** The controls of part "turns", with the options every preset needs (turns-state.js). */
function turnsControls(rp) {
  const presets = turnsPresets(rp).map((p) => ({ value: p.id, text: p.name }));
  const choices = turnsChoices(rp);
  const choice = (key, name, value, options) => select({ key, name, value, options });
  const d = TURNS_DEFAULTS;
  return {
    preset: choice('s217.preset', 'preset', '', [{ value: '', key: 's217.preset.none' }, ...presets]),
    scaling: choice('s217.scaling', 'scaling', d.scaling, schemeOptions(SCALINGS)),
    factor: slider({ key: 's217.factor', ...FACTOR_RANGE, value: d.factor, name: 'factor' }),
    base: choice('s217.base', 'base', String(d.base), textOptions(choices.base.map(String))),
    train: choice('s217.train', 'train', String(d.train), textOptions(choices.train.map(String))),
    rotD: choice('s217.rotD', 'rotD', String(d.rotD), textOptions(choices.rotD.map(String))),
  };
}

/** Shows a state in the controls. */
function showState(state, c) {
  c.preset.value = state.preset;
  c.scaling.value = state.scaling;
  c.factor.value = state.factor;
  for (const name of ['base', 'train', 'rotD']) c[name].value = String(state[name]);
}

function mountTurns(root, rp) {
  const c = turnsControls(rp);
  let state = { ...TURNS_DEFAULTS };
  const turnsPlot = curveFigure('2.1.7-c', 's217.fig.c', { values: { L: state.train } });
  const reachPlot = curveFigure('2.1.7-d', 's217.fig.d', { values: { s: state.factor, L: state.train } });
  const incomplete = stat('s217.incomplete', 'incomplete');
  const unseenPlain = stat('s217.unseenPlain', 'unseenPlain');
  const unseenScaled = stat('s217.unseenScaled', 'unseenScaled');
  root.append(
    controls(c.preset, c.scaling, c.factor, c.base, c.train, c.rotD),
    statsRow(incomplete, unseenPlain, unseenScaled),
    demoRow(turnsPlot, reachPlot),
  );

  function update() {
    const r = turnsReadouts(rp, state);
    const { count, pairs, first } = r.incomplete;
    incomplete.set(
      count ? t('s217.incompleteValue', { count, pairs, first }) : t('s217.incompleteNone', { pairs }),
      !count,
    );
    unseenPlain.set(t('s217.unseenValue', r.unseenPlain), !r.unseenPlain.count);
    unseenScaled.set(t('s217.unseenValue', r.unseenScaled), !r.unseenScaled.count);
    root.dataset.state = JSON.stringify(state);
    root.dataset.incomplete = String(count);
    root.dataset.unseenPlain = String(r.unseenPlain.count);
    root.dataset.unseenScaled = String(r.unseenScaled.count);
    const x = range(pairs);
    const one = x.map(() => 1);
    const turnSeries = [
      { label: t('s217.turnsPlain'), y: r.turns },
      { label: t('s217.oneTurn'), y: one, dashed: true },
    ];
    turnsPlot.draw(x, turnSeries, ['s217.pair', 's217.turnsY'], { log: true });
    // The trained range is a dashed reference: Position Interpolation's ratio lies on it (≈ 1).
    const reachSeries = [
      { label: t('s217.reachPlain'), y: r.ratioPlain },
      { label: t('scheme.' + state.scaling), y: r.ratioScaled },
      { label: t('s217.trainedRange'), y: one, dashed: true },
    ];
    reachPlot.draw(x, reachSeries, ['s217.pair', 's217.reachY'], { log: true });
    setCaption(turnsPlot.root, { L: state.train });
    setCaption(reachPlot.root, r.caption);
  }

  const change = (next) => {
    state = turnsReduce(rp, state, next);
    showState(state, c);
    update();
  };
  c.preset.input.addEventListener('change', () => change({ preset: c.preset.value }));
  c.scaling.input.addEventListener('change', () => change({ scaling: c.scaling.value }));
  c.factor.input.addEventListener('input', () => change({ factor: c.factor.value }));
  for (const name of ['base', 'train', 'rotD']) {
    c[name].input.addEventListener('change', () => change({ [name]: Number(c[name].value) }));
  }
  live(root, update, []);
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
