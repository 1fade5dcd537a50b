// Pooled attention equals one thread bit for bit, or both fail with the same error (docs/workers.md),
// over random calls drawn from the whole option space: positions with and without keyPositions,
// every mask form (with batches equal to part sizes), windows, chunks, sinks, soft-cap, temperature,
// axes, `layer` of every family (rp.presets' groups), both builds (and the relaxed one where the
// engine has it) and 1–4 workers. Small shapes and a bounded number of runs keep it fast.
import { afterAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { load, terminateWorkers } from '../../bindings/index.js';
import { relaxedSimdSupported } from '../../bindings/simd.js';

afterAll(() => terminateWorkers());

const builds = [
  ['simd', { simd: true, relaxed: false }],
  ['baseline', { simd: false }],
  ...(relaxedSimdSupported() ? [['relaxed', { relaxed: true }]] : []),
];
const instances = Object.fromEntries(
  await Promise.all(builds.map(async ([name, options]) => [name, (await load(options)).unbounded()])),
);
const rp = instances.simd;

const random = (length, seed) => Float32Array.from({ length }, (_, i) => Math.sin(i * 12.9898 + seed * 78.233) * 2);

/** The outcome of a call: its tensors, or its error class and message. */
async function outcome(promise) {
  try {
    const result = await promise;
    return { weights: result.weights, output: result.output, notes: result.notes };
  } catch (error) {
    return { error: `${error.constructor.name}: ${error.message}` };
  }
}

function expectSameOutcome(pooled, one) {
  if (one.error || pooled.error) {
    expect(pooled.error).toBe(one.error);
    return;
  }
  for (const key of ['weights', 'output']) {
    expect(Boolean(pooled[key])).toBe(Boolean(one[key]));
    if (!one[key]) continue;
    expect(pooled[key].shape).toEqual(one[key].shape);
    const differing = one[key].data.findIndex((x, i) => !Object.is(x, pooled[key].data[i]));
    expect(differing).toBe(-1);
  }
  expect(pooled.notes).toEqual(one.notes);
}

// Layer groups of every family the presets hold, with what each needs besides q, k, v.
const layers = rp.presets
  .flatMap((preset) => preset.groups ?? [])
  .filter((group) => (group.needs ?? []).every((need) => need.option === 'sinks'));

const schemes = [undefined, 'rope', 'alibi', 't5', 'shaw', 'cope', 'fire', 'kerple-log', 'xpos', 'sinusoidal'];

// A random call: sizes first, then options that fit them (or, now and then, options that do not:
// both paths must then fail alike).
const call = fc
  .record({
    batch: fc.constantFrom(0, 1, 2, 3, 4),
    n: fc.integer({ min: 1, max: 24 }),
    // Long enough that the core's blocks of rows (65536 / m of them, at most 256) number two or more.
    long: fc.option(fc.integer({ min: 257, max: 300 }), { freq: 3 }),
    extra: fc.constantFrom(0, 0, 3, 9),
    heads: fc.constantFrom(1, 2, 4),
    grouped: fc.boolean(),
    d: fc.constantFrom(4, 8),
    scheme: fc.constantFrom(...schemes),
    layer: fc.option(fc.integer({ min: 0, max: layers.length - 1 }), { freq: 4 }),
    causal: fc.boolean(),
    window: fc.option(fc.integer({ min: 1, max: 12 }), { freq: 3 }),
    chunk: fc.option(fc.integer({ min: 1, max: 10 }), { freq: 4 }),
    sinks: fc.boolean(),
    softcap: fc.option(fc.constantFrom(1, 5, 30), { freq: 3 }),
    temperature: fc.boolean(),
    positions: fc.constantFrom('none', 'none', 'alone', 'both'),
    mask: fc.constantFrom('none', 'none', 'nm', 'hnm', 'bhnm', 'b1nm', 'padding', 'additive'),
    queryOffset: fc.option(fc.integer({ min: -3, max: 6 }), { freq: 4 }),
    weights: fc.boolean(),
    axes: fc.constantFrom(undefined, undefined, 'bhnd', 'nhd'),
    seed: fc.integer({ min: 1, max: 1000 }),
  })
  .map((draw) => optionsOf(draw));

function optionsOf(draw) {
  const layer = draw.layer === null ? undefined : layers[draw.layer];
  const heads = layer?.heads ?? draw.heads;
  const kvHeads = layer ? (layer.kvHeads ?? heads) : draw.grouped ? 1 : heads;
  const d = layer?.params?.d ?? draw.d;
  const dv = layer?.valueHeadDim ?? d;
  const n = layer ? Math.min(draw.n, 9) : (draw.long ?? draw.n);
  const m = draw.positions === 'alone' ? n : n + draw.extra;
  const batch = draw.batch;
  const lead = batch ? [batch] : [];
  const tensor = (rows, width, seed) => {
    const shape = [...lead, rows, width];
    return {
      shape,
      data: random(
        shape.reduce((x, y) => x * y, 1),
        seed,
      ),
    };
  };
  const options = {
    q: tensor(n, heads * d, draw.seed),
    k: tensor(m, kvHeads * d, draw.seed + 1),
    v: tensor(m, kvHeads * dv, draw.seed + 2),
  };
  if (layer) options.layer = layer;
  else {
    options.heads = heads;
    if (kvHeads !== heads) options.kvHeads = kvHeads;
    if (draw.scheme) options.scheme = draw.scheme;
    if (draw.causal) options.causal = true;
    if (draw.window !== null) options.slidingWindow = draw.window;
    if (draw.chunk !== null && draw.causal) options.attentionChunkSize = draw.chunk;
    if (draw.softcap !== null) options.softcap = draw.softcap;
    if (draw.temperature) options.temperatureTuning = { floorScale: 4, attnScale: 0.1 };
  }
  if (draw.sinks || layer?.needs?.length) {
    options.sinks = Array.from({ length: heads }, (_, h) => Math.cos(h + draw.seed));
  }
  const rows = (count, step) => Array.from({ length: count }, (_, i) => step * i + (draw.seed % 5));
  const perSequence = (count) => (batch ? Array.from({ length: batch }, (_, s) => rows(count, 2 + s)) : rows(count, 2));
  if (draw.positions !== 'none') options.positions = perSequence(n);
  if (draw.positions === 'both') options.keyPositions = perSequence(m);
  if (draw.queryOffset !== null && draw.positions === 'none') options.queryOffset = draw.queryOffset;
  const bits = (count) => Float32Array.from({ length: count }, (_, i) => ((i * 7 + draw.seed) % 5 === 0 ? 0 : 1));
  const maskShapes = {
    nm: [n, m],
    hnm: [heads, n, m],
    bhnm: [batch || 1, heads, n, m],
    b1nm: [batch || 1, 1, n, m],
    padding: [batch || 1, m],
    additive: [n, m],
  };
  const shape = maskShapes[draw.mask];
  if (shape) {
    const count = shape.reduce((x, y) => x * y, 1);
    options.mask =
      draw.mask === 'additive'
        ? { shape, data: Float32Array.from(bits(count), (b, i) => (b ? Math.sin(i) : -Infinity)), kind: 'additive' }
        : { shape, data: bits(count), kind: 'boolean' };
  }
  if (!draw.weights) options.weights = false;
  if (draw.axes) return inAxes(options, draw.axes, { heads, kvHeads, d, dv, batch });
  return options;
}

// q, k, v in 'bhnd' ([batch, heads, n, d]) or 'nhd' ([n, heads, d]) as the caller would hold them.
function inAxes(options, axes, { heads, kvHeads, d, dv, batch }) {
  if (axes === 'nhd' && batch) return options;
  const out = { ...options, axes };
  for (const [name, h, width] of [
    ['q', heads, d],
    ['k', kvHeads, d],
    ['v', kvHeads, dv],
  ]) {
    const t = options[name];
    const rows = t.shape.at(-2);
    const b = batch || 1;
    if (axes === 'nhd') {
      out[name] = { shape: [rows, h, width], data: t.data };
      continue;
    }
    const data = new Float32Array(t.data.length);
    for (let s = 0; s < b; s++) {
      for (let i = 0; i < rows; i++) {
        for (let g = 0; g < h; g++) {
          const from = ((s * rows + i) * h + g) * width;
          data.set(t.data.subarray(from, from + width), ((s * h + g) * rows + i) * width);
        }
      }
    }
    out[name] = { shape: [b, h, rows, width], data };
  }
  return out;
}

describe('pooled attention over the option space', () => {
  it('equals one thread bit for bit, or fails with the same error (every build, 1–4 workers)', async () => {
    const seen = { valid: 0, failed: 0 };
    await fc.assert(
      fc.asyncProperty(
        call,
        fc.constantFrom(...Object.keys(instances)),
        fc.integer({ min: 1, max: 4 }),
        async (options, build, workers) => {
          const instance = instances[build];
          const one = await outcome(instance.attentionAsync(options));
          const pooled = await outcome(instance.attentionAsync({ ...options, workers }));
          seen[one.error ? 'failed' : 'valid']++;
          expectSameOutcome(pooled, one);
        },
      ),
      { numRuns: 100 },
    );
    // The draws reach the computing interior, not only the refusals.
    expect(seen.valid).toBeGreaterThan(seen.failed / 2);
  }, 240_000);
});
