// No option is silently ignored (docs/api.md, "Options"): `causal` masks every view of every
// scheme, t5 + causal reads unidirectional buckets, a per-head call of a view that is the same for
// every head is an error, untrained demonstration defaults are flagged in the result, and — the
// table at the end — every documented option of every scheme and call either changes the result or
// raises an error that names it.
import { describe, expect, it } from 'vitest';
import { load } from '../../bindings/index.js';

const rp = await load();
const range = (n, from = 0) => Array.from({ length: n }, (_, i) => from + i);

function tensor(rows, cols, seed = 1) {
  const data = Float32Array.from({ length: rows * cols }, (_, i) => Math.sin(seed * 12.9898 + i * 78.233) % 1);
  return { shape: [rows, cols], data };
}
const vector = (d, seed = 1) => Array.from(tensor(1, d, seed).data);

const schemeIds = rp.schemes.map((s) => s.id);
const info = (id) => rp.schemes.find((s) => s.id === id);
const READS_WIDTH = ['rotary', 'rotary scaling', 'absolute vector', 'relative vector'];
const LONG = [0, 100, 1000, 5000, 9000];

// The smallest call of each scheme and view; the content-free defaults of some schemes make the
// position-only view identically zero (Transformer-XL's global bias v = 0), so those get content.
function baseOptions(id, call) {
  const s = info(id);
  switch (call) {
    case 'bias':
      return { n: 5 };
    case 'buckets':
      return { n: 6 };
    case 'frequencies':
      return { d: 8 };
    case 'encoding':
      // Scalings act on the low frequencies, which only long positions show.
      return s.family === 'rotary scaling' ? { n: 5, d: 8, positions: LONG } : { n: 5, d: 8 };
    case 'rotate':
      return { positions: [0, 1, 2, 3] };
    case 'scores':
      if (id === 'cope') return { q: tensor(5, 4), k: tensor(5, 4, 2) };
      if (id === 'transformer-xl') return { n: 5, d: 8, v: vector(8, 3) };
      if (s.family === 'rotary scaling') return { d: 8, positions: LONG };
      return READS_WIDTH.includes(s.family) ? { n: 5, d: 8 } : { n: 5 };
    case 'attention':
      return {};
    default:
      throw new Error(call);
  }
}

// Schemes whose defaults make some parameters inert get a base that lets each parameter act.
const SCHEME_BASE = {
  'rope-yarn': { factor: 4 },
  'rope-dynamic': { factor: 2, seqLen: 5000 },
  'rope-longrope': { factor: 4 },
};

const X = tensor(4, 8, 5);
const Q = tensor(5, 8, 7);
const K = tensor(5, 8, 8);
const V = tensor(5, 8, 9);

// One call as a flat list of numbers with its shape and notes, so any two results compare.
function run(call, id, options) {
  switch (call) {
    case 'rotate':
      return flat(rp.rotate(X, { scheme: id, ...options }));
    case 'frequencies': {
      const result = rp.frequencies(id, options);
      return {
        shape: [result.invFreq.length],
        values: [...result.invFreq, result.attentionFactor],
        notes: notes(result),
      };
    }
    case 'attention': {
      const { causal, heads = 1, ...params } = options;
      const widen = (t) => ({
        shape: [t.shape[0], t.shape[1] * heads],
        data: Float32Array.from({ length: t.data.length * heads }, (_, i) => t.data[i % t.data.length]),
      });
      const result = rp.attention({ q: widen(Q), k: widen(K), v: widen(V), heads, scheme: id, params, causal });
      return {
        shape: result.weights.shape,
        values: [...result.weights.data, ...result.output.data],
        notes: notes(result),
      };
    }
    default:
      return flat(rp[call](id, options));
  }
}
const notes = ({ synthetic, sameForEveryHead }) => JSON.stringify({ synthetic, sameForEveryHead });
const flat = (t) => ({ shape: t.shape, values: Array.from(t.data), notes: notes(t) });
// Equal shapes and notes, values within float32 rounding of each other (a documented non-effect may
// still round differently, e.g. xPos's centre cancelling in q·k).
const same = (a, b) =>
  a.shape.join() === b.shape.join() &&
  a.notes === b.notes &&
  a.values.length === b.values.length &&
  a.values.every((v, i) => {
    const w = b.values[i];
    return Object.is(v, w) || (Number.isFinite(w) && Math.abs(v - w) <= 1e-6 * (1 + Math.abs(w)));
  });

describe('causal masks every view of every scheme', () => {
  it('rp.scores("rope", { n: 4, d: 8, causal: true }) has −Infinity above the diagonal', () => {
    const s = rp.scores('rope', { n: 4, d: 8, causal: true });
    expect(s.data[1]).toBe(-Infinity);
    expect(s.data[4]).toBeCloseTo(rp.scores('rope', { n: 4, d: 8 }).data[4], 6);
  });

  for (const id of schemeIds.filter((e) => e !== 'cope')) {
    for (const call of ['bias', 'scores'].filter((c) => info(id).calls.includes(c))) {
      it(`${id} ${call}: keys after the query are −Infinity, the rest unchanged`, () => {
        const base = { ...baseOptions(id, call), ...SCHEME_BASE[id] };
        const open = rp[call](id, base);
        const masked = rp[call](id, { ...base, causal: true });
        expect(masked.shape).toEqual(open.shape);
        const [n, m] = open.shape.slice(-2);
        for (let e = 0; e < open.data.length; e++) {
          const [i, j] = [Math.floor(e / m) % n, e % m];
          if (j > i) expect(masked.data[e], `${id} [${i}, ${j}]`).toBe(-Infinity);
          // t5 turns to unidirectional buckets under causal; its lower triangle is checked below.
          else if (id !== 't5') expect(masked.data[e], `${id} [${i}, ${j}]`).toBe(open.data[e]);
        }
      });
    }
  }

  it("exp-decay's kernel form masks with weight 0 (its multiplicative form)", () => {
    const k = rp.bias('exp-decay', { n: 4, form: 'kernel', causal: true });
    expect(k.data[1]).toBe(0);
    expect(k.data[4]).toBeCloseTo(Math.exp(-0.1), 6);
  });

  it('cope is causal by construction: causal: false is a RangeError, causal: true changes nothing', () => {
    const base = baseOptions('cope', 'scores');
    expect(() => rp.scores('cope', { ...base, causal: false })).toThrow(
      /relpos\.scores: cope is causal by construction/,
    );
    expect(rp.scores('cope', { ...base, causal: true }).data).toEqual(rp.scores('cope', base).data);
  });

  it('attention weights of every scheme are 0 above the diagonal when causal', () => {
    for (const s of rp.schemes.filter((e) => e.calls.includes('attention'))) {
      const { weights } = rp.attention({ q: Q, k: K, v: V, scheme: s.id, causal: true });
      for (let i = 0; i < 5; i++) for (let j = i + 1; j < 5; j++) expect(weights.data[i * 5 + j], s.id).toBe(0);
    }
  });

  it('views without a query–key grid reject causal, naming it', () => {
    expect(() => rp.frequencies('rope', { d: 8, causal: true })).toThrow(/relpos\.frequencies: .*'causal'/);
    expect(() => rp.rotate(X, { causal: true })).toThrow(/relpos\.rotate: .*'causal'/);
    expect(() => rp.encoding('sinusoidal', { n: 4, d: 8, causal: true })).toThrow(/relpos\.encoding: .*'causal'/);
  });

  it('index maps mark keys after the query with -1 (every unmasked bucket is >= 0)', () => {
    for (const id of ['t5', 'shaw', 'deberta']) {
      for (const output of id === 'deberta' ? ['logBucket', 'index'] : [undefined]) {
        const map = rp.buckets(id, { n: 6, causal: true, output });
        for (let e = 0; e < 36; e++) {
          const [i, j] = [Math.floor(e / 6), e % 6];
          if (j > i) expect(map.data[e], `${id} [${i}, ${j}]`).toBe(-1);
          else expect(map.data[e], `${id} [${i}, ${j}]`).toBeGreaterThanOrEqual(0);
        }
      }
    }
  });
});

describe('t5 with causal: unidirectional buckets unless bidirectional is given', () => {
  const lower = (t, n) => Array.from(t.data).filter((_, e) => e % n <= Math.floor(e / n) % n);

  it('buckets, bias and scores read the decoder (unidirectional) map', () => {
    expect(lower(rp.buckets('t5', { n: 12, causal: true }), 12)).toEqual(
      lower(rp.buckets('t5', { n: 12, bidirectional: false }), 12),
    );
    const uni = rp.bias('t5', { n: 12, heads: 2, bidirectional: false });
    expect(lower(rp.bias('t5', { n: 12, heads: 2, causal: true }), 12)).toEqual(lower(uni, 12));
    expect(lower(rp.scores('t5', { n: 12, heads: 2, causal: true }), 12)).toEqual(lower(uni, 12));
  });

  it('bidirectional: true beside causal keeps the encoder map, masked', () => {
    const bi = rp.bias('t5', { n: 12, bidirectional: true, causal: true });
    expect(lower(bi, 12)).toEqual(lower(rp.bias('t5', { n: 12 }), 12));
  });

  it('attention with t5 and causal uses the unidirectional bias too', () => {
    // 12 positions: distances beyond 7 fall in different buckets in the two maps.
    const [q, k] = [tensor(12, 8, 7), tensor(12, 8, 8)];
    const B = rp.bias('t5', { n: 12, bidirectional: false });
    const viaB = rp.attention({ q, k, B, causal: true }).weights;
    const viaScheme = rp.attention({ q, k, scheme: 't5', causal: true }).weights;
    expect(Array.from(viaScheme.data)).not.toEqual(
      Array.from(rp.attention({ q, k, B: rp.bias('t5', { n: 12 }), causal: true }).weights.data),
    );
    expect(Array.from(viaScheme.data)).toEqual(Array.from(viaB.data));
  });
});

describe('heads on a view that is the same for every head: one map, marked, not copies', () => {
  it("rp.scores('rope', { n: 4, d: 8, heads: 32 }) returns one map [1, 4, 4] marked sameForEveryHead", () => {
    const s = rp.scores('rope', { n: 4, d: 8, heads: 32 });
    expect(s.shape).toEqual([1, 4, 4]);
    expect(s.sameForEveryHead).toBe(true);
    expect(Array.from(s.data)).toEqual(Array.from(rp.scores('rope', { n: 4, d: 8 }).data));
    expect(rp.scores('rope', { n: 4, d: 8, heads: 1 }).sameForEveryHead).toBeUndefined();
  });

  for (const s of rp.schemes) {
    for (const call of ['bias', 'scores'].filter((c) => s.calls.includes(c))) {
      it(`${s.id} ${call}: ${s.capabilities.perHead ? 'one map per head' : 'one map, marked sameForEveryHead'}`, () => {
        const t = rp[call](s.id, { ...baseOptions(s.id, call), heads: 3 });
        if (s.capabilities.perHead) {
          expect(t.shape[0]).toBe(3);
          expect(t.sameForEveryHead).toBeUndefined();
        } else {
          expect(t.shape.length === 2 || t.shape[0] === 1, s.id).toBe(true);
          expect(t.sameForEveryHead).toBe(true);
        }
      });
    }
  }

  it('perHead is true exactly for the schemes with per-head parameters', () => {
    const perHead = rp.schemes.filter((s) => s.capabilities.perHead).map((s) => s.id);
    expect(perHead.sort()).toEqual(['alibi', 'exp-decay', 'fire', 'kerple-log', 'kerple-power', 'sandwich', 't5']);
  });
});

describe('synthetic defaults are flagged in the result and in rp.schemes', () => {
  const flagged = (t) => (t.synthetic ?? []).slice().sort();

  it.each([
    ['t5 bias', () => rp.bias('t5', { n: 4 }), ['table']],
    ['t5 scores', () => rp.scores('t5', { n: 4 }), ['table']],
    ['shaw scores', () => rp.scores('shaw', { n: 4, d: 8 }), ['aK']],
    ['deberta scores', () => rp.scores('deberta', { n: 4, d: 8 }), ['kr', 'qr']],
    ['transformer-xl scores', () => rp.scores('transformer-xl', { n: 4, d: 8 }), ['WR', 'v']],
    ['kerple-log bias', () => rp.bias('kerple-log', { n: 4 }), ['r2']],
    ['kerple-power bias', () => rp.bias('kerple-power', { n: 4 }), ['r1']],
    ['fire bias', () => rp.bias('fire', { n: 4 }), ['mlp']],
    ['cope scores', () => rp.scores('cope', baseOptions('cope', 'scores')), ['E']],
    ['rope-longrope frequencies', () => rp.frequencies('rope-longrope', { d: 8 }), ['shortFactor']],
  ])('%s flags %j', (_, call, names) => {
    expect(flagged(call())).toEqual(names);
  });

  it('given values are not flagged; schemes without learned inputs flag nothing', () => {
    expect(rp.bias('t5', { n: 4, table: { shape: [1, 32], data: new Float32Array(32) } }).synthetic).toBeUndefined();
    expect(rp.bias('fire', { n: 4, output: 'normalized' }).synthetic).toBeUndefined();
    expect(rp.bias('alibi', { n: 4 }).synthetic).toBeUndefined();
    expect(rp.scores('rope', { n: 4, d: 8 }).synthetic).toBeUndefined();
  });

  it('attention flags the defaults its positional term used', () => {
    expect(rp.attention({ q: Q, k: K, scheme: 't5' }).synthetic).toEqual(['table']);
  });

  it('each flagged name is a parameter whose rp.schemes entry says synthetic: true', () => {
    const marked = rp.schemes.flatMap((s) =>
      Object.entries(s.params)
        .filter(([, p]) => p.synthetic)
        .map(([name]) => `${s.id}.${name}`),
    );
    expect(marked.sort()).toEqual(
      [
        'cope.E',
        'deberta.kr',
        'deberta.qr',
        'fire.mlp',
        'kerple-log.r2',
        'kerple-power.r1',
        'rope-longrope.longFactor',
        'rope-longrope.shortFactor',
        'shaw.aK',
        't5.table',
        'transformer-xl.WR',
        'transformer-xl.u',
        'transformer-xl.v',
      ].sort(),
    );
  });
});

// ---------------------------------------------------------------------------------------------
// The table: every option of every scheme and call changes the result or raises an error naming it.

// Call options (docs/api.md); scheme parameters come from rp.schemes.
const CALL_OPTIONS = {
  bias: ['n', 'm', 'queryOffset', 'queryPositions', 'keyPositions', 'heads', 'causal', 'output'],
  buckets: ['n', 'm', 'queryOffset', 'queryPositions', 'keyPositions', 'causal', 'output'],
  scores: [
    'n',
    'm',
    'queryOffset',
    'positions',
    'queryPositions',
    'keyPositions',
    'd',
    'heads',
    'causal',
    'q',
    'k',
    'offsets',
    'output',
  ],
  frequencies: ['d', 'positions'],
  rotate: ['heads', 'd', 'startIndex', 'positions'],
  encoding: ['n', 'd', 'positions', 'output'],
  attention: [],
};
const ALL_CALL_OPTIONS = [...new Set(Object.values(CALL_OPTIONS).flat())];
const ROTARY = ['rotary', 'rotary scaling'];

// A valid value other than the default, plus `context` (given to both the base and the variant
// call, so that the option can act: e.g. layout acts on scores only for probe vectors that differ)
// or `extra` (given to the variant alone, with the option).
function alternative(name, id, call, base) {
  const s = info(id);
  const p = s.params[name];
  const n = base.n ?? 5;
  const d = base.d ?? 8;
  const rotary = ROTARY.includes(s.family);
  // An output the scheme does not list: rotary encodings and scores have their own.
  const output = () =>
    p
      ? { value: p.choices[1], extra: p.choices[1] === 'slopes' ? { n: undefined } : {} }
      : rotary && call === 'encoding'
        ? { value: 'sin' }
        : rotary && call === 'scores'
          ? { value: 'offsets', extra: { offsets: [0, 1, 2], n: undefined } }
          : { value: 'other' };
  const special = {
    n: () => ({ value: n + 1 }),
    m: () => ({ value: n + 2 }),
    queryOffset: () => ({ value: 1 }),
    queryPositions: () => ({ value: range(n).map((i) => 2 * i) }),
    // (NoPE's causal mask sees only the order of the positions.)
    keyPositions: () => ({ value: id === 'nope' ? range(n).reverse() : range(n).map((i) => 2 * i) }),
    positions: () =>
      call === 'frequencies' || call === 'rotate'
        ? { value: [0, 1, 2, 9000] }
        : { value: id === 'nope' ? range(n).reverse() : range(n).map((i) => 3 * i) },
    heads: () => ({ value: call === 'rotate' ? 2 : 3 }),
    // CoPE is causal already: its meaningful non-default is false (refused).
    causal: () => ({ value: id !== 'cope' }),
    // + 4 keeps the width even and divisible by 4 (rope-2d); Transformer-XL's v follows it.
    d: () =>
      id === 'transformer-xl' && call === 'scores'
        ? { value: d + 4, extra: { v: vector(d + 4, 3) } }
        : { value: d + 4 },
    // startIndex moves the rotated dims (probes that differ show it in the scores) and, without
    // rotaryDim, sets how many rotate (d − startIndex: the frequencies).
    startIndex: () =>
      call === 'frequencies'
        ? { value: 4 }
        : { value: 2, context: { rotaryDim: 4, ...(call === 'scores' ? { q: vector(d, 3), k: vector(d, 4) } : {}) } },
    // Probe vectors [d], or content matrices where the scheme reads them (CoPE, DeBERTa's alias q / k,
    // and Shaw's / Transformer-XL's k, which comes with content queries).
    q: () => ({ value: base.q ? tensor(...base.q.shape, 21) : id === 'deberta' ? tensor(n, d) : vector(d, 11) }),
    k: () =>
      base.k
        ? { value: tensor(...base.k.shape, 22) }
        : ['shaw', 'transformer-xl'].includes(id)
          ? { value: tensor(n, d, 2), extra: { q: tensor(n, d, 1) } }
          : { value: id === 'deberta' ? tensor(n, d, 2) : vector(d, 12) },
    offsets: () => ({ value: [0, 1, 2] }),
    output,
    layout: () => ({
      value: p.choices[1],
      context: call === 'scores' && ROTARY.includes(s.family) ? { q: vector(d, 3), k: vector(d, 4) } : {},
    }),
    rotaryDim: () => ({ value: 4 }),
    base: () => ({ value: 15000 }),
    invFreq: () => ({ value: [1, 0.5, 0.25, 0.125] }),
    // LongRoPE's long factors act past L0: long positions (encoding, scores) vs a short seqLen.
    seqLen: () =>
      id === 'rope-longrope'
        ? { value: ['encoding', 'scores'].includes(call) ? 1 : 9000, context: { longFactor: [2, 2, 2, 2] } }
        : { value: 9000 },
    attentionFactor: () => ({ value: 0.7 }),
    mscale: () => ({ value: 0.5, extra: { mscaleAllDim: 1 } }),
    mscaleAllDim: () => ({ value: 0.5, extra: { mscale: 1 } }),
    betaSlow: () => ({ value: 0.1 }),
    shortFactor: () => ({ value: [1.5, 2, 3, 4], context: { seqLen: 1 } }),
    longFactor: () => ({ value: [1.5, 2, 3, 4], context: { seqLen: 9000 } }),
    originalMaxPositionEmbeddings: () => ({ value: { 'rope-longrope': 2, 'rope-yarn': 100000 }[id] ?? 3000 }),
    center: () => ({ value: 2 }),
    width: () => ({ value: 2 }),
    numBuckets: () => ({ value: 4 }),
    maxDistance: () => ({ value: 5, context: { numBuckets: 8 } }),
    dBar: () => ({ value: 16 }),
    table: () => ({ value: { shape: [1, 32], data: Float32Array.from(range(32), (b) => -b / 7) } }),
    slopes: () => ({ value: [0.3] }),
    aK: () => ({ value: tensor(17, d, 3) }),
    aV: () => ({ value: tensor(17, d, 4) }),
    clip: () => ({ value: 1 }),
    u: () => ({ value: vector(d, 5), context: call === 'scores' ? { q: tensor(n, d), k: tensor(n, d, 2) } : {} }),
    v: () => ({ value: vector(d, 6) }),
    WR: () => ({ value: tensor(d, d, 7) }),
    dR: () => ({ value: 4 }),
    positionBuckets: () => ({ value: 4 }),
    maxRelativePositions: () => ({ value: 4, context: { positionBuckets: 4 } }),
    qr: () => ({ value: tensor(512, d, 8) }),
    kr: () => ({ value: tensor(512, d, 9) }),
    qc: () => ({ value: tensor(n, d, 10), extra: call === 'scores' ? { kc: tensor(n, d, 12) } : {} }),
    kc: () => ({ value: tensor(n, d, 11), extra: call === 'scores' ? { qc: tensor(n, d, 13) } : {} }),
    posAttType: () => ({ value: ['c2p'] }),
    mlp: () => ({ value: { shape: [1, 7], data: [1, -1, 0.5, 0.2, -2, 1, 0.3] } }),
    E: () => ({ value: tensor(5, call === 'attention' ? 8 : 4, 3) }),
    nposMax: () => ({ value: 2 }),
    scale: () => ({ value: 0.3 }),
  }[name];
  if (special) return special();
  if (!p) return undefined;
  switch (p.type) {
    case 'boolean':
      return { value: !p.default };
    case 'choice':
      return { value: p.choices[1] };
    case 'number':
    case 'integer':
    case 'perHead': {
      const from = p.default ?? 1;
      let value = p.type === 'integer' ? from + 1 : from * 1.5;
      if (p.max !== null && value > p.max) value = p.type === 'integer' ? from - 1 : from * 0.75;
      return { value };
    }
    default:
      return undefined;
  }
}

// "Raises naming it": a TypeError or RangeError whose message names the option as a word.
function namesOption(error, name) {
  return (error instanceof RangeError || error instanceof TypeError) && new RegExp(`\\b${name}\\b`).test(error.message);
}

describe('the table: every option changes the result or raises an error naming it', () => {
  const rows = [];
  for (const s of rp.schemes) {
    for (const call of s.calls) {
      const own = Object.keys(s.params);
      // In attention q, k and v are its own inputs, not the scheme's probes.
      const names = [...new Set([...own, ...CALL_OPTIONS[call]])].filter(
        (name) => call !== 'attention' || !['q', 'k', 'v'].includes(name),
      );
      for (const name of names) rows.push([s.id, call, name]);
    }
  }

  it('covers every scheme, call and option (sanity)', () => {
    expect(rows.length).toBeGreaterThan(300);
    for (const [id, call, name] of rows) {
      expect(alternative(name, id, call, baseOptions(id, call)), `${id} ${call} ${name}`).toBeDefined();
    }
  });

  it.each(rows)('%s %s %s', (id, call, name) => {
    const base = { ...baseOptions(id, call), ...SCHEME_BASE[id] };
    const alt = alternative(name, id, call, base);
    // NoPE's map is zero at any positions: its mask shows where they are.
    const gridOption = ['m', 'queryOffset', 'positions', 'queryPositions', 'keyPositions'].includes(name);
    const context = { ...base, ...alt.context, ...(id === 'nope' && gridOption ? { causal: true } : {}) };
    const param = info(id).params[name];
    let reference;
    try {
      reference = run(call, id, context);
    } catch (error) {
      throw new Error(`${id} ${call}: the base call fails: ${error.message}`, { cause: error });
    }
    let variant;
    try {
      variant = run(call, id, { ...context, ...alt.extra, [name]: alt.value });
    } catch (error) {
      // Scheme parameters that act on this call must act, not raise; anything else may raise.
      if (param && param.affects.includes(call)) throw error;
      expect(namesOption(error, name), `${id} ${call} ${name}: ${error.message}`).toBe(true);
      return;
    }
    // The head width in the scores of a scheme that has none (bias schemes) is accepted and acts on nothing.
    const describesHeads = name === 'd' && call === 'scores' && !param;
    if ((param && !param.affects.includes(call)) || describesHeads) {
      // Documented as not acting on this call (e.g. layout on frequencies): the same result.
      expect(same(variant, reference), `${id} ${call} ${name} is documented as not acting here`).toBe(true);
    } else {
      expect(same(variant, reference), `${id} ${call} ${name} changed nothing`).toBe(false);
    }
  });

  it('an option no call documents for this scheme is an unknown parameter', () => {
    for (const s of rp.schemes) {
      for (const call of s.calls.filter((c) => c !== 'attention')) {
        const allowed = new Set([...Object.keys(s.params), ...CALL_OPTIONS[call]]);
        for (const name of ALL_CALL_OPTIONS.filter((o) => !allowed.has(o))) {
          const base = { ...baseOptions(s.id, call), ...SCHEME_BASE[s.id] };
          expect(() => run(call, s.id, { ...base, [name]: 1 }), `${s.id} ${call} ${name}`).toThrow(
            new RegExp(`unknown parameter '${name}'`),
          );
        }
      }
    }
  });
});
