// Builds and drives the native reference (native_reference.cpp, also the native chains the wasm
// probes are checked against), the wasm peak probes (peak.cpp) and the memory-read probe
// (read_probe.cpp) for `npm run bench`. They are compiled here, into build/bench/, with the
// compilers the project already uses (g++, Debian's emcc and clang-19), so the benchmark needs no
// CMake target of its own.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = `${root}build/bench`;

// g++ -O3 -march=native: the native code a C++ programmer ships for this machine (AVX-512 here).
export function buildNative() {
  mkdirSync(out, { recursive: true });
  const binary = `${out}/native_reference`;
  execFileSync(
    'g++',
    [
      '-std=c++17',
      '-O3',
      '-march=native',
      '-DNDEBUG',
      '-I/usr/include/eigen3',
      'bench/native_reference.cpp',
      '-o',
      binary,
    ],
    { cwd: root, stdio: 'inherit' },
  );
  return binary;
}

// The native reference as a child process answering one command per line (see the .cpp).
export function startNative(binary) {
  const child = spawn(binary, [], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout });
  const waiting = [];
  lines.on('line', (line) => waiting.shift()?.(JSON.parse(line)));
  const ask = (command) =>
    new Promise((resolve, reject) => {
      waiting.push((reply) => (reply.error ? reject(new Error(`native reference: ${reply.error}`)) : resolve(reply)));
      child.stdin.write(`${command}\n`);
    });
  return {
    async load(n, d, { q, k, b }) {
      const path = `${out}/workload-${n}.f32`;
      const bytes = (a) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
      writeFileSync(path, Buffer.concat([bytes(q), bytes(k), bytes(b)]));
      await ask(`load ${n} ${d} ${path}`);
    },
    /** One timed call inside the native process; resolves to its own wall time in ms. */
    async run(kind, slope = 0) {
      return (await ask(`run ${kind} ${slope}`)).ms;
    },
    async rows(list) {
      return (await ask(`rows ${list.join(',')}`)).rows;
    },
    /** GF/s of one native probe call (bench/peak.cpp's chains on 128-bit vectors): 'mul' or 'fma'. */
    async peak(kind, iterations) {
      const { ms, flops } = await ask(`peak ${kind} ${iterations}`);
      return flops / ms / 1e6;
    },
    stop() {
      child.stdin.end();
    },
  };
}

// bench/<name>.cpp by emcc -O3 -msimd128 into build/bench/<name>.wasm, a standalone module with no
// imports exporting `exported` (C names); `flags` adds emcc settings.
function buildProbe(name, exported, flags = []) {
  mkdirSync(out, { recursive: true });
  const wasm = `${out}/${name}.wasm`;
  const args = ['-O3', '-msimd128', '--no-entry', '-sSTANDALONE_WASM', ...flags];
  args.push(`-sEXPORTED_FUNCTIONS=${exported.map((f) => `_${f}`).join(',')}`, `bench/${name}.cpp`, '-o', wasm);
  const env = { ...process.env, NODE_PATH: process.env.NODE_PATH ?? '/usr/share/nodejs' };
  execFileSync('emcc', args, { cwd: root, stdio: 'inherit', env });
  return wasm;
}

/** The mul+add probe (bench/peak.cpp). */
export const buildPeakProbe = () => buildProbe('peak', ['peak', 'flopsPerIteration']);

/** The memory-read probe (bench/read_probe.cpp), its 160 MB buffer in the module's initial memory. */
export const buildReadProbe = () => buildProbe('read_probe', ['prepare', 'readAll'], ['-sINITIAL_MEMORY=192MB']);

/**
 * A probe: run(iterations) → floating-point operations done. `name`: 'peak' (mul+add, buildPeakProbe)
 * or 'peakFma' (buildFmaProbe; instantiates only where the engine has relaxed SIMD).
 */
export async function loadPeakProbe(wasm, name = 'peak') {
  const { instance } = await WebAssembly.instantiate(readFileSync(wasm), {});
  const { [name]: peak, flopsPerIteration } = instance.exports;
  const perIteration = flopsPerIteration();
  return (iterations) => {
    peak(iterations, 0.999, 0.001);
    return iterations * perIteration;
  };
}

// The FMA probe: peak.cpp's peakFma, built by clang-19 with relaxed SIMD (a module of its own, no
// imports); null without clang-19. It validates only where relaxed SIMD does (Chromium, not Node 20).
export function buildFmaProbe() {
  mkdirSync(out, { recursive: true });
  const wasm = `${out}/peak-fma.wasm`;
  // Compiled and linked in two steps: clang's driver would run Binaryen's wasm-opt after linking,
  // and Debian's (version 108) cannot read relaxed-SIMD opcodes (docs/build.md).
  const object = `${out}/peak-fma.o`;
  try {
    execFileSync(
      'clang++-19',
      [
        '--target=wasm32',
        '-O3',
        '-msimd128',
        '-mrelaxed-simd',
        '-fno-exceptions',
        '-c',
        'bench/peak.cpp',
        '-o',
        object,
      ],
      { cwd: root, stdio: 'inherit' },
    );
    execFileSync(
      'wasm-ld-19',
      ['--no-entry', '--export=peakFma', '--export=flopsPerIteration', '--strip-all', object, '-o', wasm],
      { cwd: root, stdio: 'inherit' },
    );
  } catch (error) {
    console.warn(`no FMA probe (clang-19 / wasm-ld-19): ${error.message}`);
    return null;
  }
  return wasm;
}

/**
 * The native ceilings the wasm probes are checked against: bench/peak.cpp's chains on 128-bit
 * vectors, as mul then add and as FMA, each the median GF/s of 7 calls of 5·10⁷ rounds after one
 * warm-up call.
 */
export async function nativePeaks(native) {
  const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  const result = {};
  for (const [name, kind] of [
    ['mulAdd', 'mul'],
    ['fma', 'fma'],
  ]) {
    const calls = [];
    for (let c = 0; c < 8; c++) calls.push(await native.peak(kind, 5e7));
    result[name] = median(calls.slice(1));
  }
  return result;
}

/**
 * A wasm probe cannot beat the same chains compiled natively: one that does was measured wrong
 * (dead chains dropped by a compiler, a timer at fault), so the run stops instead of printing
 * shares against it. 10 % covers run-to-run noise.
 */
export function checkProbe(name, wasmGf, nativeGf) {
  if (wasmGf > 1.1 * nativeGf) {
    throw new Error(
      `${name} probe reads ${wasmGf.toFixed(1)} GF/s, above the native ${nativeGf.toFixed(1)} GF/s of the same chains: its set-up is wrong`,
    );
  }
}
