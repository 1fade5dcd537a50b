// rp.lab: the extrapolation lab. Trains a tiny causal attention model in the core (job kind "train",
// src/relpos/lab/) on a synthetic task at length L and evaluates it at L, 2L, 4L, 8L. Its tasks,
// schemes and options (with defaults, ranges and docs) come from the core as rp.lab.schema; this
// file only checks and moves arguments and results; every number is computed in the core.
import { deepFreeze, isPlainObject } from './convert.js';

const WHERE = 'relpos.lab.train';

const copyOut = (tensor) => ({ shape: tensor.shape.slice(), data: tensor.data });

/**
 * @param {{ runJob: (kind: string, options: object, control: object) => Promise<object> }} rp a loaded
 *   relpos instance (its runJob steps the core job between event-loop turns)
 * @param {object} schema the core's lab schema { options, schemes, tasks } (labSchemaJson)
 */
export function createLab(rp, schema) {
  const frozen = deepFreeze(schema);
  const defaults = Object.freeze(
    Object.fromEntries(Object.entries(frozen.options).map(([name, info]) => [name, info.default])),
  );
  function train(options = {}) {
    if (!isPlainObject(options)) return Promise.reject(new TypeError(`${WHERE}: options must be a plain object`));
    const { onProgress, signal, ...rest } = options;
    if (onProgress !== undefined && typeof onProgress !== 'function') {
      return Promise.reject(new TypeError(`${WHERE}: onProgress must be a function`));
    }
    const core = {};
    for (const [name, value] of Object.entries(rest)) {
      if (value === undefined) continue;
      if (!['number', 'boolean', 'string'].includes(typeof value)) {
        return Promise.reject(
          new TypeError(
            `${WHERE}: ${name} must be a number, boolean or string, got ${value === null ? 'null' : typeof value}`,
          ),
        );
      }
      core[name] = value;
    }
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
    return rp.runJob('train', core, { onProgress: progress, onStep, signal, where: WHERE }).then((r) => ({
      options: { ...defaults, ...core },
      loss: r.loss.data,
      gradNorm: r.gradNorm.data,
      learningRate: r.learningRate.data,
      evalLengths: Array.from(r.evalLengths.data),
      accuracy: r.accuracy.data,
      evalLoss: r.evalLoss.data,
      attention: { L: copyOut(r.attentionL), '4L': copyOut(r.attention4L) },
      tokens: { L: r.tokensL.data, '4L': r.tokens4L.data },
    }));
  }
  return Object.freeze({ schema: frozen, tasks: frozen.tasks, schemes: frozen.schemes, defaults, train });
}
