// The reproduction on /lab.html in Chromium: the committed results render as a table (every scheme,
// every task) and a figure; the agreement sentence is the one the results file gives
// (web/lab/reproduction-words.js) in English and in Chinese; "Rerun this cell" trains the committed
// cell in the page and finds the committed numbers, shown beside the committed ones.
import { beforeAll, describe, expect, it } from 'vitest';
import { useSitePage } from './browser.js';

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
    const seen = await page.evaluate(async () => {
      const el = document.getElementById('reproduction');
      const root = el.shadowRoot;
      const { agreementSentence } = await import('/lab/reproduction-words.js');
      const i18n = await import('/i18n/index.js');
      const curve = root.querySelector('.plot relpos-curve');
      if (!curve.plot) await new Promise((resolve) => curve.addEventListener('relpos-render', resolve, { once: true }));
      const english = {
        shown: root.querySelector('[data-role=agreement]').textContent,
        expected: agreementSentence(el.results, (key) => i18n.t(key), ' '),
        rows: root.querySelectorAll('tbody tr').length,
        columns: root.querySelectorAll('thead th').length,
        series: curve.figure().series.length,
      };
      i18n.setLang('zh', { persist: false });
      const chinese = {
        shown: root.querySelector('[data-role=agreement]').textContent,
        expected: agreementSentence(el.results, (key) => i18n.t(key), ''),
        heading: document.getElementById('repro-heading').textContent,
      };
      i18n.setLang('en', { persist: false });
      return { english, chinese, tasks: el.results.tasks.length, schemes: el.results.schemes.length };
    });
    expect(seen.english.shown).toBe(seen.english.expected);
    expect(seen.english.shown.length).toBeGreaterThan(80);
    expect(seen.english.rows).toBe(seen.schemes);
    expect(seen.english.columns).toBe(1 + 2 * seen.tasks + 3);
    expect(seen.english.series).toBe(seen.schemes);
    expect(seen.chinese.shown).toBe(seen.chinese.expected);
    expect(seen.chinese.shown).toMatch(/[\u4e00-\u9fff]/);
    expect(seen.chinese.heading).toMatch(/[\u4e00-\u9fff]/);
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
