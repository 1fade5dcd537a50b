// The chapter on a phone (a 390 × 844 viewport), in both languages: the page never scrolls sideways;
// every display formula fits its box (on one line, stacked or scaled by web/i18n/tex.js) or, when
// it cannot, shows that it scrolls (data-fit="scroll": edge shadows and a scrollbar that stays); every
// table fits, the 2.1.9 summary as one card per scheme with each cell named by its column. The
// playground and the lab do not scroll sideways either.
import { describe, expect, it } from 'vitest';
import { useSite } from './browser.js';
import { mountChapter, waitDrawn } from './site-pages.js';

const PHONE = { width: 390, height: 844 };
const shared = useSite();

/** What overflows on the page: formulas and tables wider than their boxes, and the page's own width. */
function overflows() {
  const wide = (e) => e.scrollWidth > e.clientWidth + 1;
  const formulas = [...document.querySelectorAll('.tex:not([data-tex-inline])')].map((e) => ({
    tex: e.dataset.tex.slice(0, 60),
    fit: e.dataset.fit ?? null,
    wide: wide(e),
    // The cue of a formula that scrolls: its edge shadows are drawn.
    cue: getComputedStyle(e).backgroundImage.includes('gradient'),
    scale: e.style.fontSize || '1',
  }));
  const tables = [...document.querySelectorAll('table')].map((table) => {
    const box = table.closest('.table-wrap') ?? table.parentElement;
    return { id: table.closest('[id]')?.id, box: box.clientWidth, table: table.scrollWidth, wide: wide(box) };
  });
  const cards = [...document.querySelectorAll('table.summary tbody td')].filter((td) => !td.dataset.label).length;
  // A card's cell holds its column's name (the ::before label): a label that wraps makes its cell
  // taller rather than reaching into the next cell, and no cell overlaps the next.
  const overlaps = [];
  for (const tr of document.querySelectorAll('table.summary tbody tr')) {
    const cells = [...tr.querySelectorAll('td')];
    cells.forEach((td, k) => {
      const box = td.getBoundingClientRect();
      const label = parseFloat(getComputedStyle(td, '::before').height);
      if (!(label <= box.height + 0.5)) {
        overlaps.push(`${tr.dataset.scheme} "${td.dataset.label}": label ${label} px, cell ${box.height} px`);
      }
      const next = cells[k + 1]?.getBoundingClientRect();
      if (next && box.bottom > next.top + 0.5) {
        overlaps.push(`${tr.dataset.scheme} "${td.dataset.label}" reaches into the next cell`);
      }
    });
  }
  return {
    overlaps,
    formulas,
    tables,
    unlabelled: cards,
    page: document.documentElement.scrollWidth,
    viewport: document.documentElement.clientWidth,
  };
}

describe('the chapter at 390 px', () => {
  for (const lang of ['en', 'zh']) {
    it(`${lang}: no sideways scroll; every formula and table fits or shows that it scrolls`, async () => {
      const context = await shared.browser.newContext({ viewport: PHONE, deviceScaleFactor: 2, isMobile: true });
      const page = await context.newPage();
      const errors = [];
      page.on('pageerror', (error) => errors.push(String(error)));
      try {
        await page.goto(`${shared.site.url}?lang=${lang}`);
        await waitDrawn(page, 'chapter');
        await mountChapter(page);
        await page.waitForFunction(() =>
          [...document.querySelectorAll('.tex:not([data-tex-inline])')].every((e) => e.querySelector('.katex')),
        );
        // KaTeX's fonts change a formula's width: web/i18n/tex.js lays formulas out again once
        // they have loaded (a callback on the same promise, attached earlier, so it has run by now).
        await page.evaluate(() => document.fonts.ready.then(() => true));
        await page.waitForFunction(() => document.querySelectorAll('table.summary tbody tr').length > 10, null, {
          timeout: 15000,
        });
        const seen = await page.evaluate(overflows);
        expect(seen.formulas.length).toBeGreaterThan(20);
        for (const f of seen.formulas) {
          if (f.fit === 'scroll') expect(f.cue, f.tex).toBe(true);
          else expect(f.wide, `${f.tex} (${f.fit}, ${f.scale})`).toBe(false);
        }
        for (const t of seen.tables) expect(t.wide, `table in #${t.id}: ${t.table} px in ${t.box} px`).toBe(false);
        expect(seen.unlabelled).toBe(0);
        expect(seen.overlaps).toEqual([]);
        expect(seen.page, 'page width').toBeLessThanOrEqual(seen.viewport);
        // The report: how each formula was laid out.
        const tally = {};
        for (const f of seen.formulas) tally[f.fit] = (tally[f.fit] ?? 0) + 1;
        console.log(`390 px, ${lang}: formulas ${JSON.stringify(tally)}; page ${seen.page} px`);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }
});

describe('the playground and the lab at 390 px', () => {
  for (const [name, path] of [
    ['playground', 'playground.html'],
    ['lab', 'lab.html'],
  ]) {
    for (const lang of ['en', 'zh']) {
      it(`${name} in ${lang}: no sideways scroll`, async () => {
        const context = await shared.browser.newContext({ viewport: PHONE, deviceScaleFactor: 2, isMobile: true });
        try {
          const page = await context.newPage();
          await page.goto(`${shared.site.url}${path}?lang=${lang}`);
          await waitDrawn(page, name);
          const [width, viewport] = await page.evaluate(() => [
            document.documentElement.scrollWidth,
            document.documentElement.clientWidth,
          ]);
          expect(viewport).toBe(PHONE.width);
          expect(width).toBeLessThanOrEqual(viewport);
        } finally {
          await context.close();
        }
      });
    }
  }
});
