// Nice-number ticks and number formatting of the web components (pure functions, no DOM).
import { describe, expect, it } from 'vitest';
import { formatNumber, formatTick, integerTicks, logTicks, niceStep, niceTicks } from '../../figure/ticks.js';

describe('niceTicks', () => {
  it('uses steps of 1, 2 or 5 × 10^k inside the range', () => {
    expect(niceTicks(0, 1, 5)).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1]);
    expect(niceTicks(-31.5, 0, 5)).toEqual([-30, -25, -20, -15, -10, -5, 0]);
    expect(niceTicks(0, 64, 4)).toEqual([0, 20, 40, 60]);
    expect(niceTicks(-1, 1, 4)).toEqual([-1, -0.5, 0, 0.5, 1]);
    for (const [lo, hi] of [
      [0.001, 0.0137],
      [-7.3e5, 2.2e6],
      [3.14159, 3.1416],
      [-0.00390625, 0],
    ]) {
      const ticks = niceTicks(lo, hi, 5);
      expect(ticks.length).toBeGreaterThanOrEqual(2);
      expect(ticks.every((t) => t >= lo - 1e-12 && t <= hi + 1e-12)).toBe(true);
      const step = niceStep(hi - lo, 5);
      const mantissa = step / 10 ** Math.floor(Math.log10(step) + 1e-9);
      expect([1, 2, 5, 10].some((m) => Math.abs(m - mantissa) < 1e-9)).toBe(true);
    }
  });

  it('has no floating-point noise and no -0', () => {
    for (const t of niceTicks(-0.3, 0.3, 6)) {
      expect(String(t).length).toBeLessThan(6);
      expect(Object.is(t, -0)).toBe(false);
    }
  });

  it('handles degenerate and non-finite ranges', () => {
    expect(niceTicks(2, 2)).toEqual([2]);
    expect(niceTicks(5, 1, 4)).toEqual([1, 2, 3, 4, 5]);
    expect(niceTicks(Number.NaN, 1)).toEqual([]);
    expect(niceTicks(0, Infinity)).toEqual([]);
  });
});

describe('integer and log ticks', () => {
  it('integer ticks never step below 1', () => {
    expect(integerTicks(0, 3, 10)).toEqual([0, 1, 2, 3]);
    expect(integerTicks(0, 4095, 5)).toEqual([0, 1000, 2000, 3000, 4000]);
    expect(integerTicks(13, 17, 2)).toEqual([14, 16]);
  });

  it('log ticks are powers of ten', () => {
    expect(logTicks(1e-4, 1)).toEqual([1e-4, 1e-3, 1e-2, 1e-1, 1]);
    expect(logTicks(-1, 1)).toEqual([]);
  });
});

describe('formatNumber', () => {
  it('is short, uses a true minus and names masked cells', () => {
    expect(formatNumber(0)).toBe('0');
    expect(formatNumber(-0.5)).toBe('−0.5');
    expect(formatNumber(1 / 3)).toBe('0.33333');
    expect(formatNumber(123456789)).toBe('1.23e8');
    expect(formatNumber(-Infinity, 'masked')).toBe('masked');
    expect(formatNumber(Number.NaN)).toBe('NaN');
  });
});

describe('formatTick', () => {
  it('labels every tick of a log axis, small ones as powers of ten (never "0")', () => {
    expect([1e-8, 1e-4, 2e-6, 1e-3, 0.01, 1, 5e5, 1e6].map(formatTick)).toEqual([
      '10⁻⁸',
      '10⁻⁴',
      '2×10⁻⁶',
      '0.001',
      '0.01',
      '1',
      '5×10⁵',
      '10⁶',
    ]);
    expect(formatTick(-1e-5)).toBe('−10⁻⁵');
    expect(formatTick(0.30000000000000004)).toBe('0.3');
    expect(formatTick(0)).toBe('0');
    expect(formatTick(null)).toBe(null); // a tick the axis leaves out
  });
});
