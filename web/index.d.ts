// Types of relpos/web: custom elements and renderers for pages.
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
export function renderHeatmap(canvas: HTMLCanvasElement, tensor: Tensor<Float32Array | Int32Array>, options?: HeatmapOptions): HeatmapDrawn;

/** The colour scale renderHeatmap would pick for the data. */
export function autoScale(data: ArrayLike<number>, colormap?: string): { colormap: string; range: [number, number] };

/** The finite [min, max] of the data. */
export function finiteRange(data: ArrayLike<number>): [number, number];

export const colormapNames: string[];
/** 256 RGBA entries of a named colormap. */
export function colormapTable(name: string): Uint8ClampedArray;

/**
 * <relpos-heatmap scheme="alibi" n="128" heads="8" view="bias" head="0" colormap="viridis" causal>
 * Attributes are live; scheme parameters are attributes too, or JSON in `params`.
 * Fires `relpos-render` ({ tensor, rows, cols, range, colormap, head, ms }) and `relpos-error`.
 */
export class RelposHeatmap extends HTMLElement {
  readonly tensor: Tensor<Float32Array | Int32Array> | null;
}
