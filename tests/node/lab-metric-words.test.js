// 2.1.2's toy lab reports two measures: token accuracy (the share of target
// tokens right, rp.lab.train's `accuracy`) and exact match (the share of sequences with every target
// right, `exactMatch`). KERPLE keeps token accuracy above 0.8 to 8L while its exact match is 0.06 at L,
// so a number without its measure misleads. Every sentence about the toy that states a number names
// its measure, in English and in Chinese, and the lab's figure names the one it draws. The numbers
// themselves are checked against a run by the ledger (tests/node/claims.test.js, s212.claim.labCopy).
import { describe, expect, it } from 'vitest';
import en from '../../web/i18n/en.js';
import zh from '../../web/i18n/zh.js';
import { labMessages } from '../../web/lab/messages.js';
import { labMessagesZh } from '../../web/lab/messages.zh.js';

const KEYS = ['s212.p.lab', 's212.claim.labCopy'];
const sentences = {
  en: (text) => text.split(/(?<=[.:;])\s+(?=[A-Z])/),
  zh: (text) => text.split(/(?<=[。：；])/),
};
const MEASURES = { en: /token accuracy|exact match/i, zh: /逐词元准确率|完全匹配率/ };
// A bare "accuracy" (without "token") or 准确率 (without 逐词元) names no measure.
const BARE = { en: /(?<!token[- ])accuracy/i, zh: /(?<!逐词元)准确率/ };
// A number the sentence states about the runs: a decimal, or a fraction like 1/16.
const NUMBER = /\d\.\d|\b0\b|\b1\b(?!\/)|\d\/\d/;

describe('the toy lab names its measure', () => {
  for (const [language, table] of [
    ['en', en],
    ['zh', zh],
  ]) {
    it(`in every sentence with a number (${language})`, () => {
      for (const key of KEYS) {
        const text = table.page[key].replace(/\$[^$]*\$/g, 'x');
        expect(text, key).not.toMatch(BARE[language]);
        for (const sentence of sentences[language](text)) {
          if (NUMBER.test(sentence) && /0\.\d/.test(sentence)) expect(sentence, key).toMatch(MEASURES[language]);
        }
      }
    });
  }

  it('the lab’s accuracy figure says it draws token accuracy', () => {
    for (const [messages, language] of [
      [labMessages, 'en'],
      [labMessagesZh, 'zh'],
    ]) {
      for (const key of ['accuracyTitle', 'accuracyAxis']) {
        expect(messages[key], key).toMatch(MEASURES[language]);
        expect(messages[key], key).not.toMatch(BARE[language]);
      }
    }
  });
});
