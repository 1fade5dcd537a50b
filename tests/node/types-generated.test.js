// bindings/schemes.d.ts is what scripts/gen-types.mjs generates from the catalogue now: a scheme,
// a parameter or a call option added to the core without regenerating the types fails here
// (`npm run types` regenerates). tests/node/types.test.js type-checks tests/types against it.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { load } from '../../bindings/index.js';
import { generate, TARGET } from '../../scripts/gen-types.mjs';

const rp = await load();

describe('bindings/schemes.d.ts', () => {
  it('is up to date with rp.schemes and rp.operations (regenerated and compared)', async () => {
    const expected = await generate(rp.schemes, rp.operations);
    const current = readFileSync(TARGET, 'utf8');
    expect(current === expected, 'bindings/schemes.d.ts is stale: run `npm run types`').toBe(true);
  });

  it('names every scheme and every parameter of the catalogue, and every call option', () => {
    const text = readFileSync(TARGET, 'utf8');
    for (const scheme of rp.schemes) {
      expect(text).toContain(`'${scheme.id}'`);
      for (const name of Object.keys(scheme.params)) expect(text).toMatch(new RegExp(`\\b${name}\\??:`));
    }
    for (const op of rp.operations) {
      for (const option of op.options) {
        if (!['scheme', 'params', op.input].includes(option.name)) {
          expect(text).toMatch(new RegExp(`\\b${option.name}\\??:`));
        }
      }
    }
  });
});
