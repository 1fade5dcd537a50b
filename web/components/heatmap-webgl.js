// The page's one WebGL2 context for every <relpos-heatmap> (heatmap-view.js says why one): the
// shader that maps a matrix through a colormap texture, and the bookkeeping of loss and restore.
// A module of its own, fetched when a heatmap first draws with WebGL (renderer auto or webgl2),
// so a page whose first heatmap draws in 2D does not wait for it; on evaluation it hands
// heatmap-view.js its renderer.
import { colormapTable } from '../../figure/colormap.js';
import { useWebGL } from './heatmap-view.js';

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

/** The page's shared renderer, made on first use; null where WebGL2 is missing or refused. */
export function sharedRenderer() {
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

useWebGL(sharedRenderer);
