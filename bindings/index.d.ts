// Types of the relpos public API (docs/api.md). Hand-written; tests type-check a consumer against it.

/** A dense row-major tensor. Integer maps (buckets) use Int32Array. */
export interface Tensor<T extends Float32Array | Int32Array = Float32Array> {
  shape: number[];
  data: T;
}

/** Anything the API accepts where a tensor is expected. */
export type TensorLike =
  | Tensor<Float32Array | Int32Array>
  | { shape: number[]; data: ArrayLike<number> }
  | Float32Array
  | Float64Array
  | number[]
  | number[][];

/** A scheme parameter as rp.schemes describes it. */
export interface ParamInfo {
  type: 'number' | 'integer' | 'boolean' | 'choice' | 'perHead' | 'array';
  /** Default value; null when required or derived (e.g. rotaryDim defaults to d). */
  default: number | boolean | string | null;
  /** Inclusive lower bound unless exclusiveMin; null when unbounded. */
  min: number | null;
  max: number | null;
  exclusiveMin: boolean;
  integer: boolean;
  choices?: string[];
  doc: string;
}

export interface SchemeInfo {
  id: string;
  family: string;
  name: string;
  cite: string;
  description: string;
  /** The calls this scheme supports: 'encoding', 'bias', 'buckets', 'frequencies', 'rotate', 'scores', 'attention'. */
  calls: string[];
  params: Record<string, ParamInfo>;
}

/** Scheme parameters (the camelCase names rp.schemes lists); unknown names are RangeErrors. */
export type SchemeParams = Record<string, number | boolean | string | string[] | TensorLike | undefined>;

export interface AttentionOptions {
  /** A scheme's own inputs (aK, aV, clip, E, nposMax, …) may also stand here; `params` wins. */
  [name: string]: unknown;
  q: TensorLike;
  k: TensorLike;
  v?: TensorLike;
  heads?: number;
  scheme?: string;
  params?: SchemeParams;
  mode?: 'explicit' | 'implicit' | 'mixed';
  alpha?: number;
  beta?: number;
  causal?: boolean;
  queryOffset?: number;
  B?: TensorLike;
  P?: TensorLike;
}

export interface AttentionResult {
  /** [heads, n, m] */
  weights: Tensor;
  /** [n, heads·dv], present when v was given */
  output?: Tensor;
}

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
  /** The call's own options besides the scheme's parameters. */
  options: readonly { name: string; doc: string }[];
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
  encoding(id: string, options: SchemeParams & { n: number; d: number }): Tensor;

  /**
   * Additive logit bias B[h, i, j] of a relative-bias scheme, [heads, n, n]; -Infinity above the
   * diagonal when causal. ALiBi with output 'slopes' gives [heads].
   * @example rp.bias('alibi', { n: 128, heads: 8, causal: true })
   */
  bias(id: string, options: SchemeParams & { n?: number; heads?: number; causal?: boolean }): Tensor;

  /**
   * Bucket / clipped-distance index maps [n, n] (Int32).
   * @example rp.buckets('t5', { n: 64, numBuckets: 32, maxDistance: 128 })
   */
  buckets(id: string, options: SchemeParams & { n: number }): Tensor<Int32Array>;

  /**
   * Rotary inverse frequencies with any scaling; d is the rotary dimension.
   * @example rp.frequencies('rope-yarn', { d: 128, factor: 4, originalMaxPositionEmbeddings: 32768 })
   */
  frequencies(id: string, options: SchemeParams & { d: number }): Frequencies;

  /**
   * Applies a rotary scheme to the rows of x [n, d].
   * @example rp.rotate(x, { scheme: 'rope', layout: 'half', positions: [0, 1, 2, 3] })
   */
  rotate(
    x: TensorLike,
    options?: SchemeParams & {
      scheme?: string;
      positions?: number[] | Float32Array;
      layout?: 'half' | 'interleaved';
      rotaryDim?: number;
    },
  ): Tensor;

  /**
   * The position-only logit matrix S[h, i, j] a scheme induces, [heads, n, n]
   * (or s(δ) per offset with output 'offsets').
   * @example rp.scores('rope', { n: 64, d: 64 })
   */
  scores(id: string, options: SchemeParams): Tensor;

  /**
   * Attention with a positional scheme in explicit, implicit or mixed mode.
   * @example rp.attention({ q, k, v, heads: 2, scheme: 'alibi', causal: true })
   */
  attention(options: AttentionOptions): AttentionResult;

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
   * Runs a core job ('attentionMap', 'train') step by step with progress and cancellation.
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

  /** The analyses of chapter 2.1 (invariance, geometry, spectra, probability, decay, precision). */
  readonly analysis: import('./analysis.js').Analysis;

  /** The extrapolation lab (train a tiny attention model per scheme, evaluate at L … 8L). */
  readonly lab: import('./lab.js').Lab;

  /** Bytes held by the core's allocator (for leak checks). */
  heapInUse(): number;
}

/**
 * Instantiates the wasm core once; later calls return the same instance. Picks the SIMD build
 * when the engine validates SIMD128, unless `simd` forces a build.
 * @example const rp = await load();
 */
export function load(options?: { simd?: boolean }): Promise<Relpos>;

/** Package version. */
export const version: string;
