// English words of <relpos-lab> (the extrapolation lab); messages.zh.js holds the 中文 ones. A page
// passes labMessagesFor(language) through the element's `messages` property (the chapter's labs and
// /lab.html alike); keys missing there fall back to these.
import { labMessagesZh } from './messages.zh.js';
export const labMessages = Object.freeze({
  title: 'Extrapolation lab',
  intro:
    'Train a tiny attention model on a task where position is what matters, at length L, then test it at 2L, 4L and 8L. Everything runs in the wasm core, step by step.',
  task: 'Task',
  schemes: 'Schemes',
  length: 'Training length L',
  offset: 'Copy offset k (tokens back)',
  steps: 'Steps',
  layers: 'Layers',
  heads: 'Heads',
  lr: 'Learning rate',
  clip: 'Clip gradient norm at (0 = off)',
  normalisation: 'Layer normalisation',
  seed: 'Seed',
  train: 'Train',
  cancel: 'Cancel',
  clear: 'Clear results',
  idle: 'Pick schemes and a task, then train.',
  running: 'Training {scheme} ({run}/{runs}): step {step}/{steps}, loss {loss}',
  evaluating: 'Evaluating {scheme} at L … 8L',
  finished: 'Done: {count} run(s) in {seconds} s.',
  cancelled: 'Cancelled.',
  failed: 'Failed: {message}',
  lossTitle: 'Training loss',
  gradTitle: 'Gradient norm (before clipping)',
  accuracyTitle: 'Token accuracy (share of target tokens right) against evaluation length',
  step: 'step',
  lossAxis: 'cross-entropy',
  gradAxis: '‖g‖',
  lengthAxis: 'evaluation length',
  accuracyAxis: 'token accuracy',
  chance: 'chance, 1/{vocab}',
  heatmapsTitle: 'Learned attention weights of one evaluation example',
  run: 'Run',
  head: 'Head',
  atL: 'at L = {n}',
  at4L: 'at 4L = {n}',
  runLabel: '{scheme} · lr {lr} · clip {clip} · {norm}',
  normOn: 'LN',
  normOff: 'no LN',
  tasks: {
    copy: 'Copy the token k back',
    retrieve: 'Most recent marker (induction)',
    duplicate: 'Copy the first half',
    reverse: 'Reverse',
    sort: 'Sort',
    addition: 'Addition (lengths 3k + 2)',
    count: 'Count since delimiter',
  },
  schemeNames: {
    nope: 'NoPE',
    sinusoidal: 'Sinusoidal (keys)',
    alibi: 'ALiBi',
    t5: 'T5 (learned)',
    'kerple-log': 'KERPLE log',
    fire: 'FIRE',
    rope: 'RoPE',
    'rope-linear': 'RoPE + linear PI at eval',
    xpos: 'xPos',
    'p-rope': 'p-RoPE',
    'rope-2d': '2-D RoPE',
  },
});

/** The lab's words in a page language ('en' or 'zh'). */
export function labMessagesFor(language) {
  return language === 'zh' ? labMessagesZh : labMessages;
}
