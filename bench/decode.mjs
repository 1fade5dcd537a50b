// npm run bench: one decode step (append one token's keys and values, then output-only attention of
// its queries over every cached key) at real models' shapes, against onnxruntime-web 1.30's
// com.microsoft.GroupQueryAttention (wasm SIMD build, one thread; the op alone: the run fetches only
// its output, so the present K/V it computes are not copied out to JS, which more than doubled its
// time at 8,192 keys) and against the floor of the step in this engine: the larger of
// (K and V bytes) / (the wasm SIMD read probe's bandwidth) and (multiply-adds) / (the wasm SIMD
// mul+add probe's rate), both measured between the steps of the same run.
// Shapes: Llama-3.1-8B (32 query heads, 8 KV heads, d = 128, causal) and gpt-oss (64 query heads,
// 8 KV heads, d = 64, causal, window 128, sinks), at 2,048, 8,192 and 32,768 cached keys.
// The step, its checks and its timing are bench/decode-step.mjs's, which bench/decode-browser.mjs
// runs in Chromium. Every contender's output is checked against relpos's before anything is timed. Run with
// --no-liftoff (every wasm module at its optimising tier). Environment: RELPOS_DECODE_SIZES=2048,8192
// to choose the cache lengths, RELPOS_DECODE_REPS=15 the reps.
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { load } from '../bindings/index.js';
import { values } from '../tests/node/kv-fixture.js';
import { SHAPES, TABLE_HEAD, measure, peakRate, rate, readProbe, tableRow } from './decode-step.mjs';
import { buildPeakProbe, buildReadProbe } from './native.mjs';
import { onnxRuntimeWeb } from './peers.mjs';

const SIZES = (process.env.RELPOS_DECODE_SIZES ?? '2048,8192,32768').split(',').map(Number);
const REPS = Number(process.env.RELPOS_DECODE_REPS ?? 11);
const WARMUP = 4;

const exportsOf = async (wasm) => (await WebAssembly.instantiate(readFileSync(wasm), {})).instance.exports;

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
  const gemmGf = await rate(() => gemm(...gemmData), 2 * 1024 * 1024 * 64);
  const rp = (await load()).unbounded();
  const read = readProbe(await exportsOf(buildReadProbe()));
  const peak = peakRate(await exportsOf(buildPeakProbe()), 2e5);
  const rows = [];
  for (const shape of SHAPES) {
    for (const m of SIZES) {
      rows.push(await measure(rp, ort, shape, m, { read, peak, reps: REPS, warmup: WARMUP }));
      process.stdout.write('.');
    }
  }
  loads.push(loadavg()[0]);
  console.log(report({ rows, started, loads, machine, build: gemm.build, gemmGf }));
}

function report({ rows, started, loads, machine, build, gemmGf }) {
  const lines = [
    '',
    `Decode step (append one token, then output-only attention over every cached key), median ms of ${REPS} interleaved reps`,
    `${machine}; run started ${started}; load average (1 min) ${loads.map((l) => l.toFixed(2)).join(' at the start, ')} at the end.`,
    `onnxruntime-web: ${build.file} (SIMD ${build.simd}, relaxed SIMD ${build.relaxedSimd}, ${build.threads} thread); its Gemm + Softmax at n = 1024, d = 64 ran at ${gemmGf.toFixed(1)} GF/s in this process.`,
    'Floor: the larger of K and V bytes / read-probe bandwidth and multiply-adds / mul+add-probe rate (both probes run between the steps).',
    '',
    ...TABLE_HEAD,
    ...rows.map((r) => tableRow(r.shape.name, r)),
    '',
    ...warmLines(rows),
    `Outputs checked before timing: ORT GQA (no rotary) against relpos's step, worst |difference| ${Math.max(...rows.map((r) => r.worst)).toExponential(1)}.`,
  ];
  return lines.join('\n');
}

// A windowed shape's plain step right after one of its own (measure's `warm`), one line a shape.
function warmLines(rows) {
  const names = [...new Set(rows.filter((r) => r.medians.warm !== undefined).map((r) => r.shape.name))];
  return names.map((name) => {
    const own = rows.filter((r) => r.shape.name === name);
    const at = (f) => own.map(f).join(' / ');
    return `${name}, relpos no scheme right after its own previous step (caches warm): ${at((r) => r.medians.warm.toFixed(2))} ms at ${at((r) => r.m.toLocaleString('en'))} keys; the table's step follows whichever contender the shuffle put before it, and with more keys the peer's and the read probe's passes over all of K and V leave less of it in the caches.`;
  });
}

await main();
