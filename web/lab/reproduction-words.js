// The words of the reproduction (web/components/relpos-reproduction.js) put together from a results
// file: the agreement sentence is built from the facts bindings/lab-reproduction.js derives
// (reproductionAgreement), clause by clause, so it says whatever the numbers say; the words come
// from the page tables (web/i18n/en.js, zh.js, keys repro.*). No DOM here: tests/node read it too.

const fill = (text, values) => text.replace(/\{(\w+)\}/g, (m, k) => (k in values ? String(values[k]) : m));

/** A ratio to two significant digits, with thousands separators (5943 → "5,900"). */
export function roughly(x) {
  const digits = Math.max(0, Math.floor(Math.log10(x)) - 1);
  return (Math.round(x / 10 ** digits) * 10 ** digits).toLocaleString('en-US');
}

/** A 0–1 number as the tables show it. */
export const fixed2 = (x) => (Number.isFinite(x) ? x.toFixed(2) : '–');

/** The training steps of every task, in the page's words ("copy 3,000, reverse 3,000, …"). */
export function stepsPerTask(results, word) {
  return results.tasks
    .map((t) => `${word(`repro.task.${t.id}`)} ${results.configuration.steps[t.id].toLocaleString('en-US')}`)
    .join(word('repro.list.and'));
}

/**
 * The agreement sentence of a results file in one language.
 * @param {object} results the results file (web/lab/reproduction.json)
 * @param {(key: string) => string} word the page table's text of a key
 * @param {string} separator between clauses (' ' in English, '' in Chinese)
 */
export function agreementSentence(results, word, separator = ' ') {
  const a = results.agreement;
  const label = (id) => results.schemes.find((s) => s.id === id)?.label ?? id;
  const list = (ids) => ids.map(label).join(word('repro.list.and'));
  const taskLabel = (id) => word(`repro.task.${id}`);
  const clauses = [];
  if (a.tiedFirst.length > 1) {
    clauses.push(
      fill(word('repro.agree.first.tie'), {
        names: list(a.tiedFirst),
        mrr: fixed2(a.firstMrr),
        paper: fixed2(a.paperFirstMrr),
      }),
    );
  } else if (a.sameFirst) {
    clauses.push(fill(word('repro.agree.first.same'), { mrr: fixed2(a.firstMrr), paper: fixed2(a.paperFirstMrr) }));
  } else {
    clauses.push(
      fill(word('repro.agree.first.other'), {
        first: label(a.first),
        mrr: fixed2(a.firstMrr),
        nope: fixed2(a.nopeMrr),
        paper: fixed2(a.paperFirstMrr),
      }),
    );
  }
  clauses.push(a.t5Second ? word('repro.agree.t5.same') : fill(word('repro.agree.t5.other'), { rank: a.t5Rank }));
  clauses.push(
    a.overtaking.length
      ? fill(word('repro.agree.behind.some'), { names: list(a.overtaking) })
      : word('repro.agree.behind.none'),
  );
  if (a.lowInDistribution.length) {
    const lowest = a.lowInDistribution.reduce((x, y) => (y.value < x.value ? y : x));
    clauses.push(
      fill(word('repro.agree.fit.some'), {
        count: a.lowInDistribution.length,
        cells: results.tasks.length * results.schemes.length,
        lowest: `${label(lowest.scheme)} (${taskLabel(lowest.task)}, ${fixed2(lowest.value)})`,
        threshold: fixed2(a.threshold),
      }),
    );
  } else {
    clauses.push(fill(word('repro.agree.fit.all'), { threshold: fixed2(a.threshold) }));
  }
  if (!a.sameFirst || !a.t5Second || a.overtaking.length) {
    clauses.push(
      fill(word('repro.agree.why'), {
        ratio: roughly(results.paper.parameters / results.parameters),
        steps: stepsPerTask(results, word),
      }),
    );
  }
  return clauses.join(separator);
}
