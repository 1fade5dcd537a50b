// The reproduction on /lab.html in Chromium: the committed results render as a table (every scheme,
// every task) and a figure; the agreement sentence is the one the results file gives
// (web/lab/reproduction-words.js) in English and in Chinese; "Rerun this cell" trains the committed
// cell in the page and finds the committed numbers, shown beside the committed ones.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { agreementSentence } from '../../web/lab/reproduction-words.js';
import en from '../../web/i18n/en.js';
import zh from '../../web/i18n/zh.js';
import { useSitePage } from './browser.js';

const results = JSON.parse(readFileSync(new URL('../../web/lab/reproduction.json', import.meta.url), 'utf8'));

const shared = useSitePage(
  'lab.html',
  () =>
    document.documentElement.dataset.ready === 'true' &&
    document.getElementById('reproduction')?.shadowRoot?.querySelector('table'),
);
let page;
let errors;
beforeAll(() => ({ page, errors } = shared));

describe('lab.html: the reproduction of Kazemnejad et al. 2023', () => {
  it('shows the committed table, figure and the sentence the results give, in both languages', async () => {
    const english = await page.evaluate(async () => {
      const el = document.getElementById('reproduction');
      const root = el.shadowRoot;
      const curve = root.querySelector('.plot relpos-curve');
      if (!curve.plot) await new Promise((resolve) => curve.addEventListener('relpos-render', resolve, { once: true }));
      return {
        shown: root.querySelector('[data-role=agreement]').textContent,
        rows: root.querySelectorAll('tbody tr').length,
        columns: root.querySelectorAll('thead th').length,
        series: curve.figure().series.length,
      };
    });
    expect(english.shown).toBe(agreementSentence(results, (key) => en.page[key], ' '));
    expect(english.shown.length).toBeGreaterThan(80);
    expect(english.rows).toBe(results.schemes.length);
    expect(english.columns).toBe(1 + 2 * results.tasks.length + 3);
    expect(english.series).toBe(results.schemes.length);

    await page.selectOption('#lang', 'zh');
    const expected = agreementSentence(results, (key) => zh.page[key], '');
    await page.waitForFunction(
      (text) =>
        document.getElementById('reproduction').shadowRoot.querySelector('[data-role=agreement]').textContent === text,
      expected,
    );
    const heading = await page.evaluate(() => document.getElementById('repro-heading').textContent);
    expect(heading).toBe(zh.page['repro.title']);
    await page.selectOption('#lang', 'en');
    await page.waitForFunction(
      (text) =>
        document.getElementById('reproduction').shadowRoot.querySelector('[data-role=agreement]').textContent === text,
      english.shown,
    );
    expect(errors).toEqual([]);
  });

  it('reruns one cell in the page and finds the committed numbers', async () => {
    const seen = await page.evaluate(async () => {
      const el = document.getElementById('reproduction');
      const root = el.shadowRoot;
      const cell = el.results.runs.reduce((a, b) => (b.ms < a.ms ? b : a));
      for (const [name, value] of [
        ['task', cell.task],
        ['scheme', cell.scheme],
        ['seed', String(cell.seed)],
      ]) {
        root.querySelector(`select[name=${name}]`).value = value;
      }
      const done = new Promise((resolve) => el.addEventListener('relpos-reproduction-result', resolve, { once: true }));
      root.querySelector('.rerun-cell').click();
      const event = await done;
      const mine = event.detail.runs[0];
      return {
        same: mine.exactMatch.every((v, k) => v === cell.exactMatch[k]),
        status: root.querySelector('.status').textContent,
        yours: root.querySelectorAll('.yours').length,
      };
    });
    expect(seen.same).toBe(true);
    expect(seen.status).toMatch(/the same exact-match numbers as the committed run/);
    expect(seen.yours).toBe(1);
    expect(errors).toEqual([]);
  }, 240000);
});
