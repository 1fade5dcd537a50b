// Load: 100,000 mixed calls in one instance — valid ones with sizes drawn at random within small
// limits, and invalid ones of every kind the API refuses — from a seeded generator. Every invalid call
// must raise a TypeError / RangeError naming its function; valid results are checked against float64
// references on a sample; afterwards the wasm heap is back at its level and the instance still
// computes golden values. Small sizes keep it well under a minute on two shared cores.
import { describe, expect, it } from 'vitest';
import { load } from '../../bindings/index.js';
import { callFor, compare, goldenCases } from './golden.js';

const rp = await load();
const CALLS = 100_000;
const SAMPLE_EVERY = 50; // valid results checked against the float64 reference

// mulberry32: a small seeded generator, so a failure replays exactly.
function generator(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// ---- float64 references (docs/conventions.md, docs/rotary.md, docs/attention.md) ----

const alibiSlopes = (heads) => Array.from({ length: heads }, (_, h) => 2 ** ((-8 * (h + 1)) / heads));

function alibiBias(n, heads, causal) {
  const m = alibiSlopes(heads);
  const out = [];
  for (let h = 0; h < heads; h++) {
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) out.push(causal && j > i ? -Infinity : -m[h] * Math.abs(j - i));
    }
  }
  return out;
}

const ropeInvFreq = (d, base) => Array.from({ length: d / 2 }, (_, k) => base ** ((-2 * k) / d));

// Half layout: pair k is (x_k, x_{k+d/2}), turned by position · θ_k.
function ropeRotate(rows, d, positions, base) {
  const theta = ropeInvFreq(d, base);
  return rows.flatMap((row, i) => {
    const out = row.slice();
    for (let k = 0; k < d / 2; k++) {
      const angle = positions[i] * theta[k];
      const [c, s] = [Math.cos(angle), Math.sin(angle)];
      out[k] = row[k] * c - row[k + d / 2] * s;
      out[k + d / 2] = row[k] * s + row[k + d / 2] * c;
    }
    return out;
  });
}

// softmax(Q K^T / sqrt(dh) + B) V per head, causal optional; B [heads, n, m] or null.
function attention(q, k, v, heads, bias, causal) {
  const n = q.length;
  const m = k.length;
  const dh = q[0].length / heads;
  const dv = v[0].length / heads;
  const weights = [];
  const output = Array.from({ length: n }, () => new Array(heads * dv).fill(0));
  for (let h = 0; h < heads; h++) {
    for (let i = 0; i < n; i++) {
      const logits = [];
      for (let j = 0; j < m; j++) {
        let dot = 0;
        for (let c = 0; c < dh; c++) dot += q[i][h * dh + c] * k[j][h * dh + c];
        const masked = causal && j > i + (m - n);
        logits.push(masked ? -Infinity : dot / Math.sqrt(dh) + (bias ? bias[(h * n + i) * m + j] : 0));
      }
      const top = Math.max(...logits);
      // A row whose every key is masked is all zeros (docs/conventions.md).
      const e = logits.map((x) => (top === -Infinity ? 0 : Math.exp(x - top)));
      const sum = e.reduce((a, b) => a + b, 0);
      const row = e.map((x) => (sum > 0 ? x / sum : 0));
      weights.push(...row);
      for (let j = 0; j < m; j++) {
        for (let c = 0; c < dv; c++) output[i][h * dv + c] += row[j] * v[j][h * dv + c];
      }
    }
  }
  return { weights, output: output.flat() };
}

function close(got, want, tolerance = 2e-5) {
  if (got.length !== want.length) return `length ${got.length} ≠ ${want.length}`;
  for (let t = 0; t < got.length; t++) {
    if (
      want[t] === -Infinity
        ? got[t] !== -Infinity
        : !(Math.abs(got[t] - want[t]) <= tolerance * (1 + Math.abs(want[t])))
    ) {
      return `entry ${t}: ${got[t]} ≠ ${want[t]}`;
    }
  }
  return null;
}

// ---- the calls ----

function makeCalls(random) {
  const int = (lo, hi) => lo + Math.floor(random() * (hi - lo + 1));
  const pick = (list) => list[int(0, list.length - 1)];
  const matrix = (rows, cols) =>
    Array.from({ length: rows }, () => Array.from({ length: cols }, () => random() * 2 - 1));
  const f32 = (rows) => rows.map((r) => Array.from(Float32Array.from(r))); // what the core sees
  const tensor = (rows) => ({ shape: [rows.length, rows[0].length], data: Float32Array.from(rows.flat()) });

  // Each valid call: [run, reference or null] — the reference from the float32 inputs, in float64.
  const valid = [
    () => {
      const [n, heads, causal] = [int(1, 16), pick([1, 2, 4, 8]), random() < 0.5];
      return [() => rp.bias('alibi', { n, heads, causal }).data, () => alibiBias(n, heads, causal)];
    },
    () => {
      const [d, base] = [2 * int(1, 8), pick([10000, 500000, 1e6])];
      return [() => rp.frequencies('rope', { d, base }).invFreq, () => ropeInvFreq(d, base)];
    },
    () => {
      const [n, d] = [int(1, 12), 2 * int(1, 8)];
      const x = f32(matrix(n, d));
      const positions = Array.from({ length: n }, () => int(0, 4096));
      return [() => rp.rotate(tensor(x), { positions }).data, () => ropeRotate(x, d, positions, 10000)];
    },
    () => {
      const [n, m, heads, dh, causal] = [int(1, 8), int(1, 8), pick([1, 2]), pick([2, 4, 8]), random() < 0.5];
      const [q, k, v] = [f32(matrix(n, heads * dh)), f32(matrix(m, heads * dh)), f32(matrix(m, heads * dh))];
      const B = Array.from(Float32Array.from({ length: heads * n * m }, () => random() * 2 - 1));
      return [
        () => {
          const r = rp.attention({
            q: tensor(q),
            k: tensor(k),
            v: tensor(v),
            heads,
            causal,
            B: { shape: [heads, n, m], data: B },
          });
          return [...r.weights.data, ...r.output.data];
        },
        () => {
          const r = attention(q, k, v, heads, B, causal);
          return [...r.weights, ...r.output];
        },
      ];
    },
    () => {
      const [n, heads, dh] = [int(1, 8), pick([1, 2, 4]), pick([2, 4])];
      const [q, k, v] = [f32(matrix(n, heads * dh)), f32(matrix(n, heads * dh)), f32(matrix(n, heads * dh))];
      return [
        () => {
          const r = rp.attention({ q: tensor(q), k: tensor(k), v: tensor(v), heads, scheme: 'alibi', causal: true });
          return [...r.weights.data, ...r.output.data];
        },
        () => {
          const r = attention(q, k, v, heads, alibiBias(n, heads, false), true);
          return [...r.weights, ...r.output];
        },
      ];
    },
    // Further schemes and calls without a reference here (their values are golden-tested elsewhere).
    () => [() => rp.buckets('t5', { n: int(1, 16), numBuckets: pick([8, 16, 32]) }).data, null],
    () => [() => rp.encoding('sinusoidal', { n: int(1, 16), d: 2 * int(1, 8) }).data, null],
    () => [
      () => rp.scores(pick(['rope', 'xpos', 'rope-yarn', 'sinusoidal']), { n: int(1, 12), d: 2 * int(1, 8) }).data,
      null,
    ],
    () => {
      const [id, own] = pick([
        ['t5', {}],
        ['kerple-power', { r1: 1 }],
        ['sandwich', {}],
        ['fire', {}],
        ['exp-decay', {}],
      ]);
      return [() => rp.bias(id, { n: int(1, 12), heads: int(1, 4), ...own }).data, null];
    },
  ];

  // Each invalid call: a call the API must refuse with TypeError / RangeError naming the function.
  const invalid = [
    () => ['relpos.bias', () => rp.bias('alibi', { n: pick([0, -1, 2.5, NaN, Infinity]) })],
    () => ['relpos.bias', () => rp.bias(pick(['ALiBi', 'bogus', '']), { n: 4 })],
    () => ['relpos.frequencies', () => rp.frequencies('rope', { d: 8, theta: 10000 })],
    () => ['relpos.frequencies', () => rp.frequencies('rope', { d: int(1, 8) * 2 + 1 })],
    () => ['relpos.rotate', () => rp.rotate({ shape: [2, 4], data: new Float32Array(int(0, 7)) })],
    () => ['relpos.rotate', () => rp.rotate([[1, 2], [3]])],
    () => ['relpos.attention', () => rp.attention({ q: [[1, 2]], k: [[1, 2, 3]] })],
    () => ['relpos.attention', () => rp.attention({ q: [[1, 0]], k: [[1, 0]], mode: 'implicit' })],
    () => ['relpos.attention', () => rp.attention({ q: [[1, 0]], k: [[1, 0]], sheme: 'rope' })],
    () => ['relpos.scores', () => rp.scores('rope', { n: 4096, d: 2048 })], // over the work budget
    () => ['relpos.bias', () => rp.bias('alibi', { n: 8193, heads: 1 })], // over the result limit
    () => ['relpos.encoding', () => rp.encoding('alibi', { n: 4, d: 4 })],
    () => ['relpos.buckets', () => rp.buckets('t5', { n: 4, causal: 'yes' })],
  ];
  return { valid, invalid };
}

describe('soak', () => {
  it(`${CALLS.toLocaleString('en-US')} mixed valid and invalid calls: errors named, sampled results equal the float64 reference, the heap returns`, () => {
    const random = generator(20240617);
    const { valid, invalid } = makeCalls(random);
    const reference = goldenCases().find((c) => c.file.startsWith('041_rope_rotate'));
    rp.bias('alibi', { n: 16, heads: 8 }); // warm the allocator's pools
    const heapBefore = rp.heapInUse();
    const counts = { valid: 0, invalid: 0, checked: 0 };
    const problems = [];
    const started = performance.now();
    for (let call = 0; call < CALLS && problems.length < 10; call++) {
      if (random() < 0.7) {
        const [run, want] = valid[Math.floor(random() * valid.length)]();
        const got = run();
        counts.valid++;
        if (want && counts.valid % SAMPLE_EVERY === 0) {
          const problem = close(Array.from(got), want());
          counts.checked++;
          if (problem) problems.push(`call ${call}: ${problem}`);
        }
      } else {
        const [where, run] = invalid[Math.floor(random() * invalid.length)]();
        counts.invalid++;
        try {
          run();
          problems.push(`call ${call}: an invalid ${where} call returned`);
        } catch (error) {
          if (!(error instanceof TypeError || error instanceof RangeError) || !error.message.startsWith(`${where}: `)) {
            problems.push(`call ${call}: ${error.constructor.name}: ${error.message}`);
          }
        }
      }
    }
    const seconds = (performance.now() - started) / 1000;
    const heapAfter = rp.heapInUse();
    console.log(
      `soak: ${counts.valid} valid (${counts.checked} checked against float64) and ${counts.invalid} invalid calls in ${seconds.toFixed(1)} s; wasm heap in use ${heapBefore} B before, ${heapAfter} B after`,
    );
    expect(problems, problems.join('\n')).toEqual([]);
    expect(counts.valid + counts.invalid).toBe(CALLS);
    expect(counts.checked).toBeGreaterThan(500);
    expect(heapAfter).toBe(heapBefore);
    const got = callFor(reference)(rp);
    expect(compare(Array.from(got.data), reference.data, reference.tol).ok).toBe(true);
  }, 180000);
});
