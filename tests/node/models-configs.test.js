// rp.fromConfig and rp.presets for the config families of docs/models.md, through the public API:
// what each real config reads into (scheme, parameters, layer groups, model facts), without warnings,
// and that each new preset is exactly the reading of its committed config.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { load } from '../../bindings/index.js';

const rp = await load();

// What every group of a decoder's reading carries for rp.attention({ layer }) (docs/models.md).
const layerSettings = (reading) => ({
  heads: reading.heads,
  headDim: reading.model.headDim,
  ...(reading.model.kvHeads ? { kvHeads: reading.model.kvHeads } : {}),
  ...(reading.model.valueHeadDim ? { valueHeadDim: reading.model.valueHeadDim } : {}),
  ...(reading.model.attentionScale ? { scale: reading.model.attentionScale } : {}),
  causal: true,
});
const configDir = new URL('../fixtures/configs/', import.meta.url);
const config = (name) => JSON.parse(readFileSync(new URL(name, configDir), 'utf8'));
const range = (n) => Array.from({ length: n }, (_, i) => i);
const mscale = (s, m) => (s <= 1 ? 1 : 0.1 * m * Math.log(s) + 1);
// Each family's small config, shared with the field table (tests/fixtures/config-fields.json, bases).
const { bases } = JSON.parse(readFileSync(new URL('../fixtures/config-fields.json', import.meta.url), 'utf8'));
const base = (name) => (bases[name].file ? config(bases[name].file) : bases[name]);
// A family's small config with fields of its rope_scaling changed.
const rescaled = (name, fields) => ({ ...base(name), rope_scaling: { ...base(name).rope_scaling, ...fields } });

// Each real config and what it reads into: the reading's scheme, its whole params (toEqual), heads
// and part of its model facts (toMatchObject), where given; `more(reading, file)` checks the rest.
const realConfigs = [
  {
    title:
      'Llama-4-Scout: text_config; llama3 with low = high; interleaved pairs; RoPE + chunked layers and NoPE layers',
    file: 'llama-4-scout-17b-16e-instruct.json',
    preset: 'llama-4-scout',
    scheme: 'rope-llama3',
    params: {
      d: 128,
      base: 500000,
      layout: 'interleaved',
      factor: 16,
      lowFreqFactor: 1,
      highFreqFactor: 1,
      originalMaxPositionEmbeddings: 8192,
    },
    heads: 40,
    model: { type: 'llama4_text', headDim: 128, kvHeads: 8, layerCount: 48, maxPositionEmbeddings: 10485760 },
    more(reading) {
      expect(reading.groups).toHaveLength(2);
      const [rope, nope] = reading.groups;
      expect(rope).toMatchObject({
        layerType: 'chunked_attention',
        scheme: 'rope-llama3',
        params: reading.params,
        attentionChunkSize: 8192,
      });
      expect(rope.layers).toEqual(range(48).filter((i) => (i + 1) % 4 !== 0));
      expect(nope).toMatchObject({ layerType: 'full_attention', scheme: 'nope', params: {} });
      expect(nope.layers).toEqual(range(12).map((k) => 4 * k + 3));
      expect(nope.notes.join(' ')).toMatch(/temperature/);
      expect(rp.frequencies(reading.scheme, reading.params).attentionFactor).toBe(1);
    },
  },
  {
    title:
      'DeepSeek-V3: the last 64 (qk_rope_head_dim) of the 192 head dims rotate, interleaved (rope_interleave defaults to true); YaRN mscale pair',
    file: 'deepseek-v3.json',
    preset: 'deepseek-v3',
    scheme: 'rope-yarn',
    params: {
      d: 192,
      rotaryDim: 64,
      startIndex: 128,
      base: 10000,
      layout: 'interleaved',
      factor: 40,
      originalMaxPositionEmbeddings: 4096,
      betaFast: 32,
      betaSlow: 1,
      mscale: 1,
      mscaleAllDim: 1,
    },
    heads: 128,
    model: { type: 'deepseek_v3', headDim: 192, ropeHeadDim: 64, valueHeadDim: 128, kvHeads: 128 },
    more(reading) {
      expect(reading.model.attentionScale).toBeCloseTo(192 ** -0.5 * mscale(40, 1) ** 2, 12);
      expect(reading.groups).toEqual([
        {
          layerType: 'full_attention',
          layers: range(61),
          scheme: reading.scheme,
          params: reading.params,
          ...layerSettings(reading),
        },
      ]);
      expect(reading.groups[0]).toMatchObject({ heads: 128, kvHeads: 128, valueHeadDim: 128 });
      expect(reading.groups[0].scale).toBeCloseTo(192 ** -0.5 * mscale(40, 1) ** 2, 12);
      // The rotated part alone gives the frequencies of the 64 rope dims.
      expect(rp.frequencies(reading.scheme, reading.params).invFreq).toHaveLength(32);
    },
  },
  {
    title:
      'DeepSeek-V2-Lite: 64 rotated dims, adjacent pairs, mscale = mscale_all_dim = 0.707; HF omits the softmax factor (noted)',
    file: 'deepseek-v2-lite.json',
    model: { type: 'deepseek_v2', headDim: 192, ropeHeadDim: 64, valueHeadDim: 128 },
    more(reading) {
      expect(reading.params).toMatchObject({
        d: 192,
        rotaryDim: 64,
        startIndex: 128,
        layout: 'interleaved',
        mscale: 0.707,
        mscaleAllDim: 0.707,
      });
      expect(reading.groups[0].valueHeadDim).toBe(128);
      expect(reading.groups[0].scale).toBeCloseTo(192 ** -0.5, 15);
      expect(reading.groups[0]).not.toHaveProperty('refuses');
      expect(reading.model.attentionScale).toBeCloseTo(192 ** -0.5, 12);
      expect(reading.model.note).toMatch(/mscale/);
      expect(rp.frequencies(reading.scheme, reading.params).attentionFactor).toBe(1);
    },
  },
  {
    title: "Gemma-3-4B-it: text_config with Gemma3TextConfig's defaults; global and sliding-window layer groups",
    file: 'gemma-3-4b-it.json',
    preset: 'gemma-3-4b',
    scheme: 'rope-linear',
    params: { d: 256, base: 1000000, layout: 'half', factor: 8 },
    heads: 8,
    model: { type: 'gemma3_text', headDim: 256, kvHeads: 4, layerCount: 34 },
    more(reading) {
      expect(reading.model.attentionScale).toBe(1 / 16); // query_pre_attn_scalar 256
      const globalLayers = [5, 11, 17, 23, 29];
      expect(reading.groups).toEqual([
        {
          layerType: 'full_attention',
          layers: globalLayers,
          scheme: 'rope-linear',
          params: reading.params,
          ...layerSettings(reading),
        },
        {
          layerType: 'sliding_attention',
          layers: range(34).filter((i) => !globalLayers.includes(i)),
          scheme: 'rope',
          params: { d: 256, base: 10000, layout: 'half' },
          slidingWindow: 1024,
          ...layerSettings(reading),
        },
      ]);
    },
  },
  {
    title: 'Qwen3-8B: explicit head_dim, plain RoPE, one group of 36 full-attention layers',
    file: 'qwen3-8b.json',
    preset: 'qwen3-8b',
    scheme: 'rope',
    params: { d: 128, base: 1000000, layout: 'half' },
    model: { type: 'qwen3', headDim: 128, kvHeads: 8, layerCount: 36 },
    more(reading) {
      expect(reading.groups).toEqual([
        {
          layerType: 'full_attention',
          layers: range(36),
          scheme: 'rope',
          params: reading.params,
          ...layerSettings(reading),
        },
      ]);
    },
  },
  {
    title:
      'gpt-oss-20b: YaRN with truncate: false, head_dim 64, alternating sliding (128) and full layers, no model_type warning',
    file: 'gpt-oss-20b.json',
    preset: 'gpt-oss-20b',
    scheme: 'rope-yarn',
    params: {
      d: 64,
      base: 150000,
      layout: 'half',
      factor: 32,
      originalMaxPositionEmbeddings: 4096,
      betaFast: 32,
      betaSlow: 1,
      truncate: false,
    },
    heads: 64,
    model: { type: 'gpt_oss', headDim: 64, kvHeads: 8, layerCount: 24 },
    more(reading) {
      // The learned sinks are in the checkpoint, not the config: the groups say so.
      const needs = [{ option: 'sinks', why: expect.stringMatching(/sink logits, \[heads\]/) }];
      const group = { scheme: 'rope-yarn', params: reading.params, needs, ...layerSettings(reading) };
      expect(reading.groups).toEqual([
        { layerType: 'full_attention', layers: range(12).map((k) => 2 * k + 1), ...group },
        { layerType: 'sliding_attention', layers: range(12).map((k) => 2 * k), slidingWindow: 128, ...group },
      ]);
    },
  },
  {
    title: 'Phi-4-mini: 96 of 128 dims rotate (partial_rotary_factor 0.75), LongRoPE with factor 32 from the lengths',
    file: 'phi-4-mini-instruct.json',
    preset: 'phi-4-mini',
    scheme: 'rope-longrope',
    heads: 24,
    model: { type: 'phi3', headDim: 128, kvHeads: 8, layerCount: 32 },
    more(reading, file) {
      expect(reading.params).toEqual({
        d: 128,
        rotaryDim: 96,
        base: 10000,
        layout: 'half',
        factor: 32,
        originalMaxPositionEmbeddings: 4096,
        shortFactor: file.rope_scaling.short_factor,
        longFactor: file.rope_scaling.long_factor,
      });
      expect(reading.groups[0].slidingWindow).toBe(262144);
      const { invFreq, attentionFactor } = rp.frequencies(reading.scheme, reading.params);
      expect(invFreq).toHaveLength(48);
      expect(attentionFactor).toBeCloseTo(Math.sqrt(1 + Math.log(32) / Math.log(4096)), 6);
    },
  },
  {
    title: 'Mistral-Nemo: head_dim 128 although hidden / heads = 160',
    file: 'mistral-nemo-instruct-2407.json',
    params: { d: 128, base: 1000000, layout: 'half' },
    model: { headDim: 128, kvHeads: 8, layerCount: 40 },
    more(reading) {
      expect(reading.groups[0]).not.toHaveProperty('slidingWindow');
    },
  },
];

describe('rp.fromConfig: real model configs read without warnings', () => {
  for (const { title, file, scheme, params, heads, model, more } of realConfigs) {
    it(title, () => {
      const reading = rp.fromConfig(config(file));
      expect(reading.warnings).toEqual([]);
      if (scheme) expect(reading.scheme).toBe(scheme);
      if (params) expect(reading.params).toEqual(params);
      if (heads) expect(reading.heads).toBe(heads);
      expect(reading.model).toMatchObject(model);
      more(reading, config(file));
    });
  }

  it('DeepSeek-V3 with rope_interleave: false rotates halves', () => {
    const reading = rp.fromConfig({ ...config('deepseek-v3.json'), rope_interleave: false });
    expect(reading.params.layout).toBe('half');
    expect(reading.warnings).toEqual([]);
  });

  it('Gemma-3 in the v5 spelling (per-layer-type rope_parameters, layer_types) reads into the same groups', () => {
    const layerTypes = range(6).map((i) => ((i + 1) % 3 === 0 ? 'full_attention' : 'sliding_attention'));
    const reading = rp.fromConfig({
      model_type: 'gemma3_text',
      num_hidden_layers: 6,
      sliding_window: 512,
      layer_types: layerTypes,
      rope_parameters: {
        full_attention: { rope_type: 'linear', factor: 8, rope_theta: 1000000 },
        sliding_attention: { rope_type: 'default', rope_theta: 10000 },
      },
    });
    expect(reading.warnings).toEqual([]);
    expect(reading.groups.map((g) => [g.layerType, g.layers, g.scheme, g.params.base])).toEqual([
      ['full_attention', [2, 5], 'rope-linear', 1000000],
      ['sliding_attention', [0, 1, 3, 4], 'rope', 10000],
    ]);
    expect(reading.groups[1].slidingWindow).toBe(512);
  });

  it('a nested truncate: false is read from its own layer group', () => {
    const yarn = { rope_type: 'yarn', factor: 32, original_max_position_embeddings: 4096, rope_theta: 150000 };
    const reading = rp.fromConfig({
      ...bases['gpt-oss'],
      num_hidden_layers: 2,
      layer_types: ['sliding_attention', 'full_attention'],
      rope_parameters: { full_attention: { ...yarn, truncate: false }, sliding_attention: yarn },
    });
    expect(reading.groups.map((g) => g.params.truncate)).toEqual([false, undefined]);
  });

  it('Phi-4-mini in the v5 spelling (partial_rotary_factor and original length inside rope_parameters) reads the same', () => {
    const v4 = config('phi-4-mini-instruct.json');
    const { partial_rotary_factor, original_max_position_embeddings, rope_theta, rope_scaling, ...rest } = v4;
    const v5 = {
      ...rest,
      rope_parameters: {
        rope_type: 'longrope',
        rope_theta,
        partial_rotary_factor,
        original_max_position_embeddings,
        short_factor: rope_scaling.short_factor,
        long_factor: rope_scaling.long_factor,
      },
    };
    const reading = rp.fromConfig(v5);
    expect(reading.warnings).toEqual([]);
    expect(reading.params).toEqual(rp.fromConfig(v4).params);
  });

  it('a LLaVA-style composite config reads its text_config', () => {
    const reading = rp.fromConfig({
      model_type: 'llava',
      vision_config: { model_type: 'clip_vision_model', hidden_size: 1024, num_attention_heads: 16 },
      text_config: { model_type: 'llama', hidden_size: 4096, num_attention_heads: 32, rope_theta: 10000 },
    });
    expect(reading.warnings).toEqual([]);
    expect(reading).toMatchObject({ scheme: 'rope', params: { d: 128, base: 10000, layout: 'half' }, heads: 32 });
    expect(reading.groups[0].layers).toBeNull();
  });

  it('Qwen2 slides only from max_window_layers on, and only with use_sliding_window', () => {
    const qwen2 = { ...bases.qwen2, sliding_window: 64 };
    expect(rp.fromConfig({ ...qwen2, use_sliding_window: false }).groups).toHaveLength(1);
    const windowed = rp.fromConfig({ ...qwen2, use_sliding_window: true, max_window_layers: 2 });
    expect(windowed.groups.map((g) => [g.layerType, g.layers, g.slidingWindow])).toEqual([
      ['full_attention', [0, 1], undefined],
      ['sliding_attention', [2, 3], 64],
    ]);
  });
});

describe('rp.fromConfig: warnings name only what relpos cannot read', () => {
  it('a lone mscale (Hugging Face ignores it without mscale_all_dim) is dropped with a warning', () => {
    const reading = rp.fromConfig(rescaled('yarn', { mscale: 0.707 }));
    expect(reading.params).not.toHaveProperty('mscale');
    expect(reading.warnings.join(' ')).toMatch(/mscale/);
  });

  it('mscale_all_dim: 0 counts as unset: the pair is kept as given and gives the default attention factor', () => {
    const reading = rp.fromConfig(rescaled('deepseek-v3', { mscale: 0.707, mscale_all_dim: 0 }));
    expect(reading.warnings).toEqual([]);
    expect(rp.frequencies(reading.scheme, reading.params).attentionFactor).toBeCloseTo(mscale(40, 1), 6);
  });

  it('LongRoPE attention_factor is read (it replaces the derived factor)', () => {
    const reading = rp.fromConfig(rescaled('phi3', { attention_factor: 0.5 }));
    expect(reading.warnings).toEqual([]);
    expect(reading.scheme).toBe('rope-longrope');
    expect(reading.params.attentionFactor).toBe(0.5);
    expect(rp.frequencies(reading.scheme, { ...reading.params, seqLen: 1 }).attentionFactor).toBe(0.5);
  });

  it('an unknown model_type with rope fields is read as rotary with a warning about the layout', () => {
    const reading = rp.fromConfig({ ...bases.llama, model_type: 'mystery' });
    expect(reading.scheme).toBe('rope');
    expect(reading.warnings).toHaveLength(1);
    expect(reading.warnings[0]).toMatch(/mystery.*half/);
  });

  it("Qwen2-VL's multimodal rope reads as plain RoPE for text positions, with a warning about mrope_section", () => {
    const reading = rp.fromConfig(bases['qwen2-vl']);
    expect(reading.scheme).toBe('rope');
    expect(reading.warnings.join(' ')).toMatch(/mrope_section/);
  });
});

describe('rp.presets: the new real-model presets are readings of their configs', () => {
  for (const { preset: id, file, scheme } of realConfigs.filter((c) => c.preset)) {
    it(`${id} = rp.fromConfig(${file})`, () => {
      const preset = rp.presets.find((p) => p.id === id);
      expect(preset, id).toBeDefined();
      expect(preset.scheme).toBe(scheme);
      expect(preset.source.length).toBeGreaterThan(20);
      const reading = rp.fromConfig(config(file));
      expect(preset.params).toEqual(reading.params);
      expect(preset.heads).toBe(reading.heads);
      expect(preset.groups).toEqual(reading.groups);
      expect(preset.model).toMatchObject(reading.model);
    });
  }

  it('every preset has groups whose first entry is its scheme and params, and its params feed every call of the scheme', () => {
    for (const preset of rp.presets) {
      expect(preset.groups[0], preset.id).toMatchObject({ scheme: preset.scheme, params: preset.params });
      const info = rp.schemes.find((s) => s.id === preset.scheme);
      if (info.calls.includes('frequencies')) {
        const { invFreq } = rp.frequencies(preset.scheme, preset.params);
        expect(invFreq.length, preset.id).toBe((preset.params.rotaryDim ?? preset.params.d) / 2);
      }
      if (info.calls.includes('rotate')) {
        const width = preset.params.d;
        const x = { shape: [3, 2 * width], data: new Float32Array(6 * width).fill(1) };
        expect(rp.rotate(x, { scheme: preset.scheme, ...preset.params, heads: 2 }).shape, preset.id).toEqual([
          3,
          2 * width,
        ]);
      }
      if (info.calls.includes('bias')) {
        expect(rp.bias(preset.scheme, { ...preset.params, n: 4, heads: preset.heads }).shape, preset.id).toEqual([
          preset.heads,
          4,
          4,
        ]);
      }
    }
  });
});

describe('rp.fromConfig: a layer count no model comes near is refused, not written out', () => {
  // The reading lists every layer of each group: a million declared layers would make it megabytes.
  it('num_hidden_layers above 4096, or a longer layer_types, is a RangeError naming it; the module keeps working', () => {
    const gemma = { model_type: 'gemma3_text', num_attention_heads: 8, head_dim: 256 };
    expect(() => rp.fromConfig({ ...gemma, num_hidden_layers: 1000000 })).toThrow(
      /^relpos\.fromConfig: num_hidden_layers must be <= 4096, got 1000000$/,
    );
    expect(() => rp.fromConfig({ model_type: 'bloom', n_head: 8, n_layer: 5000, hidden_size: 512 })).toThrow(
      /^relpos\.fromConfig: n_layer must be <= 4096, got 5000$/,
    );
    expect(() => rp.fromConfig({ ...gemma, layer_types: Array(4097).fill('full_attention') })).toThrow(RangeError);
    expect(() => rp.fromConfig({ ...gemma, layer_types: [] })).toThrow(
      /^relpos\.fromConfig: layer_types must list at least one layer, got \[\]$/,
    );
    expect(rp.fromConfig({ ...gemma, num_hidden_layers: 4096 }).model.layerCount).toBe(4096);
  });
});
