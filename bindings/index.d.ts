// Types of the relpos public API (docs/api.md). Hand-written, except each call's options per scheme:
// those come from bindings/schemes.d.ts, generated from the catalogue (scripts/gen-types.mjs). Tests
// type-check a consumer against both (tests/types).
import type { AttentionOptionsOf, CallOptionsOf, CheckedId } from './option-types.js';
import type {
  BiasSchemeId,
  BucketsSchemeId,
  CallOptionsByName,
  EncodingSchemeId,
  FrequenciesSchemeId,
  KvCacheStepOptions,
  SchemeId,
  SchemeParamsById,
  ScoresSchemeId,
} from './schemes.js';

export type * from './schemes.js';
export type * from './option-types.js';

/** A dense row-major tensor. Integer maps (buckets) use Int32Array. */
export interface Tensor<T extends Float32Array | Int32Array = Float32Array> {
  shape: number[];
  data: T;
  /** The learned inputs this call filled with relpos's untrained demonstration defaults (e.g. t5's `table`). */
  synthetic?: string[];
  /** A bias / score view asked for several heads of a scheme without per-head parameters: one map, shape [1, n, m]. */
  sameForEveryHead?: true;
}

/** The query and key positions of bias, buckets and scores (docs/api.md, "Positions"). */
export type GridOptions = Pick<
  CallOptionsByName['buckets'],
  'n' | 'm' | 'queryOffset' | 'queryPositions' | 'keyPositions' | 'causal'
>;

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
  /** The calls whose result this parameter changes (others accept it as part of the scheme, or refuse it). */
  affects: string[];
  /** A learned input whose default is an untrained demonstration value (results name it in `synthetic`). */
  synthetic: boolean;
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
    /** Its bias / scores differ between heads (per-head parameters); when not, those views return one map for any `heads`. */
    perHead: boolean;
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
/**
 * An attention mask, read as PyTorch's scaled_dot_product_attention reads one (docs/api.md,
 * "Masks"): booleans and Uint8Array keep the key where true (only 0 / 1); Float32Array /
 * Float64Array data are added to the logits (0 keeps, -Infinity masks); plain numbers (nested lists,
 * other integer arrays) need `kind`, else a TypeError naming both readings. `[n, m]`, `[heads, n, m]`,
 * `[batch, heads or 1, n, m]`, or Hugging Face's key-padding `attention_mask` `[batch, m]` with a batch.
 */
export type AttentionMask =
  | boolean[][]
  | boolean[][][]
  | Uint8Array
  | Float32Array
  | Float64Array
  | { shape: number[]; data: Uint8Array | Float32Array | Float64Array | boolean[] }
  | { shape?: number[]; data: TensorLike | boolean[]; kind: 'boolean' | 'additive' };

/** Llama 4's attention temperature tuning (NoPE layers): queries at cache position p scaled by log(floor((p + 1) / floorScale) + 1) · attnScale + 1. */
export type TemperatureTuning = { floorScale: number; attnScale: number } | [number, number];

export interface AttentionResult {
  /** [heads, n, m] or [batch, heads, n, m] */
  weights: Tensor;
  /** [n, heads·dv] or [batch, n, heads·dv], present when v was given */
  output?: Tensor;
  /** The learned inputs of the scheme filled with demonstration defaults. */
  synthetic?: string[];
  /** What the caller should know about how the call ran (e.g. t5 run with 1/√d instead of its scale 1). */
  notes?: string[];
}

/** What attention returns with weights: false. */
export interface AttentionOutput {
  /** [n, heads·dv] or [batch, n, heads·dv] */
  output: Tensor;
}

type AttentionControl = {
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
  /**
   * Split the call over a pool of N workers (Node worker threads, browser Web Workers) or 'auto'
   * (the cores less one, at least one); the result equals the one-thread result bit for bit.
   */
  workers?: Workers;
};

/** A worker count: a whole number from 1 to 256, or 'auto' (the cores less one, at least one). */
export type Workers = number | 'auto';

export interface Frequencies {
  /** Rotary inverse frequencies, rotaryDim/2 values. */
  invFreq: Float32Array;
  /** Magnitude factor on cos and sin (YaRN, LongRoPE); 1 otherwise. */
  attentionFactor: number;
  /** The learned inputs filled with demonstration defaults (LongRoPE's factors). */
  synthetic?: string[];
}

/**
 * The parameters a reading (rp.fromConfig, a preset, a layer group) gives for scheme Id: the scheme's
 * parameters, and for a rotary scheme always `d` (the head width), so they feed rp.frequencies as they are.
 */
export type ReadingParams<Id extends SchemeId> = SchemeParamsById[Id] &
  (Id extends FrequenciesSchemeId ? { d: number } : unknown);

/** `scheme` and `params` of a reading, keyed by scheme: narrowing `scheme` narrows `params`. */
export type SchemeAndParams = { [Id in SchemeId]: { scheme: Id; params: ReadingParams<Id> } }[SchemeId];

/** A layer group as rp.fromConfig and the presets give it: `scheme` and `params` keyed as SchemeAndParams. */
export type SchemeLayerGroup = Omit<LayerGroup, 'scheme' | 'params'> & SchemeAndParams;

/** One kind of layer of a model (docs/models.md), its scheme a plain string (every SchemeLayerGroup is one). */
export interface LayerGroup {
  /** Hugging Face's name: 'full_attention', 'sliding_attention' or 'chunked_attention'. */
  layerType: string;
  /** The layer indices, or null when the config gives no layer count (every layer). */
  layers: number[] | null;
  /** Its positional scheme ('nope' for layers without one). */
  scheme: string;
  params: SchemeParams;
  /** Sliding-window layers: key j is kept when i − slidingWindow < j ≤ i. */
  slidingWindow?: number;
  /** Chunked layers (Llama 4): keys in the query's own block of this many positions. */
  attentionChunkSize?: number;
  /** Query heads, key/value heads and the softmax scale of the model (scale: when not 1/√headDim). */
  heads?: number;
  kvHeads?: number;
  /** The query/key head width (the d of q and k per head; rp.kvCache({ layer }) takes it). */
  headDim?: number;
  /** DeepSeek: the value head width (v_head_dim) when it differs from the query/key head width params.d; v is then [m, kvHeads·valueHeadDim]. */
  valueHeadDim?: number;
  scale?: number;
  /** Decoder layers are causal; T5's encoder and DeBERTa are not. */
  causal?: boolean;
  /** Gemma 2's attn_logit_softcapping. */
  softcap?: number;
  /** Llama 4's NoPE layers. */
  temperatureTuning?: { floorScale: number; attnScale: number };
  /** Inputs the layer needs that a config.json does not hold (gpt-oss: sinks; T5: table); rp.attention({ layer }) refuses without them. */
  needs?: { option: string; why: string }[];
  /** What the layers do beyond their scheme that relpos does not compute. */
  notes?: string[];
}

/** Facts about a model besides its positional scheme. */
export interface ModelFacts {
  type?: string;
  /** The query/key head width (DeepSeek: nope + rope dims). */
  headDim?: number;
  /** DeepSeek: the width of the rotated part of the head (its last dims: params.startIndex on). */
  ropeHeadDim?: number;
  /** DeepSeek: the value head width (v_head_dim). */
  valueHeadDim?: number;
  kvHeads?: number;
  layerCount?: number;
  maxPositionEmbeddings?: number;
  /** The softmax scale when it is not 1/√headDim (Gemma, DeepSeek). */
  attentionScale?: number;
  [fact: string]: unknown;
}

/**
 * rp.alloc: a tensor in the instance's wasm heap, zero-filled, that the caller fills in place and
 * rp.attention reads as q, k, v, B or P without copying. Elsewhere it is read like any tensor.
 */
export interface HeapTensor {
  readonly shape: readonly number[];
  /**
   * The floats, row-major, as a view into the wasm heap; a getter that makes a fresh view when the
   * heap has grown (the old one is then empty), so read it again after a call. Throws once freed.
   */
  readonly data: Float32Array;
  /** Whether free() was called. */
  readonly freed: boolean;
  /** Returns the floats to the heap; later uses throw; a second call does nothing. */
  free(): void;
}

/** rp.kvCache: keys [length, kvHeads·d] and values [length, kvHeads·dv] kept in the wasm heap. */
export interface KvCache {
  readonly length: number;
  /** Appends rows of k [rows, kvHeads·d] and v [rows, kvHeads·dv]; returns the new length. */
  append(k: TensorLike, v: TensorLike): number;
  /** rp.attention with q [n, heads·d] over every cached key (query i at length − n + i unless queryOffset says). */
  attention<Id extends string = never>(
    q: TensorLike | HeapTensor,
    options: KvCacheStepOptions<Id> & { scheme?: Id; weights: false },
  ): AttentionOutput;
  attention<Id extends string = never>(
    q: TensorLike | HeapTensor,
    options?: KvCacheStepOptions<Id> & { scheme?: Id },
  ): AttentionResult;
  free(): void;
}

/**
 * rp.kvCache({ batch }): sequences with their own lengths and left padding, in Hugging Face's cache
 * layout; each sequence's rows equal, bit for bit, that sequence alone.
 */
export interface BatchedKvCache {
  /** Each sequence's real tokens. */
  readonly lengths: number[];
  /**
   * Appends k [batch, kvHeads, rows, d] and v [batch, kvHeads, rows, dv]; mask [batch, rows] (1 a
   * token, 0 left padding, before a sequence's first token only); returns the lengths.
   */
  append(k: TensorLike, v: TensorLike, mask?: TensorLike): number[];
  /** Output-only step of q [batch, heads, n, d], the last append's n tokens: output [batch, heads, n, dv], padding rows 0. */
  attention<Id extends string = never>(
    q: TensorLike,
    options?: Omit<KvCacheStepOptions<Id>, 'mask' | 'positions' | 'keyPositions' | 'queryOffset' | 'out' | 'view'> & {
      scheme?: Id;
      weights?: false;
    },
  ): AttentionOutput;
  free(): void;
}

/**
 * A real-model preset (docs/presets.md): a union keyed by `scheme` (its first group's), so
 * `rp.frequencies(preset.scheme, preset.params)` type-checks and `if (preset.scheme === 'alibi')`
 * narrows `params` to AlibiParams.
 */
export type Preset = PresetFields & SchemeAndParams;

/** A preset's fields besides `scheme` and `params`. */
export interface PresetFields {
  id: string;
  name: string;
  heads: number;
  /** Which layers use which scheme (groups[0] is scheme and params). */
  groups: SchemeLayerGroup[];
  source: string;
  /** Informative facts about the model (hidden size, head dim, context length, …). */
  model: ModelFacts;
}

/**
 * What rp.fromConfig read from a Hugging Face config.json: a union keyed by `scheme` (the first layer
 * group's), its `params` the camelCase names rp.schemes lists — for rotary schemes `d` is the head
 * width (rotaryDim the rotated part), `base` the rope theta — so
 * `rp.frequencies(reading.scheme, reading.params)` type-checks.
 */
export type ConfigReading = ConfigReadingFields & SchemeAndParams;

/** A reading's fields besides `scheme` and `params`. */
export interface ConfigReadingFields {
  heads: number;
  /** Which layers use which scheme (Gemma 3: global and sliding-window layers; Llama 4: RoPE and NoPE layers). */
  groups: SchemeLayerGroup[];
  /** What was present but not read, or read with a fallback. */
  warnings: string[];
  model: ModelFacts;
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

/** One part of a pool's plan: rows [first, end) and their work (multiply-adds the core estimates). */
export interface RowCut {
  first: number;
  end: number;
  work: number;
}

export interface Relpos {
  /** Package version. */
  readonly version: string;
  /** True when the WebAssembly SIMD build is running. */
  readonly simd: boolean;
  /**
   * True when the relaxed build is running: the SIMD core whose attention logits and weights come
   * from fused multiply-add kernels (a relaxed-SIMD side module). They agree with the SIMD build
   * within 2 ulp on logits and 1e-6 on weights, not bit for bit (docs/build.md).
   */
  readonly relaxed: boolean;
  /** Every scheme with its family, citation and parameter metadata. */
  readonly schemes: readonly SchemeInfo[];
  /** The calls on schemes (encoding, bias, buckets, frequencies, rotate, scores, attention) and their options. */
  readonly operations: readonly OperationInfo[];

  /**
   * Absolute position vectors [n, d].
   * @example rp.encoding('sinusoidal', { n: 128, d: 64, layout: 'interleaved' })
   * @example rp.encoding('rope', { n: 16, d: 8, output: 'cos' }) // Hugging Face cos cache
   */
  encoding<Id extends string>(id: CheckedId<Id, EncodingSchemeId>, options: CallOptionsOf<'encoding', Id>): Tensor;

  /**
   * Additive logit bias B[h, i, j] of a relative-bias scheme, [heads, n, m] (or [batch, heads, n, m]
   * with per-sequence positions); -Infinity where the key sits after the query when causal. ALiBi with
   * output 'slopes' gives [heads].
   * @example rp.bias('alibi', { n: 128, heads: 8, causal: true })
   * @example rp.bias('alibi', { n: 3, m: 7, heads: 4 }) // 3 queries against a KV cache of 7 keys
   */
  bias<Id extends string>(id: CheckedId<Id, BiasSchemeId>, options: CallOptionsOf<'bias', Id>): Tensor;

  /**
   * Bucket / clipped-distance index maps [n, m] (Int32).
   * @example rp.buckets('t5', { n: 64, numBuckets: 32, maxDistance: 128 })
   */
  buckets<Id extends string>(
    id: CheckedId<Id, BucketsSchemeId>,
    options: CallOptionsOf<'buckets', Id>,
  ): Tensor<Int32Array>;

  /**
   * Rotary inverse frequencies with any scaling; d is the head width, of which the first rotaryDim
   * (default d) dims rotate.
   * @example rp.frequencies('rope-yarn', { d: 128, factor: 4, originalMaxPositionEmbeddings: 32768 })
   */
  frequencies<Id extends string>(
    id: CheckedId<Id, FrequenciesSchemeId>,
    options: CallOptionsOf<'frequencies', Id>,
  ): Frequencies;

  /**
   * Applies a rotary scheme to the rows of x [n, heads·d], every head.
   * @example rp.rotate(x, { scheme: 'rope', layout: 'half', positions: [0, 1, 2, 3] })
   * @example rp.rotate(q, { heads: 32, rotaryDim: 64 }) // partial rotary on each of 32 heads
   */
  rotate<Id extends string = 'rope'>(x: TensorLike, options?: CallOptionsOf<'rotate', Id> & { scheme?: Id }): Tensor;

  /**
   * The position-only logit matrix S[h, i, j] a scheme induces, [heads, n, m] — one head for schemes
   * without per-head parameters (or s(δ) per offset with output 'offsets').
   * @example rp.scores('rope', { n: 64, d: 64, causal: true })
   */
  scores<Id extends string>(id: CheckedId<Id, ScoresSchemeId>, options: CallOptionsOf<'scores', Id>): Tensor;

  /**
   * Attention with a positional scheme in explicit, implicit or mixed mode.
   * @example rp.attention({ q, k, v, heads: 2, scheme: 'alibi', causal: true })
   */
  attention<Id extends string = never>(
    options: AttentionOptionsOf<Id> & { scheme?: Id; weights: false },
  ): AttentionOutput;
  attention<Id extends string = never>(options: AttentionOptionsOf<Id> & { scheme?: Id }): AttentionResult;

  /**
   * A KV cache resident in the wasm heap: append(k, v) copies only the new rows; attention(q,
   * options) runs rp.attention over the cached keys at positions 0 … length − 1. dv defaults to the
   * layer's valueHeadDim (DeepSeek), else d.
   * @example const cache = rp.kvCache({ heads: 8, kvHeads: 2, d: 64 }); cache.append(k, v); cache.attention(q, { causal: true })
   */
  kvCache(options: {
    layer: LayerGroup;
    heads?: number;
    kvHeads?: number;
    d?: number;
    dv?: number;
    batch: number;
  }): BatchedKvCache;
  kvCache(options: {
    heads: number;
    kvHeads?: number;
    d: number;
    dv?: number;
    layer?: undefined;
    batch: number;
  }): BatchedKvCache;
  kvCache(options: { layer: LayerGroup; heads?: number; kvHeads?: number; d?: number; dv?: number }): KvCache;
  kvCache(options: { heads: number; kvHeads?: number; d: number; dv?: number; layer?: undefined }): KvCache;

  /**
   * A tensor of `shape` (1 to 4 extents) in this instance's wasm heap for the caller to fill in place:
   * rp.attention reads it as q, k, v, B or P without a copy. free() it when done.
   * @example const B = rp.alloc([n, n]); B.data.set(myBias); rp.attention({ q, k, B }); B.free()
   */
  alloc(shape: readonly number[]): HeapTensor;
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
      /** Only map rows [first, end) are computed, the rest are 0; parts of disjoint ranges sum to the whole map. */
      mapRows?: [number, number];
      onProgress?: (fraction: number) => void;
      signal?: AbortSignal;
      /** Split the map rows over a pool of N workers or 'auto' (docs/workers.md); the same map bit for bit. */
      workers?: Workers;
    },
  ): Promise<Tensor>;

  /**
   * The pool's plan of rp.attentionAsync({ workers }) (docs/workers.md), asked of the core: the
   * query rows cut into at most `parts` (1 to 256) ranges of nearly equal work, weighted by the keys
   * each row sees; [] when the core cannot read the call (the call itself reports why).
   * @example rp.attentionCuts({ q, k, v, causal: true, weights: false }, 2) // [{ first: 0, end, work }, { first: end, end: n, work }]
   */
  attentionCuts<Id extends string = never>(options: AttentionOptionsOf<Id> & { scheme?: Id }, parts: number): RowCut[];
  /** The same plan for rp.attentionMap's map rows, weighted as attention's rows are. */
  attentionMapCuts(options: Parameters<Relpos['attentionMap']>[0], parts: number): RowCut[];

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

  /**
   * Resolves once the models module (rp.presets, rp.fromConfig) is there, starting its loading.
   * load() waits for it; after load({ models: false }) await it before using those two.
   * @example const rp = await load({ models: false }); await rp.modelsReady; rp.presets;
   */
  readonly modelsReady: Promise<void>;

  /**
   * Real-model presets: Llama-2/3.1/4-Scout, Qwen2/3, Mistral, DeepSeek-V3, Gemma-3, gpt-oss, GPT-NeoX, GPT-J, Phi-3/4-mini, BLOOM, MPT, T5, DeBERTa.
   * From the models module: an Error naming relpos.presets before it has loaded (see modelsReady).
   */
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
  /**
   * Force the relaxed build (true: an error where the engine lacks relaxed SIMD) or the plain SIMD
   * build (false); default: relaxed when the engine validates relaxed SIMD (Chromium 114 and later;
   * not Node 20 without --experimental-wasm-relaxed-simd).
   */
  relaxed?: boolean;
  /**
   * Load the models module (rp.presets, rp.fromConfig) beside the core and resolve once both are
   * there (default true); false resolves with the core alone (then `await rp.modelsReady`).
   */
  models?: boolean;
  /** Also load the analysis module (rp.analysis, rp.lab) before resolving. */
  analysis?: boolean;
  /** The same as `analysis`: the lab lives in the analysis module. */
  lab?: boolean;
}

/**
 * Instantiates the wasm core once per build; later calls return the same instance. Picks the SIMD
 * build when the engine validates SIMD128, unless `simd` forces a build. The models module
 * (rp.presets, rp.fromConfig) is loaded beside the core unless `models: false`. With `analysis: true`
 * the instance's analysis module (rp.analysis, rp.lab) is loaded too before the promise resolves.
 * @example const rp = await load();
 * @example const rp = await load({ analysis: true }); rp.analysis.svd(M);
 */
export function load(options?: LoadOptions): Promise<Relpos>;

/** Package version. */
export const version: string;

/** Stops the workers that calls with `workers` started; a later such call starts fresh ones. */
export function terminateWorkers(): Promise<void>;
