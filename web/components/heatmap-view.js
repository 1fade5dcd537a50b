// The drawing surface of <relpos-heatmap>: shows a window [x0, x1) × [y0, y1) (in cell units) of a
// [rows, cols] matrix on the element's 2D canvas at device resolution, nearest-neighbour (cells
// stay crisp blocks at any zoom). Colour of a cell: colormap.js's rule (LUT[round((v − lo)·255/(hi − lo))],
// −∞ and NaN grey).
//   WebGL2: ONE context for the whole page, shared by every heatmap — browsers keep only about 16
//           live WebGL contexts, so a page of forty heatmaps must not hold forty. Each matrix is an
//           R32F texture in it, read with texelFetch and mapped through a 256×1 colormap texture in
//           the fragment shader; a frame is drawn into the shared canvas and copied onto the
//           element's canvas with drawImage in the same task. A parameter change uploads one
//           texture; a pan/zoom is one draw plus one copy.
//   2D:     when WebGL2 is missing, refused, not loaded (heatmap-webgl.js: loadWebGL), or the
//           shared context is lost (until the browser restores it): renderHeatmap paints one pixel per cell offscreen and drawImage scales
//           the window (imageSmoothingEnabled = false). Same colours, so a lost context never shows.
import { onDemand } from '../../bindings/on-demand.js';
import { renderHeatmap } from './render-heatmap.js';

// The WebGL2 path (heatmap-webgl.js) once that module has run: a page's 2D heatmaps never fetch it.
let sharedRenderer = () => null;
const webgl = onDemand(() => import('./heatmap-webgl.js'));

/** Called by heatmap-webgl.js as it runs: from then on views draw through the shared context. */
export function useWebGL(shared) {
  sharedRenderer = shared;
}

/** Resolves once heatmap-webgl.js has run (fetching it the first time); rejects if it cannot arrive. */
export function loadWebGL() {
  return webgl.load(); // a failed fetch is retried by a later draw
}

class HeatmapView {
  /** What drew the last frame: 'webgl2' or '2d' (null before the first draw). */
  kind = null;
  #canvas;
  #context;
  #renderer;
  #matrix = null;
  #scale = null;
  #texture = null;
  #textureSize = [0, 0];
  #textureGeneration = -1; // the shared context's generation the texture belongs to
  #uploaded = false; // the texture holds the current matrix
  #source = null; // the 2D path's one-pixel-per-cell canvas
  #sourceDirty = true;
  #unsubscribe = null;
  #onRestored;

  constructor(canvas, renderer, onRestored) {
    this.#canvas = canvas;
    this.#context = canvas.getContext('2d');
    this.#renderer = renderer;
    this.#onRestored = onRestored;
    this.#listen(renderer === '2d' ? null : sharedRenderer());
  }

  // Hears of the shared context's restores (once; heatmap-webgl.js may arrive after the view was made).
  #listen(renderer) {
    if (renderer && this.#onRestored && !this.#unsubscribe) this.#unsubscribe = renderer.onRestored(this.#onRestored);
  }

  setMatrix(matrix) {
    this.#matrix = matrix;
    this.#uploaded = false;
    this.#sourceDirty = true;
  }

  setScale(colormap, range) {
    const old = this.#scale;
    if (old?.colormap !== colormap || old.range[0] !== range[0] || old.range[1] !== range[1]) this.#sourceDirty = true;
    this.#scale = { colormap, range: [...range] };
  }

  draw(window, width, height) {
    if (!this.#matrix || !this.#scale) return;
    const canvas = this.#canvas;
    if (canvas.width !== width || canvas.height !== height) {
      canvas.width = width;
      canvas.height = height;
    }
    this.#context.clearRect(0, 0, width, height);
    if (this.#drawWebGL(window, width, height)) {
      this.kind = 'webgl2';
      this.#source = null; // the fallback's pixels are not needed while WebGL draws
    } else {
      this.#draw2D(window, width, height);
      this.kind = '2d';
    }
  }

  #drawWebGL(window, width, height) {
    const renderer = this.#renderer === '2d' ? null : sharedRenderer();
    const { rows, cols } = this.#matrix;
    this.#listen(renderer);
    if (!renderer || renderer.lost || !renderer.fits(rows, cols)) return false;
    if (this.#textureGeneration !== renderer.generation) {
      // A texture of an earlier context went with it.
      this.#texture = null;
      this.#uploaded = false;
    }
    if (!this.#uploaded) {
      this.#texture = renderer.upload(this.#texture, this.#matrix, this.#textureSize);
      this.#textureSize = [cols, rows];
      this.#textureGeneration = renderer.generation;
      this.#uploaded = true;
    }
    renderer.draw(this.#context, { texture: this.#texture, cols, rows, ...this.#scale }, window, width, height);
    return true;
  }

  #draw2D([x0, y0, x1, y1], width, height) {
    const { rows, cols, data } = this.#matrix;
    if (this.#sourceDirty || !this.#source) {
      this.#source ??= document.createElement('canvas');
      renderHeatmap(this.#source, { shape: [rows, cols], data }, this.#scale);
      this.#sourceDirty = false;
    }
    // Parts of the window outside the matrix stay transparent, as in the WebGL view.
    const sx0 = Math.max(0, x0);
    const sy0 = Math.max(0, y0);
    const sx1 = Math.min(cols, x1);
    const sy1 = Math.min(rows, y1);
    if (sx1 <= sx0 || sy1 <= sy0) return;
    const kx = width / (x1 - x0);
    const ky = height / (y1 - y0);
    const context = this.#context;
    context.imageSmoothingEnabled = false;
    context.drawImage(
      this.#source,
      sx0,
      sy0,
      sx1 - sx0,
      sy1 - sy0,
      (sx0 - x0) * kx,
      (sy0 - y0) * ky,
      (sx1 - sx0) * kx,
      (sy1 - sy0) * ky,
    );
  }

  /** Blocks until the frame is on the canvas (benchmarks: time to a drawn frame, not a queued one). */
  finish() {
    this.#context.getImageData(0, 0, 1, 1);
  }

  /** Frees the GPU texture (the matrix stays: the next draw uploads it again) and the restore hook. */
  release() {
    const renderer = sharedRenderer();
    if (renderer && this.#textureGeneration === renderer.generation) renderer.release(this.#texture);
    this.#texture = null;
    this.#uploaded = false;
    this.#source = null;
    this.#sourceDirty = true;
    this.#unsubscribe?.();
    this.#unsubscribe = null;
  }
}

/**
 * A view drawing into `canvas` (a canvas that takes a 2D context): through the page's shared WebGL2
 * context when there is one (renderer 'auto' | 'webgl2'; heatmap-webgl.js has run: web/index.js
 * imports it, <relpos-heatmap> awaits loadWebGL()), else — or with '2d' — in canvas 2D.
 * `onRestored` is called when a lost shared context comes back (redraw to return to WebGL2).
 */
export function createHeatmapView(canvas, renderer = 'auto', { onRestored } = {}) {
  if (!['auto', 'webgl2', '2d'].includes(renderer)) {
    throw new RangeError(`relpos.createHeatmapView: renderer must be auto, webgl2 or 2d, got '${renderer}'`);
  }
  return new HeatmapView(canvas, renderer, onRestored);
}
