// npm run bench:svd: a values-only SVD of a 512×512 matrix through rp.analysis.svd (Eigen's BDCSVD in
// double, in the analysis module) against the same BDCSVD compiled natively with -O3 -march=native
// (bench/svd_reference.cpp), in one run. The wasm SIMD build runs Eigen's SSE path compiled to
// WebAssembly SIMD (docs/build.md); the baseline build Eigen's scalar code. Both builds' singular
// values are checked against the native ones before timing. The native binary runs before and after
// the wasm reps and its median is over both runs; the wasm builds are timed interleaved after a
// warm-up. Prints a table and writes bench/svd-results.md. Run with node --no-liftoff.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { block, writeReadmeBlock } from './readme-block.mjs';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { load } from '../bindings/index.js';

const N = Number(process.env.RELPOS_BENCH_SVD_N ?? 512);
const REPS = Number(process.env.RELPOS_BENCH_SVD_REPS ?? 9);
const TARGET_RATIO = 2.5;
const root = fileURLToPath(new URL('..', import.meta.url));

/** The matrix bench/svd_reference.cpp builds: a 32-bit LCG seeded with n, values in [-1, 1) as float32. */
function matrix(n) {
  let s = n >>> 0;
  const data = new Float32Array(n * n);
  for (let i = 0; i < n * n; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    data[i] = (s / 4294967296) * 2 - 1;
  }
  return { shape: [n, n], data };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

/** { ms: number[], sigma: number[] } of one run of the native reference. */
function native() {
  const out = execFileSync(`${root}/build/native/relpos_native_svd_bench`, [String(REPS), String(N)], {
    encoding: 'utf8',
  });
  return JSON.parse(out.trim());
}

function check(name, sigma, reference) {
  let worst = 0;
  for (let i = 0; i < reference.length; i++) worst = Math.max(worst, Math.abs(sigma[i] - reference[i]));
  // The core returns σ in float32: within a few float32 ulps of σ_max.
  if (!(worst <= 4e-6 * reference[0])) throw new Error(`${name}: singular values off by ${worst} from the native ones`);
  return worst;
}

async function main() {
  execFileSync('cmake', ['--build', 'build/native', '--target', 'relpos_native_svd_bench'], {
    cwd: root,
    stdio: 'ignore',
  });
  const load0 = loadavg()[0];
  const before = native();
  const builds = {
    'relpos SIMD (Eigen SSE path → wasm SIMD)': await load({ simd: true, analysis: true }),
    'relpos baseline (Eigen scalar)': await load({ simd: false, analysis: true }),
  };
  const M = matrix(N);
  const times = {};
  for (const [name, rp] of Object.entries(builds)) {
    check(name, rp.analysis.svd(M).singularValues, before.sigma); // also the warm-up
    times[name] = [];
  }
  for (let rep = 0; rep < REPS; rep++) {
    const order = Object.keys(builds);
    if (rep % 2) order.reverse();
    for (const name of order) {
      const start = performance.now();
      builds[name].analysis.svd(M);
      times[name].push(performance.now() - start);
    }
  }
  const after = native();
  const nativeMs = median([...before.ms, ...after.ms]);
  const rows = [
    ['native Eigen BDCSVD, -O3 -march=native', nativeMs],
    ...Object.entries(times).map(([name, t]) => [`${name}, rp.analysis.svd`, median(t)]),
  ];
  const load1 = loadavg()[0];
  const simdRatio = rows[1][1] / nativeMs;
  const lines = [
    '# relpos SVD benchmark',
    '',
    `Machine: ${cpus()[0].model}, ${cpus().length} cores, Node ${process.version}; load average ${load0.toFixed(2)} at the start, ${load1.toFixed(2)} at the end. ${new Date().toISOString()}.`,
    '',
    `Values-only SVD of a ${N}×${N} matrix (float32 entries in [-1, 1), decomposed in double by Eigen 3.4's BDCSVD), one thread; median of ${REPS} reps (native: ${2 * REPS}, two runs). The wasm times are rp.analysis.svd through the public API, input conversion included; singular values checked against the native ones.`,
    '',
    '| implementation | median ms | × native |',
    '| --- | --- | --- |',
    ...rows.map(([name, ms]) => `| ${name} | ${ms.toFixed(2)} | ${(ms / nativeMs).toFixed(2)} |`),
    '',
    `SIMD build / native: ${simdRatio.toFixed(2)}× (target ≤ ${TARGET_RATIO}×: ${simdRatio <= TARGET_RATIO ? 'met' : 'not met'}).`,
  ];
  const summary = `\`npm run bench:svd\`: a values-only ${N} × ${N} SVD through \`rp.analysis.svd\` takes ${rows[1][1].toFixed(0)} ms, ${simdRatio.toFixed(2)}× native Eigen BDCSVD (\`bench/svd-results.md\`, load average ${load0.toFixed(2)} at the start, ${load1.toFixed(2)} at the end).`;
  lines.push('', '## README summary', '', block('svd', summary));
  const text = `${lines.join('\n')}\n`;
  process.stdout.write(text);
  writeFileSync(new URL('svd-results.md', import.meta.url), text);
  writeReadmeBlock('svd', summary);
}

await main();
