// Types of rp.lab, the extrapolation lab: train a tiny attention model per scheme, test it on longer sequences.
import type { ParamInfo, Tensor } from './index.js';

export type LabTaskId = 'copy' | 'retrieve' | 'duplicate' | 'reverse' | 'sort' | 'addition' | 'count';
/** The schemes with lab hooks (rp.lab.schemes); 'none' is the earlier name of 'nope'. */
export type LabSchemeId =
  | 'nope'
  | 'none'
  | 'sinusoidal'
  | 'alibi'
  | 't5'
  | 'kerple-log'
  | 'fire'
  | 'rope'
  | 'rope-linear'
  | 'xpos'
  | 'p-rope'
  | 'rope-2d';

export interface LabTask {
  id: LabTaskId;
  name: string;
  description: string;
}

export interface LabScheme {
  id: LabSchemeId;
  name: string;
  /** Attention modes this scheme accepts; `'auto'` picks the first. */
  modes: readonly ('explicit' | 'implicit' | 'mixed' | 'input')[];
  /** The lab options only this scheme reads (e.g. t5: numBuckets, maxDistance). */
  options: readonly string[];
}

/** Everything the lab accepts, as the core defines it (rp.lab.schema). */
export interface LabSchema {
  /** Every option of train() with its type, default, range and doc. */
  options: Readonly<Record<string, ParamInfo>>;
  schemes: readonly LabScheme[];
  tasks: readonly LabTask[];
}

export interface LabOptions {
  scheme?: LabSchemeId;
  task?: LabTaskId;
  /** explicit: QKᵀ/√d + B; implicit: Q(K + P)ᵀ/√d; mixed: (QKᵀ + αB + βQPᵀ)/√d; input: sinusoidal added to the embeddings. */
  mode?: 'auto' | 'explicit' | 'implicit' | 'mixed' | 'input';
  alpha?: number;
  beta?: number;
  /** Training length L (4–128, one the task can lay out); evaluation at L, 2L, 4L, 8L unless evalUpTo is set. */
  length?: number;
  /** fixed: every training sequence has length L; upTo: each step's batch has a length drawn from the task's lengths up to L. */
  trainLengths?: 'fixed' | 'upTo';
  /** 0: evaluate at L, 2L, 4L, 8L (each the longest length ≤ it the task allows); otherwise at every length the task allows up to this (≤ 512). */
  evalUpTo?: number;
  /** copy: predict the token this many positions back. */
  offset?: number;
  vocab?: number;
  layers?: number;
  heads?: number;
  dModel?: number;
  dFF?: number;
  /** Layer norm before attention, feed-forward and output. */
  normalisation?: boolean;
  steps?: number;
  batch?: number;
  warmup?: number;
  lr?: number;
  /** Global-norm gradient clipping threshold; 0 turns clipping off. */
  clip?: number;
  schedule?: 'cosine' | 'linear' | 'constant';
  minLrRatio?: number;
  weightDecay?: number;
  seed?: number;
  evalSequences?: number;
  numBuckets?: number;
  maxDistance?: number;
  fireHidden?: number;
  fireC?: number;
  /** Called between core steps with the fraction done and the curves so far. */
  onProgress?: (fraction: number, detail: LabProgress) => void;
  /** Aborting cancels the job (the promise rejects with an AbortError) and frees it. */
  signal?: AbortSignal;
}

export interface LabProgress {
  step: number;
  steps: number;
  /** Latest training loss and gradient norm (before clipping); NaN before the first step. */
  loss: number;
  gradNorm: number;
  losses: Float32Array;
  gradNorms: Float32Array;
}

export interface LabResult {
  options: Required<Pick<LabOptions, 'scheme' | 'task' | 'length' | 'steps' | 'seed'>> & LabOptions;
  /** Training loss per step. */
  loss: Float32Array;
  /** Global gradient norm per step, before clipping. */
  gradNorm: Float32Array;
  learningRate: Float32Array;
  /** [L, 2L, 4L, 8L], or every length the task allows up to evalUpTo. */
  evalLengths: number[];
  /** Accuracy on the target positions per evaluation length. */
  accuracy: Float32Array;
  evalLoss: Float32Array;
  /** Fraction of evaluation sequences per length whose every target was predicted (exact match). */
  exactMatch: Float32Array;
  /** Learned weights of the model (embedding, blocks, output and the scheme's positional weights). */
  parameters: number;
  /** Attention weights of one evaluation example, [layers·heads, n, n] (layer-major), at n = L and 4L. */
  attention: { L: Tensor; '4L': Tensor };
  tokens: { L: Float32Array; '4L': Float32Array };
}

/**
 * The lab lives in the analysis module, which a page loads on first use: train() waits for it; the
 * schema and what derives from it (tasks, schemes, defaults) throw an Error until `ready` resolves.
 */
export interface Lab {
  /**
   * Resolves once the analysis module has loaded; the first read starts loading it.
   * @example await rp.lab.ready; rp.lab.tasks.map((t) => t.id);
   */
  readonly ready: Promise<void>;
  /** The options, schemes and tasks from the core, with defaults, ranges and docs. */
  readonly schema: LabSchema;
  readonly tasks: readonly LabTask[];
  readonly schemes: readonly LabScheme[];
  readonly defaults: Readonly<LabOptions>;
  /** Loads the analysis module if needed, then trains. */
  train(options?: LabOptions): Promise<LabResult>;
  /**
   * Several runs (a scheme or seed comparison), results in the order of `runs`, each equal bit for
   * bit to `train(runs[i])`. With `workers` every run is a job on a worker of its own (Node worker
   * threads, browser Web Workers; docs/workers.md); without, they train here one after another.
   * @example await rp.lab.trainMany(['rope', 'alibi', 't5', 'nope'].map((scheme) => ({ scheme, steps: 200 })), { workers: 'auto' })
   */
  trainMany(runs: readonly LabOptions[], options?: LabManyOptions): Promise<LabResult[]>;
}

/** What trainMany reports: the fraction over all runs, then the run, its own fraction and detail. */
export interface LabManyProgress {
  run: number;
  fraction: number;
  detail?: LabProgress;
}

export interface LabManyOptions {
  /** A pool of N workers, or 'auto' (the machine's cores less one, at least one). */
  workers?: Workers;
  onProgress?: (fraction: number, progress: LabManyProgress) => void;
  signal?: AbortSignal;
}

/** A worker count: a whole number from 1 to 256, or 'auto' (cores − 1, at least 1). */
export type Workers = number | 'auto';

export function createLab(module: {
  ready(): Promise<void>;
  schema(): LabSchema;
  runJob(kind: string, options: object, control: object): Promise<object>;
  pooled?(runs: object[], workers: Workers, control: object): Promise<LabResult[]>;
}): Lab;
