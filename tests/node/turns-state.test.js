// 2.1.7's "turns" part as state (web/tutorial/turns-state.js): what its readouts say for each real
// model, and — model-based, with fast-check commands — that after any sequence of preset, scaling and
// slider changes the part shows what a fresh load of its final state shows, and a preset leaves
// nothing of the previous view behind.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { load } from '../../bindings/index.js';
import {
  CHOICES,
  FACTOR_RANGE,
  presetTurns,
  TURNS_DEFAULTS,
  turnsChoices,
  turnsPresets,
  turnsReadouts,
  turnsReduce,
} from '../../web/tutorial/turns-state.js';
import { SCALINGS } from '../../web/tutorial/verdicts.js';
import en from '../../web/i18n/en.js';
import zh from '../../web/i18n/zh.js';

const rp = await load({ analysis: true });
const presets = turnsPresets(rp);
const byName = (name) => presets.find((p) => p.name.startsWith(name));
const readoutsOf = (name) => turnsReadouts(rp, presetTurns(byName(name)));

describe('2.1.7 presets: every control from the preset alone', () => {
  it('GPT-J-6B and GPT-NeoX-20B count the pairs of their rotary dimension', () => {
    const gptj = readoutsOf('GPT-J');
    expect(presetTurns(byName('GPT-J')).rotD).toBe(64);
    expect(gptj.incomplete).toMatchObject({ count: 11, pairs: 32 });
    const neox = readoutsOf('GPT-NeoX');
    expect(presetTurns(byName('GPT-NeoX')).rotD).toBe(24);
    expect(neox.incomplete).toMatchObject({ count: 4, pairs: 12 });
  });

  it('a plain-RoPE preset after a scaled one shows no scaling', () => {
    let state = turnsReduce(rp, TURNS_DEFAULTS, { preset: byName('Llama-3.1').id });
    expect(state).toMatchObject({ scaling: 'rope-llama3', factor: 8 });
    state = turnsReduce(rp, state, { preset: byName('Qwen2').id });
    expect(state).toMatchObject({ scaling: 'rope', factor: TURNS_DEFAULTS.factor, train: 131072, params: {} });
  });

  it('Mistral-7B-v0.1 uses its own window and names no pair that does not exist', () => {
    let state = turnsReduce(rp, TURNS_DEFAULTS, { preset: byName('Qwen2').id });
    state = turnsReduce(rp, state, { preset: byName('Mistral').id });
    expect(state.train).toBe(4096);
    const r = turnsReadouts(rp, state);
    expect(r.incomplete.first === null || r.incomplete.first < r.pairs).toBe(true);
  });

  it('every preset fits the controls: factor inside the slider (DeepSeek-V3: 40), values among the choices', () => {
    const choices = turnsChoices(rp);
    expect(presetTurns(byName('DeepSeek-V3')).factor).toBe(40);
    for (const p of presets) {
      const s = presetTurns(p);
      expect(s.factor, p.id).toBeGreaterThanOrEqual(FACTOR_RANGE.min);
      expect(s.factor, p.id).toBeLessThanOrEqual(FACTOR_RANGE.max);
      expect(SCALINGS, p.id).toContain(s.scaling);
      for (const name of ['base', 'train', 'rotD']) expect(choices[name], `${p.id} ${name}`).toContain(s[name]);
      const r = turnsReadouts(rp, s);
      expect(r.incomplete.pairs, p.id).toBe(s.rotD / 2);
      if (r.incomplete.count === 0) expect(r.incomplete.first, p.id).toBeNull();
      else expect(r.incomplete.first, p.id).toBeLessThan(r.pairs);
      console.log(
        `${p.name}: d=${s.rotD} L=${s.train} s=${s.factor} ${s.scaling}: incomplete ${r.incomplete.count}/${r.pairs}` +
          `, unseen plain ${r.unseenPlain.count}, scaled ${r.unseenScaled.count}`,
      );
    }
  });

  it('both languages have the readouts the part shows', () => {
    for (const table of [en, zh]) {
      for (const key of ['s217.incompleteValue', 's217.incompleteNone', 's217.unseenValue']) {
        expect(table.page[key], key).toBeTruthy();
      }
    }
  });
});

// The model: the last preset chosen and the reader's changes after it. The real system: the reducer
// applied step by step. After every command the state must equal what the model predicts, and the
// readouts must equal those of a fresh state built from the final settings.
describe('model-based: any sequence of changes shows what a fresh load of its final state shows', () => {
  const choices = turnsChoices(rp);
  const command = fc.oneof(
    fc.constantFrom('', ...presets.map((p) => p.id)).map((preset) => ({ preset })),
    fc.constantFrom(...SCALINGS).map((scaling) => ({ scaling })),
    fc.integer({ min: FACTOR_RANGE.min, max: FACTOR_RANGE.max }).map((factor) => ({ factor })),
    fc.constantFrom(...choices.base).map((base) => ({ base })),
    fc.constantFrom(...choices.train).map((train) => ({ train })),
    fc.constantFrom(...CHOICES.rotD).map((rotD) => ({ rotD })),
  );

  it('holds for random sequences of up to 12 changes', () => {
    fc.assert(
      fc.property(fc.array(command, { maxLength: 12 }), (commands) => {
        let state = { ...TURNS_DEFAULTS };
        let model = { from: { ...TURNS_DEFAULTS }, changed: {} };
        for (const c of commands) {
          state = turnsReduce(rp, state, c);
          if (Object.hasOwn(c, 'preset')) {
            const p = presets.find((x) => x.id === c.preset);
            model = { from: p ? presetTurns(p) : { ...TURNS_DEFAULTS }, changed: {} };
          } else {
            model = { from: model.from, changed: { ...model.changed, ...c } };
          }
          const expected = Object.keys(model.changed).length
            ? { ...model.from, ...model.changed, preset: '', params: {} }
            : model.from;
          expect(state).toEqual(expected);
        }
        // A fresh load: the final settings typed into a new state (a preset by its id alone).
        const fresh = state.preset
          ? turnsReduce(rp, TURNS_DEFAULTS, { preset: state.preset })
          : { ...TURNS_DEFAULTS, ...state, preset: '', params: {} };
        expect(turnsReadouts(rp, state)).toEqual(turnsReadouts(rp, fresh));
      }),
      { numRuns: 60, seed: 26 },
    );
  });
});
