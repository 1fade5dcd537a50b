// The chapter's sentences about the lab's reproduction, checked against the
// committed results file (web/lab/reproduction.json): an upper bound the sentence states is not below
// the value it bounds, "at 2L" names the length meant for every task, addition — which no scheme
// passes — is said to decide a quarter of each MRR by noise, and the ranking without it is shown and
// computed by the lab's own meanReciprocalRank.
import { describe, expect, it } from 'vitest';
import REPRODUCTION from '../../web/lab/reproduction.json';
import { CLAIMS, noiseTasks, reproductionRanking } from '../../web/tutorial/claims.js';
import en from '../../web/i18n/en.js';
import zh from '../../web/i18n/zh.js';

const cell = (task, id) => REPRODUCTION.summary.table[task][id];
const ids = REPRODUCTION.schemes.map((s) => s.id);
const tasks = REPRODUCTION.tasks.map((t) => t.id);
const measure = (key) => CLAIMS[key].measure(null, {});

describe('the reproduction sentences', () => {
  it('“no scheme keeps more than X” at 2L: X is not below the best cell (FIRE’s 0.0625 on copy)', async () => {
    const { values } = await measure('s212.claim.reproduction');
    const best = Math.max(
      ...['duplicate', 'reverse', 'addition'].flatMap((t) => ids.map((id) => cell(t, id).at2L.mean)),
    );
    expect(best).toBe(0.0625);
    expect(Number(values.best2L)).toBeGreaterThanOrEqual(best);
    expect(values.bestScheme).toBe('FIRE');
  });

  it('names the length meant by 2L for every task: 16, and addition’s 14 (its lengths step by 3)', async () => {
    const { values } = await measure('s212.claim.reproduction');
    for (const t of REPRODUCTION.tasks) {
      const want = t.id === 'addition' ? values.addition2L : values.len2L;
      for (const id of ids) expect(cell(t.id, id).at2L.length, `${t.id} ${id}`).toBe(want);
    }
    expect(values.addition2L).toBe(14);
    expect(values.additionLengths).toBe('5, 8, 11, 14, 17…');
    for (const table of [en, zh]) {
      for (const name of ['len2L', 'addition2L', 'additionLengths', 'best2L', 'bestScheme']) {
        expect(table.page['s212.claim.reproduction']).toContain(`{${name}}`);
      }
    }
  });

  it('addition is the one task no scheme passes; its exact match past L is 0 or one sequence in 96', () => {
    const noise = noiseTasks();
    expect(noise).toEqual({ tasks: ['addition'], sequences: 96 });
    for (const id of ids) expect([0, 0.0052]).toContain(cell('addition', id).extrapolation);
  });

  it('the MRR is the lab’s own: recomputed over all tasks it is the file’s, for the seven and the paper’s five', () => {
    const all = reproductionRanking(tasks);
    expect(all.mrr).toEqual(REPRODUCTION.summary.mrrAll);
    expect(all.ranking).toEqual(REPRODUCTION.summary.rankingAll);
    const paper = REPRODUCTION.schemes.filter((s) => s.paper).map((s) => s.id);
    const five = reproductionRanking(tasks, paper);
    expect(five.mrr).toEqual(REPRODUCTION.summary.mrrPaper);
    expect(five.ranking).toEqual(REPRODUCTION.summary.rankingPaper);
  });

  it('shows the ranking without addition beside the four-task one, in both languages', async () => {
    const { values } = await measure('s219.claim.practical');
    expect(values.rankingPassed.startsWith('NoPE 0.78')).toBe(true);
    expect(values.rankingPassed.endsWith('APE 0.15')).toBe(true);
    for (const table of [en, zh]) {
      expect(table.page['s219.claim.practical']).toContain('{rankingPassed}');
      expect(table.page['s212.claim.reproduction']).toContain('{ropePassed}');
      expect(table.page['s219.claim.proxy']).toContain('{ropePassed}');
    }
  });
});
