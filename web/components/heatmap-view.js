// The drawing surface of <relpos-heatmap>: shows a window [x0, x1) × [y0, y1) (in cell units) of a
// [rows, cols] matrix on a canvas at device resolution, nearest-neighbour (cells stay crisp blocks).
//   WebGL2: the matrix is an R32F texture read with texelFetch, mapped through a 256×1 RGBA
//           colormap texture in the fragment shader — a parameter change uploads one texture and a
//           pan/zoom is a single draw of one triangle, so a 4096² map moves at frame rate.
//   2D:     fallback when WebGL2 is missing (or renderer="2d"): renderHeatmap paints one pixel per
//           cell on an offscreen canvas, drawImage scales the window (imageSmoothingEnabled = false).
// Colour of a cell: LUT[round((v − lo)·255/(hi − lo))] clamped; −∞ and NaN are grey (128, 128, 128).
import { colormapTable } from './colormap.js';
import { renderHeatmap } from './render-heatmap.js';

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
uniform vec2 u_size;     // canvas size in device pixels
uniform vec2 u_scale;    // lo, 255 / (hi - lo)
uniform ivec2 u_cells;   // cols, rows
uniform vec4 u_background;
out vec4 color;
void main() {
  vec2 f = vec2(gl_FragCoord.x, u_size.y - gl_FragCoord.y) / u_size;
  vec2 cell = floor(mix(u_window.xy, u_window.zw, f));
  if (cell.x < 0.0 || cell.y < 0.0 || cell.x >= float(u_cells.x) || cell.y >= float(u_cells.y)) { color = u_background; return; }
  float v = texelFetch(u_data, ivec2(cell), 0).r;
  if (isnan(v) || v < -3.0e38) { color = vec4(128.0 / 255.0, 128.0 / 255.0, 128.0 / 255.0, 1.0); return; }
  float index = clamp(floor((v - u_scale.x) * u_scale.y + 0.5), 0.0, 255.0);
  color = texelFetch(u_lut, ivec2(int(index), 0), 0);
}`;

function compile(gl, type, source) {
  const shader = gl.createShader(type);
  gl.shaderSource(shader, source);
  gl.compileShader(shader);
  if (!gl.getShaderParameter(shader, gl.COMPILE_STATUS)) {
    throw new Error(gl.getShaderInfoLog(shader) ?? 'shader compile failed');
  }
  return shader;
}

class WebGLView {
  kind = 'webgl2';
  #gl;
  #program;
  #uniforms;
  #dataTexture;
  #lutTexture;
  #size = [0, 0];
  #colormap = null;
  #scale = [0, 1];

  constructor(gl) {
    this.#gl = gl;
    const program = gl.createProgram();
    gl.attachShader(program, compile(gl, gl.VERTEX_SHADER, VERTEX));
    gl.attachShader(program, compile(gl, gl.FRAGMENT_SHADER, FRAGMENT));
    gl.linkProgram(program);
    if (!gl.getProgramParameter(program, gl.LINK_STATUS)) {
      throw new Error(gl.getProgramInfoLog(program) ?? 'link failed');
    }
    this.#program = program;
    this.#uniforms = Object.fromEntries(
      ['u_data', 'u_lut', 'u_window', 'u_size', 'u_scale', 'u_cells', 'u_background'].map((n) => [
        n,
        gl.getUniformLocation(program, n),
      ]),
    );
    this.#lutTexture = this.#texture();
    gl.bindVertexArray(gl.createVertexArray());
  }

  #texture() {
    const gl = this.#gl;
    const texture = gl.createTexture();
    gl.bindTexture(gl.TEXTURE_2D, texture);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
    return texture;
  }

  setMatrix({ rows, cols, data }) {
    const gl = this.#gl;
    const floats = data instanceof Float32Array ? data : Float32Array.from(data);
    gl.activeTexture(gl.TEXTURE0);
    if (!this.#dataTexture || this.#size[0] !== cols || this.#size[1] !== rows) {
      if (this.#dataTexture) gl.deleteTexture(this.#dataTexture);
      this.#dataTexture = this.#texture();
      gl.texStorage2D(gl.TEXTURE_2D, 1, gl.R32F, cols, rows);
      this.#size = [cols, rows];
    } else {
      gl.bindTexture(gl.TEXTURE_2D, this.#dataTexture);
    }
    gl.pixelStorei(gl.UNPACK_ALIGNMENT, 4);
    gl.texSubImage2D(gl.TEXTURE_2D, 0, 0, 0, cols, rows, gl.RED, gl.FLOAT, floats);
  }

  setScale(colormap, [lo, hi]) {
    const gl = this.#gl;
    if (colormap !== this.#colormap) {
      gl.activeTexture(gl.TEXTURE1);
      gl.bindTexture(gl.TEXTURE_2D, this.#lutTexture);
      gl.texImage2D(
        gl.TEXTURE_2D,
        0,
        gl.RGBA8,
        256,
        1,
        0,
        gl.RGBA,
        gl.UNSIGNED_BYTE,
        new Uint8Array(colormapTable(colormap).buffer.slice(0)),
      );
      this.#colormap = colormap;
    }
    this.#scale = [lo, 255 / (hi - lo)];
  }

  draw([x0, y0, x1, y1], width, height) {
    const gl = this.#gl;
    const canvas = gl.canvas;
    if (canvas.width !== width || canvas.height !== height) {
      canvas.width = width;
      canvas.height = height;
    }
    gl.viewport(0, 0, width, height);
    gl.useProgram(this.#program);
    gl.activeTexture(gl.TEXTURE0);
    gl.bindTexture(gl.TEXTURE_2D, this.#dataTexture);
    gl.activeTexture(gl.TEXTURE1);
    gl.bindTexture(gl.TEXTURE_2D, this.#lutTexture);
    const u = this.#uniforms;
    gl.uniform1i(u.u_data, 0);
    gl.uniform1i(u.u_lut, 1);
    gl.uniform4f(u.u_window, x0, y0, x1, y1);
    gl.uniform2f(u.u_size, width, height);
    gl.uniform2f(u.u_scale, this.#scale[0], this.#scale[1]);
    gl.uniform2i(u.u_cells, this.#size[0], this.#size[1]);
    gl.uniform4f(u.u_background, 0, 0, 0, 0);
    gl.drawArrays(gl.TRIANGLES, 0, 3);
  }

  /** Blocks until the GPU finished (benchmarks: time to a drawn frame, not to a queued one). */
  finish() {
    const pixel = new Uint8Array(4);
    this.#gl.readPixels(0, 0, 1, 1, this.#gl.RGBA, this.#gl.UNSIGNED_BYTE, pixel);
  }
}

class CanvasView {
  kind = '2d';
  #canvas;
  #source;
  #matrix = null;
  #scale = null;
  #dirty = true;

  constructor(canvas) {
    this.#canvas = canvas;
    this.#source = document.createElement('canvas');
  }

  setMatrix(matrix) {
    this.#matrix = matrix;
    this.#dirty = true;
  }

  setScale(colormap, range) {
    if (this.#scale?.colormap !== colormap || this.#scale.range[0] !== range[0] || this.#scale.range[1] !== range[1]) {
      this.#dirty = true;
    }
    this.#scale = { colormap, range: [...range] };
  }

  draw([x0, y0, x1, y1], width, height) {
    if (!this.#matrix) return;
    if (this.#dirty) {
      const { rows, cols, data } = this.#matrix;
      renderHeatmap(this.#source, { shape: [rows, cols], data }, this.#scale);
      this.#dirty = false;
    }
    const canvas = this.#canvas;
    if (canvas.width !== width || canvas.height !== height) {
      canvas.width = width;
      canvas.height = height;
    }
    const context = canvas.getContext('2d');
    context.clearRect(0, 0, width, height);
    context.imageSmoothingEnabled = false;
    // Parts of the window outside the matrix stay transparent, as in the WebGL view.
    const { rows, cols } = this.#matrix;
    const sx0 = Math.max(0, x0);
    const sy0 = Math.max(0, y0);
    const sx1 = Math.min(cols, x1);
    const sy1 = Math.min(rows, y1);
    if (sx1 <= sx0 || sy1 <= sy0) return;
    const kx = width / (x1 - x0);
    const ky = height / (y1 - y0);
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

  finish() {
    this.#canvas.getContext('2d').getImageData(0, 0, 1, 1);
  }
}

/**
 * A view on `canvas`: WebGL2 when available (renderer 'auto' | 'webgl2'), else canvas 2D.
 * The WebGL context keeps its drawing buffer so that the shown frame can be read back (tests,
 * "copy image") — a small cost next to the texture upload.
 */
export function createHeatmapView(canvas, renderer = 'auto') {
  if (renderer !== '2d') {
    try {
      const gl = canvas.getContext('webgl2', {
        preserveDrawingBuffer: true,
        antialias: false,
        premultipliedAlpha: false,
        alpha: true,
      });
      if (gl) return new WebGLView(gl);
    } catch {
      // fall through to 2D
    }
  }
  return new CanvasView(canvas);
}
