// relpos/web: custom elements and renderers for pages. Importing it registers <relpos-heatmap>
// and <relpos-curve>.
export { RelposHeatmap } from './components/relpos-heatmap.js';
export { RelposCurve, renderCurve } from './components/relpos-curve.js';
export { renderHeatmap, autoScale, finiteRange, sliceMatrix } from './components/render-heatmap.js';
export { createHeatmapView } from './components/heatmap-view.js';
export { colormapNames, colormapTable, colormapCss } from './components/colormap.js';
export { VIEWS, viewsFor, computeView, pairwiseDistances } from './components/compute.js';
export { niceTicks, niceStep, integerTicks, logTicks, formatNumber } from './components/ticks.js';
export {
  toCSV,
  toJSON,
  fromJSON,
  toPgfplots,
  toSVG,
  toPNG,
  exportFigure,
  download,
  heatmapPNGDataURL,
  texEscape,
  xmlEscape,
} from './components/export.js';
export { encodeHash, decodeHash, parseHashPairs, coerce } from './components/hash-state.js';
export { defaultMessages, setMessages, formatMessage, mergeMessages } from './components/messages.js';
export { load } from '../bindings/index.js';
