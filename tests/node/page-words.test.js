// Small wording facts of the pages: the English pages use ASCII parentheses (the explorer's
// and playground's preset names were written with full-width （） in every language), and 2.1.9's
// opening says which of the original's three insights became a computed column of its table — natural
// distance has none of its own.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import en from '../../web/i18n/en.js';
import zh from '../../web/i18n/zh.js';
import { CHOICES_EN, PARAM_LABELS_EN } from '../../web/i18n/schemes.en.js';

const FULL_WIDTH = /[（）]/;

describe('English words', () => {
  it('have no full-width parentheses, in the tables or written into the page code', () => {
    const texts = [
      ...Object.values(en.page),
      ...Object.values(PARAM_LABELS_EN),
      ...Object.values(CHOICES_EN).flatMap((c) => Object.values(c)),
    ];
    expect(texts.filter((text) => FULL_WIDTH.test(text))).toEqual([]);
    // Page code builds no text with them; a language's parentheses come from its table.
    const dir = new URL('../../web/tutorial/', import.meta.url);
    const code = readdirSync(dir).filter((name) => name.endsWith('.js'));
    expect(code.filter((name) => FULL_WIDTH.test(readFileSync(new URL(name, dir), 'utf8')))).toEqual([]);
    expect(en.page['pane.preset.option']).toBe('{name} ({scheme})');
    expect(zh.page['pane.preset.option']).toBe('{name}（{scheme}）');
  });
});

describe('2.1.9’s three insights', () => {
  // Each insight of the original, in both languages, with the table column that computes it (null: none).
  const INSIGHTS = [
    ['translation invariance', '平移不变性', 's219.col.invariant'],
    ['extrapolation', '外推能力', 's219.col.extrapolates'],
    ['natural distance', '距离表达', null],
  ];
  it('names the insight without a column as such, in both languages, and the nearest column by its name', () => {
    for (const [english, chinese, column] of INSIGHTS) {
      expect(en.page['s219.p1']).toContain(english);
      expect(zh.page['s219.p1']).toContain(chinese);
      if (column) continue;
      expect(en.page['s219.p1']).toContain(`${english} has no column of its own`);
      expect(zh.page['s219.p1']).toContain(`${chinese}没有单独的一列`);
    }
    expect(en.page['s219.p1']).toContain(`“${en.page['s219.col.decays']}”`);
    expect(zh.page['s219.p1']).toContain(`“${zh.page['s219.col.decays']}”`);
    // Not all three: the old sentence had every insight "each become a computed column".
    expect(en.page['s219.p1']).not.toContain('natural distance — each become');
  });
});
