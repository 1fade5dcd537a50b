// The README's JavaScript examples run as they are written, importing 'relpos' by its package
// name (Node resolves the package's own name through its "exports").
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url);
const readme = readFileSync(new URL('README.md', root), 'utf8');
const blocks = [...readme.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]);

describe('README examples', () => {
  it('has examples', () => {
    expect(blocks.length).toBeGreaterThan(0);
  });

  blocks.forEach((code, index) => {
    it(`example ${index + 1} runs and prints what its comments say`, () => {
      const dir = new URL('build/readme/', root);
      mkdirSync(dir, { recursive: true });
      const file = fileURLToPath(new URL(`example-${index + 1}.mjs`, dir));
      writeFileSync(file, code);
      const printed = execFileSync(process.execPath, [file], { encoding: 'utf8' });
      // Lines whose comment names exact output are checked against it.
      if (code.includes("'alibi', { heads: 8, output: 'slopes' }")) {
        expect(printed).toContain('0.5, 0.25, 0.125');
        expect(printed).toContain('rope-llama3 rope 24');
        expect(printed).toContain('[ 2, 4, 4 ] [ 4, 8 ]');
      }
      if (code.includes('kvHeads: 2')) {
        expect(printed.split('\n').slice(0, 4)).toEqual([
          '[ 2, 8, 16, 16 ] [ 2, 16, 256 ]',
          '[ 4096, 64 ] undefined',
          '[ 4, 256 ]',
          'rope-llama3 500000 8 8',
        ]);
      }
    });
  });
});
