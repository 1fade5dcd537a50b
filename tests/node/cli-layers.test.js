// The command line's weights view of a preset's or config's layer group is rp.attention({ layer })
// on all-ones probes: the group's heads, scale, causality, window, chunk, soft-cap and temperature,
// as the layer runs them (bin/relpos.js, figure/views.js), for every group of every preset.
import { readFileSync, writeFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { load } from '../../bindings/index.js';
import { relpos, scratchDir } from './cli-run.js';

const outDir = scratchDir('cli-layers-test');
const fields = JSON.parse(readFileSync(new URL('../fixtures/config-fields.json', import.meta.url), 'utf8'));
const N = 12;
let rp;

beforeAll(async () => {
  rp = await load();
});

// What the layer needs beside it, made up for the test: one sink logit per head; T5's table.
function inputsFor(group) {
  const inputs = {};
  const params = {};
  for (const { option } of group.needs ?? []) {
    if (option === 'sinks') inputs.sinks = Array.from({ length: group.heads }, (_, h) => 0.25 * (h % 5) - 0.5);
    else if (option === 'table') {
      params.table = Array.from({ length: group.heads }, (_, h) =>
        Array.from({ length: group.params.numBuckets ?? 32 }, (_, b) => Math.sin(h + 0.3 * b)),
      );
    } else throw new Error(`no test value for ${option}`);
  }
  return { inputs, params };
}

// The reference: rp.attention({ layer }) on all-ones q [N, heads·d], k [N, kvHeads·d], v [N, kvHeads·dv].
function reference(group, headDim, { inputs, params }) {
  const d = group.params.d ?? headDim;
  const kvHeads = group.kvHeads ?? group.heads;
  const ones = (cols) => ({ shape: [N, cols], data: new Float32Array(N * cols).fill(1) });
  const options = { q: ones(group.heads * d), k: ones(kvHeads * d), v: ones(kvHeads * (group.valueHeadDim ?? d)) };
  return rp.attention({ ...options, layer: group, ...inputs, ...(Object.keys(params).length ? { params } : {}) })
    .weights;
}

// The CLI's JSON figure of one head, against the reference's same head: a cell drawn masked (−∞) has
// weight 0 in the reference, every other cell agrees to 1e-6.
async function expectSameWeights(args, label, weights, head) {
  const file = `${outDir}${label.replace(/[^\w-]/g, '_')}-${head}.json`;
  const result = await relpos(
    'render',
    ...args,
    '--view',
    'weights',
    '--n',
    String(N),
    '--head',
    String(head),
    '--out',
    file,
  );
  expect(result.code, `${label}: ${result.stderr}`).toBe(0);
  const { data, meta } = JSON.parse(readFileSync(file, 'utf8'));
  const plane = weights.data.subarray(head * N * N, (head + 1) * N * N);
  let masked = 0;
  for (let i = 0; i < N; i++) {
    for (let j = 0; j < N; j++) {
      const want = plane[i * N + j];
      if (data[i][j] === '-Infinity') {
        masked++;
        expect(want, `${label} head ${head} [${i}, ${j}] masked`).toBe(0);
      } else {
        expect(Math.abs(data[i][j] - want), `${label} head ${head} [${i}, ${j}]`).toBeLessThanOrEqual(1e-6);
      }
    }
  }
  return { meta, masked, stderr: result.stderr };
}

function inputArgs({ inputs, params }) {
  return [
    ...Object.entries(inputs).flatMap(([name, value]) => ['--input', `${name}=${JSON.stringify(value)}`]),
    ...Object.entries(params).flatMap(([name, value]) => ['--param', `${name}=${JSON.stringify(value)}`]),
  ];
}

describe(
  'relpos render <preset> --view weights: the group as rp.attention({ layer }) runs it',
  { timeout: 240000 },
  () => {
    it('equals rp.attention({ layer }) to 1e-6 for every group of every preset', async () => {
      let checked = 0;
      for (const preset of rp.presets) {
        for (const [index, group] of preset.groups.entries()) {
          const given = inputsFor(group);
          const weights = reference(group, preset.model.headDim, given);
          const args = [preset.id, '--group', String(index), ...inputArgs(given)];
          // One head per group (one process each): the first and the last in turn.
          const head = checked % 2 ? group.heads - 1 : 0;
          const { masked, meta } = await expectSameWeights(args, `${preset.id} ${index}`, weights, head);
          // Decoders are causal by default: their upper triangle is masked; encoders' is not.
          if (group.causal) expect(masked, `${preset.id} ${index}`).toBeGreaterThanOrEqual((N * (N - 1)) / 2);
          else expect(masked, `${preset.id} ${index}`).toBe(0);
          expect(meta.causal, `${preset.id} ${index}`).toBe(group.causal);
          checked++;
        }
      }
      expect(checked).toBeGreaterThanOrEqual(20);
    });

    it('applies what the defects left out: DeepSeek-V3 scale 0.135, the Scout NoPE group at d = 128, causal decoders', async () => {
      const deepseek = rp.presets.find((p) => p.id === 'deepseek-v3');
      expect(deepseek.groups[0].scale).toBeCloseTo(0.1352, 4);
      const scout = rp.presets.find((p) => p.id === 'llama-4-scout');
      const nope = scout.groups.findIndex((g) => g.scheme === 'nope');
      const { stderr } = await relpos(
        'render',
        'llama-4-scout',
        '--group',
        String(nope),
        '--view',
        'weights',
        '--n',
        '4',
        '--out',
        `${outDir}nope.json`,
      );
      expect(stderr).toContain('q: ones [4, 40·128]');
      expect(stderr).toContain('temperatureTuning = {"floorScale":8192,"attnScale":0.1} (group): applied');
      const ds = await relpos('render', 'deepseek-v3', '--view', 'weights', '--n', '4', '--out', `${outDir}ds.json`);
      expect(ds.stderr).toContain('scale = 0.1352337788608801 (group): applied');
    });

    it("a Gemma-2 config's group is drawn with its soft-cap and scale (--config)", async () => {
      const file = `${outDir}gemma2.json`;
      writeFileSync(file, JSON.stringify(fields.bases.gemma2));
      const reading = rp.fromConfig(fields.bases.gemma2);
      for (const [index, group] of reading.groups.entries()) {
        expect(group.softcap).toBe(50);
        const weights = reference(group, reading.model.headDim, { inputs: {}, params: {} });
        const { stderr } = await expectSameWeights(
          ['--config', file, '--group', String(index)],
          `gemma2 ${index}`,
          weights,
          0,
        );
        expect(stderr).toContain('softcap = 50 (group): applied');
      }
    });

    it('names an input the layer needs and the command line was not given, and how to give it (exit 2)', async () => {
      const gptOss = await relpos('render', 'gpt-oss-20b', '--view', 'weights', '--n', '4', '--out', `${outDir}x.json`);
      expect(gptOss.code).toBe(2);
      expect(gptOss.stderr).toMatch(/needs sinks \(gpt-oss's learned per-head sink logits.*--input sinks=/);
      const t5 = await relpos('render', 't5-base', '--view', 'weights', '--n', '4', '--out', `${outDir}x.json`);
      expect(t5.code).toBe(2);
      expect(t5.stderr).toMatch(/needs table .*--param table=/);
    });

    it('refuses what contradicts the layer: --d, a --causal encoder, --heads of another count (exit 2)', async () => {
      const out = ['--view', 'weights', '--n', '4', '--out', `${outDir}x.json`];
      expect((await relpos('render', 'llama-2-7b', '--d', '64', ...out)).stderr).toMatch(
        /--d: the layer sets the head width \(128\)/,
      );
      const t5 = await relpos('render', 't5-base', '--causal', '--param', 'table=[[1]]', ...out);
      expect(t5.code).toBe(2);
      expect(t5.stderr).toMatch(/causal is set by the layer \(false\)/);
      const heads = await relpos('render', 'llama-2-7b', '--heads', '8', ...out);
      expect(heads.code).toBe(2);
      expect(heads.stderr).toMatch(/heads is set by the layer \(32\)/);
      const input = await relpos('render', 'alibi', '--input', 'sinks=[1]', ...out);
      expect(input.code).toBe(2);
    });
  },
);
