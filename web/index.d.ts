// Types of relpos/web: custom elements, renderers, exporters and helpers for pages.
import type { Relpos, Tensor } from '../bindings/index.js';
import type {
  CurveData,
  CurveFigure,
  Figure,
  HeatmapFigure,
  ViewCall,
  ViewName as HeatmapViewName,
  ViewOptions,
} from '../bindings/figure.js';
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
/** RGBA pixels of a matrix, scale × scale per cell: LUT[round((v − lo)·255/(hi − lo))], −∞ and NaN grey. */
export function colorize(
  matrix: { rows: number; cols: number; data: ArrayLike<number> },
  colormap: string,
  range: [number, number],
  scale?: number,
): { width: number; height: number; data: Uint8ClampedArray };

/** A [rows, cols] matrix as the views and exporters use it. */
export interface Matrix {
  rows: number;
  cols: number;
  data: Float32Array | Int32Array;
}

/**
 * The drawing surface of <relpos-heatmap>: draws into a canvas that takes a 2D context, through the
 * page's ONE shared WebGL2 context (R32F texture + LUT shader, then a copy) or, without WebGL2 or
 * while that context is lost, in canvas 2D with the same colours.
 */
export interface HeatmapView {
  /** What drew the last frame (null before the first). */
  readonly kind: 'webgl2' | '2d' | null;
  setMatrix(matrix: Matrix): void;
  setScale(colormap: string, range: [number, number]): void;
  /** Draws the window [x0, y0, x1, y1] (cells) at width × height device pixels. */
  draw(window: [number, number, number, number], width: number, height: number): void;
  /** Waits until the frame is drawn (benchmarks). */
  finish(): void;
  /** Frees the GPU texture; the next draw uploads the matrix again. */
  release(): void;
}
export function createHeatmapView(
  canvas: HTMLCanvasElement,
  renderer?: 'auto' | 'webgl2' | '2d',
  options?: { onRestored?: () => void },
): HeatmapView;

/** The page's shared WebGL2 heatmap renderer, as numbers. */
export interface HeatmapRendererStats {
  /** False when the page has no WebGL2 (every heatmap draws in 2D). */
  webgl2: boolean;
  /** True while the context is lost (heatmaps draw in 2D until the browser restores it). */
  lost: boolean;
  losses: number;
  restores: number;
  /** Matrix textures held: one per connected heatmap that drew with WebGL2. */
  textures: number;
  /** Size of the shared canvas, in pixels. */
  canvas: [number, number];
}
export function heatmapRendererStats(): HeatmapRendererStats;
/** The shared WebGL2 context, or null (diagnostics, e.g. WEBGL_lose_context). */
export function heatmapWebGLContext(): WebGL2RenderingContext | null;

// The views, the figures and their options are declared once, in bindings/figure.d.ts (relpos/figure).
export type {
  ViewName as HeatmapViewName,
  ViewOptions,
  ViewCall,
  HeatmapFigure,
  CurveSeries,
  CurveData,
  CurveFigure,
  Figure,
} from '../bindings/figure.js';
export { VIEWS, viewsFor, viewCall, callText } from '../bindings/figure.js';
/** The view a scheme shows when none is asked for: bias when it has one, else scores. */
export function defaultView(info: { calls: readonly string[] }): HeatmapViewName;

/**
 * Computes a view through the API: `bias` = rp.bias; `scores` = rp.scores; `weights` = rp.attention
 * with all-ones q = k (width heads·d) and the scheme's positional term; `buckets` = rp.buckets;
 * `distances` = rp.analysis.distances of rp.encoding's rows.
 */
export function computeView(
  rp: Relpos,
  info: { id: string; calls: readonly string[] },
  view: HeatmapViewName,
  options?: ViewOptions,
): Tensor<Float32Array | Int32Array>;
/** Ticks at nice numbers (1, 2, 5 × 10^k) inside [lo, hi]. */
export function niceTicks(lo: number, hi: number, count?: number): number[];
export function niceStep(span: number, count?: number): number;
export function integerTicks(lo: number, hi: number, count?: number): number[];
export function logTicks(lo: number, hi: number): number[];
export function formatNumber(value: number, masked?: string): string;

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
/** The text of a figure in svg | csv | json | tex. */
export function figureText(
  figure: Figure,
  format: 'svg' | 'csv' | 'json' | 'tex',
  options?: { imageFile?: string; pngDataUrl?: string; size?: number },
): string;
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
 * The detail of `relpos-render`, the same shape for every element: what is shown (as the exporters
 * write it), the tensor and core call behind it, what drew it and how long it took.
 */
export interface RenderDetail<F extends Figure = Figure> {
  /** The figure as el.figure() returns it (heatmap: rows, cols, colormap, range, meta.head, …). */
  figure: F;
  /** The tensor the core computed; null when a page handed the data over. */
  tensor: Tensor<Float32Array | Int32Array> | null;
  /** The core call, as data; null when a page handed the data over. */
  source: ViewCall | null;
  /** What drew it: 'webgl2' | '2d' for heatmaps, 'uplot' for curves. */
  renderer: 'webgl2' | '2d' | 'uplot';
  /** Milliseconds: the whole render, the core call (0 when nothing was recomputed), the drawing. */
  ms: number;
  computeMs: number;
  drawMs: number;
}

/** The detail of `relpos-export` (cancelable: preventDefault() keeps the file from being saved). */
export interface ExportDetail {
  format: ExportFormat;
  blob: Blob;
  filename: string;
}

/** What <relpos-heatmap> and <relpos-curve> share (docs/elements.md). */
export interface RelposElementBase extends HTMLElement {
  /** The messages in use; assigning merges overrides onto the page-wide messages. */
  messages: Messages;
  setMessages(overrides: Partial<Messages>): void;
  export(format: ExportFormat): Promise<{ blob: Blob; filename: string }>;
}

/**
 * <relpos-heatmap scheme="alibi" n="128" heads="8" view="bias" head="0" colormap="viridis" range="-4,0" causal mode="explicit" renderer="auto">
 * Attributes are live; scheme parameters are attributes too (lower-cased), or JSON in `params`.
 * Events: `relpos-render` (RenderDetail), `relpos-error` (the Error), `relpos-view` ({ window }),
 * `relpos-export` (ExportDetail, cancelable).
 */
export class RelposHeatmap extends HTMLElement implements RelposElementBase {
  readonly tensor: Tensor<Float32Array | Int32Array> | null;
  /** What drew the last frame. */
  readonly renderer: 'webgl2' | '2d' | null;
  /** Visible window [x0, y0, x1, y1] in cells; a TypeError unless four finite numbers. */
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
 * Events: `relpos-render` (RenderDetail), `relpos-error`, `relpos-export`.
 */
export class RelposCurve extends HTMLElement implements RelposElementBase {
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
  interface HTMLElementEventMap {
    'relpos-render': CustomEvent<RenderDetail>;
    'relpos-error': CustomEvent<Error>;
    'relpos-view': CustomEvent<{ window: [number, number, number, number] }>;
    'relpos-export': CustomEvent<ExportDetail>;
  }
}
