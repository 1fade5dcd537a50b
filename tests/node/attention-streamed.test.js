// A given B or mask ({ shape, data }, a Float32Array the caller keeps) is read block by block from
// the caller's array (the options rp.operations marks `streamed`; docs/attention.md, "A given B
// without a copy"): the result equals, bit for bit, the same tensor in place (rp.alloc) and the same
// tensor copied whole (a job copies its options as it starts), for every broadcast form; a bad value
// is the copied path's error; nothing n × m of B is held in the wasm heap.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { load } from '../../bindings/index.js';

const rp = await load();

const tensor = (shape, data) => ({ shape, data });
const wave = (length, rate, phase) => Float32Array.from({ length }, (_, i) => Math.sin(rate * i + phase));

function expectSameTensor(actual, expected, what) {
  expect(actual.shape, what).toEqual(expected.shape);
  expect(
    expected.data.findIndex((x, i) => !Object.is(x, actual.data[i])),
    what,
  ).toBe(-1);
}

function expectSameResult(actual, expected, what) {
  expect(Object.keys(actual).sort(), what).toEqual(Object.keys(expected).sort());
  for (const key of ['weights', 'output']) if (expected[key]) expectSameTensor(actual[key], expected[key], what);
}

/** The shape of a term of `form` for a call of these sizes. */
function termShape(form, { batch, heads, n, m }) {
  return {
    nm: [n, m],
    hnm: [heads, n, m],
    bhnm: [batch, heads, n, m],
    b1nm: [batch, 1, n, m],
    bh1m: [batch, heads, 1, m],
    b11m: [batch, 1, 1, m],
  }[form];
}

/** Values of a term: a wave, with -Infinity (a masked pair) at every `gap`-th entry. */
function termValues(count, seed, gap) {
  const values = wave(count, 0.37 + seed / 1000, seed);
  for (let t = seed % gap; t < count; t += gap) values[t] = -Infinity;
  return values;
}

const call = fc.record({
  batch: fc.integer({ min: 1, max: 2 }),
  kvHeads: fc.integer({ min: 1, max: 2 }),
  group: fc.integer({ min: 1, max: 3 }),
  // Up to 2 × 6 × 300 × 400 floats: terms above one block's scratch (2^16 floats) are read a block
  // at a time, smaller ones whole; both kinds occur.
  n: fc.oneof(fc.constant(1), fc.integer({ min: 1, max: 300 }), fc.integer({ min: 150, max: 300 })),
  m: fc.oneof(fc.integer({ min: 1, max: 400 }), fc.integer({ min: 200, max: 400 })),
  d: fc.constantFrom(4, 8),
  bias: fc.constantFrom('none', 'nm', 'hnm', 'bhnm', 'b1nm'),
  mask: fc.constantFrom('none', 'nm', 'hnm', 'bhnm', 'b1nm', 'bh1m', 'b11m'),
  maskKind: fc.constantFrom('boolean', 'additive'),
  causal: fc.boolean(),
  weights: fc.boolean(),
  seed: fc.integer({ min: 0, max: 999 }),
});

/** The options of a generated call, B and mask given as plain { shape, data }. */
function optionsOf(c) {
  const heads = c.kvHeads * c.group;
  const sizes = { batch: c.batch, heads, n: c.n, m: c.m };
  const lead = c.batch > 1 ? [c.batch] : [];
  const options = {
    q: tensor([...lead, c.n, heads * c.d], wave(c.batch * c.n * heads * c.d, 0.71, c.seed)),
    k: tensor([...lead, c.m, c.kvHeads * c.d], wave(c.batch * c.m * c.kvHeads * c.d, 0.53, c.seed + 1)),
    v: tensor([...lead, c.m, c.kvHeads * c.d], wave(c.batch * c.m * c.kvHeads * c.d, 0.29, c.seed + 2)),
    axes: 'bnd',
    heads,
    kvHeads: c.kvHeads,
    causal: c.causal,
    weights: c.weights,
  };
  // The 4-D forms need a batch dimension on q (batch 1 too); the others are per call or per head.
  const forms = (form) => form !== 'none' && (form.length < 4 || c.batch > 1);
  if (forms(c.bias)) {
    const shape = termShape(c.bias, sizes);
    options.B = tensor(
      shape,
      termValues(
        shape.reduce((a, b) => a * b),
        c.seed,
        13,
      ),
    );
  }
  if (forms(c.mask)) {
    const shape = termShape(c.mask, sizes);
    const values = termValues(
      shape.reduce((a, b) => a * b),
      c.seed + 5,
      7,
    );
    // A boolean mask holds 1 (keep) and 0 (drop).
    if (c.maskKind === 'boolean') for (let t = 0; t < values.length; t++) values[t] = (t + c.seed) % 5 === 3 ? 0 : 1;
    options.mask = tensor(shape, values);
    options.maskKind = c.maskKind;
  }
  return options;
}

describe('a given B or mask read block by block from the caller’s array', () => {
  it('the options read this way are those rp.operations marks streamed: B and mask of rp.attention', () => {
    const marked = rp.operations.flatMap((op) =>
      op.options.filter((o) => o.streamed).map((o) => `${op.name}.${o.name}`),
    );
    expect(marked.sort()).toEqual(['attention.B', 'attention.mask']);
  });

  it('gives the bits of the same B in place (rp.alloc) and of B and mask copied whole (a job), every form', async () => {
    const checks = [];
    fc.assert(
      fc.property(call, (c) => {
        const options = optionsOf(c);
        const streamed = rp.attention(options);
        checks.push({ c, options, streamed });
        if (options.B) {
          const held = rp.alloc(options.B.shape);
          held.data.set(options.B.data);
          const inPlace = rp.attention({ ...options, B: held });
          held.free();
          expectSameResult(streamed, inPlace, JSON.stringify(c));
        }
      }),
      { numRuns: 80, seed: 41 },
    );
    // Both kinds were exercised: terms read a block at a time and terms read whole.
    const sizes = checks.flatMap(({ options }) => [options.B, options.mask].filter(Boolean).map((t) => t.data.length));
    expect(sizes.filter((size) => size > 2 ** 16).length).toBeGreaterThan(10);
    expect(sizes.filter((size) => size <= 2 ** 16).length).toBeGreaterThan(10);
    // The copied path: a job copies every option whole into the heap as it starts.
    for (const { c, options, streamed } of checks) {
      expectSameResult(streamed, await rp.attentionAsync(options), JSON.stringify(c));
    }
  });

  it('with queryRows, each part equals those rows of the whole call', () => {
    const c = { batch: 2, kvHeads: 2, group: 2, n: 37, m: 90, d: 4, causal: true, weights: true, seed: 3 };
    const options = optionsOf({ ...c, bias: 'b1nm', mask: 'bh1m', maskKind: 'additive' });
    const whole = rp.attention(options);
    const part = rp.attention({ ...options, queryRows: [8, 20] });
    for (let b = 0; b < 2; b++) {
      for (let h = 0; h < 4; h++) {
        for (let i = 8; i < 20; i++) {
          const from = ((b * 4 + h) * 37 + i) * 90;
          const to = ((b * 4 + h) * 12 + i - 8) * 90;
          expect(part.weights.data.slice(to, to + 90)).toEqual(whole.weights.data.slice(from, from + 90));
        }
      }
    }
  });

  it('a NaN or +Infinity in B or mask is the copied path’s RangeError, in any block; the module keeps working', async () => {
    // m = 700: blocks of 92 query rows, so n = 300 spans four blocks of each head.
    const [n, m, heads, d] = [300, 700, 2, 8];
    const sized = {
      q: tensor([n, heads * d], wave(n * heads * d, 0.7, 0.1)),
      k: tensor([m, heads * d], wave(m * heads * d, 0.3, 0.2)),
      heads,
    };
    for (const name of ['B', 'mask']) {
      for (const bad of [NaN, Infinity]) {
        for (const at of [0, n * m - 1, (2 * n - 1) * m + 5]) {
          const values = wave(heads * n * m, 0.01, 0);
          values[at] = bad;
          const options = { ...sized, [name]: tensor([heads, n, m], values) };
          if (name === 'mask') options.maskKind = 'additive';
          const expected = `relpos.attention: ${name} must hold finite numbers or -Infinity, got ${bad}`;
          expect(() => rp.attention(options)).toThrow(RangeError);
          expect(() => rp.attention(options)).toThrow(expected);
          // The copied path (a job copies its options whole) says the same.
          await expect(rp.attentionAsync(options)).rejects.toThrow(
            `${name} must hold finite numbers or -Infinity, got ${bad}`,
          );
        }
      }
    }
    const fine = rp.attention({ ...sized, B: tensor([n, m], wave(n * m, 0.02, 0)) });
    expect(fine.weights.data.every(Number.isFinite)).toBe(true);
  });

  it('a call with a given [2048, 2048] B holds nothing near n × m floats in the wasm heap', () => {
    const [n, d] = [2048, 8];
    const x = tensor([n, d], wave(n * d, 0.37, 0.1));
    const B = tensor([n, n], wave(n * n, 0.001, 0));
    const bytes = n * n * 4;
    // Fill the heap's free space but for a quarter of B, so that holding B would grow the heap by
    // most of it (malloc's bytes in use, rp.heapInUse, say what is free).
    const probe = rp.alloc([1]);
    const heapBytes = () => probe.data.buffer.byteLength;
    const free = heapBytes() - rp.heapInUse();
    const filler = free > bytes / 4 ? rp.alloc([Math.floor((free - bytes / 4) / 4)]) : null;
    const before = heapBytes();
    const inUse = rp.heapInUse();
    const out = rp.attention({ q: x, k: x, v: x, B, weights: false });
    expect(heapBytes() - before).toBeLessThan(bytes / 8);
    expect(rp.heapInUse()).toBe(inUse);
    // The same B in place gives the same bits.
    filler?.free();
    const held = rp.alloc([n, n]);
    held.data.set(B.data);
    expectSameResult(out, rp.attention({ q: x, k: x, v: x, B: held, weights: false }), 'n = 2048');
    held.free();
    probe.free();
  });
});

describe('a streamed B that shares its buffer with out', () => {
  it('gives the weights of the same B held apart: out is written over rows still to be read', () => {
    // B [n, m] serves both heads of both sequences, so rows the first sequence's weights overwrite in
    // out are read again for the second (n = 300 spans two blocks of 216 rows at m = 300).
    const [batch, heads, n, m, d] = [2, 2, 300, 300, 4];
    const q = tensor([batch, n, heads * d], wave(batch * n * heads * d, 0.71, 0.2));
    const k = tensor([batch, m, heads * d], wave(batch * m * heads * d, 0.53, 0.4));
    const values = wave(n * m, 0.013, 0.5);
    const want = rp.attention({ q, k, heads, B: tensor([n, m], values) });
    const out = new Float32Array(batch * heads * n * m);
    out.set(values);
    const got = rp.attention({ q, k, heads, B: tensor([n, m], out.subarray(0, n * m)), out });
    expect(got.weights.data).toBe(out);
    expectSameTensor(got.weights, want.weights, 'B inside out');
  });
});
