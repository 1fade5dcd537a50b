// Shared set-up for browser tests: a Vite dev server on 127.0.0.1 (what `npm start` serves) and
// Debian's Chromium driven by playwright-core. Never a downloaded browser; no network beyond loopback.
import { afterAll, beforeAll } from 'vitest';
import { createServer } from 'vite';
import { fileURLToPath } from 'node:url';

import { launchChromium } from '../../scripts/chromium.mjs';

export async function startSite() {
  const server = await createServer({
    configFile: fileURLToPath(new URL('../../vite.config.js', import.meta.url)),
    server: { port: 0, strictPort: false, host: '127.0.0.1', hmr: false },
    // One dependency cache per test worker: parallel servers writing one cache race on a fresh clone.
    cacheDir: fileURLToPath(
      new URL(`../../node_modules/.vite-test/${process.env.VITEST_POOL_ID ?? process.pid}`, import.meta.url),
    ),
    logLevel: 'error',
  });
  await server.listen();
  const { port } = server.httpServer.address();
  return { url: `http://127.0.0.1:${port}/`, close: () => server.close() };
}

export async function startBrowser() {
  return launchChromium();
}

/** A page that records console errors and uncaught exceptions; `init` runs before the page's own scripts. */
export async function openPage(browser, url, { init } = {}) {
  const page = await browser.newPage();
  if (init) await page.addInitScript(init);
  const errors = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(String(error)));
  // Only loopback is reachable: fail loudly if a page asks for anything else.
  await page.route(/^(?!http:\/\/127\.0\.0\.1[:/]|data:|blob:)/, (route) => {
    errors.push(`blocked request to ${route.request().url()}`);
    route.abort();
  });
  await page.goto(url);
  return { page, errors };
}

/**
 * One site and one browser for a whole test file: registers the beforeAll/afterAll hooks and
 * returns the context ({ site, browser } once the hooks ran).
 */
export function useSite() {
  const context = {};
  beforeAll(async () => {
    context.site = await startSite();
    context.browser = await startBrowser();
  });
  afterAll(async () => {
    await context.browser?.close();
    await context.site?.close();
  });
  return context;
}

/**
 * useSite, plus one open page at `path` for the whole file ({ page, errors } once the hooks ran),
 * after `ready` (a function run in the page) holds.
 */
export function useSitePage(path = '', ready = () => true) {
  const context = useSite();
  beforeAll(async () => {
    Object.assign(context, await openPage(context.browser, `${context.site.url}${path}`));
    await context.page.waitForFunction(ready);
  });
  return context;
}
