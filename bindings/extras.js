// What an instance's rp.analysis, rp.lab and rp.kvCache are made of: one module that load() fetches
// beside the core (core-instance.js), so a page's first heatmap, which calls none of them, does not
// wait for it.
export { createAnalysis } from './analysis.js';
export { createLab } from './lab.js';
export { createKvCache } from './kv-cache.js';
