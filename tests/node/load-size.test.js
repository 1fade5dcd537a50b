// The module a page loads first — the core (schemes, bias, rotation, attention), wasm plus its JS
// glue — is held to a budget of 183 KB gzip in each build (the aim is 150 KB; docs/build.md says
// what keeps it above); presets and config reading are the models module, the analyses and the lab
// a module fetched on first use. Sizes are reported (printed and written to
// build/reports/load-size.json) for every module.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

// The budget the module keeps to (docs/build.md, "Size of the first module", says why it is not 150).
const BUDGET_KB = 183;
const dist = new URL('../../dist/', import.meta.url);
const kb = (bytes) => Math.round((bytes / 1024) * 10) / 10;

function size(file) {
  const bytes = readFileSync(new URL(file, dist));
  return { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
}

/** { wasm, glue, gzipKB } of one module: its .wasm and .mjs, raw and gzip. */
function moduleSize(name) {
  const wasm = size(`${name}.wasm`);
  const glue = size(`${name}.mjs`);
  return { wasm, glue, gzipKB: kb(wasm.gzip + glue.gzip), rawKB: kb(wasm.raw + glue.raw) };
}

describe('first-load size', () => {
  const modules = Object.fromEntries(
    ['relpos.simd', 'relpos.baseline', 'relpos-models', 'relpos-analysis.simd', 'relpos-analysis.baseline'].map(
      (name) => [name, moduleSize(name)],
    ),
  );

  it('reports every module’s size', () => {
    mkdirSync('build/reports', { recursive: true });
    writeFileSync('build/reports/load-size.json', `${JSON.stringify(modules, null, 2)}\n`);
    for (const [name, m] of Object.entries(modules)) {
      console.log(
        `${name}: ${m.gzipKB} KB gzip (wasm ${kb(m.wasm.gzip)} + glue ${kb(m.glue.gzip)}), ${m.rawKB} KB raw`,
      );
    }
  });

  it.each(['relpos.simd', 'relpos.baseline'])(`the core module %s is at most ${BUDGET_KB} KB gzip`, (name) => {
    expect(modules[name].gzipKB).toBeLessThanOrEqual(BUDGET_KB);
  });

  it('the core module holds no analysis, lab or models code; the analysis and models modules do', () => {
    const text = (file) => readFileSync(new URL(file, dist), 'latin1');
    const models = text('relpos-models.wasm');
    for (const name of ['presetsJson', 'fromConfigJson']) expect(models.includes(`${name}\0`), name).toBe(true);
    for (const name of ['compute', 'analyze']) expect(models.includes(`${name}\0`), name).toBe(false);
    for (const flavour of ['simd', 'baseline']) {
      // Embind registers each function by name: the names a module exports are in its wasm.
      const core = text(`relpos.${flavour}.wasm`);
      const second = text(`relpos-analysis.${flavour}.wasm`);
      for (const name of ['analyze', 'labSchemaJson', 'jobPeek']) {
        expect(core.includes(`${name}\0`), `${flavour} core: ${name}`).toBe(false);
        expect(second.includes(`${name}\0`), `${flavour} analysis: ${name}`).toBe(true);
      }
      for (const name of ['presetsJson', 'fromConfigJson']) {
        expect(core.includes(`${name}\0`), `${flavour} core: ${name}`).toBe(false);
        expect(second.includes(`${name}\0`), `${flavour} analysis: ${name}`).toBe(false);
      }
      expect(core.includes('compute\0')).toBe(true);
    }
  });
});
