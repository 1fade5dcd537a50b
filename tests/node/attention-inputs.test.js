// rp.attention reads every accepted input form the documented way (docs/api.md, "Masks" and
// "Axes"): a property test generates calls in each form — mask kinds (Uint8Array, booleans,
// Float32Array, plain numbers with kind, per head, Hugging Face's key-padding [batch, m]), axes
// ('bnd', 'bhnd', 'nhd'), batch, kvHeads, positions, causal and windows, and the options of
// attention as models run it (sinks, softcap, attentionChunkSize, temperatureTuning) — and checks
// each against a plain JS float64 reference written from the documentation, not from the core.
// The refusals of what reads two ways, and the float64 angle of given numbers, are checked too.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { load } from '../../bindings/index.js';

const rp = await load();

// ---------------------------------------------------------------------------------------------
// The reference: canonical Q[b][h][i][c], K[b][g][j][c], V[b][g][j][c] in float64.

function rotateHalf(x, position, base = 10000) {
  const d = x.length;
  const out = x.slice();
  for (let k = 0; k < d / 2; k++) {
    const angle = position * base ** ((-2 * k) / d);
    const [c, s] = [Math.cos(angle), Math.sin(angle)];
    out[k] = x[k] * c - x[k + d / 2] * s;
    out[k + d / 2] = x[k + d / 2] * c + x[k] * s;
  }
  return out;
}

// spec: { batch, heads, kvHeads, n, m, d, Q, K, V, causal, window, maskAt(b, h, i, j) → additive,
// rope, qPos(b, i), kPos(b, j), sinks, softcap, chunk, temperature, scale }
function reference(spec) {
  const { batch, heads, kvHeads, n, m, d } = spec;
  const offset = m - n;
  const scale = spec.scale ?? 1 / Math.sqrt(d);
  const W = [];
  const O = [];
  for (let b = 0; b < batch; b++) {
    W.push([]);
    O.push([]);
    for (let h = 0; h < heads; h++) {
      const g = Math.floor(h / (heads / kvHeads));
      W[b].push([]);
      O[b].push([]);
      for (let i = 0; i < n; i++) {
        const p = i + offset;
        let q = spec.Q[b][h][i].slice();
        if (spec.rope) q = rotateHalf(q, spec.qPos(b, i));
        if (spec.temperature) {
          const { floorScale, attnScale } = spec.temperature;
          const f = Math.log(Math.floor((p + 1) / floorScale) + 1) * attnScale + 1;
          q = q.map((x) => x * f);
        }
        const logits = [];
        for (let j = 0; j < m; j++) {
          let keep = true;
          if (spec.causal && j > p) keep = false;
          if (spec.window && (spec.causal ? p - j >= spec.window : Math.abs(p - j) >= spec.window)) keep = false;
          if (spec.chunk && Math.floor(j / spec.chunk) !== Math.floor(p / spec.chunk)) keep = false;
          if (!keep) {
            logits.push(-Infinity);
            continue;
          }
          const k = spec.rope ? rotateHalf(spec.K[b][g][j], spec.kPos(b, j)) : spec.K[b][g][j];
          let x = 0;
          for (let c = 0; c < d; c++) x += q[c] * k[c];
          x *= scale;
          if (spec.softcap) x = spec.softcap * Math.tanh(x / spec.softcap);
          x += spec.maskAt ? spec.maskAt(b, h, i, j) : 0;
          logits.push(x);
        }
        const sink = spec.sinks ? spec.sinks[h] : -Infinity;
        const top = Math.max(sink, ...logits);
        let weights;
        if (top === -Infinity) {
          weights = logits.map(() => 0);
        } else {
          const e = logits.map((x) => (x === -Infinity ? 0 : Math.exp(x - top)));
          const sum = e.reduce((a, x) => a + x, 0) + (spec.sinks ? Math.exp(sink - top) : 0);
          weights = e.map((x) => x / sum);
        }
        W[b][h].push(weights);
        const out = new Array(d).fill(0);
        for (let j = 0; j < m; j++) for (let c = 0; c < d; c++) out[c] += weights[j] * spec.V[b][g][j][c];
        O[b][h].push(out);
      }
    }
  }
  return { W, O };
}

// ---------------------------------------------------------------------------------------------
// Inputs in each documented form.

const f32 = (x) => Math.fround(x);

// [b][h][i][c] → a tensor in `axes` ('bnd' with or without batch, 'bhnd', 'nhd').
function layout(X, axes, batched) {
  const batch = X.length;
  const heads = X[0].length;
  const n = X[0][0].length;
  const d = X[0][0][0].length;
  const data = new Float32Array(batch * heads * n * d);
  let t = 0;
  if (axes === 'bhnd') {
    for (let b = 0; b < batch; b++) {
      for (let h = 0; h < heads; h++) for (let i = 0; i < n; i++) for (let c = 0; c < d; c++) data[t++] = X[b][h][i][c];
    }
    return { shape: [batch, heads, n, d], data };
  }
  for (let b = 0; b < batch; b++) {
    for (let i = 0; i < n; i++) for (let h = 0; h < heads; h++) for (let c = 0; c < d; c++) data[t++] = X[b][h][i][c];
  }
  if (axes === 'nhd') return { shape: [n, heads, d], data };
  return { shape: batched ? [batch, n, heads * d] : [n, heads * d], data };
}

// The output in the caller's axes back to [b][h][i][c].
function readOutput(output, axes, batch, heads, n, d) {
  const at = (b, h, i, c) => {
    if (axes === 'bhnd') return output.data[((b * heads + h) * n + i) * d + c];
    return output.data[((b * n + i) * heads + h) * d + c];
  };
  const out = [];
  for (let b = 0; b < batch; b++) {
    out.push([]);
    for (let h = 0; h < heads; h++) {
      out[b].push([]);
      for (let i = 0; i < n; i++) out[b][h].push(Array.from({ length: d }, (_, c) => at(b, h, i, c)));
    }
  }
  return out;
}

const nested = (shape, value) =>
  shape.length === 1
    ? Array.from({ length: shape[0] }, (_, i) => value([i]))
    : Array.from({ length: shape[0] }, (_, i) => nested(shape.slice(1), (rest) => value([i, ...rest])));

// A mask form: the value passed to rp.attention and the additive term the docs say it means.
function maskForm(form, { batch, heads, n, m, keep, additive }) {
  const ninf = (k) => (k ? 0 : -Infinity);
  switch (form) {
    case 'uint8':
      return {
        mask: { shape: [n, m], data: Uint8Array.from(nested([n, m], ([i, j]) => +keep(i, j)).flat()) },
        at: (b, h, i, j) => ninf(keep(i, j)),
      };
    case 'booleans':
      return { mask: nested([n, m], ([i, j]) => keep(i, j)), at: (b, h, i, j) => ninf(keep(i, j)) };
    case 'float32':
      return {
        mask: { shape: [n, m], data: Float32Array.from(nested([n, m], ([i, j]) => additive(i, j)).flat()) },
        at: (b, h, i, j) => f32(additive(i, j)),
      };
    case 'numbers-boolean':
      return {
        mask: { shape: [n, m], data: nested([n, m], ([i, j]) => +keep(i, j)).flat(), kind: 'boolean' },
        at: (b, h, i, j) => ninf(keep(i, j)),
      };
    case 'numbers-additive':
      return {
        mask: { data: nested([n, m], ([i, j]) => additive(i, j)), kind: 'additive' },
        at: (b, h, i, j) => f32(additive(i, j)),
      };
    case 'per-head':
      return {
        mask: {
          shape: [heads, n, m],
          data: Float32Array.from(nested([heads, n, m], ([h, i, j]) => (keep(i + h, j) ? 0 : -Infinity)).flat(2)),
        },
        at: (b, h, i, j) => ninf(keep(i + h, j)),
      };
    case 'key-padding':
      return {
        mask: nested([batch, m], ([b, j]) => keep(b, j)),
        at: (b, h, i, j) => ninf(keep(b, j)),
      };
    default:
      return { mask: undefined, at: undefined };
  }
}

const callArb = fc
  .record({
    batched: fc.boolean(),
    batch: fc.integer({ min: 1, max: 3 }),
    n: fc.integer({ min: 1, max: 5 }),
    extra: fc.integer({ min: 0, max: 3 }),
    headsLog: fc.integer({ min: 0, max: 2 }),
    kvLog: fc.integer({ min: 0, max: 2 }),
    d: fc.constantFrom(2, 4, 6),
    axes: fc.constantFrom(undefined, 'bnd', 'bhnd', 'nhd'),
    mask: fc.constantFrom(
      'none',
      'uint8',
      'booleans',
      'float32',
      'numbers-boolean',
      'numbers-additive',
      'per-head',
      'key-padding',
    ),
    causal: fc.boolean(),
    window: fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }),
    rope: fc.boolean(),
    positions: fc.constantFrom('none', 'flat', 'per-sequence'),
    sinks: fc.boolean(),
    softcap: fc.option(fc.double({ min: 0.3, max: 5, noNaN: true }), { nil: undefined }),
    chunk: fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }),
    temperature: fc.boolean(),
    scale: fc.option(fc.double({ min: 0.05, max: 2, noNaN: true }), { nil: undefined }),
    seed: fc.integer({ min: 1, max: 1e6 }),
  })
  .map((c) => {
    const call = { ...c };
    call.heads = 2 ** c.headsLog;
    call.kvHeads = 2 ** Math.min(c.kvLog, c.headsLog);
    if (c.axes === 'nhd') call.batched = false; // [n, heads, d] has no batch axis
    if (c.axes === 'bhnd') call.batched = true;
    if (!call.batched) call.batch = 1;
    call.m = c.n + c.extra;
    if (call.chunk) call.causal = true; // chunked layers are causal
    if (c.mask === 'key-padding' && (!call.batched || call.batch === call.n)) call.mask = 'uint8';
    // A 2-D [n, m] mask with batch = n > 1 reads two ways (refused, tested below).
    if (call.batched && call.batch === call.n && call.batch > 1 && !['none', 'per-head'].includes(call.mask)) {
      call.mask = 'per-head';
    }
    if (c.positions !== 'none') {
      call.rope = true;
      call.m = call.n; // self-attention: the keys take the queries' positions
    }
    if (c.positions === 'per-sequence' && !call.batched) call.positions = 'flat';
    return call;
  });

function build(call) {
  const { batch, heads, kvHeads, n, m, d, seed } = call;
  let s = seed;
  const rand = () => {
    s = (s * 16807) % 2147483647;
    return f32(((s / 2147483647) * 4 - 2).toFixed(3) * 1);
  };
  const tensor = (h, rows) => nested([batch, h, rows, d], () => rand());
  const Q = tensor(heads, n);
  const K = tensor(kvHeads, m);
  const V = tensor(kvHeads, m);
  // Without axes a 3-D tensor whose middle axis is the heads count is ambiguous: the call names
  // 'bnd' then (its refusal is tested below).
  const axes = call.axes ?? (call.batched && (n === heads || m === kvHeads || m === heads) ? 'bnd' : undefined);
  const read = axes ?? 'bnd';
  const options = {
    q: layout(Q, read, call.batched),
    k: layout(K, read, call.batched),
    v: layout(V, read, call.batched),
    causal: call.causal,
  };
  if (axes) options.axes = axes;
  if (read === 'bnd') {
    options.heads = heads;
    options.kvHeads = kvHeads;
  }
  const keep = (i, j) => (i * 7 + j * 3 + seed) % 4 !== 0;
  const additive = (i, j) => (keep(i, j) ? ((i - j) % 3) * 0.25 : -Infinity);
  const { mask, at } = maskForm(call.mask, { batch, heads, n, m, keep, additive });
  if (mask !== undefined) options.mask = mask;
  if (call.window) options.slidingWindow = call.window;
  let qPos = (b, i) => i + m - n;
  let kPos = (b, j) => j;
  if (call.rope) options.scheme = 'rope';
  if (call.positions === 'flat') {
    const list = Array.from({ length: n }, (_, i) => 3 * i + 5 + (seed % 7));
    options.positions = list;
    qPos = (b, i) => list[i];
    kPos = qPos;
  } else if (call.positions === 'per-sequence') {
    const list = nested([batch, n], ([b, i]) => (b === 0 ? i : Math.max(0, i - b)));
    options.positions = list;
    qPos = (b, i) => list[b][i];
    kPos = qPos;
  }
  let sinks;
  if (call.sinks) {
    sinks = Array.from({ length: heads }, (_, h) => f32(0.5 - h * 0.3));
    options.sinks = sinks;
  }
  if (call.softcap) options.softcap = call.softcap;
  if (call.chunk) options.attentionChunkSize = call.chunk;
  const temperature = call.temperature ? { floorScale: 2, attnScale: 0.3 } : undefined;
  if (temperature) options.temperatureTuning = temperature;
  if (call.scale) options.scale = call.scale;
  const spec = {
    batch,
    heads,
    kvHeads,
    n,
    m,
    d,
    Q,
    K,
    V,
    causal: call.causal,
    window: call.window,
    maskAt: at,
    rope: call.rope,
    qPos,
    kPos,
    sinks,
    softcap: call.softcap,
    chunk: call.chunk,
    temperature,
    scale: call.scale,
  };
  return { options, spec, axes: read };
}

describe('rp.attention: every accepted input form against a float64 reference', () => {
  it('masks, axes, batch, kvHeads, positions, windows, sinks, soft-cap, chunks and temperature', () => {
    let worst = 0;
    fc.assert(
      fc.property(callArb, (call) => {
        const { options, spec, axes } = build(call);
        const got = rp.attention(options);
        const want = reference(spec);
        const { batch, heads, n, m, d } = spec;
        const weights = got.weights.data;
        const output = readOutput(got.output, axes, batch, heads, n, d);
        for (let b = 0; b < batch; b++) {
          for (let h = 0; h < heads; h++) {
            for (let i = 0; i < n; i++) {
              for (let j = 0; j < m; j++) {
                const e = Math.abs(weights[((b * heads + h) * n + i) * m + j] - want.W[b][h][i][j]);
                worst = Math.max(worst, e);
                if (!(e <= 2e-5)) {
                  throw new Error(`weights [${b}, ${h}, ${i}, ${j}] off by ${e}: ${JSON.stringify(call)}`);
                }
              }
              for (let c = 0; c < d; c++) {
                const e = Math.abs(output[b][h][i][c] - want.O[b][h][i][c]);
                worst = Math.max(worst, e);
                if (!(e <= 5e-5)) {
                  throw new Error(`output [${b}, ${h}, ${i}, ${c}] off by ${e}: ${JSON.stringify(call)}`);
                }
              }
            }
          }
        }
        const shape = axes === 'bhnd' ? [batch, heads, n, d] : axes === 'nhd' ? [n, heads, d] : null;
        if (shape) expect(got.output.shape).toEqual(shape);
      }),
      { numRuns: 400, seed: 27 },
    );
    if (process.env.RELPOS_REPORT) console.log(`attention-inputs: largest error ${worst}`);
    expect(worst).toBeLessThan(5e-5);
  });
});

describe('rp.attention: what reads two ways is refused, naming both readings', () => {
  const q = { shape: [4, 4], data: Float32Array.from({ length: 16 }, (_, i) => Math.sin(i)) };
  it('an additive PyTorch mask (Float32Array of 0 / -Infinity) is additive: row 0 keeps key 0 alone', () => {
    const additive = Float32Array.from({ length: 16 }, (_, t) => (t % 4 <= Math.floor(t / 4) ? 0 : -Infinity));
    const { weights } = rp.attention({ q, k: q, mask: { shape: [4, 4], data: additive } });
    expect(Array.from(weights.data.slice(0, 4))).toEqual([1, 0, 0, 0]);
  });
  it('nested plain numbers need kind; a boolean mask holds only 0 / 1', () => {
    const ones = [
      [1, 0, 0, 0],
      [1, 1, 0, 0],
      [1, 1, 1, 0],
      [1, 1, 1, 1],
    ];
    expect(() => rp.attention({ q, k: q, mask: ones })).toThrow(TypeError);
    expect(() => rp.attention({ q, k: q, mask: ones })).toThrow(/boolean mask.*additive mask.*kind/);
    expect(() =>
      rp.attention({ q, k: q, mask: { data: ones.map((r) => r.map((x) => 2 * x)), kind: 'boolean' } }),
    ).toThrow(/relpos\.attention: a boolean mask holds only 0 \/ 1.*got 2/);
    expect(() => rp.attention({ q, k: q, mask: { shape: [4, 4], data: new Uint8Array(16).fill(3) } })).toThrow(
      RangeError,
    );
    expect(() =>
      rp.attention({
        q,
        k: q,
        mask: [
          [true, 0, 1, 1],
          [1, 1, 1, 1],
          [1, 1, 1, 1],
          [1, 1, 1, 1],
        ],
      }),
    ).toThrow(/mixes booleans and numbers/);
    expect(() =>
      rp.attention({ q, k: q, mask: { data: Uint8Array.of(1, 1, 1, 1), shape: [1, 4], kind: 'additive' } }),
    ).toThrow(/kind is 'additive', but the mask holds booleans/);
    const { weights } = rp.attention({ q, k: q, mask: { data: ones, kind: 'boolean' } });
    expect(Array.from(weights.data.slice(0, 4))).toEqual([1, 0, 0, 0]);
  });
  it('a 3-D q whose middle axis equals heads (k, v: kvHeads) needs axes', () => {
    const x = { shape: [16, 8, 64], data: new Float32Array(16 * 8 * 64).fill(0.01) };
    expect(() => rp.attention({ q: x, k: x, heads: 8 })).toThrow(TypeError);
    expect(() => rp.attention({ q: x, k: x, heads: 8 })).toThrow(
      /q \[16, 8, 64\] reads two ways: as \[batch, n, heads·d\] \(batch 16, n 8, d 8\) or as \[n, heads, d\] \(n 16, heads 8, d 64\); say which with axes/,
    );
    expect(rp.attention({ q: x, k: x, heads: 8, axes: 'nhd' }).weights.shape).toEqual([8, 16, 16]);
    expect(rp.attention({ q: x, k: x, heads: 8, axes: 'bnd' }).weights.shape).toEqual([16, 8, 8, 8]);
    const kv = { shape: [16, 2, 64], data: new Float32Array(16 * 2 * 64) };
    expect(() =>
      rp.attention({ q: { shape: [3, 16, 512], data: new Float32Array(3 * 16 * 512) }, k: kv, heads: 8, kvHeads: 2 }),
    ).toThrow(/k \[16, 2, 64\] reads two ways.*kvHeads 2/);
    expect(() => rp.attention({ q: { shape: [1, 2, 3, 4], data: new Float32Array(24) }, k: q })).toThrow(
      /axes: 'bhnd'/,
    );
    expect(() => rp.attention({ q: x, k: x, axes: 'bhdn' })).toThrow(/axes must be 'bnd'.*'bhnd'.*'nhd'/);
    expect(() => rp.attention({ q: x, k: x, heads: 4, axes: 'nhd' })).toThrow(
      /8 heads on its heads axis, but heads is 4/,
    );
  });
  it('a 2-D [batch, m] mask with a batch equal to n reads two ways', () => {
    const x = { shape: [3, 3, 4], data: new Float32Array(36).fill(0.1) };
    expect(() =>
      rp.attention({
        q: x,
        k: x,
        mask: [
          [true, true, false],
          [true, true, true],
          [true, true, true],
        ],
      }),
    ).toThrow(/reads two ways when batch = n = 3: a key-padding mask \[batch, m\].*or one \[n, m\] mask/);
  });
});

describe('rp.rotate: axes and a batch axis', () => {
  const batch = 2;
  const heads = 3;
  const n = 4;
  const d = 8;
  const X = nested([batch, heads, n, d], ([b, h, i, c]) => f32(Math.sin(1 + b * 97 + h * 31 + i * 7 + c)));
  const positions = [
    [0, 1, 2, 3],
    [0, 0, 1, 2],
  ];
  const want = X.map((seq, b) => seq.map((head) => head.map((row, i) => rotateHalf(row, positions[b][i]))));
  for (const axes of ['bnd', 'bhnd']) {
    it(`${axes}: every sequence rotated at its own positions`, () => {
      const x = layout(X, axes, true);
      const got = rp.rotate(x, { heads: axes === 'bnd' ? heads : undefined, axes, positions });
      expect(got.shape).toEqual(x.shape);
      const back = readOutput(got, axes, batch, heads, n, d);
      let worst = 0;
      for (let b = 0; b < batch; b++) {
        for (let h = 0; h < heads; h++) {
          for (let i = 0; i < n; i++) {
            for (let c = 0; c < d; c++) worst = Math.max(worst, Math.abs(back[b][h][i][c] - want[b][h][i][c]));
          }
        }
      }
      expect(worst).toBeLessThan(2e-6);
    });
  }
  it('nhd: [n, heads, d] rows at positions 0 … n−1; an ambiguous 3-D x is refused', () => {
    const x = layout([X[0]], 'nhd', false);
    const got = rp.rotate(x, { axes: 'nhd' });
    const back = readOutput(got, 'nhd', 1, heads, n, d)[0];
    for (let h = 0; h < heads; h++) {
      for (let i = 0; i < n; i++) expect(back[h][i][1]).toBeCloseTo(rotateHalf(X[0][h][i], i)[1], 5);
    }
    expect(() => rp.rotate(x, { heads })).toThrow(/reads two ways/);
    expect(rp.rotate(layout(X, 'bnd', true), { heads }).shape).toEqual([batch, n, heads * d]);
  });
});

describe('given numbers keep float64 to the angle', () => {
  it('rope with invFreq [1/1.1] at position 100,000 matches float64 within 1e-6', () => {
    const angle = 100000 / 1.1;
    const r = rp.rotate({ shape: [1, 2], data: Float32Array.of(1, 0) }, { invFreq: [1 / 1.1], positions: [100000] });
    expect(Math.abs(r.data[0] - Math.cos(angle))).toBeLessThan(1e-6);
    expect(Math.abs(r.data[1] - Math.sin(angle))).toBeLessThan(1e-6);
    // A Float32Array says float32: its value is what is used.
    const rounded = rp.rotate(
      { shape: [1, 2], data: Float32Array.of(1, 0) },
      { invFreq: Float32Array.of(1 / 1.1), positions: [100000] },
    );
    expect(Math.abs(rounded.data[0] - Math.cos(100000 * Math.fround(1 / 1.1)))).toBeLessThan(1e-6);
  });
  it("LongRoPE's factors and attention positions too", () => {
    const shortFactor = [1.1, 1.3];
    const r = rp.rotate(
      { shape: [1, 4], data: Float32Array.of(1, 0, 0, 0) },
      { scheme: 'rope-longrope', d: 4, shortFactor, longFactor: [1, 1], positions: [3001.5] },
    );
    const angle = (3001.5 * 1) / 1.1;
    expect(Math.abs(r.data[0] - Math.cos(angle))).toBeLessThan(1e-6);
    const q = { shape: [1, 2], data: Float32Array.of(1, 0) };
    const k = { shape: [2, 2], data: Float32Array.of(1, 0, 0, 1) };
    const { weights } = rp.attention({
      q,
      k,
      scheme: 'rope',
      invFreq: [1 / 1.1],
      positions: [100000],
      keyPositions: [0, 0],
      scale: 1,
    });
    const x = [Math.cos(100000 / 1.1), Math.sin(-100000 / 1.1) * -1];
    const e = [Math.exp(x[0]), Math.exp(x[1])];
    expect(Math.abs(weights.data[0] - e[0] / (e[0] + e[1]))).toBeLessThan(2e-6);
  });
});

describe('T5 runs unscaled', () => {
  it('rp.attention with t5 and no scale says so in notes; the preset and the reading carry attentionScale 1', () => {
    const q = { shape: [3, 4], data: Float32Array.from({ length: 12 }, (_, i) => Math.cos(i)) };
    const plain = rp.attention({ q, k: q, scheme: 't5' });
    expect(plain.notes.join(' ')).toMatch(/scaled by 1\/sqrt\(d\).*'t5' scale them by 1.*scale: 1/);
    expect(rp.attention({ q, k: q, scheme: 't5', scale: 1 }).notes).toBeUndefined();
    expect(rp.attention({ q, k: q, scheme: 'alibi' }).notes).toBeUndefined();
    const preset = rp.presets.find((p) => p.id === 't5-base');
    expect(preset.model.attentionScale).toBe(1);
    expect(preset.groups[0]).toMatchObject({ scale: 1, causal: false, heads: 12 });
    const reading = rp.fromConfig({ model_type: 't5', d_model: 768, num_heads: 12, d_kv: 64 });
    expect(reading.model.attentionScale).toBe(1);
    expect(reading.groups[0].scale).toBe(1);
  });
});
