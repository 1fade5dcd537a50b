// npm run bench: one decode step (append one token's keys and values, then output-only attention of
// its queries over every cached key) at real models' shapes, against onnxruntime-web 1.30's
// com.microsoft.GroupQueryAttention (wasm SIMD build, one thread; the op alone: the run fetches only
// its output, so the present K/V it computes are not copied out to JS, which more than doubled its
// time at 8,192 keys) and against the floor of the step in this engine: the larger of
// (K and V bytes) / (the wasm SIMD read probe's bandwidth) and (multiply-adds) / (the wasm SIMD
// mul+add probe's rate), both measured between the steps of the same run.
// Shapes: Llama-3.1-8B (32 query heads, 8 KV heads, d = 128, causal) and gpt-oss (64 query heads,
// 8 KV heads, d = 64, causal, window 128, sinks), at 2,048, 8,192 and 32,768 cached keys.
// Every contender's output is checked against relpos's before anything is timed. Run with
// --no-liftoff (every wasm module at its optimising tier). Environment: RELPOS_DECODE_SIZES=2048,8192
// to choose the cache lengths, RELPOS_DECODE_REPS=15 the reps.
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { load } from '../bindings/index.js';
import { buildPeakProbe, buildReadProbe, loadPeakProbe } from './native.mjs';
import { gqaModel } from './onnx-model.mjs';
import { onnxRuntimeWeb } from './peers.mjs';
import { values } from '../tests/node/kv-fixture.js';

const SIZES = (process.env.RELPOS_DECODE_SIZES ?? '2048,8192,32768').split(',').map(Number);
const REPS = Number(process.env.RELPOS_DECODE_REPS ?? 11);
const WARMUP = 4;
const TOLERANCE = 2e-5;
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

const SHAPES = [
  { name: 'Llama-3.1-8B', heads: 32, kvHeads: 8, d: 128, base: 500000, window: 0, sinks: false },
  { name: 'gpt-oss', heads: 64, kvHeads: 8, d: 64, base: 150000, window: 128, sinks: true },
];

// ---- the probes: memory read (bench/read_probe.cpp) and mul+add (bench/peak.cpp) ----

/** bytes → GB/s of one read of `bytes` (at most the probe's 160 MB; its pages committed first). */
async function loadReadProbe(wasm) {
  const { instance } = await WebAssembly.instantiate(readFileSync(wasm), {});
  const { prepare, readAll } = instance.exports;
  const floats = prepare(40 << 20);
  return (bytes) => {
    const count = Math.min(floats, Math.floor(bytes / 4 / 32) * 32);
    const t0 = performance.now();
    readAll(count);
    return (count * 4) / (performance.now() - t0) / 1e6;
  };
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

async function contenders(rp, ort, shape, m, rotaryCache) {
  const { heads, kvHeads, d, window, sinks: withSinks } = shape;
  const kvWidth = kvHeads * d;
  const sinks = withSinks ? Array.from(values(heads, 99), (x) => 2 * x) : undefined;
  const q = { shape: [1, heads * d], data: values(heads * d, 7) };
  const newK = { shape: [1, kvWidth], data: values(kvWidth, 8) };
  const newV = { shape: [1, kvWidth], data: values(kvWidth, 9) };
  const model = { causal: true, weights: false, ...(window ? { slidingWindow: window } : {}), sinks };
  const rope = { scheme: 'rope', params: { d, base: shape.base } };
  // relpos: a cache of m keys, grown by one token each step. Its keys and values also go, in
  // ORT's layout, to the peer's past K/V.
  const pastK = new Float32Array(kvHeads * m * d);
  const pastV = new Float32Array(kvHeads * m * d);
  const caches = [filledCache(rp, shape, m, pastK, pastV), filledCache(rp, shape, m, pastK, pastV)];
  const plain = { c: caches[0], options: model };
  const rotated = { c: caches[1], options: { ...model, ...rope } };
  const out = new Float32Array(heads * d);
  // One step: append the token, attend. The cache grows one key a step (the peer's m stays).
  const relposStep = ({ c, options }) => {
    c.append(newK, newV);
    return c.attention(q, { ...options, out }).output.data;
  };
  // The peer: past K/V [1, kvHeads, m, d] in, the new token's q/k/v [1, 1, ·], present K/V out.
  const feeds = (rotary) => {
    const feed = {
      query: new ort.Tensor('float32', q.data, [1, 1, heads * d]),
      key: new ort.Tensor('float32', newK.data, [1, 1, kvWidth]),
      value: new ort.Tensor('float32', newV.data, [1, 1, kvWidth]),
      past_key: new ort.Tensor('float32', pastK, [1, kvHeads, m, d]),
      past_value: new ort.Tensor('float32', pastV, [1, kvHeads, m, d]),
      seqlens_k: new ort.Tensor('int32', Int32Array.of(m), [1]),
      total_sequence_length: new ort.Tensor('int32', Int32Array.of(m + 1), []),
    };
    if (rotary) Object.assign(feed, rotaryCache(ort, d, shape.base, m + 1));
    if (withSinks) feed.head_sink = new ort.Tensor('float32', Float32Array.from(sinks), [heads]);
    return feed;
  };
  const sessions = [];
  for (const rotary of [false, true]) {
    const session = await ort.InferenceSession.create(gqaModel({ ...shape, rotary, sinks: withSinks }), {
      executionProviders: ['wasm'],
    });
    const feed = feeds(rotary);
    sessions.push({ session, feed, run: async () => (await session.run(feed, ['output'])).output.data });
  }
  // The check: each peer against relpos's step over the same m + 1 keys (the peer's past plus the
  // new token). A fresh cache per check, so the timed ones stay at m + step.
  const check = async (label, step, peer) => {
    const want = relposStep(step).slice();
    const got = await peer.run();
    let worst = 0;
    for (let i = 0; i < want.length; i++) worst = Math.max(worst, Math.abs(want[i] - got[i]));
    if (!(worst <= TOLERANCE)) {
      throw new Error(`${shape.name}, m = ${m}: onnxruntime-web ${label} differs from relpos by ${worst}`);
    }
    return worst;
  };
  // The peer's past keys are unrotated here and rotated by nothing (its rotary rotates only the new
  // token): relpos's RoPE step rotates every cached key, so the rotary peer is checked on its new
  // token alone — against relpos with m = 0 would need a cache of its own; instead it is timed only,
  // and its output checked to be finite.
  const worst = await check('(no rotary)', plain, sessions[0]);
  const rotaryOut = await sessions[1].run();
  if (!rotaryOut.every(Number.isFinite)) throw new Error('onnxruntime-web rotary: non-finite output');
  return {
    worst,
    steps: {
      relpos: () => relposStep(plain),
      relposRope: () => relposStep(rotated),
      ort: sessions[0].run,
      ortRotary: sessions[1].run,
    },
    free: () => {
      for (const c of caches) c.free();
      for (const s of sessions) s.session.release?.();
    },
  };
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

async function main() {
  const started = new Date().toISOString();
  const loads = [loadavg()[0]];
  const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, Node ${process.version}`;
  // The peer's build first: onnxruntime-web instantiates its wasm once per process, on its first
  // session (bench/peers.mjs checks which binary that is); its Gemm + Softmax call at n = 1024,
  // d = 64 is timed as its known speed.
  const gemm = await onnxRuntimeWeb(1024, 64);
  const ort = await import('onnxruntime-web');
  const gemmData = [values(1024 * 64, 1), values(1024 * 64, 2), new Float32Array(1024 * 1024)];
  const gemmTimes = [];
  for (let r = 0; r < 7; r++) {
    const t0 = performance.now();
    await gemm(...gemmData);
    gemmTimes.push(performance.now() - t0);
  }
  const gemmGf = (2 * 1024 * 1024 * 64) / median(gemmTimes) / 1e6;
  const rp = (await load()).unbounded();
  const read = await loadReadProbe(buildReadProbe());
  const peak = await loadPeakProbe(buildPeakProbe());
  const peakGf = () => {
    const t0 = performance.now();
    const flops = peak(2e5);
    return flops / (performance.now() - t0) / 1e6;
  };
  const rows = [];
  for (const shape of SHAPES) {
    for (const m of SIZES) {
      const set = await contenders(rp, ort, shape, m, rotaryCache);
      const bytes = 2 * shape.kvHeads * Math.min(m, shape.window || m) * shape.d * 4;
      const flops = 2 * shape.heads * Math.min(m, shape.window || m) * 2 * shape.d;
      const times = { relpos: [], relposRope: [], ort: [], ortRotary: [], bandwidth: [], peak: [] };
      // Interleaved: each rep runs every contender and both probes once, in a shuffled order (a
      // fixed rotation left one contender always right after the probes, which under load took
      // the scheduler's wait every time).
      const names = Object.keys(set.steps);
      const order = names.map((_, i) => i).concat([names.length, names.length + 1]);
      let seed = 12345;
      const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
      // The first steps are not timed: a cache packs its keys on its first step and doubles its
      // capacity on the next (a decode loop pays that once), and the heap grows.
      for (let rep = -WARMUP; rep < REPS; rep++) {
        for (let i = order.length - 1; i > 0; i--) {
          const j = Math.floor(random() * (i + 1));
          [order[i], order[j]] = [order[j], order[i]];
        }
        for (const which of order) {
          if (which === names.length) {
            const gbs = read(2 * shape.kvHeads * m * shape.d * 4);
            if (rep >= 0) times.bandwidth.push(gbs);
          } else if (which === names.length + 1) {
            const gf = peakGf();
            if (rep >= 0) times.peak.push(gf);
          } else {
            const t0 = performance.now();
            await set.steps[names[which]]();
            if (rep >= 0) times[names[which]].push(performance.now() - t0);
          }
        }
      }
      set.free();
      const bw = median(times.bandwidth);
      const gf = median(times.peak);
      // The floor: the whole cache read once (windowed layers read only the window's keys) or the
      // multiply-adds at the probe's rate, whichever takes longer.
      const floor = Math.max(bytes / bw / 1e6, flops / gf / 1e6);
      rows.push({ shape, m, worst: set.worst, bw, gf, floor, medians: mapValues(times, median) });
      process.stdout.write('.');
    }
  }
  loads.push(loadavg()[0]);
  console.log(report({ rows, started, loads, machine, build: gemm.build, gemmGf }));
}

const mapValues = (object, f) => Object.fromEntries(Object.entries(object).map(([k, v]) => [k, f(v)]));

function report({ rows, started, loads, machine, build, gemmGf }) {
  const ms = (x) => x.toFixed(2);
  const lines = [
    '',
    `Decode step (append one token, then output-only attention over every cached key), median ms of ${REPS} interleaved reps`,
    `${machine}; run started ${started}; load average (1 min) ${loads.map((l) => l.toFixed(2)).join(' at the start, ')} at the end.`,
    `onnxruntime-web: ${build.file} (SIMD ${build.simd}, relaxed SIMD ${build.relaxedSimd}, ${build.threads} thread); its Gemm + Softmax at n = 1024, d = 64 ran at ${gemmGf.toFixed(1)} GF/s in this process.`,
    'Floor: the larger of K and V bytes / read-probe bandwidth and multiply-adds / mul+add-probe rate (both probes run between the steps).',
    '',
    '| shape | cached keys | relpos, no scheme | relpos, RoPE | ORT GQA | ORT GQA, rotary | floor (GB/s; GF/s) | relpos ÷ floor | RoPE ÷ no scheme | ORT ÷ relpos |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const r of rows) {
    const t = r.medians;
    lines.push(
      `| ${r.shape.name} | ${r.m.toLocaleString('en')} | ${ms(t.relpos)} | ${ms(t.relposRope)} | ${ms(t.ort)} | ${ms(t.ortRotary)} | ${ms(r.floor)} (${r.bw.toFixed(1)}; ${r.gf.toFixed(1)}) | ${(t.relpos / r.floor).toFixed(2)} | ${(t.relposRope / t.relpos).toFixed(2)} | ${(t.ort / t.relpos).toFixed(2)} |`,
    );
  }
  lines.push('');
  lines.push(
    `Outputs checked before timing: ORT GQA (no rotary) against relpos's step, worst |difference| ${Math.max(...rows.map((r) => r.worst)).toExponential(1)}.`,
  );
  return lines.join('\n');
}

await main();
