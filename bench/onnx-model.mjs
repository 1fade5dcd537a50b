// The ONNX graphs onnxruntime-web runs in `npm run bench`: Gemm + Softmax (bench/peers.mjs in Node,
// bench/browser-page.mjs in Chromium) and GroupQueryAttention's decode step (bench/decode-step.mjs).
// Plain JS, no Node modules, so Node and the pages can import it. The protobuf is written by hand:
// one writer, protobuf(), over the few message kinds an ONNX model needs.

// Writers of protobuf fields (varint, length-delimited, fixed32) into a byte list.
function fields() {
  // Negative int64 values (local_window_size −1) as their 64-bit two's complement.
  const varint = (out, v) => {
    let x = BigInt.asUintN(64, BigInt(v));
    do {
      let byte = Number(x & 0x7fn);
      x >>= 7n;
      if (x) byte |= 0x80;
      out.push(byte);
    } while (x);
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
  return { len, str, int, f32 };
}

/** The ONNX messages a model here needs, written over one set of protobuf field writers. */
export function protobuf() {
  const { len, str, int, f32 } = fields();
  // AttributeProto: name (1), type (20: 1 FLOAT, 2 INT), the value in f (2) or i (3).
  const attribute = (name, float, v) => {
    const a = [];
    str(a, 1, name);
    int(a, 20, float ? 1 : 2);
    if (float) f32(a, 2, v);
    else int(a, 3, v);
    return a;
  };
  // NodeProto: inputs (1), outputs (2), op type (4), domain (7), attributes (5).
  const node = (inputs, outputs, op, attributes = [], domain = '') => {
    const out = [];
    inputs.forEach((s) => str(out, 1, s));
    outputs.forEach((s) => str(out, 2, s));
    str(out, 4, op);
    if (domain) str(out, 7, domain);
    attributes.forEach((a) => len(out, 5, a));
    return out;
  };
  // ValueInfoProto of a tensor of an element type (1 float, 6 int32), of shape `dims` if given.
  const valueInfo = (name, elemType, dims) => {
    const tensor = [];
    int(tensor, 1, elemType);
    if (dims) {
      const shape = [];
      dims.forEach((dim) => {
        const dimension = [];
        int(dimension, 1, dim);
        len(shape, 1, dimension);
      });
      len(tensor, 2, shape);
    }
    const type = [];
    len(type, 1, tensor);
    const info = [];
    str(info, 1, name);
    len(info, 2, type);
    return info;
  };
  // ModelProto: IR version 8 (1), one opset import (8) per domain, the graph (7).
  const model = (graph, opsets) => {
    const bytes = [];
    int(bytes, 1, 8);
    for (const [domain, version] of opsets) {
      const opset = [];
      str(opset, 1, domain);
      int(opset, 2, version);
      len(bytes, 8, opset);
    }
    len(bytes, 7, graph);
    return new Uint8Array(bytes);
  };
  return {
    len,
    str,
    node,
    valueInfo,
    model,
    attrInt: (name, v) => attribute(name, false, v),
    attrFloat: (name, v) => attribute(name, true, v),
  };
}

/** Gemm(Q, K, B, transB=1, alpha=1/sqrt(d), beta=1) (the bias enters as Gemm's C input), then Softmax over the keys. */
export function onnxModel(n, d) {
  const { len, str, node, valueInfo, model, attrInt, attrFloat } = protobuf();
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
  len(graph, 11, valueInfo('Q', 1, [n, d]));
  len(graph, 11, valueInfo('K', 1, [n, d]));
  len(graph, 11, valueInfo('B', 1, [n, n]));
  len(graph, 12, valueInfo('W', 1, [n, n]));
  return model(graph, [['', 17]]);
}

/**
 * One com.microsoft.GroupQueryAttention node (a decode step over past K/V) with every input and
 * output of unstated shape; rotary adds its cos/sin caches, sinks its head_sink input.
 */
export function gqaModel({ heads, kvHeads, d, window, rotary, sinks }) {
  const { len, str, node, valueInfo, model, attrInt, attrFloat } = protobuf();
  const inputs = ['query', 'key', 'value', 'past_key', 'past_value', 'seqlens_k', 'total_sequence_length'];
  const types = { seqlens_k: 6, total_sequence_length: 6 };
  if (rotary || sinks) inputs.push(rotary ? 'cos_cache' : '', rotary ? 'sin_cache' : '');
  if (sinks) inputs.push('', '', 'head_sink');
  const outputs = ['output', 'present_key', 'present_value'];
  const attributes = [
    attrInt('num_heads', heads),
    attrInt('kv_num_heads', kvHeads),
    attrFloat('scale', 1 / Math.sqrt(d)),
    attrInt('local_window_size', window > 0 ? window : -1), // keys p − window < j ≤ p, as relpos's window
    attrInt('do_rotary', rotary ? 1 : 0),
    attrInt('rotary_interleaved', 0),
  ];
  const graph = [];
  len(graph, 1, node(inputs, outputs, 'GroupQueryAttention', attributes, 'com.microsoft'));
  str(graph, 2, 'decode');
  for (const name of inputs.filter(Boolean)) len(graph, 11, valueInfo(name, types[name] ?? 1));
  for (const name of outputs) len(graph, 12, valueInfo(name, 1));
  return model(graph, [
    ['', 17],
    ['com.microsoft', 1],
  ]);
}
