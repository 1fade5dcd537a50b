// <relpos-reproduction>: the lab's reproduction of Kazemnejad et al. 2023 (docs/lab.md). Shows a
// results file (web/lab/reproduction.json, written by `npm run lab:reproduce`): the budget, a table
// of in-distribution accuracy, accuracy at 2L and the mean reciprocal rank of every scheme beside the
// paper's ranking, a figure of exact match against length for one task, and the agreement sentence
// built from the file (web/lab/reproduction-words.js). A reader can rerun one cell or all of them
// in their browser; their numbers appear beside the committed ones. The page gives it a heading
// (repro.title).
// Properties: results (the file's object), words ((key) => text, the page table's repro.* keys),
// separator (between clauses: ' ' or ''), runner ((options, { signal }) => Promise<LabResult>;
// default: rp.lab.train on the page). Re-render by setting words again (a language switch).
import { load } from '../../bindings/index.js';
import { summariseReproduction } from '../../bindings/lab-reproduction.js';
import { agreementSentence, fixed2, roughly, stepsPerTask } from '../lab/reproduction-words.js';
import { renderCurve } from './relpos-curve.js';
import { ShadowHost } from './shadow-host.js';

const STYLE = `
:host { display: block; font: inherit; color: inherit; }
/* The page's chosen colour scheme reaches the figure (the site's styles do not pierce this root). */
relpos-curve { color-scheme: inherit; color: inherit; }
table { border-collapse: collapse; font-variant-numeric: tabular-nums; margin: 0.5rem 0; }
th, td { white-space: nowrap; padding: 0.2rem 0.5rem; border-bottom: 1px solid color-mix(in srgb, currentColor 20%, transparent); text-align: right; }
th:first-child, td:first-child { text-align: left; }
caption { text-align: left; font-weight: 600; padding-bottom: 0.25rem; }
.low { font-style: italic; text-decoration: underline dotted; }
.yours { color: var(--rp-accent, Highlight); }
form { display: flex; flex-wrap: wrap; gap: 0.5rem 1rem; align-items: end; margin: 0.5rem 0; }
label { display: inline-flex; flex-direction: column; gap: 0.15rem; font-size: 0.9em; }
select, button { font: inherit; color: inherit; min-height: 2rem; border-radius: var(--rp-radius, 6px);
  padding: 0.3rem 0.55rem; border: 1px solid var(--rp-border, color-mix(in srgb, currentColor 30%, transparent));
  background-color: var(--rp-surface, transparent); }
button:disabled { opacity: 0.55; }
.sentence { font-weight: 500; }
.scroll { overflow-x: auto; }
`;

function node(tag, props = {}, children = []) {
  const element = Object.assign(document.createElement(tag), props);
  element.append(...children);
  return element;
}
const fill = (text, values) => text.replace(/\{(\w+)\}/g, (m, k) => (k in values ? String(values[k]) : m));

export class RelposReproduction extends ShadowHost {
  #root = this.shadowRoot;
  #results = null;
  #words = (key) => key;
  #separator = ' ';
  #runner = null;
  #controller = null;
  #mine = new Map(); // "task/scheme/seed" → the reader's run
  #status = '';
  #task = null;

  get results() {
    return this.#results;
  }
  set results(value) {
    this.#results = value;
    this.#task = value?.tasks[0]?.id ?? null;
    this.#render();
  }
  get words() {
    return this.#words;
  }
  set words(fn) {
    if (typeof fn !== 'function') throw new TypeError('relpos-reproduction: words must be a function');
    this.#words = fn;
    this.#render();
  }
  get separator() {
    return this.#separator;
  }
  set separator(value) {
    this.#separator = String(value);
    this.#render();
  }
  get runner() {
    return this.#runner;
  }
  set runner(fn) {
    if (fn !== null && typeof fn !== 'function') {
      throw new TypeError('relpos-reproduction: runner must be a function or null');
    }
    this.#runner = fn;
  }
  /** The reader's runs so far: { task, scheme, seed, evalLengths, exactMatch }. */
  get readerRuns() {
    return [...this.#mine.values()];
  }

  connectedCallback() {
    this.#render();
  }
  disconnectedCallback() {
    this.#controller?.abort();
  }

  #label(id) {
    return this.#results.schemes.find((s) => s.id === id)?.label ?? id;
  }

  #render() {
    if (!this.isConnected) return;
    const style = node('style', { textContent: STYLE });
    if (!this.#results) {
      this.#root.replaceChildren(style);
      return;
    }
    const w = this.#words;
    const r = this.#results;
    const c = r.configuration;
    const budget = fill(w('repro.budget'), {
      layers: c.model.layers,
      heads: c.model.heads,
      dModel: c.model.dModel,
      dFF: c.model.dFF,
      parameters: r.parameters.toLocaleString('en-US'),
      ratio: roughly(r.paper.parameters / r.parameters),
      steps: stepsPerTask(r, w),
      batch: c.training.batch,
      L: r.tasks[0].length,
      upTo: c.evalFactor * r.tasks[0].length,
      evalSequences: c.evalSequences,
      seeds: r.seeds.join(', '),
      cells: r.runs.length,
      seconds: Math.round(r.time.seconds),
      workers: r.time.workers,
    });
    const sentence = node('p', { className: 'sentence', textContent: agreementSentence(r, w, this.#separator) });
    sentence.dataset.role = 'agreement';
    this.#root.replaceChildren(
      style,
      // The command is code in every language: its words go in a <code> element, not the sentence.
      node(
        'p',
        {},
        w('repro.lead')
          .split(/(\{command\})/)
          .map((part) => (part === '{command}' ? node('code', { textContent: 'npm run lab:reproduce' }) : part)),
      ),
      node('p', { className: 'budget', textContent: budget }),
      sentence,
      this.#scrollingTable(),
      this.#figure(),
      this.#controls(),
      node('p', { className: 'status', textContent: this.#status, role: 'status' }),
      this.#readerSummary(),
    );
    this.#drawFigure();
  }

  // The table in a region a keyboard can scroll (it is wider than a phone).
  #scrollingTable() {
    const region = node('div', { className: 'scroll', tabIndex: 0 }, [this.#table()]);
    region.setAttribute('role', 'region');
    region.setAttribute(
      'aria-label',
      fill(this.#words('repro.table.caption'), { threshold: fixed2(this.#results.agreement.threshold) }),
    );
    return region;
  }

  /** Rows: schemes; per task in-distribution and at-2L accuracy (mean ± spread over seeds), then MRR and the paper's place. */
  #table() {
    const w = this.#words;
    const r = this.#results;
    const s = r.summary;
    const head = node('tr', {}, [
      node('th', { textContent: w('repro.col.scheme'), scope: 'col' }),
      ...r.tasks.flatMap((t) => [
        node('th', { textContent: fill(w('repro.col.inDist'), { task: w(`repro.task.${t.id}`) }), scope: 'col' }),
        node('th', { textContent: fill(w('repro.col.at2L'), { task: w(`repro.task.${t.id}`) }), scope: 'col' }),
      ]),
      node('th', { textContent: w('repro.col.mrr'), scope: 'col' }),
      node('th', { textContent: w('repro.col.mrrAll'), scope: 'col' }),
      node('th', { textContent: w('repro.col.paper'), scope: 'col' }),
    ]);
    const paperPlace = (id) => {
      if (id === r.paper.first) return fill(w('repro.paper.first'), { mrr: fixed2(r.paper.firstMrr) });
      if (id === r.paper.second) return w('repro.paper.second');
      if (r.paper.behind.includes(id)) return w('repro.paper.behind');
      return w('repro.paper.none');
    };
    const mine = this.#readerSummaryData();
    const rows = r.schemes.map((scheme) =>
      node('tr', {}, [
        node('th', { textContent: scheme.label, scope: 'row' }),
        ...r.tasks.flatMap((t) => {
          const cell = s.table[t.id][scheme.id];
          const yours = this.#mineAt2L(t.id, scheme.id);
          const at2L = node('td', { textContent: `${fixed2(cell.at2L.mean)} ± ${fixed2(cell.at2L.spread)}` });
          if (yours !== null) {
            at2L.append(
              node('span', {
                className: 'yours',
                textContent: ` (${fill(w('repro.yours'), { value: fixed2(yours) })})`,
              }),
            );
          }
          return [
            node('td', {
              textContent: fixed2(cell.inDistributionWorst),
              className: cell.inDistributionWorst < r.agreement.threshold ? 'low' : '',
            }),
            at2L,
          ];
        }),
        node('td', {
          textContent: scheme.paper
            ? fixed2(s.mrrPaper[scheme.id]) +
              (mine ? ` (${fill(w('repro.yours'), { value: fixed2(mine.mrrPaper[scheme.id]) })})` : '')
            : '–',
        }),
        node('td', { textContent: fixed2(s.mrrAll[scheme.id]) }),
        node('td', { textContent: paperPlace(scheme.id) }),
      ]),
    );
    return node('table', {}, [
      node('caption', { textContent: fill(w('repro.table.caption'), { threshold: fixed2(r.agreement.threshold) }) }),
      node('thead', {}, [head]),
      node('tbody', {}, rows),
    ]);
  }

  #figure() {
    const w = this.#words;
    const pick = node(
      'select',
      { className: 'figure-task' },
      this.#results.tasks.map((t) =>
        node('option', { value: t.id, textContent: w(`repro.task.${t.id}`), selected: t.id === this.#task }),
      ),
    );
    pick.addEventListener('change', () => {
      this.#task = pick.value;
      this.#drawFigure();
    });
    return node('figure', { className: 'figure' }, [
      node('label', {}, [w('repro.figure.task'), pick]),
      node('div', { className: 'plot' }),
    ]);
  }

  #drawFigure() {
    const w = this.#words;
    const r = this.#results;
    const task = r.tasks.find((t) => t.id === this.#task) ?? r.tasks[0];
    const cells = r.summary.table[task.id];
    const x = cells[r.schemes[0].id].lengths;
    const series = r.schemes.map((s) => ({ label: s.label, y: cells[s.id].mean }));
    for (const s of r.schemes) {
      const runs = r.seeds.map((seed) => this.#mine.get(`${task.id}/${s.id}/${seed}`)).filter(Boolean);
      if (runs.length) {
        series.push({
          label: fill(w('repro.figure.yours'), { scheme: s.label }),
          y: x.map((_, k) => runs.reduce((a, run) => a + run.exactMatch[k], 0) / runs.length),
        });
      }
    }
    renderCurve(this.#root.querySelector('.plot'), {
      x,
      series,
      xLabel: w('repro.figure.x'),
      yLabel: w('repro.figure.y'),
      title: fill(w('repro.figure.title'), { task: w(`repro.task.${task.id}`), L: task.length }),
    });
  }

  #controls() {
    const w = this.#words;
    const r = this.#results;
    const select = (name, items) =>
      node('label', {}, [
        w(`repro.rerun.${name}`),
        node(
          'select',
          { name },
          items.map(([value, text]) => node('option', { value: String(value), textContent: text })),
        ),
      ]);
    const form = node('form', {}, [
      select(
        'task',
        r.tasks.map((t) => [t.id, w(`repro.task.${t.id}`)]),
      ),
      select(
        'scheme',
        r.schemes.map((s) => [s.id, s.label]),
      ),
      select(
        'seed',
        r.seeds.map((s) => [s, String(s)]),
      ),
      node('button', { type: 'submit', className: 'rerun-cell', textContent: w('repro.rerun.cell') }),
      node('button', { type: 'button', className: 'rerun-all', textContent: w('repro.rerun.all') }),
      node('button', {
        type: 'button',
        className: 'cancel',
        textContent: w('repro.rerun.cancel'),
        disabled: !this.#controller,
      }),
    ]);
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const value = (name) => form.querySelector(`[name=${name}]`).value;
      void this.rerun([{ task: value('task'), scheme: value('scheme'), seed: Number(value('seed')) }]);
    });
    form.querySelector('.rerun-all').addEventListener('click', () => void this.rerun());
    form.querySelector('.cancel').addEventListener('click', () => this.#controller?.abort());
    if (this.#controller) for (const b of form.querySelectorAll('.rerun-cell, .rerun-all')) b.disabled = true;
    return form;
  }

  #mineAt2L(task, scheme) {
    const runs = this.#results.seeds.map((seed) => this.#mine.get(`${task}/${scheme}/${seed}`)).filter(Boolean);
    if (!runs.length) return null;
    const k = this.#results.summary.table[task][scheme].lengths.indexOf(
      this.#results.summary.table[task][scheme].at2L.length,
    );
    return runs.reduce((a, run) => a + run.exactMatch[k], 0) / runs.length;
  }

  // The summary of the reader's runs once they cover every cell, else null.
  #readerSummaryData() {
    if (this.#mine.size < this.#results.runs.length) return null;
    return summariseReproduction(this.#results.preset, this.readerRuns);
  }

  #readerSummary() {
    const mine = this.#readerSummaryData();
    if (!mine) return node('p', { className: 'reader-summary' });
    const w = this.#words;
    const same = this.readerRuns.every((run) => {
      const committed = this.#results.runs.find(
        (c) => c.task === run.task && c.scheme === run.scheme && c.seed === run.seed,
      );
      return committed && committed.exactMatch.every((v, k) => v === run.exactMatch[k]);
    });
    return node('p', {
      className: 'reader-summary',
      textContent: fill(w('repro.rerun.allDone'), {
        ranking: mine.rankingPaper.map((id) => this.#label(id)).join(' > '),
        committed: this.#results.summary.rankingPaper.map((id) => this.#label(id)).join(' > '),
        same: same ? w('repro.rerun.same') : w('repro.rerun.differs'),
      }),
    });
  }

  /**
   * Reruns cells in the reader's browser (all of them without an argument) with the committed
   * options; resolves with the reader's runs. Their numbers join the table and the figure.
   * @param {{ task: string, scheme: string, seed: number }[]} [cells]
   */
  async rerun(cells) {
    const r = this.#results;
    const list = cells ?? r.runs.map(({ task, scheme, seed }) => ({ task, scheme, seed }));
    for (const cell of list) {
      if (!r.cellOptions[`${cell.task}/${cell.scheme}/${cell.seed}`]) {
        throw new RangeError(
          `relpos-reproduction: rerun: no cell ${cell.task}/${cell.scheme}/${cell.seed} in the results`,
        );
      }
    }
    this.#controller?.abort();
    const controller = (this.#controller = new AbortController());
    const runner =
      this.#runner ??
      (await load({ lab: true, models: false }).then(
        (rp) => (options, control) => rp.lab.train({ ...options, ...control }),
      ));
    const w = this.#words;
    const start = performance.now();
    try {
      for (const [k, cell] of list.entries()) {
        this.#status = fill(w('repro.rerun.running'), {
          done: k,
          total: list.length,
          task: w(`repro.task.${cell.task}`),
          scheme: this.#label(cell.scheme),
          seed: cell.seed,
        });
        this.#render();
        const key = `${cell.task}/${cell.scheme}/${cell.seed}`;
        const result = await runner(r.cellOptions[key], { signal: controller.signal });
        this.#mine.set(key, {
          ...cell,
          evalLengths: Array.from(result.evalLengths),
          exactMatch: Array.from(result.exactMatch),
        });
      }
      const last = list[list.length - 1];
      const key = `${last.task}/${last.scheme}/${last.seed}`;
      const committed = r.runs.find((c) => c.task === last.task && c.scheme === last.scheme && c.seed === last.seed);
      const mine = this.#mine.get(key);
      const differs = committed.exactMatch.filter((v, k) => v !== mine.exactMatch[k]).length;
      this.#status = fill(w('repro.rerun.cellDone'), {
        cells: list.length,
        seconds: ((performance.now() - start) / 1000).toFixed(1),
        task: w(`repro.task.${last.task}`),
        scheme: this.#label(last.scheme),
        seed: last.seed,
        same:
          differs === 0
            ? w('repro.rerun.same')
            : fill(w('repro.rerun.differsAt'), { count: differs, total: mine.exactMatch.length }),
      });
      this.dataset.state = 'done';
      this.dispatchEvent(new CustomEvent('relpos-reproduction-result', { detail: { runs: this.readerRuns } }));
    } catch (error) {
      this.#status = controller.signal.aborted
        ? w('repro.rerun.cancelled')
        : fill(w('repro.rerun.failed'), { message: error.message });
      this.dataset.state = controller.signal.aborted ? 'cancelled' : 'error';
    } finally {
      if (this.#controller === controller) this.#controller = null;
      this.#render();
    }
    return this.readerRuns;
  }
}

if (!customElements.get('relpos-reproduction')) customElements.define('relpos-reproduction', RelposReproduction);
