// Accessibility, checked with axe-core (WCAG 2.1 A/AA rules, shadow roots included) on every page
// of the site in both languages and both colour schemes, each scheme reached both ways: by the
// system's preference ("auto") and by the site's own switch against the system's preference.
// Nothing serious or critical may remain. The counts per page go to build/reports/axe.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowser, startSite } from './browser.js';
import { ALL_PAGES, axeViolations, mountChapter, waitDrawn } from './site-pages.js';

// Violations raised by parts of the page this suite does not style, named precisely so they can be
// fixed where they live; each is reported on every run until it is gone.
const KNOWN = [];

// [language, colour scheme, the system's preference, the site's switch]
const RUNS = [
  ['en', 'light', 'light', ''],
  ['en', 'dark', 'dark', ''],
  ['zh', 'light', 'dark', 'light'],
  ['zh', 'dark', 'light', 'dark'],
];

let site;
let browser;
const counts = {};

beforeAll(async () => {
  site = await startSite();
  browser = await startBrowser();
});

afterAll(async () => {
  mkdirSync('build/reports', { recursive: true });
  writeFileSync('build/reports/axe.json', `${JSON.stringify(counts, null, 2)}\n`);
  console.log(
    `axe-core, serious + critical violations per page:\n${Object.entries(counts)
      .map(([k, v]) => `  ${k}: ${v.count}${v.known ? ` (+${v.known} known, outside the site's styles)` : ''}`)
      .join('\n')}`,
  );
  await browser?.close();
  await site?.close();
});

describe('axe-core on every page, both languages, both colour schemes', () => {
  for (const [name, path] of Object.entries(ALL_PAGES)) {
    for (const [lang, scheme, system, choice] of RUNS) {
      it(`${name} in ${lang}, ${scheme} (${choice ? 'chosen on the site' : 'from the system'}): 0 serious or critical`, async () => {
        const context = await browser.newContext({ colorScheme: system, viewport: { width: 1280, height: 900 } });
        await context.addInitScript((value) => {
          if (value) localStorage.setItem('relpos-theme', value);
        }, choice);
        const page = await context.newPage();
        try {
          await page.goto(`${site.url}${path}?lang=${lang}`);
          await waitDrawn(page, name);
          if (name === 'chapter') await mountChapter(page);
          const applied = await page.evaluate(() => ({
            lang: document.documentElement.lang,
            scheme: getComputedStyle(document.documentElement).colorScheme,
            theme: document.documentElement.dataset.theme ?? '',
          }));
          expect(applied.lang).toBe(lang === 'zh' ? 'zh-CN' : 'en');
          expect(applied.theme).toBe(choice);
          expect(applied.scheme).toContain(choice || 'light dark');
          const found = await axeViolations(page);
          const isKnown = (v, t) => KNOWN.some((k) => k.page === name && k.id === v.id && k.target === t.target);
          const unexpected = found
            .map((v) => ({ ...v, targets: v.targets.filter((t) => !isKnown(v, t)) }))
            .filter((v) => v.targets.length);
          const known = found.reduce((sum, v) => sum + v.targets.filter((t) => isKnown(v, t)).length, 0);
          counts[`${name} ${lang} ${scheme}`] = { count: unexpected.length, known };
          for (const k of KNOWN.filter((k) => k.page === name)) {
            if (known) console.warn(`known violation still present: ${k.id} — ${k.where}`);
          }
          expect(unexpected).toEqual([]);
        } finally {
          await context.close();
        }
      }, 180000);
    }
  }
});
