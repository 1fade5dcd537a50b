// What each view of <relpos-heatmap> computes (all through the public API of the wasm core):
//   bias       rp.bias(scheme, { n, heads, causal, …params })                         [heads, n, n]
//   scores     rp.scores(scheme, { n, d, heads, causal, …params })                    [heads, n, n]
//   weights    rp.attention({ q: 1, k: 1, scheme, params, mode, heads, causal }).weights
//              — a content-free probe: every query and key is the all-ones vector of width heads·d,
//              so only the positional term shapes the weights (softmax over j of QKᵀ/√d + B with a
//              constant QKᵀ for bias schemes, rotated probes for rotary ones, QPᵀ terms for vector
//              schemes in implicit/mixed mode). All-zero probes would erase the rotary and implicit
//              terms (uniform weights), hence ones.                                    [heads, n, n]
//   buckets    rp.buckets(scheme, { n, …params })                                      [n, n] Int32
//   distances  euclidean distances between the rows of rp.encoding(scheme, { n, d }) — through
//              rp.analysis.distances when the build has it, else pairwiseDistances below. [n, n]
export const VIEWS = ['bias', 'scores', 'weights', 'buckets', 'distances'];

/** The view a scheme shows when none is asked for. */
export function defaultView(info) {
  return info.calls.includes('bias') ? 'bias' : 'scores';
}

/** Views a scheme supports. */
export function viewsFor(info) {
  return VIEWS.filter(
    (view) =>
      ({
        bias: info.calls.includes('bias'),
        scores: info.calls.includes('scores'),
        weights: info.calls.includes('attention'),
        buckets: info.calls.includes('buckets'),
        distances: info.calls.includes('encoding'),
      })[view],
  );
}

/** Euclidean distances between the rows of an [n, d] matrix (float64 accumulation). */
export function pairwiseDistances({ shape, data }) {
  const [n, d] = shape;
  const out = new Float32Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      let s = 0;
      for (let k = 0; k < d; k++) {
        const t = data[i * d + k] - data[j * d + k];
        s += t * t;
      }
      out[i * n + j] = out[j * n + i] = Math.sqrt(s);
    }
  }
  return { shape: [n, n], data: out };
}

/** The default attention mode for a scheme's family of inputs. */
export function defaultMode(info) {
  if (info.calls.includes('bias')) return 'explicit';
  if (info.calls.includes('rotate')) return 'explicit';
  return 'implicit';
}

/**
 * Computes a view. `options` holds n, heads, causal, d and the scheme parameters; `mode` is the
 * attention mode (weights view only).
 */
export function computeView(rp, info, view, options, mode) {
  const { n, heads = 1, causal = false, d = 64, ...params } = options;
  const scheme = info.id;
  switch (view) {
    case 'bias':
      return rp.bias(scheme, { n, heads, causal, ...params });
    case 'scores':
      return rp.scores(scheme, { n, d, heads, causal, ...params });
    case 'buckets':
      return rp.buckets(scheme, { n, ...params });
    case 'weights': {
      const ones = { shape: [n, heads * d], data: new Float32Array(n * heads * d).fill(1) };
      const vectorParams = info.calls.includes('bias') ? params : { d, ...params };
      return rp.attention({
        q: ones,
        k: ones,
        heads,
        scheme,
        params: vectorParams,
        mode: mode ?? defaultMode(info),
        causal,
      }).weights;
    }
    case 'distances': {
      const encoding = rp.encoding(scheme, { n, d, ...params });
      const distances = rp.analysis?.distances;
      return typeof distances === 'function'
        ? distances.call(rp.analysis, encoding, 'euclidean')
        : pairwiseDistances(encoding);
    }
    default:
      throw new RangeError(view);
  }
}
