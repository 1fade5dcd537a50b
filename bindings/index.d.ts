// Types of the relpos public API (docs/api.md). Hand-written, except each call's options per scheme:
// those come from bindings/schemes.d.ts, generated from the catalogue (scripts/gen-types.mjs). Tests
// type-check a consumer against both (tests/types).
import type {
  AttentionOptionsOf,
  BiasOptions,
  BucketsOptions,
  EncodingOptions,
  FrequenciesOptions,
  RotateOptions,
  SchemeId,
  ScoresOptions,
} from './schemes.js';

export type * from './schemes.js';

/** A dense row-major tensor. Integer maps (buckets) use Int32Array. */
export interface Tensor<T extends Float32Array | Int32Array = Float32Array> {
  shape: number[];
  data: T;
}

/** The typed arrays a tensor's numbers may come in. */
export type NumberArray =
  | Float32Array
  | Float64Array
  | Int32Array
  | Int16Array
  | Int8Array
  | Uint32Array
  | Uint16Array
  | Uint8Array
  | Uint8ClampedArray;

/**
 * Anything the API accepts where a tensor is expected: { shape, data } (data.length the product of
 * shape), a flat list or typed array (shape [length]), nested lists of any depth, or a list of
 * typed-array rows. Where a matrix is expected, leading extents of 1 are dropped ([1, n, n] is [n, n]).
 */
export type TensorLike =
  | { shape: readonly number[]; data: readonly number[] | NumberArray }
  | NumberArray
  | readonly number[]
  | readonly (readonly number[] | NumberArray)[]
  | readonly (readonly (readonly number[] | NumberArray)[])[]
  | readonly (readonly (readonly (readonly number[] | NumberArray)[])[])[];

/** A scheme parameter (or a call's option) as rp.schemes (rp.operations) describes it. */
export interface ParamInfo {
  /** 'string': text the call checks itself; 'options': a nested options object (attention's params). */
  type: 'number' | 'integer' | 'boolean' | 'choice' | 'perHead' | 'array' | 'string' | 'options';
  /** Default value; null when required or derived (e.g. rotaryDim defaults to d). */
  default: number | boolean | string | null;
  /** Inclusive lower bound unless exclusiveMin; null when unbounded. */
  min: number | null;
  max: number | null;
  exclusiveMin: boolean;
  integer: boolean;
  choices?: string[];
  /** 'string' for an array of strings (DeBERTa's posAttType). */
  items?: 'string';
  doc: string;
}

export interface SchemeInfo {
  id: SchemeId;
  family: string;
  name: string;
  cite: string;
  description: string;
  /** The calls this scheme supports: 'encoding', 'bias', 'buckets', 'frequencies', 'rotate', 'scores', 'attention'. */
  calls: string[];
  /** What the scheme can do, so a page asks the catalogue instead of comparing ids. */
  capabilities: {
    /** Position-only scores depend on j − i alone at the default parameters (rp.analysis.translationDefect is 0). */
    shiftInvariant: boolean;
    /** An analytic profile k(r) and its derivative (rp.analysis.derivative, kernelCheck by name). */
    closedForm: boolean;
    /** Trainable in the extrapolation lab (rp.lab.train). */
    lab: boolean;
  };
  params: Record<string, ParamInfo>;
}

/**
 * Scheme parameters in their loose form (the camelCase names rp.schemes lists; unknown names are
 * RangeErrors at run time): what a call takes when the scheme id is a plain string chosen at run
 * time. With a literal id, each call takes that scheme's own parameters (bindings/schemes.d.ts).
 */
export type SchemeParams = Record<string, number | boolean | string | readonly string[] | TensorLike | undefined>;

/** An attention mask: booleans or numbers (nonzero keeps the key), or additive values. */
export type AttentionMask =
  | boolean[][]
  | number[][]
  | boolean[][][]
  | number[][][]
  | (TensorLike & { kind?: 'boolean' })
  | { shape: number[]; data: Float32Array | number[]; kind: 'additive' };

export interface AttentionResult {
  /** [heads, n, m] or [batch, heads, n, m] */
  weights: Tensor;
  /** [n, heads·dv] or [batch, n, heads·dv], present when v was given */
  output?: Tensor;
}

/** What attention returns with weights: false. */
export interface AttentionOutput {
  /** [n, heads·dv] or [batch, n, heads·dv] */
  output: Tensor;
}

type AttentionControl = { onProgress?: (fraction: number) => void; signal?: AbortSignal };

export interface Frequencies {
  /** Rotary inverse frequencies, d/2 values. */
  invFreq: Float32Array;
  /** Magnitude factor on cos and sin (YaRN, LongRoPE); 1 otherwise. */
  attentionFactor: number;
}

/** A real-model preset (docs/presets.md). */
export interface Preset {
  id: string;
  name: string;
  scheme: string;
  params: SchemeParams;
  heads: number;
  source: string;
  /** Informative facts about the model (hidden size, head dim, context length, …). */
  model: Record<string, unknown>;
}

/** What rp.fromConfig read from a Hugging Face config.json. */
export interface ConfigReading {
  scheme: string;
  /** The camelCase names rp.schemes lists; `d` is the rotary dimension, `base` the rope theta. */
  params: SchemeParams;
  heads: number;
  /** What was present but not understood, or read with a fallback. */
  warnings: string[];
  model: { type?: string; headDim?: number; maxPositionEmbeddings?: number };
}

/** A call on schemes as the core's operation table describes it (rp.operations). */
export interface OperationInfo {
  name: string;
  doc: string;
  /**
   * The call's own options besides the scheme's parameters, described like them; `check` says who
   * validates it: the core before the call ('always'), the call itself ('byCall'), or the JS entry
   * ('binding': scheme, params, view).
   */
  options: readonly (ParamInfo & { name: string; check: 'always' | 'byCall' | 'binding' })[];
  /** The JS call that runs it as a job beyond the synchronous work budget, if any. */
  job?: string;
  /** Multiply-adds one synchronous call may do (docs/api.md, "Limits"): 2^34 for attention, 2^30 for the others. */
  budget: number;
  /** Set for calls on a tensor (rotate): the first argument's name; the scheme then comes from options. */
  input?: string;
  defaultScheme?: string;
  /** Result keys and how they are returned: 'tensor', 'array' (its data) or 'number'. */
  returns: Readonly<Record<string, 'tensor' | 'array' | 'number'>>;
}

export interface Relpos {
  /** Package version. */
  readonly version: string;
  /** True when the WebAssembly SIMD build is running. */
  readonly simd: boolean;
  /** Every scheme with its family, citation and parameter metadata. */
  readonly schemes: readonly SchemeInfo[];
  /** The calls on schemes (encoding, bias, buckets, frequencies, rotate, scores, attention) and their options. */
  readonly operations: readonly OperationInfo[];

  /**
   * Absolute position vectors [n, d].
   * @example rp.encoding('sinusoidal', { n: 128, d: 64, layout: 'interleaved' })
   * @example rp.encoding('rope', { n: 16, d: 8, output: 'cos' }) // Hugging Face cos cache
   */
  encoding<Id extends string>(id: Id, options: EncodingOptions<Id>): Tensor;

  /**
   * Additive logit bias B[h, i, j] of a relative-bias scheme, [heads, n, n]; -Infinity above the
   * diagonal when causal. ALiBi with output 'slopes' gives [heads].
   * @example rp.bias('alibi', { n: 128, heads: 8, causal: true })
   */
  bias<Id extends string>(id: Id, options: BiasOptions<Id>): Tensor;

  /**
   * Bucket / clipped-distance index maps [n, n] (Int32).
   * @example rp.buckets('t5', { n: 64, numBuckets: 32, maxDistance: 128 })
   */
  buckets<Id extends string>(id: Id, options: BucketsOptions<Id>): Tensor<Int32Array>;

  /**
   * Rotary inverse frequencies with any scaling; d is the rotary dimension.
   * @example rp.frequencies('rope-yarn', { d: 128, factor: 4, originalMaxPositionEmbeddings: 32768 })
   */
  frequencies<Id extends string>(id: Id, options: FrequenciesOptions<Id>): Frequencies;

  /**
   * Applies a rotary scheme to the rows of x [n, d].
   * @example rp.rotate(x, { scheme: 'rope', layout: 'half', positions: [0, 1, 2, 3] })
   */
  rotate<Id extends string = 'rope'>(x: TensorLike, options?: RotateOptions<Id> & { scheme?: Id }): Tensor;

  /**
   * The position-only logit matrix S[h, i, j] a scheme induces, [heads, n, n]
   * (or s(δ) per offset with output 'offsets').
   * @example rp.scores('rope', { n: 64, d: 64 })
   */
  scores<Id extends string>(id: Id, options: ScoresOptions<Id>): Tensor;

  /**
   * Attention with a positional scheme in explicit, implicit or mixed mode.
   * @example rp.attention({ q, k, v, heads: 2, scheme: 'alibi', causal: true })
   */
  attention<Id extends string = never>(
    options: AttentionOptionsOf<Id> & { scheme?: Id; weights: false },
  ): AttentionOutput;
  attention<Id extends string = never>(options: AttentionOptionsOf<Id> & { scheme?: Id }): AttentionResult;

  /**
   * The same call as a job, for any size (the synchronous call stops at 2^34 multiply-adds), with
   * progress and cancellation; also through the worker.
   * @example await rp.attentionAsync({ q, k: q, v: q, weights: false, onProgress: console.log })
   */
  attentionAsync<Id extends string = never>(
    options: AttentionOptionsOf<Id> & AttentionControl & { scheme?: Id; weights: false },
  ): Promise<AttentionOutput>;
  attentionAsync<Id extends string = never>(
    options: AttentionOptionsOf<Id> & AttentionControl & { scheme?: Id },
  ): Promise<AttentionResult>;

  /**
   * A pooled [size, size] attention-weight map of a long sequence without holding n×n: position-only
   * logits (bias, rotary or sinusoidal schemes; up to n = 1,048,576 for shift-invariant ones) unless
   * `seed` (random N(0,1) Q, K) or `q`, `k` [n, d] are given (content; up to n = 131,072). Rows are
   * normalised exactly; tiles pooled by max or mean.
   * @example const map = await rp.attentionMap({ n: 1 << 20, scheme: 'alibi', heads: 8, size: 512, onProgress: console.log });
   */
  attentionMap(
    options: SchemeParams & {
      n: number;
      d?: number;
      scheme?: string;
      params?: SchemeParams;
      heads?: number;
      head?: number;
      size?: number;
      pool?: 'max' | 'mean';
      causal?: boolean;
      seed?: number;
      q?: TensorLike;
      k?: TensorLike;
      onProgress?: (fraction: number) => void;
      signal?: AbortSignal;
    },
  ): Promise<Tensor>;

  /**
   * Runs a job of the core ('attentionMap') step by step with progress and cancellation (the lab's
   * 'train' job runs through rp.lab.train).
   * @example await rp.runJob('attentionMap', { n: 4096, scheme: 'alibi' }, { where: 'mine' })
   */
  runJob(
    kind: string,
    options: object,
    control?: { onProgress?: (fraction: number) => void; signal?: AbortSignal; where?: string },
  ): Promise<Record<string, Tensor<Float32Array | Int32Array>>>;

  /** Real-model presets: Llama-2/3.1, Qwen2, Mistral, GPT-NeoX, GPT-J, Phi-3, BLOOM, MPT, T5, DeBERTa. */
  readonly presets: readonly Preset[];

  /**
   * Reads a Hugging Face config.json (object or JSON text). Throws a RangeError naming what it
   * cannot read.
   * @example const { scheme, params } = rp.fromConfig(await (await fetch('config.json')).json());
   */
  fromConfig(configJson: object | string): ConfigReading;

  /**
   * The analyses of chapter 2.1 (invariance, geometry, spectra, probability, decay, precision), in
   * the analysis module: `await rp.analysis.ready` (or `load({ analysis: true })`) before calling them.
   * @example await rp.analysis.ready; const { singularValues } = rp.analysis.svd(M);
   */
  readonly analysis: import('./analysis.js').Analysis;

  /**
   * The extrapolation lab (train a tiny attention model per scheme, evaluate at L … 8L), in the
   * analysis module: train() loads it; schema, tasks, schemes and defaults need `await rp.lab.ready`.
   */
  readonly lab: import('./lab.js').Lab;

  /** Bytes held by the allocators: the core's, plus the analysis module's once loaded (for leak checks). */
  heapInUse(): number;

  /**
   * The same core without the work budget of synchronous calls (2^34 multiply-adds, docs/api.md
   * "Limits"), for where blocking is fine (Node scripts, a worker). Memory limits still hold.
   */
  unbounded(): Relpos;
}

export interface LoadOptions {
  /** Force the SIMD (true) or baseline (false) build; default: SIMD when the engine validates SIMD128. */
  simd?: boolean;
  /** Also load the analysis module (rp.analysis, rp.lab) before resolving. */
  analysis?: boolean;
  /** The same as `analysis`: the lab lives in the analysis module. */
  lab?: boolean;
}

/**
 * Instantiates the wasm core once per build; later calls return the same instance. Picks the SIMD
 * build when the engine validates SIMD128, unless `simd` forces a build. With `analysis: true` the
 * instance's analysis module (rp.analysis, rp.lab) is loaded too before the promise resolves.
 * @example const rp = await load();
 * @example const rp = await load({ analysis: true }); rp.analysis.svd(M);
 */
export function load(options?: LoadOptions): Promise<Relpos>;

/** Package version. */
export const version: string;
