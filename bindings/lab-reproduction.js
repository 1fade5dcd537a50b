// The lab's reproduction of Kazemnejad et al. 2023 (docs/lab.md, "A published experiment,
// reproduced"): the protocol (tasks, schemes, budgets, seeds) as data, and the summary of the runs —
// mean and spread over seeds per length, and the paper's mean reciprocal rank. Every accuracy comes
// from the core's training job (rp.lab.train, exactMatch); this file only aggregates those numbers,
// so that `npm run lab:reproduce` (scripts/lab-reproduce.mjs), the page and the tests read one
// definition.

/** The schemes, in the order tables list them; `paper`: one of the five the paper ran. */
export const REPRODUCTION_SCHEMES = Object.freeze([
  Object.freeze({ id: 'nope', label: 'NoPE', paper: true, options: {} }),
  Object.freeze({ id: 't5', label: 'T5', paper: true, options: {} }),
  Object.freeze({ id: 'alibi', label: 'ALiBi', paper: true, options: {} }),
  Object.freeze({ id: 'rope', label: 'RoPE', paper: true, options: {} }),
  // The paper's APE: sinusoidal vectors added to the token embeddings.
  Object.freeze({ id: 'sinusoidal', label: 'APE', paper: true, options: { mode: 'input' } }),
  Object.freeze({ id: 'kerple-log', label: 'KERPLE', paper: false, options: {} }),
  Object.freeze({ id: 'fire', label: 'FIRE', paper: false, options: {} }),
]);

/** The tasks (lab task ids) with the length L each trains up to (a length the task can lay out). */
export const REPRODUCTION_TASKS = Object.freeze([
  Object.freeze({ id: 'duplicate', label: 'copy', length: 8 }),
  Object.freeze({ id: 'reverse', label: 'reverse', length: 8 }),
  Object.freeze({ id: 'sort', label: 'sort', length: 8 }),
  Object.freeze({ id: 'addition', label: 'addition', length: 8 }),
]);

// What every run shares: trained on lengths up to L, evaluated at every length up to 3L, every
// sequence opened by a beginning-of-sequence token as in the paper (its NoPE construction counts
// positions from that token).
const SHARED = Object.freeze({ trainLengths: 'upTo', vocab: 10, normalisation: true, schedule: 'cosine', bos: true });

/**
 * Budgets. `full` is the one the committed results use; `quick` the same protocol with fewer steps
 * and evaluation sequences (a first look, not the committed numbers). `steps` are per task: sort and
 * addition need more to fit their training lengths than copy and reverse (docs/lab.md, "Budgets").
 */
export const REPRODUCTION_PRESETS = Object.freeze({
  quick: budget({ warmup: 20, steps: [400, 400, 400, 400], evalSequences: 8 }),
  full: budget({ warmup: 50, steps: [3000, 3000, 4000, 4000], evalSequences: 32 }),
});

// One budget: the same seeds, model, learning rate and evaluation lengths; its warm-up, steps per
// task (duplicate, reverse, sort, addition) and evaluation sequences.
function budget({ warmup, steps: [duplicate, reverse, sort, addition], evalSequences }) {
  return Object.freeze({
    seeds: Object.freeze([1, 2, 3]),
    model: Object.freeze({ layers: 3, heads: 4, dModel: 32, dFF: 64 }),
    training: Object.freeze({ batch: 16, warmup, lr: 3e-3, clip: 1 }),
    steps: Object.freeze({ duplicate, reverse, sort, addition }),
    evalSequences,
    evalFactor: 3,
  });
}

/** The paper's figures this page can justify (docs/lab.md says where each comes from). */
export const PAPER = Object.freeze({
  citation:
    'A. Kazemnejad, I. Padhi, K. Natesan Ramamurthy, P. Das, S. Reddy. The Impact of Positional Encoding on Length Generalization in Transformers. NeurIPS 2023 (arXiv:2305.19466).',
  // Decoder-only, about 107 M parameters, trained on lengths up to L = 20, tested up to 2L = 40.
  trainLength: 20,
  parameters: 107e6,
  first: 'nope',
  firstMrr: 0.69,
  second: 't5',
  // Below NoPE and T5 (the paper: "not well suited for length generalization").
  behind: Object.freeze(['alibi', 'rope', 'sinusoidal']),
});

/** The lab.train options of one cell. */
export function cellOptions(presetName, taskId, schemeId, seed) {
  const preset = REPRODUCTION_PRESETS[presetName];
  if (!preset) throw new RangeError(`relpos.labReproduction: unknown preset '${presetName}'`);
  const task = REPRODUCTION_TASKS.find((t) => t.id === taskId);
  const scheme = REPRODUCTION_SCHEMES.find((s) => s.id === schemeId);
  if (!task) throw new RangeError(`relpos.labReproduction: unknown task '${taskId}'`);
  if (!scheme) throw new RangeError(`relpos.labReproduction: unknown scheme '${schemeId}'`);
  return {
    ...SHARED,
    ...preset.model,
    ...preset.training,
    steps: preset.steps[task.id],
    ...scheme.options,
    scheme: scheme.id,
    task: task.id,
    length: task.length,
    evalUpTo: preset.evalFactor * task.length,
    evalSequences: preset.evalSequences,
    seed,
  };
}

/** Every cell of a preset: task × scheme × seed, in a fixed order. */
export function reproductionCells(presetName) {
  const preset = REPRODUCTION_PRESETS[presetName];
  if (!preset) throw new RangeError(`relpos.labReproduction: unknown preset '${presetName}'`);
  const cells = [];
  for (const task of REPRODUCTION_TASKS) {
    for (const scheme of REPRODUCTION_SCHEMES) {
      for (const seed of preset.seeds) {
        cells.push({
          task: task.id,
          scheme: scheme.id,
          seed,
          options: cellOptions(presetName, task.id, scheme.id, seed),
        });
      }
    }
  }
  return cells;
}

const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
// Sample standard deviation (n − 1); 0 for a single value.
const spread = (xs) => {
  if (xs.length < 2) return 0;
  const m = mean(xs);
  return Math.sqrt(xs.reduce((a, x) => a + (x - m) ** 2, 0) / (xs.length - 1));
};
const round = (x) => Math.round(x * 1e4) / 1e4;

/**
 * Ranks of `values` (higher is better) from 1; tied values share the mean of the ranks they span,
 * so a tie at the top of three schemes gives each rank 2, not 1.
 */
export function fractionalRanks(values) {
  const order = values.map((v, i) => [v, i]).sort((a, b) => b[0] - a[0]);
  const ranks = new Array(values.length);
  for (let k = 0; k < order.length;) {
    let end = k;
    while (end + 1 < order.length && order[end + 1][0] === order[k][0]) end++;
    const rank = (k + 1 + end + 1) / 2;
    for (let t = k; t <= end; t++) ranks[order[t][1]] = rank;
    k = end + 1;
  }
  return ranks;
}

/**
 * Mean reciprocal rank over tasks: per task, the schemes are ranked by their mean exact-match
 * accuracy over the lengths past L (L < n ≤ 2L, the paper's extrapolation range), averaged over
 * seeds; each scheme's reciprocal ranks are averaged over tasks.
 * @param {Record<string, Record<string, number>>} scores task → scheme → score
 * @param {string[]} schemes the schemes ranked against each other
 */
export function meanReciprocalRank(scores, schemes) {
  const tasks = Object.keys(scores);
  const out = Object.fromEntries(schemes.map((s) => [s, 0]));
  for (const task of tasks) {
    const ranks = fractionalRanks(schemes.map((s) => scores[task][s]));
    schemes.forEach((s, k) => (out[s] += 1 / ranks[k] / tasks.length));
  }
  return Object.fromEntries(Object.entries(out).map(([s, v]) => [s, round(v)]));
}

/**
 * The summary of a run: runs are { task, scheme, seed, evalLengths, exactMatch } (exactMatch as the
 * core returned it). Per task and scheme: mean and spread over seeds per length, in-distribution
 * (n ≤ L) and extrapolation (L < n ≤ 2L) means, accuracy at the longest length ≤ 2L; per scheme the
 * MRR among the paper's five and among all seven; the ranking by MRR.
 */
export function summariseReproduction(presetName, runs) {
  const preset = REPRODUCTION_PRESETS[presetName];
  if (!preset) throw new RangeError(`relpos.labReproduction: unknown preset '${presetName}'`);
  const table = {};
  const scores = {};
  for (const task of REPRODUCTION_TASKS) {
    table[task.id] = {};
    scores[task.id] = {};
    const L = task.length;
    for (const scheme of REPRODUCTION_SCHEMES) {
      const mine = preset.seeds.map((seed) => {
        const run = runs.find((r) => r.task === task.id && r.scheme === scheme.id && r.seed === seed);
        if (!run) throw new RangeError(`relpos.labReproduction: no run for ${task.id} / ${scheme.id} / seed ${seed}`);
        return run;
      });
      const lengths = Array.from(mine[0].evalLengths);
      const acc = mine.map((r) => Array.from(r.exactMatch, Number));
      const perLength = lengths.map((_, k) => acc.map((a) => a[k]));
      const where = (pred) => lengths.map((n, k) => (pred(n) ? k : -1)).filter((k) => k >= 0);
      const inDist = where((n) => n <= L);
      const extra = where((n) => n > L && n <= 2 * L);
      const at2L = Math.max(...where((n) => n <= 2 * L));
      const seedMean = (ks) => acc.map((a) => mean(ks.map((k) => a[k])));
      const extraBySeed = seedMean(extra);
      table[task.id][scheme.id] = {
        lengths,
        mean: perLength.map((xs) => round(mean(xs))),
        spread: perLength.map((xs) => round(spread(xs))),
        inDistribution: round(mean(seedMean(inDist))),
        inDistributionMin: round(Math.min(...seedMean(inDist))),
        // The worst length up to L (mean over seeds): the fit the protocol asks for at every length.
        inDistributionWorst: round(Math.min(...inDist.map((k) => mean(perLength[k])))),
        extrapolation: round(mean(extraBySeed)),
        extrapolationSpread: round(spread(extraBySeed)),
        at2L: { length: lengths[at2L], mean: round(mean(perLength[at2L])), spread: round(spread(perLength[at2L])) },
      };
      scores[task.id][scheme.id] = mean(extraBySeed);
    }
  }
  const paperIds = REPRODUCTION_SCHEMES.filter((s) => s.paper).map((s) => s.id);
  const allIds = REPRODUCTION_SCHEMES.map((s) => s.id);
  const mrrPaper = meanReciprocalRank(scores, paperIds);
  const mrrAll = meanReciprocalRank(scores, allIds);
  const byMrr = (mrr) => Object.keys(mrr).sort((a, b) => mrr[b] - mrr[a] || allIds.indexOf(a) - allIds.indexOf(b));
  return { table, mrrPaper, mrrAll, rankingPaper: byMrr(mrrPaper), rankingAll: byMrr(mrrAll) };
}

/**
 * Where the reproduced ranking among the paper's five agrees with the paper's and where not, as
 * facts a sentence is built from (web/components/relpos-reproduction.js): which scheme is first
 * (and whether it is the paper's), whether T5 is second, which of ALiBi, RoPE and APE rank above
 * NoPE or T5, and whether every scheme's exact match reached `threshold` at every length up to L
 * (mean over seeds; else the extrapolation of that scheme is not measured).
 */
export function reproductionAgreement(summary, threshold = 0.9) {
  const ranking = summary.rankingPaper;
  const mrr = summary.mrrPaper;
  const first = ranking[0];
  const tiedFirst = ranking.filter((s) => mrr[s] === mrr[first]);
  const worstOfTop = Math.min(mrr[PAPER.first], mrr[PAPER.second]);
  const lowInDistribution = [];
  for (const task of REPRODUCTION_TASKS) {
    for (const scheme of REPRODUCTION_SCHEMES) {
      const cell = summary.table[task.id][scheme.id];
      if (cell.inDistributionWorst < threshold) {
        lowInDistribution.push({ task: task.id, scheme: scheme.id, value: cell.inDistributionWorst });
      }
    }
  }
  return {
    first,
    tiedFirst,
    firstMrr: mrr[first],
    nopeMrr: mrr[PAPER.first],
    paperFirstMrr: PAPER.firstMrr,
    sameFirst: tiedFirst.length === 1 && first === PAPER.first,
    t5Second: ranking[1] === PAPER.second && mrr[ranking[1]] !== mrr[ranking[2]] && mrr[ranking[0]] !== mrr[ranking[1]],
    // 1 + the number of schemes with a strictly higher MRR.
    t5Rank: 1 + ranking.filter((s) => mrr[s] > mrr[PAPER.second]).length,
    // Schemes the paper ranks behind both NoPE and T5 that reach at least one of them here.
    overtaking: PAPER.behind.filter((s) => mrr[s] >= worstOfTop),
    threshold,
    lowInDistribution,
  };
}
