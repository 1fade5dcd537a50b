// One softmax path and one rotation path (docs/attention.md, "As models run it"): a setting that
// changes nothing gives the same bits as leaving it out, over random layers of every family of
// tests/fixtures/layers (Gemma-2's soft-cap, gpt-oss's sinks and window, Llama-4's chunks and
// temperature, DeepSeek's value width and partial rotation, and the rest):
// - sinks of -Infinity (no sink), or of -1e30 (a sink whose weight is below every float);
// - positions and keyPositions equal to the defaults (i + queryOffset and j);
// - a soft-cap so large that tanh's cubic term is below half an ulp of every logit (1e12 here).
// Both builds, the weights and the output-only (streaming) call alike.
import { readFileSync, readdirSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { load } from '../../bindings/index.js';

const rp = await load();
const baseline = await load({ simd: false });
const repoRoot = new URL('../../', import.meta.url);
const layersDir = new URL('../fixtures/layers/', import.meta.url);
const readJson = (url) => JSON.parse(readFileSync(url, 'utf8'));

const CALL_SETTINGS = [
  'scheme',
  'heads',
  'kvHeads',
  'valueHeadDim',
  'causal',
  'scale',
  'slidingWindow',
  'attentionChunkSize',
  'softcap',
  'temperatureTuning',
];

// Every group of every family, as the options of a call (the layer's settings, without its notes).
const layers = readdirSync(layersDir)
  .filter((f) => f.endsWith('.json'))
  .flatMap((f) => {
    const family = readJson(new URL(f, layersDir));
    const config = typeof family.config === 'string' ? readJson(new URL(family.config, repoRoot)) : family.config;
    return rp.fromConfig(config).groups.map((group, index) => {
      const { layerType, needs = [], params = {} } = group;
      // The group's settings that are rp.attention options (a group also carries layers, notes, …).
      const settings = Object.fromEntries(CALL_SETTINGS.filter((key) => key in group).map((key) => [key, group[key]]));
      return {
        name: `${family.family} / ${layerType}`,
        settings: { ...settings, params },
        sinks: needs.some((need) => need.option === 'sinks'),
        table: needs.some((need) => need.option === 'table'),
        qk: family.inputs.qkHeadDim,
        index,
      };
    });
  })
  .filter((layer) => !layer.table); // T5's relative table is a given tensor, not a setting

const formula = (count, seed) =>
  Float32Array.from({ length: count }, (_, t) => (((t * 7919 + seed * 104729) % 2001) - 1000) / 1000);
const sameBits = (a, b) => a.length === b.length && a.every((x, i) => Object.is(x, b[i]));

/** The call of one random draw: the layer's settings, small n and m, a KV-cache offset. */
function callOf(layer, { n, extra, seed, chunk, sinks }) {
  const { heads, kvHeads = heads, valueHeadDim } = layer.settings;
  const d = layer.settings.params.d ?? layer.qk ?? 8;
  const dv = valueHeadDim ?? d;
  const m = n + extra;
  const call = {
    ...layer.settings,
    q: { shape: [n, heads * d], data: formula(n * heads * d, seed) },
    k: { shape: [m, kvHeads * d], data: formula(m * kvHeads * d, seed + 1) },
    v: { shape: [m, kvHeads * dv], data: formula(m * kvHeads * dv, seed + 2) },
  };
  // Llama-4's chunks of 8192 keys, shrunk so that the small calls cross chunk boundaries.
  if (call.attentionChunkSize) call.attentionChunkSize = chunk;
  if (layer.sinks) call.sinks = Array.from({ length: heads }, (_, h) => sinks[h % sinks.length]);
  return { call, n, m, heads };
}

const draws = fc.record({
  n: fc.integer({ min: 1, max: 6 }),
  extra: fc.integer({ min: 0, max: 7 }),
  seed: fc.integer({ min: 1, max: 5000 }),
  chunk: fc.integer({ min: 1, max: 6 }),
  sinks: fc.array(fc.double({ min: -3, max: 3, noNaN: true }), { minLength: 1, maxLength: 4 }),
  weights: fc.boolean(),
  simd: fc.boolean(),
});

function expectSameResult(got, want, what) {
  for (const key of ['weights', 'output']) {
    if (!want[key]) continue;
    expect(got[key].shape, `${what}: ${key} shape`).toEqual(want[key].shape);
    expect(sameBits(got[key].data, want[key].data), `${what}: ${key} bits`).toBe(true);
  }
}

describe('neutral settings give the bits of leaving them out, over random layers of every family', () => {
  it('covers the families of tests/fixtures/layers, Gemma-2, gpt-oss, Llama-4 and DeepSeek among them', () => {
    const names = layers.map((l) => l.name);
    for (const family of ['gemma-2', 'gpt-oss', 'llama-4', 'deepseek-v3']) {
      expect(
        names.some((name) => name.startsWith(`${family} /`)),
        family,
      ).toBe(true);
    }
    expect(layers.length).toBeGreaterThan(20);
  });

  for (const layer of layers) {
    it(`${layer.name}: sinks of -Infinity or -1e30, default positions, a soft-cap of 1e12`, () => {
      fc.assert(
        fc.property(draws, (draw) => {
          const instance = draw.simd ? rp : baseline;
          const { call, n, m, heads } = callOf(layer, draw);
          if (!draw.weights) call.weights = false;
          const base = instance.attention(call);
          const run = (extra) => instance.attention({ ...call, ...extra });
          // Sinks: with a layer's own sinks, one head's sink replaced by -Infinity is that head without one.
          if (call.sinks) {
            const none = call.sinks.map((s, h) => (h === 0 ? -Infinity : s));
            const tiny = call.sinks.map((s, h) => (h === 0 ? -1e30 : s));
            expectSameResult(run({ sinks: tiny }), run({ sinks: none }), 'one sink of -1e30');
          } else {
            expectSameResult(run({ sinks: new Array(heads).fill(-Infinity) }), base, 'sinks of -Infinity');
            expectSameResult(run({ sinks: new Array(heads).fill(-1e30) }), base, 'sinks of -1e30');
          }
          // Positions equal to the defaults: queries at i + (m - n), keys at j.
          if (call.scheme && call.scheme !== 'nope') {
            const positions = Array.from({ length: n }, (_, i) => i + m - n);
            const keyPositions = Array.from({ length: m }, (_, j) => j);
            expectSameResult(run({ positions, keyPositions }), base, 'default positions');
          }
          // A soft-cap of 1e12 against none (Gemma-2's own cap of 50 taken out for both).
          const { softcap: _cap, ...uncapped } = call;
          expectSameResult(
            instance.attention({ ...uncapped, softcap: 1e12 }),
            instance.attention(uncapped),
            'softcap 1e12',
          );
        }),
        { numRuns: 6 },
      );
    });
  }
});
