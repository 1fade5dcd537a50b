// 2.1.7 Decay and frequency design: the decay and frequency profiles, RoPE's long-range decay bound
// for several bases, the rotation turns per dimension pair over the training window under linear /
// NTK / YaRN / Llama-3 scaling (real-model presets), and the extrapolation test of 2.1.9.
import { renderCurve } from '../../components/relpos-curve.js';
import { controls, el, fmt, localize, onLang, select, slider, stat, t, words } from '../ui.js';
import { extrapolation, pastProfile, scoreMatrix } from '../verdicts.js';

const SCALINGS = ['rope', 'rope-linear', 'rope-ntk', 'rope-yarn', 'rope-llama3'];

export function mount(root, { rp }) {
  // (a) profiles
  const lambda = slider({ key: 's217.lambda', min: 0.01, max: 1, step: 0.01, value: 0.1, name: 'lambda' });
  const alpha = slider({ key: 's217.alpha', min: 1, max: 32, step: 1, value: 8, name: 'alpha' });
  const dim = slider({ key: 's217.d', min: 8, max: 256, step: 8, value: 64, name: 'd' });
  const budget = stat('s217.budget', 'budget');
  const profiles = el('div', { className: 'curve-box' });
  // (b) decay bound
  const bound = el('div', { className: 'curve-box' });
  // (c) angle coverage
  const presetSel = select({
    key: 's217.preset',
    name: 'preset',
    value: '',
    options: [
      { value: '', key: 's217.preset.none' },
      ...rp.presets.filter((p) => p.scheme.startsWith('rope')).map((p) => ({ value: p.id, text: p.name })),
    ],
  });
  const scaling = select({
    key: 's217.scaling',
    name: 'scaling',
    value: 'rope-llama3',
    options: SCALINGS.map((id) => ({ value: id, text: rp.schemes.find((s) => s.id === id).name })),
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
  const turns = el('div', { className: 'curve-box' });
  const incompletePlain = stat('s217.incompletePlain', 'incompletePlain');
  const incompleteScaled = stat('s217.incompleteScaled', 'incompleteScaled');
  // (d) extrapolation
  const L = slider({ key: 's217.L', min: 16, max: 128, step: 16, value: 32, name: 'L' });
  const extra = el('div', { className: 'curve-box' });
  const extraStats = ['rope', 'alibi', 'kerple-log'].map((id) => stat(`s217.extra.${id}`, `extra-${id}`));
  root.append(
    el('h3', {}, words('s217.h.profiles')),
    controls(lambda.root, alpha.root, dim.root),
    el('div', { className: 'stats' }, budget.root),
    profiles,
    el('h3', {}, words('s217.h.bound')),
    el('p', {}, words('s217.p.bound')),
    bound,
    el('h3', {}, words('s217.h.turns')),
    el('p', {}, words('s217.p.turns')),
    controls(presetSel.root, scaling.root, factor.root, base.root, train.root, rotD.root),
    el('div', { className: 'stats' }, incompletePlain.root, incompleteScaled.root),
    turns,
    el('h3', {}, words('s217.h.extra')),
    el('p', {}, words('s217.p.extra')),
    controls(L.root),
    el('div', { className: 'stats' }, ...extraStats.map((s) => s.root)),
    extra,
  );

  function updateProfiles() {
    const n = 64;
    const r = Array.from({ length: 2 * n - 1 }, (_, i) => i - (n - 1));
    const decay = rp.analysis.derivative({ name: 'exp-decay', lambda: lambda.value }, { n }).value;
    const freq = rp.analysis.derivative({ name: 'sin', alpha: alpha.value }, { n }).value;
    renderCurve(profiles, {
      x: r,
      series: [
        { label: t('s217.decayLabel'), y: Array.from(decay) },
        { label: t('s217.freqLabel'), y: Array.from(freq) },
      ],
      xLabel: t('s217.distance'),
      yLabel: t('s217.value'),
      title: t('s217.profilesTitle'),
    });
    const { invFreq } = rp.frequencies('rope', { d: dim.value });
    budget.set(t('s217.budgetValue', { d: dim.value, count: invFreq.length }));
  }

  function updateBound() {
    const maxDistance = 2048;
    const x = Array.from({ length: maxDistance + 1 }, (_, i) => i);
    const series = [100, 10000, 500000].map((b) => ({
      label: t('s217.baseLabel', { base: b }),
      y: Array.from(rp.analysis.decayBound({ d: dim.value, base: b, maxDistance })),
    }));
    renderCurve(bound, {
      x,
      series,
      xLabel: t('s217.distance'),
      yLabel: t('s217.boundY'),
      title: t('s217.boundTitle', { d: dim.value }),
    });
  }

  function scalingParams(id) {
    const params = { factor: factor.value };
    if (id === 'rope') return {};
    if (id === 'rope-yarn' || id === 'rope-llama3') params.originalMaxPositionEmbeddings = Number(train.value);
    return params;
  }

  function updateTurns() {
    const d = Number(rotD.value);
    const trainLength = Number(train.value);
    const b = Number(base.value);
    const plain = rp.analysis.angleCoverage({ d, base: b, trainLength });
    const scaled = rp.analysis.angleCoverage({
      d,
      base: b,
      trainLength,
      scheme: scaling.value,
      params: scalingParams(scaling.value),
    });
    incompletePlain.set(
      t('s217.incompleteValue', { count: plain.incompleteCount, pairs: d / 2, first: plain.firstIncomplete }),
      plain.incompleteCount ? 'no' : 'yes',
    );
    incompleteScaled.set(
      t('s217.incompleteValue', { count: scaled.incompleteCount, pairs: d / 2, first: scaled.firstIncomplete }),
      scaled.incompleteCount ? 'no' : 'yes',
    );
    root.dataset.incomplete = String(plain.incompleteCount);
    renderCurve(turns, {
      x: Array.from({ length: d / 2 }, (_, k) => k),
      series: [
        { label: t('s217.turnsPlain'), y: Array.from(plain.turns) },
        { label: t('s217.turnsScaled', { scheme: scaling.value }), y: Array.from(scaled.turns) },
      ],
      xLabel: t('s217.pair'),
      yLabel: t('s217.turnsY'),
      log: true,
      title: t('s217.turnsTitle', { L: trainLength }),
    });
  }

  function updateExtra() {
    const length = L.value;
    const series = [];
    ['rope', 'alibi', 'kerple-log'].forEach((id, index) => {
      const info = rp.schemes.find((s) => s.id === id);
      const e = extrapolation(rp, info, length);
      extraStats[index].set(
        e.kind === 'angles'
          ? t('s217.extraAngles', { count: e.value, pairs: e.pairs })
          : t(e.verdict ? 's217.extraGraceful' : 's217.extraRises', { value: fmt(e.value) }),
        e.verdict ? 'yes' : 'no',
      );
      const s = pastProfile(scoreMatrix(rp, id, 4 * length));
      let m = 1e-12;
      for (const v of s) m = Math.max(m, Math.abs(v));
      series.push({ label: info.name, y: Array.from(s, (v) => v / m) });
    });
    renderCurve(extra, {
      x: Array.from({ length: 4 * length }, (_, r) => r),
      series,
      xLabel: t('s217.pastDistance', { L: length }),
      yLabel: t('s217.scaled'),
      title: t('s217.extraTitle', { L: length }),
    });
  }

  presetSel.input.addEventListener('change', () => {
    const preset = rp.presets.find((p) => p.id === presetSel.value);
    if (!preset) return;
    if (SCALINGS.includes(preset.scheme)) scaling.value = preset.scheme;
    if (preset.params.factor) factor.value = preset.params.factor;
    base.value = String(preset.params.base ?? 10000);
    if (![...base.input.options].some((o) => o.value === base.value)) {
      base.input.add(new Option(base.value, base.value));
    }
    base.value = String(preset.params.base ?? 10000);
    const original = preset.params.originalMaxPositionEmbeddings ?? preset.model?.maxPositionEmbeddings;
    if (original) {
      if (![...train.input.options].some((o) => o.value === String(original))) {
        train.input.add(new Option(String(original), String(original)));
      }
      train.value = String(original);
    }
    const d = String(preset.params.d ?? 128);
    if (![...rotD.input.options].some((o) => o.value === d)) rotD.input.add(new Option(d, d));
    rotD.value = d;
    updateTurns();
  });
  for (const c of [lambda, alpha]) c.input.addEventListener('input', updateProfiles);
  dim.input.addEventListener('input', () => {
    updateProfiles();
    updateBound();
  });
  factor.input.addEventListener('input', updateTurns);
  for (const c of [scaling, base, train, rotD]) c.input.addEventListener('change', updateTurns);
  L.input.addEventListener('input', updateExtra);
  onLang(() => {
    updateProfiles();
    updateBound();
    updateTurns();
    updateExtra();
  });
  localize(root);
  updateProfiles();
  updateBound();
  updateTurns();
  updateExtra();
}
