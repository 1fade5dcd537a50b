// Types of relpos/figure: PNG / SVG / CSV / JSON / pgfplots files of tensors and views from Node
// (no DOM), with the colour maps and file conventions of the web components.
import type { Relpos, Tensor } from './index.js';

export type FigureFormat = 'png' | 'svg' | 'csv' | 'json' | 'tex';
export type ColormapName = 'viridis' | 'cividis' | 'magma' | 'rdbu';
export type FigureViewName = 'bias' | 'scores' | 'weights' | 'buckets' | 'distances';

/** A heatmap figure: one [rows, cols] slice with its colour scale — what <relpos-heatmap>.figure() returns. */
export interface HeatmapFigure {
  kind: 'heatmap';
  rows: number;
  cols: number;
  data: Float32Array;
  colormap: string;
  range: [number, number];
  xLabel?: string;
  yLabel?: string;
  title?: string;
  meta?: Record<string, unknown>;
}

/** A line-plot figure (SVG, CSV, JSON and pgfplots from Node; PNG needs a browser). */
export interface CurveFigure {
  kind: 'curve';
  x: ArrayLike<number>;
  series: { label: string; y: ArrayLike<number | null> }[];
  xLabel?: string;
  yLabel?: string;
  log?: boolean;
  title?: string;
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

/** The options of a view: the shared ones and the scheme's own parameters. */
export interface FigureViewOptions extends Omit<HeatmapFigureOptions, 'meta' | 'xLabel' | 'yLabel'> {
  [param: string]: unknown;
  scheme: string;
  /** Default: bias when the scheme has one, else scores. */
  view?: FigureViewName;
  n?: number;
  heads?: number;
  d?: number;
  causal?: boolean;
  mode?: 'explicit' | 'implicit' | 'mixed';
}

/** The core call a view makes, as data. */
export interface ViewCall {
  view: string;
  call: string;
  scheme: string;
  options: Record<string, unknown>;
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
export const VIEWS: readonly FigureViewName[];
export function viewsFor(info: { calls: readonly string[] }): FigureViewName[];
export function viewCall(
  info: { id: string; calls: readonly string[] },
  view: FigureViewName,
  options?: object,
): ViewCall;
/** The call as a reader would write it: rp.bias('alibi', { n: 64, heads: 8 }). */
export function callText(call: ViewCall): string;
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
