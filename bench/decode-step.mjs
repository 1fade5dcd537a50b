// One decode step of `npm run bench` (append one token's keys and values, then output-only attention
// of its queries over every cached key), set up, checked and timed the same way in Node
// (bench/decode.mjs) and in Chromium (bench/decode-page.mjs): relpos with and without RoPE,
// onnxruntime-web's com.microsoft.GroupQueryAttention over the same past K/V (the op alone: only its
// output is fetched), and the floor from the wasm SIMD read and mul+add probes run between the
// steps. Plain JS, no Node modules.
import { values } from '../tests/node/kv-fixture.js';
import { gqaModel } from './onnx-model.mjs';
import { roundOrder, seeded } from './workload.mjs';

export const TOLERANCE = 2e-5;
export const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const mapValues = (object, f) => Object.fromEntries(Object.entries(object).map(([k, v]) => [k, f(v)]));

export const SHAPES = [
  { name: 'Llama-3.1-8B', heads: 32, kvHeads: 8, d: 128, base: 500000, window: 0, sinks: false },
  { name: 'gpt-oss', heads: 64, kvHeads: 8, d: 64, base: 150000, window: 128, sinks: true },
];

// ---- the probes: memory read (bench/read_probe.cpp) and mul+add (bench/peak.cpp) ----

/** bytes → GB/s of one read of `bytes` (at most the probe's 160 MB; its pages committed first). */
export function readProbe({ prepare, readAll }) {
  const floats = prepare(40 << 20);
  return (bytes) => {
    const count = Math.min(floats, Math.floor(bytes / 4 / 32) * 32);
    const t0 = performance.now();
    readAll(count);
    return (count * 4) / (performance.now() - t0) / 1e6;
  };
}

/** () → GF/s of one call of `iterations` rounds of the mul+add probe. */
export function peakRate({ peak, flopsPerIteration }, iterations) {
  const flops = iterations * flopsPerIteration();
  return () => {
    const t0 = performance.now();
    peak(iterations, 0.999, 0.001);
    return flops / (performance.now() - t0) / 1e6;
  };
}

/** GF/s of `run` (which does `flops`), the median of `times` calls. */
export async function rate(run, flops, times = 7) {
  const ms = [];
  for (let r = 0; r < times; r++) {
    const t0 = performance.now();
    await run();
    ms.push(performance.now() - t0);
  }
  return flops / median(ms) / 1e6;
}

// ---- one shape at one cache length: every contender set up and checked ----

// A relpos cache of m keys and values, which also go to pastK / pastV in ORT's [kvHeads, m, d].
function filledCache(rp, { heads, kvHeads, d }, m, pastK, pastV) {
  const kvWidth = kvHeads * d;
  const c = rp.kvCache({ heads, kvHeads, d });
  for (let j0 = 0; j0 < m; j0 += 1024) {
    const rows = Math.min(1024, m - j0);
    const k = values(rows * kvWidth, 1000 + j0);
    const v = values(rows * kvWidth, 2000 + j0);
    for (let r = 0; r < rows; r++) {
      for (let g = 0; g < kvHeads; g++) {
        const at = (g * m + j0 + r) * d;
        pastK.set(k.subarray(r * kvWidth + g * d, r * kvWidth + (g + 1) * d), at);
        pastV.set(v.subarray(r * kvWidth + g * d, r * kvWidth + (g + 1) * d), at);
      }
    }
    c.append({ shape: [rows, kvWidth], data: k }, { shape: [rows, kvWidth], data: v });
  }
  return c;
}

// cos/sin caches [positions, d / 2] of RoPE with `base` (half layout), as HF computes them.
function rotaryCache(ort, d, base, positions) {
  const half = d / 2;
  const cos = new Float32Array(positions * half);
  const sin = new Float32Array(positions * half);
  for (let p = 0; p < positions; p++) {
    for (let i = 0; i < half; i++) {
      const angle = p * base ** ((-2 * i) / d);
      cos[p * half + i] = Math.cos(angle);
      sin[p * half + i] = Math.sin(angle);
    }
  }
  return {
    cos_cache: new ort.Tensor('float32', cos, [positions, half]),
    sin_cache: new ort.Tensor('float32', sin, [positions, half]),
  };
}

// The peer, without and with rotary: past K/V [1, kvHeads, m, d] in, the new token's q/k/v
// [1, 1, ·], only the output fetched.
async function peerRuns(ort, shape, m, { q, newK, newV, sinks, pastK, pastV }) {
  const { heads, kvHeads, d } = shape;
  const runs = [];
  for (const rotary of [false, true]) {
    const feed = {
      query: new ort.Tensor('float32', q.data, [1, 1, heads * d]),
      key: new ort.Tensor('float32', newK.data, [1, 1, kvHeads * d]),
      value: new ort.Tensor('float32', newV.data, [1, 1, kvHeads * d]),
      past_key: new ort.Tensor('float32', pastK, [1, kvHeads, m, d]),
      past_value: new ort.Tensor('float32', pastV, [1, kvHeads, m, d]),
      seqlens_k: new ort.Tensor('int32', Int32Array.of(m), [1]),
      total_sequence_length: new ort.Tensor('int32', Int32Array.of(m + 1), []),
    };
    if (rotary) Object.assign(feed, rotaryCache(ort, d, shape.base, m + 1));
    if (sinks) feed.head_sink = new ort.Tensor('float32', Float32Array.from(sinks), [heads]);
    const session = await ort.InferenceSession.create(gqaModel({ ...shape, rotary, sinks: Boolean(sinks) }), {
      executionProviders: ['wasm'],
    });
    runs.push({ session, run: async () => (await session.run(feed, ['output'])).output.data });
  }
  return runs;
}

/**
 * relpos's steps (plain and RoPE, each on a cache of m keys grown one token a step) and, given `ort`,
 * the peer's, its plain output checked against relpos's step over the same m + 1 keys first.
 */
export async function contenders(rp, ort, shape, m) {
  const { heads, kvHeads, d, window } = shape;
  const token = {
    q: { shape: [1, heads * d], data: values(heads * d, 7) },
    newK: { shape: [1, kvHeads * d], data: values(kvHeads * d, 8) },
    newV: { shape: [1, kvHeads * d], data: values(kvHeads * d, 9) },
    sinks: shape.sinks ? Array.from(values(heads, 99), (x) => 2 * x) : undefined,
    pastK: new Float32Array(kvHeads * m * d),
    pastV: new Float32Array(kvHeads * m * d),
  };
  const model = { causal: true, weights: false, ...(window ? { slidingWindow: window } : {}), sinks: token.sinks };
  const caches = [0, 1].map(() => filledCache(rp, shape, m, token.pastK, token.pastV));
  const out = new Float32Array(heads * d);
  const relposStep = (c, options) => () => {
    c.append(token.newK, token.newV);
    return c.attention(token.q, { ...options, out }).output.data;
  };
  const steps = {
    relpos: relposStep(caches[0], model),
    relposRope: relposStep(caches[1], { ...model, scheme: 'rope', params: { d, base: shape.base } }),
  };
  const free = (peers) => {
    for (const c of caches) c.free();
    for (const p of peers) p.session.release?.();
  };
  if (!ort) return { worst: null, steps, free: () => free([]) };
  const peers = await peerRuns(ort, shape, m, token).catch((error) => {
    free([]);
    throw error;
  });
  // The peer's past keys are unrotated and its rotary rotates only the new token, while relpos's
  // RoPE step rotates every cached key: the rotary peer is timed, its output only checked finite.
  const want = steps.relpos().slice();
  const got = await peers[0].run();
  const worst = want.reduce((w, x, i) => Math.max(w, Math.abs(x - got[i])), 0);
  let problem = null;
  if (!(worst <= TOLERANCE)) problem = `onnxruntime-web (no rotary) differs from relpos by ${worst}`;
  else if (!(await peers[1].run()).every(Number.isFinite)) problem = 'onnxruntime-web rotary: non-finite output';
  if (problem) {
    free(peers);
    throw new Error(`${shape.name}, m = ${m}: ${problem}`);
  }
  Object.assign(steps, { ort: peers[0].run, ortRotary: peers[1].run });
  return { worst, steps, free: () => free(peers) };
}

// ---- timing ----

/**
 * Every step and every probe once a rep, in a shuffled order (a fixed rotation left one contender
 * always right after the probes, which under load took the scheduler's wait every time); `warmup`
 * untimed reps first (a cache packs its keys on its first step and doubles its capacity on the
 * next, as a decode loop does once, and the heap grows). → each one's median: a step's ms, a
 * probe's own reading.
 */
export async function interleaved(steps, probes, reps, warmup) {
  const timed = (run) => async () => {
    const t0 = performance.now();
    await run();
    return performance.now() - t0;
  };
  const slots = [...Object.entries(mapValues(steps, timed)), ...Object.entries(probes)];
  const samples = Object.fromEntries(slots.map(([name]) => [name, []]));
  const random = seeded(12345);
  for (let rep = -warmup; rep < reps; rep++) {
    for (const [name, run] of roundOrder(slots, random)) {
      const value = await run();
      if (rep >= 0) samples[name].push(value);
    }
  }
  return mapValues(samples, median);
}

// The median of `reps` timings of `step` right after one untimed call of its own.
function warmStep(step, reps) {
  const ms = [];
  for (let rep = 0; rep < reps; rep++) {
    step();
    const t0 = performance.now();
    step();
    ms.push(performance.now() - t0);
  }
  return median(ms);
}

/**
 * One table row: every contender's median step and the floor, the larger of (K and V bytes) / (the
 * read probe's GB/s) and (multiply-adds) / (the mul+add probe's GF/s); windowed layers read only
 * the window's keys. `probes` adds readings of the caller's own. A windowed shape also gets
 * `warm`: relpos's plain step timed right after one of its own, its code and data still in the
 * caches. The table's step follows whichever contender the shuffle put before it, and the more keys
 * the peer and the read probe pass over, the less of the step they leave in the caches.
 */
export async function measure(rp, ort, shape, m, { read, peak, probes = {}, reps, warmup }) {
  const set = await contenders(rp, ort, shape, m);
  const keys = Math.min(m, shape.window || m);
  const bytes = 2 * shape.kvHeads * keys * shape.d * 4;
  const flops = 2 * shape.heads * keys * 2 * shape.d;
  let medians;
  try {
    const bandwidth = () => read(2 * shape.kvHeads * m * shape.d * 4);
    medians = await interleaved(set.steps, { bandwidth, peak, ...probes }, reps, warmup);
    // After the interleaved reps, so that it puts no warm step before theirs.
    if (shape.window) medians.warm = warmStep(set.steps.relpos, reps);
  } finally {
    set.free();
  }
  const floor = Math.max(bytes / medians.bandwidth / 1e6, flops / medians.peak / 1e6);
  return { shape, m, worst: set.worst, bw: medians.bandwidth, gf: medians.peak, floor, medians };
}

// ---- the table ----

export const TABLE_HEAD = [
  '| shape | cached keys | relpos, no scheme | relpos, RoPE | ORT GQA | ORT GQA, rotary | floor (GB/s; GF/s) | relpos ÷ floor | RoPE ÷ no scheme | ORT ÷ relpos |',
  '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
];

/** A row of TABLE_HEAD from measure()'s result, `label` naming the shape (and the engine). */
export function tableRow(label, r) {
  const t = r.medians;
  const ms = (x) => (x === undefined ? '–' : x.toFixed(2));
  const ratio = (a, b) => (a === undefined ? '–' : (a / b).toFixed(2));
  return `| ${label} | ${r.m.toLocaleString('en')} | ${ms(t.relpos)} | ${ms(t.relposRope)} | ${ms(t.ort)} | ${ms(t.ortRotary)} | ${ms(r.floor)} (${r.bw.toFixed(1)}; ${r.gf.toFixed(1)}) | ${ratio(t.relpos, r.floor)} | ${ratio(t.relposRope, t.relpos)} | ${ratio(t.ort, t.relpos)} |`;
}
