// 2.1.4: the numerical rank and condition number the page shows, against a float64 reference
// (tests/node/reference-svd.js, no code shared with the core's Eigen BDCSVD) at every n of the
// figure's slider and for every scheme of its selector (an exact ALiBi matrix was once called
// rank 166 of 256, condition number ∞).
import { describe, expect, it } from 'vitest';
import { load } from '../../bindings/index.js';
import { spectrum, SPECTRUM_CONTROLS } from '../../web/tutorial/verdicts.js';
import { controlValues } from '../../web/tutorial/claims.js';
import { referenceSingularValues } from './reference-svd.js';

const rp = await load({ analysis: true });
const EPS32 = 2 ** -23;
const ns = controlValues(SPECTRUM_CONTROLS.n);

describe('2.1.4 spectrum against a float64 reference at every n of the slider', () => {
  const measured = {};
  // Each (scheme, n) is decomposed once; the tests after the sweep read these.
  const seen = {};
  for (const id of SPECTRUM_CONTROLS.scheme.options) {
    it(
      id,
      () => {
        measured[id] = [];
        seen[id] = {};
        for (const n of ns) {
          const at = `${id} n ${n}`;
          const { M, svd } = spectrum(rp, id, n);
          const ref = referenceSingularValues(M.data, n);
          seen[id][n] = { svd, ref };
          const top = ref[0];
          // The singular values agree (the core returns them as float32).
          for (let i = 0; i < n; i++) {
            expect(Math.abs(svd.singularValues[i] - ref[i]), `${at} σ_${i}`).toBeLessThan(1e-7 * top);
          }
          // The stated line: 2^−23 · ‖PE‖_F as a fraction of σ_max, ‖PE‖_F from the entries.
          let frobenius = 0;
          for (const v of M.data) frobenius += v * v;
          const line = (EPS32 * Math.sqrt(frobenius)) / top;
          expect(svd.tolerance, at).toBeCloseTo(line, 12);
          // The rank counts the reference's singular values above the line (none sits within 1e-6 of it).
          for (const s of ref) expect(Math.abs(s / top - line) / line, `${at}: σ at the line`).toBeGreaterThan(1e-6);
          const rank = ref.filter((s) => s > line * top).length;
          expect(svd.rank, at).toBe(rank);
          // A finite condition number exactly when the rank is full, and then the reference's σ_max / σ_min.
          if (rank === n) expect(svd.conditionNumber / (top / ref[n - 1]), at).toBeCloseTo(1, 6);
          else expect(svd.conditionNumber, at).toBe(Infinity);
          measured[id].push(
            `${n}:${svd.rank}/${Number.isFinite(svd.conditionNumber) ? Math.round(svd.conditionNumber) : '∞'}`,
          );
        }
        console.log(`${id} rank/cond per n: ${measured[id].join(' ')}`);
      },
      60000,
    );
  }

  it('ALiBi, KERPLE (log) and exponential decay: full rank at every n; at n = 256 σ_min 1.95e-3, condition number 45,533', () => {
    for (const id of ['alibi', 'kerple-log', 'exp-decay']) {
      for (const n of ns) {
        const { svd } = seen[id][n];
        expect(svd.rank, `${id} n ${n}`).toBe(n);
        expect(Number.isFinite(svd.conditionNumber), `${id} n ${n}`).toBe(true);
      }
    }
    const alibi = seen.alibi[256].svd;
    expect(alibi.singularValues[255]).toBeCloseTo(1.95e-3, 5);
    expect(Math.round(alibi.conditionNumber)).toBe(45533);
  });

  it('a deficiency the page reports is one the exact matrix has: rank ≤ d = 32 (sinusoidal, RoPE), 2 (sin-freq), n − 1 (FIRE)', () => {
    for (const n of ns) {
      for (const id of ['sinusoidal', 'rope']) expect(seen[id][n].svd.rank).toBeLessThanOrEqual(Math.min(n, 32));
      expect(seen['sin-freq'][n].svd.rank).toBe(2);
      const fire = seen.fire[n];
      expect(fire.svd.rank).toBe(n - 1);
      expect(fire.ref.at(-1)).toBeLessThan(1e-12 * fire.ref[0]);
    }
  });
});
