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

// docs/api.md's decode table: each row is a row of the last decode run (bench/decode-results.md),
// its cached keys, the four timings, the floor and relpos ÷ floor, and the prose's 8B range is
// that of the rows.
describe('docs/api.md decode claims', () => {
  const api = read('docs/api.md');
  const cells = (line) =>
    line
      .split('|')
      .slice(1, -1)
      .map((cell) => cell.trim());
  const rowsOf = (text) => text.split('\n').filter((line) => /^\| [^|]*\| \d[\d,]* \|/.test(line));
  const recorded = new Set(
    rowsOf(read('bench/decode-results.md')).map((line) =>
      cells(line)
        .slice(1, 8)
        .map((cell) => cell.replace(/ \(.*\)$/, ''))
        .join(' | '),
    ),
  );
  const quoted = rowsOf(api.slice(api.indexOf('One decode step (append one token')));

  it('quotes every row from the recorded run', () => {
    expect(quoted.length).toBe(7);
    for (const line of quoted) expect(recorded, line).toContain(cells(line).slice(1, 8).join(' | '));
  });

  it("states the 8B shape's range over its floor as the rows give it", () => {
    const ratios = quoted.slice(0, 3).map((line) => Number(cells(line)[7]));
    const range = `${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}× its floor`;
    expect(api.replace(/\s+/g, ' ')).toContain(`At the 8B shape a step is ${range}`);
  });
});
