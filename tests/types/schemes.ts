// The generated option types (bindings/schemes.d.ts) catch the mistakes a user brings from Hugging
// Face and PyTorch: `tsc --strict` must accept every call here and refuse each call marked as an
// expected error below (a directive with no error after it is itself an error: each refusal counts).
import { load, type AttentionOptions, type RopeParams, type SchemeId, type Tensor } from 'relpos';

async function main(): Promise<void> {
  const rp = await load();

  // Each scheme's own parameters, per call.
  const yarn = rp.frequencies('rope-yarn', { d: 64, factor: 4, originalMaxPositionEmbeddings: 4096 });
  const bias: Tensor = rp.bias('alibi', { n: 16, heads: 8, causal: true, alibiBiasMax: 8 });
  const buckets = rp.buckets('t5', { n: 8, numBuckets: 32, bidirectional: false });
  const rotated = rp.rotate([new Float32Array(8), new Float32Array(8)], { scheme: 'rope-llama3', factor: 8 });
  const defaultRope = rp.rotate([[1, 0, 0, 1]], { base: 500000, layout: 'interleaved' });
  const scores = rp.scores('rope', { n: 8, d: 16, rotaryDim: 8 });
  const params: RopeParams = { d: 64, base: 10000 };

  // @ts-expect-error: theta is Hugging Face's name; relpos calls it base
  rp.frequencies('rope', { d: 64, theta: 10000 });
  // @ts-expect-error: rope_theta likewise
  rp.scores('rope', { n: 8, d: 16, rope_theta: 10000 });
  // @ts-expect-error: ALiBi has no base
  rp.bias('alibi', { n: 8, base: 10000 });
  // @ts-expect-error: an unknown scheme id
  rp.bias('bogus', { n: 8 });
  // @ts-expect-error: 'llama3' is 'rope-llama3'
  rp.frequencies('llama3', { d: 64 });
  // @ts-expect-error: alibi offers no frequencies
  rp.frequencies('alibi', { d: 64 });
  // @ts-expect-error: a choice outside its list
  rp.rotate([[1, 0]], { layout: 'neox' });
  // @ts-expect-error: frequencies cannot do without d
  rp.frequencies('rope', { base: 10000 });
  // @ts-expect-error: snake_case is not the parameter's name
  rp.rotate([[1, 0]], { rotary_dim: 2 });

  // attention: a discriminated union on `scheme`.
  const q = [
    [1, 0],
    [0, 1],
  ];
  const alibi = rp.attention({ q, k: q, v: q, scheme: 'alibi', causal: true, alibiBiasMax: 4 });
  const inParams = rp.attention({ q, k: q, scheme: 'rope', params: { base: 500000 } });
  const plain = rp.attention({ q, k: q, B: { shape: [2, 2], data: [0, -1, -1, 0] } });
  const options: AttentionOptions = { q, k: q, scheme: 't5', numBuckets: 16 };
  // @ts-expect-error: sheme is a misspelt scheme
  rp.attention({ q, k: q, sheme: 'rope' });
  // @ts-expect-error: theta is not a parameter of rope
  rp.attention({ q, k: q, scheme: 'rope', theta: 10000 });
  // @ts-expect-error: nor inside params
  rp.attention({ q, k: q, scheme: 'rope', params: { theta: 10000 } });
  // @ts-expect-error: an unknown scheme id
  rp.attention({ q, k: q, scheme: 'llama3' });
  // @ts-expect-error: attention needs k
  rp.attention({ q, scheme: 'alibi' });
  // @ts-expect-error: a discriminated union refuses a parameter of another scheme
  const wrong: AttentionOptions = { q, k: q, scheme: 'alibi', numBuckets: 16 };

  // An id chosen at run time (a plain string) takes the loose options, checked by the core.
  const chosen: string = Math.random() < 0.5 ? 'alibi' : 't5';
  const loose = rp.bias(chosen, { n: 8, heads: 2 });
  const looseAttention = rp.attention({ q, k: q, scheme: chosen, params: { heads: 2 } });
  const ids: SchemeId[] = rp.schemes.map((s) => s.id);

  console.log(yarn.attentionFactor, bias.shape, buckets.data, rotated.shape, defaultRope.shape, scores.shape);
  console.log(params, alibi.weights, inParams.output, plain.weights, options, wrong, loose, looseAttention, ids);
}

main();
