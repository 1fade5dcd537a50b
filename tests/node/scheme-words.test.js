// The web layer's words for the schemes' catalogue (web/i18n/scheme-words.js, schemes.zh.js) are
// complete and current: every scheme of rp.schemes has a 中文 description; every parameter the
// explorer pane shows has a 中文 label and tooltip, and every option of it a 中文 word; no entry
// names a scheme, parameter or option the core no longer has; the 中文 words are Chinese, use no
// calque of the glossary and keep their Latin to formulas and names.
import { beforeAll, describe, expect, it } from 'vitest';
import { load } from '../../bindings/index.js';
import { AVOID } from '../../web/i18n/glossary.js';
import {
  LANGUAGES_WITH_TABLES,
  choiceWords,
  paramWords,
  schemeCite,
  schemeDescription,
  shownParams,
} from '../../web/i18n/scheme-words.js';
import { CHOICES_ZH, CITES_ZH, DESCRIPTIONS_ZH, PARAM_DOCS_ZH, PARAM_LABELS_ZH } from '../../web/i18n/schemes.zh.js';
import { CHOICES_EN, PARAM_LABELS_EN } from '../../web/i18n/schemes.en.js';

let rp;
beforeAll(async () => {
  rp = await load();
});

const cjk = /[\u4e00-\u9fff]/;

describe('scheme words in 中文', () => {
  it('is the one language with its own tables (English is the core’s)', () => {
    expect(LANGUAGES_WITH_TABLES).toEqual(['zh']);
  });

  it('every scheme of rp.schemes has a 中文 description, and no description names a scheme the core lacks', () => {
    const ids = rp.schemes.map((s) => s.id);
    expect(ids.length).toBeGreaterThanOrEqual(24);
    for (const info of rp.schemes) {
      const text = schemeDescription('zh', info);
      expect(text, info.id).not.toBe(info.description);
      expect(cjk.test(text), info.id).toBe(true);
    }
    expect(Object.keys(DESCRIPTIONS_ZH).filter((id) => !ids.includes(id))).toEqual([]);
    expect(Object.keys(CITES_ZH).filter((id) => !ids.includes(id))).toEqual([]);
    // English pages show the core's own words.
    for (const info of rp.schemes) expect(schemeDescription('en', info)).toBe(info.description);
  });

  it('a citation with words to translate has its 中文 form', () => {
    for (const info of rp.schemes) {
      // Words beyond names, venues and arXiv ids: a phrase of lower-case English words.
      const prose = /\b(the|of|and)\b/.test(info.cite.replace(/\bet al\b/g, ''));
      if (prose) expect(CITES_ZH[info.id], `${info.id}: ${info.cite}`).toBeDefined();
      expect(schemeCite('en', info)).toBe(info.cite);
    }
  });

  it('every parameter the pane shows has a 中文 label and tooltip, every option a 中文 word', () => {
    let params = 0;
    let options = 0;
    for (const info of rp.schemes) {
      for (const name of shownParams(info)) {
        params++;
        const words = paramWords('zh', info, name);
        expect(words.label, `${info.id}.${name}`).not.toBe(name);
        expect(cjk.test(words.label) && cjk.test(words.doc), `${info.id}.${name}`).toBe(true);
        for (const choice of info.params[name].choices ?? []) {
          options++;
          const word = choiceWords('zh', info, name, choice);
          expect(cjk.test(word), `${info.id}.${name} = ${choice}: ${word}`).toBe(true);
        }
        // English: a label in words (web/i18n/schemes.en.js, never the name as code writes it) with
        // the core's own tooltip, and every option in words.
        const english = paramWords('en', info, name);
        expect(english.doc).toBe(info.params[name].doc);
        expect(english.label, `${info.id}.${name}`).not.toBe(name);
        expect(english.label, `${info.id}.${name}`).toMatch(/^[A-Z]/);
        for (const choice of info.params[name].choices ?? []) {
          expect(choiceWords('en', info, name, choice), `${info.id}.${name} = ${choice}`).not.toBe(choice);
        }
      }
    }
    expect(params).toBeGreaterThan(40);
    expect(options).toBeGreaterThan(10);
  });

  it('names only parameters and options the core has', () => {
    const all = new Map();
    for (const info of rp.schemes) {
      for (const [name, spec] of Object.entries(info.params)) {
        all.set(name, new Set([...(all.get(name) ?? []), ...(spec.choices ?? [])]));
        all.set(`${info.id}.${name}`, new Set(spec.choices ?? []));
      }
    }
    expect(Object.keys(PARAM_LABELS_ZH).filter((key) => !all.has(key))).toEqual([]);
    // A 中文 label and its tooltip go together: the two tables have the same keys.
    expect(Object.keys(PARAM_DOCS_ZH)).toEqual(Object.keys(PARAM_LABELS_ZH));
    expect(Object.keys(PARAM_LABELS_EN).filter((key) => !all.has(key))).toEqual([]);
    for (const [key, choices] of [...Object.entries(CHOICES_ZH), ...Object.entries(CHOICES_EN)]) {
      expect(all.has(key), key).toBe(true);
      expect(
        Object.keys(choices).filter((c) => !all.get(key).has(c)),
        key,
      ).toEqual([]);
    }
  });

  it('uses no calque of the glossary', () => {
    const texts = [
      ...Object.values(DESCRIPTIONS_ZH),
      ...Object.values(CITES_ZH),
      ...Object.values(PARAM_LABELS_ZH),
      ...Object.values(PARAM_DOCS_ZH),
      ...Object.values(CHOICES_ZH).flatMap((c) => Object.values(c)),
    ];
    for (const text of texts) {
      for (const { zh: calque, instead } of AVOID) expect(text.includes(calque), `${text}: say ${instead}`).toBe(false);
    }
  });
});
