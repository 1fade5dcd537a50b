// The browser mode of `npm run bench`: relpos and both peers timed inside Debian's Chromium (where
// the tutorial runs) on a page served from 127.0.0.1, one thread each, interleaved in shuffled
// rounds like the Node run (bench/attention.mjs), with the wasm SIMD mul+add probe and, where the
// engine has relaxed SIMD, the FMA probe in the same rounds. Each library runs its best build for
// Chromium and says which (bench/browser-page.mjs). Writes bench/browser-results.md.
// Environment: RELPOS_BENCH_SIZES=512,1024 to choose n, RELPOS_BENCH_REPS=2 to multiply the rep
// counts; RELPOS_CHROMIUM for another binary.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { loadavg, cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { describeWasm, inChromium, ortWasm } from './chromium-page.mjs';
import { buildFmaProbe, buildNative, buildPeakProbe, checkProbe, nativePeaks, startNative } from './native.mjs';
import { block, writeReadmeBlock } from './readme-block.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const SIZES = (process.env.RELPOS_BENCH_SIZES ?? '512,1024,2048,4096').split(',').map(Number);
const repScale = Number(process.env.RELPOS_BENCH_REPS ?? 1);
const REPS = Object.fromEntries(
  // n = 4096 has the most reps: there a call that returns a fresh 64 MB array now and then takes
  // about 130 ms more (docs/performance.md, "How npm run bench measures"); of 5 reps, three such
  // calls made the median one of them (183 against 77 ms).
  Object.entries({ 512: 15, 1024: 11, 2048: 9, 4096: 11 }).map(([n, r]) => [n, Math.max(3, Math.round(r * repScale))]),
);
const D = 64;
const gflops = (n, ms) => (2 * n * n * D) / ms / 1e6;
const fmt = (x) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));

async function main() {
  buildPeakProbe();
  buildFmaProbe();
  // The native probe the page's probes are checked against, measured before the page starts and
  // again after it ends; the larger of the two is the ceiling (on this shared VM a busy moment reads
  // low, and a probe checked against one failed a run that was sound).
  const native = startNative(buildNative());
  const before = await nativePeaks(native);
  const started = new Date().toISOString();
  const loads = [loadavg()[0]];
  // --no-liftoff as in the Node run (every wasm module measured at its optimising tier), and a
  // garbage collection before each call (--expose-gc).
  const { result, version } = await inChromium(
    '/bench/browser-page.mjs',
    '--no-liftoff --expose-gc',
    'benchReady',
    (tab) => tab.evaluate((options) => window.runBench(options), { sizes: SIZES, reps: REPS }),
  ).catch((error) => {
    native.stop();
    throw error;
  });
  result.version = version;
  loads.push(loadavg()[0]);
  const after = await nativePeaks(native);
  native.stop();
  const ceilings = { mulAdd: Math.max(before.mulAdd, after.mulAdd), fma: Math.max(before.fma, after.fma) };

  const ortFile = ortWasm(result.ort.seen);
  if (!result.tfjs.simd || result.tfjs.threads !== 1) throw new Error('tfjs: expected SIMD on one thread');
  if (result.engine.relaxedSimd && !result.relpos.relaxed) throw new Error('relpos: the relaxed build did not load');
  for (const r of result.rows) {
    checkProbe('the wasm SIMD mul+add', r.peak, ceilings.mulAdd);
    if (r.fmaPeak) checkProbe('the relaxed-SIMD FMA', r.fmaPeak, ceilings.fma);
  }
  const tfFile = describeWasm(`http://x/node_modules/@tensorflow/tfjs-backend-wasm/dist/${result.tfjs.file}`);

  const names = Object.keys(result.rows[0].medians);
  const cols = result.rows.map((r) => `n = ${r.n}`);
  const head = (first) => [`| ${first} | ${cols.join(' | ')} |`, `| --- | ${cols.map(() => '---').join(' | ')} |`];
  const lines = [
    '# relpos benchmark in Chromium',
    '',
    `Chromium ${result.version} (headless, \`--js-flags=--no-liftoff --expose-gc\`), ${cpus()[0].model.trim()}, ${cpus().length} cores; page on 127.0.0.1, not cross-origin isolated (${result.crossOriginIsolated}). Run started ${started}; load average (1 min) ${loads.map((l) => l.toFixed(2)).join(' at the start, ')} at the end. Same workload as bench/results.md (one head, d = 64, B = −|j − i|/16); every output checked against float64 first.`,
    '',
    '## Builds in use (read from each library in the page)',
    '',
    '| library | wasm binary | SIMD | relaxed SIMD | threads |',
    '| --- | --- | --- | --- | --- |',
    `| relpos (default load) | relpos.simd.wasm${result.relpos.relaxed ? ' + relpos-fused.relaxed.wasm' : ''} | ${result.relpos.simd ? 'yes' : 'no'} | ${result.relpos.relaxed ? 'yes (fused attention kernels)' : 'no'} | 1 |`,
    `| relpos (relaxed: false) | relpos.simd.wasm | yes | no | 1 |`,
    `| tfjs-backend-wasm 4.22 | ${tfFile.file} | ${result.tfjs.simd ? 'yes' : 'no'} | ${tfFile.validatesWithoutRelaxedSimd ? 'no (validates in Node 20 without it)' : 'maybe'} | ${result.tfjs.threads} (threaded build available: ${result.tfjs.threadsAvailable}) |`,
    `| onnxruntime-web 1.30 | ${ortFile.file} (sha256 ${ortFile.sha256}…) | yes | ${ortFile.validatesWithoutRelaxedSimd ? 'no (validates in Node 20 without it)' : 'maybe'} | ${result.ort.threads} |`,
    '',
    `Engine: SIMD ${result.engine.simd}, relaxed SIMD ${result.engine.relaxedSimd}.`,
    '',
    '## Median ms (GF/s, share of the mul+add probe)',
    '',
    ...head('contender'),
  ];
  for (const name of names) {
    lines.push(
      `| ${name} | ${result.rows.map((r) => `${fmt(r.medians[name])} (${gflops(r.n, r.medians[name]).toFixed(1)}, ${Math.round((100 * gflops(r.n, r.medians[name])) / r.peak)} %)`).join(' | ')} |`,
    );
  }
  lines.push(`| wasm SIMD mul+add probe, GF/s | ${result.rows.map((r) => r.peak.toFixed(1)).join(' | ')} |`);
  lines.push(
    `| relaxed-SIMD FMA probe, GF/s | ${result.rows.map((r) => (r.fmaPeak ? r.fmaPeak.toFixed(1) : '–')).join(' | ')} |`,
  );
  lines.push(
    `| the same chains natively on 128-bit vectors (g++), mul+add / FMA, GF/s: the probes' check | ${result.rows.map(() => `${ceilings.mulAdd.toFixed(1)} / ${ceilings.fma.toFixed(1)}`).join(' | ')} |`,
  );
  // Per 4 KiB page: the figure that varies from VM to VM (first touch of fresh memory).
  const perPage = (r) => ((1000 * r.fresh) / ((r.n * r.n * 4) / 4096)).toFixed(2);
  lines.push(
    `| a fresh n × n Float32Array, filled once (ms, µs a 4 KiB page: what any copied result costs before any work) | ${result.rows.map((r) => `${fmt(r.fresh)} (${perPage(r)} µs)`).join(' | ')} |`,
  );
  lines.push(`| reps (after one warm-up round) | ${result.rows.map((r) => r.reps).join(' | ')} |`);
  lines.push(
    `| calls per timed sample (fewest–most over the rows above; the page's clock steps by 0.1 ms) | ${result.rows.map((r) => `${Math.min(...r.calls)}–${Math.max(...r.calls)}`).join(' | ')} |`,
  );

  const peer = (r) =>
    ['tfjs-backend-wasm 4.22', 'onnxruntime-web 1.30'].reduce((a, b) => (r.medians[a] <= r.medians[b] ? a : b));
  const ratio = (a, b) => (a / b).toFixed(2);
  const best = result.relpos.relaxed ? 'relaxed' : 'SIMD';
  const share = (r, name, probe) => `${Math.round((100 * gflops(r.n, r.medians[name])) / probe)} %`;
  const ratios = [
    ['faster peer', (r) => peer(r)],
    [
      `faster peer ÷ relpos ${best}, scheme bias, copied (≥ 1.8)`,
      (r) => ratio(r.medians[peer(r)], r.medians[`relpos ${best}: scheme bias, copied result`]),
    ],
    [
      `faster peer ÷ relpos ${best}, given B, copied (≥ 1.8)`,
      (r) => ratio(r.medians[peer(r)], r.medians[`relpos ${best}: given B, copied result`]),
    ],
    [
      `faster peer ÷ relpos ${best}, given B in place (rp.alloc), copied (≥ 1.8)`,
      (r) => ratio(r.medians[peer(r)], r.medians[`relpos ${best}: given B in place (rp.alloc), copied result`]),
    ],
    [
      `relpos ${best}: given B copied in ÷ given B in place (the copy of B)`,
      (r) =>
        ratio(
          r.medians[`relpos ${best}: given B, copied result`],
          r.medians[`relpos ${best}: given B in place (rp.alloc), copied result`],
        ),
    ],
    [
      `relpos ${best}: copied ÷ zero-copy view, scheme bias (≤ 1.15)`,
      (r) =>
        ratio(
          r.medians[`relpos ${best}: scheme bias, copied result`],
          r.medians[`relpos ${best}: scheme bias, zero-copy view`],
        ),
    ],
    [
      `relpos ${best}: into a reused out ÷ zero-copy view (the copy out of the heap alone)`,
      (r) =>
        ratio(
          r.medians[`relpos ${best}: scheme bias, into a reused out`],
          r.medians[`relpos ${best}: scheme bias, zero-copy view`],
        ),
    ],
    [
      `relpos ${best}: copied less the fresh array's pages ÷ zero-copy view`,
      (r) =>
        ratio(
          r.medians[`relpos ${best}: scheme bias, copied result`] - r.fresh,
          r.medians[`relpos ${best}: scheme bias, zero-copy view`],
        ),
    ],
    // Every copied result pays its fresh pages, the peer's too: with relpos's time into a reused out
    // (no fresh pages) plus the probe's fresh array, this is the ratio a copied result reaches when
    // its pages cost what the probe's did; the next row is the ratio with no fresh pages on either side.
    [
      `faster peer ÷ (relpos ${best} into a reused out + the fresh array): copied at the probe's page cost`,
      (r) => ratio(r.medians[peer(r)], r.medians[`relpos ${best}: scheme bias, into a reused out`] + r.fresh),
    ],
    [
      `(faster peer − the fresh array) ÷ relpos ${best} into a reused out: neither paying fresh pages`,
      (r) => ratio(r.medians[peer(r)] - r.fresh, r.medians[`relpos ${best}: scheme bias, into a reused out`]),
    ],
    [
      'relpos relaxed ÷ relpos SIMD, zero-copy view (time)',
      (r) =>
        ratio(
          r.medians['relpos relaxed: scheme bias, zero-copy view'],
          r.medians['relpos SIMD: scheme bias, zero-copy view'],
        ),
    ],
    [
      'relpos SIMD zero-copy: share of the mul+add probe (≥ 70 %)',
      (r) => share(r, 'relpos SIMD: scheme bias, zero-copy view', r.peak),
    ],
    [
      'relpos relaxed zero-copy: share of the FMA probe (≥ 70 %)',
      (r) => (r.fmaPeak ? share(r, 'relpos relaxed: scheme bias, zero-copy view', r.fmaPeak) : '–'),
    ],
  ];
  lines.push('', '## Ratios and targets', '', ...head('ratio (target)'));
  for (const [label, f] of ratios) lines.push(`| ${label} | ${result.rows.map(f).join(' | ')} |`);
  // The fused build's agreement with the SIMD build (tests/node/attention-relaxed.test.js holds it to
  // the bounds): Node 20 under --experimental-wasm-relaxed-simd, over the golden and reference fixtures.
  const agreement = JSON.parse(
    execFileSync(process.execPath, ['--experimental-wasm-relaxed-simd', 'tests/node/relaxed-agreement.mjs'], {
      cwd: root,
      encoding: 'utf8',
    })
      .trim()
      .split('\n')
      .pop(),
  );
  lines.push(
    '',
    "## The relaxed build's agreement with the SIMD build",
    '',
    `Over ${agreement.results} results (every golden fixture, every current reference fixture and a sweep of the kernel's paths; ${agreement.differing} not bit-identical): largest weight difference ${agreement.worst.weights.toExponential(1)} (bound 1e-6), largest output difference ${agreement.worst.output.toExponential(1)}, every other result identical (${agreement.worst.other}). Logits of the side module against the SIMD kernel's arithmetic over ${agreement.logits.values} values: up to ${agreement.logits.ulps} ulps of the logit where the dot product cancels, ${agreement.logits.scaledUlps.toFixed(2)} ulps of the logit's magnitude scale (bound 2).`,
  );
  lines.push('', '## Largest deviation from float64 over rows 0 and n − 1', '', ...head('contender'));
  for (const name of names) {
    lines.push(`| ${name} | ${result.rows.map((r) => r.errors[name].toExponential(1)).join(' | ')} |`);
  }
  const summary = [
    `In Chromium ${result.version.split('.')[0]} (same machine and run conditions as above, load average ${loads.map((l) => l.toFixed(2)).join(' → ')}): median ms, GF/s in parentheses.`,
    '',
    `| | ${cols.join(' | ')} |`,
    `| --- | ${cols.map(() => '---').join(' | ')} |`,
    ...names.map(
      (nm) =>
        `| ${nm} | ${result.rows.map((r) => `${fmt(r.medians[nm])} (${gflops(r.n, r.medians[nm]).toFixed(1)})`).join(' | ')} |`,
    ),
    `| mul+add / FMA probe, GF/s | ${result.rows.map((r) => `${r.peak.toFixed(0)} / ${r.fmaPeak ? r.fmaPeak.toFixed(0) : '–'}`).join(' | ')} |`,
  ].join('\n');
  lines.push('', '## README summary', '', block('browser', summary));
  const text = lines.join('\n') + '\n';
  writeFileSync(new URL('./browser-results.md', import.meta.url), text);
  writeReadmeBlock('browser', summary);
  console.log(text);
}

await main();
