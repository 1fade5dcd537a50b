// npm run bench: relpos against the peers, side by side in one Node process (run with
// --no-liftoff so every contender is measured at its optimising tier). Workload
// W = softmax(QK^T/sqrt(d) + B) with an ALiBi bias (slope 1/16), d = 64; plus RoPE apply, pooled
// maps and an SVD. Every output is checked against a float64 reference before timing. Medians of
// interleaved reps after warm-up; results printed and written to bench/results.md.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { load } from '../bindings/index.js';
import { naiveJs, onnxRuntimeWeb, tfjsWasm, tunedJs } from './peers.mjs';

const D = 64;
const SIZES = (process.env.RELPOS_BENCH_SIZES ?? '512,1024,2048,4096').split(',').map(Number);
const root = fileURLToPath(new URL('..', import.meta.url));

function seeded(seed) {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32) * 2 - 1;
}

function workload(n) {
  const random = seeded(n);
  const q = Float32Array.from({ length: n * D }, random);
  const k = Float32Array.from({ length: n * D }, random);
  const b = new Float32Array(n * n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) b[i * n + j] = -Math.abs(j - i) / 16;
  return { q, k, b };
}

// float64 rows of the reference, checked on a sample of rows.
function check(name, n, { q, k, b }, w) {
  const rows = [0, 1, n >> 1, n - 1];
  let worst = 0;
  for (const i of rows) {
    const logits = new Float64Array(n);
    for (let j = 0; j < n; j++) {
      let s = 0;
      for (let c = 0; c < D; c++) s += q[i * D + c] * k[j * D + c];
      logits[j] = s / Math.sqrt(D) + b[i * n + j];
    }
    const top = Math.max(...logits);
    let sum = 0;
    for (let j = 0; j < n; j++) sum += Math.exp(logits[j] - top);
    for (let j = 0; j < n; j++) worst = Math.max(worst, Math.abs(w[i * n + j] - Math.exp(logits[j] - top) / sum));
  }
  if (!(worst < 2e-6)) throw new Error(`${name} n=${n}: max error ${worst} against the float64 reference`);
  return worst;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

function nativeTimes() {
  try {
    execFileSync('cmake', ['--build', 'build/native', '--target', 'relpos_native_bench'], {
      cwd: root,
      stdio: 'ignore',
    });
    const out = execFileSync(`${root}/build/native/relpos_native_bench`, ['7', ...SIZES.map(String)], {
      encoding: 'utf8',
    });
    return new Map(
      out
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line))
        .map((r) => [r.n, median(r.ms)]),
    );
  } catch (error) {
    console.warn(`native reference unavailable: ${error.message}`);
    return new Map();
  }
}

async function main() {
  const simd = await load();
  const baseline = await load({ simd: false });
  const rows = [];
  const native = nativeTimes();
  for (const n of SIZES) {
    const data = workload(n);
    const qt = { shape: [n, D], data: data.q };
    const kt = { shape: [n, D], data: data.k };
    const options = { q: qt, k: kt, scheme: 'alibi', alibiBiasMax: 4 }; // one head: slope 2^-4 = 1/16
    const contenders = {
      'relpos SIMD (API, copied result)': () => simd.attention(options).weights.data,
      'relpos SIMD (zero-copy view)': () => simd.attention({ ...options, view: true }).weights.data,
      'relpos baseline (API)': () => baseline.attention(options).weights.data,
      'plain JS, tuned': tunedJs(n, D).bind(null, data.q, data.k, data.b),
    };
    if (n <= 2048) contenders['plain JS, naive'] = naiveJs(n, D).bind(null, data.q, data.k, data.b);
    try {
      const tf = await tfjsWasm(n, D);
      contenders['tfjs-backend-wasm 4.22 (SIMD, 1 thread)'] = () => tf(data.q, data.k, data.b);
    } catch (error) {
      console.warn(`tfjs unavailable: ${error.message}`);
    }
    try {
      const ort = await onnxRuntimeWeb(n, D);
      contenders['onnxruntime-web 1.30 (wasm, 1 thread)'] = () => ort(data.q, data.k, data.b);
    } catch (error) {
      console.warn(`onnxruntime-web unavailable: ${error.message}`);
    }
    for (const [name, run] of Object.entries(contenders)) check(name, n, data, await run());
    const times = Object.fromEntries(Object.keys(contenders).map((name) => [name, []]));
    const reps = n >= 4096 ? 5 : 7;
    for (let rep = 0; rep < reps + 1; rep++) {
      const order = Object.keys(contenders);
      if (rep % 2) order.reverse();
      for (const name of order) {
        const start = performance.now();
        await contenders[name]();
        if (rep > 0) times[name].push(performance.now() - start); // rep 0 is a warm-up
      }
    }
    const result = { n, medians: Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)])) };
    if (native.has(n)) result.medians['native Eigen, -O3 -march=native'] = native.get(n);
    rows.push(result);
    console.log(n, result.medians);
  }

  // RoPE apply (cached table inside the call), pooled maps, SVD.
  const x = { shape: [2048, 128], data: Float32Array.from({ length: 2048 * 128 }, seeded(3)) };
  const positions = Array.from({ length: 2048 }, (_, i) => i);
  const extras = {
    'RoPE apply, n = 2048, d = 128 (API incl. table)': () => simd.rotate(x, { positions }),
    'RoPE apply, zero-copy view': () => simd.rotate(x, { positions, view: true }),
    'SVD 512×512 (values)': () =>
      simd.analysis.svd({ shape: [512, 512], data: Float32Array.from({ length: 512 * 512 }, seeded(4)) }),
  };
  const extraTimes = {};
  for (const [name, run] of Object.entries(extras)) {
    run();
    const t = [];
    for (let r = 0; r < 7; r++) {
      const s = performance.now();
      run();
      t.push(performance.now() - s);
    }
    extraTimes[name] = median(t);
  }
  for (const [name, options] of [
    ['pooled map, position-only ALiBi, n = 1,048,576 → 512²', { n: 1 << 20, scheme: 'alibi', heads: 8, size: 512 }],
    ['pooled map, position-only RoPE, n = 1,048,576 → 512²', { n: 1 << 20, scheme: 'rope', size: 512, causal: true }],
    ['pooled map, content (seed), RoPE, n = 16,384, d = 64 → 512²', { n: 16384, seed: 1, scheme: 'rope', size: 512 }],
  ]) {
    const t = [];
    for (let r = 0; r < 3; r++) {
      const s = performance.now();
      await simd.attentionMap(options);
      t.push(performance.now() - s);
    }
    extraTimes[name] = median(t);
  }

  const machine = `${cpus()[0].model}, ${cpus().length} cores, Node ${process.version}`;
  const lines = [
    `# relpos benchmark`,
    '',
    `Machine: ${machine}. ${new Date().toISOString()}.`,
    '',
    'Attention weights W = softmax(QKᵀ/√d + B), ALiBi bias, d = 64, one head; median ms of interleaved reps (GFLOP/s counts 2n²d).',
    '',
  ];
  const names = [...new Set(rows.flatMap((r) => Object.keys(r.medians)))];
  lines.push(`| implementation | ${rows.map((r) => `n = ${r.n}`).join(' | ')} |`);
  lines.push(`| --- | ${rows.map(() => '---').join(' | ')} |`);
  for (const name of names) {
    lines.push(
      `| ${name} | ${rows
        .map((r) => {
          const ms = r.medians[name];
          return ms === undefined ? '–' : `${ms.toFixed(2)} ms (${((2 * r.n * r.n * D) / ms / 1e6).toFixed(1)} GF/s)`;
        })
        .join(' | ')} |`,
    );
  }
  lines.push('', 'Ratios (time of the peer / time of relpos SIMD zero-copy; below 1 means the peer is faster):', '');
  lines.push(
    `| peer | ${rows.map((r) => `n = ${r.n}`).join(' | ')} |`,
    `| --- | ${rows.map(() => '---').join(' | ')} |`,
  );
  for (const name of names.filter((nm) => !nm.includes('zero-copy'))) {
    lines.push(
      `| ${name} | ${rows.map((r) => (r.medians[name] ? (r.medians[name] / r.medians['relpos SIMD (zero-copy view)']).toFixed(2) : '–')).join(' | ')} |`,
    );
  }
  lines.push('', '| other | median ms |', '| --- | --- |');
  for (const [name, ms] of Object.entries(extraTimes)) lines.push(`| ${name} | ${ms.toFixed(2)} |`);
  const text = lines.join('\n') + '\n';
  writeFileSync(new URL('./results.md', import.meta.url), text);
  console.log(text);
}

await main();
