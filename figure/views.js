// The views of a scheme: which core call each one makes, with which options. One definition for
// <relpos-heatmap>, <relpos-curve> (profiles), the CLI and the Node figure writer (bindings/figure.js).
// It takes the loaded core as an argument (computeView(rp, …)) and imports nothing of the package.
//   bias       rp.bias(scheme, { n, heads, causal, …params })                          [heads, n, n]
//   scores     rp.scores(scheme, { n, d, heads, causal, …params })                     [heads, n, n]
//   weights    rp.attention({ q: ones, k: ones, heads, scheme, params, mode, causal, slidingWindow }).weights
//              — a content-free probe: every query and key is the all-ones vector of width heads·d,
//              so only the positional term shapes the weights (softmax over j of QKᵀ/√d + B with a
//              constant QKᵀ for bias schemes, rotated probes for rotary ones, QPᵀ terms for vector
//              schemes in implicit/mixed mode). All-zero probes would erase the rotary and implicit
//              terms (uniform weights), hence ones.                                     [heads, n, n]
//   buckets    rp.buckets(scheme, { n, causal, …params })                               [n, n] Int32
//   distances  rp.analysis.distances(rp.encoding(scheme, { n, d, …params }), 'euclidean')   [n, n]
// `causal` goes to every call when the caller set it: the core applies it (or names it as an error
// where a call has no causal form, e.g. encodings) — it is never emulated here.
// A model's layer group (rp.presets[…].groups, rp.fromConfig(…).groups) is drawn by passing it on:
//   weights    rp.attention({ q: ones [n, heads·d], k: ones [n, kvHeads·d], v: ones [n, kvHeads·dv],
//              layer, …inputs }).weights — the layer's scheme, heads, scale, causality, window,
//              chunk, soft-cap and temperature, exactly as rp.attention runs it; `inputs` are what
//              the layer needs beside it (gpt-oss's sinks).
const VIEW_CALLS = Object.freeze({
  bias: { call: 'bias', takes: ['n', 'heads'] },
  scores: { call: 'scores', takes: ['n', 'd', 'heads'] },
  weights: { call: 'attention', takes: ['n', 'd', 'heads', 'mode', 'slidingWindow'] },
  buckets: { call: 'buckets', takes: ['n'] },
  // rp.analysis lives in the analysis module, loaded on first use (docs/api.md, load).
  distances: { call: 'encoding', takes: ['n', 'd'], analysis: true },
});

export const VIEWS = Object.freeze(Object.keys(VIEW_CALLS));

/** Whether a view needs rp.analysis (await rp.analysis.ready before computeView). */
export function viewNeedsAnalysis(view) {
  return VIEW_CALLS[view]?.analysis === true;
}

/** Defaults of the options every view shares. */
export const VIEW_DEFAULTS = Object.freeze({ n: 64, heads: 1, d: 64 });

/** Views a scheme (an entry of rp.schemes) supports. */
export function viewsFor(info) {
  return VIEWS.filter((view) => info.calls.includes(VIEW_CALLS[view].call));
}

/** The view a scheme shows when none is asked for. */
export function defaultView(info) {
  return info.calls.includes('bias') ? 'bias' : 'scores';
}

/** The default attention mode for a scheme's family of inputs (weights view). */
export function defaultMode(info) {
  return info.calls.includes('bias') || info.calls.includes('rotate') ? 'explicit' : 'implicit';
}

/** Checks that `view` is a view of this scheme: a RangeError naming `where` and the views it has otherwise. */
export function requireView(where, info, view) {
  const views = viewsFor(info);
  if (!VIEWS.includes(view)) {
    throw new RangeError(`${where}: view must be one of ${VIEWS.join(', ')}, got '${view}'`);
  }
  if (!views.includes(view)) {
    throw new RangeError(`${where}: scheme '${info.id}' has no ${view} view; it has ${views.join(', ')}`);
  }
}

/**
 * The core call a view makes, as data: { view, call, scheme, options } where `options` is what the
 * call receives (for weights: heads, mode, causal and the scheme's params; the probes are implied).
 * `options` in: n, heads, d, causal, mode and the scheme parameters.
 */
export function viewCall(info, view, options = {}) {
  if (options.layer !== undefined) return layerCall(info, view, options);
  const { n, heads, d, causal, mode, slidingWindow, ...params } = { ...VIEW_DEFAULTS, ...options };
  const common = { n, heads, d, mode, slidingWindow };
  const { call, takes } = VIEW_CALLS[view];
  if (slidingWindow !== undefined && !takes.includes('slidingWindow')) {
    throw new RangeError(`relpos.viewCall: slidingWindow applies to the weights view (attention), not ${view}`);
  }
  const chosen = Object.fromEntries(
    takes.filter((name) => name !== 'slidingWindow' || slidingWindow !== undefined).map((name) => [name, common[name]]),
  );
  if (causal !== undefined) chosen.causal = causal;
  if (view === 'weights') {
    // Vector schemes take the probe width as their own `d`; bias schemes have none.
    const schemeParams = info.calls.includes('bias') ? params : { d, ...params };
    return {
      view,
      call,
      scheme: info.id,
      options: { ...chosen, mode: mode ?? defaultMode(info), params: schemeParams },
    };
  }
  return { view, call, scheme: info.id, options: { ...chosen, ...params } };
}

/**
 * A layer group's weights view as data: { view, call, scheme, layer, probe, options }. `probe` is the
 * shape of the all-ones q, k, v: n, heads, kvHeads, d (the head width: the layer's `params.d` or
 * `headDim`, else `options.d`) and dv; `options` is what the caller adds to the layer (causal, mode, params, heads,
 * inputs such as sinks), which rp.attention checks against it.
 */
function layerCall(info, view, options) {
  const { layer, n = VIEW_DEFAULTS.n, d: givenD, inputs = {}, ...given } = options;
  if (view !== 'weights') {
    throw new RangeError(`relpos.viewCall: layer applies to the weights view (attention), not ${view}`);
  }
  const heads = layer.heads ?? given.heads ?? VIEW_DEFAULTS.heads;
  const d = layer.params?.d ?? layer.headDim ?? givenD ?? VIEW_DEFAULTS.d;
  const kvHeads = layer.kvHeads ?? heads;
  const probe = { n, heads, kvHeads, d, dv: layer.valueHeadDim ?? d };
  return { view, call: 'attention', scheme: info.id, layer, probe, options: { ...given, ...inputs } };
}

const ones = (rows, cols) => ({ shape: [rows, cols], data: new Float32Array(rows * cols).fill(1) });

/** Runs a view's core call: the tensor of `viewCall(info, view, options)`. */
export function computeView(rp, info, view, options = {}) {
  requireView('relpos.computeView', info, view);
  const { call, scheme, layer, probe, options: callOptions } = viewCall(info, view, options);
  if (layer !== undefined) {
    const { n, heads, kvHeads, d, dv } = probe;
    const [q, k, v] = [ones(n, heads * d), ones(n, kvHeads * d), ones(n, kvHeads * dv)];
    return rp.attention({ q, k, v, layer, ...callOptions }).weights;
  }
  if (view === 'weights') {
    const { n, d, heads, params, ...rest } = callOptions;
    const ones = { shape: [n, heads * d], data: new Float32Array(n * heads * d).fill(1) };
    return rp.attention({ q: ones, k: ones, heads, scheme, params, ...rest }).weights;
  }
  if (view === 'distances') return rp.analysis.distances(rp.encoding(scheme, callOptions), 'euclidean');
  return rp[call](scheme, callOptions);
}

/**
 * The cells a weights view's call masks, as the core masks them: a Uint8Array [n·n] with 1 where
 * key j is masked for query i (causal, sliding window), or null when the call masks nothing. The core
 * answers it: the same call's mask options on a constant probe (one head, width 1, no scheme) give
 * equal logits over the kept keys, so each kept weight is 1/count > 0 and a masked one exactly 0 —
 * unlike the view's own weights, where a kept key's weight can underflow to 0.
 */
export function maskedCells(rp, info, view, options = {}) {
  if (view !== 'weights') return null;
  const { layer, probe, options: callOptions } = viewCall(info, view, options);
  // A layer's key range: its causality, window and chunk (what rp.attention masks with), else the call's.
  const { n, causal, slidingWindow, attentionChunkSize } = { ...probe, ...callOptions, ...keyRange(layer) };
  if (!causal && slidingWindow === undefined && attentionChunkSize === undefined) return null;
  const mask = {
    ...(causal ? { causal } : {}),
    ...(slidingWindow !== undefined ? { slidingWindow } : {}),
    ...(attentionChunkSize !== undefined ? { attentionChunkSize } : {}),
  };
  const { data } = rp.attention({ q: ones(n, 1), k: ones(n, 1), ...mask }).weights;
  return Uint8Array.from(data, (w) => (w === 0 ? 1 : 0));
}

// The options of a layer group that say which keys a query sees.
function keyRange(layer) {
  if (layer === undefined) return {};
  const range = {};
  for (const name of ['causal', 'slidingWindow', 'attentionChunkSize']) {
    if (layer[name] !== undefined) range[name] = layer[name];
  }
  return range;
}

/** The call as a reader would write it: rp.bias('alibi', { n: 64, heads: 8, causal: true }). */
export function callText({ view, call, scheme, layer, probe, options }) {
  const value = (v) => {
    if (typeof v === 'string') return `'${v}'`;
    return Array.isArray(v) && v.length > 4 ? `[${v.length} values]` : JSON.stringify(v);
  };
  const fields = (o) =>
    Object.entries(o)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${k}: ${v && typeof v === 'object' && !Array.isArray(v) ? object(v) : value(v)}`)
      .join(', ');
  const object = (o) => (fields(o) ? `{ ${fields(o)} }` : '{}');
  if (layer !== undefined) {
    const { n, d, dv, heads, kvHeads } = probe;
    const extra = fields(options);
    return `rp.attention({ q: ones [${n}, ${heads}·${d}], k: ones [${n}, ${kvHeads}·${d}], v: ones [${n}, ${kvHeads}·${dv}], layer: <the '${scheme}' group>${extra ? `, ${extra}` : ''} }).weights`;
  }
  if (view === 'weights') {
    const { n, d, heads, ...rest } = options;
    return `rp.attention({ q: ones [${n}, ${heads}·${d}], k: ones, scheme: '${scheme}', heads: ${heads}, ${fields(rest)} }).weights`;
  }
  if (view === 'distances') return `rp.analysis.distances(rp.encoding('${scheme}', ${object(options)}), 'euclidean')`;
  return `rp.${call}('${scheme}', ${object(options)})`;
}

/**
 * Each parameter of the scheme with the value a call uses and where it came from, for a reader:
 * [{ name, value, given, meaning }] — `meaning` is the catalogue's doc, narrowed for a choice to
 * the part about the chosen value (ALiBi form keyPosition: "keyPosition: m*j (BLOOM)").
 */
export function describeParams(info, params) {
  const common = new Set(['n', 'heads', 'causal', 'd']);
  return Object.entries(info.params)
    .filter(([name]) => !common.has(name))
    .map(([name, spec]) => {
      const given = params[name] !== undefined;
      const value = given ? params[name] : spec.default;
      let meaning = spec.doc;
      if (spec.type === 'choice') {
        meaning =
          spec.doc
            .split(';')
            .find((part) => part.trim().startsWith(`${value}:`))
            ?.trim() ?? spec.doc;
      }
      return { name, value, given, meaning };
    });
}
