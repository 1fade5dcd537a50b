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
 * }} module `ready` loads the analysis module (once); `schema` reads the core's lab schema
 *   { options, schemes, tasks } (throws while the module is loading); `runJob` steps a job of that
 *   module between event-loop turns
 */
export function createLab({ ready, schema, runJob }) {
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
  });
}
