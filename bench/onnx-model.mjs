// The ONNX graph onnxruntime-web runs in `npm run bench` (bench/peers.mjs in Node, bench/browser-page.mjs
// in Chromium); plain JS, no Node modules, so both can import it.
// A minimal ONNX model, protobuf written by hand: Gemm(Q, K, B, transB=1, alpha=1/sqrt(d), beta=1)
// (the bias enters as Gemm's C input), then Softmax over the keys.
export function onnxModel(n, d) {
  const bytes = [];
  const varint = (out, v) => {
    v = BigInt(v);
    do {
      let byte = Number(v & 0x7fn);
      v >>= 7n;
      if (v) byte |= 0x80;
      out.push(byte);
    } while (v);
  };
  const key = (out, field, wire) => varint(out, (field << 3) | wire);
  const len = (out, field, inner) => {
    key(out, field, 2);
    varint(out, inner.length);
    out.push(...inner);
  };
  const str = (out, field, s) => len(out, field, [...new TextEncoder().encode(s)]);
  const int = (out, field, v) => {
    key(out, field, 0);
    varint(out, v);
  };
  const f32 = (out, field, v) => {
    key(out, field, 5);
    out.push(...new Uint8Array(new Float32Array([v]).buffer));
  };
  const node = (inputs, outputs, op, attributes = []) => {
    const out = [];
    inputs.forEach((s) => str(out, 1, s));
    outputs.forEach((s) => str(out, 2, s));
    str(out, 4, op);
    attributes.forEach((a) => len(out, 5, a));
    return out;
  };
  const attrInt = (name, v) => {
    const a = [];
    str(a, 1, name);
    int(a, 20, 2);
    int(a, 3, v);
    return a;
  };
  const attrFloat = (name, v) => {
    const a = [];
    str(a, 1, name);
    int(a, 20, 1);
    f32(a, 2, v);
    return a;
  };
  const valueInfo = (name, dims) => {
    const shape = [];
    dims.forEach((dim) => {
      const dimension = [];
      int(dimension, 1, dim);
      len(shape, 1, dimension);
    });
    const tensor = [];
    int(tensor, 1, 1);
    len(tensor, 2, shape);
    const type = [];
    len(type, 1, tensor);
    const info = [];
    str(info, 1, name);
    len(info, 2, type);
    return info;
  };
  const graph = [];
  len(
    graph,
    1,
    node(['Q', 'K', 'B'], ['S'], 'Gemm', [
      attrInt('transB', 1),
      attrFloat('alpha', 1 / Math.sqrt(d)),
      attrFloat('beta', 1),
    ]),
  );
  len(graph, 1, node(['S'], ['W'], 'Softmax', [attrInt('axis', 1)]));
  str(graph, 2, 'attention');
  len(graph, 11, valueInfo('Q', [n, d]));
  len(graph, 11, valueInfo('K', [n, d]));
  len(graph, 11, valueInfo('B', [n, n]));
  len(graph, 12, valueInfo('W', [n, n]));
  int(bytes, 1, 8);
  const opset = [];
  str(opset, 1, '');
  int(opset, 2, 17);
  len(bytes, 8, opset);
  len(bytes, 7, graph);
  return new Uint8Array(bytes);
}
