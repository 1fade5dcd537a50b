// The 中文 page speaks the original chapter's language: the glossary (web/i18n/glossary.js) against
// every message. A message whose English uses a glossary term says it with the glossary's Chinese term;
// no Chinese message uses a calque the glossary rules out; every scheme has a name in both languages and
// the chapter's selects and tables show those names; the lab's words follow the same terms.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AVOID, SCHEME_NAMES, TERMS } from '../../web/i18n/glossary.js';
import en from '../../web/i18n/en.js';
import zh from '../../web/i18n/zh.js';
import { labMessages } from '../../web/lab/messages.js';
import { labMessagesZh } from '../../web/lab/messages.zh.js';
import { load } from '../../bindings/index.js';

const flatten = (object, prefix = '') =>
  Object.entries(object).flatMap(([k, v]) =>
    v && typeof v === 'object' ? flatten(v, `${prefix}${k}.`) : [[`${prefix}${k}`, v]],
  );

// Pairs (key, English, Chinese) of the page, the components and the lab.
const pairs = [
  ...Object.keys(en.page).map((key) => [key, en.page[key], zh.page[key]]),
  ...flatten(en.components).map(([key, text]) => [
    `components.${key}`,
    text,
    key.split('.').reduce((o, k) => o?.[k], zh.components),
  ]),
  ...flatten(labMessages).map(([key, text]) => [
    `lab.${key}`,
    text,
    key.split('.').reduce((o, k) => o?.[k], labMessagesZh),
  ]),
];

// English without inline TeX and placeholders, lower-cased.
const plain = (text) =>
  String(text)
    .replace(/\$[^$]*\$/g, ' ')
    .replace(/\{\w+\}/g, ' ')
    .toLowerCase();

// Whole-word match of an English form; a trailing * matches the start of a word.
const uses = (text, form) => {
  const prefix = form.endsWith('*');
  const body = (prefix ? form.slice(0, -1) : form).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[^a-z])${body}${prefix ? '' : '(?![a-z])'}`).test(text);
};

describe('the glossary', () => {
  it('is one table of terms in both languages', () => {
    expect(TERMS.length).toBeGreaterThan(40);
    for (const term of TERMS) {
      expect(term.en.length).toBeGreaterThan(0);
      expect(/[\u4e00-\u9fff]|softmax|sinc|Toeplitz/.test(term.zh), term.zh).toBe(true);
    }
  });

  it('every message that uses a term in English uses its Chinese term', () => {
    const misses = [];
    for (const [key, english, chinese] of pairs) {
      const text = plain(english);
      for (const term of TERMS) {
        if (!term.en.some((form) => uses(text, form))) continue;
        const forms = [term.zh, ...(term.also ?? [])];
        if (!forms.some((form) => String(chinese).includes(form))) misses.push(`${key}: “${term.en[0]}” → ${term.zh}`);
      }
    }
    expect(misses).toEqual([]);
  });

  it('no Chinese message uses a calque', () => {
    for (const [key, , chinese] of pairs) {
      for (const { zh: calque, instead } of AVOID) {
        expect(String(chinese).includes(calque), `${key} uses ${calque}; say ${instead}`).toBe(false);
      }
    }
  });

  it('the original’s own terms appear on the 中文 page', () => {
    const all = Object.values(zh.page).join('\n');
    for (const term of [
      '位置依赖性',
      '外推能力',
      '平移不变性',
      '距离衰减函数',
      '频率调节',
      '维度调节',
      '流形学习',
      '降维',
      '均值函数',
      '协方差函数',
      '贝叶斯推断',
      '信息熵',
      '显式相对编码',
      '隐式相对编码',
      '混合相对编码',
      '数值稳定性',
      '数值归一化',
      '梯度裁剪',
      '学习率调节',
      '数学优雅性',
      '理论完备性',
      '实用性',
    ]) {
      expect(all.includes(term), term).toBe(true);
    }
  });

  it('names every scheme of the catalogue in both languages, and the chapter shows those names', async () => {
    const rp = await load();
    for (const s of rp.schemes) {
      expect(SCHEME_NAMES[s.id]?.en, s.id).toBeTruthy();
      expect(
        /[\u4e00-\u9fff]/.test(SCHEME_NAMES[s.id].zh) || SCHEME_NAMES[s.id].zh === SCHEME_NAMES[s.id].en,
        s.id,
      ).toBe(true);
      expect(en.page[`scheme.${s.id}`]).toBe(SCHEME_NAMES[s.id].en);
      expect(zh.page[`scheme.${s.id}`]).toBe(SCHEME_NAMES[s.id].zh);
    }
    // Section files name schemes through the glossary (schemeOptions / scheme.<id>), never rp's English names.
    const dir = new URL('../../web/tutorial/sections/', import.meta.url);
    for (const file of readdirSync(dir)) {
      const source = readFileSync(new URL(file, dir), 'utf8');
      expect(source.includes('.name)'), `${file} shows a scheme's English name`).toBe(false);
    }
  });
});
