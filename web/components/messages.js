// Every word a relpos component shows, with English defaults. A page overrides them per element
// (`el.messages = { axisKey: '键 j' }`) or for every element at once (`setMessages({...})`); the
// bilingual tutorial swaps the whole object. Templates use {name} placeholders, filled by
// formatMessage — the result is always set as text (textContent / SVG text), never parsed as markup.

export const defaultMessages = Object.freeze({
  // Axes and colorbar
  axisQuery: 'query i',
  axisKey: 'key j',
  colorbar: 'colour scale',
  // Readout: hover / keyboard cursor / locked cell
  readout: 'i = {i}, j = {j}, r = j − i = {r}, value = {value}',
  readoutLocked: '{readout} (locked)',
  readoutHint: 'Hover, or focus the map and use the arrow keys; click to lock.',
  masked: '−∞ (masked)',
  // Description of the map (aria-label) and of the hidden table
  mapLabel: '{name} {view}, {rows} by {cols}, values from {lo} to {hi}',
  tableCaption: '{name} {view}: rows are query i, columns key j',
  views: Object.freeze({
    bias: 'bias',
    scores: 'scores',
    weights: 'attention weights',
    buckets: 'buckets',
    distances: 'distances',
  }),
  // Toolbar and export menu
  toolbar: 'Figure tools',
  resetView: 'Reset view',
  zoomIn: 'Zoom in',
  zoomOut: 'Zoom out',
  exportMenu: 'Export',
  exportPNG: 'PNG image',
  exportSVG: 'SVG (vector)',
  exportCSV: 'CSV table',
  exportJSON: 'JSON data',
  exportTeX: 'pgfplots (LaTeX)',
  zoomStatus: 'showing rows {i0}–{i1}, columns {j0}–{j1}',
  // Curves
  curveX: 'x',
  curveY: 'y',
  curveLabel: '{title}: {count} series over {points} points',
  curveKinds: Object.freeze({
    profile: 'decay profile',
    frequencies: 'inverse frequency',
    wavelengths: 'wavelength',
    precision: 'precision error',
  }),
  curveAxis: Object.freeze({
    distance: 'relative distance r = j − i',
    value: 'value',
    pair: 'dimension pair k',
    invFreq: 'θ_k',
    wavelength: 'wavelength 2π/θ_k (positions)',
    position: 'position',
    error: 'angle error (rad)',
  }),
  head: 'head {h}',
  // Errors a component raises itself (the core's own errors are shown as they come)
  errorView: 'view must be one of {views}, got “{view}”',
  errorScheme: 'unknown scheme “{scheme}”',
  errorUnsupported: '{scheme} has no {call} output',
  errorParams: 'the params attribute must be a JSON object',
  errorUnavailable: '{what} is not available in this build',
});

/** Fills {name} placeholders; unknown names stay as written. Values are stringified, never parsed. */
export function formatMessage(template, values = {}) {
  return String(template).replace(/\{(\w+)\}/g, (whole, key) =>
    Object.hasOwn(values, key) ? String(values[key]) : whole,
  );
}

/** defaults ⊕ overrides, one level deep for the nested groups (views, curveKinds, curveAxis); only string values are taken. */
export function mergeMessages(base, overrides) {
  const out = { ...base };
  if (!overrides || typeof overrides !== 'object') return out;
  for (const [key, value] of Object.entries(overrides)) {
    if (!Object.hasOwn(base, key)) continue;
    if (typeof base[key] === 'string' && typeof value === 'string') out[key] = value;
    else if (typeof base[key] === 'object' && value && typeof value === 'object') {
      out[key] = mergeMessages(base[key], value);
    }
  }
  return out;
}

let globalOverrides = {};
const listeners = new Set();

/** Overrides messages for every relpos component on the page (existing ones re-render their words). */
export function setMessages(overrides) {
  globalOverrides = mergeMessages(mergeMessages(defaultMessages, globalOverrides), overrides);
  for (const listener of listeners) listener();
}

/** The page-wide messages (defaults with setMessages overrides). */
export function pageMessages() {
  return mergeMessages(defaultMessages, globalOverrides);
}

/** Components subscribe to page-wide message changes; returns an unsubscribe function. */
export function onMessages(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
