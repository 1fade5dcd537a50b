// index.d.ts type-checks a strict TypeScript consumer of the public API.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

describe('index.d.ts', () => {
  it('accepts a strict consumer (tsc --strict --noEmit)', () => {
    const tsc = fileURLToPath(new URL('../../node_modules/typescript/bin/tsc', import.meta.url));
    const project = fileURLToPath(new URL('../types/tsconfig.json', import.meta.url));
    const run = () => execFileSync(process.execPath, [tsc, '-p', project], { encoding: 'utf8' });
    expect(run).not.toThrow();
  }, 60000);
});
