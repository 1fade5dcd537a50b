// The chapter's claims ledger (web/tutorial/claims.js): every sentence that states a measured fact is a
// message whose key contains ".claim."; each has a check that computes the fact through the public API
// with the page's settings and asserts it — at the defaults and at both ends of every slider the
// sentence depends on. A claim key without a check, or a check without a sentence, fails here.
import { describe, expect, it } from 'vitest';
import { load } from '../../bindings/index.js';
import { CLAIMS, claimSettings } from '../../web/tutorial/claims.js';
import en from '../../web/i18n/en.js';
import zh from '../../web/i18n/zh.js';
import { readSitePage } from '../../web/site/build-plugin.js';

const rp = await load({ analysis: true });
const claimKeys = (table) => Object.keys(table.page).filter((key) => key.includes('.claim.'));
// {name} placeholders; a brace group right after a letter, ^ or _ is TeX (\sqrt{16}, e^{b}), not a placeholder.
const placeholders = (text) => [...String(text).matchAll(/(?<![A-Za-z^_\\])\{(\w+)\}/g)].map((m) => m[1]);
const html = readSitePage('index.html');

describe('the claims ledger', () => {
  it('has one check per claim sentence and one sentence per check, in both languages', () => {
    expect(claimKeys(en).sort()).toEqual(Object.keys(CLAIMS).sort());
    expect(claimKeys(zh).sort()).toEqual(Object.keys(CLAIMS).sort());
    expect(Object.keys(CLAIMS).length).toBeGreaterThan(30);
  });

  it('shows every claim sentence on the page, marked to be filled by its check', () => {
    const marked = [...html.matchAll(/<span([^>]*)data-i18n="([^"]+\.claim\.[^"]+)"/g)];
    const onPage = marked.map((m) => m[2]);
    expect(onPage.sort()).toEqual(Object.keys(CLAIMS).sort());
    for (const [, attrs, key] of marked) expect(attrs, key).toContain('data-claim');
  });

  it('fills only numbers its check measures; lab sentences show none the reader has not run', () => {
    for (const [key, claim] of Object.entries(CLAIMS)) {
      if (claim.lab) expect(placeholders(en.page[key]), key).toEqual([]);
    }
  });
});

describe('every claim holds at the page defaults and at the ends of its sliders', () => {
  const measured = {};
  for (const [key, claim] of Object.entries(CLAIMS)) {
    if (claim.lab) continue;
    it(key, async () => {
      for (const settings of claimSettings(claim)) {
        const { holds, values } = await claim.measure(rp, settings);
        expect(holds, `${key} at ${JSON.stringify(settings)}: ${JSON.stringify(values)}`).toBe(true);
        if (!measured[key]) measured[key] = values;
        const wanted = placeholders(en.page[key]);
        for (const name of wanted) expect(values, `${key} fills {${name}}`).toHaveProperty(name);
      }
      console.log(`${key}: ${JSON.stringify(measured[key])}`);
    });
  }
});

// Lab claims train small models with the budget their sentence states (a few seconds each).
describe('lab claims hold with the budget the page states', { timeout: 180000 }, () => {
  for (const [key, claim] of Object.entries(CLAIMS)) {
    if (!claim.lab) continue;
    it(key, async () => {
      const { holds, values } = await claim.measure(rp, {});
      console.log(`${key}: ${JSON.stringify(values)}`);
      expect(holds, `${key}: ${JSON.stringify(values)}`).toBe(true);
    });
  }
});
