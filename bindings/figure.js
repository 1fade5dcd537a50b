// relpos/figure: figures from Node, no DOM — a PNG, SVG, CSV, JSON or pgfplots file of any tensor
// (or of a scheme's view), with the colour maps, colour rule and file conventions of the web
// components: the same exporters (web/components/export.js), the same views
// (web/components/compute.js); PNGs are encoded by pngjs.
//
//   import { load } from 'relpos';
//   import { writeFigure, viewFigure } from 'relpos/figure';
//   const rp = await load();
//   await writeFigure('alibi.png', rp.bias('alibi', { n: 64, heads: 8 }), { head: 3 });
//   const { figure } = viewFigure(rp, { scheme: 'rope', view: 'weights', n: 128, causal: true });
//   await writeFigure('rope.svg', figure);
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, extname } from 'node:path';
import pngjs from 'pngjs';
import { colorize, colormapTable } from '../web/components/colormap.js';
import { callText, computeView, defaultView, viewCall } from '../web/components/compute.js';
import { EXPORT_FORMATS, figureText, requireFormat, svgNeedsPNG } from '../web/components/export.js';
import { autoScale, sliceMatrix } from '../web/components/render-heatmap.js';

export { colormapNames } from '../web/components/colormap.js';
export { VIEWS, viewsFor, viewCall, callText, describeParams } from '../web/components/compute.js';
export { fromJSON } from '../web/components/export.js';

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
  const figure = heatmapFigure(tensor, {
    head: shared ? 0 : head,
    colormap,
    range,
    title: title ?? `${info.name} ${view}`,
    meta: { scheme: info.id, view, heads, call: callText(call) },
  });
  return { figure, tensor, call };
}

/** PNG bytes of a heatmap figure, `scale` × `scale` pixels per cell. */
export function encodePNG(figure, scale = 1) {
  const { width, height, data } = colorize(figure, figure.colormap ?? 'viridis', figure.range, scale);
  const png = new pngjs.PNG({ width, height, colorType: 6 });
  png.data.set(data);
  return new Uint8Array(pngjs.PNG.sync.write(png));
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
