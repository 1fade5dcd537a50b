// The relaxed build (docs/build.md): the SIMD core with the fused attention kernels of a relaxed-SIMD
// side module. Node 20 validates relaxed SIMD only with --experimental-wasm-relaxed-simd, so the
// agreement runs in a child process with that flag (tests/node/relaxed-agreement.mjs); here, without
// it, load() must pick the SIMD build and refuse to force the relaxed one.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { load } from '../../bindings/index.js';
import { relaxedSimdSupported } from '../../bindings/simd.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

describe('relaxed build', () => {
  it('the side module was built (scripts/setup.sh installs clang-19 and lld-19)', () => {
    expect(existsSync(`${root}dist/relpos-fused.relaxed.wasm`)).toBe(true);
  });

  it('Node 20 without the flag: no relaxed SIMD, so load() keeps the SIMD build and relaxed: true is refused', async () => {
    expect(relaxedSimdSupported()).toBe(false);
    const rp = await load();
    expect(rp.simd).toBe(true);
    expect(rp.relaxed).toBe(false);
    expect(() => load({ relaxed: true })).toThrow(/relpos\.load: this engine has no WebAssembly relaxed SIMD/);
    expect(() => load({ relaxed: 1 })).toThrow(/relpos\.load: relaxed must be a boolean/);
    expect(() => load({ simd: false, relaxed: true })).toThrow(/relaxed: true needs the SIMD build/);
  });

  it('under --experimental-wasm-relaxed-simd the fused kernels agree with the SIMD build: weights within 1e-6, logits within 2 ulp of their scale, no weight subnormal', () => {
    const stdout = execFileSync(
      process.execPath,
      ['--experimental-wasm-relaxed-simd', 'tests/node/relaxed-agreement.mjs'],
      {
        cwd: root,
        encoding: 'utf8',
      },
    );
    const report = JSON.parse(stdout.trim().split('\n').pop());
    expect(report.relaxed).toBe(true);
    expect(report.simd).toBe(false);
    // The fused path ran: some results differ from the SIMD build's bits.
    expect(report.differing).toBeGreaterThan(0);
    expect(report.results).toBeGreaterThan(600);
    expect(report.worst.weights, report.where.weights).toBeLessThanOrEqual(1e-6);
    // Everything that is not attention weights (encodings, biases, rotations, scores) is the same.
    expect(report.worst.other, report.where.other).toBe(0);
    expect(report.logits.values).toBeGreaterThan(10000);
    expect(report.logits.scaledUlps).toBeLessThanOrEqual(2);
    // W·V of the weights: within 1e-6 times the largest |v| (inputs in [-1, 1]), plus rounding.
    expect(report.worst.output, report.where.output).toBeLessThanOrEqual(2e-6);
    // No weight is subnormal in either build, also where the exact weight is (zeros there).
    expect(report.steepZeros).toBeGreaterThan(0);
    expect(report.subnormal).toEqual({ relaxed: 0, simd: 0 });
    // As models run it: chunks, sinks and uniform empty rows run in the side module; soft-capped
    // calls fall back to the SIMD kernels and equal the SIMD build bit for bit (docs/build.md).
    expect(report.models.differing).toBeGreaterThan(0);
    expect(report.models.softcapped).toBeGreaterThan(100);
    expect(report.models.softcapDiffering).toBe(0);
    console.log(JSON.stringify(report));
  }, 60000); // a child process running ~950 calls in two builds: seconds on a loaded machine
});
