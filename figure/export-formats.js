// The export formats (their file extension, MIME type and menu label), apart from the exporters
// themselves (figure/export.js), so an element lists them before its exporter is loaded.

export const EXPORT_FORMATS = Object.freeze({
  png: { ext: 'png', type: 'image/png', message: 'exportPNG' },
  svg: { ext: 'svg', type: 'image/svg+xml', message: 'exportSVG' },
  csv: { ext: 'csv', type: 'text/csv', message: 'exportCSV' },
  json: { ext: 'json', type: 'application/json', message: 'exportJSON' },
  tex: { ext: 'tex', type: 'application/x-tex', message: 'exportTeX' },
});

/** The formats' names as a RangeError lists them; `where` names the calling function. */
export function requireFormat(where, format) {
  if (!Object.hasOwn(EXPORT_FORMATS, format)) {
    throw new RangeError(`${where}: format must be one of ${Object.keys(EXPORT_FORMATS).join(', ')}, got '${format}'`);
  }
  return EXPORT_FORMATS[format];
}
