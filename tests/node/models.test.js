// rp.presets and rp.fromConfig through the public API.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { load } from '../../bindings/index.js';

const rp = await load();
const configDir = new URL('../fixtures/configs/', import.meta.url);
const config = (name) => JSON.parse(readFileSync(new URL(name, configDir), 'utf8'));

describe('rp.presets', () => {
  it('lists the real models of docs/presets.md, each with a source and a scheme in the catalogue', () => {
    expect(rp.presets.map((p) => p.name)).toEqual(
      expect.arrayContaining(['Llama-2-7B', 'Llama-3.1-8B', 'GPT-NeoX-20B', 'BLOOM-7b1', 'T5-base', 'DeBERTa-v3-base']),
    );
    expect(rp.presets.length).toBe(17);
    for (const preset of rp.presets) {
      expect(preset.source.length).toBeGreaterThan(0);
      expect(rp.schemes.some((s) => s.id === preset.scheme)).toBe(true);
    }
  });

  it('every rotary preset computes its frequencies', () => {
    for (const preset of rp.presets.filter((p) => p.scheme.startsWith('rope'))) {
      const { invFreq } = rp.frequencies(preset.scheme, preset.params);
      expect(invFreq.length).toBe((preset.params.rotaryDim ?? preset.params.d) / 2);
    }
    const phi3 = rp.presets.find((p) => p.id === 'phi-3-mini-128k');
    expect(rp.frequencies(phi3.scheme, phi3.params).attentionFactor).toBeCloseTo(1.1902380714, 6);
  });
});

describe('rp.fromConfig', () => {
  it('reads every preset model config fixture into that preset', () => {
    const files = readdirSync(configDir).filter((f) => f.endsWith('.json'));
    expect(files.length).toBeGreaterThanOrEqual(11);
    for (const preset of rp.presets) {
      const file = `${preset.id}.json`;
      if (!files.includes(file)) continue;
      const reading = rp.fromConfig(config(file));
      expect(reading.scheme, file).toBe(preset.scheme);
      expect(reading.params, file).toEqual(preset.params);
      expect(reading.heads, file).toBe(preset.heads);
    }
  });

  it('accepts the v5 rope_parameters spelling and JSON text', () => {
    const v4 = rp.fromConfig(config('llama-3.1-8b.json'));
    const v5 = rp.fromConfig(readFileSync(new URL('llama-3.1-8b-v5.json', configDir), 'utf8'));
    expect(v5.scheme).toBe('rope-llama3');
    expect(v5.params).toEqual(v4.params);
  });

  it('treats its input as hostile: prototype keys, wrong types, deep nesting', () => {
    expect(() => rp.fromConfig(JSON.parse('{"__proto__": {"polluted": 1}, "model_type": "llama"}'))).toThrow(
      RangeError,
    );
    expect({}.polluted).toBeUndefined();
    expect(() => rp.fromConfig({ model_type: 'llama', hidden_size: '4096', num_attention_heads: 32 })).toThrow(
      TypeError,
    );
    expect(() => rp.fromConfig('['.repeat(100000))).toThrow(/relpos\.fromConfig: .*not valid JSON/);
    expect(() => rp.fromConfig(42)).toThrow(TypeError);
    const cyclic = {};
    cyclic.self = cyclic;
    expect(() => rp.fromConfig(cyclic)).toThrow(/relpos\.fromConfig: configJson must be plain JSON data/);
    expect(() => rp.fromConfig({ model_type: 'gpt2', n_embd: 768, n_head: 12 })).toThrow(RangeError);
    expect(rp.bias('alibi', { n: 2 }).shape).toEqual([1, 2, 2]); // still working
  });
});
