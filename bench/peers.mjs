// The peers relpos is measured against in `npm run bench`: plain JS (naive and tuned),
// tfjs-backend-wasm (SIMD, one thread) and onnxruntime-web (wasm EP, one thread, Gemm + Softmax).
// Each takes JS Float32Arrays and returns the weights as a JS Float32Array, as relpos's API does.
import { createRequire } from 'node:module';
import { dirname } from 'node:path';

const require = createRequire(import.meta.url);

export function naiveJs(n, d) {
  const w = new Float32Array(n * n);
  const scale = 1 / Math.sqrt(d);
  return (q, k, b) => {
    for (let i = 0; i < n; i++) {
      let top = -Infinity;
      for (let j = 0; j < n; j++) {
        let s = 0;
        for (let c = 0; c < d; c++) s += q[i * d + c] * k[j * d + c];
        const l = s * scale + b[i * n + j];
        w[i * n + j] = l;
        if (l > top) top = l;
      }
      let sum = 0;
      for (let j = 0; j < n; j++) sum += w[i * n + j] = Math.exp(w[i * n + j] - top);
      for (let j = 0; j < n; j++) w[i * n + j] /= sum;
    }
    return w;
  };
}

// 2 x 4 register block over (i, j) and a cheaper exp via Math.exp on the shifted logits only once.
export function tunedJs(n, d) {
  const w = new Float32Array(n * n);
  const scale = 1 / Math.sqrt(d);
  return (q, k, b) => {
    for (let i = 0; i < n; i += 2) {
      const i1 = Math.min(i + 1, n - 1);
      for (let j = 0; j < n; j += 4) {
        let s00 = 0,
          s01 = 0,
          s02 = 0,
          s03 = 0,
          s10 = 0,
          s11 = 0,
          s12 = 0,
          s13 = 0;
        const j1 = Math.min(j + 1, n - 1),
          j2 = Math.min(j + 2, n - 1),
          j3 = Math.min(j + 3, n - 1);
        for (let c = 0; c < d; c++) {
          const a0 = q[i * d + c],
            a1 = q[i1 * d + c];
          const k0 = k[j * d + c],
            k1 = k[j1 * d + c],
            k2 = k[j2 * d + c],
            k3 = k[j3 * d + c];
          s00 += a0 * k0;
          s01 += a0 * k1;
          s02 += a0 * k2;
          s03 += a0 * k3;
          s10 += a1 * k0;
          s11 += a1 * k1;
          s12 += a1 * k2;
          s13 += a1 * k3;
        }
        const r0 = i * n,
          r1 = i1 * n;
        w[r0 + j] = s00 * scale + b[r0 + j];
        if (j + 1 < n) w[r0 + j1] = s01 * scale + b[r0 + j1];
        if (j + 2 < n) w[r0 + j2] = s02 * scale + b[r0 + j2];
        if (j + 3 < n) w[r0 + j3] = s03 * scale + b[r0 + j3];
        if (i + 1 < n) {
          w[r1 + j] = s10 * scale + b[r1 + j];
          if (j + 1 < n) w[r1 + j1] = s11 * scale + b[r1 + j1];
          if (j + 2 < n) w[r1 + j2] = s12 * scale + b[r1 + j2];
          if (j + 3 < n) w[r1 + j3] = s13 * scale + b[r1 + j3];
        }
      }
    }
    for (let i = 0; i < n; i++) {
      const row = i * n;
      let top = -Infinity;
      for (let j = 0; j < n; j++) if (w[row + j] > top) top = w[row + j];
      let sum = 0;
      for (let j = 0; j < n; j++) sum += w[row + j] = Math.exp(w[row + j] - top);
      const inv = 1 / sum;
      for (let j = 0; j < n; j++) w[row + j] *= inv;
    }
    return w;
  };
}

// tfjs-backend-wasm at its real speed: K transposed before matMul (matMul(q, k, false, true) is
// its slow path), the scale folded into q (an [n, d] pass instead of [n, n]), and dataSync() outside
// tf.tidy — returning the n² Float32Array from the tidy callback makes tidy walk every element of it
// looking for tensors, which costs far more than the attention itself.
export async function tfjsWasm(n, d) {
  const tf = await import('@tensorflow/tfjs-core');
  const wasm = await import('@tensorflow/tfjs-backend-wasm');
  wasm.setWasmPaths(`${dirname(require.resolve('@tensorflow/tfjs-backend-wasm/package.json'))}/dist/`);
  wasm.setThreadsCount(1);
  await tf.setBackend('wasm');
  await tf.ready();
  if (tf.getBackend() !== 'wasm' || wasm.getThreadsCount() !== 1 || !tf.env().getBool('WASM_HAS_SIMD_SUPPORT')) {
    throw new Error('tfjs: expected the wasm backend with SIMD on one thread');
  }
  const scale = 1 / Math.sqrt(d);
  return (q, k, b) => {
    const w = tf.tidy(() => {
      const qt = tf.mul(tf.tensor2d(q, [n, d]), scale);
      const kt = tf.transpose(tf.tensor2d(k, [n, d]));
      return tf.softmax(tf.add(tf.matMul(qt, kt), tf.tensor2d(b, [n, n])));
    });
    const data = w.dataSync();
    w.dispose();
    return data;
  };
}

// A minimal ONNX model, protobuf written by hand: Gemm(Q, K, B, transB=1, alpha=1/sqrt(d), beta=1)
// (the bias enters as Gemm's C input), then Softmax over the keys.
function onnxModel(n, d) {
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

export async function onnxRuntimeWeb(n, d) {
  const ort = await import('onnxruntime-web');
  ort.env.wasm.numThreads = 1;
  ort.env.wasm.proxy = false;
  const session = await ort.InferenceSession.create(onnxModel(n, d), { executionProviders: ['wasm'] });
  return async (q, k, b) => {
    const out = await session.run({
      Q: new ort.Tensor('float32', q, [n, d]),
      K: new ort.Tensor('float32', k, [n, d]),
      B: new ort.Tensor('float32', b, [n, n]),
    });
    return out.W.data;
  };
}
