// rp.analysis: thin wrappers that shape arguments for the core's analyses and unpack results.
// `call(name, options)` runs one analysis in the core and returns its named tensors.
export function createAnalysis(call) {
  return Object.freeze({});
}
