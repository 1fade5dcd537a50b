// Bad input gets a TypeError / RangeError naming the function and the argument, and the instance
// keeps working: after every bad call a valid call must still match its golden value.
import { describe, expect, it } from 'vitest';
import { load } from '../../bindings/index.js';
import { callFor, compare, goldenCases } from './golden.js';
import { rejectionOf, thrownBy } from './thrown.js';

const rp = await load({ analysis: true });
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
      const caught = thrownBy(call);
      expect(caught).toBeInstanceOf(ErrorType);
      expect(caught.message).toMatch(message);
      checkStillWorks();
    });
  }
});

// Errors that lead to the fix: each case a user with Hugging Face / PyTorch habits runs into, with
// what the message now says.
const q2 = { shape: [2, 4], data: Float32Array.from({ length: 8 }, (_, i) => Math.sin(i + 1)) };
const fixes = [
  [
    'a misspelt scheme in attention lists every name attention takes, scheme and params included',
    () => rp.attention({ q: q2, k: q2, sheme: 'rope' }),
    /^relpos\.attention: unknown parameter 'sheme'; did you mean 'scheme'\? allowed: .*'params'.*'scheme'.*'view'/,
  ],
  [
    'theta (PyTorch) is base',
    () => rp.frequencies('rope', { d: 8, theta: 500000 }),
    /^relpos\.frequencies: unknown parameter 'theta'; did you mean 'base'\? allowed: 'base', /,
  ],
  [
    "rope_theta (a config's name) is base",
    () => rp.scores('rope', { n: 4, d: 8, rope_theta: 10000 }),
    /unknown parameter 'rope_theta'; did you mean 'base'\?/,
  ],
  [
    'snake_case is camelCase',
    () => rp.rotate(q2, { rotary_dim: 2 }),
    /^relpos\.rotate: unknown parameter 'rotary_dim'; did you mean 'rotaryDim'\?/,
  ],
  [
    "max_position_embeddings is a scaling's original length",
    () => rp.frequencies('rope-yarn', { d: 8, factor: 4, max_position_embeddings: 4096 }),
    /unknown parameter 'max_position_embeddings'; did you mean 'originalMaxPositionEmbeddings'\?/,
  ],
  [
    'num_attention_heads is heads',
    () => rp.bias('alibi', { n: 4, num_attention_heads: 8 }),
    /unknown parameter 'num_attention_heads'; did you mean 'heads'\?/,
  ],
  [
    'llama3 is rope-llama3',
    () => rp.frequencies('llama3', { d: 8 }),
    /unknown scheme id 'llama3'; did you mean 'rope-llama3'\?/,
  ],
  ['yarn is rope-yarn', () => rp.frequencies('yarn', { d: 8 }), /unknown scheme id 'yarn'; did you mean 'rope-yarn'\?/],
  [
    'ALiBi is alibi, in attention too',
    () => rp.attention({ q: q2, k: q2, scheme: 'ALiBi' }),
    /^relpos\.attention: unknown scheme id 'ALiBi'; did you mean 'alibi'\? known ids: 'sinusoidal', /,
  ],
  [
    'an attentionMap option misspelt lists params as well',
    () => rp.attentionMap({ n: 16, sheme: 'alibi' }),
    /^relpos\.attentionMap: unknown parameter 'sheme'; did you mean 'scheme'\? allowed: .*'params'/,
  ],
  [
    'a misspelt analysis',
    () => rp.analysis.svd({ shape: [2, 2], data: [1, 0, 0, 1] }, { vectros: true }),
    /^relpos\.analysis\.svd: unknown parameter 'vectros'; did you mean 'vectors'\?/,
  ],
  [
    'svd says what shape it got',
    () => rp.analysis.svd({ shape: [2, 3, 3], data: new Float32Array(18) }),
    /^relpos\.analysis\.svd: M must be a tensor of shape \[rows, cols\], got shape \[2, 3, 3\]$/,
  ],
  [
    'a row that is not numbers says where',
    () => rp.rotate([new Float32Array(4), [1, 2, 'x', 4]]),
    /^relpos\.rotate: x\[1\]\[2\] must be a number, got string$/,
  ],
  [
    'ragged rows say which row',
    () => rp.rotate([new Float32Array(4), new Float32Array(3)]),
    /^relpos\.rotate: x is ragged; every row \(at x\[1\]\) must have 4 entries, got 3 entries$/,
  ],
  [
    'implicit attention without P and without a scheme names what is missing',
    () => rp.attention({ q: q2, k: q2, mode: 'implicit' }),
    /^relpos\.attention: mode 'implicit' needs position vectors P or a scheme with a positional term, got no P, no B and no scheme$/,
  ],
  [
    'mixed attention with a scheme without a term',
    () => rp.attention({ q: q2, k: q2, mode: 'mixed', scheme: 'nope' }),
    /^relpos\.attention: mode 'mixed' needs position vectors P, a bias B or a scheme with a positional term, got scheme 'nope', which has none$/,
  ],
  [
    'attention params of the wrong kind say what they got',
    () => rp.attention({ q: q2, k: q2, scheme: 'alibi', params: 5 }),
    /^relpos\.attention: params must be a plain object, got number$/,
  ],
];

describe('errors that suggest the fix', () => {
  for (const [what, call, message] of fixes) {
    it(`${what}`, async () => {
      const caught = await rejectionOf(call);
      expect(caught, 'no error').toBeDefined();
      expect(['TypeError', 'RangeError']).toContain(caught.constructor.name);
      expect(caught.message).toMatch(message);
      checkStillWorks();
    });
  }
});

describe('tensors in every form the types promise', () => {
  const rows = [
    [1, 2, 3, 4],
    [5, 6, 7, 8],
  ];
  const expected = rp.rotate({ shape: [2, 4], data: Float32Array.from(rows.flat()) }, { positions: [3, 9] });
  const forms = [
    ['nested lists', rows],
    ['rows of Float32Arrays', rows.map((r) => Float32Array.from(r))],
    ['rows of Float64Arrays', rows.map((r) => Float64Array.from(r))],
    ['a mix of lists and typed rows', [rows[0], Int16Array.from(rows[1])]],
    ['{ shape, data } with a list', { shape: [2, 4], data: rows.flat() }],
    ['{ shape, data } with a Uint8ClampedArray', { shape: [2, 4], data: Uint8ClampedArray.from(rows.flat()) }],
    ['[1, n, d]: a leading extent of 1 dropped', { shape: [1, 2, 4], data: Float32Array.from(rows.flat()) }],
    ['[[rows]]: nested once more', [rows]],
  ];
  for (const [what, x] of forms) {
    it(`${what} rotates to the same numbers`, () => {
      const got = rp.rotate(x, { positions: [3, 9] });
      expect(got.shape).toEqual([2, 4]);
      expect(Array.from(got.data)).toEqual(Array.from(expected.data));
    });
  }

  it('svd takes the [1, n, n] that scores returns, and rows of Float32Arrays', () => {
    const S = rp.scores('rope', { n: 6, d: 8 });
    expect(S.shape).toEqual([1, 6, 6]);
    const fromScores = rp.analysis.svd(S);
    const rowsOf = Array.from({ length: 6 }, (_, i) => S.data.slice(6 * i, 6 * i + 6));
    const fromRows = rp.analysis.svd(rowsOf);
    expect(fromScores.singularValues.length).toBe(6);
    expect(Array.from(fromRows.singularValues)).toEqual(Array.from(fromScores.singularValues));
  });

  it('attention takes q, k, v as rows of Float32Arrays, and [1, n, d] as a batch of one', () => {
    const q = [Float32Array.of(1, 0, 0.5, 0), Float32Array.of(0, 1, 0, 0.5)];
    const a = rp.attention({ q, k: q, v: q, scheme: 'alibi' });
    const one = { shape: [1, 2, 4], data: Float32Array.from([...q[0], ...q[1]]) };
    const b = rp.attention({ q: one, k: one, v: one, scheme: 'alibi' });
    expect(b.weights.shape).toEqual([1, ...a.weights.shape]);
    expect(b.output.shape).toEqual([1, ...a.output.shape]);
    expect(Array.from(b.weights.data)).toEqual(Array.from(a.weights.data));
    expect(Array.from(b.output.data)).toEqual(Array.from(a.output.data));
  });
});

describe('bounded synchronous calls', () => {
  it('a call over the work budget is refused before any work, naming the budget, the worker and rp.unbounded()', () => {
    const started = performance.now();
    expect(() => rp.scores('rope', { n: 4096, d: 1024 })).toThrow(
      /^relpos\.scores: this call needs about 1\.72e\+10 multiply-adds, over the synchronous budget of 2\^30 = 1073741824; run it in the worker \(createRelposWorker\(\) from 'relpos\/worker': off the main thread, no budget\), or where blocking is fine on rp\.unbounded\(\)$/,
    );
    // 2048 queries and keys of width 4096 with values: 2048² · 8192 > 2^34, the result 2048² values.
    const q = { shape: [2048, 4096], data: new Float32Array(2048 * 4096) };
    expect(() => rp.attention({ q, k: q, v: q })).toThrow(
      /^relpos\.attention: this call needs about 3\.44e\+10 multiply-adds, over the synchronous budget of 2\^34/,
    );
    expect(performance.now() - started).toBeLessThan(5000);
    checkStillWorks();
  });

  it("the worker's instance has no work budget: a call over it runs there", async () => {
    // bindings/worker.js's serve() in-process, with its default instance (load()'s, unbounded).
    const { serve } = await import('../../bindings/worker.js');
    const replies = [];
    const scope = { postMessage: (message) => replies.push(message), close() {} };
    serve(scope);
    // Counted as 1024² · (1024 + 1) multiply-adds, just over the 2^30 of rp.scores (Shaw's scores
    // read a table by distance, so the call itself is quick).
    const options = { n: 1024, d: 1024 };
    expect(() => rp.scores('shaw', options)).toThrow(/over the synchronous budget of 2\^30/);
    scope.onmessage({ data: { id: 1, type: 'call', method: 'scores', args: ['shaw', options] } });
    while (!replies.some((r) => r.id === 1)) await new Promise((wake) => setTimeout(wake, 20));
    const reply = replies.find((r) => r.id === 1);
    expect(reply.type, reply.error?.message).toBe('result');
    expect(reply.result.shape).toEqual([1, 1024, 1024]);
  }, 60000);

  it('rp.unbounded() is the same core without the budget; memory limits still hold', () => {
    const free = rp.unbounded();
    expect(free.unbounded()).toBe(free);
    expect(rp.unbounded()).toBe(free);
    const small = free.bias('alibi', { n: 8, heads: 2 });
    expect(Array.from(small.data)).toEqual(Array.from(rp.bias('alibi', { n: 8, heads: 2 }).data));
    // Over the work budget but within memory: refused by rp, accepted by rp.unbounded() (the check
    // is made before any work, so the refusal is immediate). 2049² · (8192 + 1) > 2^30.
    const heavy = { n: 2049, d: 8192 };
    expect(() => rp.scores('sinusoidal', heavy)).toThrow(/synchronous budget/);
    expect(() => free.scores('rope', { n: 8192, d: 65536 })).toThrow(/over the limit of 1024 MiB/);
  });
});

describe('allocation failure', () => {
  it('names the call and what it was given, and the module keeps working', async () => {
    // A fresh module of its own (its heap is filled here, not the shared instance's): position-only
    // attention-map jobs of a scheme that is not shift-invariant each hold q and k [n, d], 960 MiB,
    // until the 2 GiB heap cannot take another.
    const { default: factory } = await import('../../dist/relpos.baseline.mjs');
    const { readFile } = await import('node:fs/promises');
    const core = await factory({
      wasmBinary: await readFile(new URL('../../dist/relpos.baseline.wasm', import.meta.url)),
    });
    const options = { n: 131072, d: 960, scheme: 'fire', size: 64 };
    const handles = [];
    let failure;
    for (let attempt = 0; attempt < 4 && !failure; attempt++) {
      const started = core.jobStart('attentionMap', options);
      if (typeof started.error === 'string') failure = started;
      else handles.push(started.handle);
    }
    expect(handles.length).toBeGreaterThanOrEqual(1);
    expect(failure).toEqual({
      kind: 'RangeError',
      error:
        'relpos.attentionMap: out of memory for d = 960, n = 131072, size = 64 (the wasm heap holds at most 2 GiB, shared with the inputs and anything still held); use smaller sizes',
    });
    for (const handle of handles) core.jobFree(handle);
    const after = core.compute('bias', 'alibi', { n: 4, heads: 2 }, false);
    expect(after.data.shape).toEqual([2, 4, 4]);
  }, 60000);
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
