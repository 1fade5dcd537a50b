// The state of 2.1.7's "turns" part (Figures 2.1.7-c, -d): a real model's preset, or the reader's own
// scaling, factor, base, training length and rotary dimension. Choosing a preset sets every control
// from that preset alone (nothing of the previous view is left behind); moving a control leaves the
// preset. `turnsReadouts` computes everything the part shows from a state, so the page after any
// sequence of changes shows what a fresh load of its final state shows (tests/node/turns-state.test.js).
// No DOM.
import { angleReach, SCALINGS, turns } from './verdicts.js';

export const TURNS_DEFAULTS = Object.freeze({
  preset: '',
  scaling: 'rope-linear',
  factor: 8,
  base: 10000,
  train: 4096,
  rotD: 128,
  params: Object.freeze({}),
});

/** The factor slider: up to 64, so DeepSeek-V3's 40 is shown as it is. */
export const FACTOR_RANGE = Object.freeze({ min: 1, max: 64, step: 1 });

/** The choices of the selects before presets add theirs. */
export const CHOICES = Object.freeze({
  base: [10000, 500000, 1000000],
  train: [512, 2048, 4096, 8192, 32768],
  rotD: [64, 96, 128],
});

// What a preset's params say about the frequencies beyond the head's layout (d, rotaryDim, startIndex),
// base, factor and the original length (Llama 3.1's low/high frequency factors, YaRN's betas, …): kept
// only while the preset is chosen.
const SHAPE_IGNORED = new Set([
  'd',
  'rotaryDim',
  'startIndex',
  'base',
  'layout',
  'factor',
  'originalMaxPositionEmbeddings',
]);

/** The presets this part can show: rotary models with a scaling of the menu (or none). */
export function turnsPresets(rp) {
  return rp.presets.filter((p) => SCALINGS.includes(p.scheme));
}

/**
 * Every control of the part from preset `p` alone. The rotary dimension is the preset's rotaryDim
 * where it rotates only part of the head (GPT-J 64 of 256, GPT-NeoX 24 of 96). A plain-RoPE preset has
 * no scaling: the scaled curve is plain RoPE, at the page's default target factor. The training length
 * is the preset's original length; without one, its context length (divided by the factor for a
 * scaled model: that context is the scaled one), or its sliding window (Mistral-7B-v0.1, 4096).
 */
export function presetTurns(p) {
  const scaled = p.scheme !== 'rope';
  const factor = scaled ? p.params.factor : TURNS_DEFAULTS.factor;
  const context = p.model?.maxPositionEmbeddings;
  const train =
    p.params.originalMaxPositionEmbeddings ??
    (context ? (scaled ? Math.round(context / factor) : context) : (p.model?.slidingWindow ?? TURNS_DEFAULTS.train));
  const params = Object.fromEntries(Object.entries(p.params).filter(([name]) => !SHAPE_IGNORED.has(name)));
  return {
    preset: p.id,
    scaling: p.scheme,
    factor,
    base: p.params.base ?? 10000,
    train,
    rotD: p.params.rotaryDim ?? p.params.d ?? 128,
    params: scaled ? params : {},
  };
}

/**
 * The state after one change: `{ preset: id }` (or '' for none: back to the defaults), or a control
 * moved by the reader (`{ scaling }`, `{ factor }`, …), which leaves the preset and its extra params.
 */
export function turnsReduce(rp, state, change) {
  if (Object.hasOwn(change, 'preset')) {
    if (!change.preset) return { ...TURNS_DEFAULTS };
    const p = turnsPresets(rp).find((x) => x.id === change.preset);
    if (!p) throw new RangeError(`turnsReduce: unknown preset '${change.preset}'`);
    return presetTurns(p);
  }
  return { ...state, ...change, preset: '', params: {} };
}

/** The options a select needs so that every preset's value can be shown. */
export function turnsChoices(rp) {
  const all = turnsPresets(rp).map(presetTurns);
  const merged = (name) => [...new Set([...CHOICES[name], ...all.map((s) => s[name])])].sort((a, b) => a - b);
  return { base: merged('base'), train: merged('train'), rotD: merged('rotD') };
}

/** Everything the part shows at `state`: the readouts and the two figures' series. */
export function turnsReadouts(rp, state) {
  const { rotD: d, train: L, base, factor: s, scaling, params } = state;
  const pairs = d / 2;
  const plainTurns = turns(rp, { d, base, L });
  const plain = angleReach(rp, { d, base, L, s, scheme: 'rope' });
  const scaled = angleReach(rp, { d, base, L, s, scheme: scaling, params });
  const count = plainTurns.incompleteCount;
  return {
    pairs,
    incomplete: { count, pairs, first: count ? plainTurns.firstIncomplete : null },
    unseenPlain: { count: plain.unseenCount, pairs },
    unseenScaled: { count: scaled.unseenCount, pairs },
    turns: Array.from(plainTurns.turns),
    ratioPlain: plain.ratio,
    ratioScaled: scaled.ratio,
    caption: { s, L },
  };
}
