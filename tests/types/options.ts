// The option types follow the core's description (bindings/schemes.d.ts, generated).
// Each `@ts-expect-error` line is a wrong program tsc --strict must reject (tsc fails when it does
// not); every other line is a right program it must accept.
import { load } from 'relpos';
import type { AttentionOutput, AttentionResult, KvCache, LayerGroup, SchemeLayerGroup } from 'relpos';

const rp = await load();
const q = { shape: [4, 64], data: new Float32Array(256) };

// A KV cache step takes rp.attention's options, precisely.
const cache: KvCache = rp.kvCache({ heads: 1, d: 64 });
cache.append(q, q);
cache.attention(q, { causal: true, scheme: 'alibi', slidingWindow: 4 });
// @ts-expect-error misspelt option
cache.attention(q, { casual: true });
// @ts-expect-error k is the cache's own
cache.attention(q, { k: q });
// @ts-expect-error axes is the cache's own
cache.attention(q, { axes: 'bhnd' });

// A weights: false step has no weights.
const step: AttentionOutput = cache.attention(q, { weights: false });
step.output.shape satisfies number[];
// @ts-expect-error no weights on a weights: false step
cache.attention(q, { weights: false }).weights;
const full: AttentionResult = cache.attention(q, {});
full.weights.shape satisfies number[];

// A layer group's scheme and params, passed on as they are.
const g: SchemeLayerGroup = rp.presets[0].groups[0];
rp.attention({ scheme: g.scheme, params: g.params, q, k: q });
rp.attention({ scheme: g.scheme, params: g.params, q, k: q, causal: true });
// @ts-expect-error misspelt option beside a group's scheme
rp.attention({ scheme: g.scheme, params: g.params, q, k: q, casual: true });

// rp.kvCache({ layer }) takes the shape from the layer; without one, d is required.
const layer: LayerGroup = g;
rp.kvCache({ layer });
rp.kvCache({ layer, d: 64 });
const width: number | undefined = layer.headDim;
void width;
// @ts-expect-error d is required without a layer
rp.kvCache({ heads: 8 });
