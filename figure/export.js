// Exporters shared by <relpos-heatmap>, <relpos-curve>, the Node figure writer (bindings/figure.js)
// and the CLI. A figure is plain data:
//   heatmap: { kind: 'heatmap', rows, cols, data, colormap, range, xLabel, yLabel, title?, meta? }
//   curve:   { kind: 'curve', x, series: [{ label, y }], xLabel, yLabel, log?, title? }
// Every function here is pure and runs in Node and browsers alike; the DOM-bound ones (toPNG,
// exportFigure, download) are in web/components/export.js. SVG heatmaps are vector rects for n ≤ 32 and otherwise an <image> of the
// one-pixel-per-cell PNG (kept crisp with image-rendering: pixelated) under vector axes, ticks and
// colorbar — a 4096² map as 16M rects would be unusable in any editor.
import { colormapTable, isMasked, lutIndex } from './colormap.js';
import { integerTicks, logTicks, niceTicks } from './ticks.js';

export { EXPORT_FORMATS, requireFormat } from './export-formats.js';

export const SVG_RECT_LIMIT = 32;
export const PGF_INLINE_LIMIT = 64;

/** A float32-exact, locale-free number for data files; non-finite as inf / -inf / nan. */
export function dataNumber(v) {
  if (v === Infinity) return 'inf';
  if (v === -Infinity) return '-inf';
  if (Number.isNaN(v)) return 'nan';
  return String(Number(v.toPrecision(9)));
}

function csvField(text) {
  const s = String(text);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** CSV: a heatmap is `rows` lines of `cols` values (no header); a curve has a header `x,label…`. */
export function toCSV(figure) {
  if (figure.kind === 'curve') {
    const lines = [[figure.xLabel ?? 'x', ...figure.series.map((s) => s.label)].map(csvField).join(',')];
    for (let k = 0; k < figure.x.length; k++) {
      lines.push(
        [figure.x[k], ...figure.series.map((s) => s.y[k])].map((v) => (v == null ? '' : dataNumber(v))).join(','),
      );
    }
    return `${lines.join('\n')}\n`;
  }
  const { rows, cols, data } = figure;
  const lines = new Array(rows);
  for (let i = 0; i < rows; i++) {
    const row = new Array(cols);
    for (let j = 0; j < cols; j++) row[j] = dataNumber(data[i * cols + j]);
    lines[i] = row.join(',');
  }
  return `${lines.join('\n')}\n`;
}

function jsonNumber(v) {
  return v == null ? null : Number.isFinite(v) ? v : String(v);
}

function reviveNumber(v) {
  if (typeof v === 'number') return v;
  if (v === 'Infinity') return Infinity;
  if (v === '-Infinity') return -Infinity;
  return Number.NaN;
}

/** JSON with the values and everything needed to redraw the figure; ±Infinity / NaN as strings. */
export function toJSON(figure) {
  const base = {
    format: 'relpos-figure',
    version: 1,
    kind: figure.kind,
    title: figure.title ?? '',
    xLabel: figure.xLabel ?? '',
    yLabel: figure.yLabel ?? '',
    meta: figure.meta ?? {},
  };
  if (figure.kind === 'curve') {
    return JSON.stringify({
      ...base,
      log: Boolean(figure.log),
      x: Array.from(figure.x, jsonNumber),
      series: figure.series.map((s) => ({ label: s.label, y: Array.from(s.y, jsonNumber) })),
    });
  }
  const rows = [];
  for (let i = 0; i < figure.rows; i++) {
    rows.push(Array.from(figure.data.subarray(i * figure.cols, (i + 1) * figure.cols), jsonNumber));
  }
  return JSON.stringify({
    ...base,
    colormap: figure.colormap,
    range: figure.range,
    shape: [figure.rows, figure.cols],
    data: rows,
  });
}

/** Reads toJSON output back into a figure (Float32Array data / Float64Array series). */
export function fromJSON(text) {
  const o = JSON.parse(text);
  if (o?.format !== 'relpos-figure') throw new TypeError('relpos.fromJSON: not a relpos figure');
  if (o.kind === 'curve') {
    return {
      ...o,
      x: Float64Array.from(o.x, reviveNumber),
      series: o.series.map((s) => ({ label: s.label, y: Float64Array.from(s.y, reviveNumber) })),
    };
  }
  const [rows, cols] = o.shape;
  const data = new Float32Array(rows * cols);
  o.data.forEach((row, i) =>
    row.forEach((v, j) => {
      data[i * cols + j] = reviveNumber(v);
    }),
  );
  return { ...o, rows, cols, data };
}

/** Escapes LaTeX specials in a label (Unicode passes through; use lualatex/xelatex for CJK). */
export function texEscape(text) {
  const map = {
    '\\': '\\textbackslash{}',
    '{': '\\{',
    '}': '\\}',
    $: '\\$',
    '&': '\\&',
    '#': '\\#',
    '%': '\\%',
    _: '\\_',
    '^': '\\^{}',
    '~': '\\~{}',
  };
  return String(text ?? '').replace(/[\\{}$&#%_^~]/g, (c) => map[c]);
}

function pgfColormap(name, stops = 9) {
  const lut = colormapTable(name);
  const parts = [];
  for (let s = 0; s < stops; s++) {
    const at = Math.round((s / (stops - 1)) * 255) * 4;
    parts.push(`rgb255=(${lut[at]},${lut[at + 1]},${lut[at + 2]})`);
  }
  return `colormap={relpos-${name}}{${parts.join(' ')}}`;
}

/**
 * A pgfplots snippet. Heatmaps up to 64×64 are an inline `matrix plot*`; larger ones use
 * `\addplot graphics` with the PNG export (`imageFile`, default relpos-heatmap.png) so TeX's memory
 * is not exhausted. Curves are one `\addplot table` per series.
 */
export function toPgfplots(figure, { imageFile = 'relpos-heatmap.png' } = {}) {
  const lines = [
    '% relpos figure — needs \\usepackage{pgfplots} and \\pgfplotsset{compat=1.18}',
    '\\begin{tikzpicture}',
  ];
  if (figure.kind === 'curve') {
    const opts = [
      `xlabel={${texEscape(figure.xLabel)}}`,
      `ylabel={${texEscape(figure.yLabel)}}`,
      'grid=major',
      'legend pos=outer north east',
      'unbounded coords=jump',
    ];
    if (figure.log) opts.push('ymode=log');
    if (figure.title) opts.push(`title={${texEscape(figure.title)}}`);
    lines.push(`\\begin{axis}[${opts.join(', ')}]`);
    for (const s of figure.series) {
      lines.push('\\addplot+[mark=none] table {', 'x y');
      for (let k = 0; k < figure.x.length; k++) {
        lines.push(`${dataNumber(figure.x[k])} ${s.y[k] == null ? 'nan' : dataNumber(s.y[k])}`);
      }
      lines.push('};', `\\addlegendentry{${texEscape(s.label)}}`);
    }
  } else {
    const { rows, cols, data, range } = figure;
    const opts = [
      'enlargelimits=false',
      'axis on top',
      'y dir=reverse',
      'colorbar',
      pgfColormap(figure.colormap ?? 'viridis'),
      `point meta min=${dataNumber(range[0])}`,
      `point meta max=${dataNumber(range[1])}`,
      `xlabel={${texEscape(figure.xLabel)}}`,
      `ylabel={${texEscape(figure.yLabel)}}`,
      `xmin=-0.5, xmax=${cols - 0.5}, ymin=-0.5, ymax=${rows - 0.5}`,
    ];
    if (figure.title) opts.push(`title={${texEscape(figure.title)}}`);
    lines.push(`\\begin{axis}[${opts.join(', ')}]`);
    if (rows <= PGF_INLINE_LIMIT && cols <= PGF_INLINE_LIMIT) {
      lines.push(
        `\\addplot[matrix plot*, mesh/cols=${cols}, mesh/rows=${rows}, point meta=explicit, unbounded coords=jump] table[meta=c] {`,
        'x y c',
      );
      for (let i = 0; i < rows; i++) {
        for (let j = 0; j < cols; j++) {
          lines.push(`${j} ${i} ${Number.isFinite(data[i * cols + j]) ? dataNumber(data[i * cols + j]) : 'nan'}`);
        }
      }
      lines.push('};');
    } else {
      lines.push(`% ${rows}×${cols} is too large to inline: export the PNG next to this file.`);
      lines.push(`\\addplot graphics[xmin=-0.5, xmax=${cols - 0.5}, ymin=-0.5, ymax=${rows - 0.5}] {${imageFile}};`);
    }
  }
  lines.push('\\end{axis}', '\\end{tikzpicture}');
  return `${lines.join('\n')}\n`;
}

/** Escapes text for SVG/XML character data and attributes. */
export function xmlEscape(text) {
  return String(text ?? '').replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c],
  );
}

function lutHex(lut, index) {
  const at = index * 4;
  return `#${[lut[at], lut[at + 1], lut[at + 2]].map((c) => c.toString(16).padStart(2, '0')).join('')}`;
}

function svgTickLabel(v) {
  return xmlEscape(Number.isInteger(v) ? String(v) : String(Number(v.toPrecision(4))));
}

/**
 * SVG text of a figure. Heatmaps larger than 32×32 need `pngDataUrl` (one pixel per cell, from
 * heatmapPNGDataURL) and embed it as an <image>; smaller ones are drawn as <rect>s.
 */
export function toSVG(figure, { pngDataUrl, size = 400 } = {}) {
  return figure.kind === 'curve' ? curveSVG(figure, size) : heatmapSVG(figure, pngDataUrl, size);
}

/** The heatmap's cells: one rect each up to SVG_RECT_LIMIT per side, else the PNG embedded as an image. */
function heatmapCellsSVG(figure, pngDataUrl, lut, cell) {
  const { rows, cols, data, range } = figure;
  if (rows <= SVG_RECT_LIMIT && cols <= SVG_RECT_LIMIT) {
    const [lo, hi] = range;
    const k = 255 / (hi - lo);
    const out = [];
    for (let i = 0; i < rows; i++) {
      for (let j = 0; j < cols; j++) {
        const v = data[i * cols + j];
        const fill = isMasked(v) ? '#808080' : lutHex(lut, lutIndex(v, lo, k));
        out.push(
          `<rect x="${+(j * cell).toFixed(3)}" y="${+(i * cell).toFixed(3)}" width="${+cell.toFixed(3)}" height="${+cell.toFixed(3)}" fill="${fill}" shape-rendering="crispEdges"/>`,
        );
      }
    }
    return out;
  }
  if (!pngDataUrl) {
    throw new TypeError(
      `relpos.toSVG: a ${rows}×${cols} heatmap needs pngDataUrl (more than ${SVG_RECT_LIMIT}×${SVG_RECT_LIMIT} cells)`,
    );
  }
  if (!/^data:image\/png;base64,[A-Za-z0-9+/=]+$/.test(pngDataUrl)) {
    throw new TypeError('relpos.toSVG: pngDataUrl must be a base64 PNG data URL');
  }
  return [
    `<image width="${cols * cell}" height="${rows * cell}" preserveAspectRatio="none" style="image-rendering:pixelated" href="${pngDataUrl}"/>`,
  ];
}

/** The frame around the cells, ticks on both axes (counted from 0) and the axis titles. */
function heatmapAxesSVG(figure, cell) {
  const { rows, cols } = figure;
  const w = cols * cell;
  const h = rows * cell;
  const out = [`<rect width="${w}" height="${h}" fill="none" stroke="#000" stroke-width="0.75"/>`];
  for (const j of integerTicks(0, cols - 1, 6)) {
    const x = (j + 0.5) * cell;
    out.push(
      `<line x1="${x}" x2="${x}" y1="0" y2="-4" stroke="#000"/><text x="${x}" y="-7" text-anchor="middle">${svgTickLabel(j)}</text>`,
    );
  }
  for (const i of integerTicks(0, rows - 1, 6)) {
    const y = (i + 0.5) * cell;
    out.push(
      `<line x1="0" x2="-4" y1="${y}" y2="${y}" stroke="#000"/><text x="-7" y="${y + 4}" text-anchor="end">${svgTickLabel(i)}</text>`,
    );
  }
  out.push(`<text x="${w / 2}" y="-26" text-anchor="middle" font-size="12">${xmlEscape(figure.xLabel)}</text>`);
  out.push(
    `<text transform="translate(-44 ${h / 2}) rotate(-90)" text-anchor="middle" font-size="12">${xmlEscape(figure.yLabel)}</text>`,
  );
  return out;
}

/** The colour bar at (x, top), `h` high: a vertical gradient (high at the top) with nice ticks. */
function colorbarSVG(lut, [lo, hi], x, top, h) {
  const out = ['<defs><linearGradient id="relpos-bar" x1="0" y1="1" x2="0" y2="0">'];
  for (let s = 0; s <= 16; s++) {
    out.push(`<stop offset="${s / 16}" stop-color="${lutHex(lut, Math.round((s / 16) * 255))}"/>`);
  }
  out.push('</linearGradient></defs>');
  out.push(
    `<rect x="${x}" y="${top}" width="14" height="${h}" fill="url(#relpos-bar)" stroke="#000" stroke-width="0.75"/>`,
  );
  for (const t of niceTicks(lo, hi, 5)) {
    const y = top + h - ((t - lo) / (hi - lo)) * h;
    out.push(
      `<line x1="${x + 14}" x2="${x + 18}" y1="${y}" y2="${y}" stroke="#000"/><text x="${x + 21}" y="${y + 4}">${svgTickLabel(t)}</text>`,
    );
  }
  return out;
}

function heatmapSVG(figure, pngDataUrl, size) {
  const { rows, cols } = figure;
  const lut = colormapTable(figure.colormap ?? 'viridis');
  const left = 64;
  const top = 48;
  const cell = size / Math.max(rows, cols);
  const barX = left + cols * cell + 16;
  const width = barX + 80;
  const height = top + rows * cell + 24;
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="Helvetica, Arial, sans-serif" font-size="11">`,
  ];
  if (figure.title) out.push(`<title>${xmlEscape(figure.title)}</title>`);
  out.push(`<rect width="${width}" height="${height}" fill="#fff"/>`);
  const cells = heatmapCellsSVG(figure, pngDataUrl, lut, cell);
  out.push(`<g transform="translate(${left} ${top})">`, ...cells, ...heatmapAxesSVG(figure, cell), '</g>');
  out.push(...colorbarSVG(lut, figure.range, barX, top, rows * cell), '</svg>');
  return out.join('\n');
}

const SERIES_COLORS = ['#0072b2', '#d55e00', '#009e73', '#cc79a7', '#e69f00', '#56b4e9', '#f0e442', '#000000'];

/** The colour of series k (Okabe–Ito, colour-blind safe) — shared by uPlot curves and SVG export. */
export function seriesColor(k) {
  return SERIES_COLORS[k % SERIES_COLORS.length];
}

function curveSVG(figure, size) {
  const left = 64;
  const top = 16;
  const w = size * 1.5;
  const h = size;
  const legendX = left + w + 16;
  const width = legendX + 150;
  const height = top + h + 48;
  const xs = Array.from(figure.x);
  const ys = figure.series.flatMap((s) => Array.from(s.y).filter((v) => Number.isFinite(v) && (!figure.log || v > 0)));
  const [x0, x1] = [Math.min(...xs), Math.max(...xs)];
  let [y0, y1] = ys.length ? [Math.min(...ys), Math.max(...ys)] : [0, 1];
  if (y0 === y1) [y0, y1] = [y0 - 1, y1 + 1];
  const ty = figure.log ? (v) => Math.log10(v) : (v) => v;
  const sx = (v) => ((v - x0) / (x1 - x0 || 1)) * w;
  const sy = (v) => h - ((ty(v) - ty(y0)) / (ty(y1) - ty(y0) || 1)) * h;
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="Helvetica, Arial, sans-serif" font-size="11">`,
  ];
  if (figure.title) out.push(`<title>${xmlEscape(figure.title)}</title>`);
  out.push(`<rect width="${width}" height="${height}" fill="#fff"/><g transform="translate(${left} ${top})">`);
  for (const t of niceTicks(x0, x1, 6)) {
    out.push(
      `<line x1="${sx(t)}" x2="${sx(t)}" y1="0" y2="${h}" stroke="#ddd"/><text x="${sx(t)}" y="${h + 14}" text-anchor="middle">${svgTickLabel(t)}</text>`,
    );
  }
  for (const t of figure.log ? logTicks(y0, y1) : niceTicks(y0, y1, 5)) {
    out.push(
      `<line x1="0" x2="${w}" y1="${sy(t)}" y2="${sy(t)}" stroke="#ddd"/><text x="-6" y="${sy(t) + 4}" text-anchor="end">${svgTickLabel(t)}</text>`,
    );
  }
  out.push(`<rect width="${w}" height="${h}" fill="none" stroke="#000" stroke-width="0.75"/>`);
  figure.series.forEach((s, k) => {
    const segments = [];
    let current = [];
    for (let p = 0; p < xs.length; p++) {
      const v = s.y[p];
      if (v == null || !Number.isFinite(v) || (figure.log && v <= 0)) {
        if (current.length) segments.push(current);
        current = [];
      } else current.push(`${sx(xs[p]).toFixed(2)},${sy(v).toFixed(2)}`);
    }
    if (current.length) segments.push(current);
    for (const seg of segments) {
      out.push(`<polyline fill="none" stroke="${seriesColor(k)}" stroke-width="1.5" points="${seg.join(' ')}"/>`);
    }
    out.push(
      `<line x1="${legendX - left}" x2="${legendX - left + 18}" y1="${8 + k * 16}" y2="${8 + k * 16}" stroke="${seriesColor(k)}" stroke-width="2"/><text x="${legendX - left + 22}" y="${12 + k * 16}">${xmlEscape(s.label)}</text>`,
    );
  });
  out.push(`<text x="${w / 2}" y="${h + 34}" text-anchor="middle" font-size="12">${xmlEscape(figure.xLabel)}</text>`);
  out.push(
    `<text transform="translate(-48 ${h / 2}) rotate(-90)" text-anchor="middle" font-size="12">${xmlEscape(figure.yLabel)}</text>`,
  );
  out.push('</g></svg>');
  return out.join('\n');
}

/** PNG pixels per cell of a heatmap export: an integer making small maps at least ~512 px. */
export function pngScale(figure) {
  return Math.max(1, Math.floor(512 / Math.max(figure.rows, figure.cols)));
}

/** True when the SVG of this figure embeds a one-pixel-per-cell PNG (heatmaps over 32×32). */
export function svgNeedsPNG(figure) {
  return figure.kind !== 'curve' && (figure.rows > SVG_RECT_LIMIT || figure.cols > SVG_RECT_LIMIT);
}

/**
 * The text of a figure in svg | csv | json | tex. `imageFile` is the PNG a large pgfplots heatmap
 * points at; `pngDataUrl` the PNG a large SVG heatmap embeds; `size` the SVG plot size in px.
 */
export function figureText(figure, format, { imageFile, pngDataUrl, size } = {}) {
  switch (format) {
    case 'csv':
      return toCSV(figure);
    case 'json':
      return toJSON(figure);
    case 'tex':
      return toPgfplots(figure, { imageFile });
    case 'svg':
      return toSVG(figure, { pngDataUrl, size });
    default:
      throw new RangeError(`relpos.figureText: format must be one of svg, csv, json, tex, got '${format}'`);
  }
}
