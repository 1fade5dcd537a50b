// The peers relpos is measured against in `npm run bench`: plain JS (naive and tuned),
// tfjs-backend-wasm (SIMD, one thread) and onnxruntime-web (wasm EP, one thread, Gemm + Softmax).
// Each takes JS Float32Arrays and returns the weights as a JS Float32Array, as relpos's API does.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { relaxedSimdSupported } from '../bindings/simd.js';
import { onnxModel } from './onnx-model.mjs';

const require = createRequire(import.meta.url);

/** Where each peer's wasm files are: the folder its loader fetches them from. */
export const PEER_DIST = {
  'tfjs-backend-wasm': () => `${dirname(require.resolve('@tensorflow/tfjs-backend-wasm/package.json'))}/dist`,
  // The package's entry for require() is dist/ort.min.js (its exports hide package.json).
  'onnxruntime-web': () => dirname(require.resolve('onnxruntime-web')),
};

/** sha256 of a binary handed to WebAssembly (bytes, a view or an ArrayBuffer), hex. */
export const wasmDigest = (bytes) =>
  createHash('sha256')
    .update(bytes instanceof ArrayBuffer ? new Uint8Array(bytes) : bytes)
    .digest('hex');

/** The .wasm files of folder `dir` by digest: which of them a binary handed to WebAssembly is. */
export function wasmFilesByDigest(dir) {
  return new Map(
    readdirSync(dir)
      .filter((f) => f.endsWith('.wasm'))
      .map((f) => [wasmDigest(readFileSync(`${dir}/${f}`)), f]),
  );
}

export function naiveJs(n, d) {
  const w = new Float32Array(n * n);
  const scale = 1 / Math.sqrt(d);
  return (q, k, b) => {
    for (let i = 0; i < n; i++) {
      let top = -Infinity;
      for (let j = 0; j < n; j++) {
        let s = 0;
        for (let c = 0; c < d; c++) s += q[i * d + c] * k[j * d + c];
        const l = s * scale + b[i * n + j];
        w[i * n + j] = l;
        if (l > top) top = l;
      }
      let sum = 0;
      for (let j = 0; j < n; j++) sum += w[i * n + j] = Math.exp(w[i * n + j] - top);
      for (let j = 0; j < n; j++) w[i * n + j] /= sum;
    }
    return w;
  };
}

// 2 x 4 register block over (i, j) and a cheaper exp via Math.exp on the shifted logits only once.
export function tunedJs(n, d) {
  const w = new Float32Array(n * n);
  const scale = 1 / Math.sqrt(d);
  return (q, k, b) => {
    for (let i = 0; i < n; i += 2) {
      const i1 = Math.min(i + 1, n - 1);
      for (let j = 0; j < n; j += 4) {
        let s00 = 0,
          s01 = 0,
          s02 = 0,
          s03 = 0,
          s10 = 0,
          s11 = 0,
          s12 = 0,
          s13 = 0;
        const j1 = Math.min(j + 1, n - 1),
          j2 = Math.min(j + 2, n - 1),
          j3 = Math.min(j + 3, n - 1);
        for (let c = 0; c < d; c++) {
          const a0 = q[i * d + c],
            a1 = q[i1 * d + c];
          const k0 = k[j * d + c],
            k1 = k[j1 * d + c],
            k2 = k[j2 * d + c],
            k3 = k[j3 * d + c];
          s00 += a0 * k0;
          s01 += a0 * k1;
          s02 += a0 * k2;
          s03 += a0 * k3;
          s10 += a1 * k0;
          s11 += a1 * k1;
          s12 += a1 * k2;
          s13 += a1 * k3;
        }
        const r0 = i * n,
          r1 = i1 * n;
        w[r0 + j] = s00 * scale + b[r0 + j];
        if (j + 1 < n) w[r0 + j1] = s01 * scale + b[r0 + j1];
        if (j + 2 < n) w[r0 + j2] = s02 * scale + b[r0 + j2];
        if (j + 3 < n) w[r0 + j3] = s03 * scale + b[r0 + j3];
        if (i + 1 < n) {
          w[r1 + j] = s10 * scale + b[r1 + j];
          if (j + 1 < n) w[r1 + j1] = s11 * scale + b[r1 + j1];
          if (j + 2 < n) w[r1 + j2] = s12 * scale + b[r1 + j2];
          if (j + 3 < n) w[r1 + j3] = s13 * scale + b[r1 + j3];
        }
      }
    }
    for (let i = 0; i < n; i++) {
      const row = i * n;
      let top = -Infinity;
      for (let j = 0; j < n; j++) if (w[row + j] > top) top = w[row + j];
      let sum = 0;
      for (let j = 0; j < n; j++) sum += w[row + j] = Math.exp(w[row + j] - top);
      const inv = 1 / sum;
      for (let j = 0; j < n; j++) w[row + j] *= inv;
    }
    return w;
  };
}

// tfjs-backend-wasm at its real speed: K transposed before matMul (matMul(q, k, false, true) is
// its slow path), the scale folded into q (an [n, d] pass instead of [n, n]), and dataSync() outside
// tf.tidy — returning the n² Float32Array from the tidy callback makes tidy walk every element of it
// looking for tensors, which costs far more than the attention itself.
export async function tfjsWasm(n, d) {
  const tf = await import('@tensorflow/tfjs-core');
  const wasm = await import('@tensorflow/tfjs-backend-wasm');
  wasm.setWasmPaths(`${PEER_DIST['tfjs-backend-wasm']()}/`);
  wasm.setThreadsCount(1);
  await tf.setBackend('wasm');
  await tf.ready();
  if (tf.getBackend() !== 'wasm' || wasm.getThreadsCount() !== 1 || !tf.env().getBool('WASM_HAS_SIMD_SUPPORT')) {
    throw new Error('tfjs: expected the wasm backend with SIMD on one thread');
  }
  const scale = 1 / Math.sqrt(d);
  const run = (q, k, b) => {
    const w = tf.tidy(() => {
      const qt = tf.mul(tf.tensor2d(q, [n, d]), scale);
      const kt = tf.transpose(tf.tensor2d(k, [n, d]));
      return tf.softmax(tf.add(tf.matMul(qt, kt), tf.tensor2d(b, [n, n])));
    });
    const data = w.dataSync();
    w.dispose();
    return data;
  };
  // tfjs reads its own feature tests; WASM_HAS_SIMD_SUPPORT picks tfjs-backend-wasm-simd.wasm.
  const threaded = tf.env().getBool('WASM_HAS_MULTITHREAD_SUPPORT');
  run.build = {
    file: threaded ? 'tfjs-backend-wasm-threaded-simd.wasm' : 'tfjs-backend-wasm-simd.wasm',
    simd: true,
    relaxedSimd: false,
    threads: wasm.getThreadsCount(),
  };
  return run;
}

// Which wasm binary onnxruntime-web instantiated (it does so once per process, on the first
// session): caught by wrapping WebAssembly.instantiate while that session is created.
let ortBuild = null;

// What the ORT binary is, checked rather than labelled: its bytes are those of one of the package's
// dist/*.wasm files, whose names say what they hold — onnxruntime-web 1.30 ships SIMD builds only
// (ort-wasm-simd-threaded{,.jsep,.asyncify,.jspi}.wasm), so a binary that matches none of them
// fails the check; it validates in this engine, so where relaxed SIMD is off (Node 20 without
// --experimental-wasm-relaxed-simd) it uses none; and one thread was asked for and kept.
function describeOrtBinary(bytes, ort) {
  const byDigest = wasmFilesByDigest(PEER_DIST['onnxruntime-web']());
  const files = [...byDigest.values()];
  const file = byDigest.get(wasmDigest(bytes));
  if (!file) throw new Error('onnxruntime-web: the instantiated wasm is none of the package files');
  if (!file.includes('simd')) throw new Error(`onnxruntime-web: ${file} is not a SIMD build`);
  if (files.some((f) => !f.includes('simd'))) {
    throw new Error(`onnxruntime-web: the package ships a non-SIMD build (${files.join(', ')}); check which runs`);
  }
  if (ort.env.wasm.numThreads !== 1) throw new Error('onnxruntime-web: expected one thread');
  return { file, simd: true, relaxedSimd: relaxedSimdSupported() ? 'engine has it' : false, threads: 1 };
}

export async function onnxRuntimeWeb(n, d) {
  const ort = await import('onnxruntime-web');
  ort.env.wasm.numThreads = 1;
  ort.env.wasm.proxy = false;
  const original = WebAssembly.instantiate;
  let bytes = null;
  WebAssembly.instantiate = function (source, ...rest) {
    if (source instanceof Uint8Array || source instanceof ArrayBuffer) bytes ??= new Uint8Array(source);
    return original.call(this, source, ...rest);
  };
  let session;
  try {
    session = await ort.InferenceSession.create(onnxModel(n, d), { executionProviders: ['wasm'] });
  } finally {
    WebAssembly.instantiate = original;
  }
  if (bytes) ortBuild = describeOrtBinary(bytes, ort);
  if (!ortBuild) throw new Error('onnxruntime-web: could not see which wasm binary it instantiated');
  const run = async (q, k, b) => {
    const out = await session.run({
      Q: new ort.Tensor('float32', q, [n, d]),
      K: new ort.Tensor('float32', k, [n, d]),
      B: new ort.Tensor('float32', b, [n, n]),
    });
    return out.W.data;
  };
  run.build = ortBuild;
  return run;
}
