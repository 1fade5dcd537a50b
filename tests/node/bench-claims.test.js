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

// The attention block's sentence of ratios is the ratio rows of the same run: each range it states
// is the lowest–highest cell of its row in bench/results.md's "Ratios and targets" table (both are
// rounded to two decimals from the same medians).
describe('README attention ratios', () => {
  const results = read('bench/results.md');
  const summary = findBlock(readme, 'attention').replace(/\s+/g, ' ');
  // The cells of the table row of results.md whose first cell starts with `label`.
  const row = (label) => {
    const line = results.split('\n').find((l) => l.startsWith(`| ${label}`));
    expect(line, `bench/results.md has no row "${label}"`).toBeDefined();
    return line
      .split('|')
      .slice(2, -1)
      .map((cell) => cell.trim());
  };
  const range = (label) => {
    const values = row(label).map(Number);
    expect(values.every(Number.isFinite), `${label}: ${values}`).toBe(true);
    const [lo, hi] = [Math.min(...values).toFixed(2), Math.max(...values).toFixed(2)];
    return lo === hi ? lo : `${lo}–${hi}`;
  };

  it("states the SIMD build's ratios to the faster peer as its rows give them", () => {
    const scheme = range('faster peer ÷ relpos, scheme bias, copied');
    const given = range('faster peer ÷ relpos, given B, copied');
    const inPlace = range('faster peer ÷ relpos, given B in place (rp.alloc), copied');
    expect(summary.toLowerCase()).toContain(
      `faster peer's time over relpos's is ${scheme} with the scheme's own bias and ${given} given b as a tensor, ${inPlace} with b filled in place`,
    );
  });

  it('holds the Node rows to the Node prefill target (1.5×)', () => {
    for (const label of [
      'faster peer ÷ relpos, scheme bias, copied',
      'faster peer ÷ relpos, given B, copied',
      'faster peer ÷ relpos relaxed SIMD (FMA), scheme bias, copied',
      'faster peer ÷ relpos relaxed SIMD (FMA), given B, copied',
    ]) {
      expect(results, label).toContain(`| ${label} (≥ 1.5) |`);
    }
    expect(summary).toContain('(the target is 1.5;');
  });

  it("states the relaxed build's ratios and its share of the FMA probe as its rows give them", () => {
    const scheme = range('faster peer ÷ relpos relaxed SIMD (FMA), scheme bias, copied');
    const given = range('faster peer ÷ relpos relaxed SIMD (FMA), given B, copied');
    expect(summary).toContain(
      'With relaxed SIMD enabled (Node 20 needs `--experimental-wasm-relaxed-simd`, which this run had; Chromium has it on)',
    );
    expect(summary).toContain(
      `the faster peer's time over relpos relaxed is ${scheme} with the scheme's own bias and ${given} given B as a tensor`,
    );
    const peaks = row('wasm relaxed-SIMD FMA peak probe, GF/s').map(Number);
    expect(peaks.every(Number.isFinite), `FMA probe: ${peaks}`).toBe(true);
    const [lo, hi] = [Math.min(...peaks).toFixed(1), Math.max(...peaks).toFixed(1)];
    expect(summary).toContain(`of the relaxed-SIMD FMA probe, which read ${lo === hi ? lo : `${lo}–${hi}`} GF/s`);
  });

  it('quotes the relaxed rows from the recorded medians, and the build that ran', () => {
    for (const what of ['scheme bias', 'given B']) {
      // results.md "1.93 (17.4, 38 % of FMA)" is the README's "1.93 (17.4)".
      const cells = row(`relpos relaxed SIMD (FMA): ${what}, copied result`).map((cell) =>
        cell.replace(/ \(([^,]+), [^)]*\)$/, ' ($1)'),
      );
      expect(
        cells.every((cell) => /^[\d.]+ \([\d.]+\)$/.test(cell)),
        cells.join(' | '),
      ).toBe(true);
      expect(summary).toContain(`| relpos relaxed SIMD (FMA), ${what}, copied result | ${cells.join(' | ')} |`);
    }
    const [file, , relaxed] = row('relpos relaxed SIMD (FMA) |');
    expect(file.split(' + ').sort()).toEqual(['relpos-fused.relaxed.wasm', 'relpos.simd.wasm']);
    expect(relaxed).toMatch(/^yes: its fusedRows computed /);
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
