// Scheme descriptions say the same in both languages and nothing the chapter's measurements
// contradict. The English description is the core's (rp.schemes[].description),
// the 中文 one the web layer's (web/i18n/schemes.zh.js); the explorer and the playground show them.
// For every scheme the two must state the same numbers and the same qualifiers — learned or not,
// decays, extrapolates, causal, PSD … (CONCEPTS: each an English and a 中文 pattern) — and a
// description may say a scheme extrapolates only where the lab's reproduction (web/lab/reproduction.json)
// measured it: some task at 2L with exact match of at least one half.
import { beforeAll, describe, expect, it } from 'vitest';
import { load } from '../../bindings/index.js';
import { schemeDescription } from '../../web/i18n/scheme-words.js';
import REPRODUCTION from '../../web/lab/reproduction.json';

/** Qualifiers a description can state, as [English, 中文] patterns. */
export const CONCEPTS = {
  extrapolates: [/extrapolat|gracefully/i, /外推/],
  learned: [/\blearn/i, /学习/],
  noParameters: [/no (learned )?parameters|parameter-free/i, /没有可学习参数|无参数/],
  decays: [/decay/i, /衰减/],
  doesNotDecay: [/does not decay/i, /不随距离衰减/],
  causal: [/causal/i, /因果/],
  notPSD: [/not PSD/i, /不是半正定/],
  relativeOnly: [/depends only on|exactly relative/i, /只依赖于|严格的相对/],
  perHead: [/per[- ]head|\bper head\b/i, /每个头|各头|按头/],
  shared: [/shared across layers/i, /各层共享/],
  temperature: [/temperature/i, /温度/],
  interpolation: [/interpolat|squeezed/i, /插值|压缩/],
};

// Subscript digits (r₁) and the minus sign are the same numbers as r1 and -.
const normalise = (text) => text.replace(/[₀-₉]/g, (c) => String(c.charCodeAt(0) - 0x2080)).replace(/[−–]/g, '-');
// A number stands alone: the digits of names and formulas (c2p, r2, L0, 3d) are not numbers.
const numbers = (text) => (normalise(text).match(/(?<![A-Za-z\d.])\d+(\.\d+)?(?![A-Za-z\d])/g) ?? []).sort();
const concepts = (text, language) =>
  Object.entries(CONCEPTS)
    .filter(([, patterns]) => patterns[language === 'en' ? 0 : 1].test(text))
    .map(([name]) => name);

let rp;
beforeAll(async () => {
  rp = await load();
});

describe('scheme descriptions', () => {
  it('state the same numbers and qualifiers in English and 中文, for every scheme', () => {
    const problems = [];
    for (const info of rp.schemes) {
      const en = schemeDescription('en', info);
      const zh = schemeDescription('zh', info);
      const a = concepts(en, 'en');
      const b = concepts(zh, 'zh');
      if (a.join() !== b.join()) problems.push(`${info.id}: English ${a} / 中文 ${b}`);
      if (numbers(en).join() !== numbers(zh).join()) {
        problems.push(`${info.id}: numbers ${numbers(en)} / ${numbers(zh)}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('say a scheme extrapolates only where the reproduction measured it (exact match ≥ 0.5 at 2L on some task)', () => {
    const best = (id) =>
      Math.max(...REPRODUCTION.tasks.map((t) => REPRODUCTION.summary.table[t.id][id]?.at2L.mean ?? 0));
    for (const info of rp.schemes) {
      for (const language of ['en', 'zh']) {
        if (!concepts(schemeDescription(language, info), language).includes('extrapolates')) continue;
        const measured = REPRODUCTION.schemes.some((s) => s.id === info.id);
        expect(measured && best(info.id) >= 0.5, `${info.id} (${language}): best at 2L ${best(info.id)}`).toBe(true);
      }
    }
  });

  it('the checks see a difference: one qualifier more in one language fails', () => {
    const en = 'Linear recency bias; no parameters, extrapolates gracefully.';
    const zh = '线性的近因偏置；没有可学习参数。';
    expect(concepts(en, 'en')).not.toEqual(concepts(zh, 'zh'));
    expect(numbers('r₂ = 1')).toEqual(numbers('r2 = 1'));
  });
});
