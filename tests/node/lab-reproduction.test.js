// The reproduction of Kazemnejad et al. 2023 (docs/lab.md): the committed results file
// (web/lab/reproduction.json) is what the code produces — its protocol is the code's, one cell
// trained again with its seed gives the committed numbers bit for bit, its summary and agreement
// are recomputed from its runs — and the agreement sentence the page shows, in both languages, says
// what those facts say. Also the lab's new tasks and options behind it (addition, duplicate,
// trainLengths, evalUpTo, exactMatch).
import { readFileSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { load } from '../../bindings/index.js';
import {
  PAPER,
  REPRODUCTION_PRESETS,
  REPRODUCTION_SCHEMES,
  REPRODUCTION_TASKS,
  cellOptions,
  fractionalRanks,
  meanReciprocalRank,
  reproductionAgreement,
  reproductionCells,
  summariseReproduction,
} from '../../bindings/lab-reproduction.js';
import { agreementSentence } from '../../web/lab/reproduction-words.js';
import en from '../../web/i18n/en.js';
import zh from '../../web/i18n/zh.js';

const FILE = new URL('../../web/lab/reproduction.json', import.meta.url);
const results = JSON.parse(readFileSync(FILE, 'utf8'));
const rp = await load({ analysis: true });

describe('the committed reproduction results', () => {
  it('is under 1 MiB and holds every cell of the full preset, with at least 3 seeds', () => {
    expect(statSync(FILE).size).toBeLessThan(1024 * 1024);
    expect(results.preset).toBe('full');
    expect(results.seeds.length).toBeGreaterThanOrEqual(3);
    const cells = reproductionCells('full');
    expect(results.runs.map(({ task, scheme, seed }) => ({ task, scheme, seed }))).toEqual(
      cells.map(({ task, scheme, seed }) => ({ task, scheme, seed })),
    );
    for (const run of results.runs) {
      expect(run.evalLengths[run.evalLengths.length - 1]).toBeGreaterThan(2 * results.tasks[0].length);
      for (const v of run.exactMatch) (expect(v).toBeGreaterThanOrEqual(0), expect(v).toBeLessThanOrEqual(1));
    }
  });

  it('was written by this protocol: configuration, tasks, schemes, paper figures and every cell’s options', () => {
    expect(results.configuration).toEqual(JSON.parse(JSON.stringify(REPRODUCTION_PRESETS.full)));
    expect(results.tasks).toEqual(JSON.parse(JSON.stringify(REPRODUCTION_TASKS)));
    expect(results.schemes).toEqual(JSON.parse(JSON.stringify(REPRODUCTION_SCHEMES)));
    expect(results.paper).toEqual(JSON.parse(JSON.stringify(PAPER)));
    for (const c of reproductionCells('full')) {
      expect(results.cellOptions[`${c.task}/${c.scheme}/${c.seed}`]).toEqual(c.options);
    }
  });

  it('gives the committed numbers when its fastest cell is trained again with its seed', async () => {
    const cell = results.runs.reduce((a, b) => (b.ms < a.ms ? b : a));
    const r = await rp.lab.train(cellOptions('full', cell.task, cell.scheme, cell.seed));
    expect(Array.from(r.evalLengths)).toEqual(cell.evalLengths);
    expect(Array.from(r.exactMatch)).toEqual(cell.exactMatch);
    expect(r.loss[r.loss.length - 1]).toBe(cell.finalLoss);
  }, 240000);

  it('holds the summary and agreement its runs give', () => {
    const summary = summariseReproduction('full', results.runs);
    expect(results.summary).toEqual(summary);
    expect(results.agreement).toEqual(reproductionAgreement(summary));
    // Every scheme's MRR among the paper's five lies in [1/5, 1], and the ranking is by MRR.
    for (const id of summary.rankingPaper) {
      expect(summary.mrrPaper[id]).toBeGreaterThanOrEqual(0.2 - 1e-9);
      expect(summary.mrrPaper[id]).toBeLessThanOrEqual(1);
    }
    for (let k = 1; k < summary.rankingPaper.length; k++) {
      expect(summary.mrrPaper[summary.rankingPaper[k - 1]]).toBeGreaterThanOrEqual(
        summary.mrrPaper[summary.rankingPaper[k]],
      );
    }
  });
});

describe('the agreement sentence', () => {
  const languages = [
    ['en', (key) => en.page[key], ' '],
    ['zh', (key) => zh.page[key], ''],
  ];
  const label = (id) => REPRODUCTION_SCHEMES.find((s) => s.id === id).label;

  it.each(languages)(
    '%s: states the first place, T5, the schemes behind and the fit as the file has them',
    (_, word, sep) => {
      const a = results.agreement;
      const text = agreementSentence(results, word, sep);
      // Every literal fragment of the clause's text (between its placeholders) is in the sentence.
      const has = (key) =>
        word(key)
          .split(/\{\w+\}/)
          .filter(Boolean)
          .every((part) => text.includes(part));
      if (a.tiedFirst.length > 1) expect(has('repro.agree.first.tie')).toBe(true);
      else if (a.sameFirst) expect(has('repro.agree.first.same')).toBe(true);
      else {
        expect(has('repro.agree.first.other')).toBe(true);
        expect(text).toContain(label(a.first));
      }
      expect(has(a.t5Second ? 'repro.agree.t5.same' : 'repro.agree.t5.other')).toBe(true);
      expect(has(a.overtaking.length ? 'repro.agree.behind.some' : 'repro.agree.behind.none')).toBe(true);
      for (const id of a.overtaking) expect(text).toContain(label(id));
      expect(has(a.lowInDistribution.length ? 'repro.agree.fit.some' : 'repro.agree.fit.all')).toBe(true);
      expect(text).toContain(a.firstMrr.toFixed(2));
      expect(text).not.toMatch(/\{\w+\}/);
    },
  );

  // The sentence follows the facts, whatever they are: every combination of the clauses.
  it.each(languages)('%s: changes with the facts (every combination)', (_, word, sep) => {
    const seen = new Set();
    for (const first of ['nope', 'rope']) {
      for (const tie of [false, true]) {
        for (const t5Second of [false, true]) {
          for (const overtaking of [[], ['alibi', 'rope']]) {
            for (const low of [[], [{ task: 'sort', scheme: 'nope', value: 0.5 }]]) {
              const agreement = {
                ...results.agreement,
                first,
                tiedFirst: tie ? [first, 't5'] : [first],
                sameFirst: !tie && first === 'nope',
                t5Second,
                overtaking,
                lowInDistribution: low,
              };
              const text = agreementSentence({ ...results, agreement }, word, sep);
              expect(text).not.toMatch(/\{\w+\}/);
              seen.add(text);
            }
          }
        }
      }
    }
    expect(seen.size).toBe(32);
  });
});

describe('ranks', () => {
  it('share the mean rank on ties', () => {
    expect(fractionalRanks([0.5, 0.9, 0.5, 0.1])).toEqual([2.5, 1, 2.5, 4]);
    expect(fractionalRanks([0, 0, 0])).toEqual([2, 2, 2]);
  });
  it('give the mean reciprocal rank over tasks', () => {
    const mrr = meanReciprocalRank({ a: { x: 1, y: 0 }, b: { x: 0, y: 1 }, c: { x: 1, y: 0 } }, ['x', 'y']);
    expect(mrr).toEqual({
      x: Math.round(((1 + 0.5 + 1) / 3) * 1e4) / 1e4,
      y: Math.round(((0.5 + 1 + 0.5) / 3) * 1e4) / 1e4,
    });
  });
});

describe('the lab behind it', () => {
  const tiny = { scheme: 'nope', steps: 2, batch: 2, dModel: 8, dFF: 8, heads: 2, vocab: 10, evalSequences: 4 };

  it('lays out addition as a SEP b SEP a+b, least significant digit first', async () => {
    for (const [length, seed] of [
      [5, 1],
      [8, 2],
      [14, 3],
      [20, 4],
    ]) {
      const r = await rp.lab.train({ ...tiny, task: 'addition', length, seed });
      for (const tokens of [Array.from(r.tokens.L), Array.from(r.tokens['4L'])]) {
        const k = (tokens.length - 2) / 3;
        expect(Number.isInteger(k)).toBe(true);
        expect(tokens[k]).toBe(10);
        expect(tokens[2 * k + 1]).toBe(10);
        const value = (digits) => digits.reduceRight((acc, d) => acc * 10n + BigInt(d), 0n);
        const a = value(tokens.slice(0, k));
        const b = value(tokens.slice(k + 1, 2 * k + 1));
        // The written digits of the sum (its last digit is only a target).
        const sum = (a + b)
          .toString()
          .padStart(k + 1, '0')
          .split('')
          .reverse()
          .map(Number);
        expect(tokens.slice(2 * k + 2)).toEqual(sum.slice(0, k));
      }
    }
  });

  it('evaluates every length a task lays out up to evalUpTo, and exact match never exceeds accuracy', async () => {
    const expected = {
      duplicate: [2, 4, 6, 8, 10, 12],
      reverse: [2, 4, 6, 8, 10, 12],
      sort: [2, 4, 6, 8, 10, 12],
      addition: [5, 8, 11],
      copy: [3, 4, 5, 6, 7, 8, 9, 10, 11, 12],
    };
    for (const [task, lengths] of Object.entries(expected)) {
      const r = await rp.lab.train({ ...tiny, task, length: task === 'addition' ? 5 : 4, evalUpTo: 12 });
      expect(r.evalLengths, task).toEqual(lengths);
      r.exactMatch.forEach((e, k) => expect(e).toBeLessThanOrEqual(r.accuracy[k] + 1e-6));
    }
  });

  it('trains on lengths up to L reproducibly, and differently from a fixed L', async () => {
    const options = { ...tiny, task: 'reverse', length: 8, steps: 6, trainLengths: 'upTo' };
    const a = await rp.lab.train(options);
    const b = await rp.lab.train(options);
    const c = await rp.lab.train({ ...options, trainLengths: 'fixed' });
    expect(Array.from(b.loss)).toEqual(Array.from(a.loss));
    expect(Array.from(c.loss)).not.toEqual(Array.from(a.loss));
    expect(a.parameters).toBe(c.parameters);
  });

  it('refuses lengths a task cannot lay out, naming them', async () => {
    await expect(rp.lab.train({ ...tiny, task: 'reverse', length: 9 })).rejects.toThrow(/cannot lay out length 9/);
    await expect(rp.lab.train({ ...tiny, task: 'addition', length: 9 })).rejects.toThrow(/5, 8, 11, 14/);
    await expect(rp.lab.train({ ...tiny, task: 'addition', length: 8, evalUpTo: 4 })).rejects.toThrow(/evalUpTo/);
    await expect(rp.lab.train({ ...tiny, trainLengths: 'sometimes' })).rejects.toThrow(/trainLengths/);
    await expect(rp.lab.train({ ...tiny, evalUpTo: 513 })).rejects.toThrow(RangeError);
  });
});

// The committed run as docs/lab.md states it ("The committed run"): the rankings, the table of
// exact match up to L and at 2L, and the time, each line built here from the results file.
export function docsLines(r) {
  const label = (id) => r.schemes.find((s) => s.id === id).label;
  const ranking = (order, mrr) => order.map((id) => `${label(id)} ${mrr[id].toFixed(2)}`).join(', ');
  const lines = [
    `By MRR among the paper's five: ${ranking(r.summary.rankingPaper, r.summary.mrrPaper)}.`,
    `Among all seven: ${ranking(r.summary.rankingAll, r.summary.mrrAll)}.`,
    `| scheme | ${r.tasks.map((t) => `${t.label} worst ≤ L | ${t.label} at 2L`).join(' | ')} |`,
  ];
  for (const s of r.schemes) {
    const cells = r.tasks.map((t) => {
      const c = r.summary.table[t.id][s.id];
      return `${c.inDistributionWorst.toFixed(2)} | ${c.at2L.mean.toFixed(2)} ± ${c.at2L.spread.toFixed(2)}`;
    });
    lines.push(`| ${s.label} | ${cells.join(' | ')} |`);
  }
  lines.push(`| scheme | ${r.tasks.map((t) => `${t.label}, L < n ≤ 2L`).join(' | ')} |`);
  for (const s of r.schemes) {
    const cells = r.tasks.map((t) => {
      const c = r.summary.table[t.id][s.id];
      return `${c.extrapolation.toFixed(3)} ± ${c.extrapolationSpread.toFixed(3)}`;
    });
    lines.push(`| ${s.label} | ${cells.join(' | ')} |`);
  }
  lines.push(
    `${r.runs.length} trainings took ${r.time.seconds} s on ${r.time.workers} worker threads (${r.time.cellSeconds} s of training summed over cells).`,
  );
  return lines;
}

describe('docs/lab.md', () => {
  it('states the committed run as the results file has it', () => {
    const doc = readFileSync(new URL('../../docs/lab.md', import.meta.url), 'utf8');
    const missing = docsLines(results).filter((line) => !doc.includes(line));
    expect(missing).toEqual([]);
  });
});
