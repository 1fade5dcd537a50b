// rp.lab: the extrapolation lab. Trains a tiny causal attention model in the core (job kind "train",
// src/relpos/lab/) on a synthetic task at length L and evaluates it at L, 2L, 4L, 8L (or at every
// length up to evalUpTo). Its tasks,
// schemes and options (with defaults, ranges and docs) come from the core as rp.lab.schema; this
// file only checks and moves arguments and results; every number is computed in the core. The lab
// lives in the analysis module: train() waits for it; the schema and what derives from it can be
// read once `ready` has resolved.
import { deepFreeze, isPlainObject } from './convert.js';

const WHERE = 'relpos.lab.train';

const copyOut = (tensor) => ({ shape: tensor.shape.slice(), data: tensor.data });

// train()'s options split into what goes to the core and the call's own controls; a TypeError
// for anything that is not an options object of numbers, booleans and strings.
function trainOptions(options) {
  if (!isPlainObject(options)) throw new TypeError(`${WHERE}: options must be a plain object`);
  const { onProgress, signal, ...rest } = options;
  if (onProgress !== undefined && typeof onProgress !== 'function') {
    throw new TypeError(`${WHERE}: onProgress must be a function`);
  }
  const core = {};
  for (const [name, value] of Object.entries(rest)) {
    if (value === undefined) continue;
    if (!['number', 'boolean', 'string'].includes(typeof value)) {
      throw new TypeError(
        `${WHERE}: ${name} must be a number, boolean or string, got ${value === null ? 'null' : typeof value}`,
      );
    }
    core[name] = value;
  }
  return { core, onProgress, signal };
}

const MANY = 'relpos.lab.trainMany';

// trainMany()'s runs (each as train() reads it) and its own options; a TypeError / RangeError
// naming the run or option otherwise.
function trainManyOptions(runs, options) {
  if (!Array.isArray(runs) || runs.length === 0) {
    throw new TypeError(`${MANY}: runs must be a non-empty array of train() options`);
  }
  if (!isPlainObject(options)) throw new TypeError(`${MANY}: options must be a plain object`);
  const { workers, onProgress, signal, ...unknown } = options;
  const extra = Object.keys(unknown);
  if (extra.length) {
    throw new RangeError(`${MANY}: unknown option '${extra[0]}'; allowed: 'workers', 'onProgress', 'signal'`);
  }
  if (onProgress !== undefined && typeof onProgress !== 'function') {
    throw new TypeError(`${MANY}: onProgress must be a function`);
  }
  if (signal !== undefined && (signal === null || typeof signal.aborted !== 'boolean')) {
    throw new TypeError(`${MANY}: signal must be an AbortSignal`);
  }
  const cores = runs.map((run, index) => {
    if (isPlainObject(run) && ('onProgress' in run || 'signal' in run || 'workers' in run)) {
      throw new TypeError(`${MANY}: runs[${index}] must not hold onProgress, signal or workers (give them in options)`);
    }
    try {
      return trainOptions(run).core;
    } catch (error) {
      throw new TypeError(error.message.replace(`${WHERE}: `, `${MANY}: runs[${index}]: `), { cause: error });
    }
  });
  return { cores, workers, onProgress, signal };
}

// trainMany without workers: the runs one after another on this core.
async function inTurn(cores, run, { onProgress, signal }) {
  const results = [];
  for (const [index, core] of cores.entries()) {
    const progress =
      onProgress &&
      ((fraction, detail) => onProgress((index + fraction) / cores.length, { run: index, fraction, detail }));
    results.push(await run(core, { onProgress: progress, signal }));
  }
  return results;
}

// rp.lab.trainMany, from train()'s `run` and the pool's `pooled`.
function manyTrainer({ ready, run, pooled }) {
  /**
   * Several runs (a scheme or seed comparison): runs[i] are train() options; resolves with their
   * results in order, each equal to train(runs[i])'s. `workers: N | 'auto'` trains each run as a
   * job on a worker of its own (docs/workers.md); without it they train here one after another.
   * onProgress(fraction, { run, fraction, detail }): the fraction over all runs, and that run's own
   * fraction and train() detail.
   */
  return function trainMany(runs, options = {}) {
    let checked;
    try {
      checked = trainManyOptions(runs, options);
    } catch (error) {
      return Promise.reject(error);
    }
    const { cores, workers, onProgress, signal } = checked;
    if (workers === undefined) return ready().then(() => inTurn(cores, run, { onProgress, signal }));
    if (!pooled) return Promise.reject(new Error(`${MANY}: workers are not available here`));
    return pooled(cores, workers, { onProgress, signal, where: MANY });
  };
}

// The train job's tensors as rp.lab.train returns them.
function labResult(r, options) {
  return {
    options,
    loss: r.loss.data,
    gradNorm: r.gradNorm.data,
    learningRate: r.learningRate.data,
    evalLengths: Array.from(r.evalLengths.data),
    accuracy: r.accuracy.data,
    evalLoss: r.evalLoss.data,
    exactMatch: r.exactMatch.data,
    parameters: r.parameters.data[0],
    attention: { L: copyOut(r.attentionL), '4L': copyOut(r.attention4L) },
    tokens: { L: r.tokensL.data, '4L': r.tokens4L.data },
  };
}

/**
 * @param {{
 *   ready: () => Promise<void>,
 *   schema: () => object,
 *   runJob: (kind: string, options: object, control: object) => Promise<object>,
 *   pooled?: (runs: object[], control: object) => Promise<object[]>,
 * }} module `ready` loads the analysis module (once); `schema` reads the core's lab schema
 *   { options, schemes, tasks } (throws while the module is loading); `runJob` steps a job of that
 *   module between event-loop turns; `pooled` trains runs on a pool of workers (pool.js)
 */
export function createLab({ ready, schema, runJob, pooled }) {
  let frozen = null;
  let defaults = null;
  // The schema and the defaults, read from the module the first time they are needed.
  const loaded = () => {
    if (!frozen) {
      frozen = deepFreeze(schema());
      defaults = Object.freeze(
        Object.fromEntries(Object.entries(frozen.options).map(([name, info]) => [name, info.default])),
      );
    }
    return { frozen, defaults };
  };
  function train(options = {}) {
    let checked;
    try {
      checked = trainOptions(options);
    } catch (error) {
      return Promise.reject(error);
    }
    const { core, onProgress, signal } = checked;
    return ready().then(() => run(core, { onProgress, signal }));
  }

  function run(core, { onProgress, signal }) {
    const { defaults } = loaded();
    const steps = core.steps ?? defaults.steps;
    let detail = {
      step: 0,
      steps,
      loss: NaN,
      gradNorm: NaN,
      losses: new Float32Array(0),
      gradNorms: new Float32Array(0),
    };
    // runJob calls onStep (then onProgress) after each core step: read the curves so far there.
    const onStep =
      onProgress &&
      ((module, handle) => {
        const peek = module.jobPeek(handle);
        if (!peek || typeof peek.error === 'string') return;
        const losses = peek.loss.data,
          gradNorms = peek.gradNorm.data;
        detail = {
          step: losses.length,
          steps,
          loss: losses.length ? losses[losses.length - 1] : NaN,
          gradNorm: gradNorms.length ? gradNorms[gradNorms.length - 1] : NaN,
          losses,
          gradNorms,
        };
      });
    const progress = onProgress && ((fraction) => onProgress(fraction, detail));
    return runJob('train', core, { onProgress: progress, onStep, signal, where: WHERE }).then((r) =>
      labResult(r, { ...defaults, ...core }),
    );
  }
  const trainMany = manyTrainer({ ready, run, pooled });

  return Object.freeze({
    /** Resolves once the analysis module, which holds the lab, has loaded (the first read starts loading it). */
    get ready() {
      return ready();
    },
    get schema() {
      return loaded().frozen;
    },
    get tasks() {
      return loaded().frozen.tasks;
    },
    get schemes() {
      return loaded().frozen.schemes;
    },
    get defaults() {
      return loaded().defaults;
    },
    train,
    trainMany,
  });
}
