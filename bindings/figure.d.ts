// Types of relpos/figure: PNG / SVG / CSV / JSON / pgfplots files of tensors and views from Node
// (no DOM), with the colour maps and file conventions of the web components.
import type { Relpos, Tensor } from './index.js';

export type FigureFormat = 'png' | 'svg' | 'csv' | 'json' | 'tex';
export type ColormapName = 'viridis' | 'cividis' | 'magma' | 'rdbu';
/** The views of a scheme, as <relpos-heatmap>, the CLI and viewFigure compute them (docs/elements.md). */
export type ViewName = 'bias' | 'scores' | 'weights' | 'buckets' | 'distances';

/** Options of a view: the shared ones and the scheme's own parameters. */
export interface ViewOptions {
  [param: string]: unknown;
  /** Sequence length (default 64). */
  n?: number;
  /** Heads (default 1); bias, scores and weights are per head. */
  heads?: number;
  /** Per-head probe width of scores, weights and distances (default 64). */
  d?: number;
  /** Passed to the core call of every view (which applies it, or names it as an error). */
  causal?: boolean;
  /** Attention mode of the weights view (default: explicit for bias and rotary schemes, else implicit). */
  mode?: 'explicit' | 'implicit' | 'mixed';
  /** Weights view only: key j is kept when i − slidingWindow < j ≤ i (a sliding-window layer group). */
  slidingWindow?: number;
  /**
   * Weights view only: a layer group of rp.presets or rp.fromConfig, run as rp.attention({ layer })
   * runs it on all-ones q, k, v at the layer's widths (`d`: the head width when the group's params have none).
   */
  layer?: { scheme: string; params: Record<string, unknown>; heads?: number; [setting: string]: unknown };
  /** Weights view of a layer only: inputs the layer needs beside it (gpt-oss's sinks). */
  inputs?: Record<string, unknown>;
}

/** The core call a view makes, as data. */
export interface ViewCall {
  view: string;
  /** The rp method: 'bias' | 'scores' | 'attention' | 'buckets' | 'encoding' | 'frequencies'. */
  call: string;
  scheme: string;
  /** What the call receives (weights: heads, mode, causal and the scheme's params; the probes are implied). */
  options: Record<string, unknown>;
  /** The layer group a weights view runs (options then hold what the caller adds to it). */
  layer?: ViewOptions['layer'];
  /** With a layer: the shape of the all-ones probes q [n, heads·d], k [n, kvHeads·d], v [n, kvHeads·dv]. */
  probe?: { n: number; heads: number; kvHeads: number; d: number; dv: number };
}

/** A heatmap figure: one [rows, cols] slice with its colour scale — what <relpos-heatmap>.figure() returns. */
export interface HeatmapFigure {
  kind: 'heatmap';
  rows: number;
  cols: number;
  data: Float32Array | Int32Array;
  colormap: string;
  range: [number, number];
  xLabel?: string;
  yLabel?: string;
  title?: string;
  meta?: Record<string, unknown>;
}

export interface CurveSeries {
  label: string;
  y: ArrayLike<number | null>;
  /** A reference line (a level, a bound): drawn thin and dashed, so a series lying on it stays visible. */
  dashed?: boolean;
}

/** A line plot's data (what renderCurve and <relpos-curve>.data take). */
export interface CurveData {
  x: ArrayLike<number>;
  series: CurveSeries[];
  xLabel?: string;
  yLabel?: string;
  /** Logarithmic y axis. */
  log?: boolean;
  /** Logarithmic x axis (every x > 0). */
  logX?: boolean;
  title?: string;
}

/** A line-plot figure (SVG, CSV, JSON and pgfplots from Node; PNG needs a browser). */
export interface CurveFigure extends CurveData {
  kind: 'curve';
}

export type Figure = HeatmapFigure | CurveFigure;

export interface HeatmapFigureOptions {
  /** Which [rows, cols] slice of a [heads, rows, cols] tensor (default 0). */
  head?: number;
  /** Default: viridis, or rdbu centred at 0 for signed data (as the elements pick). */
  colormap?: ColormapName;
  /** [lo, hi], lo < hi; default: the finite range of the data (symmetric when signed). */
  range?: [number, number];
  title?: string;
  xLabel?: string;
  yLabel?: string;
  meta?: Record<string, unknown>;
}

/** What viewFigure takes: a scheme, a view and its options, and the figure's colour scale and title. */
export interface FigureViewOptions extends ViewOptions, Omit<HeatmapFigureOptions, 'meta' | 'xLabel' | 'yLabel'> {
  scheme: string;
  /** Default: bias when the scheme has one, else scores. */
  view?: ViewName;
}

export interface EncodeOptions {
  /** PNG pixels per cell, an integer in [1, 64] (default 1). */
  scale?: number;
  /** SVG plot size in px (default 400). */
  size?: number;
  /** The PNG a large pgfplots heatmap refers to. */
  imageFile?: string;
}

export const colormapNames: readonly string[];
export const VIEWS: readonly ViewName[];
/** The views a scheme (an entry of rp.schemes) supports. */
export function viewsFor(info: { calls: readonly string[] }): ViewName[];
/** The call a view makes, as data. */
export function viewCall(
  info: { id: string; calls: readonly string[] },
  view: ViewName,
  options?: ViewOptions,
): ViewCall;
/** The call as a reader would write it: rp.bias('alibi', { n: 64, heads: 8 }). */
export function callText(call: ViewCall): string;

/**
 * The cells the weights view's call masks (causal, sliding window), 1 where masked, as the core
 * masks them; null for other views and unmasked calls. viewFigure draws them as masked (−∞).
 */
export function maskedCells(
  rp: Relpos,
  info: { id: string; calls: readonly string[] },
  view: ViewName,
  options?: ViewOptions,
): Uint8Array | null;
/** Each scheme parameter with the value a call uses, whether it was given, and its meaning (a choice's own part of the doc). */
export function describeParams(
  info: { params: Record<string, { type: string; default: unknown; doc: string }> },
  params: Record<string, unknown>,
): { name: string; value: unknown; given: boolean; meaning: string }[];

/** @example heatmapFigure(rp.bias('alibi', { n: 64, heads: 8 }), { head: 3, colormap: 'magma' }) */
export function heatmapFigure(tensor: Tensor<Float32Array | Int32Array>, options?: HeatmapFigureOptions): HeatmapFigure;
/** @example const { figure, call } = viewFigure(rp, { scheme: 'rope', view: 'weights', n: 128, causal: true }) */
export function viewFigure(
  rp: Relpos,
  options: FigureViewOptions,
): { figure: HeatmapFigure; tensor: Tensor<Float32Array | Int32Array>; call: ViewCall };
/** PNG bytes of a heatmap figure. */
export function encodePNG(figure: HeatmapFigure, scale?: number): Uint8Array;
/** PNG bytes, or the text of svg / csv / json / tex. */
export function encodeFigure(figure: Figure, format: 'png', options?: EncodeOptions): Uint8Array;
export function encodeFigure(figure: Figure, format: 'svg' | 'csv' | 'json' | 'tex', options?: EncodeOptions): string;
export function encodeFigure(figure: Figure, format: FigureFormat, options?: EncodeOptions): Uint8Array | string;
/**
 * Writes a figure, or a tensor as a heatmap, to `path` (the extension picks the format unless
 * `format` is given; folders are made).
 * @example await writeFigure('alibi.png', rp.bias('alibi', { n: 64, heads: 8 }), { head: 3, scale: 4 })
 */
export function writeFigure(
  path: string,
  source: Tensor<Float32Array | Int32Array> | Figure,
  options?: HeatmapFigureOptions & EncodeOptions & { format?: FigureFormat },
): Promise<{ path: string; format: FigureFormat; figure: Figure }>;
/** Reads a figure's JSON (relpos-figure format) back. */
export function fromJSON(text: string): Figure;
