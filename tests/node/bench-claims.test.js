// The README's speed claims are the benchmarks' own words: each <!-- bench:NAME --> block in
// README.md is what `npm run bench` / `npm run bench:svd` wrote into their results file in the same
// run (bench/readme-block.mjs), so no number in the README can drift from the recorded measurement.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { findBlock } from '../../bench/readme-block.mjs';

const root = new URL('../../', import.meta.url);
const read = (path) => readFileSync(new URL(path, root), 'utf8');
const readme = read('README.md');

describe('README benchmark claims', () => {
  it.each([
    ['attention', 'bench/results.md'],
    ['svd', 'bench/svd-results.md'],
    ['browser', 'bench/browser-results.md'],
  ])('the %s block is the one the last run wrote into %s', (name, results) => {
    const recorded = findBlock(read(results), name);
    expect(recorded, `${results} has no ${name} block`).not.toBeNull();
    expect(recorded.split('\n').length, 'the block holds the run summary').toBeGreaterThan(2);
    expect(findBlock(readme, name)).toBe(recorded);
  });

  it('quotes no timing outside the blocks the benchmarks write', () => {
    const section = readme.slice(readme.indexOf('## Benchmark'), readme.indexOf('## The tutorial and the playground'));
    const outside = section.replace(/<!-- bench:(\w+) -->[\s\S]*?<!-- \/bench:\1 -->/g, '');
    expect(outside).not.toMatch(/\d\s*(ms|GF\/s)\b|\d×/);
  });
});
