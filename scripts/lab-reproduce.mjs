// `npm run lab:reproduce [-- --preset quick|full] [--workers N] [--out FILE] [--resummarise FILE]`: the lab's reproduction
// of Kazemnejad et al. 2023 (docs/lab.md). Every cell (task × scheme × seed) trains in the core
// through rp.lab.train; the cells run on worker threads, each holding its own relpos instance (the
// worker pool of the lab can take their place: a cell is one lab.train call). Writes the results
// file — configuration, seeds, per-length exact-match accuracy of every run, the summary (mean,
// spread, MRR, ranking) and the time taken — by default web/lab/reproduction.json for the full
// preset (the page's committed results) and web/lab/reproduction-quick.json for the quick one.
import { availableParallelism, cpus } from 'node:os';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker, isMainThread, parentPort } from 'node:worker_threads';
import { load } from '../bindings/index.js';
import {
  PAPER,
  REPRODUCTION_PRESETS,
  REPRODUCTION_SCHEMES,
  REPRODUCTION_TASKS,
  reproductionAgreement,
  reproductionCells,
  summariseReproduction,
} from '../bindings/lab-reproduction.js';

/** One cell in this thread: the core's exact-match accuracy per evaluated length, and its time. */
export async function runCell(rp, options) {
  const start = performance.now();
  const r = await rp.lab.train(options);
  return {
    evalLengths: Array.from(r.evalLengths),
    exactMatch: Array.from(r.exactMatch),
    finalLoss: r.loss[r.loss.length - 1],
    parameters: r.parameters,
    ms: Math.round(performance.now() - start),
  };
}

if (!isMainThread) {
  const rp = await load({ analysis: true });
  parentPort.on('message', async (cell) => {
    try {
      parentPort.postMessage({ ...cell, ...(await runCell(rp, cell.options)) });
    } catch (error) {
      parentPort.postMessage({ error: error.message });
    }
  });
  parentPort.postMessage({ ready: true });
}

function argument(name, fallback) {
  const k = process.argv.indexOf(`--${name}`);
  return k >= 0 && k + 1 < process.argv.length ? process.argv[k + 1] : fallback;
}

/** Runs every cell on `workers` threads; resolves with the runs (in finishing order). */
async function runPool(cells, workers, start) {
  const runs = [];
  let next = 0;
  const pool = Array.from(
    { length: Math.min(workers, cells.length) },
    () => new Worker(fileURLToPath(import.meta.url)),
  );
  await Promise.all(
    pool.map(
      (worker) =>
        new Promise((resolve, reject) => {
          const give = () => {
            if (next >= cells.length) {
              worker.terminate().then(resolve, reject);
              return;
            }
            worker.postMessage(cells[next++]);
          };
          worker.on('message', (message) => {
            if (message.error) {
              reject(new Error(message.error));
              return;
            }
            if (!message.ready) {
              const { options, ...run } = message;
              void options;
              runs.push(run);
              process.stderr.write(
                `\r${runs.length}/${cells.length} cells, ${((performance.now() - start) / 1000).toFixed(0)} s   `,
              );
            }
            give();
          });
          worker.on('error', reject);
        }),
    ),
  );
  return { runs, threads: pool.length };
}

// --resummarise FILE: recompute the summary and agreement of a results file from its runs (after a
// change to bindings/lab-reproduction.js's statistics), without training again.
function resummarise(file) {
  const results = JSON.parse(readFileSync(file, 'utf8'));
  results.summary = summariseReproduction(results.preset, results.runs);
  results.agreement = reproductionAgreement(results.summary);
  writeFileSync(file, `${JSON.stringify(results)}\n`);
  console.log(`${file}: summary and agreement recomputed from ${results.runs.length} runs`);
}

async function main() {
  if (process.argv.includes('--resummarise')) {
    resummarise(argument('resummarise'));
    return;
  }
  const preset = argument('preset', 'full');
  if (!REPRODUCTION_PRESETS[preset]) throw new RangeError(`lab:reproduce: unknown preset '${preset}'`);
  const workers = Number(argument('workers', String(availableParallelism())));
  if (!Number.isInteger(workers) || workers < 1) {
    throw new RangeError('lab:reproduce: --workers must be a positive integer');
  }
  const out = argument(
    'out',
    fileURLToPath(
      new URL(
        preset === 'full' ? '../web/lab/reproduction.json' : '../web/lab/reproduction-quick.json',
        import.meta.url,
      ),
    ),
  );
  const cells = reproductionCells(preset);
  const start = performance.now();
  const { runs, threads } = await runPool(cells, workers, start);
  process.stderr.write('\n');
  const seconds = (performance.now() - start) / 1000;
  const order = (r) => cells.findIndex((c) => c.task === r.task && c.scheme === r.scheme && c.seed === r.seed);
  runs.sort((a, b) => order(a) - order(b));
  const summary = summariseReproduction(preset, runs);
  const results = {
    about:
      'relpos lab: a browser-scale reproduction of Kazemnejad et al. 2023 (docs/lab.md); written by npm run lab:reproduce',
    paper: PAPER,
    preset,
    configuration: REPRODUCTION_PRESETS[preset],
    tasks: REPRODUCTION_TASKS,
    schemes: REPRODUCTION_SCHEMES,
    seeds: REPRODUCTION_PRESETS[preset].seeds,
    // The largest model of the run (schemes differ by their positional weights).
    parameters: Math.max(...runs.map((r) => r.parameters)),
    cellOptions: Object.fromEntries(cells.map((c) => [`${c.task}/${c.scheme}/${c.seed}`, c.options])),
    runs,
    summary,
    agreement: reproductionAgreement(summary),
    time: {
      seconds: Math.round(seconds * 10) / 10,
      cellSeconds: Math.round(runs.reduce((a, r) => a + r.ms, 0) / 100) / 10,
      workers: threads,
      cpu: `${cpus()[0]?.model ?? 'unknown'} × ${cpus().length}`,
      node: process.version,
      date: new Date().toISOString(),
    },
  };
  writeFileSync(out, `${JSON.stringify(results)}\n`);
  const agreement = results.agreement;
  console.log(`${cells.length} cells on ${threads} workers in ${seconds.toFixed(1)} s → ${out}`);
  console.log('MRR (paper five):', summary.rankingPaper.map((s) => `${s} ${summary.mrrPaper[s]}`).join(', '));
  console.log('MRR (all seven):', summary.rankingAll.map((s) => `${s} ${summary.mrrAll[s]}`).join(', '));
  for (const task of REPRODUCTION_TASKS) {
    const row = REPRODUCTION_SCHEMES.map((s) => {
      const c = summary.table[task.id][s.id];
      return `${s.label} ${c.inDistributionWorst.toFixed(2)}/${c.at2L.mean.toFixed(2)}`;
    });
    console.log(`${task.label} (worst ≤L / at 2L): ${row.join('  ')}`);
  }
  console.log('agreement:', JSON.stringify(agreement));
}

if (isMainThread && process.argv[1] === fileURLToPath(import.meta.url)) await main();
