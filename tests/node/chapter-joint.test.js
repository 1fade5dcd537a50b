// Readouts and verdicts of 2.1.1–2.1.6 that are not claim sentences, checked over the joint domain of
// their figure's controls (tests/node/joint-domain.js), with the functions the page calls.
import { describe, expect, it } from 'vitest';
import { load } from '../../bindings/index.js';
import {
  CLASSIFICATION_CONTROLS,
  classificationOptions,
  gapVerdict,
  invariance,
  invarianceVerdict,
  permutationGap,
  shuffleOrder,
} from '../../web/tutorial/verdicts.js';
import { controlValues } from '../../web/tutorial/claims.js';
import { forJointDomain } from './joint-domain.js';

const rp = await load({ analysis: true });

describe('2.1.1 shuffle verdict', () => {
  const figure = {
    n: { value: 10, min: 4, max: 24, step: 1 },
    scheme: { value: 'alibi', options: ['alibi', 'rope', 'kerple-log', 't5'] },
    seed: { value: 1, min: 1, max: 64, step: 1 },
  };

  it('never shuffles into the identity or the reversal, at every n and for 200 shuffles', { timeout: 60000 }, () => {
    for (let n = 4; n <= 24; n++) {
      for (let seed = 1; seed <= 200; seed++) {
        const order = shuffleOrder(n, seed);
        expect(
          [...order].sort((a, b) => a - b),
          `n ${n} seed ${seed}`,
        ).toEqual([...Array(n).keys()]);
        expect(
          order.some((from, to) => from !== to),
          `identity at n ${n} seed ${seed}`,
        ).toBe(true);
        expect(
          order.some((from, to) => from !== n - 1 - to),
          `reversal at n ${n} seed ${seed}`,
        ).toBe(true);
      }
    }
  });

  it(
    'with positions the verdict is "order visible", marked as expected; without, "order invisible"',
    { timeout: 120000 },
    async () => {
      await forJointDomain(figure, ({ n, scheme, seed }) => {
        const at = `n ${n} ${scheme} seed ${seed}`;
        const withPos = permutationGap(rp, { n, seed, scheme });
        const shown = gapVerdict(withPos, { positions: true });
        expect(shown, at).toEqual({ key: 's211.notEquivariant', expected: true });
        const plain = gapVerdict(permutationGap(rp, { n, seed }), { positions: false });
        expect(plain, at).toEqual({ key: 's211.equivariant', expected: true });
      });
    },
  );

  it('the reversal is invisible to a symmetric bias: the test would have said "order is invisible"', () => {
    // Why shuffleOrder avoids it: the case the old draw could produce.
    const n = 10;
    const X = (seed) => {
      const data = new Float32Array(n * 16);
      let s = seed;
      for (let t = 0; t < data.length; t++) data[t] = ((s = (s * 16807) % 2147483647) / 2147483647) * 2 - 1;
      return { shape: [n, 16], data };
    };
    const x = X(3);
    const rev = { shape: [n, 16], data: new Float32Array(n * 16) };
    for (let i = 0; i < n; i++) rev.data.set(x.data.subarray((n - 1 - i) * 16, (n - i) * 16), i * 16);
    const a = rp.attention({ q: x, k: x, v: x, scheme: 'alibi' }).output.data;
    const b = rp.attention({ q: rev, k: rev, v: rev, scheme: 'alibi' }).output.data;
    let gap = 0;
    for (let i = 0; i < n; i++) {
      for (let c = 0; c < 16; c++) gap = Math.max(gap, Math.abs(b[i * 16 + c] - a[(n - 1 - i) * 16 + c]));
    }
    expect(gap).toBeLessThan(1e-4);
  });
});

describe('2.1.2 verdict for 2-D axial RoPE', () => {
  it('invariant only while every position sits in one grid row, and says so; past the row, not invariant', () => {
    const width = rp.schemes.find((x) => x.id === 'rope-2d').params.width.default;
    expect(width).toBe(8);
    for (const n of controlValues({ min: 8, max: 128, step: 4 })) {
      const inv = invariance(rp, 'rope-2d', n);
      const v = invarianceVerdict(rp, 'rope-2d', inv, n);
      if (n <= width) expect(v, `n ${n}`).toEqual({ key: 's212.invariantOneRow', holds: true, values: { n, width } });
      else expect(v.key, `n ${n}: defect ${inv.relative}`).toBe('s212.notInvariant');
    }
    // A 1-D scheme keeps the plain verdict at n = 8.
    expect(invarianceVerdict(rp, 'rope', invariance(rp, 'rope', 8), 8).key).toBe('s212.invariant');
  });
});

describe('2.1.6 controls', () => {
  it('α and β enter only the mixed map: the explicit map is the same at every α, β', () => {
    const base = JSON.stringify(classificationOptions(rp, { scheme: 'alibi', n: 24 }).explicit);
    for (const form of CLASSIFICATION_CONTROLS.form.options) {
      const ref = JSON.stringify(classificationOptions(rp, { scheme: 'alibi', form, n: 24 }).explicit);
      for (const alpha of [0, 0.35, 2]) {
        for (const beta of [0, 1.4, 2]) {
          const opts = classificationOptions(rp, { scheme: 'alibi', form, alpha, beta, n: 24 }).explicit;
          expect(JSON.stringify(opts)).toBe(ref);
        }
      }
    }
    expect(base).toContain('explicit');
  });
});
