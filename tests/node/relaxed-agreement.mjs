// Run by tests/node/attention-relaxed.test.js as
//   node --experimental-wasm-relaxed-simd tests/node/relaxed-agreement.mjs
// (Node 20 validates relaxed SIMD only with that flag). Loads the relaxed build and the SIMD build
// side by side and runs every golden case, every current reference-fixture case and a sweep over
// the fused kernel's paths in both, printing one JSON line: the largest ulp distance of logits, the
// largest absolute difference of weights and of outputs, and how many results differ at all.
import { readFileSync, readdirSync } from 'node:fs';
import { load } from '../../bindings/index.js';
import { callFor, goldenCases } from './golden.js';

const relaxed = await load({ relaxed: true });
const simd = await load({ relaxed: false });

// Distance in float32 steps (an ordered integer per float; ±0 and equal infinities are 0 apart).
const words = new Int32Array(2);
const floats = new Float32Array(words.buffer);
function ulps(a, b) {
  if (a === b || (Number.isNaN(a) && Number.isNaN(b))) return 0;
  if (!Number.isFinite(a) || !Number.isFinite(b)) return Infinity;
  floats[0] = a;
  floats[1] = b;
  const ordered = (w) => (w < 0 ? -2147483648 - w : w);
  return Math.abs(ordered(words[0]) - ordered(words[1]));
}

const worst = { logits: 0, weights: 0, output: 0, other: 0 };
const where = { logits: '', weights: '', output: '', other: '' };
let results = 0;
let differing = 0;
// Weights the x86 hardware would have to take a microcode assist for (kernels/simd.hpp): none.
const subnormal = { relaxed: 0, simd: 0 };
const isSubnormal = (x) => x !== 0 && Math.abs(x) < 2 ** -126;
function compare(name, kind, a, b) {
  results += 1;
  if (kind === 'weights') {
    for (let t = 0; t < a.length; t++) subnormal.relaxed += isSubnormal(a[t]);
    for (let t = 0; t < b.length; t++) subnormal.simd += isSubnormal(b[t]);
  }
  if (a.length !== b.length) throw new Error(`${name}: lengths ${a.length} and ${b.length}`);
  let d = 0;
  let any = false;
  for (let t = 0; t < a.length; t++) {
    if (Object.is(a[t], b[t])) continue;
    any = true;
    d = Math.max(d, kind === 'logits' ? ulps(a[t], b[t]) : Math.abs(a[t] - b[t]));
  }
  if (any) differing += 1;
  if (d > worst[kind]) {
    worst[kind] = d;
    where[kind] = name;
  }
}

// Golden fixtures: every case, in both builds.
for (const testCase of goldenCases()) {
  const call = callFor(testCase);
  const kind = testCase.kind === 'scores' ? 'logits' : testCase.kind === 'attention_weights' ? 'weights' : 'other';
  compare(`golden ${testCase.file}`, kind, call(relaxed).data, call(simd).data);
}

// Reference fixtures: the attention cases the API expresses.
const referenceDir = new URL('../fixtures/reference/', import.meta.url);
const tensor = (v) => ({ ...v, data: Float32Array.from(v.data) });
for (const file of readdirSync(referenceDir).filter((f) => f.endsWith('.json') && f !== 'index.json')) {
  const fixture = JSON.parse(readFileSync(new URL(file, referenceDir), 'utf8'));
  if (fixture.kind !== 'attention' || fixture.api !== 'current') continue;
  const options = Object.fromEntries(
    Object.entries(fixture.relpos.options).map(([k, v]) => [
      k,
      v && typeof v === 'object' && Array.isArray(v.shape) && Array.isArray(v.data) ? tensor(v) : v,
    ]),
  );
  const [a, b] = [relaxed.attention(options), simd.attention(options)];
  for (const part of Object.keys(b)) compare(`reference ${file} ${part}`, part, a[part].data, b[part].data);
}

const sameBits = (a, b) => a.length === b.length && a.every((x, t) => Object.is(x, b[t]));
// Calls as models run them: how many ran in the side module (differ from the SIMD build) and how
// many soft-capped calls differ from it (none: they fall back).
const models = { differing: 0, softcapped: 0, softcapDiffering: 0 };

// The sweep: lengths around the tile (4 rows) and panel (8 keys) sizes, each kind of term and key
// range the kernels take, grouped-query heads, logits (rp.scores) and weights with outputs.
function seeded(seed) {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32) * 2 - 1;
}
const random = seeded(7);
const filled = (shape, f = random) => ({
  shape,
  data: Float32Array.from({ length: shape.reduce((x, y) => x * y) }, f),
});
for (const [n, m] of [
  [1, 1],
  [3, 5],
  [4, 8],
  [5, 9],
  [8, 8],
  [13, 13],
  [16, 37],
  [37, 16],
  [64, 64],
  [130, 130],
]) {
  for (const d of [8, 12, 64]) {
    const q = filled([n, 2 * d]);
    const k = filled([m, d]);
    const v = filled([m, 5]);
    const variants = [
      { scheme: 'alibi' },
      { scheme: 'alibi', causal: true },
      { scheme: 'alibi', slidingWindow: 3, causal: true },
      { scheme: 'alibi', slidingWindow: 5 },
      { scheme: 'fire' },
      { scheme: 'rope', causal: true },
      { B: filled([2, n, m]) },
      { mask: filled([n, m], () => (random() > -0.6 ? 1 : 0)) },
      { B: filled([n, m]), mask: { ...filled([n, m], () => random() * 3), kind: 'additive' }, scale: 0.3 },
      {},
      // As models run it (docs/build.md, "The relaxed build"): chunks, sinks and uniform empty rows
      // run in the side module; a soft-cap falls back to the SIMD kernels (checked apart below).
      { scheme: 'rope', causal: true, attentionChunkSize: 3 },
      { scheme: 'alibi', causal: true, slidingWindow: 4, sinks: [0.5, -1] },
      { causal: true, queryOffset: -2, fullyMaskedRows: 'uniform' },
      { causal: true, causalAlign: 'topLeft', sinks: [-Infinity, 2] },
    ];
    for (const [index, extra] of variants.entries()) {
      const options = { q, k, v, heads: 2, kvHeads: 1, ...extra };
      const name = `sweep n ${n} m ${m} d ${d} variant ${index}`;
      const [a, b] = [relaxed.attention(options), simd.attention(options)];
      compare(`${name} weights`, 'weights', a.weights.data, b.weights.data);
      compare(`${name} output`, 'output', a.output.data, b.output.data);
      if (index >= variants.length - 4 && !sameBits(a.weights.data, b.weights.data)) models.differing += 1;
      // The same call soft-capped (d = 8): the side module has no tanh, so it falls back, bit for bit.
      if (d !== 8) continue;
      const capped = { ...options, softcap: 2 };
      const [ca, cb] = [relaxed.attention(capped), simd.attention(capped)];
      models.softcapped += 1;
      if (!sameBits(ca.weights.data, cb.weights.data) || !sameBits(ca.output.data, cb.output.data)) {
        models.softcapDiffering += 1;
      }
    }
  }
}

// Logits: no public call returns the kernel's logits (rp.attention returns weights), so the side
// module's logits mode runs on a memory of its own, against the SIMD kernel's arithmetic replayed
// in float32 (Math.fround: the same IEEE operations in the same order — q·k accumulated key by
// key over the head dimension, times the scale, plus the weighted bias, plus the mask).
// Besides the plain ulp distance it reports the distance in ulps of the logit's magnitude scale,
// Σ|scale·q_c·k_c| + |bias| + |mask|: a fused multiply-add rounds once where mul+add rounds twice,
// so where the dot product cancels, the two differ by a few ulps of that scale, which can be many
// ulps of the (small) result.
const logits = { ulps: 0, scaledUlps: 0, values: 0 };
{
  const bytes = readFileSync(new URL('../../dist/relpos-fused.relaxed.wasm', import.meta.url));
  const memory = new WebAssembly.Memory({ initial: 64 });
  const { instance } = await WebAssembly.instantiate(bytes, { env: { memory } });
  const heap = new Float32Array(memory.buffer);
  const ints = new Int32Array(memory.buffer);
  const f = Math.fround;
  const ulpOf = (x) => {
    floats[0] = Math.abs(x);
    words[0] += 1;
    return floats[0] - Math.abs(x) || 1.4e-45;
  };
  for (const [n, m, d, withBias, withMask, causal, window] of [
    [4, 8, 8, false, false, false, 0],
    [8, 13, 16, true, false, false, 0],
    [12, 37, 64, true, true, false, 0],
    [16, 16, 64, false, true, true, 0],
    [20, 40, 12, true, false, true, 5],
    [64, 64, 64, true, false, false, 7],
    [128, 128, 128, true, true, false, 0],
  ]) {
    const scale = f(1 / Math.sqrt(d));
    const biasWeight = f(0.75);
    let top = 64; // floats; a bump allocator in the module's memory
    const take = (count) => {
      const at = top;
      top += Math.ceil(count / 4) * 4 + 4;
      return at;
    };
    const q = take(n * d);
    const panels = take(Math.ceil(m / 8) * 8 * d);
    const bias = take(n * m);
    const mask = take(n * m);
    const out = take(n * m);
    const packed = take(4 * d);
    const k = Float32Array.from({ length: m * d }, random);
    for (let t = 0; t < n * d; t++) heap[q + t] = random();
    heap.fill(0, panels, panels + Math.ceil(m / 8) * 8 * d);
    for (let j = 0; j < m; j++) {
      for (let c = 0; c < d; c++) heap[panels + (Math.floor(j / 8) * d + c) * 8 + (j % 8)] = k[j * d + c];
    }
    for (let t = 0; t < n * m; t++) {
      heap[bias + t] = random() * 4;
      heap[mask + t] = random() > -0.8 ? random() : -Infinity;
    }
    const call = take(25);
    const fields = [
      q * 4,
      d,
      0,
      n,
      panels * 4,
      m,
      d,
      scale,
      withBias ? bias * 4 : 0,
      m,
      biasWeight,
      0,
      withMask ? mask * 4 : 0,
      m,
      0,
      causal ? 1 : 0,
      0,
      window,
      0, // chunk
      -Infinity, // sink
      0, // uniformEmpty
      out * 4,
      m,
      packed * 4,
      0,
    ];
    const floatFields = new Set([7, 10, 18]);
    fields.forEach((value, t) => {
      if (floatFields.has(t)) heap[call + t] = value;
      else ints[call + t] = value;
    });
    if (instance.exports.fusedRows(call * 4) !== n) throw new Error('fusedRows did not do every row');
    for (let i = 0; i < n; i++) {
      const begin = window > 0 ? Math.max(0, i - window + 1) : 0;
      const end = causal ? Math.min(m, i + 1) : window > 0 ? Math.min(m, i + window) : m;
      for (let j = 0; j < m; j++) {
        const got = heap[out + i * m + j];
        if (j < begin || j >= end) {
          if (got !== -Infinity) throw new Error(`logit ${i}, ${j} outside the range is ${got}`);
          continue;
        }
        let acc = 0;
        let size = 0;
        for (let c = 0; c < d; c++) {
          const product = f(heap[q + i * d + c] * k[j * d + c]);
          acc = f(acc + product);
          size += Math.abs(product * scale);
        }
        let x = f(acc * scale);
        if (withBias) {
          x = f(x + f(biasWeight * heap[bias + i * m + j]));
          size += Math.abs(biasWeight * heap[bias + i * m + j]);
        }
        if (withMask) {
          x = f(x + heap[mask + i * m + j]);
          size += Math.abs(heap[mask + i * m + j]);
        }
        logits.values += 1;
        if (x === -Infinity || got === -Infinity) {
          if (x !== got) throw new Error(`logit ${i}, ${j}: ${got} against ${x}`);
          continue;
        }
        logits.ulps = Math.max(logits.ulps, ulps(got, x));
        logits.scaledUlps = Math.max(logits.scaledUlps, Math.abs(got - x) / ulpOf(size));
      }
    }
  }
}

// Logits that fall by 1 per key reach 2^-149 and below within the row: the weights there are +0.
function steepRows() {
  const n = 8;
  const m = 160;
  const d = 4;
  const zeros = (rows) => ({ shape: [rows, d], data: new Float32Array(rows * d) });
  const B = { shape: [n, m], data: Float32Array.from({ length: n * m }, (_, t) => -(t % m) * (1 + (t % 3) / 10)) };
  const call = (rp) => rp.attention({ q: zeros(n), k: zeros(m), B }).weights.data;
  const a = call(relaxed);
  compare('logits falling by 1 per key', 'weights', a, call(simd));
  return a.filter((x) => x === 0).length;
}

const steepZeros = steepRows();
console.log(
  JSON.stringify({
    relaxed: relaxed.relaxed,
    simd: simd.relaxed,
    results,
    differing,
    worst,
    where,
    logits,
    subnormal,
    steepZeros,
    models,
  }),
);
