// onnxruntime-web in a bench page (bench/browser-page.mjs, bench/decode-page.mjs): one thread, no
// proxy worker, its wasm from node_modules; its first session is created while WebAssembly's
// instantiate calls are watched, so the page can say which wasm file it fetched (the Node side
// checks it: bench/chromium-page.mjs, ortWasm).

/** → { session: the first session, of `model`'s bytes; build: { seen: what was instantiated, threads } }. */
export async function startOrt(ort, model) {
  ort.env.wasm.numThreads = 1;
  ort.env.wasm.proxy = false;
  ort.env.wasm.wasmPaths = '/node_modules/onnxruntime-web/dist/';
  const seen = [];
  const originals = { instantiate: WebAssembly.instantiate, instantiateStreaming: WebAssembly.instantiateStreaming };
  WebAssembly.instantiateStreaming = async function (source, ...rest) {
    const response = await source;
    seen.push(response.url);
    return originals.instantiateStreaming.call(this, response, ...rest);
  };
  WebAssembly.instantiate = function (source, ...rest) {
    if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) seen.push(`bytes:${source.byteLength}`);
    return originals.instantiate.call(this, source, ...rest);
  };
  try {
    const session = await ort.InferenceSession.create(model, { executionProviders: ['wasm'] });
    return { session, build: { seen, threads: ort.env.wasm.numThreads } };
  } finally {
    Object.assign(WebAssembly, originals);
  }
}
