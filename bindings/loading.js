// Fetching and instantiating the wasm modules (load() in index.js decides which): the core of one
// flavour, the relaxed build's side module, the models module shared by every instance, and the
// analysis module an instance fetches on first use.

import { parseJson, unwrap } from './errors.js';
import { onDemand } from './on-demand.js';

// Each module's glue and wasm file. Static specifiers and new URL(…, import.meta.url) let bundlers
// find and copy every build; the analysis module's glue becomes a chunk of its own, fetched only
// when a page first asks for it.
const BUILDS = {
  'core/simd': () => ({
    glue: import('../dist/relpos.simd.mjs'),
    wasm: new URL('../dist/relpos.simd.wasm', import.meta.url),
  }),
  'core/baseline': () => ({
    glue: import('../dist/relpos.baseline.mjs'),
    wasm: new URL('../dist/relpos.baseline.wasm', import.meta.url),
  }),
  'analysis/simd': () => ({
    glue: import('../dist/relpos-analysis.simd.mjs'),
    wasm: new URL('../dist/relpos-analysis.simd.wasm', import.meta.url),
  }),
  'analysis/baseline': () => ({
    glue: import('../dist/relpos-analysis.baseline.mjs'),
    wasm: new URL('../dist/relpos-analysis.baseline.wasm', import.meta.url),
  }),
  'models/baseline': () => ({
    glue: import('../dist/relpos-models.mjs'),
    wasm: new URL('../dist/relpos-models.wasm', import.meta.url),
  }),
};

// Node: the web-targeted glue would fetch() a file:// URL, so modules get their bytes instead.
async function readBytes(url) {
  const fsModule = 'node:fs/promises';
  const { readFile } = await import(/* @vite-ignore */ fsModule);
  return readFile(url);
}

// The relaxed build's side module (docs/build.md): the fused attention kernels. Fetched and compiled
// while the core instantiates, from its bytes (it is small; no wasm MIME type needed).
export function compileFusedKernels() {
  const url = new URL('../dist/relpos-fused.relaxed.wasm', import.meta.url);
  const bytes =
    url.protocol === 'file:'
      ? readBytes(url)
      : fetch(url).then((response) => {
          if (!response.ok) throw new Error(`relpos.load: ${url.href} answered ${response.status}`);
          return response.arrayBuffer();
        });
  return bytes.then((b) => WebAssembly.compile(b));
}

// The core's memory, one of its exports (emscripten minifies their names at -O3).
export function memoryOf(core) {
  return Object.values(core.asm).find((value) => value instanceof WebAssembly.Memory);
}

// Instantiates the compiled side module on the core's own memory; the core's kernels call its
// fusedRows once per block of rows (through Module.fusedRows, src/relpos/kernels/kernels.cpp).
// Resolves to true.
export async function withFusedKernels(core, compiled) {
  const memory = memoryOf(core);
  const instance = await WebAssembly.instantiate(await compiled, { env: { memory } });
  core.fusedRows = instance.exports.fusedRows;
  return true;
}

/** Instantiates one wasm module ('core' | 'analysis' | 'models') of one flavour; resolves to its Embind module. */
export async function instantiate(part, simd) {
  const { glue, wasm } = BUILDS[`${part}/${simd ? 'simd' : 'baseline'}`]();
  const factory = (await glue).default;
  const moduleOptions = {};
  if (wasm.protocol === 'file:') {
    moduleOptions.wasmBinary = await readBytes(wasm);
    return factory(moduleOptions);
  }
  moduleOptions.locateFile = (path) => (path.endsWith('.wasm') ? wasm.href : path);
  // A page that preloads the file has been compiling it since its first byte (web/public/boot.js):
  // the glue instantiates that module. If that compile failed, the glue fetches and compiles itself.
  const compiled = await globalThis.relposCompiling?.[wasm.href]?.catch(() => null);
  if (!compiled) return factory(moduleOptions);
  let fail;
  const failed = new Promise((resolve, reject) => {
    fail = reject;
  });
  moduleOptions.instantiateWasm = (imports, receive) => {
    WebAssembly.instantiate(compiled, imports).then((instance) => receive(instance, compiled), fail);
    return {};
  };
  return Promise.race([factory(moduleOptions), failed]);
}

// The models module: one build for every flavour (its code reads configs and copies a table; no
// SIMD to gain), shared by every instance. `module` is set once it has arrived.
export const modelsWasm = onDemand(() => instantiate('models', false));

export function loadModels() {
  return modelsWasm.load();
}

// The models module, or an Error naming `where` and how to wait for it (its loading starts).
export function modelsModule(where) {
  if (modelsWasm.value) return modelsWasm.value;
  loadModels().catch(() => {}); // the caller learns of a failed load from modelsReady or the next call
  throw new Error(
    `${where}: the models module (rp.presets, rp.fromConfig) is not loaded yet; await rp.modelsReady, or load() without models: false, before calling it`,
  );
}

/** rp.fromConfig: a config.json (object or JSON text) read by the models module. */
export function readConfig(configJson) {
  const where = 'relpos.fromConfig';
  const models = modelsModule(where);
  let text = configJson;
  if (typeof configJson !== 'string') {
    if (configJson === null || typeof configJson !== 'object' || Array.isArray(configJson)) {
      throw new TypeError(`${where}: configJson must be a config.json object or its JSON text`);
    }
    try {
      text = JSON.stringify(configJson);
    } catch (error) {
      throw new TypeError(`${where}: configJson must be plain JSON data (${error.message})`, { cause: error });
    }
  }
  return parseJson(unwrap(models.fromConfigJson(text)));
}

/**
 * One instance's analysis module (rp.analysis with Eigen, rp.lab): fetched on first use; `module`
 * returns it or throws an Error naming `where` and how to wait for it (its loading starts).
 */
export class SecondModule {
  #module;

  constructor(simd) {
    this.#module = onDemand(() => instantiate('analysis', simd));
  }

  get loaded() {
    return this.#module.value;
  }

  module(where) {
    if (this.#module.value) return this.#module.value;
    this.load().catch(() => {}); // the caller learns of a failed load from ready or the next call
    throw new Error(
      `${where}: the analysis module (rp.analysis, rp.lab) is still loading; await rp.analysis.ready, or load({ analysis: true }), before calling it`,
    );
  }

  load() {
    return this.#module.load();
  }
}
