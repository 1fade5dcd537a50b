// Types of relpos/web: custom elements, renderers, exporters and helpers for pages.
import type { Tensor } from '../bindings/index.js';
export { load } from '../bindings/index.js';

export interface HeatmapOptions {
  /** 'viridis' | 'cividis' | 'magma' | 'rdbu'; default: viridis, or rdbu centred at 0 for signed data. */
  colormap?: string;
  /** [lo, hi] of the colour scale; default: the finite range of the data (symmetric when signed). */
  range?: [number, number];
  /** Which leading slice of a [heads, rows, cols] tensor to draw. */
  head?: number;
}

export interface HeatmapDrawn {
  colormap: string;
  range: [number, number];
  rows: number;
  cols: number;
}

/**
 * Draws one [rows, cols] slice of a tensor, one pixel per cell; −Infinity (masked) cells are grey.
 * @example renderHeatmap(canvas, rp.bias('alibi', { n: 64, heads: 8 }), { head: 3 })
 */
export function renderHeatmap(
  canvas: HTMLCanvasElement,
  tensor: Tensor<Float32Array | Int32Array>,
  options?: HeatmapOptions,
): HeatmapDrawn;

/** The colour scale renderHeatmap would pick for the data. */
export function autoScale(data: ArrayLike<number>, colormap?: string): { colormap: string; range: [number, number] };

/** The finite [min, max] of the data. */
export function finiteRange(data: ArrayLike<number>): [number, number];

/** The 2-D slice `index` of a [.., rows, cols] tensor. */
export function sliceMatrix(
  tensor: Tensor<Float32Array | Int32Array>,
  index?: number,
): { rows: number; cols: number; data: Float32Array | Int32Array };

export const colormapNames: string[];
/** 256 RGBA entries of a named colormap. */
export function colormapTable(name: string): Uint8ClampedArray;
/** CSS colour of a colormap at t ∈ [0, 1]. */
export function colormapCss(name: string, t: number): string;

/** A [rows, cols] matrix as the views and exporters use it. */
export interface Matrix {
  rows: number;
  cols: number;
  data: Float32Array | Int32Array;
}

/** The drawing surface of <relpos-heatmap>: WebGL2 (R32F texture + LUT shader) or canvas 2D. */
export interface HeatmapView {
  readonly kind: 'webgl2' | '2d';
  setMatrix(matrix: Matrix): void;
  setScale(colormap: string, range: [number, number]): void;
  /** Draws the window [x0, y0, x1, y1] (cells) at width × height device pixels. */
  draw(window: [number, number, number, number], width: number, height: number): void;
  /** Waits until the frame is drawn (benchmarks). */
  finish(): void;
}
export function createHeatmapView(canvas: HTMLCanvasElement, renderer?: 'auto' | 'webgl2' | '2d'): HeatmapView;

export type HeatmapViewName = 'bias' | 'scores' | 'weights' | 'buckets' | 'distances';
export const VIEWS: HeatmapViewName[];
/** The views a scheme (an entry of rp.schemes) supports. */
export function viewsFor(info: { calls: string[] }): HeatmapViewName[];
/**
 * Computes a view through the API. `weights` = rp.attention with all-ones q = k (width heads·d)
 * and the scheme's positional term; `distances` = euclidean distances of rp.encoding rows.
 */
export function computeView(
  rp: unknown,
  info: { id: string; calls: string[] },
  view: HeatmapViewName,
  options: Record<string, unknown>,
  mode?: 'explicit' | 'implicit' | 'mixed',
): Tensor<Float32Array | Int32Array>;
/** Euclidean distances between the rows of an [n, d] tensor → [n, n]. */
export function pairwiseDistances(E: Tensor): Tensor;

/** Ticks at nice numbers (1, 2, 5 × 10^k) inside [lo, hi]. */
export function niceTicks(lo: number, hi: number, count?: number): number[];
export function niceStep(span: number, count?: number): number;
export function integerTicks(lo: number, hi: number, count?: number): number[];
export function logTicks(lo: number, hi: number): number[];
export function formatNumber(value: number, masked?: string): string;

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
}

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

export interface CurveFigure extends CurveData {
  kind: 'curve';
}

export type Figure = HeatmapFigure | CurveFigure;
export type ExportFormat = 'png' | 'svg' | 'csv' | 'json' | 'tex';

/** Heatmap: rows lines of cols values (−inf for masked); curve: header `x,label…` then rows. */
export function toCSV(figure: Figure): string;
/** JSON with values and drawing settings; ±Infinity / NaN as strings. */
export function toJSON(figure: Figure): string;
export function fromJSON(text: string): Figure;
/** pgfplots snippet (`\begin{axis}` …); heatmaps > 64×64 use `\addplot graphics` of the PNG. */
export function toPgfplots(figure: Figure, options?: { imageFile?: string }): string;
/** SVG text; heatmaps > 32×32 need the one-pixel-per-cell PNG as a data URL. */
export function toSVG(figure: Figure, options?: { pngDataUrl?: string; size?: number }): string;
export function toPNG(figure: Figure, options?: { canvas?: HTMLCanvasElement }): Promise<Blob>;
export function heatmapPNGDataURL(figure: HeatmapFigure): string;
export function exportFigure(
  figure: Figure,
  format: ExportFormat,
  options?: { basename?: string; canvas?: HTMLCanvasElement },
): Promise<{ blob: Blob; filename: string }>;
/** Saves a Blob through a temporary <a download>. */
export function download(blob: Blob, filename: string): void;
export function texEscape(text: string): string;
export function xmlEscape(text: string): string;

/** A field of a hash schema. */
export type HashField =
  | { type: 'number' | 'integer'; min?: number | null; max?: number | null }
  | { type: 'boolean' }
  | { type: 'choice'; choices: string[] }
  | { type: 'string'; pattern?: RegExp };
export type HashValue = string | number | boolean;
/** `#k=v&…` of the scalar fields of a state. */
export function encodeHash(state: Record<string, HashValue | null | undefined>): string;
/** Only fields the schema (or a prefix rule such as `{ 'p.': name => spec }`) allows; never throws. */
export function decodeHash(
  hash: unknown,
  schema?: Record<string, HashField>,
  prefixes?: Record<string, (name: string) => HashField | undefined>,
): Record<string, HashValue>;
export function parseHashPairs(hash: unknown): Map<string, string>;
export function coerce(raw: string, spec: HashField | undefined): HashValue | undefined;

/** Every word the components show (English defaults in messages.js); templates use {name}. */
export interface Messages {
  [key: string]: string | Record<string, string>;
}
export const defaultMessages: Readonly<Messages>;
/** Overrides messages for every relpos component on the page. */
export function setMessages(overrides: Partial<Messages>): void;
export function formatMessage(template: string, values?: Record<string, unknown>): string;
export function mergeMessages(base: Messages, overrides?: Partial<Messages>): Messages;

/**
 * <relpos-heatmap scheme="alibi" n="128" heads="8" view="bias" head="0" colormap="viridis" range="-4,0" causal mode="explicit" renderer="auto">
 * Attributes are live; scheme parameters are attributes too (lower-cased), or JSON in `params`.
 * Fires `relpos-render` ({ tensor, rows, cols, range, colormap, head, renderer, ms, computeMs, drawMs }),
 * `relpos-error`, `relpos-view` ({ window }) and `relpos-export` (cancelable; { format, blob, filename }).
 */
export class RelposHeatmap extends HTMLElement {
  readonly tensor: Tensor<Float32Array | Int32Array> | null;
  /** What draws the map. */
  readonly renderer: 'webgl2' | '2d' | null;
  /** Visible window [x0, y0, x1, y1] in cells. */
  window: [number, number, number, number];
  readonly cursor: [number, number] | null;
  readonly locked: boolean;
  messages: Messages;
  setMessages(overrides: Partial<Messages>): void;
  resetView(): void;
  zoom(factor: number, fx?: number, fy?: number): void;
  figure(): HeatmapFigure | null;
  export(format: ExportFormat): Promise<{ blob: Blob; filename: string }>;
}

/**
 * <relpos-curve kind="profile|frequencies|wavelengths" scheme="alibi" n="256" heads="4" view="bias" query="128" log>
 * or programmatic data via `data` / renderCurve. Drawn with uPlot in the shadow root.
 */
export class RelposCurve extends HTMLElement {
  data: CurveData | null;
  /** The uPlot instance. */
  readonly plot: unknown;
  messages: Messages;
  setMessages(overrides: Partial<Messages>): void;
  figure(): CurveFigure | null;
  export(format: ExportFormat): Promise<{ blob: Blob; filename: string }>;
}

/** Draws a line plot into a <relpos-curve> (or a new one inside `element`); returns the <relpos-curve>. */
export function renderCurve(element: HTMLElement, data: CurveData): RelposCurve;

declare global {
  interface HTMLElementTagNameMap {
    'relpos-heatmap': RelposHeatmap;
    'relpos-curve': RelposCurve;
  }
}
