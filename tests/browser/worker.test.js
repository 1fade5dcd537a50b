// The Web Worker entry in Chromium: same results as the direct API, progress, cancellation,
// transferred results, a main thread that stays responsive — and a worker that dies mid-job
// (stopped without a word, or by an uncaught error) rejects what was pending with a clear error,
// and the next call starts a fresh worker.
import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { openPage, useSite } from './browser.js';

const client = fileURLToPath(new URL('../../bindings/worker-client.js', import.meta.url));
const direct = fileURLToPath(new URL('../../bindings/index.js', import.meta.url));
const dying = fileURLToPath(new URL('./pages/dying-worker.js', import.meta.url));
const interrupted = fileURLToPath(new URL('../node/interrupted-map.js', import.meta.url));
const shared = useSite();

/**
 * A playground page with window.relpos: the client (createRelposWorker), the direct API (load) and
 * the interrupted maps (tests/node/interrupted-map.js).
 */
async function pageWithClient() {
  const opened = await openPage(shared.browser, `${shared.site.url}playground.html`);
  // The page imports the modules itself (a string, so Vitest leaves its import() alone).
  const urls = JSON.stringify([client, direct, interrupted].map((path) => `/@fs${path}`));
  await opened.page.evaluate(
    `Promise.all(${urls}.map((url) => import(url))).then((modules) => { window.relpos = Object.assign({}, ...modules); })`,
  );
  return opened;
}

describe('createRelposWorker', () => {
  it('computes what the direct API computes, with progress, cancellation and a free main thread', async () => {
    const { page, errors } = await pageWithClient();
    const outcome = await page.evaluate(async () => {
      const { createRelposWorker, load, mapAborted, settled } = window.relpos;
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
      const cancelled = await mapAborted(rp, { seed: 1 });
      const badInput = await settled(rp.bias('alibi', { n: -1 }));
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

  for (const [death, message] of [
    ['close', /^relpos worker: the worker stopped \(out of memory, or ended by the browser\)/],
    ['throw', /^relpos worker: .*a bug in the worker.*the next call starts a fresh worker/],
  ]) {
    it(`a worker killed mid-job (${death}) rejects every pending call, and the next call starts a fresh one`, async () => {
      const { page, errors } = await pageWithClient();
      const outcome = await page.evaluate(async (url) => {
        const { createRelposWorker, load, settled } = window.relpos;
        const rp = createRelposWorker(new URL(url, location.href));
        const progress = [];
        const started = performance.now();
        const job = (options) =>
          settled(rp.attentionMap({ n: 1 << 20, size: 64, onProgress: (p) => progress.push(p), ...options }));
        const outcomes = await Promise.all([job({ scheme: 'alibi' }), job({ seed: 3, n: 1 << 16 })]);
        const detectedMs = performance.now() - started;
        const after = await rp.bias('alibi', { n: 16, heads: 4, causal: true });
        const local = (await load()).bias('alibi', { n: 16, heads: 4, causal: true });
        rp.terminate();
        return {
          outcomes,
          detectedMs,
          progress: progress.length,
          lastProgress: progress.at(-1),
          fresh: JSON.stringify(Array.from(after.data)) === JSON.stringify(Array.from(local.data)),
        };
      }, `/@fs${dying}?death=${death}`);
      for (const result of outcome.outcomes) {
        expect(result.startsWith('Error: '), result).toBe(true);
        expect(result.slice('Error: '.length)).toMatch(message);
      }
      expect(outcome.progress).toBeGreaterThan(0); // it was mid-job
      expect(outcome.lastProgress).toBeLessThan(1);
      expect(outcome.detectedMs).toBeLessThan(10000);
      expect(outcome.fresh).toBe(true);
      // The uncaught error is the worker's own (the test put it there), not the page's.
      expect(errors.filter((e) => !/a bug in the worker/.test(e))).toEqual([]);
      await page.close();
    });
  }
});

describe('createRelposWorker with workers (a pool of Web Workers)', () => {
  it('maps, attention and lab runs over two workers equal the direct API, with progress over the pool', async () => {
    const { page, errors } = await pageWithClient();
    const outcome = await page.evaluate(async () => {
      const { createRelposWorker, load } = window.relpos;
      const rp = createRelposWorker();
      const local = (await load()).unbounded();
      const same = (a, b) => a.length === b.length && a.every((x, i) => Object.is(x, b[i]));
      const content = { n: 4096, seed: 2, scheme: 'rope', size: 64 };
      const progress = [];
      const map = await rp.attentionMap({ ...content, workers: 2, onProgress: (p) => progress.push(p) });
      const wholeMap = await local.attentionMap(content);
      const rows = 700;
      const q = { shape: [rows, 16], data: Float32Array.from({ length: rows * 16 }, (_, i) => Math.sin(i)) };
      const call = { q, k: q, v: q, heads: 2, scheme: 'alibi', causal: true };
      const pooled = await rp.attentionAsync({ ...call, workers: 2 });
      const direct = await local.attentionAsync(call);
      await local.lab.ready;
      const runs = ['rope', 'alibi'].map((scheme) => ({ scheme, steps: 8, length: 16 }));
      const labProgress = new Set();
      const lab = await rp.lab.trainMany(runs, { workers: 2, onProgress: (f, p) => labProgress.add(p.run) });
      const labDirect = await local.lab.trainMany(runs);
      const size = rp.pool.size;
      rp.terminate();
      return {
        map: same(map.data, wholeMap.data),
        weights: same(pooled.weights.data, direct.weights.data),
        output: same(pooled.output.data, direct.output.data),
        lab: lab.every((r, i) => same(r.loss, labDirect[i].loss) && same(r.accuracy, labDirect[i].accuracy)),
        labRuns: [...labProgress].sort(),
        progressInRange: progress.every((p) => p >= 0 && p <= 1 + 1e-12),
        lastProgress: progress.at(-1),
        size,
      };
    });
    expect(outcome).toMatchObject({
      map: true,
      weights: true,
      output: true,
      lab: true,
      size: 2,
      progressInRange: true,
    });
    expect(outcome.labRuns).toEqual([0, 1]);
    expect(outcome.lastProgress).toBeCloseTo(1, 12);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('one signal cancels every worker; a worker killed mid-job fails the call clearly and the pool recovers', async () => {
    const { page, errors } = await pageWithClient();
    const outcome = await page.evaluate(async () => {
      const { createRelposWorker, load, mapAborted, mapInterrupted } = window.relpos;
      const rp = createRelposWorker();
      const cancelled = await mapAborted(rp, { seed: 1, workers: 2 });
      // As the browser would stop them: without a word. Both, so the one whose part is still running
      // when the first progress arrives is among them (a fast part can be done by then).
      const died = await mapInterrupted(rp, { seed: 3, workers: 2 }, () => {
        for (let i = 0; i < rp.pool.size; i++) rp.pool.workerOf(i)?.terminate();
      });
      const again = await rp.attentionMap({ n: 512, seed: 4, size: 16, workers: 2 });
      const local = await (await load()).unbounded().attentionMap({ n: 512, seed: 4, size: 16 });
      const live = rp.pool.live;
      rp.terminate();
      return { cancelled, died, fresh: again.data.every((x, i) => Object.is(x, local.data[i])), live };
    });
    expect(outcome.cancelled).toBe('AbortError: relpos.attentionMap: aborted');
    expect(outcome.died).toMatch(
      /^Error: relpos\.attentionMap: relpos worker: the worker stopped \(out of memory, or ended by the browser\); pending calls failed, the next call starts a fresh worker$/,
    );
    expect(outcome.fresh).toBe(true);
    expect(outcome.live).toBe(2);
    expect(errors).toEqual([]);
    await page.close();
  });
});
