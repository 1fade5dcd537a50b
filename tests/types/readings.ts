// Readings (rp.fromConfig) and presets are unions keyed by `scheme`: the docs' own pattern
// `rp.frequencies(reading.scheme, reading.params)` compiles under `tsc --strict`, narrowing
// `scheme` narrows `params`, and a wrong id is an error on the id that names the ids the call takes.
// (tests/node/types.test.js also checks that error's wording.)
import { load, type AlibiParams, type ConfigReading, type LayerGroup, type Preset, type SchemeParams } from 'relpos';

async function main(): Promise<void> {
  const rp = await load();

  // docs/api.md, rp.presets and rp.fromConfig.
  const llama = rp.presets.find((p) => p.id === 'llama-3.1-8b')!;
  const { invFreq } = rp.frequencies(llama.scheme, llama.params);
  const reading: ConfigReading = rp.fromConfig({ model_type: 'llama', hidden_size: 4096, num_attention_heads: 32 });
  const fromReading = rp.frequencies(reading.scheme, reading.params);
  const biasOfReading = rp.bias(reading.scheme, { ...reading.params, n: 8 });
  const d: number | undefined = reading.scheme === 'rope' ? reading.params.d : undefined;

  // A layer group of a hybrid model, the same way.
  for (const group of rp.fromConfig({ model_type: 'gemma3_text', num_hidden_layers: 6 }).groups) {
    rp.frequencies(group.scheme, group.params);
    const loose: LayerGroup = group; // a keyed group is a LayerGroup
    console.log(loose.layerType);
  }

  // Narrowing on scheme narrows params.
  const preset: Preset = rp.presets[0];
  if (preset.scheme === 'alibi') {
    const alibi: AlibiParams = preset.params;
    rp.bias(preset.scheme, { ...alibi, n: 8 });
    // @ts-expect-error: once narrowed to alibi, a rotary call is refused
    rp.frequencies(preset.scheme, preset.params);
  }
  if (reading.scheme === 'rope-llama3') {
    const factor: number | undefined = reading.params.factor;
    // @ts-expect-error: rope-llama3's params have no numBuckets
    console.log(reading.params.numBuckets, factor);
  }

  // A reading's params still go where any scheme's parameters do.
  const anyParams: SchemeParams = reading.params;
  rp.attention({ q: [[1, 0]], k: [[1, 0]], scheme: reading.scheme as string, params: anyParams });

  // Wrong ids: on the id itself.
  // @ts-expect-error: an unknown id
  rp.frequencies('llama3', { d: 64 });
  // @ts-expect-error: an id without this call
  rp.frequencies('alibi', { d: 64 });
  // @ts-expect-error: an unknown id for bias
  rp.bias('bogus', { n: 8 });
  // @ts-expect-error: a union with an unknown id is refused
  rp.frequencies(reading.scheme as ConfigReading['scheme'] | 'llama3', reading.params);

  console.log(invFreq.length, fromReading.invFreq.length, biasOfReading.shape, d);
}

main();
