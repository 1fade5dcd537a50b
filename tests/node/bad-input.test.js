// A table-driven battery of bad input, generated from the core's own metadata: for every scheme in
// rp.schemes, every call it supports (`calls`), every parameter in its metadata (`params`: type,
// min, max, exclusiveMin, integer, choices) and every option of that call in the operation table
// (rp.operations: the same metadata, e.g. attention's heads, mode, B, or a new option another
// change adds) it passes NaN, ±Infinity, values just outside the documented range, non-integers,
// poisoned tensors and values of the wrong kind, and checks the error class (TypeError for kinds,
// RangeError for values), that the message names the function, the parameter and the value, and
// that a valid call afterwards still matches a golden value. New parameters and options are covered
// without editing this file.
import { describe, expect, it } from 'vitest';
import { load } from '../../bindings/index.js';
import { callFor, compare, goldenCases, implementingScheme } from './golden.js';
import { thrownBy } from './thrown.js';

const rp = await load();
const golden = goldenCases();
const fallbackCase = golden.find((c) => c.file.startsWith('041_rope_rotate'));

// A golden case of the same scheme when there is one (so a corrupted scheme state would show).
const referenceFor = (id) =>
  golden.find((c) => implementingScheme(c) === id && c.kind !== 'attention_weights') ?? fallbackCase;
function expectStillWorks(id) {
  const reference = referenceFor(id);
  const got = callFor(reference)(rp);
  const verdict = compare(Array.from(got.data), reference.data, reference.tol);
  expect(verdict.ok, `${reference.file} after a bad call: ${verdict.reason}`).toBe(true);
}

const mat = (rows, cols, f = (i) => Math.sin(i + 1)) => ({
  shape: [rows, cols],
  data: Float32Array.from({ length: rows * cols }, (_, i) => f(i)),
});

// Parameters a scheme cannot do without in these small calls.
const REQUIRED = {
  'kerple-log': { r2: 1 },
  'kerple-power': { r1: 1 },
  'transformer-xl': { dR: 8 },
  cope: { nposMax: 4 },
  'rope-longrope': { shortFactor: [1, 1, 1, 1], longFactor: [2, 2, 2, 2] },
};

const operations = new Map(rp.operations.map((op) => [op.name, op]));

// The tensors each call is given in its baseline (a poisoned copy keeps their shape).
const BASELINE_TENSORS = {
  rotate: { x: mat(4, 8) },
  attention: { q: mat(4, 8), k: mat(4, 8, Math.cos), v: mat(4, 8) },
};

// One valid call per (scheme, call); `params` replaces or adds scheme parameters, `own` the call's
// own options (rp.operations; for attention they stand beside `scheme`, the scheme's in `params`).
function invoke(scheme, call, { params = {}, own = {} } = {}) {
  const options = { ...REQUIRED[scheme.id], ...params };
  const heads = scheme.params.heads ? { heads: 2 } : {};
  const input = operations.get(call).input;
  switch (call) {
    case 'encoding':
      return rp.encoding(scheme.id, { n: 4, d: 8, ...options, ...own });
    case 'bias':
      return rp.bias(scheme.id, { n: 4, heads: 2, ...options, ...own });
    case 'buckets':
      return rp.buckets(scheme.id, { n: 4, ...options, ...own });
    case 'frequencies':
      return rp.frequencies(scheme.id, { d: 8, ...options, ...own });
    case 'rotate': {
      const { [input]: x = BASELINE_TENSORS.rotate.x, ...rest } = own;
      return rp.rotate(x, { scheme: scheme.id, ...options, ...rest });
    }
    case 'scores': {
      const content = scheme.id === 'cope' ? { q: mat(4, 8), k: mat(4, 8, Math.cos) } : {};
      return rp.scores(scheme.id, { n: 4, d: 8, ...heads, ...content, ...options, ...own });
    }
    case 'attention':
      return rp.attention({
        ...BASELINE_TENSORS.attention,
        heads: heads.heads ?? 1,
        scheme: scheme.id,
        params: options,
        ...own,
      });
    default:
      throw new Error(`no baseline for call '${call}'`);
  }
}

// A tensor like `tensor` with one entry replaced.
const poisoned = (tensor, value) => ({
  shape: tensor.shape,
  data: Float32Array.from(tensor.data, (x, i) => (i ? x : value)),
});

// The bad values for one parameter's (or option's) metadata: [label, value, ErrorClass]. `baseline`:
// the tensor the baseline call gives it, if any. A tensor the JS entry takes for itself (an output
// buffer) is checked for its kind only.
function badValues(name, info, baseline) {
  const out = [];
  if (['number', 'integer', 'perHead'].includes(info.type)) {
    out.push(['NaN', NaN, RangeError], ['Infinity', Infinity, RangeError], ['-Infinity', -Infinity, RangeError]);
    if (info.min !== null) out.push([`below min ${info.min}`, info.exclusiveMin ? info.min : info.min - 1, RangeError]);
    if (info.max !== null) out.push([`above max ${info.max}`, info.max * 2 + 1, RangeError]);
    if (info.integer) {
      const fractional = (info.min ?? 0) + 0.5;
      if (info.max === null || fractional < info.max) out.push(['a non-integer', fractional, RangeError]);
    }
    out.push(['a string', 'abc', TypeError], ['a boolean', true, TypeError]);
    if (info.type === 'perHead') out.push(['NaN in a per-head list', [1, NaN], RangeError]);
  } else if (info.type === 'boolean') {
    out.push(['a number', 1, TypeError], ['a string', 'yes', TypeError]);
  } else if (info.type === 'choice') {
    out.push(['an unknown choice', 'bogus', RangeError], ['a number', 3, TypeError]);
  } else if (info.type === 'string') {
    out.push(['a number', 5, TypeError], ['a boolean', false, TypeError]);
  } else if (info.type === 'options') {
    out.push(['a number', 5, TypeError], ['a string', 'abc', TypeError]);
  } else if (info.type === 'array') {
    if (info.items === 'string') {
      out.push(['an unknown entry', ['c2x'], RangeError], ['a number', 5, TypeError]);
    } else if (info.check === 'binding') {
      out.push(['a number', 5, TypeError], ['a string', 'abc', TypeError]);
    } else {
      out.push(
        ['a number', 5, TypeError],
        ['a string', 'abc', TypeError],
        ['NaN inside', baseline ? poisoned(baseline, NaN) : [NaN, 1], RangeError],
        ['Infinity inside', baseline ? poisoned(baseline, Infinity) : [1, Infinity], RangeError],
      );
    }
  }
  return out;
}

const isTensor = (value) => value !== null && typeof value === 'object' && 'shape' in value && 'data' in value;
const show = (value) =>
  typeof value === 'number'
    ? String(value)
    : isTensor(value)
      ? `a [${value.shape.join(', ')}] tensor holding ${value.data[0]}`
      : JSON.stringify(value, (_, v) => (typeof v === 'number' && !Number.isFinite(v) ? String(v) : v));
// Whether a RangeError message shows the offending value after "got" (numbers as the core prints
// them, %.10g: 2000000000001 → 2e+12; strings quoted; for a list or tensor, its bad entry).
function showsValue(message, value) {
  const entries = isTensor(value) ? Array.from(value.data) : value;
  const wanted = Array.isArray(entries) ? entries.find((x) => typeof x === 'string' || !Number.isFinite(x)) : value;
  if (wanted === undefined) return true;
  const got = message.match(/, got (.*)$/)?.[1];
  if (got === undefined) return false;
  if (typeof wanted === 'string') return got.includes(`'${wanted}'`);
  if (!Number.isFinite(wanted)) return got.startsWith(String(wanted));
  const shown = Number.parseFloat(got);
  return Math.abs(shown - wanted) <= 1e-9 * Math.abs(wanted);
}

const battery = [];
for (const scheme of rp.schemes) {
  for (const call of scheme.calls) {
    for (const [name, info] of Object.entries(scheme.params)) {
      for (const [label, value, ErrorClass] of badValues(name, info, BASELINE_TENSORS[call]?.[name])) {
        battery.push({ scheme, call, name, label, value, ErrorClass, where: 'params' });
      }
    }
    // The call's own options the scheme does not declare itself (rp.operations).
    for (const option of operations.get(call).options) {
      if (option.name in scheme.params) continue;
      const baseline = BASELINE_TENSORS[call]?.[option.name];
      for (const [label, value, ErrorClass] of badValues(option.name, option, baseline)) {
        battery.push({ scheme, call, name: option.name, label, value, ErrorClass, where: 'own' });
      }
    }
  }
}

describe('every scheme × call × parameter of rp.schemes and option of rp.operations refuses bad values', () => {
  it('covers every scheme, every call and every option in the catalogue and the operation table', () => {
    expect(new Set(battery.map((b) => b.scheme.id)).size).toBe(rp.schemes.length);
    const pairs = new Set(battery.map((b) => `${b.scheme.id}/${b.call}`));
    for (const s of rp.schemes) for (const c of s.calls) expect(pairs.has(`${s.id}/${c}`), `${s.id}/${c}`).toBe(true);
    const options = new Set(battery.filter((b) => b.where === 'own').map((b) => `${b.call}.${b.name}`));
    for (const op of rp.operations) {
      for (const option of op.options) {
        const declaredEverywhere = rp.schemes
          .filter((s) => s.calls.includes(op.name))
          .every((s) => option.name in s.params);
        if (!declaredEverywhere) {
          expect(options.has(`${op.name}.${option.name}`), `${op.name}.${option.name}`).toBe(true);
        }
      }
    }
    expect(battery.length).toBeGreaterThan(3000);
  });

  it('every option in rp.operations declares its type, so the battery can test it', () => {
    const untyped = rp.operations.flatMap((op) =>
      op.options
        .filter(
          (o) => !['number', 'integer', 'boolean', 'choice', 'perHead', 'array', 'string', 'options'].includes(o.type),
        )
        .map((o) => `${op.name}.${o.name}`),
    );
    expect(untyped).toEqual([]);
  });

  it('every call in rp.operations has a baseline here', () => {
    for (const op of rp.operations) {
      const scheme = rp.schemes.find((s) => s.calls.includes(op.name));
      expect(() => invoke(scheme, op.name), op.name).not.toThrow();
    }
  });

  for (const scheme of rp.schemes) {
    for (const call of scheme.calls) {
      it(`${scheme.id}: the baseline ${call} call is valid`, () => {
        expect(() => invoke(scheme, call)).not.toThrow();
      });
    }
  }

  // One test per scheme and call, each running every bad value of every parameter (thousands of
  // cases; a test each would only slow the reporter down).
  const groups = new Map();
  for (const b of battery) {
    const key = `${b.scheme.id} / ${b.call}`;
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(b);
  }
  for (const [key, cases] of groups) {
    it(`${key}: ${cases.length} bad values → TypeError / RangeError naming function, parameter and value; next call still golden`, () => {
      const problems = [];
      for (const { scheme, call, name, label, value, ErrorClass, where: slot } of cases) {
        const caught = thrownBy(() => invoke(scheme, call, { [slot]: { [name]: value } }));
        const where = `relpos.${call}: `;
        const what = `${name} = ${show(value)} (${label})`;
        if (!(caught instanceof ErrorClass)) {
          problems.push(
            `${what}: expected ${ErrorClass.name}, got ${caught ? `${caught.constructor.name}: ${caught.message}` : 'no error'}`,
          );
          continue;
        }
        if (!caught.message.startsWith(where)) {
          problems.push(`${what}: message does not start with '${where}': ${caught.message}`);
        }
        if (!caught.message.includes(name)) {
          problems.push(`${what}: message does not name '${name}': ${caught.message}`);
        }
        if (!/, got /.test(caught.message)) {
          problems.push(`${what}: message does not say what it got: ${caught.message}`);
        }
        if (ErrorClass === RangeError && !showsValue(caught.message, value)) {
          problems.push(`${what}: message does not show the value: ${caught.message}`);
        }
      }
      expect(problems, problems.join('\n')).toEqual([]);
      expectStillWorks(cases[0].scheme.id);
    });
  }
});

describe('cross-parameter and shape checks', () => {
  const x = mat(2, 8);
  const cases = [
    [
      'odd d for rotary frequencies',
      () => rp.frequencies('rope', { d: 7 }),
      RangeError,
      /relpos\.frequencies: d must be even, got 7/,
    ],
    [
      'rotaryDim > d in frequencies',
      () => rp.frequencies('rope', { d: 8, rotaryDim: 10 }),
      RangeError,
      /relpos\.frequencies: rotaryDim must be <= d \(8\), got 10/,
    ],
    [
      'odd rotaryDim in frequencies',
      () => rp.frequencies('rope', { d: 8, rotaryDim: 3 }),
      RangeError,
      /relpos\.frequencies: rotaryDim must be even, got 3/,
    ],
    [
      'rotaryDim > d in encoding',
      () => rp.encoding('rope', { n: 2, d: 8, rotaryDim: 16 }),
      RangeError,
      /relpos\.encoding: rotaryDim must be <= d \(8\), got 16/,
    ],
    [
      'rotaryDim > d in attention',
      () => rp.attention({ q: x, k: x, scheme: 'rope', params: { rotaryDim: 12 } }),
      RangeError,
      /relpos\.attention: rotaryDim must be <= d \(8\), got 12/,
    ],
    [
      'heads not dividing the width in attention',
      () => rp.attention({ q: mat(2, 6), k: mat(2, 6), heads: 4, scheme: 'alibi' }),
      RangeError,
      /relpos\.attention: heads \(4\) must divide the width of q, got 6/,
    ],
    [
      'heads not dividing v',
      () => rp.attention({ q: x, k: x, v: mat(2, 3), heads: 2 }),
      RangeError,
      /relpos\.attention: heads \(2\) must divide the width of v, got 3/,
    ],
    [
      'per-head list of the wrong length',
      () => rp.bias('kerple-log', { n: 4, heads: 2, r1: [1, 2, 3], r2: 1 }),
      RangeError,
      /relpos\.bias: r1 must have one value per head \(2\), got 3/,
    ],
    [
      'positions of the wrong length',
      () => rp.encoding('rope', { n: 3, d: 8, positions: [0, 1] }),
      RangeError,
      /relpos\.encoding: positions must hold 3 values/,
    ],
    [
      'longrope factors of the wrong length',
      () => rp.frequencies('rope-longrope', { d: 8, shortFactor: [1, 1] }),
      RangeError,
      /relpos\.frequencies: shortFactor must hold 4 values .*got 2/,
    ],
    [
      'Float64Array of the wrong length for x',
      () => rp.rotate({ shape: [2, 4], data: new Float64Array(5) }),
      RangeError,
      /relpos\.rotate: x has 5 values, but its shape \[2, 4\] needs 8/,
    ],
    [
      'BigInt64Array as x',
      () => rp.rotate({ shape: [1, 2], data: new BigInt64Array(2) }),
      TypeError,
      /relpos\.rotate: x\.data must be a Float32Array or a list of numbers/,
    ],
    [
      'q given as a string',
      () => rp.attention({ q: 'q', k: x }),
      TypeError,
      /relpos\.attention: q must be a tensor of shape \[n, heads\*d\], got string/,
    ],
    [
      'k of rank 1',
      () => rp.attention({ q: x, k: [1, 2, 3] }),
      TypeError,
      /relpos\.attention: k must be a tensor of shape \[m, heads\*d\], got shape \[3\]/,
    ],
    [
      'unknown parameter in attention params',
      () => rp.attention({ q: x, k: x, scheme: 'alibi', params: { slope: 1 } }),
      RangeError,
      /relpos\.attention: unknown parameter 'slope'/,
    ],
    [
      'unknown scheme in attention',
      () => rp.attention({ q: x, k: x, scheme: 'bogus' }),
      RangeError,
      /relpos\.attention: unknown scheme id 'bogus'; known ids: .*'rope'/,
    ],
    [
      'unknown scheme for rotate',
      () => rp.rotate(x, { scheme: 'alibi' }),
      RangeError,
      /relpos\.rotate: scheme 'alibi' has no rotate/,
    ],
    [
      'heads of the wrong kind in a call that ignores it',
      () => rp.scores('rope', { n: 2, d: 8, causal: 'yes' }),
      TypeError,
      /relpos\.scores: causal must be a boolean, got 'yes'/,
    ],
    [
      'frequencies options not an object',
      () => rp.frequencies('rope', 8),
      TypeError,
      /relpos\.frequencies: options must be a plain object/,
    ],
    [
      'a function as an option',
      () => rp.bias('alibi', { n: 4, heads: () => 2 }),
      TypeError,
      /relpos\.bias: heads must be a number, boolean, string or array, got function/,
    ],
    [
      'a symbol id',
      () => rp.scores(Symbol('rope'), { n: 2 }),
      TypeError,
      /relpos\.scores: id must be a scheme id string, got symbol/,
    ],
    [
      'buckets of a scheme without',
      () => rp.buckets('rope', { n: 4 }),
      RangeError,
      /relpos\.buckets: scheme 'rope' has no buckets; schemes with one: .*'t5'/,
    ],
  ];
  for (const [what, call, ErrorClass, message] of cases) {
    it(`${what} → ${ErrorClass.name}`, () => {
      const caught = thrownBy(call);
      expect(caught).toBeInstanceOf(ErrorClass);
      expect(caught.message).toMatch(message);
      expectStillWorks('rope');
    });
  }
});

describe('memory limits', () => {
  const limit = /over the limit of .*attentionMap/;
  const cases = [
    ['bias just over the per-result limit', () => rp.bias('alibi', { n: 8193, heads: 1 })],
    // Without the work budget (rp.unbounded(), the worker): memory limits still hold.
    ['scores with rotated rows over the working-set limit', () => rp.unbounded().scores('rope', { n: 8192, d: 65536 })],
    [
      'Shaw key table over the working-set limit',
      () => rp.unbounded().scores('shaw', { n: 8000, d: 65536, clip: 1 << 20 }),
    ],
    [
      'Transformer-XL encodings over the working-set limit',
      () => rp.unbounded().scores('transformer-xl', { n: 8000, d: 65536 }),
    ],
    [
      'CoPE table over the working-set limit',
      () => rp.scores('cope', { n: 2, d: 1024, q: mat(2, 1024), k: mat(2, 1024), nposMax: 1 << 20 }),
    ],
    ['attention weights over the per-result limit', () => rp.attention({ q: mat(8193, 1), k: mat(8193, 1) })],
    ['encoding over the per-result limit', () => rp.encoding('sinusoidal', { n: 1 << 20, d: 65536 })],
  ];
  for (const [what, call] of cases) {
    it(`${what}: refused with a RangeError naming the limit and attentionMap, before allocating`, () => {
      const before = rp.heapInUse();
      const caught = thrownBy(call);
      expect(caught).toBeInstanceOf(RangeError);
      expect(caught.message).toMatch(/^relpos\.\w+: /);
      expect(caught.message).toMatch(limit);
      expect(rp.heapInUse()).toBe(before);
      expectStillWorks('alibi');
    });
  }

  it('an attentionMap job whose queries and keys would not fit is refused before allocating', async () => {
    await rp.attentionMap({ n: 256, scheme: 'rope', d: 16, seed: 1, size: 16 });
    const before = rp.heapInUse();
    await expect(rp.attentionMap({ n: 131072, scheme: 'rope', d: 4096, seed: 1, size: 64 })).rejects.toThrow(
      /^relpos\.attentionMap: this call would need 4097 MiB of working memory .*over the limit of 1024 MiB/,
    );
    await expect(rp.attentionMap({ n: 1024, scheme: 'alibi', size: 16, alibiBiasMax: NaN })).rejects.toThrow(
      /^relpos\.attentionMap: alibiBiasMax must be finite, got NaN/,
    );
    expect(rp.heapInUse()).toBe(before);
    expectStillWorks('rope');
  });

  it('a request just under the per-result limit still works and the heap returns', () => {
    const before = rp.heapInUse();
    const b = rp.bias('alibi', { n: 4096, heads: 4 }); // 64 Mi values, exactly the limit
    expect(b.shape).toEqual([4, 4096, 4096]);
    expect(b.data.length).toBe(4 * 4096 * 4096);
    expect(Math.abs(b.data[4096 + 1])).toBe(0);
    expect(b.data[4096 - 1]).toBeCloseTo(-0.25 * 4095, 2); // head 0 of 4: slope 2^-2 at distance 4095
    expect(rp.heapInUse()).toBe(before);
    expectStillWorks('alibi');
  }, 60000);

  it('Shaw with a clip far above n builds only the rows it uses (fast, same values)', () => {
    const small = rp.scores('shaw', { n: 8, d: 128, clip: 7 });
    const huge = rp.scores('shaw', { n: 8, d: 128, clip: 1008576 });
    expect(Array.from(huge.data)).toEqual(Array.from(small.data));
    const q = mat(3, 16);
    const near = rp.attention({ q, k: mat(5, 16, Math.cos), scheme: 'shaw', params: { clip: 4 } }).weights;
    const far = rp.attention({ q, k: mat(5, 16, Math.cos), scheme: 'shaw', params: { clip: 1 << 20 } }).weights;
    expect(Array.from(far.data)).toEqual(Array.from(near.data));
  });

  it('rotary attention with a huge queryOffset does not size a table over the gap', () => {
    const q = mat(2, 8);
    const before = rp.heapInUse();
    const far = rp.attention({ q, k: mat(3, 8, Math.cos), scheme: 'rope', queryOffset: 1e9 }).weights;
    expect(far.shape).toEqual([1, 2, 3]);
    expect(Array.from(far.data).every(Number.isFinite)).toBe(true);
    for (let i = 0; i < 2; i++) expect(far.data[3 * i] + far.data[3 * i + 1] + far.data[3 * i + 2]).toBeCloseTo(1, 5);
    expect(rp.heapInUse()).toBe(before);
  });
});

describe('rp.fromConfig treats its input as hostile', () => {
  const base = { model_type: 'llama', hidden_size: 64, num_attention_heads: 4, rope_theta: 10000 };
  const cases = [
    [
      '__proto__ in JSON text',
      '{"model_type":"llama","hidden_size":64,"num_attention_heads":4,"__proto__":{"polluted":1}}',
      RangeError,
      /relpos\.fromConfig: key '__proto__' is not allowed in a config \(at __proto__\)/,
    ],
    [
      'constructor.prototype',
      { ...base, constructor: { prototype: { polluted: 1 } } },
      RangeError,
      /key 'constructor' is not allowed/,
    ],
    [
      'nested __proto__',
      { ...base, rope_scaling: JSON.parse('{"rope_type":"linear","factor":2,"__proto__":{"polluted":1}}') },
      RangeError,
      /at rope_scaling\.__proto__/,
    ],
    [
      '__proto__ inside an array',
      `{"model_type":"llama","hidden_size":64,"num_attention_heads":4,"x":[{"__proto__":{"polluted":1}}]}`,
      RangeError,
      /at x\[0\]\.__proto__/,
    ],
    [
      'nesting deeper than 64',
      `${'{"a":'.repeat(65)}1${'}'.repeat(65)}`,
      RangeError,
      /relpos\.fromConfig: .*nesting deeper than 64 levels/,
    ],
    ['100,000 open brackets', '['.repeat(100000), RangeError, /relpos\.fromConfig: .*not valid JSON/],
    ['over 4 MiB', `{"x":"${'a'.repeat(5 << 20)}"}`, RangeError, /over the limit of 4194304 bytes \(4 MiB\)/],
    ['NaN in the text', '{"model_type":"llama","rope_theta":NaN}', RangeError, /NaN and Infinity are not JSON numbers/],
    [
      'a number out of the double range',
      '{"model_type":"llama","hidden_size":1e999}',
      RangeError,
      /number out of the double range/,
    ],
    [
      'heads as a list',
      { ...base, num_attention_heads: [4] },
      TypeError,
      /relpos\.fromConfig: num_attention_heads must be a number, got array/,
    ],
    ['negative heads', { ...base, num_attention_heads: -4 }, RangeError, /num_attention_heads must be >= 1, got -4/],
    [
      'factor as a string',
      { ...base, rope_scaling: { rope_type: 'linear', factor: '2' } },
      TypeError,
      /rope_scaling\.factor must be a number, got string/,
    ],
    [
      'rope_theta outside the range rp.schemes documents',
      { ...base, rope_theta: 1e300 },
      RangeError,
      /relpos\.fromConfig: base must be > 1 and <= 1e\+12, got 1e\+300/,
    ],
    [
      'more heads than the catalogue allows',
      { ...base, hidden_size: 8192, num_attention_heads: 4096 },
      RangeError,
      /relpos\.fromConfig: heads must be >= 1 and <= 1024, got 4096/,
    ],
    ['a config that is an array', '[]', TypeError, /relpos\.fromConfig: the config must be a JSON object, got array/],
    ['a number', 42, TypeError, /relpos\.fromConfig: configJson must be a config\.json object or its JSON text/],
    [
      'a BigInt inside',
      { ...base, hidden_size: 64n },
      TypeError,
      /relpos\.fromConfig: configJson must be plain JSON data/,
    ],
  ];
  for (const [what, config, ErrorClass, message] of cases) {
    it(`${what} → ${ErrorClass.name}, nothing polluted, still working`, () => {
      const caught = thrownBy(() => rp.fromConfig(config));
      expect(caught).toBeInstanceOf(ErrorClass);
      expect(caught.message).toMatch(message);
      expect({}.polluted).toBeUndefined();
      expect(Object.prototype.polluted).toBeUndefined();
      expect(rp.fromConfig(base).params).toEqual({ d: 16, base: 10000, layout: 'half' });
      expectStillWorks('rope');
    });
  }
});
