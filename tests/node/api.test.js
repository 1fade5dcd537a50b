// The public API of spec/api.md, end to end through the real wasm build.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { load, version } from '../../bindings/index.js';

const rp = await load();
const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));

describe('load', () => {
  it('returns one instance, reports the version and runs the SIMD build where SIMD validates', async () => {
    expect(await load()).toBe(rp);
    expect(rp.version).toBe(pkg.version);
    expect(version).toBe(pkg.version);
    expect(rp.simd).toBe(true); // Node 20's V8 supports SIMD128
  });

  it('the baseline build gives the same results as the SIMD build', async () => {
    const baseline = await load({ simd: false });
    expect(baseline.simd).toBe(false);
    expect(baseline).not.toBe(rp);
    const options = { n: 24, heads: 3, causal: true };
    expect(baseline.bias('alibi', options)).toEqual(rp.bias('alibi', options));
    const x = { shape: [3, 8], data: Float32Array.from({ length: 24 }, (_, i) => Math.sin(i)) };
    expect(baseline.rotate(x, { positions: [5, 900, 70000] })).toEqual(rp.rotate(x, { positions: [5, 900, 70000] }));
  });

  it('the SIMD and scalar attention kernels agree bit for bit', async () => {
    const baseline = await load({ simd: false });
    const random = (rows, cols, seed) => ({
      shape: [rows, cols],
      data: Float32Array.from({ length: rows * cols }, (_, i) => Math.sin(seed * 1e3 + i * 12.9898) * 2),
    });
    for (const [n, m, heads, dh] of [
      [37, 37, 2, 16],
      [5, 29, 3, 8],
      [64, 64, 1, 64],
    ]) {
      const q = random(n, heads * dh, 1);
      const k = random(m, heads * dh, 2);
      const v = random(m, heads * 5, 3);
      for (const scheme of ['alibi', 'rope', 't5', 'sinusoidal']) {
        const options = { q, k, v, heads, scheme, causal: true };
        const simd = rp.attention(options);
        const scalar = baseline.attention(options);
        expect(simd.weights.data, `${scheme} ${n}x${m}`).toEqual(scalar.weights.data);
        expect(simd.output.data, `${scheme} ${n}x${m}`).toEqual(scalar.output.data);
      }
    }
  });
});

describe('rp.schemes', () => {
  it('describes every scheme with family, citation and parameter metadata', () => {
    expect(rp.schemes.length).toBeGreaterThanOrEqual(3);
    for (const s of rp.schemes) {
      expect(s.id).toMatch(/^[a-z0-9-]+$/);
      expect(s.family.length).toBeGreaterThan(0);
      expect(s.cite.length).toBeGreaterThan(0);
      expect(s.calls.length).toBeGreaterThan(0);
      for (const [name, p] of Object.entries(s.params)) {
        expect(p, `${s.id}.${name}`).toHaveProperty('default');
        expect(p).toHaveProperty('min');
        expect(p).toHaveProperty('max');
        expect(typeof p.integer).toBe('boolean');
        expect(p.doc.length, `${s.id}.${name} doc`).toBeGreaterThan(0);
      }
    }
    const rope = rp.schemes.find((s) => s.id === 'rope');
    expect(rope.params.base.default).toBe(10000);
    expect(rope.params.layout.choices).toEqual(['half', 'interleaved']);
  });

  it('is frozen, so callers cannot corrupt it', () => {
    expect(Object.isFrozen(rp.schemes)).toBe(true);
    expect(Object.isFrozen(rp.schemes[0].params)).toBe(true);
  });
});

describe('encoding("sinusoidal")', () => {
  it('interleaves sin/cos by default and concatenates halves with layout "concat"', () => {
    const inter = rp.encoding('sinusoidal', { n: 3, d: 4 });
    const concat = rp.encoding('sinusoidal', { n: 3, d: 4, layout: 'concat' });
    const w1 = 10000 ** (-2 / 4);
    expect(inter.shape).toEqual([3, 4]);
    expect(Array.from(inter.data.subarray(8, 12))).toEqual(
      [Math.sin(2), Math.cos(2), Math.sin(2 * w1), Math.cos(2 * w1)].map(Math.fround),
    );
    expect(Array.from(concat.data.subarray(8, 12))).toEqual(
      [Math.sin(2), Math.sin(2 * w1), Math.cos(2), Math.cos(2 * w1)].map(Math.fround),
    );
  });
});

describe('bias("alibi")', () => {
  it('has slopes 1/2 … 1/256 for 8 heads and a symmetric −m|j − i| bias', () => {
    expect(Array.from(rp.bias('alibi', { heads: 8, output: 'slopes' }).data)).toEqual(
      [1, 2, 3, 4, 5, 6, 7, 8].map((t) => 2 ** -t),
    );
    const b = rp.bias('alibi', { n: 5, heads: 8 });
    expect(b.shape).toEqual([8, 5, 5]);
    expect(b.data[0 * 25 + 1 * 5 + 4]).toBeCloseTo(-3 / 2, 7);
    expect(b.data[0 * 25 + 4 * 5 + 1]).toBeCloseTo(-3 / 2, 7);
    expect(Object.is(b.data[7 * 25 + 2 * 5 + 2], 0)).toBe(true);
  });

  it('keyPosition form is m·j; causal puts −Infinity above the diagonal', () => {
    const b = rp.bias('alibi', { n: 4, heads: 1, form: 'keyPosition', causal: true });
    expect(Array.from(b.data.subarray(12, 16))).toEqual([0, 1, 2, 3].map((j) => j / 256));
    expect(b.data[1]).toBe(-Infinity);
    expect(b.data[4]).toBe(0);
  });

  it('works for any head count', () => {
    for (const heads of [1, 3, 5, 12, 33, 100]) {
      const slopes = rp.bias('alibi', { heads, output: 'slopes' }).data;
      expect(slopes.length).toBe(heads);
      expect(new Set(slopes).size).toBe(heads);
    }
  });
});

describe('frequencies("rope") and rotate', () => {
  it('returns θ_k = base^(−2k/d)', () => {
    const { invFreq, attentionFactor } = rp.frequencies('rope', { d: 8, base: 100 });
    expect(Array.from(invFreq)).toEqual([0, 1, 2, 3].map((k) => Math.fround(100 ** ((-2 * k) / 8))));
    expect(attentionFactor).toBe(1);
  });

  it('rotates pairs (x_k, x_{k+d/2}) in half layout and (x_2k, x_2k+1) interleaved', () => {
    const x = { shape: [1, 4], data: [1, 0, 0, 0] };
    const half = rp.rotate(x, { positions: [1] }).data;
    const inter = rp.rotate(x, { positions: [1], layout: 'interleaved' }).data;
    expect(Array.from(half)).toEqual([Math.cos(1), 0, Math.sin(1), 0].map(Math.fround));
    expect(Array.from(inter)).toEqual([Math.cos(1), Math.sin(1), 0, 0].map(Math.fround));
  });

  it('passes dims past rotaryDim through unchanged', () => {
    const x = { shape: [2, 6], data: [1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6] };
    const y = rp.rotate(x, { rotaryDim: 4, positions: [3, 7] }).data;
    expect(Array.from(y.subarray(4, 6))).toEqual([5, 6]);
    expect(Array.from(y.subarray(10, 12))).toEqual([5, 6]);
  });

  it('keeps its accuracy at position 1,000,000 (angles formed in float64)', () => {
    const x = { shape: [1, 2], data: [1, 0] };
    const y = rp.rotate(x, { positions: [1_000_000] }).data;
    expect(y[0]).toBeCloseTo(Math.cos(1_000_000), 6);
    expect(y[1]).toBeCloseTo(Math.sin(1_000_000), 6);
  });
});

describe('scores', () => {
  it('RoPE scores are translation invariant: S[i, j] = s(j − i)', () => {
    const n = 12;
    const s = rp.scores('rope', { n, d: 16 }).data;
    for (let i = 0; i + 1 < n; i++) {
      for (let j = 0; j + 1 < n; j++) expect(s[(i + 1) * n + j + 1]).toBeCloseTo(s[i * n + j], 4);
    }
  });

  it('ALiBi scores equal its bias and sinusoidal scores are PE(i)·PE(j)', () => {
    expect(rp.scores('alibi', { n: 6, heads: 2 })).toEqual(rp.bias('alibi', { n: 6, heads: 2 }));
    const pe = rp.encoding('sinusoidal', { n: 4, d: 8 }).data;
    const s = rp.scores('sinusoidal', { n: 4, d: 8 }).data;
    let dot = 0;
    for (let c = 0; c < 8; c++) dot += pe[8 + c] * pe[24 + c];
    expect(s[1 * 4 + 3]).toBeCloseTo(dot, 5);
  });
});

describe('attention (explicit)', () => {
  const q = { shape: [3, 2], data: [1, 0, 0, 1, 1, 1] };
  const k = { shape: [3, 2], data: [1, 0, 0, 1, -1, 0] };
  const v = { shape: [3, 1], data: [1, 2, 3] };

  it('adds a given B and normalises every row', () => {
    const B = { shape: [3, 3], data: [0, -1, -2, -1, 0, -1, -2, -1, 0] };
    const { weights, output } = rp.attention({ q, k, v, B });
    expect(weights.shape).toEqual([1, 3, 3]);
    expect(output.shape).toEqual([3, 1]);
    for (let i = 0; i < 3; i++) {
      const row = Array.from(weights.data.subarray(i * 3, i * 3 + 3));
      expect(row.reduce((a, b) => a + b)).toBeCloseTo(1, 6);
      const logits = [0, 1, 2].map(
        (j) => (q.data[2 * i] * k.data[2 * j] + q.data[2 * i + 1] * k.data[2 * j + 1]) / Math.SQRT2 + B.data[3 * i + j],
      );
      const z = logits.map((l) => Math.exp(l - Math.max(...logits)));
      const total = z.reduce((a, b) => a + b);
      row.forEach((w, j) => expect(w).toBeCloseTo(z[j] / total, 6));
    }
  });

  it('with an ALiBi scheme equals explicit attention with its bias', () => {
    const viaScheme = rp.attention({ q, k, v, scheme: 'alibi', causal: true });
    const B = rp.bias('alibi', { n: 3, heads: 1 });
    const viaB = rp.attention({ q, k, v, B, causal: true });
    expect(viaScheme.weights.data).toEqual(viaB.weights.data);
    expect(viaScheme.weights.data[1]).toBe(0); // causal: masked keys get weight exactly 0
  });

  it('returns no output without v', () => {
    expect(rp.attention({ q, k, B: { shape: [3, 3], data: new Float32Array(9) } })).not.toHaveProperty('output');
  });
});

describe('zero-copy views', () => {
  it('view: true returns views into the wasm heap, equal to the copies and valid until the next call', () => {
    const copy = rp.bias('alibi', { n: 32, heads: 2 });
    const view = rp.bias('alibi', { n: 32, heads: 2, view: true });
    expect(view.data.buffer.byteLength).toBeGreaterThan(view.data.byteLength); // the heap, not a fresh buffer
    expect(Array.from(view.data)).toEqual(Array.from(copy.data));
    const q = { shape: [8, 4], data: Float32Array.from({ length: 32 }, (_, i) => Math.cos(i)) };
    const copied = rp.attention({ q, k: q, v: q, scheme: 'alibi' });
    const viewed = rp.attention({ q, k: q, v: q, scheme: 'alibi', view: true });
    expect(Array.from(viewed.weights.data)).toEqual(Array.from(copied.weights.data));
    expect(Array.from(viewed.output.data)).toEqual(Array.from(copied.output.data));
    expect(() => rp.bias('alibi', { n: 4, view: 'yes' })).toThrow(/relpos\.bias: view must be a boolean/);
  });
});

describe('results', () => {
  it('are fresh JS-owned arrays that later calls never change', () => {
    const a = rp.bias('alibi', { n: 8, heads: 2 });
    const snapshot = Float32Array.from(a.data);
    expect(a.data.buffer.byteLength).toBe(a.data.byteLength); // not a view into the wasm heap
    a.data.fill(42);
    rp.bias('alibi', { n: 512, heads: 16 }); // may grow the heap
    expect(rp.bias('alibi', { n: 8, heads: 2 }).data).toEqual(snapshot);
  });
});
