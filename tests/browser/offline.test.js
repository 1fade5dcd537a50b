// Offline after the first visit: the built site, served under /relpos/, is visited once (the
// chapter only); its service worker caches the pages, scripts, styles, fonts and the wasm build
// this browser runs. Then the host goes away entirely and every page — the chapter, the
// playground, the lab and a missing address — is loaded again and draws its figures; the lab even
// trains.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveSite } from '../../scripts/serve-site.mjs';
import siteEn from '../../web/i18n/site.en.js';
import { startBrowser } from './browser.js';
import { buildSite, PAGES, waitDrawn } from './site-pages.js';

let built;
let host;
let browser;

beforeAll(async () => {
  built = await buildSite();
  host = await serveSite({ root: built.outDir, base: '/relpos/' });
  browser = await startBrowser();
}, 120000);

afterAll(async () => {
  await browser?.close();
  await host?.close();
  built?.remove();
});

describe('offline after the first visit', () => {
  it('with the host gone, every page loads from the service worker and draws its figures', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(host.url);
    await waitDrawn(page, 'chapter');
    await page.waitForFunction(() => document.documentElement.dataset.offline === 'ready', null, { timeout: 60000 });
    expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);

    // The host goes away: nothing answers on its port any more.
    const url = host.url;
    host.closeAllConnections();
    await host.close();
    host = null;
    await context.setOffline(true);
    expect(
      await page.evaluate(
        (u) =>
          fetch(`${u}sw.js`, { cache: 'no-store' }).then(
            () => 'reached',
            () => 'unreachable',
          ),
        url,
      ),
    ).toBe('unreachable');

    await page.reload();
    await waitDrawn(page, 'chapter');
    for (const [name, path] of Object.entries(PAGES)) {
      await page.goto(`${url}${path}?lang=zh`);
      await waitDrawn(page, name);
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('zh-CN');
    }
    // The lab trains offline (core and worker from the cache).
    await page.goto(`${url}lab.html?schemes=alibi&length=8&steps=5&seed=1`);
    await waitDrawn(page, 'lab');
    const runs = await page.evaluate(async () => (await document.getElementById('lab').train()).length);
    expect(runs).toBe(1);
    // A missing address gets the cached not-found page.
    await page.goto(`${url}no-such-page`);
    expect(await page.textContent('h1')).toBe(siteEn['site.notfound.heading']);
    expect(errors).toEqual([]);
    await context.close();
  }, 180000);
});
