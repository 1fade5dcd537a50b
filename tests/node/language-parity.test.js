// Language parity: every message of the page says the same in English and 中文 — the same
// numbers (digits, number words, Chinese numerals) and {placeholders}, the same leading yes / no of a
// verdict — and Chinese sentences use Chinese punctuation (no ASCII ", " between Chinese characters).
import { describe, expect, it } from 'vitest';
import en from '../../web/i18n/en.js';
import zh from '../../web/i18n/zh.js';
import { numbersOf, verdictOf } from './language-parity.js';

const keys = Object.keys(en.page).filter((key) => typeof en.page[key] === 'string');

describe('language parity of web/i18n/en.js and zh.js', () => {
  it('the extractor reads numbers in both languages alike', () => {
    expect(numbersOf('at n = 256 its smallest is {smin}; sixteen heads, 107 M parameters', 'en')).toEqual(
      numbersOf('在 n = 256 时最小的是 {smin}；十六个头，1.07 亿参数', 'zh'),
    );
    expect(numbersOf('rank 13 of 64', 'en')).not.toEqual(numbersOf('秩为 13（共 64 维；32）', 'zh'));
    expect(numbersOf('一百二十八、二十、一百万', 'zh')).toEqual(['1000000', '128', '20']);
    expect([verdictOf('no: indefinite', 'en'), verdictOf('否：不定', 'zh'), verdictOf('是否对称？', 'zh')]).toEqual([
      'no',
      'no',
      null,
    ]);
  });

  it('every message has the same numbers and placeholders in both languages', () => {
    const mismatches = keys
      .map((key) => ({ key, en: numbersOf(en.page[key], 'en'), zh: numbersOf(zh.page[key], 'zh') }))
      .filter((m) => m.en.join() !== m.zh.join());
    expect(mismatches).toEqual([]);
    expect(keys.length).toBeGreaterThan(500);
  });

  it('a readout that starts with a verdict starts with the same verdict in Chinese', () => {
    const mismatches = keys
      .filter((key) => verdictOf(en.page[key], 'en'))
      .map((key) => ({ key, en: verdictOf(en.page[key], 'en'), zh: verdictOf(zh.page[key], 'zh') }))
      .filter((m) => m.en !== m.zh);
    expect(mismatches).toEqual([]);
  });

  it('Chinese sentences have no ASCII comma between Chinese characters', () => {
    const cjk = '[\\u3400-\\u9fff\\uff08\\uff09\\u3001\\u201c\\u201d]';
    const ascii = new RegExp(`${cjk}\\s*,\\s*${cjk}|${cjk}\\s*,\\s+\\S|\\S,\\s*${cjk}`, 'u');
    expect(['偏置, 以及', 'ALiBi, 以及', '之和, n', '（2.1.4）, 而'].every((t) => ascii.test(t))).toBe(true);
    expect(ascii.test('$W_Q, W_K$ 投影')).toBe(false);
    const bad = Object.keys(zh.page).filter((key) => typeof zh.page[key] === 'string' && ascii.test(zh.page[key]));
    expect(bad.map((key) => `${key}: ${zh.page[key].match(ascii)[0]}`)).toEqual([]);
  });
});
