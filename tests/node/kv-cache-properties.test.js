// rp.kvCache over random layers of every model family: each
// decode step over the cache equals rp.attention({ q, k, v, layer }) over the same keys handed over
// whole, bit for bit. The layers come from rp.fromConfig on small configs of each family, so they
// carry what the family sets (Gemma-2's soft-cap and window, gpt-oss's sinks and window, Llama-4's
// chunks and NoPE layers with temperature tuning, DeepSeek-V3's value width and YaRN).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { load } from '../../bindings/index.js';
import { LAYER_OPTIONS } from '../../bindings/option-table.js';
import { rows, values } from './kv-fixture.js';

const rp = await load();

const concat = (a, b) => {
  const data = new Float32Array(a.data.length + b.data.length);
  data.set(a.data);
  data.set(b.data, a.data.length);
  return { shape: [a.shape[0] + b.shape[0], a.shape[1]], data };
};

// Heads as (kvHeads, query heads per kv head); head widths even (rotary pairs).
const headsArb = fc.record({ kvHeads: fc.integer({ min: 1, max: 3 }), group: fc.integer({ min: 1, max: 4 }) });
const evenWidth = (min, max) => fc.integer({ min: min / 2, max: max / 2 }).map((x) => 2 * x);

// A family of grouped heads of an even width d and one drawn length (its window or chunk, 1…12):
// the config's head fields, completed by what `fields(d, length)` gives.
const grouped = (fields) =>
  fc
    .record({ heads: headsArb, d: evenWidth(2, 16), length: fc.integer({ min: 1, max: 12 }) })
    .map(({ heads, d, length }) => ({
      num_attention_heads: heads.kvHeads * heads.group,
      num_key_value_heads: heads.kvHeads,
      head_dim: d,
      hidden_size: 64,
      ...fields(d, length),
    }));

// Each family: a small config.json of it, drawn; its groups as rp.fromConfig reads them.
const FAMILIES = {
  'gemma-2': grouped((d, window) => ({
    model_type: 'gemma2',
    num_hidden_layers: 2,
    query_pre_attn_scalar: d,
    attn_logit_softcapping: 50.0,
    sliding_window: window,
    rope_theta: 10000.0,
  })),
  'gpt-oss': grouped((_d, window) => ({
    model_type: 'gpt_oss',
    num_hidden_layers: 2,
    sliding_window: window,
    rope_theta: 150000,
    rope_scaling: {
      rope_type: 'yarn',
      factor: 32.0,
      original_max_position_embeddings: 4096,
      beta_fast: 32.0,
      beta_slow: 1.0,
      truncate: false,
    },
  })),
  'llama-4': grouped((_d, chunk) => ({
    model_type: 'llama4_text',
    num_hidden_layers: 4,
    attention_chunk_size: chunk,
    rope_theta: 500000.0,
    rope_scaling: {
      rope_type: 'llama3',
      factor: 16.0,
      low_freq_factor: 1.0,
      high_freq_factor: 1.0,
      original_max_position_embeddings: 8192,
    },
  })),
  'deepseek-v3': fc
    .record({
      heads: fc.integer({ min: 1, max: 4 }),
      nope: evenWidth(2, 8),
      rope: evenWidth(2, 8),
      dv: fc.integer({ min: 1, max: 8 }),
    })
    .map(({ heads, nope, rope, dv }) => ({
      model_type: 'deepseek_v3',
      num_attention_heads: heads,
      num_key_value_heads: heads,
      num_hidden_layers: 2,
      qk_nope_head_dim: nope,
      qk_rope_head_dim: rope,
      v_head_dim: dv,
      max_position_embeddings: 163840,
      rope_theta: 10000,
      rope_interleave: true,
      rope_scaling: {
        type: 'yarn',
        factor: 40,
        original_max_position_embeddings: 4096,
        beta_fast: 32,
        beta_slow: 1,
        mscale: 1.0,
        mscale_all_dim: 1.0,
      },
    })),
};

// The head width of q and k a config gives (DeepSeek: nope + rope).
const headDim = (config) => config.head_dim ?? config.qk_nope_head_dim + config.qk_rope_head_dim;

const stepsArb = fc.record({
  prefix: fc.integer({ min: 1, max: 20 }),
  steps: fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 1, maxLength: 3 }),
  weights: fc.boolean(),
  group: fc.nat(),
  seed: fc.integer({ min: 1, max: 2 ** 30 }),
});

describe('rp.kvCache over random layers of every family', () => {
  for (const [family, configArb] of Object.entries(FAMILIES)) {
    it(`${family}: every step equals rp.attention({ layer }) bit for bit`, () => {
      fc.assert(
        fc.property(configArb, stepsArb, (config, { prefix, steps, weights, group, seed }) => {
          const groups = rp.fromConfig(config).groups;
          const layer = groups[group % groups.length];
          const d = headDim(config);
          const dv = layer.valueHeadDim ?? d;
          const { heads } = layer;
          const kvHeads = layer.kvHeads ?? heads;
          // gpt-oss needs its sinks (a checkpoint tensor); drawn from the seed.
          const needs = (layer.needs ?? []).some((need) => need.option === 'sinks')
            ? { sinks: Array.from(values(heads, seed + 7), (x) => 2 * x) }
            : {};
          const cache = rp.kvCache({ layer, d });
          try {
            let k = rows(prefix, kvHeads * d, seed);
            let v = rows(prefix, kvHeads * dv, seed + 1);
            cache.append(k, v);
            steps.forEach((n, step) => {
              const newK = rows(n, kvHeads * d, seed + 10 * step + 2);
              const newV = rows(n, kvHeads * dv, seed + 10 * step + 3);
              cache.append(newK, newV);
              k = concat(k, newK);
              v = concat(v, newV);
              const q = rows(n, heads * d, seed + 10 * step + 4);
              const got = cache.attention(q, { weights, ...needs });
              const want = rp.attention({ q, k, v, layer, weights, ...needs });
              expect(Object.keys(got).sort()).toEqual(Object.keys(want).sort());
              for (const part of Object.keys(want)) {
                expect(got[part].shape).toEqual(want[part].shape);
                expect(
                  Buffer.from(got[part].data.buffer, got[part].data.byteOffset, got[part].data.byteLength),
                ).toEqual(Buffer.from(want[part].data.buffer, want[part].data.byteOffset, want[part].data.byteLength));
              }
            });
          } finally {
            cache.free();
          }
        }),
        { numRuns: 25 },
      );
    }, 60000); // a few seconds on an idle machine; the time limit is for loaded ones
  }
});

// A decode step reads each KV group's keys and values once for its query heads together
// (kernels::groupOutput): each head must come out as it does alone. Alone here is the
// same call with every KV head repeated for each of its query heads (kvHeads = heads), which runs
// one head at a time.
const repeatHeads = (t, kvHeads, group, width) => {
  const rowsCount = t.shape[0];
  const data = new Float32Array(rowsCount * kvHeads * group * width);
  for (let j = 0; j < rowsCount; j++) {
    for (let g = 0; g < kvHeads; g++) {
      const from = t.data.subarray((j * kvHeads + g) * width, (j * kvHeads + g + 1) * width);
      for (let r = 0; r < group; r++) data.set(from, ((j * kvHeads + g) * group + r) * width);
    }
  }
  return { shape: [rowsCount, kvHeads * group * width], data };
};

describe('decoding a KV group at once', () => {
  it('one query row of every head of a group gives each head’s bits alone, for every family', () => {
    const familyArb = fc.constantFrom(...Object.keys(FAMILIES)).chain((f) => FAMILIES[f]);
    fc.assert(
      fc.property(familyArb, stepsArb, (config, { prefix, group, seed }) => {
        const groups = rp.fromConfig(config).groups;
        const layer = groups[group % groups.length];
        const d = headDim(config);
        const dv = layer.valueHeadDim ?? d;
        const heads = layer.heads;
        const kvHeads = layer.kvHeads ?? heads;
        const needs = (layer.needs ?? []).some((need) => need.option === 'sinks')
          ? { sinks: Array.from(values(heads, seed + 7), (x) => 2 * x) }
          : {};
        const k = rows(prefix, kvHeads * d, seed);
        const v = rows(prefix, kvHeads * dv, seed + 1);
        const q = rows(1, heads * d, seed + 2);
        // The layer's settings as plain options (what a layer sets: option-table.js), kvHeads aside.
        const settings = Object.fromEntries(
          LAYER_OPTIONS.filter((name) => name !== 'kvHeads' && layer[name] !== undefined).map((name) => [
            name,
            layer[name],
          ]),
        );
        const together = rp.attention({ q, k, v, layer, weights: false, ...needs });
        const alone = rp.attention({
          ...settings,
          q,
          k: repeatHeads(k, kvHeads, heads / kvHeads, d),
          v: repeatHeads(v, kvHeads, heads / kvHeads, dv),
          kvHeads: heads,
          weights: false,
          ...needs,
        });
        expect(Buffer.from(together.output.data.buffer)).toEqual(Buffer.from(alone.output.data.buffer));
      }),
      { numRuns: 40 },
    );
  }, 60000);

  it('dynamic NTK: cached keys are rotated again when the scaling changes, and every step equals rp.attention', () => {
    const [heads, kvHeads, d] = [4, 2, 8];
    const options = {
      scheme: 'rope-dynamic',
      params: { d, factor: 2, originalMaxPositionEmbeddings: 6 },
      causal: true,
      weights: false,
    };
    const cache = rp.kvCache({ heads, kvHeads, d });
    let k = rows(3, kvHeads * d, 1);
    let v = rows(3, kvHeads * d, 2);
    cache.append(k, v);
    // Lengths 4 … 11 cross L0 = 6: the base grows with each step past it.
    for (let step = 0; step < 8; step++) {
      const newK = rows(1, kvHeads * d, 10 + step);
      const newV = rows(1, kvHeads * d, 20 + step);
      cache.append(newK, newV);
      k = concat(k, newK);
      v = concat(v, newV);
      const q = rows(1, heads * d, 30 + step);
      const got = cache.attention(q, options).output.data;
      const want = rp.attention({ q, k, v, heads, kvHeads, ...options }).output.data;
      expect(Buffer.from(got.buffer)).toEqual(Buffer.from(want.buffer));
      // A step without a scheme in between packs the plain keys; the next RoPE step rotates again.
      const plain = cache.attention(q, { causal: true, weights: false }).output.data;
      expect(Buffer.from(plain.buffer)).toEqual(
        Buffer.from(rp.attention({ q, k, v, heads, kvHeads, causal: true, weights: false }).output.data.buffer),
      );
    }
    cache.free();
  });
});

describe('rp.kvCache takes its shape from the layer', () => {
  const llama = () => rp.presets.find((p) => p.id === 'llama-3.1-8b').groups[0];

  it('a heads, kvHeads or dv the layer sets differently is a RangeError, naming the layer’s value', () => {
    // Before: heads 16 on a 32-head layer made a cache whose steps ran 32 heads of width 64.
    expect(() => rp.kvCache({ layer: llama(), heads: 16, d: 128 })).toThrow(
      /relpos\.kvCache: heads is set by the layer \(heads 32\); got 16 as well/,
    );
    expect(() => rp.kvCache({ layer: llama(), kvHeads: 4, d: 128 })).toThrow(
      /relpos\.kvCache: kvHeads is set by the layer \(kvHeads 8\); got 4 as well/,
    );
    const deepseek = rp.fromConfig(FAMILIES_FIXED.deepseek).groups[0];
    expect(() => rp.kvCache({ layer: deepseek, d: 48, dv: 48 })).toThrow(
      /relpos\.kvCache: dv is set by the layer \(valueHeadDim 24\); got 48 as well/,
    );
    // The same values given again change nothing.
    const cache = rp.kvCache({ layer: llama(), heads: 32, kvHeads: 8, d: 128 });
    cache.free();
  });

  it('a q whose width is not heads·d is refused at the step, naming both', () => {
    const cache = rp.kvCache({ layer: llama(), d: 128 });
    cache.append(rows(2, 8 * 128, 1), rows(2, 8 * 128, 2));
    expect(() => cache.attention(rows(1, 16 * 128, 3))).toThrow(
      /relpos\.kvCache\.attention: q must be \[n, heads·d\] = \[n, 4096\] \(32 heads of d = 128\), got \[1, 2048\]/,
    );
    cache.free();
  });

  it('a step that names the cache’s k, v, axes or shape — at the top or under params — is refused', () => {
    const cache = rp.kvCache({ heads: 4, kvHeads: 2, d: 8 });
    cache.append(rows(3, 16, 1), rows(3, 16, 2));
    const q = rows(1, 32, 3);
    // Before: params.k was read by nobody and the step ran over the cached keys without a word.
    expect(() => cache.attention(q, { params: { k: rows(3, 16, 4) } })).toThrow(
      /relpos\.kvCache\.attention: params\.k is the cache's own/,
    );
    expect(() => cache.attention(q, { params: { v: rows(3, 16, 4) } })).toThrow(/params\.v is the cache's own/);
    expect(() => cache.attention(q, { k: rows(3, 16, 4) })).toThrow(/: k is the cache's own/);
    expect(() => cache.attention(q, { axes: 'bnd' })).toThrow(/: axes is the cache's own/);
    // Before: heads 2 here replaced the cache's 4.
    expect(() => cache.attention(q, { heads: 2 })).toThrow(/heads is the cache's \(4\); got 2/);
    expect(() => cache.attention(q, { params: { kvHeads: 1 } })).toThrow(/params\.kvHeads is the cache's \(2\); got 1/);
    expect(cache.attention(q, { heads: 4 }).weights.shape).toEqual([4, 1, 3]);
    cache.free();
  });
});

const FAMILIES_FIXED = {
  deepseek: {
    model_type: 'deepseek_v3',
    num_attention_heads: 4,
    num_key_value_heads: 4,
    num_hidden_layers: 2,
    qk_nope_head_dim: 32,
    qk_rope_head_dim: 16,
    v_head_dim: 24,
    max_position_embeddings: 163840,
    rope_theta: 10000,
    rope_interleave: true,
    rope_scaling: { type: 'yarn', factor: 40, original_max_position_embeddings: 4096, beta_fast: 32, beta_slow: 1 },
  },
};
