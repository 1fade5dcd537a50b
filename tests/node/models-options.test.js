// What real models need from the calls (docs/api.md): Llama-4's hard-step llama3 scaling, YaRN's
// mscale pair with 0 as "unset", LongRoPE's given attention factor, caller-given inverse
// frequencies, per-head and offset rotation, and biases and buckets for n queries against m keys at
// any positions (KV caches, left padding, custom position ids) with caller-given ALiBi slopes.
import { describe, expect, it } from 'vitest';
import { load } from '../../bindings/index.js';

const rp = await load();
const range = (n, from = 0) => Array.from({ length: n }, (_, i) => from + i);
const mscale = (s, m) => (s <= 1 ? 1 : 0.1 * m * Math.log(s) + 1);
const f32 = (x) => Math.fround(x);

// A deterministic [rows, cols] tensor with entries in (−1, 1).
function tensor(rows, cols, seed = 1) {
  const data = Float32Array.from({ length: rows * cols }, (_, i) => Math.sin(seed * 12.9898 + i * 78.233) % 1);
  return { shape: [rows, cols], data };
}

// Rows from..to−1 of the last two axes of a [heads, n, n] (or [n, n]) tensor.
function lastRows(t, count) {
  const n = t.shape.at(-1);
  const lead = t.shape.length === 3 ? t.shape[0] : 1;
  const out = [];
  for (let h = 0; h < lead; h++) out.push(...t.data.slice((h * n + n - count) * n, (h + 1) * n * n));
  return out;
}

// Reference rotation of one row segment: pairs (a, b) at the layout's indices rotated by p·θ_k.
function rotateSegment(row, start, width, invFreq, p, layout) {
  const out = Array.from(row);
  const pairs = width / 2;
  for (let k = 0; k < pairs; k++) {
    const ia = start + (layout === 'interleaved' ? 2 * k : k);
    const ib = start + (layout === 'interleaved' ? 2 * k + 1 : k + pairs);
    const c = Math.cos(p * invFreq[k]);
    const s = Math.sin(p * invFreq[k]);
    out[ia] = row[ia] * c - row[ib] * s;
    out[ib] = row[ib] * c + row[ia] * s;
  }
  return out;
}

function expectClose(got, want, tol = 1e-5) {
  expect(got.length).toBe(want.length);
  for (let i = 0; i < want.length; i++) {
    if (want[i] === -Infinity) expect(got[i], `[${i}]`).toBe(-Infinity);
    else {
      expect(Math.abs(got[i] - want[i]), `[${i}] ${got[i]} vs ${want[i]}`).toBeLessThanOrEqual(
        tol * (1 + Math.abs(want[i])),
      );
    }
  }
}

describe('rope-llama3 with lowFreqFactor == highFreqFactor (Llama-4-Scout)', () => {
  const scout = {
    d: 128,
    base: 500000,
    factor: 16,
    lowFreqFactor: 1,
    highFreqFactor: 1,
    originalMaxPositionEmbeddings: 8192,
  };

  it('is a hard step: pairs with wavelength above original / low take θ/s, the others keep θ; attention factor 1', () => {
    const { invFreq, attentionFactor } = rp.frequencies('rope-llama3', scout);
    expect(attentionFactor).toBe(1);
    for (let k = 0; k < 64; k++) {
      const theta = 500000 ** ((-2 * k) / 128);
      const want = (2 * Math.PI) / theta > 8192 ? theta / 16 : theta;
      expect(invFreq[k] / want, `pair ${k}`).toBeCloseTo(1, 6);
    }
  });

  it('rotates, scores and attends (the calls that used to throw)', () => {
    const x = tensor(3, 128);
    expect(rp.rotate(x, { scheme: 'rope-llama3', ...scout, positions: [0, 1, 9000] }).shape).toEqual([3, 128]);
    expect(rp.scores('rope-llama3', { ...scout, n: 4 }).shape).toEqual([1, 4, 4]);
  });

  it('highFreqFactor below lowFreqFactor is a RangeError naming both', () => {
    expect(() => rp.frequencies('rope-llama3', { d: 16, lowFreqFactor: 2, highFreqFactor: 1 })).toThrow(
      /relpos\.frequencies: highFreqFactor must be >= lowFreqFactor \(2\), got 1/,
    );
  });
});

describe('rope-yarn: the mscale pair (DeepSeek) with 0 meaning "not set", as Hugging Face reads it', () => {
  const yarn = { d: 64, base: 10000, factor: 40, originalMaxPositionEmbeddings: 4096 };

  it('mscale / mscaleAllDim when both are non-zero', () => {
    const { attentionFactor } = rp.frequencies('rope-yarn', { ...yarn, mscale: 0.707, mscaleAllDim: 1 });
    expect(attentionFactor).toBeCloseTo(mscale(40, 0.707) / mscale(40, 1), 6);
  });

  it('mscaleAllDim: 0 or mscale: 0 gives the default mscale(s, 1) = 1.3688879 for factor 40', () => {
    for (const pair of [
      { mscale: 0.707, mscaleAllDim: 0 },
      { mscale: 0, mscaleAllDim: 1 },
    ]) {
      expect(rp.frequencies('rope-yarn', { ...yarn, ...pair }).attentionFactor).toBeCloseTo(mscale(40, 1), 6);
    }
    expect(mscale(40, 1)).toBeCloseTo(1.3688879, 7);
  });

  it('one of the pair alone is a RangeError (it would change nothing)', () => {
    expect(() => rp.frequencies('rope-yarn', { ...yarn, mscale: 0.707 })).toThrow(
      /relpos\.frequencies: mscale needs mscaleAllDim/,
    );
    expect(() => rp.frequencies('rope-yarn', { ...yarn, mscaleAllDim: 1 })).toThrow(
      /relpos\.frequencies: mscaleAllDim needs mscale/,
    );
  });

  it('attentionFactor together with the pair is a RangeError (it replaces what the pair gives)', () => {
    expect(() => rp.frequencies('rope-yarn', { ...yarn, attentionFactor: 1.2, mscale: 1, mscaleAllDim: 1 })).toThrow(
      /relpos\.frequencies: attentionFactor replaces .*mscale/,
    );
  });

  it('negative values stay RangeErrors', () => {
    expect(() => rp.frequencies('rope-yarn', { ...yarn, mscale: -1, mscaleAllDim: 1 })).toThrow(/mscale must be >= 0/);
  });
});

describe('rope-longrope: a given attentionFactor replaces √(1 + ln s / ln L0)', () => {
  it('0.5 replaces the derived 1.14105 (factor 10, original 2048)', () => {
    const base = { d: 128, factor: 10, originalMaxPositionEmbeddings: 2048, seqLen: 1 };
    expect(rp.frequencies('rope-longrope', base).attentionFactor).toBeCloseTo(
      Math.sqrt(1 + Math.log(10) / Math.log(2048)),
      6,
    );
    expect(rp.frequencies('rope-longrope', { ...base, attentionFactor: 0.5 }).attentionFactor).toBe(0.5);
  });

  it('the factor multiplies the rotated dims in rotate, as for YaRN', () => {
    const x = tensor(2, 8);
    const plain = rp.rotate(x, { scheme: 'rope-longrope', positions: [0, 0] });
    const scaled = rp.rotate(x, { scheme: 'rope-longrope', positions: [0, 0], attentionFactor: 2 });
    expectClose(
      scaled.data,
      Array.from(plain.data, (v) => 2 * v),
    );
  });
});

describe('caller-given inverse frequencies (rope: invFreq)', () => {
  // rotary-embedding-torch's "pixel" frequencies: linspace(1, max_freq / 2, dim / 2) · π, max_freq 10.
  const pixel = [1, 2.3333333, 3.6666667, 5].map((v) => f32(v * Math.PI));

  it('frequencies returns them (as float32) with attention factor 1; d defaults to twice their count', () => {
    const { invFreq, attentionFactor } = rp.frequencies('rope', { invFreq: pixel });
    expect(Array.from(invFreq)).toEqual(pixel);
    expect(attentionFactor).toBe(1);
  });

  it('rotate turns pair k by p · invFreq[k]', () => {
    const x = tensor(3, 8);
    const positions = [0, 1, 5];
    const got = rp.rotate(x, { invFreq: pixel, layout: 'interleaved', positions });
    const want = positions.flatMap((p, i) =>
      rotateSegment(x.data.slice(i * 8, i * 8 + 8), 0, 8, pixel, p, 'interleaved'),
    );
    expectClose(got.data, want, 1e-5);
  });

  it('a count other than rotaryDim / 2, a base beside them, or another scheme are errors naming them', () => {
    expect(() => rp.frequencies('rope', { d: 16, invFreq: pixel })).toThrow(
      /relpos\.frequencies: invFreq must hold 8 values/,
    );
    expect(() => rp.frequencies('rope', { base: 500000, invFreq: pixel })).toThrow(
      /relpos\.frequencies: .*base.*invFreq/,
    );
    expect(() => rp.frequencies('rope-yarn', { d: 8, invFreq: pixel })).toThrow(
      /relpos\.frequencies: unknown parameter 'invFreq'/,
    );
  });
});

describe('frequencies: options that would change nothing are errors', () => {
  it("positions and seqLen only set rope-dynamic's and rope-longrope's sequence length", () => {
    expect(() => rp.frequencies('rope', { d: 8, positions: [0, 5000] })).toThrow(/relpos\.frequencies: .*positions/);
    expect(() => rp.frequencies('rope', { d: 8, seqLen: 5000 })).toThrow(
      /relpos\.frequencies: unknown parameter 'seqLen'/,
    );
    const dynamic = { d: 8, factor: 2, originalMaxPositionEmbeddings: 16 };
    expect(rp.frequencies('rope-dynamic', { ...dynamic, positions: [0, 100] }).invFreq).toEqual(
      rp.frequencies('rope-dynamic', { ...dynamic, seqLen: 101 }).invFreq,
    );
  });
});

describe('rotate: heads, head width, partial rotary and a start offset', () => {
  const x = tensor(4, 3 * 8);
  const positions = [0, 2, 7, 40];
  const perHead = (options) => {
    const out = new Float32Array(x.data.length);
    for (let h = 0; h < 3; h++) {
      const slice = { shape: [4, 8], data: new Float32Array(32) };
      for (let i = 0; i < 4; i++) slice.data.set(x.data.subarray(i * 24 + h * 8, i * 24 + h * 8 + 8), i * 8);
      const r = rp.rotate(slice, { positions, ...options });
      for (let i = 0; i < 4; i++) out.set(r.data.subarray(i * 8, i * 8 + 8), i * 24 + h * 8);
    }
    return out;
  };

  it('heads splits [n, heads·d] and rotates every head', () => {
    const got = rp.rotate(x, { heads: 3, positions });
    expect(got.shape).toEqual([4, 24]);
    expect(Array.from(got.data)).toEqual(Array.from(perHead({})));
  });

  it('rotaryDim rotates the first rotaryDim dims of every head; d may repeat the head width', () => {
    const got = rp.rotate(x, { heads: 3, d: 8, rotaryDim: 4, positions });
    expect(Array.from(got.data)).toEqual(Array.from(perHead({ rotaryDim: 4 })));
  });

  it("startIndex rotates dims startIndex … startIndex + rotaryDim − 1 of each head (rotary-embedding-torch's start_index)", () => {
    const one = tensor(2, 16, 3);
    const got = rp.rotate(one, { rotaryDim: 8, startIndex: 4, layout: 'interleaved', positions: [1, 3] });
    const theta = Array.from(rp.frequencies('rope', { d: 8 }).invFreq);
    const want = [1, 3].flatMap((p, i) =>
      rotateSegment(one.data.slice(i * 16, i * 16 + 16), 4, 8, theta, p, 'interleaved'),
    );
    expectClose(got.data, want, 1e-6);
  });

  it('a d that is neither the head width nor rotaryDim is ambiguous: a RangeError that suggests heads or rotaryDim', () => {
    const wide = tensor(2, 8 * 64);
    expect(() => rp.rotate(wide, { d: 64 })).toThrow(
      /relpos\.rotate: d \(64\) is not the width of x \(512\).*heads: 8.*rotaryDim: 64/,
    );
    expect(rp.rotate(wide, { d: 64, heads: 8 }).shape).toEqual([2, 512]);
  });

  it('bad head splits and offsets are RangeErrors naming the option', () => {
    expect(() => rp.rotate(x, { heads: 5 })).toThrow(/relpos\.rotate: heads \(5\) must divide the width of x \(24\)/);
    expect(() => rp.rotate(x, { heads: 3, d: 6 })).toThrow(/relpos\.rotate: d \(6\) .*head width 8/);
    expect(() => rp.rotate(x, { heads: 3, rotaryDim: 6, startIndex: 4 })).toThrow(
      /relpos\.rotate: startIndex \+ rotaryDim \(10\) must be <= the head width 8/,
    );
    expect(() => rp.rotate(x, { startIndex: -1 })).toThrow(/relpos\.rotate: startIndex must be >= 0/);
  });

  it('the older spelling d = rotaryDim (the rotary width) still rotates the first d dims', () => {
    const got = rp.rotate(tensor(2, 12), { d: 8, rotaryDim: 8, positions: [0, 3] });
    expect(Array.from(got.data)).toEqual(
      Array.from(rp.rotate(tensor(2, 12), { rotaryDim: 8, positions: [0, 3] }).data),
    );
  });
});

describe('bias and buckets: n queries against m keys (KV cache) for every scheme', () => {
  const biasSchemes = rp.schemes.filter((s) => s.calls.includes('bias')).map((s) => s.id);
  const bucketSchemes = rp.schemes.filter((s) => s.calls.includes('buckets')).map((s) => s.id);
  const headsFor = (id) => (rp.schemes.find((s) => s.id === id).capabilities.perHead ? 2 : 1);

  it('lists the schemes (sanity)', () => {
    expect(biasSchemes).toEqual(expect.arrayContaining(['alibi', 't5', 'kerple-log', 'fire', 'sin-freq']));
    expect(bucketSchemes).toEqual(expect.arrayContaining(['t5', 'shaw', 'deberta']));
  });

  for (const id of ['alibi', 't5', 'kerple-log', 'kerple-power', 'sandwich', 'fire', 'exp-decay', 'sin-freq']) {
    it(`${id}: bias { n: 3, m: 7 } is the last 3 query rows of the 7 × 7 map (queries at positions 4..6)`, () => {
      const heads = headsFor(id);
      const cache = rp.bias(id, { n: 3, m: 7, heads });
      expect(cache.shape).toEqual([heads, 3, 7]);
      expectClose(cache.data, lastRows(rp.bias(id, { n: 7, heads }), 3), 1e-6);
      const causal = rp.bias(id, { n: 3, m: 7, heads, causal: true });
      expectClose(causal.data, lastRows(rp.bias(id, { n: 7, heads, causal: true }), 3), 1e-6);
    });
  }

  for (const id of ['t5', 'shaw', 'deberta']) {
    it(`${id}: buckets { n: 3, m: 40 } are the last 3 rows of the 40 × 40 map`, () => {
      const cache = rp.buckets(id, { n: 3, m: 40 });
      expect(cache.shape).toEqual([3, 40]);
      expect(Array.from(cache.data)).toEqual(lastRows(rp.buckets(id, { n: 40 }), 3));
    });
  }

  it('queryOffset places the queries explicitly (here at 0, 1, 2 against 7 keys)', () => {
    const b = rp.bias('alibi', { n: 3, m: 7, queryOffset: 0, heads: 2 });
    const square = rp.bias('alibi', { n: 7, heads: 2 });
    const firstRows = [0, 1].flatMap((h) => Array.from(square.data.slice(h * 49, h * 49 + 21)));
    expectClose(b.data, firstRows, 1e-7);
  });

  it('every bias scheme with positions 0..n−1 spelled out gives its default map', () => {
    for (const id of biasSchemes) {
      const heads = headsFor(id);
      const given = rp.bias(id, { heads, queryPositions: range(5), keyPositions: range(5) });
      expect(Array.from(given.data), id).toEqual(Array.from(rp.bias(id, { n: 5, heads }).data));
    }
  });
});

describe('explicit position ids', () => {
  it("ALiBi's symmetric form reads −m·|k − q| at the given query and key positions (x-transformers forward_custom_pos)", () => {
    const queryPositions = [3, 4, 9];
    const keyPositions = [0, 1, 2, 3, 4, 9];
    const b = rp.bias('alibi', { heads: 2, queryPositions, keyPositions });
    expect(b.shape).toEqual([2, 3, 6]);
    const slopes = rp.bias('alibi', { heads: 2, output: 'slopes' }).data;
    const want = [0, 1].flatMap((h) =>
      queryPositions.flatMap((q) => keyPositions.map((k) => -slopes[h] * Math.abs(k - q))),
    );
    expectClose(b.data, want, 1e-6);
  });

  it("BLOOM's left padding: key positions per batch row give a [batch, heads, n, m] bias", () => {
    const keyPositions = [
      [0, 0, 0, 1, 2, 3, 4],
      [0, 1, 2, 3, 4, 5, 6],
    ];
    const b = rp.bias('alibi', { n: 7, heads: 4, form: 'keyPosition', keyPositions });
    expect(b.shape).toEqual([2, 4, 7, 7]);
    for (let row = 0; row < 2; row++) {
      const single = rp.bias('alibi', { n: 7, heads: 4, form: 'keyPosition', keyPositions: keyPositions[row] });
      expect(Array.from(b.data.slice(row * 196, (row + 1) * 196))).toEqual(Array.from(single.data));
    }
  });

  it('causal masks keys whose position is after the query position', () => {
    const b = rp.bias('alibi', { queryPositions: [2, 5], keyPositions: [0, 3, 5, 6], causal: true });
    expect(Array.from(b.data).map((v) => v === -Infinity)).toEqual([
      false,
      true,
      true,
      true,
      false,
      false,
      false,
      true,
    ]);
  });

  it('t5 and the bucket maps need integer positions; other schemes take any finite position', () => {
    expect(() => rp.bias('t5', { queryPositions: [0.5], keyPositions: [0, 1] })).toThrow(
      /relpos\.bias: t5 needs integer positions \(\|p\| < 2\^53\), got queryPositions\[0\] = 0\.5/,
    );
    expect(rp.bias('alibi', { queryPositions: [0.5], keyPositions: [0, 1] }).data[1]).toBeCloseTo(-(2 ** -8) * 0.5, 9);
  });

  it('conflicting sizes and offsets are RangeErrors naming the options', () => {
    expect(() => rp.bias('alibi', { n: 4, queryPositions: [0, 1, 2] })).toThrow(
      /relpos\.bias: n \(4\) differs from the length of queryPositions \(3\)/,
    );
    expect(() => rp.bias('alibi', { queryOffset: 1, queryPositions: [0, 1] })).toThrow(
      /relpos\.bias: queryOffset and queryPositions both place the queries; give one/,
    );
    expect(() => rp.bias('alibi', { n: 2, m: 3, queryPositions: [0, 1], keyPositions: [0, 1] })).toThrow(
      /relpos\.bias: m \(3\) differs from the length of keyPositions \(2\)/,
    );
  });

  it('scores of every positional scheme take the same n, m, queryOffset and positions as bias', () => {
    for (const s of rp.schemes.filter((e) => e.calls.includes('scores') && e.id !== 'cope')) {
      const readsWidth = ['rotary', 'rotary scaling', 'absolute vector', 'relative vector'].includes(s.family);
      const base = readsWidth ? { d: 8 } : {};
      const square = rp.scores(s.id, { ...base, n: 6 });
      const cache = rp.scores(s.id, { ...base, n: 2, m: 6 });
      expect(cache.shape.slice(-2), s.id).toEqual([2, 6]);
      expectClose(cache.data, lastRows(square, 2), 1e-5);
    }
  });
});

describe('ALiBi slopes given by the caller', () => {
  it('slopes [0.5, 0.1, 0.02] give −m_h·|j − i| per head; heads defaults to their count', () => {
    const slopes = [0.5, 0.1, 0.02];
    const b = rp.bias('alibi', { n: 5, slopes });
    expect(b.shape).toEqual([3, 5, 5]);
    const want = slopes.flatMap((m) => range(5).flatMap((i) => range(5).map((j) => f32(-m * Math.abs(j - i)))));
    expectClose(b.data, want, 1e-6);
    expect(Array.from(rp.bias('alibi', { slopes, output: 'slopes' }).data)).toEqual(slopes.map(f32));
  });

  it('zero slopes give zero heads (x-transformers pads heads beyond its ALiBi heads)', () => {
    const b = rp.bias('alibi', { n: 3, m: 7, slopes: [0.25, 0.0625, 0, 0] });
    expect(Array.from(b.data.slice(2 * 21)).every((v) => v === 0)).toBe(true);
  });

  it('slopes with alibiBiasMax, a count other than heads, or negative slopes are RangeErrors', () => {
    expect(() => rp.bias('alibi', { n: 3, slopes: [0.5], alibiBiasMax: 4 })).toThrow(
      /relpos\.bias: give slopes or alibiBiasMax, not both/,
    );
    expect(() => rp.bias('alibi', { n: 3, heads: 2, slopes: [0.5, 0.1, 0.2] })).toThrow(
      /relpos\.bias: slopes must have one value per head \(2\), got 3/,
    );
    expect(() => rp.bias('alibi', { n: 3, slopes: [-0.5] })).toThrow(/relpos\.bias: slopes must be >= 0/);
  });
});
