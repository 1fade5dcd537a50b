// One description of rp.attention's options: the core's OpOption::roles
// (rp.operations) generate bindings/option-table.js, which the JS option reader, the KV cache, the
// worker and the pool read, the KV cache step's type and the option table of docs/attention.md; a
// scheme parameter named like an attention option of another meaning never shares its value; and
// no option is silently ignored.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { load } from '../../bindings/index.js';
import * as table from '../../bindings/option-table.js';
import { generateTable, TABLE_TARGET } from '../../scripts/gen-types.mjs';

const rp = await load();
const attention = rp.operations.find((o) => o.name === 'attention');

const tensor = (shape, seed) => {
  const count = shape.reduce((a, b) => a * b, 1);
  return { shape, data: Float32Array.from({ length: count }, (_, i) => Math.sin(i * 0.37 + seed * 1.1)) };
};
const maxDiff = (a, b) => a.reduce((worst, x, i) => Math.max(worst, Math.abs(x - b[i])), 0);

describe('bindings/option-table.js is the core description of rp.attention', () => {
  it('is what scripts/gen-types.mjs generates from rp.operations and rp.schemes now', async () => {
    const expected = await generateTable(rp.schemes, rp.operations);
    expect(readFileSync(TABLE_TARGET, 'utf8') === expected, 'run `npm run types`').toBe(true);
  });

  it('lists every option of rp.attention with its roles, and only those', () => {
    expect(Object.keys(table.ATTENTION_OPTIONS).sort()).toEqual(attention.options.map((o) => o.name).sort());
    for (const o of attention.options) {
      for (const role of ['layer', 'queryRows', 'kvCache', 'worker', 'pool', 'sameInSchemes']) {
        expect(o[role], `${o.name}.${role}`).toBe(table.ATTENTION_OPTIONS[o.name][role]);
      }
    }
  });

  it('the layer fields rp.attention({ layer }) reads are the ones the description marks', () => {
    const group = rp.presets.find((p) => p.id.includes('gemma-2'))?.groups[0] ?? rp.presets[0].groups[0];
    const q = tensor([4, group.heads * 8], 1);
    // Every field the description marks is refused when given differently beside the layer.
    for (const name of table.LAYER_OPTIONS) {
      if (group[name] === undefined || name === 'params' || name === 'scheme') continue;
      const other = typeof group[name] === 'number' ? group[name] + 1 : !group[name];
      expect(() => rp.attention({ layer: group, q, k: q, [name]: other }), name).toThrow(
        new RegExp(`${name} is set by the layer`),
      );
    }
  });

  it('the KV cache step type omits what the cache holds (bindings/schemes.d.ts)', () => {
    const dts = readFileSync(new URL('../../bindings/schemes.d.ts', import.meta.url), 'utf8');
    const held = ['q', ...table.KV_CACHE_HELD].map((n) => `'${n}'`).join(' | ');
    expect(dts).toContain(
      `export type KvCacheStepOptions<Id extends string = never> = Omit<AttentionOptionsOf<Id>, ${held}>`,
    );
  });

  it("docs/attention.md's option table is the description's", async () => {
    const { attentionOptionsTable } = await import('../../scripts/gen-types.mjs');
    const docs = readFileSync(new URL('../../docs/attention.md', import.meta.url), 'utf8');
    expect(docs).toContain(attentionOptionsTable(rp.operations));
  });
});

describe("a scheme parameter named like an rp.attention option does not share the option's value", () => {
  const q = tensor([6, 8], 2);
  const k = tensor([6, 8], 3);
  const mixed = { q, k, scheme: 'sin-freq', mode: 'mixed' };

  it("sin-freq's alpha is found by the generated table", () => {
    expect(table.SCHEME_PARAMS_NAMED_LIKE_OPTIONS.alpha).toContain('sin-freq');
  });

  it("passing sin-freq's default period explicitly changes nothing", () => {
    const period = rp.schemes.find((s) => s.id === 'sin-freq').params.alpha.default;
    const plain = rp.attention(mixed).weights.data;
    expect(Array.from(rp.attention({ ...mixed, params: { alpha: period } }).weights.data)).toEqual(Array.from(plain));
  });

  it("mixed mode's alpha beside sin-freq is the weight of B: alpha 0 (documented) is plain content attention", () => {
    const none = rp.attention({ ...mixed, alpha: 0 }).weights.data;
    expect(maxDiff(none, rp.attention({ q, k }).weights.data)).toBeLessThan(1e-7);
    // and it is not the scheme's period: a period of 2 under params changes the weights.
    const two = rp.attention({ ...mixed, params: { alpha: 2 } }).weights.data;
    expect(maxDiff(two, rp.attention(mixed).weights.data)).toBeGreaterThan(1e-4);
    expect(maxDiff(rp.attention({ ...mixed, alpha: 0, params: { alpha: 2 } }).weights.data, none)).toBeLessThan(1e-7);
  });

  it('a bad value of either is reported under its own name', () => {
    expect(() => rp.attention({ ...mixed, params: { alpha: 0 } })).toThrow(/relpos\.attention: alpha must be > 0/);
    expect(() => rp.attention({ ...mixed, alpha: Infinity })).toThrow(/relpos\.attention: alpha/);
  });
});

describe('no silent option', () => {
  const q = tensor([5, 8], 4);
  const k = tensor([5, 8], 5);

  it('valueHeadDim without v is refused, naming the call and the option', () => {
    expect(() => rp.attention({ q, k, valueHeadDim: 4 })).toThrow(/^relpos\.attention: valueHeadDim .*no v was given/);
    const v = tensor([5, 4], 6);
    expect(rp.attention({ q, k, v, valueHeadDim: 4 }).output.shape).toEqual([5, 4]);
  });

  it('alpha and beta given to a mode other than mixed are refused', () => {
    expect(() => rp.attention({ q, k, scheme: 'alibi', alpha: 0.5 })).toThrow(
      /^relpos\.attention: alpha applies to mode 'mixed'.*mode 'explicit'/,
    );
    expect(() => rp.attention({ q, k, scheme: 'rope', beta: 2 })).toThrow(/beta applies to mode 'mixed'/);
    expect(() => rp.attention({ q, k, scheme: 'alibi', mode: 'mixed', alpha: 0.5 })).not.toThrow();
  });

  it('an out that views the wasm heap is refused before anything is held', () => {
    const tensorInHeap = rp.alloc([5, 5]);
    const before = rp.heapInUse();
    for (const call of [() => rp.attention({ q, k, out: tensorInHeap.data })]) {
      expect(call).toThrow(/^relpos\.attention: out views the wasm heap/);
    }
    expect(rp.heapInUse()).toBe(before);
    tensorInHeap.free();
  });

  it('an out that views the wasm heap is refused by attentionAsync too', async () => {
    const tensorInHeap = rp.alloc([5, 5]);
    await expect(rp.attentionAsync({ q, k, out: tensorInHeap.data })).rejects.toThrow(
      /^relpos\.attentionAsync: out views the wasm heap/,
    );
    tensorInHeap.free();
  });
});

describe("PyTorch's broadcast masks are read as SDPA broadcasts them", () => {
  const heads = 2;
  const n = 4;
  const m = 4;
  const q = tensor([n, heads * 8], 7);
  const k = tensor([m, heads * 8], 8);
  const keep = Uint8Array.from({ length: n * m }, (_, i) => Number((i * 7) % 5 !== 0 || i % (m + 1) === 0));
  const plain = rp.attention({ q, k, heads, mask: { shape: [n, m], data: keep } }).weights.data;

  it('[1, 1, n, m] and [1, n, m] are the [n, m] mask', () => {
    for (const shape of [
      [1, 1, n, m],
      [1, n, m],
    ]) {
      const got = rp.attention({ q, k, heads, mask: { shape, data: keep } }).weights.data;
      expect(Array.from(got), shape.join(',')).toEqual(Array.from(plain));
    }
  });

  it('[1, h, n, m] is the per-head [h, n, m] mask', () => {
    const perHead = Uint8Array.from({ length: heads * n * m }, (_, i) => Number(i % 3 !== 1 || i % (m + 1) === 0));
    const want = rp.attention({ q, k, heads, mask: { shape: [heads, n, m], data: perHead } }).weights.data;
    const got = rp.attention({ q, k, heads, mask: { shape: [1, heads, n, m], data: perHead } }).weights.data;
    expect(Array.from(got)).toEqual(Array.from(want));
  });

  it('[b, 1, 1, m] is a key-padding mask of each sequence; [1, 1, n, m] applies to every sequence', () => {
    const batch = 3;
    const qb = tensor([batch, n, heads * 8], 9);
    const kb = tensor([batch, m, heads * 8], 10);
    const padding = Uint8Array.from({ length: batch * m }, (_, i) => Number(i % m < m - (i % batch)));
    const fromHf = rp.attention({ q: qb, k: kb, heads, mask: { shape: [batch, m], data: padding } }).weights.data;
    const got = rp.attention({ q: qb, k: kb, heads, mask: { shape: [batch, 1, 1, m], data: padding } }).weights.data;
    expect(Array.from(got)).toEqual(Array.from(fromHf));
    const each = rp.attention({ q: qb, k: kb, heads, mask: { shape: [n, m], data: keep } }).weights.data;
    const broadcast = rp.attention({ q: qb, k: kb, heads, mask: { shape: [1, 1, n, m], data: keep } }).weights.data;
    expect(Array.from(broadcast)).toEqual(Array.from(each));
  });
});

describe('one abortError (bindings/errors.js)', () => {
  it('a pooled call rejects with the reason given to abort(), as a one-thread job does', async () => {
    const q = tensor([64, 8], 11);
    for (const workers of [undefined, 2]) {
      const controller = new AbortController();
      const reason = new Error('stop here');
      controller.abort(reason);
      await expect(rp.attentionAsync({ q, k: q, workers, signal: controller.signal })).rejects.toBe(reason);
    }
    const { terminateWorkers } = await import('../../bindings/index.js');
    await terminateWorkers();
  });
});

describe('relpos/worker refuses what it cannot carry (option-table.js: NOT_THROUGH_WORKER)', () => {
  it('out and view name the call and the option', async () => {
    const { createRelposWorker } = await import('../../bindings/worker-client.js');
    const { NOT_THROUGH_WORKER } = table;
    expect([...NOT_THROUGH_WORKER].sort()).toEqual(['out', 'view']);
    const client = createRelposWorker(new URL('./never-started.js', import.meta.url));
    const q = tensor([4, 8], 12);
    await expect(client.attention({ q, k: q, out: new Float32Array(16) })).rejects.toThrow(
      /^relpos\.attention: out is not available through relpos\/worker/,
    );
    await expect(client.attentionAsync({ q, k: q, view: true })).rejects.toThrow(
      /^relpos\.attentionAsync: view is not available through relpos\/worker/,
    );
  });
});
