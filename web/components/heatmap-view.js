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
//   2D:     when WebGL2 is missing, refused, or the shared context is lost (until the browser
//           restores it): renderHeatmap paints one pixel per cell offscreen and drawImage scales
//           the window (imageSmoothingEnabled = false). Same colours, so a lost context never shows.
import { renderHeatmap } from './render-heatmap.js';
import { colormapTable } from '../../figure/colormap.js';

const VERTEX = `#version 300 es
void main() {
  vec2 p = vec2(gl_VertexID == 1 ? 3.0 : -1.0, gl_VertexID == 2 ? 3.0 : -1.0);
  gl_Position = vec4(p, 0.0, 1.0);
}`;

const FRAGMENT = `#version 300 es
precision highp float;
precision highp int;
uniform highp sampler2D u_data;
uniform highp sampler2D u_lut;
uniform vec4 u_window;   // x0, y0, x1, y1 in cells
uniform vec2 u_size;     // target size in device pixels
uniform vec2 u_scale;    // lo, 255 / (hi - lo)
uniform ivec2 u_cells;   // cols, rows
out vec4 color;
void main() {
  vec2 f = vec2(gl_FragCoord.x, u_size.y - gl_FragCoord.y) / u_size;
  // A pixel centre exactly on a cell edge takes the cell before it, as the 2D path's drawImage
  // (Skia's nearest-neighbour) and a scaled <img> do. For the whole matrix a centre sits a multiple
  // of 1 / (2 · size) of a cell from an edge, so 1 / (4 · size) less moves no other pixel.
  vec2 cell = floor(mix(u_window.xy, u_window.zw, f) - 0.25 / u_size);
  if (cell.x < 0.0 || cell.y < 0.0 || cell.x >= float(u_cells.x) || cell.y >= float(u_cells.y)) { color = vec4(0.0); return; }
  float v = texelFetch(u_data, ivec2(cell), 0).r;
  if (isnan(v) || v < -3.0e38) { color = vec4(128.0 / 255.0, 128.0 / 255.0, 128.0 / 255.0, 1.0); return; }
  float index = clamp(floor((v - u_scale.x) * u_scale.y + 0.5), 0.0, 255.0);
  color = texelFetch(u_lut, ivec2(int(index), 0), 0);
}`;

const UNIFORMS = ['u_data', 'u_lut', 'u_window', 'u_size', 'u_scale', 'u_cells'];

function compile(gl, type, source) {
  const shader = gl.createShader(type);
  gl.shaderSource(shader, source);
  gl.compileShader(shader);
  if (!gl.getShaderParameter(shader, gl.COMPILE_STATUS) && !gl.isContextLost()) {
    throw new Error(gl.getShaderInfoLog(shader) ?? 'shader compile failed');
  }
  return shader;
}

/** The page's one WebGL2 context: program, colormap textures, and the bookkeeping of loss and restore. */
class SharedRenderer {
  canvas;
  gl;
  /** Bumped whenever the context is (re)made: textures of an older generation are gone. */
  generation = 0;
  losses = 0;
  restores = 0;
  textures = 0;
  #program = null;
  #uniforms = {};
  #luts = new Map();
  #listeners = new Set();

  constructor(canvas, gl) {
    this.canvas = canvas;
    this.gl = gl;
    this.#init();
    canvas.addEventListener('webglcontextlost', (event) => {
      event.preventDefault(); // asks the browser to restore it
      this.losses++;
      this.generation++;
      this.textures = 0;
    });
    canvas.addEventListener('webglcontextrestored', () => {
      this.restores++;
      this.generation++;
      this.#init();
      for (const listener of this.#listeners) listener();
    });
  }

  get lost() {
    return this.gl.isContextLost();
  }

  #init() {
    const gl = this.gl;
    this.#luts.clear();
    const program = gl.createProgram();
    gl.attachShader(program, compile(gl, gl.VERTEX_SHADER, VERTEX));
    gl.attachShader(program, compile(gl, gl.FRAGMENT_SHADER, FRAGMENT));
    gl.linkProgram(program);
    if (!gl.getProgramParameter(program, gl.LINK_STATUS) && !gl.isContextLost()) {
      throw new Error(gl.getProgramInfoLog(program) ?? 'link failed');
    }
    this.#program = program;
    this.#uniforms = Object.fromEntries(UNIFORMS.map((name) => [name, gl.getUniformLocation(program, name)]));
    gl.bindVertexArray(gl.createVertexArray());
  }

  /** Calls `listener` after the browser restored a lost context; returns an unsubscribe function. */
  onRestored(listener) {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #newTexture() {
    const gl = this.gl;
    const texture = gl.createTexture();
    gl.bindTexture(gl.TEXTURE_2D, texture);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
    return texture;
  }

  /** True when a [rows, cols] matrix fits in one texture. */
  fits(rows, cols) {
    const max = this.gl.getParameter(this.gl.MAX_TEXTURE_SIZE) ?? 0;
    return rows <= max && cols <= max;
  }

  /** Uploads a matrix into `texture` (made, or remade when the size changed); returns the texture. */
  upload(texture, { rows, cols, data }, size) {
    const gl = this.gl;
    gl.activeTexture(gl.TEXTURE0);
    if (!texture || size[0] !== cols || size[1] !== rows) {
      this.release(texture);
      texture = this.#newTexture();
      gl.texStorage2D(gl.TEXTURE_2D, 1, gl.R32F, cols, rows);
      this.textures++;
    } else {
      gl.bindTexture(gl.TEXTURE_2D, texture);
    }
    gl.pixelStorei(gl.UNPACK_ALIGNMENT, 4);
    const floats = data instanceof Float32Array ? data : Float32Array.from(data);
    gl.texSubImage2D(gl.TEXTURE_2D, 0, 0, 0, cols, rows, gl.RED, gl.FLOAT, floats);
    return texture;
  }

  release(texture) {
    if (!texture) return;
    this.gl.deleteTexture(texture);
    this.textures = Math.max(0, this.textures - 1);
  }

  #lut(colormap) {
    if (!this.#luts.has(colormap)) {
      const gl = this.gl;
      const texture = this.#newTexture();
      const table = new Uint8Array(colormapTable(colormap).buffer.slice(0));
      gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA8, 256, 1, 0, gl.RGBA, gl.UNSIGNED_BYTE, table);
      this.#luts.set(colormap, texture);
    }
    return this.#luts.get(colormap);
  }

  /**
   * Draws `window` of the matrix in `texture` at width × height into the shared canvas (its
   * bottom-left corner; the canvas only grows) and copies it onto `target` (a 2D context).
   */
  draw(target, { texture, cols, rows, colormap, range: [lo, hi] }, [x0, y0, x1, y1], width, height) {
    const gl = this.gl;
    const canvas = this.canvas;
    if (canvas.width < width || canvas.height < height) {
      canvas.width = Math.max(canvas.width, width);
      canvas.height = Math.max(canvas.height, height);
    }
    gl.viewport(0, 0, width, height);
    gl.useProgram(this.#program);
    gl.activeTexture(gl.TEXTURE1);
    gl.bindTexture(gl.TEXTURE_2D, this.#lut(colormap));
    gl.activeTexture(gl.TEXTURE0);
    gl.bindTexture(gl.TEXTURE_2D, texture);
    const u = this.#uniforms;
    gl.uniform1i(u.u_data, 0);
    gl.uniform1i(u.u_lut, 1);
    gl.uniform4f(u.u_window, x0, y0, x1, y1);
    gl.uniform2f(u.u_size, width, height);
    gl.uniform2f(u.u_scale, lo, 255 / (hi - lo));
    gl.uniform2i(u.u_cells, cols, rows);
    gl.drawArrays(gl.TRIANGLES, 0, 3);
    target.drawImage(canvas, 0, canvas.height - height, width, height, 0, 0, width, height);
  }
}

let shared; // undefined: not tried yet; null: this page has no WebGL2

function sharedRenderer() {
  if (shared === undefined) {
    shared = null;
    try {
      const canvas = document.createElement('canvas');
      canvas.width = canvas.height = 1;
      const gl = canvas.getContext('webgl2', { antialias: false, premultipliedAlpha: false, alpha: true });
      if (gl) shared = new SharedRenderer(canvas, gl);
    } catch {
      shared = null; // WebGL2 refused: every heatmap draws in 2D
    }
  }
  return shared;
}

/**
 * The page's shared WebGL2 renderer as numbers (diagnostics and tests): whether it exists and is
 * lost, how often it was lost and restored, how many matrix textures it holds, its canvas size.
 */
export function heatmapRendererStats() {
  const renderer = sharedRenderer();
  if (!renderer) return { webgl2: false, lost: false, losses: 0, restores: 0, textures: 0, canvas: [0, 0] };
  const { lost, losses, restores, textures, canvas } = renderer;
  return { webgl2: true, lost, losses, restores, textures, canvas: [canvas.width, canvas.height] };
}

/** The page's shared WebGL2 context, or null (diagnostics: e.g. WEBGL_lose_context). */
export function heatmapWebGLContext() {
  return sharedRenderer()?.gl ?? null;
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

  constructor(canvas, renderer, onRestored) {
    this.#canvas = canvas;
    this.#context = canvas.getContext('2d');
    this.#renderer = renderer;
    const gl = renderer === '2d' ? null : sharedRenderer();
    if (gl && onRestored) this.#unsubscribe = gl.onRestored(onRestored);
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
 * context when there is one (renderer 'auto' | 'webgl2'), else — or with '2d' — in canvas 2D.
 * `onRestored` is called when a lost shared context comes back (redraw to return to WebGL2).
 */
export function createHeatmapView(canvas, renderer = 'auto', { onRestored } = {}) {
  if (!['auto', 'webgl2', '2d'].includes(renderer)) {
    throw new RangeError(`relpos.createHeatmapView: renderer must be auto, webgl2 or 2d, got '${renderer}'`);
  }
  return new HeatmapView(canvas, renderer, onRestored);
}
