// The Web Worker entry in Chromium: same results as the direct API, progress, cancellation,
// transferred results, and a main thread that stays responsive.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { openPage, startBrowser, startSite } from './browser.js';

const client = fileURLToPath(new URL('../../bindings/worker-client.js', import.meta.url));
const direct = fileURLToPath(new URL('../../bindings/index.js', import.meta.url));
let site;
let browser;

beforeAll(async () => {
  site = await startSite();
  browser = await startBrowser();
});

afterAll(async () => {
  await browser?.close();
  await site?.close();
});

describe('createRelposWorker', () => {
  it('computes what the direct API computes, with progress, cancellation and a free main thread', async () => {
    const { page, errors } = await openPage(browser, `${site.url}playground.html`);
    // The page imports the modules itself (a string, so Vitest leaves its import() alone).
    await page.evaluate(
      `Promise.all([import('/@fs${client}'), import('/@fs${direct}')]).then(([c, d]) => { window.relposClient = c; window.relposDirect = d; })`,
    );
    const outcome = await page.evaluate(async () => {
      const { createRelposWorker } = window.relposClient;
      const { load } = window.relposDirect;
      const rp = createRelposWorker();
      const local = await load();
      const bias = await rp.bias('alibi', { n: 16, heads: 4, causal: true });
      const same =
        JSON.stringify(Array.from(bias.data)) ===
        JSON.stringify(Array.from(local.bias('alibi', { n: 16, heads: 4, causal: true }).data));
      const svd = await rp.analysis.svd({ shape: [2, 2], data: [3, 0, 0, 2] });
      const progress = [];
      let ticks = 0;
      const timer = setInterval(() => ticks++, 5);
      const map = await rp.attentionMap({
        n: 1 << 18,
        scheme: 'alibi',
        size: 128,
        onProgress: (p) => progress.push(p),
      });
      clearInterval(timer);
      const controller = new AbortController();
      let cancelled = '';
      try {
        await rp.attentionMap({
          n: 16384,
          seed: 1,
          size: 64,
          signal: controller.signal,
          onProgress: () => controller.abort(),
        });
      } catch (error) {
        cancelled = error.name + ': ' + error.message;
      }
      let badInput = '';
      try {
        await rp.bias('alibi', { n: -1 });
      } catch (error) {
        badInput = `${error.constructor.name}: ${error.message}`;
      }
      const version = await rp.version;
      rp.terminate();
      return {
        same,
        singular: Array.from(svd.singularValues),
        shape: map.shape,
        isFloat: map.data instanceof Float32Array,
        progress,
        ticks,
        cancelled,
        badInput,
        version,
      };
    });
    expect(outcome.same).toBe(true);
    expect(outcome.singular).toEqual([3, 2]);
    expect(outcome.shape).toEqual([128, 128]);
    expect(outcome.isFloat).toBe(true);
    expect(outcome.progress.at(-1)).toBe(1);
    expect(outcome.ticks).toBeGreaterThan(0); // timers kept firing: the page was not blocked
    expect(outcome.cancelled).toMatch(/abort/i);
    expect(outcome.badInput).toMatch(/^RangeError: relpos\.bias: n must be >= 1/);
    expect(outcome.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(errors).toEqual([]);
    await page.close();
  });
});
