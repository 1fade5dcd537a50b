// relpos/web: custom elements and renderers for pages. Importing it registers <relpos-heatmap>
// and <relpos-curve>.
export { RelposHeatmap } from './components/relpos-heatmap.js';
export { RelposCurve, renderCurve } from './components/relpos-curve.js';
export { renderHeatmap, autoScale, finiteRange, sliceMatrix } from './components/render-heatmap.js';
export { createHeatmapView } from './components/heatmap-view.js';
// Imported here, so a view made through this entry draws with WebGL2 at once, as it always has.
export { heatmapRendererStats, heatmapWebGLContext } from './components/heatmap-webgl.js';
export { colormapNames, colormapTable, colormapCss, colorize } from '../figure/colormap.js';
export { VIEWS, viewsFor, defaultView, computeView, viewCall, callText } from '../figure/views.js';
export { niceTicks, niceStep, integerTicks, logTicks, formatNumber } from '../figure/ticks.js';
export {
  toCSV,
  toJSON,
  fromJSON,
  toPgfplots,
  toSVG,
  toPNG,
  exportFigure,
  figureText,
  download,
  heatmapPNGDataURL,
  texEscape,
  xmlEscape,
} from './components/export.js';
export { encodeHash, decodeHash, parseHashPairs, coerce } from './components/hash-state.js';
export { defaultMessages, setMessages, formatMessage, mergeMessages } from './components/messages.js';
export { load } from '../bindings/index.js';
