// rp.lab: the extrapolation lab. Trains a tiny causal attention model in the core (job kind "train",
// src/relpos/lab.cpp) on a synthetic task at length L and evaluates it at L, 2L, 4L, 8L. This file
// only checks and moves arguments and results; every number is computed in the core.
import { isPlainObject } from './convert.js';

const WHERE = 'relpos.lab.train';

/** The synthetic tasks (targets are generated on the fly from the seed). */
export const LAB_TASKS = Object.freeze(
  [
    { id: 'copy', name: 'Copy k back', description: 'Predict the token `offset` positions back.' },
    {
      id: 'retrieve',
      name: 'Most recent marker',
      description: 'Predict the token that followed the most recent marker (induction-style; needs 2 layers).',
    },
    { id: 'reverse', name: 'Reverse', description: 'After a separator, write the first half backwards.' },
    { id: 'sort', name: 'Sort', description: 'After a separator, write the first half in ascending order.' },
    {
      id: 'count',
      name: 'Count since delimiter',
      description: 'Predict how many tokens since the last delimiter (capped at vocab − 1).',
    },
  ].map(Object.freeze),
);

/** The schemes the lab trains with, and the attention modes each accepts ('auto' picks the first). */
export const LAB_SCHEMES = Object.freeze(
  [
    { id: 'none', name: 'NoPE', modes: ['explicit'] },
    { id: 'sinusoidal', name: 'Sinusoidal', modes: ['implicit', 'mixed', 'input'] },
    { id: 'alibi', name: 'ALiBi', modes: ['explicit', 'mixed'] },
    { id: 't5', name: 'T5 buckets (learned)', modes: ['explicit', 'mixed'] },
    { id: 'kerple-log', name: 'KERPLE log (learned r1, r2)', modes: ['explicit', 'mixed'] },
    { id: 'fire', name: 'FIRE (learned MLP)', modes: ['explicit', 'mixed'] },
    { id: 'rope', name: 'RoPE', modes: ['explicit'] },
    { id: 'rope-linear', name: 'RoPE + linear interpolation at evaluation', modes: ['explicit'] },
    { id: 'xpos', name: 'xPos', modes: ['explicit'] },
  ].map((s) => Object.freeze({ ...s, modes: Object.freeze(s.modes) })),
);

/** The core's defaults (a default experiment: one scheme, copy task, L = 32, 500 steps). */
export const LAB_DEFAULTS = Object.freeze({
  scheme: 'rope',
  task: 'copy',
  mode: 'auto',
  length: 32,
  offset: 2,
  vocab: 16,
  layers: 1,
  heads: 2,
  dModel: 32,
  dFF: 64,
  normalisation: true,
  steps: 500,
  batch: 16,
  warmup: 50,
  lr: 0.01,
  clip: 1,
  schedule: 'cosine',
  minLrRatio: 0.1,
  weightDecay: 0,
  seed: 1,
  evalSequences: 16,
});

const copyOut = (tensor) => ({ shape: tensor.shape.slice(), data: tensor.data });

/**
 * @param {{ runJob: (kind: string, options: object, control: object) => Promise<object> }} rp a loaded
 *   relpos instance (its runJob steps the core job between event-loop turns)
 */
export function createLab(rp) {
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
    const steps = core.steps ?? LAB_DEFAULTS.steps;
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
      options: { ...LAB_DEFAULTS, ...core },
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
  return Object.freeze({ tasks: LAB_TASKS, schemes: LAB_SCHEMES, defaults: LAB_DEFAULTS, train });
}
