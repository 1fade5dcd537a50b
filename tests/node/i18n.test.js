// Every message key exists in both languages, with the same {placeholders} and the same $…$ math;
// the component messages cover every key of messages.js; Chinese text is Chinese.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import en from '../../web/i18n/en.js';
import zh from '../../web/i18n/zh.js';
import { defaultMessages } from '../../web/components/messages.js';
import siteEn from '../../web/i18n/site.en.js';

const flatten = (object, prefix = '') =>
  Object.entries(object).flatMap(([k, v]) =>
    v && typeof v === 'object' ? flatten(v, `${prefix}${k}.`) : [[`${prefix}${k}`, v]],
  );
const placeholders = (text) => [...String(text).matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
const maths = (text) =>
  String(text)
    .split('$')
    .filter((_, i) => i % 2 === 1);

describe('i18n message files', () => {
  const a = new Map(flatten(en));
  const b = new Map(flatten(zh));
  it('have the same keys in English and Chinese', () => {
    expect([...a.keys()].filter((k) => !b.has(k))).toEqual([]);
    expect([...b.keys()].filter((k) => !a.has(k))).toEqual([]);
    expect(a.size).toBeGreaterThan(300);
  });
  it('have no empty strings and the same placeholders and math in both languages', () => {
    for (const [key, text] of a) {
      expect(typeof text, key).toBe('string');
      expect(text.length, key).toBeGreaterThan(0);
      expect(placeholders(b.get(key)), key).toEqual(placeholders(text));
      expect(maths(b.get(key)).length, key).toBe(maths(text).length);
    }
  });
  it('cover every component message', () => {
    const keys = flatten(defaultMessages)
      .map(([k]) => k)
      .sort();
    expect(
      flatten(en.components)
        .map(([k]) => k)
        .sort(),
    ).toEqual(keys);
    expect(
      flatten(zh.components)
        .map(([k]) => k)
        .sort(),
    ).toEqual(keys);
  });
  it('Chinese titles, headings and prose are Chinese', () => {
    const cjk = /[\u4e00-\u9fff]/;
    for (const [key, text] of b) {
      if (/\.(title|h\.[\w-]+|p\d?|p\.[\w-]+|lead|intro|caption)$/.test(key)) expect(cjk.test(text), key).toBe(true);
    }
  });
  it('every data-i18n key used by the pages exists', () => {
    // The site shell's words (web/i18n/site.*.js) join the page table (web/i18n/index.js).
    const has = (key) => a.has(`page.${key}`) || Object.hasOwn(siteEn, key);
    for (const file of ['index.html', 'playground.html', 'lab.html', '404.html']) {
      const html = readFileSync(new URL(`../../web/${file}`, import.meta.url), 'utf8');
      for (const [, key] of html.matchAll(/data-i18n="([^"]+)"/g)) {
        expect(has(key), `${file}: ${key}`).toBe(true);
      }
      for (const [, spec] of html.matchAll(/data-i18n-attr="([^"]+)"/g)) {
        for (const pair of spec.split(';')) expect(has(pair.split(':')[1]), `${file}: ${pair}`).toBe(true);
      }
    }
  });
});
