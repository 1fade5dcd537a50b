// npm run bench: relpos against its peers, all in this one Node process (run with --no-liftoff so
// every wasm contender is measured at its optimising tier), reps interleaved in a shuffled order
// (bench/workload.mjs, roundOrder), medians reported. Workload: attention weights
// W = softmax(QKᵀ/√d + B), one head, d = 64, B the ALiBi bias −|j − i|/16 (the peers get it as a
// tensor; relpos either computes it from the scheme or takes it as a tensor too, copied in or
// filled in place with rp.alloc). Every contender's output is checked against a float64 reference
// before anything is timed. Also measured: a wasm SIMD mul+add peak probe (the ceiling for any
// wasm contender, interleaved with the rest) and a native Eigen reference compiled with
// -O3 -march=native (run as a child process that times its own calls, interleaved too). Run with
// --experimental-wasm-relaxed-simd (npm run bench does), the relaxed build (the SIMD core plus the
// fused kernels of dist/relpos-fused.relaxed.wasm, FMA through relaxed_madd) runs beside the SIMD
// build, with an FMA peak probe; without it, the tables say it was not run.
// Writes bench/results.md and README.md's bench:attention block. Environment:
// RELPOS_BENCH_SIZES=512,1024 to choose n, RELPOS_BENCH_REPS=2 to multiply the rep counts,
// RELPOS_BENCH_OUT=/tmp/results.md to write the results there and leave README.md alone (a trial run).
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { load } from '../bindings/index.js';
import { relaxedSimdSupported } from '../bindings/simd.js';
import {
  buildFmaProbe,
  buildNative,
  buildPeakProbe,
  checkProbe,
  loadPeakProbe,
  nativePeaks,
  startNative,
} from './native.mjs';
import { block, writeReadmeBlock } from './readme-block.mjs';
import { naiveJs, onnxRuntimeWeb, PEER_DIST, tfjsWasm, tunedJs, wasmDigest, wasmFilesByDigest } from './peers.mjs';
import { startSplitMap } from './split-map.mjs';
import { D, deviation, probeIterations, roundOrder, seeded, SLOPE, workload } from './workload.mjs';

const SIZES = (process.env.RELPOS_BENCH_SIZES ?? '512,1024,2048,4096').split(',').map(Number);
const REPS = { 512: 21, 1024: 15, 2048: 9, 4096: 9 }; // n = 4096: see bench/browser.mjs's REPS
const repScale = Number(process.env.RELPOS_BENCH_REPS ?? 1);
const TOLERANCE = 2e-6;
const CHECKED_ROWS = (n) => [0, 1, n >> 1, n - 1];
const gc = globalThis.gc ?? (() => {});

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const gflops = (n, ms) => (2 * n * n * D) / ms / 1e6;

const DEFAULT_NAME = 'relpos SIMD: scheme bias, copied result';
const GIVEN_NAME = 'relpos SIMD: given B, copied result';
const RELAXED_NAME = 'relpos relaxed SIMD (FMA): scheme bias, copied result';
const RELAXED_GIVEN_NAME = 'relpos relaxed SIMD (FMA): given B, copied result';
const NO_RELAXED = 'this engine has no relaxed SIMD (Node 20: run with --experimental-wasm-relaxed-simd)';

// load(options), recording the wasm it compiles and instantiates, so that the builds table says what
// ran rather than what was asked for: each binary's sha256 is matched against dist/'s files, and the
// relaxed side module's fusedRows is wrapped to count the rows it computes (one more JS call per
// block of rows, bindings/loading.js). Returns { rp, files, fused: { linked, rows } }.
async function loadChecked(options) {
  const known = wasmFilesByDigest(fileURLToPath(new URL('../dist', import.meta.url)));
  const files = [];
  const fused = { linked: false, rows: 0 };
  const seen = (source) => {
    if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) {
      files.push(known.get(wasmDigest(source)) ?? 'not in dist/');
    }
  };
  const { compile, instantiate } = WebAssembly;
  WebAssembly.compile = function (source, ...rest) {
    seen(source);
    return compile.call(this, source, ...rest);
  };
  WebAssembly.instantiate = async function (source, ...rest) {
    if (!(source instanceof WebAssembly.Module)) seen(source);
    const result = await instantiate.call(this, source, ...rest);
    if (
      !(source instanceof WebAssembly.Module) ||
      !WebAssembly.Module.exports(source).some((e) => e.name === 'fusedRows')
    ) {
      return result;
    }
    fused.linked = true;
    const rows = result.exports.fusedRows;
    const counted = (call) => {
      const done = rows(call);
      fused.rows += done;
      return done;
    };
    return { exports: { ...result.exports, fusedRows: counted } };
  };
  try {
    // The models and analysis modules are not part of the attention call: left out of the table.
    const rp = await load(options);
    return { rp, files: files.filter((f) => !/models|analysis/.test(f)), fused };
  } finally {
    Object.assign(WebAssembly, { compile, instantiate });
  }
}

// One contender: `run` does one call and returns the weights (or, for the native reference, its own
// timing); `timed` reports the time to record (wall time unless the contender times itself).
function contender(name, group, run, { selfTimed = false } = {}) {
  return { name, group, run, selfTimed };
}

async function contendersFor(n, data, rp) {
  const { simd, relaxed, baseline, native, tf, ort } = rp;
  const tensor = (shape, values) => ({ shape, data: values });
  const qt = tensor([n, D], data.q);
  const kt = tensor([n, D], data.k);
  const bt = tensor([n, n], data.b);
  const scheme = { q: qt, k: kt, scheme: 'alibi', alibiBiasMax: 4 };
  // B filled in place in the wasm heap (rp.alloc), as a caller that computes its own bias would;
  // the fill is the caller's computation, so it is done once here, outside the timing.
  const inPlace = simd.alloc([n, n]);
  inPlace.data.set(data.b);
  const list = [
    contender(DEFAULT_NAME, 'relpos', () => simd.attention(scheme).weights.data),
    contender(GIVEN_NAME, 'relpos', () => simd.attention({ q: qt, k: kt, B: bt }).weights.data),
    ...(relaxed
      ? [
          contender(RELAXED_NAME, 'relpos', () => relaxed.rp.attention(scheme).weights.data),
          contender(RELAXED_GIVEN_NAME, 'relpos', () => relaxed.rp.attention({ q: qt, k: kt, B: bt }).weights.data),
        ]
      : []),
    contender(
      'relpos SIMD: given B in place (rp.alloc), copied result',
      'relpos',
      () => simd.attention({ q: qt, k: kt, B: inPlace }).weights.data,
    ),
    contender(
      'relpos SIMD: given B in place (rp.alloc), zero-copy view',
      'relpos',
      () => simd.attention({ q: qt, k: kt, B: inPlace, view: true }).weights.data,
    ),
    contender(
      'relpos SIMD: scheme bias, zero-copy view',
      'relpos',
      () => simd.attention({ ...scheme, view: true }).weights.data,
    ),
    contender(
      'relpos baseline build (no SIMD): scheme bias, copied',
      'relpos',
      () => baseline.attention(scheme).weights.data,
    ),
  ];
  if (tf) list.push(contender('tfjs-backend-wasm 4.22 (SIMD, 1 thread)', 'peer', () => tf(data.q, data.k, data.b)));
  if (ort) {
    list.push(contender('onnxruntime-web 1.30 (wasm SIMD, 1 thread)', 'peer', () => ort(data.q, data.k, data.b)));
  }
  list.push(contender('plain JS, 2×4 register-blocked', 'js', tunedJs(n, D).bind(null, data.q, data.k, data.b)));
  if (n <= 1024) list.push(contender('plain JS, naive', 'js', naiveJs(n, D).bind(null, data.q, data.k, data.b)));
  if (native) {
    await native.load(n, D, data);
    list.push(
      contender('native Eigen -O3 -march=native: given B', 'native', () => native.run('bias'), { selfTimed: true }),
    );
    list.push(
      contender('native Eigen -O3 -march=native: ALiBi computed per row', 'native', () => native.run('alibi', SLOPE), {
        selfTimed: true,
      }),
    );
  }
  list.release = () => inPlace.free();
  return list;
}

async function check(n, data, entry, native) {
  if (entry.group === 'native') {
    await entry.run();
    const rows = await native.rows(CHECKED_ROWS(n));
    return deviation(n, data, CHECKED_ROWS(n), (_, index) => rows[index]);
  }
  const w = await entry.run();
  return deviation(n, data, CHECKED_ROWS(n), (i) => w.subarray(i * n, (i + 1) * n));
}

// Where this process has relaxed SIMD, whether a peer's binary needs it cannot be told here: a Node
// child without the flag validates the package's file instead ("no" when it validates there).
function peerRelaxedSimd(name, build) {
  if (!relaxedSimdSupported()) return build.relaxedSimd; // the binary validated here, without it
  const script = "process.exit(WebAssembly.validate(require('node:fs').readFileSync(process.argv[1])) ? 0 : 1)";
  try {
    execFileSync(process.execPath, ['-e', script, `${PEER_DIST[name]()}/${build.file}`]);
    return 'no (validates in Node 20 without it)';
  } catch {
    return 'maybe (does not validate without it)';
  }
}

// `probes`: { mulAdd, fma } (fma null without relaxed SIMD), each { run, iterations }.
async function measure(n, contenders, probes) {
  const times = new Map(contenders.map((c) => [c.name, []]));
  const peaks = { mulAdd: [], fma: [] };
  const reps = Math.max(3, Math.round((REPS[n] ?? 5) * repScale));
  const probeSlots = Object.entries(probes)
    .filter(([, p]) => p)
    .map(([kind, p]) => ({ kind, ...p }));
  const slots = [...contenders, ...probeSlots];
  const random = seeded(n + 1);
  for (let rep = 0; rep < reps + 1; rep++) {
    const order = roundOrder(slots, random);
    for (const entry of order) {
      gc();
      const start = performance.now();
      const reported = entry.kind ? entry.run(entry.iterations) : await entry.run();
      const wall = performance.now() - start;
      if (rep === 0) continue; // warm-up round
      if (entry.kind) peaks[entry.kind].push(reported / wall / 1e6);
      else times.get(entry.name).push(entry.selfTimed ? reported : wall);
    }
  }
  const medians = new Map([...times].map(([name, t]) => [name, median(t)]));
  return { medians, peak: median(peaks.mulAdd), fmaPeak: probes.fma ? median(peaks.fma) : null, reps };
}

async function extras(simd) {
  const out = [];
  const timeIt = async (name, run, reps = 9) => {
    await run();
    const t = [];
    for (let r = 0; r < reps; r++) {
      gc();
      const s = performance.now();
      await run();
      t.push(performance.now() - s);
    }
    out.push([name, median(t)]);
  };
  // What every copied result pays before relpos does anything: a fresh n × n Float32Array whose
  // pages the OS hands over on first touch (at n = 4096, 64 MB).
  await timeIt(
    'a fresh 4096 × 4096 Float32Array, filled once (what a copied result at n = 4096 costs before any work)',
    () => new Float32Array(4096 * 4096).fill(1),
  );
  const x = { shape: [2048, 128], data: Float32Array.from({ length: 2048 * 128 }, seeded(3)) };
  // Warm: the same positions every call, so the cos/sin table comes from the cache (the last eight
  // tables are kept, src/relpos/kernels/rotary.cpp). Cold: a list of positions that start past the
  // last call's, so every call builds its table.
  await timeIt('rotate, RoPE, n = 2048, d = 128, warm cos/sin cache (same positions; copied result)', () =>
    simd.rotate(x),
  );
  await timeIt('rotate, RoPE, n = 2048, d = 128, warm cos/sin cache, zero-copy view', () =>
    simd.rotate(x, { view: true }),
  );
  let first = 0;
  await timeIt(
    'rotate, RoPE, n = 2048, d = 128, cold (new positions each call, so the table is built; copied result)',
    () => {
      first += 2048;
      return simd.rotate(x, { positions: Array.from({ length: 2048 }, (_, i) => first + i) });
    },
  );
  // Output only at a length whose weights (16,384² floats per head, 1 GiB) could never be held; just
  // over the synchronous work budget, so through rp.unbounded() (a benchmark blocks by design).
  const long = { shape: [16384, 64], data: Float32Array.from({ length: 16384 * 64 }, seeded(5)) };
  await timeIt(
    'attention output only (weights: false), n = 16,384, d = 64, ALiBi, causal',
    () => simd.unbounded().attention({ q: long, k: long, v: long, scheme: 'alibi', causal: true, weights: false }),
    3,
  );
  const m = { shape: [512, 512], data: Float32Array.from({ length: 512 * 512 }, seeded(4)) };
  await timeIt('SVD 512 × 512, values only', () => simd.analysis.svd(m), 5);
  for (const [name, options] of [
    ['pooled map, content (seed), RoPE, n = 16,384, d = 64 → 512²', { n: 16384, seed: 1, scheme: 'rope', size: 512 }],
    ['pooled map, position-only ALiBi, 8 heads, n = 1,048,576 → 512²', { n: 1 << 20, scheme: 'alibi', heads: 8 }],
    ['pooled map, position-only RoPE, causal, n = 1,048,576 → 512²', { n: 1 << 20, scheme: 'rope', causal: true }],
  ]) {
    await timeIt(name, () => simd.attentionMap(options), 3);
  }
  // The content map again, its rows split between two worker threads (one per core here), after
  // checking that the parts add up to the map of one thread.
  const content = { n: 16384, seed: 1, scheme: 'rope', size: 512 };
  const split = await startSplitMap(2);
  const [whole, parts] = [await simd.attentionMap(content), await split.attentionMap(content)];
  if (parts.data.some((v, t) => v !== whole.data[t])) throw new Error('the split map differs from the whole map');
  await timeIt(
    'pooled map, content (seed), RoPE, n = 16,384, d = 64 → 512², rows split between 2 worker threads',
    () => split.attentionMap(content),
    3,
  );
  await split.stop();
  return out;
}

// `relaxedRan`: whether the relaxed build was measured (else its rows say why not).
function report({ rows, extra, machine, loads, started, builds, ceilings, relaxedRan }) {
  const fmt = (x, digits = 2) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(digits));
  const relaxedNames = [RELAXED_NAME, RELAXED_GIVEN_NAME];
  const names = [...new Set(rows.flatMap((r) => [...r.medians.keys()]))];
  if (!relaxedRan) names.splice(names.indexOf(GIVEN_NAME) + 1, 0, ...relaxedNames);
  const notRun = `not run: ${NO_RELAXED}`;
  // The relaxed rows' share is of the FMA probe (their kernels fuse multiply and add), the others' of mul+add.
  const fmaShare = (r, nm) => relaxedNames.includes(nm) && r.fmaPeak;
  const cols = rows.map((r) => `n = ${r.n}`);
  const head = (first) => [`| ${first} | ${cols.join(' | ')} |`, `| --- | ${cols.map(() => '---').join(' | ')} |`];
  const lines = [
    '# relpos benchmark',
    '',
    `${machine}. Run started ${started}; load average (1 min) ${loads.map((l) => l.toFixed(2)).join(' at the start, ')} at the end.`,
    '',
    'Attention weights W = softmax(QKᵀ/√d + B), one head, d = 64, B = −|j − i|/16 (ALiBi). Every',
    'contender takes JS Float32Arrays and returns the n × n weights as a Float32Array (the zero-copy',
    'view returns a view into the wasm heap instead); all run in one `node --no-liftoff` process,',
    'interleaved in a shuffled order, and each output was checked against float64 first (largest',
    'deviation in the last table). GF/s counts 2n²d; "peak" is the wasm SIMD mul+add probe',
    '(`bench/peak.cpp`) measured in the same rounds and checked against the same chains run natively;',
    "the relaxed build's rows are shares of the relaxed-SIMD FMA probe (the same chains with",
    '`relaxed_madd`), measured and checked alike. The native reference times itself in a child process.',
    '',
    '## Builds in use (checked at set-up, not labelled)',
    '',
    '| library | wasm binary | SIMD | relaxed SIMD | threads |',
    '| --- | --- | --- | --- | --- |',
    ...builds.map(
      ([name, b]) =>
        `| ${name} | ${b.file} | ${typeof b.simd === 'string' ? b.simd : b.simd ? 'yes' : 'no'} | ${b.relaxedSimd || 'no'} | ${b.threads} |`,
    ),
    '',
    '## Median ms (GF/s, share of the wasm SIMD mul+add peak; relaxed rows: of the FMA peak)',
    '',
    ...head('contender'),
  ];
  for (const name of names) {
    const cells = rows.map((r) => {
      const ms = r.medians.get(name);
      if (ms === undefined) return relaxedNames.includes(name) ? notRun : '–';
      const g = gflops(r.n, ms);
      const fma = fmaShare(r, name);
      return `${fmt(ms)} (${g.toFixed(1)}, ${Math.round((100 * g) / (fma || r.peak))} %${fma ? ' of FMA' : ''})`;
    });
    lines.push(`| ${name} | ${cells.join(' | ')} |`);
  }
  lines.push(`| wasm SIMD mul+add peak probe, GF/s | ${rows.map((r) => r.peak.toFixed(1)).join(' | ')} |`);
  lines.push(
    `| wasm relaxed-SIMD FMA peak probe, GF/s | ${rows.map((r) => (r.fmaPeak ? r.fmaPeak.toFixed(1) : r.fmaMissing)).join(' | ')} |`,
  );
  lines.push(
    `| the same chains natively on 128-bit vectors (g++), mul then add / FMA, GF/s: the probes' check | ${rows.map(() => `${ceilings.mulAdd.toFixed(1)} / ${ceilings.fma.toFixed(1)}`).join(' | ')} |`,
  );
  lines.push(`| reps (after one warm-up round) | ${rows.map((r) => r.reps).join(' | ')} |`);

  const faster = (r) => {
    const peers = names.filter((nm) => r.group.get(nm) === 'peer' && r.medians.has(nm));
    return peers.reduce((best, nm) => (best && r.medians.get(best) <= r.medians.get(nm) ? best : nm), null);
  };
  const nativeBest = (r) =>
    Math.min(...names.filter((nm) => r.group.get(nm) === 'native').map((nm) => r.medians.get(nm)));
  const ratio = (a, b) => (Number.isFinite(a) && Number.isFinite(b) ? (a / b).toFixed(2) : '–');
  lines.push('', '## Ratios and targets', '', ...head('ratio (target)'));
  const inPlaceName = 'relpos SIMD: given B in place (rp.alloc), copied result';
  const inPlaceViewName = 'relpos SIMD: given B in place (rp.alloc), zero-copy view';
  const viewName = 'relpos SIMD: scheme bias, zero-copy view';
  lines.push(`| faster peer | ${rows.map((r) => faster(r)?.split(' (')[0] ?? '–').join(' | ')} |`);
  // The Node prefill targets (1.5× the faster peer); Chromium's (1.8×) is bench/browser.mjs's.
  lines.push(
    `| faster peer ÷ relpos, scheme bias, copied (≥ 1.5) | ${rows.map((r) => ratio(r.medians.get(faster(r)), r.medians.get(DEFAULT_NAME))).join(' | ')} |`,
  );
  lines.push(
    `| faster peer ÷ relpos, given B, copied (≥ 1.5) | ${rows.map((r) => ratio(r.medians.get(faster(r)), r.medians.get(GIVEN_NAME))).join(' | ')} |`,
  );
  for (const [nm, what] of [
    [RELAXED_NAME, 'scheme bias'],
    [RELAXED_GIVEN_NAME, 'given B'],
  ]) {
    lines.push(
      `| faster peer ÷ relpos relaxed SIMD (FMA), ${what}, copied (≥ 1.5) | ${rows.map((r) => (relaxedRan ? ratio(r.medians.get(faster(r)), r.medians.get(nm)) : 'not run')).join(' | ')} |`,
    );
  }
  lines.push(
    `| faster peer ÷ relpos, given B in place (rp.alloc), copied (≥ 1.5) | ${rows.map((r) => ratio(r.medians.get(faster(r)), r.medians.get(inPlaceName))).join(' | ')} |`,
  );
  lines.push(
    `| relpos given B copied in ÷ given B in place, copied results (the copy of B) | ${rows.map((r) => ratio(r.medians.get(GIVEN_NAME), r.medians.get(inPlaceName))).join(' | ')} |`,
  );
  lines.push(
    `| relpos given B in place: copied result ÷ zero-copy view (≤ 1.15) | ${rows.map((r) => ratio(r.medians.get(inPlaceName), r.medians.get(inPlaceViewName))).join(' | ')} |`,
  );
  lines.push(
    `| relpos zero-copy share of the wasm peak (≥ 70 % at n = 1024, 2048) | ${rows.map((r) => `${Math.round((100 * gflops(r.n, r.medians.get(viewName))) / r.peak)} %`).join(' | ')} |`,
  );
  lines.push(
    `| relpos zero-copy ÷ best native (≤ 2.5) | ${rows.map((r) => ratio(r.medians.get(viewName), nativeBest(r))).join(' | ')} |`,
  );
  lines.push(
    `| tfjs-backend-wasm ÷ onnxruntime-web | ${rows.map((r) => ratio(r.medians.get(names.find((nm) => nm.startsWith('tfjs'))), r.medians.get(names.find((nm) => nm.startsWith('onnx'))))).join(' | ')} |`,
  );

  lines.push('', '## Other calls (median ms)', '', '| call | ms |', '| --- | --- |');
  for (const [name, ms] of extra) lines.push(`| ${name} | ${fmt(ms)} |`);
  lines.push('', '## Largest deviation from float64 over rows 0, 1, n/2, n − 1', '', ...head('contender'));
  for (const name of names) {
    lines.push(
      `| ${name} | ${rows.map((r) => (r.errors.has(name) ? r.errors.get(name).toExponential(1) : relaxedNames.includes(name) ? 'not run' : '–')).join(' | ')} |`,
    );
  }

  // What the README quotes (bench/readme-block.mjs): a subset of the table and the ratios' ranges.
  const range = (values, digits = 2) => {
    const finite = values.filter(Number.isFinite);
    const lo = Math.min(...finite).toFixed(digits);
    const hi = Math.max(...finite).toFixed(digits);
    return lo === hi ? lo : `${lo}–${hi}`;
  };
  const shown = [
    [DEFAULT_NAME, 'relpos SIMD, scheme bias, copied result'],
    [GIVEN_NAME, 'relpos SIMD, given B, copied result'],
    [RELAXED_NAME, 'relpos relaxed SIMD (FMA), scheme bias, copied result'],
    [RELAXED_GIVEN_NAME, 'relpos relaxed SIMD (FMA), given B, copied result'],
    [inPlaceName, 'relpos SIMD, given B in place (`rp.alloc`), copied result'],
    [viewName, 'relpos SIMD, scheme bias, zero-copy view'],
    ['relpos baseline build (no SIMD): scheme bias, copied', 'relpos baseline (no SIMD)'],
    ...names.filter((nm) => rows[0].group.get(nm) === 'peer').map((nm) => [nm, nm.split(' (')[0]]),
    ['plain JS, 2×4 register-blocked', 'plain JS, register-blocked'],
    ...names
      .filter((nm) => rows[0].group.get(nm) === 'native')
      .map((nm) => [nm, nm.replace(/-O3 -march=native/, '`-O3 -march=native`')]),
  ].filter(([nm]) => names.includes(nm));
  const share = (r, nm) => (100 * gflops(r.n, r.medians.get(nm))) / r.peak;
  // The relaxed build's sentence: its ratios, and (with the FMA probe) its share of that probe.
  const overRelaxed = (nm) => range(rows.map((r) => r.medians.get(faster(r)) / r.medians.get(nm)));
  const fmaPart = rows.every((r) => r.fmaPeak)
    ? `; its copied result with the scheme's bias reaches ${range(
        rows.map((r) => (100 * gflops(r.n, r.medians.get(RELAXED_NAME))) / r.fmaPeak),
        0,
      )} % of the relaxed-SIMD FMA probe, which read ${range(
        rows.map((r) => r.fmaPeak),
        1,
      )} GF/s`
    : ` (no FMA probe: ${rows[0].fmaMissing})`;
  const relaxedSentence = relaxedRan
    ? `With relaxed SIMD enabled (Node 20 needs \`--experimental-wasm-relaxed-simd\`, which this run had; Chromium has it on), relpos runs its relaxed build (the same core plus the fused kernels of \`relpos-fused.relaxed.wasm\`, FMA through \`relaxed_madd\`): the faster peer's time over relpos relaxed is ${overRelaxed(RELAXED_NAME)} with the scheme's own bias and ${overRelaxed(RELAXED_GIVEN_NAME)} given B as a tensor, against the same peer times${fmaPart}.`
    : `The relaxed build was not measured: ${NO_RELAXED}.`;
  const summary = [
    `The last run: ${machine}, load average ${loads.map((l) => l.toFixed(2)).join(' at the start, ')} at the end; median ms, GF/s in parentheses; the probe's peak was ${range(
      rows.map((r) => r.peak),
      1,
    )} GF/s.`,
    '',
    `| | ${cols.join(' | ')} |`,
    `| --- | ${cols.map(() => '---').join(' | ')} |`,
    ...shown.map(
      ([nm, label]) =>
        `| ${label} | ${rows.map((r) => (r.medians.has(nm) ? `${fmt(r.medians.get(nm))} (${gflops(r.n, r.medians.get(nm)).toFixed(1)})` : relaxedNames.includes(nm) ? 'not run' : '–')).join(' | ')} |`,
    ),
    '',
    `Without relaxed SIMD (Node 20's default), relpos runs its SIMD build (mul then add): the faster peer's time over relpos's is ${range(rows.map((r) => r.medians.get(faster(r)) / r.medians.get(DEFAULT_NAME)))} with the scheme's own bias and ${range(rows.map((r) => r.medians.get(faster(r)) / r.medians.get(GIVEN_NAME)))} given B as a tensor, ${range(rows.map((r) => r.medians.get(faster(r)) / r.medians.get(inPlaceName)))} with B filled in place (\`rp.alloc\`, no copy into the heap) (the target is 1.5; an n² bias read from the caller costs what one computed in registers does not). The SIMD build's zero-copy kernel reaches ${range(
      rows.map((r) => share(r, viewName)),
      0,
    )} % of the wasm SIMD peak and takes ${range(rows.map((r) => r.medians.get(viewName) / nativeBest(r)))}× the time of the native reference (which uses the machine's widest vectors). ${relaxedSentence} A copied result is a fresh Float32Array; at n = 4096 (64 MB) the first touch of its pages alone takes what the first row of the table below says, for every copied contender alike, so those columns move with the machine's page faults; \`out\` reuses one array.`,
    '',
    '| other call | median ms |',
    '| --- | --- |',
    ...extra.map(([name, ms]) => `| ${name} | ${fmt(ms)} |`),
  ].join('\n');
  lines.push('', '## README summary', '', block('attention', summary));
  return { text: lines.join('\n') + '\n', summary };
}

async function main() {
  const started = new Date().toISOString();
  const loads = [loadavg()[0]];
  const native = startNative(buildNative());
  const ceilings = await nativePeaks(native);
  const relaxedRan = relaxedSimdSupported();
  if (!relaxedRan) console.warn(`relpos relaxed SIMD (FMA) rows not run: ${NO_RELAXED}`);
  const calibrated = (run) => ({ run, iterations: probeIterations(run, 0.05) });
  const fmaWasm = relaxedRan ? buildFmaProbe() : null;
  const fmaMissing = relaxedRan ? (fmaWasm ? null : 'not run: no clang-19 / wasm-ld-19') : 'not run: no relaxed SIMD';
  const probes = {
    mulAdd: calibrated(await loadPeakProbe(buildPeakProbe())),
    fma: fmaWasm ? calibrated(await loadPeakProbe(fmaWasm, 'peakFma')) : null,
  };
  // relaxed: false explicitly, so that the "relpos SIMD" rows are the SIMD build under the flag too.
  const simd = await loadChecked({ analysis: true, relaxed: false });
  const relaxed = relaxedRan ? await loadChecked({ relaxed: true }) : null;
  if (!simd.rp.simd || simd.rp.relaxed || simd.files.join() !== 'relpos.simd.wasm' || simd.fused.linked) {
    throw new Error(`relpos SIMD: loaded ${simd.files.join(' + ')}, not relpos.simd.wasm alone`);
  }
  const relaxedFiles = 'relpos-fused.relaxed.wasm,relpos.simd.wasm';
  if (relaxed && (!relaxed.rp.relaxed || [...relaxed.files].sort().join() !== relaxedFiles || !relaxed.fused.linked)) {
    throw new Error(
      `relpos relaxed: loaded ${relaxed.files.join(' + ')}, fused kernels linked: ${relaxed.fused.linked}`,
    );
  }
  const rp = { simd: simd.rp, relaxed, baseline: await load({ simd: false }), native };
  const rows = [];
  // The share of the rows of each checked relaxed call that the side module's fusedRows computed.
  const fusedShares = [];
  const builds = [['relpos SIMD', { file: simd.files.join(' + '), simd: true, relaxedSimd: false, threads: 1 }]];
  for (const n of SIZES) {
    const data = workload(n);
    rp.tf = await tfjsWasm(n, D).catch((error) => console.warn(`tfjs unavailable: ${error.message}`));
    rp.ort = await onnxRuntimeWeb(n, D).catch((error) => console.warn(`onnxruntime-web unavailable: ${error.message}`));
    if (n === SIZES[0]) {
      for (const [name, peer] of [
        ['tfjs-backend-wasm', rp.tf],
        ['onnxruntime-web', rp.ort],
      ]) {
        if (peer) builds.push([name, { ...peer.build, relaxedSimd: peerRelaxedSimd(name, peer.build) }]);
      }
    }
    const contenders = await contendersFor(n, data, rp);
    const errors = new Map();
    for (const entry of contenders) {
      const fusedBefore = relaxed?.fused.rows;
      const worst = await check(n, data, entry, native);
      if (!(worst < TOLERANCE)) throw new Error(`${entry.name}, n = ${n}: deviates by ${worst} from float64`);
      errors.set(entry.name, worst);
      if (relaxed && entry.name.startsWith('relpos relaxed')) {
        const done = relaxed.fused.rows - fusedBefore;
        if (!(done > 0)) throw new Error(`${entry.name}, n = ${n}: the fused kernels computed no row`);
        fusedShares.push(done / n);
      }
    }
    const { medians, peak, fmaPeak, reps } = await measure(n, contenders, probes);
    contenders.release();
    const group = new Map(contenders.map((c) => [c.name, c.group]));
    checkProbe('the wasm SIMD mul+add', peak, ceilings.mulAdd);
    if (fmaPeak) checkProbe('the relaxed-SIMD FMA', fmaPeak, ceilings.fma);
    rows.push({ n, medians, peak, fmaPeak, fmaMissing, reps, errors, group });
    console.log(`n = ${n}: peak ${peak.toFixed(1)} GF/s, FMA peak ${fmaPeak ? fmaPeak.toFixed(1) : fmaMissing}`);
    for (const [name, ms] of medians) console.log(`  ${name}: ${ms.toFixed(3)} ms (${gflops(n, ms).toFixed(1)} GF/s)`);
  }
  native.stop();
  const fusedShare = Math.round(100 * Math.min(...fusedShares));
  builds.splice(1, 0, [
    'relpos relaxed SIMD (FMA)',
    relaxed
      ? {
          file: relaxed.files.join(' + '),
          simd: true,
          relaxedSimd: `yes: its fusedRows computed ${fusedShare === 100 ? 'every row' : `at least ${fusedShare} % of the rows`} of each checked call`,
          threads: 1,
        }
      : { file: 'not loaded', simd: '–', relaxedSimd: NO_RELAXED, threads: '–' },
  ]);
  const extra = await extras(rp.simd);
  loads.push(loadavg()[0]);
  const machine = `${cpus()[0].model.trim()}, ${cpus().length} cores, Node ${process.version}`;
  const { text, summary } = report({ rows, extra, machine, loads, started, builds, ceilings, relaxedRan });
  const out = process.env.RELPOS_BENCH_OUT;
  writeFileSync(out ?? new URL('./results.md', import.meta.url), text);
  if (!out) writeReadmeBlock('attention', summary);
  console.log(text);
}

await main();
