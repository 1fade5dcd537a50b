// relpos: positional encodings for transformers, computed by a C++ core in WebAssembly.
// This module loads the core and exposes the public API (docs/api.md). It validates and converts
// arguments; every number is computed in the core. The calls on schemes (rp.encoding, rp.bias, …)
// are built from the core's operation table (rp.operations).
//
// Three wasm modules: the core (schemes, attention, maps), which load() instantiates; the models
// module (rp.presets, rp.fromConfig: the config.json reader and the presets table), which load()
// instantiates beside it unless `models: false` — then `await rp.modelsReady` before those two; and
// the analysis module (rp.analysis with Eigen, rp.lab), which arrives on first use — `await
// rp.analysis.ready` (or `load({ analysis: true })`) before the synchronous rp.analysis calls;
// rp.lab.train() loads it by itself (docs/api.md, "load").
import { coreInstance, loadExtras } from './core-instance.js';

export { version } from './core-instance.js';
export { terminateWorkers } from './pooled.js';

/**
 * Instantiates the wasm core (once per flavour; later calls return the same instance).
 * @param {{ simd?: boolean, relaxed?: boolean, models?: boolean, analysis?: boolean, lab?: boolean }} [options]
 *   `simd` forces the SIMD (true) or baseline (false) build; `relaxed` forces the relaxed build (the
 *   SIMD core with the fused attention kernels of a relaxed-SIMD side module) on or off; `models`
 *   (default true) loads the models module (rp.presets, rp.fromConfig) beside the core and resolves
 *   once both are there — false resolves with the core alone; `analysis` / `lab` also load the
 *   analysis module (rp.analysis and rp.lab) before resolving
 */
export function load(options = {}) {
  const { core, models, analysis, lab } = coreInstance(options);
  // The wrappers of rp.analysis, rp.lab and rp.kvCache (extras.js) arrive beside the core.
  return Promise.all([core, loadExtras()]).then(([rp]) =>
    Promise.all([models && rp.modelsReady, (analysis || lab) && rp.analysis.ready]).then(() => rp),
  );
}
