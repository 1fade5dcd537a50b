// One site: every page has the same header (brand, navigation to the chapter, the playground and
// the lab, language and colour-scheme switches) and footer; the reader's language and colour scheme
// carry from page to page; every page works by keyboard alone with a visible focus ring; nothing
// scrolls sideways at 390, 768 or 1280 px; the playground opens on its two heatmaps; the controls of
// the design system (scheme picker by family, segmented buttons, sliders with units) work.
import { describe, expect, it } from 'vitest';
import en from '../../web/i18n/en.js';
import zh from '../../web/i18n/zh.js';
import siteZh from '../../web/i18n/site.zh.js';
import { labMessagesZh } from '../../web/lab/messages.zh.js';
import { useSite } from './browser.js';
import { withRp } from './fixtures.js';
import { ALL_PAGES, mountChapter, PAGES, waitDrawn } from './site-pages.js';

const shared = useSite();

async function open(path, { viewport = { width: 1280, height: 900 }, colorScheme = 'light' } = {}) {
  const context = await shared.browser.newContext({ viewport, colorScheme });
  const page = await context.newPage();
  const errors = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${shared.site.url}${path}`);
  return { page, errors, context };
}

const shell = (page) =>
  page.evaluate(() => ({
    nav: [...document.querySelectorAll('.rp-header nav a')].map((a) => [a.dataset.page, a.textContent.trim()]),
    current: document.querySelector('.rp-header nav a[aria-current="page"]')?.dataset.page ?? null,
    lang: document.querySelector('.rp-header select#lang') !== null,
    theme: document.querySelector('.rp-header select#theme') !== null,
    footer: [...document.querySelectorAll('.rp-footer nav a')].map((a) => a.dataset.page),
    skip: document.querySelector('body > a.skip')?.getAttribute('href'),
    main: document.querySelector('main')?.id,
    stylesheets: [...document.styleSheets].some((s) => [...s.cssRules].some((r) => r.cssText.includes('--rp-accent'))),
  }));

describe('one site', () => {
  it('every page has the same header, navigation, switches and footer', async () => {
    const seen = {};
    for (const [name, path] of Object.entries(ALL_PAGES)) {
      const { page, errors, context } = await open(path);
      await waitDrawn(page, name);
      seen[name] = await shell(page);
      expect(seen[name].skip, name).toBe(`#${seen[name].main}`);
      expect(seen[name].lang && seen[name].theme, name).toBe(true);
      expect(seen[name].stylesheets, name).toBe(true);
      expect(seen[name].current, name).toBe(name === 'notfound' ? null : name);
      expect(errors, name).toEqual([]);
      await context.close();
    }
    const want = [
      ['chapter', en.page['nav.tutorial']],
      ['playground', en.page['nav.playground']],
      ['lab', en.page['nav.lab']],
    ];
    for (const s of Object.values(seen)) {
      expect(s.nav).toEqual(want);
      expect(s.footer).toEqual(['chapter', 'playground', 'lab']);
    }
  });

  it('the language and the colour scheme carry from page to page', async () => {
    const { page, errors, context } = await open('');
    await waitDrawn(page, 'chapter');
    await page.selectOption('#lang', 'zh');
    // The Chinese words load when asked (web/i18n/index.js).
    await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
    await page.selectOption('#theme', 'dark');
    const bg = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(await bg()).toBe('rgb(16, 19, 23)');
    expect(await page.evaluate(() => document.title)).toBe(siteZh['site.title.chapter']);
    // Through the navigation to the lab: Chinese, dark, one name for the lab in the nav and the page.
    await Promise.all([page.waitForURL(/lab\.html/), page.click('.rp-header a[data-page="lab"]')]);
    expect(page.url()).toContain('lang=zh');
    await waitDrawn(page, 'lab');
    const lab = await page.evaluate(() => ({
      lang: document.documentElement.lang,
      theme: document.documentElement.dataset.theme,
      themeSwitch: document.getElementById('theme').value,
      h1: document.querySelector('h1').textContent,
      nav: document.querySelector('.rp-header a[aria-current="page"]').textContent,
      train: document.getElementById('lab').shadowRoot.querySelector('button.train').textContent,
      title: document.title,
      description: document.querySelector('meta[name="description"]').content,
    }));
    expect(lab).toMatchObject({ lang: 'zh-CN', theme: 'dark', themeSwitch: 'dark', h1: zh.page['nav.lab'] });
    expect(lab.nav).toBe(lab.h1);
    expect(lab.train).toBe(labMessagesZh.train);
    expect(lab.title).toBe(siteZh['site.title.lab']);
    expect(lab.description).toBe(siteZh['site.description.lab']);
    expect(await bg()).toBe('rgb(16, 19, 23)');
    // A fresh visit without ?lang= remembers both.
    await page.goto(`${shared.site.url}playground.html`);
    await waitDrawn(page, 'playground');
    expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dataset.theme])).toEqual([
      'zh-CN',
      'dark',
    ]);
    // Back to auto and English.
    await page.selectOption('#theme', '');
    await page.selectOption('#lang', 'en');
    expect(await bg()).toBe('rgb(253, 253, 252)');
    expect(await page.evaluate(() => localStorage.getItem('relpos-theme'))).toBeNull();
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('responsive', () => {
  for (const width of [390, 768, 1280]) {
    it(`no page scrolls sideways at ${width} px; the playground opens on its heatmaps`, async () => {
      const viewport = { width, height: width === 390 ? 844 : width === 768 ? 1024 : 900 };
      for (const [name, path] of Object.entries(PAGES)) {
        const { page, errors, context } = await open(path, { viewport });
        await waitDrawn(page, name);
        if (name === 'chapter') await mountChapter(page);
        const overflow = await page.evaluate(() => ({
          scroll: document.documentElement.scrollWidth,
          inner: window.innerWidth,
          wide: [...document.querySelectorAll('body *')]
            .filter(
              (el) =>
                el.getBoundingClientRect().right > window.innerWidth + 1 && !el.closest('.table-wrap, .tex, .pane-map'),
            )
            .slice(0, 5)
            .map((el) => `${el.tagName.toLowerCase()}.${el.className}`),
        }));
        expect(overflow.scroll, `${name} at ${width}: ${overflow.wide.join(', ')}`).toBeLessThanOrEqual(overflow.inner);
        if (name === 'playground') {
          const maps = await page.evaluate(() =>
            ['map', 'b-map'].map((id) => {
              const r = document.getElementById(id).shadowRoot.querySelector('.surface').getBoundingClientRect();
              return { top: r.top, bottom: r.bottom, left: r.left, right: r.right, fold: window.innerHeight };
            }),
          );
          // The first heatmap lies wholly in the first screen at every width.
          expect(maps[0].top).toBeGreaterThanOrEqual(0);
          expect(maps[0].bottom).toBeLessThanOrEqual(maps[0].fold);
          if (width === 1280) {
            // Side by side: both in the first screen, B to the right of A.
            expect(maps[1].bottom).toBeLessThanOrEqual(maps[1].fold);
            expect(maps[1].left).toBeGreaterThan(maps[0].right);
          } else {
            expect(maps[1].top).toBeGreaterThan(maps[0].bottom); // stacked
          }
          // Loading a model is a compact action, closed until asked.
          expect(await page.evaluate(() => document.getElementById('config').open)).toBe(false);
        }
        expect(errors, name).toEqual([]);
        await context.close();
      }
    }, 180000);
  }
});

// Tabs through the page; returns every stop: what it is, and whether a focus ring shows.
async function tabWalk(page, max) {
  const stops = [];
  for (let k = 0; k < max; k++) {
    await page.keyboard.press('Tab');
    const stop = await page.evaluate(() => {
      let el = document.activeElement;
      while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
      if (!el || el === document.body) return null;
      const ring = (e) => {
        const s = getComputedStyle(e);
        return (s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0) || (s.boxShadow && s.boxShadow !== 'none');
      };
      // A segmented button's radio is transparent: its ring is drawn on the label text beside it.
      const drawn = el.matches('.rp-segmented input') ? el.nextElementSibling : el;
      const host = el.getRootNode().host;
      return {
        key: `${host ? `${host.tagName.toLowerCase()}#${host.id} ` : ''}${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.dataset.page ? `[${el.dataset.page}]` : ''}`,
        ring: ring(drawn),
        inFooter: Boolean(el.closest('.rp-footer')),
      };
    });
    if (!stop) break;
    stops.push(stop);
    if (stop.inFooter && stop.key.includes('[lab]')) break; // the last link of the page
  }
  return stops;
}

describe('keyboard alone', () => {
  const expectations = {
    chapter: ['relpos-heatmap#map div', 'select#scheme', 'canvas'],
    playground: ['summary', 'relpos-heatmap#map div', 'relpos-heatmap#b-map div', 'select#b-scheme'],
    lab: ['relpos-lab#lab select', 'relpos-lab#lab button'],
    notfound: [],
  };
  for (const [name, path] of Object.entries(ALL_PAGES)) {
    it(`${name}: skip link first, every control reachable with a visible focus ring, out to the footer`, async () => {
      const { page, errors, context } = await open(path);
      await waitDrawn(page, name);
      if (name === 'chapter') await mountChapter(page);
      const stops = await tabWalk(page, 700);
      expect(stops[0].key).toBe('a');
      for (const target of ['chapter', 'playground', 'lab']) {
        expect(stops.some((s) => s.key === `a[${target}]`)).toBe(true);
      }
      expect(stops.some((s) => s.key === 'select#lang') && stops.some((s) => s.key === 'select#theme')).toBe(true);
      for (const want of expectations[name]) {
        expect(
          stops.some((s) => s.key.startsWith(want)),
          `${name} reaches ${want}`,
        ).toBe(true);
      }
      expect(stops.at(-1).inFooter, 'the walk reaches the footer').toBe(true);
      expect(stops.filter((s) => !s.ring).map((s) => s.key)).toEqual([]);
      // The skip link moves the reader to the main content.
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.focus('a.skip');
      await page.keyboard.press('Enter');
      const main = await page.evaluate(() => document.querySelector('main').id);
      expect(await page.evaluate(() => location.hash)).toBe(`#${main}`);
      expect(errors).toEqual([]);
      await context.close();
    }, 180000);
  }
});

describe('controls of the design system', () => {
  it('the scheme picker groups the catalogue by family, named in the reader’s language', async () => {
    const { page, errors, context } = await open('playground.html?lang=zh');
    await waitDrawn(page, 'playground');
    const groups = await page.evaluate(() =>
      [...document.querySelectorAll('#scheme optgroup')].map((g) => ({
        label: g.label,
        ids: [...g.querySelectorAll('option')].map((o) => o.value),
      })),
    );
    const family = new Map(await withRp(page, (rp) => rp.schemes.map((x) => [x.id, x.family])));
    expect(groups.length).toBeGreaterThanOrEqual(4);
    for (const g of groups) {
      expect(g.label).toMatch(/[\u4e00-\u9fff]/);
      expect(new Set(g.ids.map((id) => family.get(id))).size, g.label).toBe(1);
    }
    expect(new Set(groups.map((g) => family.get(g.ids[0]))).size).toBe(groups.length);
    expect(groups.find((g) => g.ids.includes('alibi')).ids).toEqual(expect.arrayContaining(['t5', 'kerple-log']));
    expect(errors).toEqual([]);
    await context.close();
  });

  it('segmented buttons: arrow keys move the choice and the figure follows', async () => {
    const { page, errors, context } = await open('playground.html');
    await waitDrawn(page, 'playground');
    await page.focus('#mode input[value=""]');
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(() => document.getElementById('map').getAttribute('mode') === 'explicit');
    expect(await page.evaluate(() => document.getElementById('mode').value)).toBe('explicit');
    expect(await page.evaluate(() => location.hash)).toContain('mode=explicit');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a slider shows its value with its unit, and says both to screen readers', async () => {
    const { page, errors, context } = await open('playground.html?lang=zh');
    await waitDrawn(page, 'playground');
    // The function runs in the page with the page's own ui.js (as Vite serves it).
    const probe = async ({ slider }) => {
      const a = slider({ key: 'pane.n', min: 4, max: 64, step: 4, value: 16, unit: 'nav.lab', name: 'probe-a' });
      const b = slider({ key: 'pane.n', min: 0, max: 90, value: 30, unit: '°', format: (v) => v.toFixed(1) });
      document.querySelector('main').append(a.root, b.root);
      b.value = 45;
      return {
        a: [a.root.querySelector('.rp-value').textContent, a.input.getAttribute('aria-valuetext')],
        b: [b.root.querySelector('.rp-value').textContent, b.input.getAttribute('aria-valuetext')],
      };
    };
    const shown = await page.evaluate(`import('/tutorial/ui.js').then(${probe.toString()})`);
    expect(shown.a).toEqual([`16${zh.page['nav.lab']}`, `16 ${zh.page['nav.lab']}`]);
    expect(shown.b).toEqual(['45.0°', '45.0 °']);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('loading a model opens when asked', async () => {
    const { page, errors, context } = await open('playground.html');
    await waitDrawn(page, 'playground');
    expect(await page.isVisible('#config-json')).toBe(false);
    await page.click('#config summary');
    expect(await page.isVisible('#config-json')).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('the lab shows what it will measure before it runs, then streams its own curves', async () => {
    const { page, errors, context } = await open('lab.html?schemes=alibi&length=8&steps=12&seed=2');
    await waitDrawn(page, 'lab');
    const before = await page.evaluate(() => ({
      sentence: document.getElementById('lab-preview-text').textContent,
      plots: [...document.querySelectorAll('#lab-preview relpos-curve')].map((c) => ({
        axes: c.shadowRoot.querySelectorAll('.u-axis').length,
        title: c.shadowRoot.querySelector('.u-title')?.textContent,
      })),
      labPlots: document.getElementById('lab').shadowRoot.querySelectorAll('relpos-curve').length,
    }));
    expect(before.sentence.length).toBeGreaterThan(40);
    expect(before.plots).toHaveLength(3);
    for (const p of before.plots) {
      expect(p.axes).toBeGreaterThanOrEqual(1);
      expect(p.title).toBeTruthy();
    }
    expect(before.labPlots).toBe(0);
    const after = await page.evaluate(async () => {
      const lab = document.getElementById('lab');
      // Streaming: a loss curve is drawn while the run is still going (no result yet).
      let streamed = false;
      const watch = new MutationObserver(() => {
        if (lab.results.length === 0 && lab.shadowRoot.querySelector('.loss relpos-curve')) streamed = true;
      });
      watch.observe(lab.shadowRoot, { childList: true, subtree: true });
      await lab.train();
      watch.disconnect();
      return {
        previewHidden: document.getElementById('lab-preview').hidden,
        labPlots: lab.shadowRoot.querySelectorAll('relpos-curve').length,
        streamed,
      };
    });
    expect(after).toEqual({ previewHidden: true, labPlots: 3, streamed: true });
    expect(errors).toEqual([]);
    await context.close();
  }, 120000);
});
