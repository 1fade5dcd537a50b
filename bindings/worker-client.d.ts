// Types of relpos/worker: the relpos API in a Web Worker, promise-based.
import type {
  AttentionOptions,
  AttentionOutput,
  AttentionResult,
  ConfigReading,
  Frequencies,
  Preset,
  SchemeInfo,
  SchemeParams,
  Tensor,
  TensorLike,
} from './index.js';

import type { LabManyOptions, LabOptions, LabResult } from './lab.js';

/** Options of long calls: progress in [0, 1], cancellation, and a pool of workers to split over. */
export interface Control {
  onProgress?: (fraction: number, detail?: unknown) => void;
  signal?: AbortSignal;
  /** attentionMap, attentionAsync: split over N workers of the client's pool, or 'auto' (cores − 1). */
  workers?: number | 'auto';
}

/** A pool of the client's workers (one per count of `workers` asked for). */
export interface WorkerPool {
  readonly size: number;
  /** Slots that hold a live worker. */
  readonly live: number;
  /** The Worker of slot `index`, or null (for tests: stop one to see the pool recover). */
  workerOf(index: number): Worker | null;
}

export interface RelposWorker {
  /**
   * Any public member of the instance by name ('bias', 'heapInUse', 'analysis.svd', 'lab.train', …;
   * not runJob); the last options object may carry onProgress / signal. Unknown names are TypeErrors.
   */
  call(method: string, ...args: unknown[]): Promise<any>;
  encoding(id: string, options: SchemeParams): Promise<Tensor>;
  bias(id: string, options: SchemeParams): Promise<Tensor>;
  buckets(id: string, options: SchemeParams): Promise<Tensor<Int32Array>>;
  frequencies(id: string, options: SchemeParams): Promise<Frequencies>;
  rotate(x: TensorLike, options?: SchemeParams): Promise<Tensor>;
  scores(id: string, options: SchemeParams): Promise<Tensor>;
  attention(options: AttentionOptions & { weights: false }): Promise<AttentionOutput>;
  attention(options: AttentionOptions): Promise<AttentionResult>;
  /** Attention of any size as a job in the worker, with progress and cancellation. */
  attentionAsync(options: AttentionOptions & Control & { weights: false }): Promise<AttentionOutput>;
  attentionAsync(options: AttentionOptions & Control): Promise<AttentionResult>;
  /** @example await worker.attentionMap({ n: 1 << 20, scheme: 'alibi', onProgress: (p) => (bar.value = p) }) */
  attentionMap(options: SchemeParams & Control & { n: number }): Promise<Tensor>;
  fromConfig(configJson: object | string): Promise<ConfigReading>;
  readonly version: Promise<string>;
  readonly simd: Promise<boolean>;
  readonly schemes: Promise<readonly SchemeInfo[]>;
  readonly presets: Promise<readonly Preset[]>;
  /** rp.analysis.* by name, as promises. */
  readonly analysis: Record<string, (...args: any[]) => Promise<any>>;
  /** rp.lab.* by name, as promises; trainMany with `workers` spreads the runs over the pool. */
  readonly lab: Record<string, (...args: any[]) => Promise<any>> & {
    trainMany(runs: readonly LabOptions[], options?: LabManyOptions): Promise<LabResult[]>;
  };
  /** The pool of the latest call with `workers`, or null before the first. */
  readonly pool: WorkerPool | null;
  /** Stops the worker and every pool's: pending calls reject with an Error; a later call starts fresh ones. */
  terminate(): void;
}

/**
 * Starts the relpos Web Worker (module worker; worker.js beside this file by default) on the first
 * call. If the worker dies — out of memory, a trap in the core, an uncaught error, or ended by the
 * browser — every pending call rejects with an Error whose message says so, and the next call
 * starts a fresh worker.
 * @example const rp = createRelposWorker(); const b = await rp.bias('alibi', { n: 128, heads: 8 });
 */
export function createRelposWorker(url?: URL | string): RelposWorker;
