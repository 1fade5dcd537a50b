// A pooled call in Chromium, which has relaxed SIMD: the pool's Web Workers load the caller's build,
// so `load({ relaxed: false })` with `workers` computes its own one-thread result bit for bit, and
// so does the default (relaxed) build (bindings/pool.js, docs/workers.md). Before, the workers always
// loaded the default build and the SIMD instance's pooled weights differed from its own.
import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { openPage, useSite } from './browser.js';

const direct = fileURLToPath(new URL('../../bindings/index.js', import.meta.url));
const shared = useSite();

describe('the pool in the browser', () => {
  it("runs workers of the caller's build: relaxed and not, each equal to its own one thread", async () => {
    const { page, errors } = await openPage(shared.browser, `${shared.site.url}playground.html`);
    // The page imports the module itself (a string, so Vitest leaves its import() alone).
    await page.evaluate(`import('/@fs${direct}').then((d) => { window.relposDirect = d; })`);
    const outcome = await page.evaluate(async () => {
      const { load, terminateWorkers } = window.relposDirect;
      const n = 300;
      const wave = (seed) => Float32Array.from({ length: n * 32 }, (_, i) => Math.sin(i * 0.37 + seed));
      const options = { q: { shape: [n, 32], data: wave(1) }, k: { shape: [n, 32], data: wave(2) } };
      Object.assign(options, { v: options.k, heads: 2, scheme: 'rope', causal: true });
      const report = {};
      for (const relaxed of [false, true]) {
        const rp = await load({ relaxed });
        const one = await rp.attentionAsync(options);
        const pooled = await rp.attentionAsync({ ...options, workers: 2 });
        report[relaxed ? 'relaxed' : 'simd'] = {
          relaxed: Boolean(rp.relaxed),
          differing: one.weights.data.filter((x, i) => !Object.is(x, pooled.weights.data[i])).length,
        };
      }
      await terminateWorkers();
      return report;
    });
    expect(outcome).toEqual({ simd: { relaxed: false, differing: 0 }, relaxed: { relaxed: true, differing: 0 } });
    expect(errors).toEqual([]);
  });
});
