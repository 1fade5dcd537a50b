// `npm run bench`: the Chromium row of the decode table (bench/decode.mjs is the Node run): one
// decode step at the Llama-3.1-8B shape (32 query heads, 8 KV heads, d = 128) over 8,192 cached keys
// in Debian's Chromium, bench/decode-step.mjs's step, checks and interleaved timing run in a page
// (bench/decode-page.mjs): relpos with and without RoPE, onnxruntime-web's GroupQueryAttention (its
// wasm build verified here; if it cannot run in the page, the reason is printed) and the floor from
// the wasm SIMD read and mul+add probes, beside the cost of a fresh output array in the same page.
// Environment: RELPOS_DECODE_REPS=15 the reps; RELPOS_CHROMIUM for another binary.
import { cpus, loadavg } from 'node:os';
import { inChromium, ortWasm } from './chromium-page.mjs';
import { TABLE_HEAD, tableRow } from './decode-step.mjs';
import { buildPeakProbe, buildReadProbe } from './native.mjs';

const M = 8192;
const REPS = Number(process.env.RELPOS_DECODE_REPS ?? 11);
const WARMUP = 4;

function report({ result, version, started, loads }) {
  const { row, ortError, gemmGf, ort, engine, relpos } = result;
  const ortFile = ortWasm(ort.seen);
  const relaxedWord = ortFile.validatesWithoutRelaxedSimd ? 'no (validates in Node 20 without it)' : 'maybe';
  const outputBytes = row.shape.heads * row.shape.d * 4;
  return [
    '',
    `Decode step in Chromium, median ms of ${REPS} interleaved reps (after ${WARMUP} untimed)`,
    `Chromium ${version} (headless, --js-flags=--no-liftoff), ${cpus().length} × ${cpus()[0]?.model.trim() ?? 'CPU'}; page on 127.0.0.1, not cross-origin isolated (${result.crossOriginIsolated}: its clock steps by 0.1 ms). Run started ${started}; load average (1 min) ${loads.map((l) => l.toFixed(2)).join(' at the start, ')} at the end.`,
    `Engine: SIMD ${engine.simd}, relaxed SIMD ${engine.relaxedSimd}. relpos: relpos.simd.wasm${relpos.relaxed ? ' + relpos-fused.relaxed.wasm (relaxed build)' : ''}, one thread.`,
    `onnxruntime-web: ${ortFile.file} (sha256 ${ortFile.sha256}…; SIMD yes, relaxed SIMD ${relaxedWord}, ${ort.threads} thread); its Gemm + Softmax at n = 1024, d = 64 ran at ${gemmGf.toFixed(1)} GF/s in this page.`,
    'Floor: the larger of K and V bytes / read-probe bandwidth and multiply-adds / mul+add-probe rate (both probes run between the steps, in the page).',
    '',
    ...TABLE_HEAD,
    tableRow(`${row.shape.name}, Chromium`, row),
    '',
    `Fresh-array probe: a new Float32Array of the step's output (${row.shape.heads} × ${row.shape.d} floats, ${outputBytes / 1024} KiB), filled once, took ${row.medians.fresh.toFixed(2)} µs (${((row.medians.fresh * 4096) / outputBytes).toFixed(2)} µs a 4 KiB page): what a copied output costs; relpos's step writes into a reused out.`,
    ortError
      ? `onnxruntime-web's GroupQueryAttention did not run in this page, so its columns are empty: ${ortError}`
      : `Outputs checked before timing: ORT GQA (no rotary) against relpos's step, worst |difference| ${row.worst.toExponential(1)}.`,
  ].join('\n');
}

async function main() {
  buildReadProbe();
  buildPeakProbe();
  const started = new Date().toISOString();
  const loads = [loadavg()[0]];
  const { result, version } = await inChromium('/bench/decode-page.mjs', '--no-liftoff', 'decodeReady', (tab) =>
    tab.evaluate((options) => window.runDecode(options), { m: M, reps: REPS, warmup: WARMUP }),
  );
  loads.push(loadavg()[0]);
  console.log(report({ result, version, started, loads }));
}

await main();
