// Readouts, table cells and labels of the chapter that are not claim sentences, computed by the same
// functions the page calls (web/tutorial/verdicts.js) over every setting a reader can reach.
import { describe, expect, it } from 'vitest';
import { load } from '../../bindings/index.js';
import { fmt } from '../../web/tutorial/format.js';
import { controlValues } from '../../web/tutorial/claims.js';
import {
  attentionEntropy,
  FLOAT32_EXP_LIMIT,
  JS_STEPS,
  LAB_T5,
  pastProfile,
  positionVectors,
  relativeMap,
  sinusoidalBound,
  softmaxOverflow,
  summaryRow,
  summarySchemes,
  t5UnseenBuckets,
} from '../../web/tutorial/verdicts.js';
import en from '../../web/i18n/en.js';
import zh from '../../web/i18n/zh.js';

const rp = await load({ analysis: true });
const info = (id) => rp.schemes.find((s) => s.id === id);

describe('2.1.2 T5 in the lab', () => {
  it('counts the untrained buckets of the lab’s own one-directional T5: 16 (buckets 16–31)', () => {
    expect(LAB_T5).toEqual({ bidirectional: false });
    const u = t5UnseenBuckets(rp, { L: 16 });
    expect(u).toMatchObject({ count: 16, first: 16, last: 31, total: 32, far: 128 });
  });
});

describe('2.1.5 entropy readout', () => {
  it('the uniform reference is the mean over causal rows, ln(64!)/64', () => {
    let lnFactorial = 0;
    for (let i = 1; i <= 64; i++) lnFactorial += Math.log(i);
    const h = attentionEntropy(rp, { lambda: 0.1, tau: 1 });
    expect(h.uniformRow).toBeCloseTo(lnFactorial / 64, 10);
    expect(fmt(h.uniformRow)).toBe('3.21');
  });
});

describe('2.1.7-b axis', () => {
  it('plots RoFormer’s (1/(d/2)) Σ|S_j|, not a value relative to r = 1', () => {
    const bound = rp.analysis.decayBound({ d: 128, base: 10000, maxDistance: 2 });
    expect(bound[1]).toBeGreaterThan(30);
    for (const table of [en, zh]) expect(table.page['s217.boundY']).toContain('Σ_j |S_j|');
    expect(en.page['s217.boundY']).not.toMatch(/relative/);
  });
});

describe('2.1.8-a element bound', () => {
  it('is measured: the largest |entry| of the encoding, at every d of the slider', () => {
    for (const d of controlValues({ min: 8, max: 256, step: 8 })) {
      const pe = sinusoidalBound(rp, d);
      const E = rp.encoding('sinusoidal', { n: 1024, d }).data;
      let m = 0;
      for (const v of E) m = Math.max(m, Math.abs(v));
      expect(pe.elementBound, `d = ${d}`).toBe(Math.fround(m));
      expect(pe.elementBound).toBeLessThanOrEqual(1);
    }
  });
});

describe('2.1.8-d softmax readout', () => {
  it('shows the signed largest logit; NaN appears exactly past ln(float32 max), at every scale 1 … 200', () => {
    for (let scale = 1; scale <= 200; scale++) {
      const s = softmaxOverflow(rp, scale);
      expect(s.maxLogit).toBeLessThanOrEqual(s.maxAbsLogit);
      expect(s.bad > 0, `scale ${scale}: largest ${s.maxLogit}`).toBe(s.maxLogit > FLOAT32_EXP_LIMIT);
    }
    // Where max |logit| passes the limit but the largest logit does not (the old readout's gap).
    for (let scale = 45; scale <= 50; scale++) {
      const s = softmaxOverflow(rp, scale);
      expect(s.maxAbsLogit).toBeGreaterThan(FLOAT32_EXP_LIMIT);
      expect(s.bad).toBe(0);
    }
    expect(fmt(softmaxOverflow(rp, 20).maxLogit)).toBe('35.1');
  });
});

describe('2.1.9 table cells at every (n, L) of its sliders', () => {
  const schemes = summarySchemes(rp);
  const ns = controlValues({ min: 16, max: 128, step: 16 });
  const Ls = controlValues({ min: 16, max: 64, step: 16 });

  it('NoPE and Transformer-XL have their own messages; FIRE and Sandwich are bounded; LongRoPE uses Phi-3’s factors', () => {
    const row = (id, n = 64, L = 32) => summaryRow(rp, info(id), { n, L });
    expect(row('nope').empty).toBe('none');
    expect(row('transformer-xl').empty).toBe('zero');
    expect(en.page['s219.empty.none']).not.toMatch(/u, v/);
    const fire = row('fire');
    expect(fire.bounded.verdict).toBe(true);
    expect(fire.bounded.value).toBeLessThan(1.001);
    const sandwich = row('sandwich');
    expect(sandwich.bounded.verdict).toBe(true);
    expect(sandwich.bounded).toMatchObject({ verdict: true, definition: 'bounded.form', bound: 8 });
    const longrope = row('rope-longrope');
    const phi3 = rp.presets.find((p) => p.scheme === 'rope-longrope');
    expect(phi3.name).toMatch(/Phi-3/);
    expect(longrope.params.longFactor).toEqual(phi3.params.longFactor);
    expect(longrope.extrapolates.pairs).toBe(phi3.params.d / 2);
    // Not plain RoPE in disguise: its profile differs from RoPE's.
    const a = pastProfile(rp, info('rope-longrope'), 256, 32);
    const b = pastProfile(rp, info('rope'), 256, 32);
    expect(Math.max(...a.map((v, r) => Math.abs(v / a[0] - b[r] / b[0])))).toBeGreaterThan(0.05);
  });

  it('every cell has a verdict of the right kind and a finite number, and every row a literature cell in both languages', () => {
    // Each slider over its whole range with the other at its default (the page's two sliders).
    const settings = [...ns.map((n) => [n, 32]), ...Ls.map((L) => [64, L])];
    for (const [n, L] of settings) {
      {
        for (const s of schemes) {
          const row = summaryRow(rp, s, { n, L });
          if (row.empty) {
            expect(['none', 'zero', 'content']).toContain(row.empty);
            continue;
          }
          for (const column of ['invariant', 'decays', 'bounded', 'extrapolates']) {
            expect(typeof row[column].verdict, `${s.id} ${column} at n ${n}, L ${L}`).toBe('boolean');
            expect(Number.isFinite(row[column].value), `${s.id} ${column} value`).toBe(true);
          }
        }
      }
    }
    for (const s of schemes) {
      for (const table of [en, zh]) {
        const key = `s219.lit.${s.id}`;
        expect(Object.hasOwn(table.page, key) || Object.hasOwn(table.page, 's219.lit.none')).toBe(true);
      }
    }
    for (const table of [en, zh]) expect(table.page['s219.col.extrapolates']).not.toMatch(/^Extrapolates\?$|^外推？$/);
  }, 60000);
});

describe('the lead names every step done in JavaScript', () => {
  const phrases = {
    projections: ['random projections', '随机投影'],
    relativeMap: ['relative map φ', '相对映射 φ'],
    lowRank: ['rank-k rebuild', '秩 k 重建'],
    logits: ['logits read back from attention weights', '由注意力权重反推的 logit'],
    profiles: ['score profiles', '得分曲线'],
    angles: ['angle arithmetic', '旋转角的算术'],
    naiveSoftmax: ['naive softmax', '朴素 softmax'],
  };
  it('in both languages', () => {
    expect(Object.keys(phrases).sort()).toEqual([...JS_STEPS].sort());
    for (const [step, [english, chinese]] of Object.entries(phrases)) {
      expect(en.page['chapter.lead'], step).toContain(english);
      expect(zh.page['chapter.lead'], step).toContain(chinese);
    }
  });
});

describe('number format', () => {
  it('writes every minus sign as −, the exponent’s too', () => {
    expect(fmt(2.1e-6)).toBe('2.10e−6');
    expect(fmt(-2.1e-18)).toBe('−2.10e−18');
  });
});

describe('2.1.3 the relative map', () => {
  it('its defect, taken in one pass, is what rp.analysis.translationDefect gives for the full stack', () => {
    for (const [source, n, d] of [
      ['sinusoidal', 32, 8],
      ['rope', 24, 16],
      ['learned', 40, 12],
    ]) {
      const map = relativeMap(rp, source, n, d);
      // The full [d, n, n] stack, built as the figure's first pair is.
      const E = positionVectors(rp, source, n, d);
      const stack = new Float32Array(d * n * n);
      for (let k = 0; k < d / 2; k++) {
        for (let i = 0; i < n; i++) {
          for (let j = 0; j < n; j++) {
            const [ax, ay, bx, by] = [
              E.data[i * d + 2 * k],
              E.data[i * d + 2 * k + 1],
              E.data[j * d + 2 * k],
              E.data[j * d + 2 * k + 1],
            ];
            const norm = (Math.hypot(ax, ay) || 1) * (Math.hypot(bx, by) || 1);
            stack[2 * k * n * n + i * n + j] = (ax * bx + ay * by) / norm;
            stack[(2 * k + 1) * n * n + i * n + j] = (ax * by - ay * bx) / norm;
          }
        }
      }
      const td = rp.analysis.translationDefect({ shape: [d, n, n], data: stack });
      expect(map.defect, `${source} n ${n} d ${d}`).toBeCloseTo(td.max, 6);
      expect(Array.from(map.phi.data.subarray(0, n * n))).toEqual(Array.from(stack.subarray(0, n * n)));
    }
  });
});
