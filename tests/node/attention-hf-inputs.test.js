// Inputs as Hugging Face hands them over (docs/attention.md, "Inputs as Hugging Face hands them
// over"): rotated: true, fullyMaskedRows: 'uniform' and causalAlign: 'topLeft' against HF eager and
// SDPA computed in torch (tests/fixtures/hf-inputs.json, written by scripts/hf-inputs-fixtures.py;
// provenance in docs/reference-fixtures.md). The defaults stay as documented.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { load } from '../../bindings/index.js';
import { compare } from './golden.js';

const rp = await load();
const baseline = await load({ simd: false });
const fixtures = JSON.parse(readFileSync(new URL('../fixtures/hf-inputs.json', import.meta.url), 'utf8'));
const byId = (id) => fixtures.cases.find((c) => c.id === id);

// The fixtures' formula: x[t] = float32(((t · 7919 + seed · 104729) mod 2001 − 1000) / 1000).
const formula = (count, seed) =>
  Float32Array.from({ length: count }, (_, t) => (((t * 7919 + seed * 104729) % 2001) - 1000) / 1000);
const tensorOf = ({ shape, seed, data }) => ({
  shape,
  data: data
    ? Float32Array.from(data)
    : formula(
        shape.reduce((a, b) => a * b, 1),
        seed,
      ),
});

function callOf(fixture, extra = {}) {
  const { q, k, v } = fixture.inputs;
  return { q: tensorOf(q), k: tensorOf(k), v: tensorOf(v), ...fixture.options, ...extra };
}

const expectClose = (got, want, tol, what) => {
  const result = compare(Array.from(got), want, tol);
  expect(result.ok, `${what}: ${result.reason}`).toBe(true);
};

function expectMatches(result, fixture) {
  expect(result.weights.shape).toEqual(fixture.expected.weights.shape);
  expectClose(result.weights.data, fixture.expected.weights.data, fixture.tol, `${fixture.id} weights`);
  expect(result.output.shape).toEqual(fixture.expected.output.shape);
  expectClose(result.output.data, fixture.expected.output.data, fixture.tol, `${fixture.id} output`);
}

const sameBits = (a, b) => a.length === b.length && a.every((x, i) => Object.is(x, b[i]));
// Random whole numbers, one per name: { name: [min, max] } → fast-check arbitraries.
const ints = (ranges) =>
  Object.fromEntries(Object.entries(ranges).map(([name, [min, max]]) => [name, fc.integer({ min, max })]));
// q [n, qWidth], k and v [m, kvWidth] from the formula (seeds seed, seed + 1, seed + 2).
const qkv = (n, m, qWidth, kvWidth, seed) => ({
  q: { shape: [n, qWidth], data: formula(n * qWidth, seed) },
  k: { shape: [m, kvWidth], data: formula(m * kvWidth, seed + 1) },
  v: { shape: [m, kvWidth], data: formula(m * kvWidth, seed + 2) },
});

describe('the HF / SDPA options match torch (tests/fixtures/hf-inputs.json)', () => {
  it('every case of the fixture file runs and matches, in both builds, weights and output-only alike', () => {
    expect(fixtures.cases.map((c) => c.id)).toEqual([
      'eager-left-padding-uniform',
      'sdpa-is-causal-n3-m7',
      'sdpa-is-causal-n7-m3',
      'eager-rotated-llama',
    ]);
    for (const fixture of fixtures.cases) {
      for (const instance of [rp, baseline]) {
        const result = instance.attention(callOf(fixture));
        expectMatches(result, fixture);
        const only = instance.attention(callOf(fixture, { weights: false }));
        expectClose(only.output.data, fixture.expected.output.data, fixture.tol, `${fixture.id} output only`);
      }
    }
  });

  it("fullyMaskedRows: 'uniform' gives HF eager's rows exactly: every weight float32(1/m); the default gives zeros", () => {
    const fixture = byId('eager-left-padding-uniform');
    const [, heads, n, m] = fixture.expected.weights.shape;
    const uniform = rp.attention(callOf(fixture)).weights.data;
    const zeros = rp.attention(callOf(fixture, { fullyMaskedRows: undefined })).weights.data;
    const want = Math.fround(1 / m);
    for (const [b, i] of fixture.uniformRows) {
      for (let h = 0; h < heads; h++) {
        const at = ((b * heads + h) * n + i) * m;
        const row = Array.from(uniform.subarray(at, at + m));
        expect(row).toEqual(new Array(m).fill(want));
        expect(fixture.expected.weights.data.slice(at, at + m)).toEqual(new Array(m).fill(want));
        expect(Array.from(zeros.subarray(at, at + m))).toEqual(new Array(m).fill(0));
      }
    }
  });

  it("causalAlign: 'topLeft' is SDPA's is_causal; the default (bottom-right) is not, when n ≠ m", () => {
    for (const id of ['sdpa-is-causal-n3-m7', 'sdpa-is-causal-n7-m3']) {
      const fixture = byId(id);
      const bottomRight = rp.attention(callOf(fixture, { causalAlign: undefined }));
      expect(compare(Array.from(bottomRight.weights.data), fixture.expected.weights.data, fixture.tol).ok).toBe(false);
      // 'bottomRight' named is the default.
      const named = rp.attention(callOf(fixture, { causalAlign: 'bottomRight' }));
      expect(sameBits(named.weights.data, bottomRight.weights.data)).toBe(true);
    }
  });

  it('rotated: true takes q and k as HF rotated them; the same layer from unrotated inputs agrees with torch too', () => {
    const fixture = byId('eager-rotated-llama');
    const { unrotated } = fixture;
    const raw = {
      ...callOf(fixture),
      q: tensorOf(unrotated.q),
      k: tensorOf(unrotated.k),
      positions: unrotated.positions,
      rotated: undefined,
    };
    // relpos's own rotation (float64 angles) differs from torch's float32 angles by rounding only.
    expectClose(rp.attention(raw).output.data, fixture.expected.output.data, { abs: 2e-5, rel: 1e-4 }, 'rotated here');
    // Without rotated: true, the rotated inputs would be rotated twice.
    const twice = rp.attention(callOf(fixture, { rotated: undefined }));
    expect(compare(Array.from(twice.weights.data), fixture.expected.weights.data, fixture.tol).ok).toBe(false);
  });
});

describe('rotated: true skips exactly the rotation the scheme would apply', () => {
  it('attention of rp.rotate(q), rp.rotate(k) with rotated: true is the scheme call bit for bit (random layers)', () => {
    fc.assert(
      fc.property(
        fc.record({
          ...ints({ n: [1, 9], extra: [0, 6], seed: [1, 1000] }),
          heads: fc.constantFrom(1, 2, 4),
          group: fc.constantFrom(1, 2),
          d: fc.constantFrom(4, 8, 16),
          scheme: fc.constantFrom('rope', 'rope-llama3', 'rope-yarn'),
        }),
        ({ n, extra, heads, group, d, scheme, seed }) => {
          if (heads % group) return;
          const m = n + extra;
          const kvHeads = heads / group;
          const { q, k, v } = qkv(n, m, heads * d, kvHeads * d, seed);
          const call = { heads, kvHeads, causal: true, scheme };
          const direct = rp.attention({ q, k, v, ...call });
          const positions = Array.from({ length: n }, (_, i) => i + m - n);
          const keys = Array.from({ length: m }, (_, j) => j);
          const qr = rp.rotate(q, { scheme, heads, positions });
          const kr = rp.rotate(k, { scheme, heads: kvHeads, positions: keys });
          const pre = rp.attention({ q: qr, k: kr, v, ...call, rotated: true });
          expect(sameBits(pre.weights.data, direct.weights.data)).toBe(true);
          expect(sameBits(pre.output.data, direct.output.data)).toBe(true);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('is refused where it would do nothing, naming the call and the option', () => {
    const x = { shape: [3, 8], data: formula(24, 5) };
    expect(() => rp.attention({ q: x, k: x, rotated: true })).toThrow(
      /relpos\.attention: rotated: true says q and k arrive rotated by the rotary scheme; this call has no scheme/,
    );
    expect(() => rp.attention({ q: x, k: x, scheme: 'alibi', rotated: true })).toThrow(/'alibi' does not rotate/);
    expect(() => rp.attention({ q: x, k: x, scheme: 'rope', rotated: true, positions: [0, 1, 2] })).toThrow(
      /rotated: true: q and k arrive rotated, so positions and keyPositions would place nothing/,
    );
    expect(() => rp.attention({ q: x, k: x, rotated: 1 })).toThrow(/relpos\.attention: rotated must be a boolean/);
    expect(() => rp.attention({ q: x, k: x, fullyMaskedRows: 'mean' })).toThrow(
      /relpos\.attention: fullyMaskedRows must be one of 'zeros', 'uniform', got 'mean'/,
    );
    expect(() => rp.attention({ q: x, k: x, causalAlign: 'topLeft' })).toThrow(
      /relpos\.attention: causalAlign needs causal: true/,
    );
    // The module keeps working.
    expect(rp.attention({ q: x, k: x, causal: true, causalAlign: 'topLeft' }).weights.shape).toEqual([1, 3, 3]);
  });
});

describe("fullyMaskedRows: 'uniform' and causalAlign: 'topLeft' over random calls", () => {
  it('a uniform row is 1/m on every key, in weights and output-only calls alike; other rows keep their bits', () => {
    fc.assert(
      fc.property(
        fc.record({
          ...ints({ n: [1, 12], m: [1, 12], window: [0, 4], offset: [-6, 6], seed: [1, 1000] }),
          topLeft: fc.boolean(),
        }),
        ({ n, m, window, offset, topLeft, seed }) => {
          const d = 4;
          const { q, k, v } = qkv(n, m, 2 * d, 2 * d, seed);
          const call = { q, k, v, heads: 2, causal: true, queryOffset: offset };
          if (window) call.slidingWindow = window;
          if (topLeft) call.causalAlign = 'topLeft';
          const zeros = rp.attention(call);
          const uniform = rp.attention({ ...call, fullyMaskedRows: 'uniform' });
          const only = rp.attention({ ...call, fullyMaskedRows: 'uniform', weights: false });
          for (let h = 0; h < 2; h++) {
            for (let i = 0; i < n; i++) {
              const at = (h * n + i) * m;
              const row = zeros.weights.data.subarray(at, at + m);
              const got = uniform.weights.data.subarray(at, at + m);
              const empty = row.every((w) => w === 0);
              if (empty) expect(Array.from(got)).toEqual(new Array(m).fill(Math.fround(1 / m)));
              else expect(sameBits(got, row)).toBe(true);
              // The output row: the mean of v's rows where empty.
              for (let c = 0; c < d; c++) {
                let want = 0;
                for (let j = 0; j < m; j++) want += got[j] * v.data[j * 2 * d + h * d + c];
                expect(Math.abs(only.output.data[i * 2 * d + h * d + c] - want)).toBeLessThan(1e-6);
              }
            }
          }
          // topLeft: query i sees keys up to i (and back over the window), whatever queryOffset is.
          if (topLeft) {
            for (let i = 0; i < n; i++) {
              for (let j = 0; j < m; j++) {
                const seen = j <= i && (!window || i - j < window);
                if (!seen) expect(zeros.weights.data[i * m + j]).toBe(0);
                else expect(zeros.weights.data[i * m + j]).toBeGreaterThan(0);
              }
            }
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});
