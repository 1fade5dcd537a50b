// What an instance's calls beyond the calls on schemes are made of: rp.attention and its async, map,
// plan and job forms (attention-calls.js, with the attention options and their table), rp.analysis,
// rp.lab and rp.kvCache. One module that load() fetches beside the core (core-instance.js), so a
// page's first heatmap of a scheme call (bias, scores, buckets), which needs none of them, does not
// wait for it.
export {
  attention,
  attentionAsync,
  attentionCuts,
  attentionMap,
  attentionMapCuts,
  runCoreJob,
} from './attention-calls.js';
export { createAnalysis } from './analysis.js';
export { createLab } from './lab.js';
export { createKvCache } from './kv-cache.js';
export { runJob } from './jobs.js';
