// rp.alloc (docs/api.md, "rp.alloc"): a tensor in the wasm heap that the caller fills in place and
// rp.attention reads without copying — as B, and as q, k, v and P. The result equals the copied
// path's bit for bit in both builds; a freed tensor, a wrong shape, one of another instance and
// NaN / +Infinity in B are clear errors naming the call and the argument; `data` survives memory
// growth; jobs and the worker pool read copies taken at the call; relpos/worker refuses them.
import { afterAll, describe, expect, it } from 'vitest';
import { load, terminateWorkers } from '../../bindings/index.js';
import { IN_PLACE } from '../../bindings/heap-tensor.js';
import { createRelposWorker } from '../../bindings/worker-client.js';

const rp = await load();
const baseline = await load({ simd: false });
afterAll(() => terminateWorkers());

const wave = (length, rate, phase) => Float32Array.from({ length }, (_, i) => Math.sin(rate * i + phase));
const tensor = (shape, data) => ({ shape, data });

/** A tensor of `instance` holding `values`. */
function filled(instance, shape, values) {
  const alloc = instance.alloc(shape);
  alloc.data.set(values);
  return alloc;
}

/** Same bits: every value equal under Object.is, same shape. */
function expectSameTensor(actual, expected) {
  expect(actual.shape).toEqual(expected.shape);
  expect(actual.data.length).toBe(expected.data.length);
  expect(expected.data.findIndex((x, i) => !Object.is(x, actual.data[i]))).toBe(-1);
}

function expectSameResult(actual, expected) {
  expect(Object.keys(actual).sort()).toEqual(Object.keys(expected).sort());
  for (const key of ['weights', 'output']) if (expected[key]) expectSameTensor(actual[key], expected[key]);
}

function messageOf(run) {
  try {
    run();
  } catch (error) {
    return `${error.constructor.name}: ${error.message}`;
  }
  return 'no error';
}

// m = 700: blocks of 92 query rows, so n = 300 spans four blocks (B is checked block by block).
const [n, m, heads, d] = [300, 700, 2, 8];
const q = tensor([n, heads * d], wave(n * heads * d, 0.7, 0.1));
const k = tensor([m, heads * d], wave(m * heads * d, 1.3, 0.4));
const v = tensor([m, heads * d], wave(m * heads * d, 0.5, 1.1));
const biasValues = (count) => {
  const values = wave(count, 0.05, 0.3);
  for (let t = 0; t < count; t += 11) values[t] = -Infinity; // masked pairs
  return values;
};

// The wasm heap's size, and bytes that cannot be allocated without growing it: more than its free
// space and at least `share` of its size (one growth step adds at most a fifth of the size).
function heapNow() {
  const probe = rp.alloc([1]);
  const size = probe.data.buffer.byteLength;
  probe.free();
  return { size, beyondFree: (share) => Math.ceil(Math.max(size - rp.heapInUse(), size * share) + (1 << 20)) };
}

describe('rp.alloc: B is read where it is', () => {
  // B is larger than the heap was, so the heap holds it with little room beside it: a second
  // tensor of B's size grows the heap by most of B's size; the in-place call grows it at most by one
  // growth step (a fifth of its size) for its scratch, and so does B given as { shape, data }, which
  // is read from the caller's array block by block (attention-streamed.test.js).
  it('a call with B in place grows the heap by far less than B; a second B held in the heap grows it by most of B', () => {
    const side = Math.ceil(Math.sqrt(heapNow().beyondFree(1) / 4));
    const bytes = side * side * 4;
    const x = tensor([side, 8], wave(side * 8, 0.37, 0.1));
    const B = filled(rp, [side, side], wave(side * side, 0.001, 0));
    const heapBytes = () => B.data.buffer.byteLength;
    const before = heapBytes();
    const inPlace = rp.attention({ q: x, k: x, v: x, B, weights: false });
    const grownInPlace = heapBytes() - before;
    const given = rp.attention({ q: x, k: x, v: x, B: tensor([side, side], B.data.slice()), weights: false });
    const grownGiven = heapBytes() - before - grownInPlace;
    const second = rp.alloc([side, side]);
    const grownSecond = heapBytes() - before - grownInPlace - grownGiven;
    expect(grownInPlace).toBeLessThan(bytes / 2);
    expect(grownGiven).toBeLessThan(bytes / 2);
    expect(grownSecond).toBeGreaterThan(bytes / 2);
    expectSameTensor(inPlace.output, given.output);
    second.free();
    B.free();
  });
});

describe('rp.alloc: memory growth', () => {
  it('data stays the same floats when the heap grows while the tensor is live, and attention still reads them', () => {
    const values = biasValues(n * m);
    const B = filled(rp, [n, m], values);
    const before = B.data;
    const bytes = before.buffer.byteLength;
    const big = rp.alloc([heapNow().beyondFree(0.25) >> 2]);
    expect(B.data.buffer.byteLength).toBeGreaterThan(bytes); // the heap grew
    expect(before.length).toBe(0); // the old view went empty with its buffer
    expect(B.data).toEqual(values);
    expectSameResult(rp.attention({ q, k, v, heads, B }), rp.attention({ q, k, v, heads, B: tensor([n, m], values) }));
    big.free();
    B.free();
  });

  it('its data handed over as a plain { shape, data } is copied right even when that copy grows the heap', () => {
    // After x is allocated the heap cannot hold a copy of it without growing: the call that copies
    // it in grows the heap, which empties the view it was given.
    const unbounded = rp.unbounded(); // made first: making it calls the core, which may grow the heap
    const rows = Math.ceil(heapNow().beyondFree(0.25) / 256);
    const x = filled(rp, [rows, 64], wave(rows * 64, 0.001, 0.2));
    const copy = tensor([rows, 64], x.data.slice());
    const view = x.data;
    const got = unbounded.rotate({ shape: [rows, 64], data: view });
    expect(view.length).toBe(0); // the heap grew during the call
    expectSameTensor(got, unbounded.rotate(copy));
    x.free();
  }, 60_000); // rotates a quarter of the heap twice: seconds on a loaded 2-core machine
});

describe('rp.alloc: the result equals the copied path bit for bit', () => {
  const cases = [
    ['B [n, m]', [n, m], {}],
    [
      'B [n, m], causal, with a boolean mask',
      [n, m],
      {
        causal: true,
        mask: { shape: [n, m], data: wave(n * m, 1, 0).map((x) => (x > -0.9 ? 1 : 0)), kind: 'boolean' },
      },
    ],
    ['B [heads, n, m], output only', [heads, n, m], { weights: false }],
    [
      'B [heads, n, m], mixed mode, a scheme beside it, a window',
      [heads, n, m],
      { scheme: 'alibi', mode: 'mixed', alpha: 0.5, slidingWindow: 200 },
    ],
  ];
  for (const [instanceName, instance] of [
    ['SIMD', rp],
    ['baseline', baseline],
  ]) {
    for (const [label, shape, options] of cases) {
      it(`${instanceName}: ${label}`, () => {
        const values = biasValues(shape.reduce((a, b) => a * b, 1));
        const B = filled(instance, shape, values);
        const want = instance.attention({ q, k, v, heads, ...options, B: tensor(shape, values) });
        expectSameResult(instance.attention({ q, k, v, heads, ...options, B }), want);
        // The zero-copy view and a caller's out too.
        if (options.weights !== false) {
          expectSameResult(instance.attention({ q, k, v, heads, ...options, B, view: true }), want);
          const out = new Float32Array(heads * n * m);
          expect(instance.attention({ q, k, v, heads, ...options, B, out }).weights.data).toBe(out);
          expectSameTensor({ shape: want.weights.shape, data: out }, want.weights);
        }
        B.free();
      });
    }
  }

  it('a batch: B [batch, 1, n, m] and [batch, heads, n, m]', () => {
    const batch = 2;
    const qb = tensor([batch, 40, heads * d], wave(batch * 40 * heads * d, 0.7, 0.2));
    const kb = tensor([batch, 50, heads * d], wave(batch * 50 * heads * d, 1.1, 0.5));
    for (const shape of [
      [batch, 1, 40, 50],
      [batch, heads, 40, 50],
    ]) {
      const values = biasValues(shape.reduce((a, b) => a * b, 1));
      const B = filled(rp, shape, values);
      expectSameResult(
        rp.attention({ q: qb, k: kb, v: kb, heads, B }),
        rp.attention({ q: qb, k: kb, v: kb, heads, B: tensor(shape, values) }),
      );
      B.free();
    }
  });

  it('q, k, v and P in place too, one tensor as q, k and v at once (self-attention)', () => {
    const x = filled(rp, q.shape, q.data);
    const keys = filled(rp, k.shape, k.data);
    const values = filled(rp, v.shape, v.data);
    const P = filled(rp, [m, d], wave(m * d, 0.9, 0.7));
    const copiedP = tensor([m, d], P.data.slice());
    expectSameResult(
      rp.attention({ q: x, k: keys, v: values, heads, P, mode: 'implicit' }),
      rp.attention({ q, k, v, heads, P: copiedP, mode: 'implicit' }),
    );
    expectSameResult(
      rp.attention({ q: x, k: x, v: x, heads, scheme: 'rope' }),
      rp.attention({ q, k: q, v: q, heads, scheme: 'rope' }),
    );
    // With axes 'nhd' q, k, v are rearranged in JS (so copied); the result is the same.
    const nhd = (t) => tensor([t.shape[0], heads, d], t.data);
    const xNhd = filled(rp, [n, heads, d], q.data);
    expectSameResult(
      rp.attention({ q: xNhd, k: nhd(k), v: nhd(v), axes: 'nhd' }),
      rp.attention({ q: nhd(q), k: nhd(k), v: nhd(v), axes: 'nhd' }),
    );
    for (const t of [x, keys, values, P, xNhd]) t.free();
  });

  it('rp.kvCache(…).attention reads q and B in place', () => {
    const cache = rp.kvCache({ heads, d });
    cache.append(k, v);
    const queries = tensor([4, heads * d], wave(4 * heads * d, 0.4, 0.9));
    const values = biasValues(4 * m);
    const [x, B] = [filled(rp, queries.shape, queries.data), filled(rp, [4, m], values)];
    expectSameResult(
      cache.attention(x, { B, causal: true }),
      cache.attention(queries, { B: tensor([4, m], values), causal: true }),
    );
    cache.free();
    x.free();
    B.free();
  });

  it('anywhere else an rp.alloc tensor is read like { shape, data } (its values copied)', () => {
    const x = filled(rp, [6, 8], wave(48, 0.8, 0.1));
    expectSameTensor(rp.rotate(x), rp.rotate(tensor([6, 8], x.data.slice())));
    const mask = filled(
      rp,
      [6, 6],
      Float32Array.from({ length: 36 }, (_, t) => (t % 6 <= t / 6 ? 0 : -Infinity)),
    );
    const small = tensor([6, 8], x.data.slice());
    expectSameResult(
      rp.attention({ q: small, k: small, mask }),
      rp.attention({ q: small, k: small, mask: tensor([6, 6], mask.data.slice()) }),
    );
    x.free();
    mask.free();
  });
});

describe('rp.alloc: errors name the call and the argument; the instance keeps working', () => {
  it('a freed tensor is refused wherever it is given; free() twice does nothing', () => {
    const B = filled(rp, [n, m], biasValues(n * m));
    B.free();
    expect(B.freed).toBe(true);
    expect(() => B.free()).not.toThrow();
    expect(messageOf(() => B.data)).toBe('Error: relpos.alloc: this tensor was freed (free() was called)');
    expect(messageOf(() => rp.attention({ q, k, B }))).toBe(
      'Error: relpos.attention: B is an rp.alloc tensor that was freed',
    );
    const x = rp.alloc([4, 8]);
    x.free();
    expect(messageOf(() => rp.attention({ q: x, k: x }))).toBe(
      'Error: relpos.attention: q is an rp.alloc tensor that was freed',
    );
    expect(messageOf(() => rp.rotate(x))).toBe('Error: relpos.rotate: x is an rp.alloc tensor that was freed');
    expect(rp.attention({ q, k, heads }).weights.shape).toEqual([heads, n, m]);
  });

  it('a wrong shape is refused as the copied B is', () => {
    for (const shape of [
      [n, m + 1],
      [heads + 1, n, m],
      [m, n],
    ]) {
      const values = biasValues(shape.reduce((a, b) => a * b, 1));
      const B = filled(rp, shape, values);
      const copied = messageOf(() => rp.attention({ q, k, heads, B: tensor(shape, values) }));
      expect(copied).toMatch(/^RangeError: relpos\.attention: B must have shape/);
      expect(messageOf(() => rp.attention({ q, k, heads, B }))).toBe(copied);
      B.free();
    }
  });

  it("another instance's tensor is refused", () => {
    const B = filled(baseline, [n, m], biasValues(n * m));
    expect(messageOf(() => rp.attention({ q, k, B }))).toMatch(
      /^TypeError: relpos\.attention: B is an rp\.alloc tensor of another relpos instance \(each has its own wasm heap\)/,
    );
    // rp.unbounded() is the same instance (one heap): accepted.
    const own = filled(rp, [n, n], biasValues(n * n));
    expect(rp.unbounded().attention({ q, k: q, heads, B: own }).weights.shape).toEqual([heads, n, n]);
    own.free();
    B.free();
  });

  it('NaN or +Infinity anywhere in B is refused with the copied path message; -Infinity masks', () => {
    const values = biasValues(heads * n * m);
    const B = filled(rp, [heads, n, m], values);
    for (const bad of [NaN, Infinity]) {
      for (const at of [0, 95 * m + 3, heads * n * m - 1]) {
        const poisoned = values.slice();
        poisoned[at] = bad;
        B.data.set(poisoned);
        const copied = messageOf(() => rp.attention({ q, k, heads, B: tensor([heads, n, m], poisoned) }));
        expect(copied).toBe(`RangeError: relpos.attention: B must hold finite numbers or -Infinity, got ${bad}`);
        expect(messageOf(() => rp.attention({ q, k, heads, B }))).toBe(copied);
      }
    }
    B.data.set(values);
    expect(rp.attention({ q, k, heads, B }).weights.data.some((w) => w === 0)).toBe(true);
    B.free();
  });

  it('rp.alloc refuses a bad shape', () => {
    expect(messageOf(() => rp.alloc('4'))).toMatch(/^TypeError: relpos\.alloc: shape must be a list of 1 to 4 extents/);
    expect(messageOf(() => rp.alloc([]))).toMatch(/^TypeError: relpos\.alloc: shape must be a list of 1 to 4 extents/);
    expect(messageOf(() => rp.alloc([1, 1, 1, 1, 1]))).toMatch(/^TypeError: relpos\.alloc: shape/);
    expect(messageOf(() => rp.alloc([2, '3']))).toBe('TypeError: relpos.alloc: shape must hold numbers, got string');
    for (const bad of [[0], [2, 1.5], [-3], [NaN]]) {
      expect(messageOf(() => rp.alloc(bad))).toMatch(/^RangeError: relpos\.alloc: shape must hold positive integers/);
    }
    expect(messageOf(() => rp.alloc([32768, 32768]))).toMatch(
      /^RangeError: relpos\.alloc: shape \[32768, 32768\] holds/,
    );
  });

  it('free() gives the bytes back', () => {
    const before = rp.heapInUse();
    const B = rp.alloc([256, 256]);
    expect(rp.heapInUse()).toBeGreaterThanOrEqual(before + 256 * 256 * 4);
    expect(B.data.every((x) => x === 0)).toBe(true); // zero-filled
    B.free();
    expect(rp.heapInUse()).toBe(before);
  });

  it('the options read in place are those rp.operations marks inPlace', () => {
    const marked = rp.operations.flatMap((op) =>
      op.options.filter((o) => o.inPlace).map((o) => `${op.name}.${o.name}`),
    );
    expect(marked.sort()).toEqual([...IN_PLACE].map((name) => `attention.${name}`).sort());
  });
});

describe('rp.alloc: jobs, the pool and relpos/worker', () => {
  const values = biasValues(n * m);
  const want = rp.attention({ q, k, v, heads, B: tensor([n, m], values) });

  it('attentionAsync reads the values given at the call: the tensor may be freed while the job runs', async () => {
    const B = filled(rp, [n, m], values);
    const running = rp.attentionAsync({ q, k, v, heads, B });
    B.free();
    expectSameResult(await running, want);
  });

  it('a pool of workers is sent copies and gives the one-thread result', async () => {
    const B = filled(rp, [n, m], values);
    const running = rp.attentionAsync({ q, k, v, heads, B, workers: 2 });
    B.data.fill(Number.NaN); // refilled at once: the workers have their copies
    expectSameResult(await running, want);
    B.free();
    await expect(rp.attentionAsync({ q, k, v, heads, B, workers: 2 })).rejects.toThrow(
      /^relpos\.attentionAsync: B is an rp\.alloc tensor that was freed$/,
    );
  });

  it('relpos/worker refuses them (the worker has a heap of its own) and has no alloc', async () => {
    const client = createRelposWorker(new URL('./never-started.js', import.meta.url));
    const B = filled(rp, [n, m], values);
    await expect(client.attention({ q, k, B })).rejects.toThrow(
      /^relpos\.attention: B is an rp\.alloc tensor of another relpos instance \(a worker has its own wasm heap\)/,
    );
    await expect(client.attentionAsync({ q, k, params: { B }, workers: 2 })).rejects.toThrow(
      /^relpos\.attentionAsync: params\.B is an rp\.alloc tensor of another relpos instance/,
    );
    await expect(client.rotate(B)).rejects.toThrow(/^relpos\.rotate: argument 1 is an rp\.alloc tensor/);
    await expect(client.alloc([4])).rejects.toThrow(/^relpos\.alloc: not available through relpos\/worker/);
    await expect(client.call('alloc', [4])).rejects.toThrow(/^relpos\.alloc: not available through relpos\/worker/);
    B.free();
  });
});

// docs/attention.md, "As models run it": weights: false streams for every family — soft-cap
// (Gemma-2), sinks and a window (gpt-oss), chunks (Llama-4), value heads of their own width
// (DeepSeek) — so a call holds no block of rows × m logits, let alone n × m. Seen in a running job:
// after its first unit the job's scratch is what every later unit reuses, and the family's call
// holds no more of the heap than the same call without the family's option.
describe('weights: false streams for every family: nothing rows × m is held', () => {
  const [rows, keys, d] = [8, 1 << 16, 8]; // a block of 4 query rows × m keys would be 1 MiB
  const x = (count, seed) => wave(count, 0.37 + seed / 10, seed);
  const call = {
    q: tensor([rows, 2 * d], x(rows * 2 * d, 1)),
    k: tensor([keys, d], x(keys * d, 2)),
    v: tensor([keys, d], x(keys * d, 3)),
    heads: 2,
    kvHeads: 1,
    causal: true,
    scheme: 'rope',
    weights: false,
  };
  /** Heap bytes in use while the job is between its first and second unit. */
  async function heldDuring(options) {
    let held = null;
    const result = await rp.attentionAsync({
      ...options,
      onProgress: () => {
        held ??= rp.heapInUse();
      },
    });
    expect(result.weights).toBeUndefined();
    return held;
  }
  const deepseek = {
    ...call,
    v: tensor([keys, 4], x(keys * 4, 3)),
    scheme: 'rope-yarn',
    params: { factor: 40, rotaryDim: 4, startIndex: 4 },
  };
  const cases = [
    ['Gemma-2: soft-cap', call, { softcap: 50 }],
    ['gpt-oss: sinks and a window', call, { sinks: [0.5, -0.25], slidingWindow: 128 }],
    ['Llama-4: chunks', call, { attentionChunkSize: 1024 }],
    ['DeepSeek: value heads of their own width, partial rotation', deepseek, { valueHeadDim: 4 }],
  ];
  for (const [name, base, extra] of cases) {
    it(name, async () => {
      const plain = await heldDuring(base);
      const family = await heldDuring({ ...base, ...extra });
      expect(plain).toBeGreaterThan(0);
      // Well under one block of 4 rows × m floats (1 MiB): the online softmax's scratch only.
      expect(Math.abs(family - plain)).toBeLessThan(64 * 1024);
    });
  }
});
