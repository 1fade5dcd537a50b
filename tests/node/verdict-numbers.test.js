// Number beside verdict: every verdict the chapter shows with a number is
// { verdict, value, definition } (web/tutorial/verdicts.js), and the verdict is its definition's
// decide(value) — so the number shown is the quantity the verdict was taken from. Checked over the
// joint domain of the 2.1.9 table's two sliders, against the core's own flags where the core decides
// (translation defect, PSD, CPD), and in the words the page shows them with (s219.value.<definition>).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { load } from '../../bindings/index.js';
import { controlValues } from '../../web/tutorial/claims.js';
import { jointDomain } from './joint-domain.js';
import { DEFINITIONS, kernelVerdict, summaryRow, summarySchemes, toeplitzValues } from '../../web/tutorial/verdicts.js';
import en from '../../web/i18n/en.js';
import zh from '../../web/i18n/zh.js';

const rp = await load({ analysis: true });
const COLUMNS = ['invariant', 'decays', 'bounded', 'psd', 'cpd', 'extrapolates'];
const source = (path) => readFileSync(new URL(`../../web/tutorial/${path}`, import.meta.url), 'utf8');

/** Every verdict of a row that is shown with a number, as [column, result]. */
const shown = (row) => COLUMNS.map((c) => [c, row[c]]).filter(([, r]) => r.verdict !== null);

describe('a verdict’s shown number is its deciding quantity', () => {
  // The figure's controls (s219.js): its two sliders; their joint domain is 8 × 4 settings.
  const CONTROLS = { n: { value: 64, min: 16, max: 128, step: 16 }, L: { value: 32, min: 16, max: 64, step: 16 } };
  const ns = controlValues(CONTROLS.n);

  it('at every (n, L) of the 2.1.9 sliders, every cell’s verdict is decide(value) of its definition', () => {
    let cells = 0;
    const domain = jointDomain(CONTROLS);
    expect(domain).toHaveLength(32);
    for (const { n, L } of domain) {
      for (const info of summarySchemes(rp)) {
        const row = summaryRow(rp, info, { n, L });
        if (row.empty) continue;
        for (const [column, r] of shown(row)) {
          const where = `${info.id} ${column} at n ${n}, L ${L}: ${JSON.stringify(r)}`;
          expect(Object.keys(DEFINITIONS), where).toContain(r.definition);
          expect(r.definition.split('.')[0], where).toBe(column === 'psd' || column === 'cpd' ? 'kernel' : column);
          expect(Number.isFinite(r.value), where).toBe(true);
          expect(DEFINITIONS[r.definition].decide(r.value), where).toBe(r.verdict);
          cells++;
        }
      }
    }
    expect(cells).toBeGreaterThan(domain.length * 60);
  }, 240000);

  it('where the core decides, the definition agrees with the core’s own flag', () => {
    for (const n of ns) {
      for (const info of summarySchemes(rp)) {
        const row = summaryRow(rp, info, { n, L: 32 });
        if (row.empty || row.kind !== 'bias') continue;
        const S = rp.bias(info.id, { n, heads: 1 });
        expect(row.invariant.verdict, `${info.id} n ${n}`).toBe(rp.analysis.translationDefect(S).isToeplitz);
        if (!row.invariant.verdict) continue;
        const k = kernelVerdict(rp, toeplitzValues(S));
        expect(row.psd.verdict, `${info.id} psd n ${n}`).toBe(k.psd);
        expect(row.cpd.verdict, `${info.id} cpd n ${n}`).toBe(k.cpd);
      }
    }
  }, 120000);

  it('NTK-aware and PI decay cells show the margin to the halfway line, not far − near', () => {
    for (const id of ['rope-ntk', 'rope-linear']) {
      const row = summaryRow(
        rp,
        rp.schemes.find((s) => s.id === id),
        { n: 64, L: 32 },
      );
      expect(row.decays.definition).toBe('decays.halfway');
      expect(row.decays.value).toBeCloseTo(row.decays.far - row.decays.threshold, 12);
      expect(row.decays.verdict).toBe(row.decays.value < 0);
    }
  });

  it('each definition has its words in both languages, with the value in them', () => {
    for (const definition of Object.keys(DEFINITIONS)) {
      for (const table of [en, zh]) {
        const text = table.page[`s219.value.${definition}`];
        expect(text, definition).toBeTypeOf('string');
        expect(text, definition).toContain('{value}');
      }
    }
  });

  it('the 2.1.9 cells take their words only from the verdict’s definition', () => {
    const s219 = source('sections/s219.js');
    // One argument: the result; the text comes from its definition, never from a key chosen beside it.
    const args = [...s219.matchAll(/\bcell\(([^()]*)\)/g)].map((m) => m[1].replace(/\{[^{}]*\}/g, '{}'));
    expect(args.length).toBeGreaterThan(0);
    expect(args.filter((a) => a.includes(','))).toEqual([]);
    expect(s219).toContain('s219.value.${result.definition}');
  });
});
