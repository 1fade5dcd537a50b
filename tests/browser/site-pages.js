// What the site tests share: the pages of the site and how to tell each one is drawn, axe-core run
// inside a page, and a production build of the site in a temporary folder, published the way static
// hosts publish it.
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { afterAll, beforeAll } from 'vitest';
import { serveSite } from '../../scripts/serve-site.mjs';
import { startBrowser } from './browser.js';

const require = createRequire(import.meta.url);

/** The site's pages with figures: name → path under the site's root. */
export const PAGES = { chapter: '', playground: 'playground.html', lab: 'lab.html' };
/** Every page, the not-found page included. */
export const ALL_PAGES = { ...PAGES, notfound: '404.html' };
export const SECTIONS = ['s211', 's212', 's213', 's214', 's215', 's216', 's217', 's218', 's219'];

/** Waits until page `name` shows its figures: live heatmaps drawn, or the lab's plots. */
export async function waitDrawn(page, name, { timeout = 60000 } = {}) {
  if (name === 'notfound') {
    // No figure: the shell has applied the reader's language.
    await page.waitForFunction(() => document.documentElement.dataset.shell === 'ready', null, { timeout });
    return true;
  }
  await page.waitForFunction(() => document.documentElement.dataset.ready === 'true', null, { timeout });
  const check = {
    chapter: () => {
      const map = document.getElementById('map');
      return map?.dataset.state === 'ready' && map.shadowRoot.querySelector('canvas.map').width > 0;
    },
    playground: () =>
      ['map', 'b-map'].every((id) => {
        const map = document.getElementById(id);
        return map?.dataset.state === 'ready' && map.shadowRoot.querySelector('canvas.map').width > 0;
      }),
    lab: () =>
      [...document.querySelectorAll('#lab-preview relpos-curve')].filter(
        (c) => c.shadowRoot?.querySelector('.uplot canvas')?.width > 0,
      ).length === 3,
  }[name];
  await page.waitForFunction(check, null, { timeout });
  return true;
}

/** Scrolls through the chapter so every section mounts its demo; returns to the top. */
export async function mountChapter(page) {
  for (const id of SECTIONS) {
    // Scrolled into view again until it has started mounting: a section above that grows while it
    // mounts can push this demo out of view before the page has seen it there.
    await page.waitForFunction(
      (s) => {
        const demo = document.querySelector(`#${s} .demo`);
        if (!demo.dataset.state) demo.scrollIntoView();
        return ['ready', 'error'].includes(demo.dataset.state);
      },
      id,
      { timeout: 60000 },
    );
  }
  await page.evaluate(() => window.scrollTo(0, 0));
}

/** Scrolls every demo of the chapter into view, one after the other, until each has mounted. */
export async function mountDemos(page) {
  await page.waitForFunction(() => document.documentElement.dataset.ready === 'true');
  const count = await page.evaluate(() => document.querySelectorAll('.demo[data-demo]').length);
  for (let k = 0; k < count; k++) {
    // As in mountChapter: scrolled into view again until it has started mounting.
    await page.waitForFunction((i) => {
      const demo = document.querySelectorAll('.demo[data-demo]')[i];
      if (!demo.dataset.state) demo.scrollIntoView();
      return ['ready', 'error'].includes(demo.dataset.state);
    }, k);
  }
}

/**
 * axe-core's WCAG 2.1 A/AA rules over the page (shadow roots included); returns the serious and
 * critical violations as { id, impact, help, targets }.
 */
export async function axeViolations(page) {
  const source = require('axe-core').source;
  await page.evaluate(source);
  const result = await page.evaluate(() =>
    window.axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] },
      resultTypes: ['violations'],
    }),
  );
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.map((n) => ({ target: n.target.flat().join(' >>> '), summary: n.failureSummary })),
    }));
}

/** Builds the production site into a fresh temporary folder; returns { outDir, remove }. */
export async function buildSite(env = {}) {
  const outDir = mkdtempSync(join(tmpdir(), 'relpos-site-'));
  const saved = {};
  for (const [k, v] of Object.entries(env)) {
    saved[k] = process.env[k];
    process.env[k] = v;
  }
  try {
    await build({
      configFile: fileURLToPath(new URL('../../vite.config.js', import.meta.url)),
      logLevel: 'error',
      build: { outDir, emptyOutDir: true },
    });
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
  return { outDir, remove: () => rmSync(outDir, { recursive: true, force: true }) };
}

/**
 * The production site built into a temporary folder and served under /relpos/ by
 * scripts/serve-site.mjs, and a browser, for a whole test file: registers the beforeAll/afterAll
 * hooks and returns the context ({ built, host, browser } once the hooks ran).
 */
export function usePublishedSite() {
  const context = {};
  beforeAll(async () => {
    context.built = await buildSite();
    context.host = await serveSite({ root: context.built.outDir, base: '/relpos/' });
    context.browser = await startBrowser();
  }, 120000);
  afterAll(async () => {
    await context.browser?.close();
    await context.host?.close();
    context.built?.remove();
  });
  return context;
}
