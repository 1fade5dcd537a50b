// nope through the public API: listed in rp.schemes and rp.lab, attention with it is attention on
// content alone (bit for bit, in both builds), and the lab trains with it.
import { describe, expect, it } from 'vitest';
import { load } from '../../bindings/index.js';
import { expectTrainsInTheLab, mat } from './schemes.js';

const rp = await load({ analysis: true });
const baseline = await load({ simd: false });

describe('nope', () => {
  it('is in rp.schemes with bias, scores and attention, and in the lab', () => {
    const nope = rp.schemes.find((s) => s.id === 'nope');
    expect(nope.family).toBe('none');
    expect(nope.calls).toEqual(['bias', 'scores', 'attention']);
    expect(nope.cite).toMatch(/arXiv:2305\.19466/);
    expect(rp.lab.schemes.map((s) => s.id)).toContain('nope');
  });

  it('has a zero bias, -Infinity above the diagonal when causal', () => {
    const b = rp.bias('nope', { n: 4, heads: 2, causal: true });
    expect(b.shape).toEqual([1, 4, 4]); // the same map for every head: one, marked
    expect(b.sameForEveryHead).toBe(true);
    expect(Array.from(b.data.subarray(0, 8))).toEqual([0, -Infinity, -Infinity, -Infinity, 0, 0, -Infinity, -Infinity]);
  });

  it('attends on content alone: equal to attention without a scheme, bit for bit', () => {
    const options = { q: mat(5, 16, 0.7), k: mat(9, 16, 1.3), v: mat(9, 16, 0.5), heads: 2, causal: true };
    for (const build of [rp, baseline]) {
      const plain = build.attention(options);
      const nope = build.attention({ ...options, scheme: 'nope' });
      expect(Array.from(nope.weights.data)).toEqual(Array.from(plain.weights.data));
      expect(Array.from(nope.output.data)).toEqual(Array.from(plain.output.data));
      const alibi = build.attention({ ...options, scheme: 'alibi' });
      expect(Array.from(alibi.weights.data)).not.toEqual(Array.from(plain.weights.data));
    }
  });

  it('trains in the lab', () => expectTrainsInTheLab(rp, 'nope'));
});
