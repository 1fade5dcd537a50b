// One layer of each group of every model family of the README runs through
// rp.attention({ q, k, v, layer }) against Hugging Face's eager attention for that model, computed
// with torch from the same config (tests/fixtures/layers/, provenance in docs/reference-fixtures.md,
// "Layers"). The inputs are a formula both sides evaluate, so only the expected values are stored.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { load } from '../../bindings/index.js';
import { compare } from './golden.js';

const rp = await load();
const repoRoot = new URL('../../', import.meta.url);
const layersDir = new URL('../fixtures/layers/', import.meta.url);
const readJson = (url) => JSON.parse(readFileSync(url, 'utf8'));
const families = readdirSync(layersDir)
  .filter((f) => f.endsWith('.json'))
  .map((f) => readJson(new URL(f, layersDir)));

// x[t] = float32(((t · 7919 + seed · 104729) mod 2001 − 1000) / 1000), exact integers on both sides.
function inputs(count, seed) {
  return Float32Array.from({ length: count }, (_, t) => (((t * 7919 + seed * 104729) % 2001) - 1000) / 1000);
}

function tensorOptions(call) {
  const out = {};
  for (const [name, value] of Object.entries(call)) {
    if (value && typeof value === 'object' && Array.isArray(value.shape)) {
      out[name] = { ...value, data: Float32Array.from(value.data) };
    } else if (name === 'params') out[name] = tensorOptions(value);
    else out[name] = value;
  }
  return out;
}

const expectClose = (got, want, tol, what) => {
  const result = compare(Array.from(got), want, tol);
  expect(result.ok, `${what}: ${result.reason}`).toBe(true);
};

// The README's families (README.md, "rp.fromConfig reads …"): each has a file here.
const README_FAMILIES = [
  'deepseek-v2',
  'deepseek-v3',
  'llama-2',
  'llama-3.1',
  'llama-4',
  'mistral',
  'mistral-nemo',
  'qwen2',
  'qwen3',
  'gemma-2',
  'gemma-3',
  'gpt-neox',
  'gpt-j',
  'phi-3',
  'phi-4',
  'gpt-oss',
  'falcon',
  'bloom',
  'mpt',
  't5',
];

describe('rp.attention({ layer }): every group of every family against the model’s own attention', () => {
  it('every README family has its layer fixture', () => {
    expect(families.map((f) => f.family).sort()).toEqual([...README_FAMILIES].sort());
  });

  for (const family of families) {
    const config = typeof family.config === 'string' ? readJson(new URL(family.config, repoRoot)) : family.config;
    const reading = rp.fromConfig(config);
    it(`${family.family}: the reading has the groups the fixture runs`, () => {
      expect(reading.groups.map((g) => g.layerType)).toEqual(family.groups.map((g) => g.layerType));
    });
    for (const group of family.groups) {
      it(`${family.family} / ${group.layerType}: one layer through layer`, () => {
        const layer = reading.groups[group.index];
        const { n, m } = family.inputs;
        const heads = layer.heads;
        const kvHeads = layer.kvHeads ?? heads;
        // DeepSeek: query/key heads of qkHeadDim, value heads of the output's width.
        const dv = group.expected.output.shape[1] / heads;
        const d = family.inputs.qkHeadDim ?? dv;
        const q = { shape: [n, heads * d], data: inputs(n * heads * d, group.seed) };
        const k = { shape: [m, kvHeads * d], data: inputs(m * kvHeads * d, group.seed + 1) };
        const v = { shape: [m, kvHeads * dv], data: inputs(m * kvHeads * dv, group.seed + 2) };
        // DeepSeek's k_pe: the last sharedKeyRope dims of every key head are head 0's.
        const shared = family.inputs.sharedKeyRope ?? 0;
        for (let j = 0; j < m && shared; j++) {
          const row = k.data.subarray(j * kvHeads * d, (j + 1) * kvHeads * d);
          for (let h = 1; h < kvHeads; h++) row.copyWithin(h * d + d - shared, d - shared, d);
        }
        const result = rp.attention({ q, k, v, layer, ...tensorOptions(group.call) });
        expect(result.weights.shape).toEqual(group.expected.weights.shape);
        expect(result.notes).toBeUndefined();
        expectClose(result.weights.data, group.expected.weights.data, family.tol, 'weights');
        const { indices, values, headSums } = group.expected.output;
        expectClose(
          indices.map((t) => result.output.data[t]),
          values,
          family.tol,
          'output',
        );
        const sums = [];
        for (let i = 0; i < n; i++) {
          for (let h = 0; h < heads; h++) {
            let s = 0;
            for (let c = 0; c < dv; c++) s += result.output.data[i * heads * dv + h * dv + c];
            sums.push(s);
          }
        }
        expectClose(sums, headSums, { abs: family.tol.abs * dv, rel: family.tol.rel }, 'per-head output sums');
      });
    }
  }
});

describe('rp.attention({ layer }): what a layer needs, and what it cannot run, is said', () => {
  const x = (rows, width) => ({ shape: [rows, width], data: inputs(rows * width, 3) });
  it('gpt-oss needs its sinks, T5 its table: the call refuses without them', () => {
    const oss = rp.fromConfig(readJson(new URL('tests/fixtures/configs/gpt-oss-20b.json', repoRoot))).groups[0];
    expect(oss.needs.map((need) => need.option)).toEqual(['sinks']);
    expect(() => rp.attention({ q: x(2, 64 * 64), k: x(2, 8 * 64), layer: oss })).toThrow(
      /relpos\.attention: this layer needs sinks \(gpt-oss's learned per-head sink logits/,
    );
    const t5 = rp.presets.find((p) => p.id === 't5-base').groups[0];
    expect(() => rp.attention({ q: x(2, 12 * 64), k: x(2, 12 * 64), layer: t5 })).toThrow(/this layer needs table/);
  });
  it('DeepSeek-V3 (heads [nope 128 | rope 64], values of 128): the layer rotates only the rope part', () => {
    const ds = rp.presets.find((p) => p.id === 'deepseek-v3').groups[0];
    expect(ds).toMatchObject({ heads: 128, kvHeads: 128, valueHeadDim: 128 });
    expect(ds.params).toMatchObject({ d: 192, rotaryDim: 64, startIndex: 128 });
    const n = 3;
    const q = x(n, 128 * 192);
    const k = x(n, 128 * 192);
    const v = x(n, 128 * 128);
    const { weights, output } = rp.attention({ q, k, v, layer: ds });
    expect(weights.shape).toEqual([128, n, n]);
    expect(output.shape).toEqual([n, 128 * 128]);
    // The same call by hand: the nope dims pass through, so rotating the rope part of q and k with
    // rp.rotate and running the whole heads without a scheme at the layer's scale gives the same weights.
    const { scheme, params } = ds;
    const rotate = (t) => rp.rotate(t, { scheme, ...params, heads: 128 });
    const plain = rp.attention({ q: rotate(q), k: rotate(k), v, heads: 128, scale: ds.scale, causal: true });
    expectClose(weights.data, Array.from(plain.weights.data), { abs: 2e-6, rel: 1e-5 }, 'weights by hand');
    expectClose(output.data, Array.from(plain.output.data), { abs: 2e-6, rel: 1e-5 }, 'output by hand');
  });
  it('DeepSeek: v, q and k of the wrong width are refused, naming relpos.attention and the argument', () => {
    const ds = rp.presets.find((p) => p.id === 'deepseek-v3').groups[0];
    const q = x(2, 128 * 192);
    expect(() => rp.attention({ q, k: x(2, 128 * 192), v: x(2, 128 * 192), layer: ds })).toThrow(
      /relpos\.attention: v must have kvHeads \* valueHeadDim = 128 \* 128 = 16384 columns, got \[2, 24576\]/,
    );
    expect(() => rp.attention({ q: x(2, 128 * 128), k: x(2, 128 * 128), layer: ds })).toThrow(
      /relpos\.attention: q must have heads of d = 192 dims \(the scheme's d\), got 128/,
    );
    expect(() => rp.attention({ q, k: x(2, 128 * 64), layer: ds })).toThrow(/relpos\.attention: k must have/);
    expect(() => rp.attention({ q, k: x(2, 128 * 192), layer: ds, valueHeadDim: 192 })).toThrow(
      /valueHeadDim is set by the layer \(128\); got 192/,
    );
    // The module keeps working.
    expect(rp.attention({ q, k: x(2, 128 * 192), v: x(2, 128 * 128), layer: ds }).output.shape).toEqual([2, 16384]);
  });
  it('DeepSeek through rp.kvCache({ layer }): dv is the layer’s valueHeadDim, and a step matches rp.attention', () => {
    const config = families.find((f) => f.family === 'deepseek-v3').config;
    const layer = rp.fromConfig(config).groups[0];
    const heads = layer.heads;
    const cache = rp.kvCache({ layer, d: 48 });
    const k = x(5, heads * 48);
    const v = x(5, heads * 24);
    expect(cache.append(k, v)).toBe(5);
    const q = x(2, heads * 48);
    const step = cache.attention(q);
    const direct = rp.attention({ q, k, v, layer });
    expect(step.output.shape).toEqual([2, heads * 24]);
    expectClose(step.output.data, Array.from(direct.output.data), { abs: 1e-6, rel: 1e-6 }, 'cached step');
    expect(() => cache.append(k, x(5, heads * 48))).toThrow(
      /relpos\.kvCache\.append: k and v must be \[rows, 192\] and \[rows, 96\]/,
    );
    cache.free();
    expect(() => rp.kvCache({ layer, d: 48, dv: 48 })).toThrow(
      /relpos\.kvCache: dv is set by the layer \(valueHeadDim 24\); got 48/,
    );
  });
  it('an option the layer sets is not overridden in silence; params add to the layer’s', () => {
    const llama = rp.presets.find((p) => p.id === 'llama-3.1-8b').groups[0];
    expect(llama).toMatchObject({ heads: 32, kvHeads: 8, causal: true, scheme: 'rope-llama3' });
    const q = x(2, 32 * 128);
    const k = x(2, 8 * 128);
    expect(() => rp.attention({ q, k, layer: llama, heads: 16 })).toThrow(/heads is set by the layer \(32\); got 16/);
    expect(() => rp.attention({ q, k, layer: llama, params: { factor: 4 } })).toThrow(
      /params\.factor is set by the layer/,
    );
    expect(rp.attention({ q, k, layer: llama, causal: true }).weights.shape).toEqual([32, 2, 2]);
    expect(() => rp.attention({ q, k, layer: 'llama' })).toThrow(TypeError);
  });
  it('fromConfig reads every attention feature into the groups: soft-cap, scale, chunk, temperature, Falcon kvHeads, Cohere / GLM layouts', () => {
    const gemma2 = rp.fromConfig({
      model_type: 'gemma2',
      num_attention_heads: 8,
      num_key_value_heads: 4,
      head_dim: 256,
      num_hidden_layers: 2,
    });
    expect(gemma2.groups.map((g) => [g.softcap, g.scale])).toEqual([
      [50, 1 / 16],
      [50, 1 / 16],
    ]);
    expect(gemma2.warnings).toEqual([]);
    const scout = rp.presets.find((p) => p.id === 'llama-4-scout');
    expect(scout.groups[0].attentionChunkSize).toBe(8192);
    expect(scout.groups[1].temperatureTuning).toEqual({ floorScale: 8192, attnScale: 0.1 });
    const falcon = (extra) =>
      rp.fromConfig({ model_type: 'falcon', hidden_size: 4544, num_attention_heads: 71, ...extra });
    expect(falcon({}).groups[0].kvHeads).toBe(1);
    expect(falcon({ multi_query: false }).groups[0].kvHeads).toBeUndefined();
    expect(falcon({ new_decoder_architecture: true, num_kv_heads: 8 }).groups[0].kvHeads).toBe(8);
    expect(falcon({ new_decoder_architecture: true, num_kv_heads: 8 }).warnings).toEqual([]);
    for (const model_type of ['cohere', 'cohere2', 'glm', 'glm4']) {
      const reading = rp.fromConfig({ model_type, hidden_size: 1024, num_attention_heads: 8, rope_theta: 10000 });
      expect(reading.params.layout, model_type).toBe('interleaved');
      expect(reading.warnings, model_type).toEqual([]);
    }
  });
});
