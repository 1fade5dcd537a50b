// Property-based tests (fast-check) of the JavaScript entries a page, a link or a user's paste can
// reach: the worker's message protocol (anything a client or a hostile page posts), the URL-hash
// state reader, and the config paste path (rp.fromConfig with any JSON or text). For each: it never
// throws anything but a TypeError or RangeError naming the function, never hangs, and leaves the
// module working. The worker runs in-process here (bindings/worker.js's serve() on a message-port
// pair with structured cloning, as a browser would); tests/browser/worker.test.js kills a real one.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { load } from '../../bindings/index.js';
import { createRelposWorker } from '../../bindings/worker-client.js';
import { serve } from '../../bindings/worker.js';
import { decodeHash, encodeHash } from '../../web/components/hash-state.js';

const RUNS = { protocol: 1000, client: 500, hash: 5000, config: 5000 };
let rp;
let baseline; // what a known call returns, to check the module still works

beforeAll(async () => {
  rp = await load({ analysis: true });
  baseline = Array.from(rp.bias('alibi', { n: 5, heads: 2 }).data);
});

const stillWorks = () => expect(Array.from(rp.bias('alibi', { n: 5, heads: 2 }).data)).toEqual(baseline);

/** A TypeError or RangeError whose message names a relpos function ("relpos.x: …", "relpos worker: …"). */
function expectNamedError(error, where) {
  expect(['TypeError', 'RangeError'], `${error?.name}: ${error?.message}`).toContain(error?.name);
  expect(error.message).toMatch(where);
}

/** Rejects when `promise` takes longer than `ms` (a hang). */
function within(ms, promise, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** A worker scope in-process: messages are structured-cloned both ways, as between threads. */
function workerPair() {
  const replies = [];
  const waiting = [];
  const scope = {
    closed: false,
    postMessage(message, transfer = []) {
      const copy = structuredClone(message, { transfer });
      replies.push(copy);
      for (const wake of waiting.splice(0)) wake();
    },
    close() {
      this.closed = true;
    },
  };
  serve(scope, { loadCore: () => rp });
  const post = (message) => scope.onmessage({ data: structuredClone(message) });
  /** Waits for the reply to call `id` (result or error; progress skipped). */
  async function reply(id) {
    for (;;) {
      const found = replies.find((r) => r.id === id && (r.type === 'result' || r.type === 'error'));
      if (found) return found;
      await new Promise((wake) => waiting.push(wake));
    }
  }
  return { scope, post, reply, replies };
}

// The methods a client can name, long-running jobs aside (their budgets are tested elsewhere).
const METHODS = ['bias', 'scores', 'buckets', 'encoding', 'frequencies', 'rotate', 'attention', 'fromConfig'];
const NAMES = ['version', 'simd', 'schemes', 'presets', 'heapInUse', 'analysis.svd', 'analysis.distances', 'lab.tasks'];
const LONG = ['attentionMap', 'runJob', 'lab.train'];
const schemeId = fc.constantFrom('alibi', 'rope', 't5', 'shaw', 'sinusoidal', 'cope', 'no-such-scheme');
const smallOptions = fc.dictionary(
  fc.constantFrom('n', 'heads', 'd', 'causal', 'base', 'alibiBiasMax', 'mode', 'view', '__proto__', 'q'),
  fc.oneof(fc.integer({ min: -3, max: 40 }), fc.double(), fc.boolean(), fc.string(), fc.constant(null)),
  { maxKeys: 5 },
);
const callArgs = fc.oneof(fc.tuple(schemeId, smallOptions), fc.array(fc.anything(), { maxLength: 4 }), fc.anything());
const message = fc.oneof(
  fc.anything(),
  fc.record({
    id: fc.oneof(fc.integer(), fc.string(), fc.anything()),
    type: fc.constantFrom('call', 'cancel', 'hello', 'progress', 'result', 'other'),
    method: fc.oneof(
      fc.constantFrom(...METHODS, ...NAMES, 'constructor', '__proto__', 'analysis', 'lab.x', 'a.b.c'),
      fc.string(),
    ),
    args: callArgs,
  }),
  // Long jobs as a client sends them: options last, marked to receive progress and a signal.
  fc.record({
    id: fc.integer(),
    type: fc.constant('call'),
    method: fc.constantFrom(...LONG),
    args: fc.oneof(
      fc.array(fc.oneof(fc.string(), fc.integer(), fc.constant(null)), { minLength: 1, maxLength: 2 }),
      smallOptions.map((options) => [{ ...options, __relposControl: true }]),
      fc.constant([{ __relposControl: true }]),
    ),
  }),
);

describe('the worker protocol takes any message', { timeout: 120000 }, () => {
  it(`answers every call with a result or a named TypeError/RangeError, ignores the rest, and keeps working (${RUNS.protocol} runs)`, async () => {
    const worker = workerPair();
    let id = 0;
    await fc.assert(
      fc.asyncProperty(message, async (raw) => {
        // A call gets a fresh id so its answer can be found; any other message is posted as is.
        const isCall = Boolean(raw) && typeof raw === 'object' && raw.type === 'call';
        const sent = isCall ? { ...raw, id: `run-${++id}` } : raw;
        expect(() => worker.post(sent)).not.toThrow();
        if (isCall) {
          // A valid long job runs until cancelled, as a page would cancel it: it must stop promptly.
          const long = LONG.includes(sent.method);
          if (long) setTimeout(() => worker.post({ id: sent.id, type: 'cancel' }), 20);
          const answer = await within(10000, worker.reply(sent.id), `call ${String(sent.method).slice(0, 40)}`);
          if (answer.type === 'error' && !(long && answer.error.name === 'AbortError')) {
            expectNamedError(answer.error, /^relpos[ .]/);
          }
        }
        expect(worker.scope.closed).toBe(false);
        worker.post({ id: `check-${id}`, type: 'call', method: 'bias', args: ['alibi', { n: 5, heads: 2 }] });
        const check = await within(10000, worker.reply(`check-${id}`), 'the check call');
        expect(Array.from(check.result.data)).toEqual(baseline);
      }),
      { numRuns: RUNS.protocol },
    );
    stillWorks();
  });

  it('a trap in the core answers the call, then says fatal and closes the worker', async () => {
    const broken = Object.create(rp);
    broken.bias = () => {
      throw new WebAssembly.RuntimeError('unreachable');
    };
    const replies = [];
    const scope = { postMessage: (m) => replies.push(structuredClone(m)), close: () => (scope.closed = true) };
    serve(scope, { loadCore: () => broken });
    scope.onmessage({ data: { id: 1, type: 'call', method: 'bias', args: ['alibi', { n: 4 }] } });
    await within(5000, new Promise((resolve) => setTimeout(resolve, 50)), 'the trap');
    expect(replies[0]).toMatchObject({ id: 1, type: 'error' });
    expect(replies[0].error.message).toMatch(/^relpos worker: the core failed in bias .*next call starts a fresh one/);
    expect(replies[1]).toMatchObject({ type: 'fatal' });
    expect(scope.closed).toBe(true);
    scope.onmessage({ data: { id: 2, type: 'call', method: 'bias', args: ['alibi', { n: 4 }] } });
    expect(replies).toHaveLength(2); // a closed worker takes nothing more
  });
});

/** A Worker class for Node running serve() in-process; `kill()` ends it without a word. */
function installFakeWorker() {
  const workers = [];
  globalThis.Worker = class {
    constructor() {
      this.scope = {
        postMessage: (m, transfer = []) => {
          if (!this.dead) queueMicrotask(() => this.onmessage?.({ data: structuredClone(m, { transfer }) }));
        },
        close: () => this.kill(),
      };
      serve(this.scope, { loadCore: () => rp });
      workers.push(this);
    }
    postMessage(m) {
      const copy = structuredClone(m); // throws DataCloneError as a browser would
      if (!this.dead) queueMicrotask(() => this.scope.onmessage({ data: copy }));
    }
    terminate() {
      this.dead = true;
    }
    kill() {
      this.dead = true;
      this.onerror?.({ message: 'killed', preventDefault() {} });
    }
  };
  return workers;
}

describe('the worker client takes any call', { timeout: 120000 }, () => {
  it(`settles every call with a result or a named TypeError/RangeError (${RUNS.client} runs)`, async () => {
    installFakeWorker();
    const client = createRelposWorker('fake.js');
    const args = fc.array(fc.oneof(fc.anything(), fc.func(fc.anything()), smallOptions), { maxLength: 3 });
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...METHODS, ...NAMES, 'nope', 'analysis.nope'), args, async (method, rest) => {
        const outcome = await within(
          10000,
          client.call(method, ...rest).then(
            () => null,
            (e) => e,
          ),
          method,
        );
        if (outcome) expectNamedError(outcome, /^relpos[ .]/);
      }),
      { numRuns: RUNS.client },
    );
    expect(Array.from((await client.bias('alibi', { n: 5, heads: 2 })).data)).toEqual(baseline);
    client.terminate();
  });

  it('rejects pending calls when the worker dies, and the next call starts a fresh worker', async () => {
    const workers = installFakeWorker();
    const client = createRelposWorker('fake.js');
    await client.version;
    const pending = client.call('bias', 'alibi', { n: 5, heads: 2 });
    workers[0].kill(); // before it answers
    await expect(pending).rejects.toThrow(
      /^relpos worker: killed; pending calls failed, the next call starts a fresh worker/,
    );
    expect(Array.from((await client.bias('alibi', { n: 5, heads: 2 })).data)).toEqual(baseline);
    expect(workers).toHaveLength(2);
    client.terminate();
    delete globalThis.Worker;
  });
});

describe('the URL-hash reader takes any hash', () => {
  const schema = {
    scheme: { type: 'choice', choices: ['alibi', 'rope', 't5'] },
    n: { type: 'integer', min: 1, max: 4096 },
    lr: { type: 'number', min: 0, max: 1 },
    causal: { type: 'boolean' },
    label: { type: 'string' },
  };
  const prefixes = {
    'p.': (name) => {
      if (name === 'boom') throw new Error('a broken prefix rule');
      return name.length < 4 ? { type: 'number', min: -10, max: 10 } : undefined;
    },
  };
  const piece = fc.tuple(
    fc.oneof(
      fc.constantFrom('scheme', 'n', 'lr', 'causal', 'label', 'p.a', 'p.boom', 'p.', '__proto__', 'constructor'),
      fc.string(),
    ),
    fc.oneof(
      fc.string(),
      fc.string({ unit: 'binary' }),
      fc.constantFrom('%', '%E0%A4%A', '1e3', '-0', 'NaN', 'true', '<b>'),
    ),
  );
  const hash = fc.oneof(
    fc.anything(),
    fc.string({ unit: 'binary', maxLength: 5000 }),
    fc.array(piece, { maxLength: 12 }).map((pairs) => `#${pairs.map(([k, v]) => `${k}=${v}`).join('&')}`),
  );
  const fits = (value, spec) => {
    if (spec.type === 'choice') return spec.choices.includes(value);
    if (spec.type === 'boolean') return typeof value === 'boolean';
    if (spec.type === 'string') return typeof value === 'string' && /^[A-Za-z0-9_.,:+-]{0,128}$/.test(value);
    return (
      Number.isFinite(value) &&
      value >= spec.min &&
      value <= spec.max &&
      (spec.type !== 'integer' || Number.isInteger(value))
    );
  };

  it(`never throws and returns only what the schema allows; encode ∘ decode is stable (${RUNS.hash} runs)`, () => {
    fc.assert(
      fc.property(hash, (text) => {
        const state = decodeHash(text, schema, prefixes);
        expect(Object.getPrototypeOf(state)).toBe(null);
        for (const [key, value] of Object.entries(state)) {
          const spec = schema[key] ?? (key.startsWith('p.') ? prefixes['p.'](key.slice(2)) : undefined);
          expect(spec, key).toBeDefined();
          expect(fits(value, spec), `${key} = ${JSON.stringify(value)}`).toBe(true);
        }
        expect({ ...decodeHash(encodeHash(state), schema, prefixes) }).toEqual({ ...state });
      }),
      { numRuns: RUNS.hash },
    );
  });
});

describe('the config paste path takes any JSON or text', { timeout: 120000 }, () => {
  const keys = [
    'model_type',
    'num_attention_heads',
    'n_head',
    'hidden_size',
    'head_dim',
    'rope_theta',
    'rope_scaling',
    'rope_type',
    'factor',
    'max_position_embeddings',
    'original_max_position_embeddings',
    'rotary_pct',
    'rotary_dim',
    'partial_rotary_factor',
    'alibi',
    'relative_attention_num_buckets',
    'position_buckets',
    'attn_config',
    '__proto__',
  ];
  const value = fc.oneof(
    fc.constantFrom(
      'llama',
      'bloom',
      't5',
      'gpt_neox',
      'yarn',
      'linear',
      'dynamic',
      'longrope',
      'llama3',
      'mpt',
      'deberta-v2',
    ),
    fc.integer({ min: -5, max: 1 << 20 }),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(fc.double(), { maxLength: 70 }),
  );
  const nested = fc.dictionary(fc.constantFrom(...keys), value, { maxKeys: 6 });
  const config = fc.dictionary(fc.constantFrom(...keys), fc.oneof(value, nested), { maxKeys: 10 });
  const input = fc.oneof(
    config,
    config.map((c) => JSON.stringify(c)),
    fc.json(),
    fc.jsonValue(),
    fc.string({ unit: 'binary', maxLength: 3000 }),
    fc.anything(),
  );

  it(`returns a reading or throws a TypeError/RangeError naming relpos.fromConfig, quickly, and the module keeps working (${RUNS.config} runs)`, () => {
    const heap = rp.heapInUse();
    fc.assert(
      fc.property(input, (pasted) => {
        const started = performance.now();
        try {
          const reading = rp.fromConfig(pasted);
          expect(rp.schemes.some((s) => s.id === reading.scheme)).toBe(true);
          expect(Array.isArray(reading.warnings)).toBe(true);
        } catch (error) {
          expectNamedError(error, /^relpos\.fromConfig: /);
        }
        expect(performance.now() - started).toBeLessThan(1000);
      }),
      { numRuns: RUNS.config },
    );
    stillWorks();
    expect(rp.heapInUse()).toBe(heap);
  });
});
