// The exporters' DOM-bound part: PNG through a canvas, Blobs and downloads. The pure text formats
// (CSV, JSON, pgfplots, SVG) live in figure/export.js, re-exported here for the elements.
import { colorize } from '../../figure/colormap.js';
import { figureText, pngScale, requireFormat, svgNeedsPNG, toSVG } from '../../figure/export.js';

export * from '../../figure/export.js';

/** A canvas with the heatmap at `scale` device pixels per cell (integer, crisp). */
export function heatmapCanvas(figure, scale = 1) {
  const { width, height, data } = colorize(figure, figure.colormap ?? 'viridis', figure.range, scale);
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  canvas.getContext('2d').putImageData(new ImageData(data, width, height), 0, 0);
  return canvas;
}

/** The one-pixel-per-cell PNG of a heatmap as a data URL (what the SVG export embeds). */
export function heatmapPNGDataURL(figure) {
  return heatmapCanvas(figure, 1).toDataURL('image/png');
}

function canvasBlob(canvas) {
  return new Promise((resolve, reject) =>
    canvas.toBlob(
      (b) => (b ? resolve(b) : reject(new Error('relpos.toPNG: canvas could not be encoded'))),
      'image/png',
    ),
  );
}

/**
 * PNG Blob. Heatmaps: the map alone, an integer number of pixels per cell so that small maps are
 * at least ~512 px and stay crisp (the image pgfplots `\addplot graphics` expects). Curves: the SVG
 * rasterised at 2×, or `canvas` (uPlot's) when given.
 */
export async function toPNG(figure, { canvas } = {}) {
  if (figure.kind !== 'curve') return canvasBlob(heatmapCanvas(figure, pngScale(figure)));
  if (canvas) return canvasBlob(canvas);
  const svg = toSVG(figure);
  const url = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
  try {
    const image = new Image();
    image.src = url;
    await image.decode();
    const out = document.createElement('canvas');
    out.width = image.naturalWidth * 2;
    out.height = image.naturalHeight * 2;
    out.getContext('2d').drawImage(image, 0, 0, out.width, out.height);
    return canvasBlob(out);
  } finally {
    URL.revokeObjectURL(url);
  }
}

/** { blob, filename } of a figure in one of png | svg | csv | json | tex. */
export async function exportFigure(figure, format, { basename = 'relpos-figure', canvas } = {}) {
  const spec = requireFormat('relpos.exportFigure', format);
  const blob =
    format === 'png'
      ? await toPNG(figure, { canvas })
      : new Blob(
          [
            figureText(figure, format, {
              imageFile: `${basename}.png`,
              pngDataUrl: svgNeedsPNG(figure) ? heatmapPNGDataURL(figure) : undefined,
            }),
          ],
          { type: spec.type },
        );
  return { blob, filename: `${basename}.${spec.ext}` };
}

/** Saves a Blob through a temporary <a download> (no network; object URL revoked afterwards). */
export function download(blob, filename) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
