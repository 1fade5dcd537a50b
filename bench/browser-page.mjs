// The page side of bench/browser.mjs: runs inside Debian's Chromium on a 127.0.0.1 page. Every
// contender takes Float32Arrays and returns the n × n weights, as in the Node run (bench/attention.mjs);
// each library with its best build for this engine, and what that build is, read from the library
// itself (relpos: rp.relaxed; tfjs: its feature flags and thread count; ORT: which wasm file it fetched).
import { load } from '../bindings/index.js';
import { relaxedSimdSupported, simdSupported } from '../bindings/simd.js';
import * as tf from '@tensorflow/tfjs-core';
import * as tfWasm from '@tensorflow/tfjs-backend-wasm';
import * as ort from 'onnxruntime-web';
import { onnxModel } from './onnx-model.mjs';
import { startOrt } from './ort-page.mjs';
import { D, deviation, probeIterations, roundOrder, seeded, workload } from './workload.mjs';

const kSampleMs = 5; // see the timing loop in runBench
const kMaxBatch = 16;
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

async function probes() {
  const make = async (file, name) => {
    const response = await fetch(file);
    if (!response.ok) return null;
    const { instance } = await WebAssembly.instantiate(await response.arrayBuffer(), {});
    const per = instance.exports.flopsPerIteration();
    const run = instance.exports[name];
    return (iterations) => {
      run(iterations, 0.999, 0.001);
      return iterations * per;
    };
  };
  const mulAdd = await make('/build/bench/peak.wasm', 'peak');
  const fma = relaxedSimdSupported() ? await make('/build/bench/peak-fma.wasm', 'peakFma') : null;
  return {
    mulAdd: { probe: mulAdd, iterations: probeIterations(mulAdd, 0.1) },
    fma: fma ? { probe: fma, iterations: probeIterations(fma, 0.1) } : null,
  };
}

async function setUp() {
  const relaxed = await load();
  const simd = await load({ relaxed: false });
  tfWasm.setWasmPaths('/node_modules/@tensorflow/tfjs-backend-wasm/dist/');
  tfWasm.setThreadsCount(1);
  await tf.setBackend('wasm');
  await tf.ready();
  const tfBuild = {
    simd: tf.env().getBool('WASM_HAS_SIMD_SUPPORT'),
    threadsAvailable: tf.env().getBool('WASM_HAS_MULTITHREAD_SUPPORT'),
    threads: tfWasm.getThreadsCount(),
  };
  tfBuild.file = tfBuild.threadsAvailable
    ? 'tfjs-backend-wasm-threaded-simd.wasm'
    : tfBuild.simd
      ? 'tfjs-backend-wasm-simd.wasm'
      : 'tfjs-backend-wasm.wasm';
  // ORT: which wasm it fetches, seen while its first session starts.
  const { session, build: ortBuild } = await startOrt(ort, onnxModel(8, D));
  const sessions = new Map([[0, session]]);
  return { relaxed, simd, tfBuild, ortBuild, sessions };
}

function contenders(n, data, lib) {
  const tensor = (shape, values) => ({ shape, data: values });
  const qt = tensor([n, D], data.q);
  const kt = tensor([n, D], data.k);
  const bt = tensor([n, n], data.b);
  const scheme = { q: qt, k: kt, scheme: 'alibi', alibiBiasMax: 4 };
  const scale = 1 / Math.sqrt(D);
  const list = [];
  const allocs = [];
  for (const [label, rp] of [
    ['relaxed', lib.relaxed],
    ['SIMD', lib.simd],
  ]) {
    // B filled in place in the heap (rp.alloc) once, outside the timing: the caller's own computation.
    const inPlace = rp.alloc([n, n]);
    inPlace.data.set(data.b);
    allocs.push(inPlace);
    list.push([`relpos ${label}: scheme bias, copied result`, () => rp.attention(scheme).weights.data]);
    list.push([`relpos ${label}: given B, copied result`, () => rp.attention({ q: qt, k: kt, B: bt }).weights.data]);
    list.push([
      `relpos ${label}: given B in place (rp.alloc), copied result`,
      () => rp.attention({ q: qt, k: kt, B: inPlace }).weights.data,
    ]);
    // The caller's own array, reused across calls: the copy out of the heap without fresh pages.
    const reused = new Float32Array(n * n);
    list.push([
      `relpos ${label}: scheme bias, into a reused out`,
      () => rp.attention({ ...scheme, out: reused }).weights.data,
    ]);
    list.push([
      `relpos ${label}: scheme bias, zero-copy view`,
      () => rp.attention({ ...scheme, view: true }).weights.data,
    ]);
  }
  list.push([
    'tfjs-backend-wasm 4.22',
    () => {
      const w = tf.tidy(() => {
        const q = tf.mul(tf.tensor2d(data.q, [n, D]), scale);
        const k = tf.transpose(tf.tensor2d(data.k, [n, D]));
        return tf.softmax(tf.add(tf.matMul(q, k), tf.tensor2d(data.b, [n, n])));
      });
      const out = w.dataSync();
      w.dispose();
      return out;
    },
  ]);
  const session = lib.sessions.get(n);
  list.push([
    'onnxruntime-web 1.30',
    async () => {
      const out = await session.run({
        Q: new ort.Tensor('float32', data.q, [n, D]),
        K: new ort.Tensor('float32', data.k, [n, D]),
        B: new ort.Tensor('float32', data.b, [n, n]),
      });
      return out.W.data;
    },
  ]);
  list.release = () => allocs.forEach((t) => t.free());
  return list;
}

window.runBench = async ({ sizes, reps }) => {
  const lib = await setUp();
  const { mulAdd, fma } = await probes();
  const rows = [];
  for (const n of sizes) {
    lib.sessions.set(n, await ort.InferenceSession.create(onnxModel(n, D), { executionProviders: ['wasm'] }));
    const data = workload(n);
    const list = contenders(n, data, lib);
    const errors = {};
    for (const [name, run] of list) {
      const w = await run();
      // Rows 0 and n − 1: the first and last query, checked against float64.
      errors[name] = deviation(n, data, [0, n - 1], (i) => w.subarray(i * n, (i + 1) * n));
      if (!(errors[name] < 2e-6)) throw new Error(`${name}, n = ${n}: deviates by ${errors[name]} from float64`);
    }
    const times = Object.fromEntries(list.map(([name]) => [name, []]));
    const peaks = { mulAdd: [], fma: [] };
    // What a fresh n × n Float32Array costs before any work: its pages, touched once (every copied
    // result of every contender is one).
    const fresh = [];
    const slots = [...list, ['probe mul+add'], ['probe FMA'], ['probe fresh array']];
    const count = reps[n] ?? 5;
    // A page that is not cross-origin isolated reads performance.now() in steps of 0.1 ms, so a
    // sample is as many back-to-back calls as fill about kSampleMs (counted from the warm-up round)
    // and its time is divided among them.
    const batch = new Map(slots.map(([name]) => [name, 1]));
    const random = seeded(n + 1);
    for (let rep = 0; rep < count + 1; rep++) {
      const order = roundOrder(slots, random);
      for (const [name, run] of order) {
        if (name === 'probe FMA' && !fma) continue;
        const calls = batch.get(name);
        globalThis.gc?.(); // --js-flags=--expose-gc (bench/browser.mjs), as in the Node run
        const start = performance.now();
        let done = 0;
        for (let call = 0; call < calls; call++) {
          done =
            name === 'probe mul+add'
              ? mulAdd.probe(mulAdd.iterations)
              : name === 'probe FMA'
                ? fma.probe(fma.iterations)
                : name === 'probe fresh array'
                  ? new Float32Array(n * n).fill(1)
                  : await run();
        }
        const ms = (performance.now() - start) / calls;
        if (rep === 0) {
          batch.set(name, Math.min(kMaxBatch, Math.max(1, Math.ceil(kSampleMs / Math.max(ms, 0.1)))));
          continue;
        }
        if (name === 'probe fresh array') fresh.push(ms);
        else if (name === 'probe mul+add') peaks.mulAdd.push(done / ms / 1e6);
        else if (name === 'probe FMA') peaks.fma.push(done / ms / 1e6);
        else times[name].push(ms);
      }
    }
    rows.push({
      n,
      reps: count,
      calls: [...batch.values()],
      medians: Object.fromEntries(Object.entries(times).map(([name, t]) => [name, median(t)])),
      peak: median(peaks.mulAdd),
      fmaPeak: fma ? median(peaks.fma) : null,
      fresh: median(fresh),
      errors,
    });
    lib.sessions.get(n).release?.();
    list.release();
  }
  return {
    userAgent: navigator.userAgent,
    crossOriginIsolated: globalThis.crossOriginIsolated === true,
    engine: { simd: simdSupported(), relaxedSimd: relaxedSimdSupported() },
    relpos: { relaxed: lib.relaxed.relaxed, simd: lib.simd.simd, simdInstanceRelaxed: lib.simd.relaxed },
    tfjs: lib.tfBuild,
    ort: lib.ortBuild,
    rows,
  };
};
window.benchReady = true;
