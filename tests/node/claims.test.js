// The chapter's claims ledger (web/tutorial/claims.js): every sentence that states a measured fact is a
// message whose key contains ".claim."; each has a check that computes the fact through the public API
// with the page's settings and asserts it — at the defaults and over the joint domain of its figure's
// controls (tests/node/joint-domain.js: every slider step at every setting of every checkbox, form and
// scheme selector; corners, sweeps and fast-check where the product is large). A claim key without a
// check, or a check without a sentence, fails here.
import { describe, expect, it } from 'vitest';
import { load } from '../../bindings/index.js';
import { CLAIMS, claimDefaults, controlValues } from '../../web/tutorial/claims.js';
import { forJointDomain } from './joint-domain.js';
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

// Both languages' sentences are filled from the same values: every placeholder is filled with a
// real number or word in English and in Chinese.
function filled(key, values) {
  for (const table of [en, zh]) {
    const wanted = placeholders(table.page[key]);
    for (const name of wanted) {
      expect(values, `${key} fills {${name}}`).toHaveProperty(name);
      expect(String(values[name]), `${key} {${name}}`).not.toMatch(/undefined|NaN|null|\[object/);
    }
  }
  // The Chinese sentence, filled, keeps Chinese punctuation: no ASCII comma next to a Chinese character.
  const text = zh.page[key].replace(/(?<![A-Za-z^_\\])\{(\w+)\}/g, (_, name) => String(values[name]));
  expect(text, key).not.toMatch(/[\u3400-\u9fff]\s*,|,\s*[\u3400-\u9fff]/u);
}

describe('every claim holds over the joint domain of its figure’s controls', () => {
  const measured = {};
  for (const [key, claim] of Object.entries(CLAIMS)) {
    if (claim.lab) continue;
    it(
      key,
      async () => {
        const controls = claim.controls ?? {};
        const check = async (setting) => {
          const { holds, values } = await claim.measure(rp, setting);
          expect(holds, `${key} at ${JSON.stringify(setting)}: ${JSON.stringify(values)}`).toBe(true);
          filled(key, values);
        };
        // The defaults first: their numbers are the ones the page shows.
        await check(claimDefaults(claim));
        measured[key] = (await claim.measure(rp, claimDefaults(claim))).values;
        const cover = await forJointDomain(controls, check);
        console.log(`${key} (${cover.checked} of ${cover.size} settings): ${JSON.stringify(measured[key])}`);
      },
      120000,
    );
  }
});

describe('the sweep covers every slider step', () => {
  it('controlValues lists min to max by the step', () => {
    expect(controlValues({ min: 0, max: 2, step: 0.05 })).toHaveLength(41);
    expect(controlValues({ min: 1, max: 200, step: 1 }).at(-1)).toBe(200);
    expect(controlValues({ min: 0.01, max: 1, step: 0.01 })).toContain(0.07);
  });
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
