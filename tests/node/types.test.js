// index.d.ts type-checks a strict TypeScript consumer of the public API; the readings' types
// (keyed by scheme, ReadingParams) promise what the core returns; an unknown scheme id is reported on
// the id, in words a reader can act on.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { load } from '../../bindings/index.js';

const tsc = fileURLToPath(new URL('../../node_modules/typescript/bin/tsc', import.meta.url));

describe('index.d.ts', () => {
  it('accepts a strict consumer (tsc --strict --noEmit)', () => {
    const project = fileURLToPath(new URL('../types/tsconfig.json', import.meta.url));
    const run = () => execFileSync(process.execPath, [tsc, '-p', project], { encoding: 'utf8' });
    expect(run).not.toThrow();
  }, 60000);

  it('reports an unknown scheme id on the id, naming the ids the call takes (not "never")', () => {
    const project = fileURLToPath(new URL('../types/tsconfig.unknown-id.json', import.meta.url));
    let stdout = '';
    try {
      execFileSync(process.execPath, [tsc, '-p', project], { encoding: 'utf8' });
    } catch (error) {
      stdout = error.stdout;
    }
    const errors = stdout.split('\n').filter((line) => /error TS/.test(line));
    expect(errors, stdout).toHaveLength(2);
    expect(errors[0]).toMatch(
      /unknown-id\.ts\(7,9\): error TS2345: Argument of type '"bogus"' is not assignable to parameter of type 'BiasSchemeId'/,
    );
    expect(errors[1]).toMatch(
      /unknown-id\.ts\(8,16\): error TS2345: Argument of type '"llama3"' is not assignable to parameter of type 'FrequenciesSchemeId'/,
    );
    expect(stdout).not.toMatch(/never/);
  }, 60000);
});

describe('ReadingParams: what the keyed reading types promise', () => {
  it('every preset, every config fixture and each of their layer groups of a rotary scheme gives d (the head width)', async () => {
    const rp = await load();
    const rotary = new Set(rp.schemes.filter((s) => s.calls.includes('frequencies')).map((s) => s.id));
    const dir = new URL('../fixtures/configs/', import.meta.url);
    const configs = readdirSync(dir)
      .filter((name) => name.endsWith('.json'))
      .map((name) => [name, rp.fromConfig(readFileSync(new URL(name, dir), 'utf8'))]);
    const readings = [...rp.presets.map((p) => [p.id, p]), ...configs];
    expect(readings.length).toBeGreaterThan(30);
    let checked = 0;
    for (const [name, reading] of readings) {
      expect(reading.scheme, name).toBe(reading.groups[0].scheme);
      for (const { scheme, params } of [reading, ...reading.groups]) {
        expect(
          rp.schemes.some((s) => s.id === scheme),
          `${name}: ${scheme}`,
        ).toBe(true);
        if (!rotary.has(scheme)) continue;
        checked++;
        expect(Number.isInteger(params.d) && params.d > 0, `${name}: ${scheme} d = ${params.d}`).toBe(true);
        // …so they feed rp.frequencies as they are, as the types say.
        expect(rp.frequencies(scheme, params).invFreq.length, name).toBeGreaterThan(0);
      }
    }
    expect(checked).toBeGreaterThan(40);
  });
});
