// The page side of bench/decode-browser.mjs: bench/decode-step.mjs's decode step at the
// Llama-3.1-8B shape in Debian's Chromium, relpos at its default build for this engine beside
// onnxruntime-web's GroupQueryAttention (its wasm build read while its first session starts) and
// the wasm SIMD read and mul+add probes (build/bench/*.wasm, built by the Node side), all in this page.
import * as ort from 'onnxruntime-web';
import { load } from '../bindings/index.js';
import { relaxedSimdSupported, simdSupported } from '../bindings/simd.js';
import { values } from '../tests/node/kv-fixture.js';
import { SHAPES, measure, peakRate, rate, readProbe } from './decode-step.mjs';
import { onnxModel } from './onnx-model.mjs';
import { startOrt } from './ort-page.mjs';

const exportsOf = async (url) => {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  return (await WebAssembly.instantiate(await response.arrayBuffer(), {})).instance.exports;
};

// µs of one fresh Float32Array of `floats`, filled once (what a copied result costs before any
// work), timed over `calls` arrays: a page that is not cross-origin isolated reads
// performance.now() in steps of 0.1 ms.
const freshArray = (floats, calls) => () => {
  const t0 = performance.now();
  let sum = 0;
  for (let c = 0; c < calls; c++) sum += new Float32Array(floats).fill(1)[c % floats];
  if (sum !== calls) throw new Error('fresh array: lost a write');
  return ((performance.now() - t0) * 1000) / calls;
};

// onnxruntime-web's Gemm + Softmax at n = 1024, d = 64 (its known speed, as in the Node run): GF/s.
async function ortGemm(session) {
  const n = 1024;
  const feed = {
    Q: new ort.Tensor('float32', values(n * 64, 1), [n, 64]),
    K: new ort.Tensor('float32', values(n * 64, 2), [n, 64]),
    B: new ort.Tensor('float32', new Float32Array(n * n), [n, n]),
  };
  return rate(() => session.run(feed), 2 * n * n * 64);
}

window.runDecode = async ({ m, reps, warmup }) => {
  const { session, build } = await startOrt(ort, onnxModel(1024, 64));
  const gemmGf = await ortGemm(session);
  session.release?.();
  const rp = (await load()).unbounded();
  const shape = SHAPES[0];
  const options = {
    read: readProbe(await exportsOf('/build/bench/read_probe.wasm')),
    // About 8 ms a call here, so the page's 0.1 ms clock steps do not matter.
    peak: peakRate(await exportsOf('/build/bench/peak.wasm'), 1e6),
    probes: { fresh: freshArray(shape.heads * shape.d, 256) },
    reps,
    warmup,
  };
  let row;
  let ortError = null;
  try {
    row = await measure(rp, ort, shape, m, options);
  } catch (error) {
    // The peer could not run its step here: relpos and the probes are measured without it.
    ortError = String(error?.message ?? error);
    row = await measure(rp, null, shape, m, options);
  }
  return {
    row,
    ortError,
    gemmGf,
    ort: build,
    engine: { simd: simdSupported(), relaxedSimd: relaxedSimdSupported() },
    relpos: { relaxed: rp.relaxed, simd: rp.simd },
    crossOriginIsolated: globalThis.crossOriginIsolated === true,
  };
};
window.decodeReady = true;
