// Bad input gets a TypeError / RangeError naming the function and the argument, and the instance
// keeps working: after every bad call a valid call must still match its golden value.
import { describe, expect, it } from 'vitest';
import { load } from '../../bindings/index.js';
import { callFor, compare, goldenCases } from './golden.js';

const rp = await load();
const reference = goldenCases().find((c) => c.file.startsWith('041_rope_rotate'));
const checkStillWorks = () => {
  const got = callFor(reference)(rp);
  expect(compare(Array.from(got.data), reference.data, reference.tol).ok).toBe(true);
};

const x = { shape: [2, 4], data: new Float32Array(8) };
const cases = [
  [
    'unknown scheme id',
    () => rp.bias('bogus', { n: 4 }),
    RangeError,
    /relpos\.bias: unknown scheme id 'bogus'; known ids: .*'alibi'/,
  ],
  ['id of the wrong kind', () => rp.bias(42, { n: 4 }), TypeError, /relpos\.bias: id must be/],
  [
    'options not an object',
    () => rp.encoding('sinusoidal', 'n=4'),
    TypeError,
    /relpos\.encoding: options must be a plain object/,
  ],
  [
    'NaN parameter',
    () => rp.bias('alibi', { n: 4, alibiBiasMax: NaN }),
    RangeError,
    /relpos\.bias: alibiBiasMax must be finite, got NaN/,
  ],
  [
    'Infinity parameter',
    () => rp.frequencies('rope', { d: 8, base: Infinity }),
    RangeError,
    /relpos\.frequencies: base must be finite/,
  ],
  ['zero size', () => rp.bias('alibi', { n: 0 }), RangeError, /relpos\.bias: n must be >= 1 .*, got 0/],
  [
    'negative size',
    () => rp.encoding('sinusoidal', { n: -3, d: 4 }),
    RangeError,
    /relpos\.encoding: n must be >= 1 .*, got -3/,
  ],
  [
    'fractional size',
    () => rp.encoding('sinusoidal', { n: 2.5, d: 4 }),
    RangeError,
    /relpos\.encoding: n must be an integer, got 2.5/,
  ],
  ['missing required size', () => rp.encoding('sinusoidal', { d: 4 }), TypeError, /relpos\.encoding: n is required/],
  [
    'unknown parameter name',
    () => rp.bias('alibi', { n: 4, slope: 1 }),
    RangeError,
    /relpos\.bias: unknown parameter 'slope'/,
  ],
  [
    'bad choice',
    () => rp.bias('alibi', { n: 4, form: 'wide' }),
    RangeError,
    /relpos\.bias: form must be one of 'symmetric', 'keyPosition', got 'wide'/,
  ],
  [
    'odd d for concat',
    () => rp.encoding('sinusoidal', { n: 2, d: 5, layout: 'concat' }),
    RangeError,
    /d must be even for layout 'concat', got 5/,
  ],
  [
    'odd rotary d',
    () => rp.rotate({ shape: [2, 63], data: new Float32Array(126) }),
    RangeError,
    /relpos\.rotate: d must be even, got 63/,
  ],
  ['x not a tensor', () => rp.rotate('x'), TypeError, /relpos\.rotate: x must be a tensor of shape \[n, d\]/],
  ['x of rank 1', () => rp.rotate([1, 2, 3, 4]), TypeError, /relpos\.rotate: x must be a tensor of shape \[n, d\]/],
  [
    'x data length mismatch',
    () => rp.rotate({ shape: [2, 4], data: new Float32Array(7) }),
    RangeError,
    /relpos\.rotate: x has 7 values, but its shape \[2, 4\] needs 8/,
  ],
  [
    'rotaryDim > d',
    () => rp.rotate(x, { rotaryDim: 6 }),
    RangeError,
    /relpos\.rotate: rotaryDim must be <= d \(4\), got 6/,
  ],
  ['odd rotaryDim', () => rp.rotate(x, { rotaryDim: 3 }), RangeError, /relpos\.rotate: rotaryDim must be even, got 3/],
  [
    'positions of the wrong length',
    () => rp.rotate(x, { positions: [0, 1, 2] }),
    RangeError,
    /relpos\.rotate: positions must hold 2 values/,
  ],
  [
    'NaN in an array',
    () => rp.rotate({ shape: [2, 4], data: [0, 0, 0, NaN, 0, 0, 0, 0] }),
    RangeError,
    /relpos\.rotate: x must hold finite numbers, got NaN/,
  ],
  [
    'base <= 1',
    () => rp.frequencies('rope', { d: 8, base: 1 }),
    RangeError,
    /relpos\.frequencies: base must be > 1 .*, got 1/,
  ],
  [
    'null option',
    () => rp.bias('alibi', { n: null }),
    TypeError,
    /relpos\.bias: n must be a number, boolean, string or array, got null/,
  ],
  [
    'heads not dividing the width',
    () =>
      rp.attention({
        q: { shape: [2, 6], data: new Float32Array(12) },
        k: { shape: [2, 6], data: new Float32Array(12) },
        heads: 4,
      }),
    RangeError,
    /relpos\.attention: heads \(4\) must divide the width of q, got 6/,
  ],
  [
    'q missing',
    () => rp.attention({ k: x }),
    TypeError,
    /relpos\.attention: q must be a tensor of shape \[n, heads\*d\]/,
  ],
  [
    'k width mismatch',
    () => rp.attention({ q: x, k: { shape: [2, 2], data: [1, 2, 3, 4] } }),
    RangeError,
    /relpos\.attention: k must have the width of q \(4\), got 2/,
  ],
  [
    'B of the wrong shape',
    () => rp.attention({ q: x, k: x, B: { shape: [3, 3], data: new Float32Array(9) } }),
    RangeError,
    /relpos\.attention: B must have shape/,
  ],
  [
    'v rows mismatch',
    () => rp.attention({ q: x, k: x, v: { shape: [3, 1], data: [1, 2, 3] } }),
    TypeError,
    /relpos\.attention: v must be a tensor of shape \[m, heads\*dv\] with m = 2/,
  ],
  [
    'result over the memory limit',
    () => rp.bias('alibi', { n: 1 << 20, heads: 64 }),
    RangeError,
    /relpos\.bias: the result would hold .* over the limit .*attentionMap/,
  ],
  [
    'op a scheme lacks',
    () => rp.encoding('alibi', { n: 4, d: 4 }),
    RangeError,
    /relpos\.encoding: scheme 'alibi' has no encoding/,
  ],
];

describe('bad input', () => {
  for (const [what, call, ErrorType, message] of cases) {
    it(`${what} → ${ErrorType.name}, and the next call still works`, () => {
      let caught;
      try {
        call();
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(ErrorType);
      expect(caught.message).toMatch(message);
      checkStillWorks();
    });
  }
});

describe('no leaks', () => {
  it('the wasm heap returns to its level after 2,000 mixed calls, failing ones included', () => {
    for (const [, call] of cases) {
      try {
        call();
      } catch {
        /* expected */
      }
    }
    rp.bias('alibi', { n: 64, heads: 4 });
    const before = rp.heapInUse();
    for (let round = 0; round < 2000; round++) {
      const [, call] = cases[round % cases.length];
      try {
        call();
      } catch {
        /* expected */
      }
      rp.bias('alibi', { n: 16 + (round % 7), heads: 2 });
      rp.rotate(x, { positions: [round, round + 1] });
    }
    expect(rp.heapInUse()).toBe(before);
  });
});
