// p-rope through the public API (docs/rotary.md): p = 1 is rope bit for bit in every call and both
// builds, p = 0 attends like nope, and the lab trains with it.
import { describe, expect, it } from 'vitest';
import { load } from '../../bindings/index.js';
import { expectTrainsInTheLab, mat } from './schemes.js';

const rp = await load();
const baseline = await load({ simd: false });
const same = (a, b) => expect(Array.from(a.data ?? a)).toEqual(Array.from(b.data ?? b));

describe('p-rope', () => {
  it('is a rotary scheme with p = 0.75 by default', () => {
    const info = rp.schemes.find((s) => s.id === 'p-rope');
    expect(info.calls).toEqual(['encoding', 'frequencies', 'rotate', 'scores', 'attention']);
    expect(info.params.p).toMatchObject({ default: 0.75, min: 0, max: 1 });
    expect(info.cite).toMatch(/arXiv:2410\.06205/);
  });

  it('with p = 1 equals rope bit for bit: frequencies, rotate, the cos cache, scores, attention', () => {
    const x = mat(6, 32, 0.9);
    const attention = { q: mat(5, 32, 0.7), k: mat(9, 32, 1.3), heads: 2, causal: true };
    for (const build of [rp, baseline]) {
      same(build.frequencies('p-rope', { d: 32, p: 1 }).invFreq, build.frequencies('rope', { d: 32 }).invFreq);
      same(
        build.rotate(x, { scheme: 'p-rope', p: 1, positions: [0, 5, 2, 1e5, 7, 3] }),
        build.rotate(x, { positions: [0, 5, 2, 1e5, 7, 3] }),
      );
      same(build.encoding('p-rope', { n: 8, d: 16, p: 1 }), build.encoding('rope', { n: 8, d: 16 }));
      same(build.scores('p-rope', { n: 16, d: 16, p: 1 }), build.scores('rope', { n: 16, d: 16 }));
      same(
        build.attention({ ...attention, scheme: 'p-rope', params: { p: 1 } }).weights,
        build.attention({ ...attention, scheme: 'rope' }).weights,
      );
    }
  });

  it('with p = 0 attends like nope, bit for bit', () => {
    const options = { q: mat(5, 32, 0.7), k: mat(9, 32, 1.3), v: mat(9, 32, 0.4), heads: 2, causal: true };
    const zero = rp.attention({ ...options, scheme: 'p-rope', params: { p: 0 } });
    const nope = rp.attention({ ...options, scheme: 'nope' });
    same(zero.weights, nope.weights);
    same(zero.output, nope.output);
    expect(Array.from(rp.attention({ ...options, scheme: 'p-rope' }).weights.data)).not.toEqual(
      Array.from(nope.weights.data),
    );
  });

  it('trains in the lab', () => expectTrainsInTheLab(rp, 'p-rope'));
});
