// relpos/figure: figures from Node, no DOM — a PNG, SVG, CSV, JSON or pgfplots file of any tensor
// (or of a scheme's view), with the colour maps, colour rule and file conventions of the web
// components, from the DOM-free figure layer they stand on too (docs/architecture.md): the same
// exporters (figure/export.js), the same views (figure/views.js); PNGs are encoded by pngjs.
//
//   import { load } from 'relpos';
//   import { writeFigure, viewFigure } from 'relpos/figure';
//   const rp = await load();
//   await writeFigure('alibi.png', rp.bias('alibi', { n: 64, heads: 8 }), { head: 3 });
//   const { figure } = viewFigure(rp, { scheme: 'rope', view: 'weights', n: 128, causal: true });
//   await writeFigure('rope.svg', figure);
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, extname } from 'node:path';
import { crc32 } from 'node:zlib';
import pngjs from 'pngjs';
import { colorize, colormapTable } from '../figure/colormap.js';
import { EXPORT_FORMATS, figureText, requireFormat, svgNeedsPNG } from '../figure/export.js';
import { autoScale, sliceMatrix } from '../figure/scale.js';
import { callText, computeView, defaultView, maskedCells, viewCall } from '../figure/views.js';

export { colormapNames } from '../figure/colormap.js';
export { VIEWS, viewsFor, viewCall, callText, describeParams, maskedCells } from '../figure/views.js';
export { fromJSON } from '../figure/export.js';

const FORMATS = Object.keys(EXPORT_FORMATS);

function isTensor(value) {
  return value !== null && typeof value === 'object' && Array.isArray(value.shape) && ArrayBuffer.isView(value.data);
}

function isFigure(value) {
  return value !== null && typeof value === 'object' && (value.kind === 'heatmap' || value.kind === 'curve');
}

function checkRange(where, range) {
  if (!Array.isArray(range) || range.length !== 2 || !range.every(Number.isFinite) || !(range[1] > range[0])) {
    throw new RangeError(
      `${where}: range must be two finite numbers [lo, hi] with lo < hi, got ${JSON.stringify(range)}`,
    );
  }
}

/**
 * The heatmap figure of one [rows, cols] slice of a tensor — what <relpos-heatmap>'s figure()
 * returns: the colour scale is the element's (autoScale: diverging and symmetric when the data is
 * signed) unless `colormap` / `range` say otherwise.
 */
export function heatmapFigure(tensor, options = {}) {
  const where = 'relpos.heatmapFigure';
  if (!isTensor(tensor)) throw new TypeError(`${where}: tensor must be { shape, data } with a typed-array data`);
  if (options === null || typeof options !== 'object') throw new TypeError(`${where}: options must be an object`);
  const { head = 0, colormap, range, title = '', xLabel = 'key j', yLabel = 'query i', meta = {} } = options;
  const { rows, cols, data } = sliceMatrix(tensor, head, where);
  if (colormap !== undefined) colormapTable(colormap);
  if (range !== undefined) checkRange(where, range);
  const scale = range ? { colormap: colormap ?? 'viridis', range } : autoScale(data, colormap);
  return {
    kind: 'heatmap',
    rows,
    cols,
    data: data instanceof Float32Array ? data : Float32Array.from(data),
    colormap: scale.colormap.toLowerCase(),
    range: [...scale.range],
    xLabel,
    yLabel,
    title,
    meta: { head, ...meta },
  };
}

/**
 * A scheme's view (bias | scores | weights | buckets | distances, as the elements define them)
 * computed by `rp` and made a figure: { figure, tensor, call } — `call` is the core call, as data.
 * `options`: scheme, view (default: the scheme's), head, colormap, range, title, n, heads, d,
 * causal, mode and the scheme parameters.
 */
export function viewFigure(rp, options) {
  const where = 'relpos.viewFigure';
  if (options === null || typeof options !== 'object') throw new TypeError(`${where}: options must be an object`);
  const { scheme, view: asked, head = 0, colormap, range, title, ...rest } = options;
  const info = rp.schemes.find((s) => s.id === scheme);
  if (!info) {
    throw new RangeError(`${where}: scheme must be one of ${rp.schemes.map((s) => s.id).join(', ')}, got '${scheme}'`);
  }
  const view = asked ?? defaultView(info);
  const tensor = computeView(rp, info, view, rest);
  const call = viewCall(info, view, rest);
  // A view that is the same for every head returns that one map (sameForEveryHead): it is every head's.
  const shared = tensor.sameForEveryHead === true;
  const heads = shared ? (rest.heads ?? 1) : tensor.shape.length === 3 ? tensor.shape[0] : 1;
  // The weights view: a masked key's weight is 0, as is one that underflowed; the figure marks the
  // cells the call masks −∞, so they are drawn (and exported) as masked, like the bias view's.
  const masked = maskedCells(rp, info, view, rest);
  const meta = { scheme: info.id, view, heads, call: callText(call) };
  if (masked) meta.masked = 'cells the call masks are -Infinity (their weight is 0)';
  if (tensor.synthetic) {
    meta.synthetic = [...tensor.synthetic];
    meta.warning = `${tensor.synthetic.join(', ')}: filled with relpos's untrained demonstration values, not a trained model's`;
  }
  const figure = heatmapFigure(tensor, {
    head: shared ? 0 : head,
    colormap,
    range,
    title: title ?? `${info.name} ${view}`,
    meta,
  });
  if (masked) {
    figure.data = Float32Array.from(figure.data, (v, cell) => (masked[cell] ? -Infinity : v));
    if (range === undefined) Object.assign(figure, scaleOf(figure.data, colormap));
  }
  return { figure, tensor, call };
}

function scaleOf(data, colormap) {
  const scale = autoScale(data, colormap);
  return { colormap: scale.colormap.toLowerCase(), range: [...scale.range] };
}

/**
 * A PNG iTXt chunk (UTF-8 text, uncompressed): keyword, then text. The CLI's figures carry what
 * they are in them — title, the call, the parameters, and a warning for demonstration inputs.
 */
function textChunk(keyword, text) {
  const body = Buffer.concat([Buffer.from(`${keyword}\0\0\0\0\0`, 'latin1'), Buffer.from(text, 'utf8')]);
  const typed = Buffer.concat([Buffer.from('iTXt', 'latin1'), body]);
  const chunk = Buffer.alloc(12 + body.length);
  chunk.writeUInt32BE(body.length, 0);
  typed.copy(chunk, 4);
  chunk.writeUInt32BE(crc32(typed), 8 + body.length);
  return chunk;
}

/** The PNG text of a figure: Title, Warning (PNG's keyword for the nature of the content), relpos (its meta as JSON). */
function pngText(figure) {
  const meta = figure.meta ?? {};
  const entries = [];
  if (figure.title) entries.push(['Title', figure.title]);
  if (typeof meta.warning === 'string') entries.push(['Warning', meta.warning]);
  if (Object.keys(meta).length) entries.push(['relpos', JSON.stringify(meta)]);
  return entries;
}

/** PNG bytes of a heatmap figure, `scale` × `scale` pixels per cell. */
export function encodePNG(figure, scale = 1) {
  const { width, height, data } = colorize(figure, figure.colormap ?? 'viridis', figure.range, scale);
  const png = new pngjs.PNG({ width, height, colorType: 6 });
  png.data.set(data);
  const bytes = pngjs.PNG.sync.write(png);
  // Text chunks go after IHDR (8-byte signature + 25-byte IHDR chunk), before the image data.
  const chunks = pngText(figure).map(([keyword, text]) => textChunk(keyword, text));
  return new Uint8Array(Buffer.concat([bytes.subarray(0, 33), ...chunks, bytes.subarray(33)]));
}

/**
 * The bytes (png) or text (svg | csv | json | tex) of a figure. `scale`: PNG pixels per cell
 * (default 1); `size`: the SVG plot size in px; `imageFile`: the PNG a large pgfplots heatmap uses.
 */
export function encodeFigure(figure, format, { scale = 1, size, imageFile } = {}) {
  const where = 'relpos.encodeFigure';
  if (!isFigure(figure)) throw new TypeError(`${where}: figure must be a heatmap or curve figure`);
  requireFormat(where, format);
  if (!Number.isInteger(scale) || scale < 1 || scale > 64) {
    throw new RangeError(`${where}: scale must be an integer in [1, 64], got ${scale}`);
  }
  if (format === 'png') {
    if (figure.kind === 'curve') {
      throw new RangeError(`${where}: a curve's PNG is drawn by a browser (toPNG); from Node, write svg`);
    }
    return encodePNG(figure, scale);
  }
  const pngDataUrl = svgNeedsPNG(figure)
    ? `data:image/png;base64,${Buffer.from(encodePNG(figure)).toString('base64')}`
    : undefined;
  return figureText(figure, format, { pngDataUrl, size, imageFile });
}

/**
 * Writes a figure, or a tensor as a heatmap figure (options as heatmapFigure's), to `path`; the
 * extension picks the format (.png .svg .csv .json .tex) unless `format` is given. Resolves to
 * { path, format, figure }.
 */
export async function writeFigure(path, source, options = {}) {
  const where = 'relpos.writeFigure';
  if (typeof path !== 'string' || path === '') throw new TypeError(`${where}: path must be a file name`);
  if (options === null || typeof options !== 'object') throw new TypeError(`${where}: options must be an object`);
  const { format = extname(path).slice(1).toLowerCase(), scale, size, ...figureOptions } = options;
  if (!FORMATS.includes(format)) {
    throw new RangeError(
      `${where}: path must end in ${FORMATS.map((f) => `.${f}`).join(', ')} (or pass format), got '${path}'`,
    );
  }
  let figure;
  if (isFigure(source)) figure = source;
  else if (isTensor(source)) figure = heatmapFigure(source, figureOptions);
  else throw new TypeError(`${where}: source must be a tensor { shape, data } or a figure`);
  const imageFile = `${path
    .slice(0, path.length - extname(path).length)
    .split(/[\\/]/)
    .at(-1)}.png`;
  const bytes = encodeFigure(figure, format, { scale, size, imageFile });
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, bytes);
  return { path, format, figure };
}
