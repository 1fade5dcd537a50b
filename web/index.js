// relpos/web: custom elements and renderers for pages. Importing it registers <relpos-heatmap>.
export { RelposHeatmap } from './components/relpos-heatmap.js';
export { renderHeatmap, autoScale, finiteRange } from './components/render-heatmap.js';
export { colormapNames, colormapTable } from './components/colormap.js';
export { load } from '../bindings/index.js';
