// Reference fixtures (tests/fixtures/reference): values computed by running the peers' own functions
// (Hugging Face transformers, x-transformers, rotary-embedding-torch), committed as data with their
// provenance (docs/reference-fixtures.md). This file checks that every fixture is well-formed and, for
// each case the public API expresses today (index.json: api "current"), that relpos reproduces it.
// Cases marked "pending" are the work list for the features the API lacks; they are not run here.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { load } from '../../bindings/index.js';
import { compare } from './golden.js';

const rp = await load();
const referenceDir = new URL('../fixtures/reference/', import.meta.url);
const repoRoot = new URL('../../', import.meta.url);
const readJson = (url) => JSON.parse(readFileSync(url, 'utf8'));

const index = readJson(new URL('index.json', referenceDir));
const cases = index.cases.map((entry) => ({ entry, fixture: readJson(new URL(entry.file, referenceDir)) }));
const KINDS = ['frequencies', 'rotate', 'bias', 'buckets', 'attention', 'scalar'];
const STATUSES = ['current', 'pending', 'reference-only'];
const MAX_BYTES = 64 * 1024;

// {shape, data} objects in a fixture's options become tensors; everything else passes as given.
// Keeps any other field of the tensor object (an attention mask's `kind`).
function asTensor(value) {
  return { ...value, data: Float32Array.from(value.data) };
}
function apiOptions(options) {
  const out = {};
  for (const [name, value] of Object.entries(options)) {
    const isTensor = value && typeof value === 'object' && Array.isArray(value.shape) && Array.isArray(value.data);
    out[name] = isTensor ? asTensor(value) : value;
  }
  return out;
}

function expectClose(got, want, tol, what) {
  const result = compare(Array.from(got), want, tol);
  expect(result.ok, `${what}: ${result.reason}`).toBe(true);
}

// The reference's values in relpos's column order: out[c] = reference[permutation[c]] within each head.
function permuteColumns(values, shape, heads, permutation) {
  if (!permutation) return values;
  const [n, width] = shape;
  const d = width / heads;
  const out = new Array(values.length);
  for (let i = 0; i < n; i++) {
    for (let h = 0; h < heads; h++) {
      for (let c = 0; c < d; c++) out[i * width + h * d + c] = values[i * width + h * d + permutation[c]];
    }
  }
  return out;
}

const check = {
  frequencies({ relpos, expected, tol }) {
    const { invFreq, attentionFactor } = rp.frequencies(relpos.scheme, apiOptions(relpos.options));
    expectClose(invFreq, expected.invFreq, tol.invFreq, 'invFreq');
    expectClose([attentionFactor], [expected.attentionFactor], tol.attentionFactor, 'attentionFactor');
  },
  rotate({ relpos, expected, tol }) {
    // One call over every head of x [n, heads·headDim]; `steps` rotate one slice after another
    // (rotary-embedding-torch's axial frequencies: the row coordinate, then the column coordinate).
    const steps = relpos.steps ?? [apiOptions(relpos.options)];
    let got = asTensor(relpos.x);
    for (const step of steps) {
      got = rp.rotate(got, { scheme: relpos.scheme, heads: relpos.heads ?? 1, ...apiOptions(step) });
    }
    expect(got.shape).toEqual(relpos.x.shape);
    const want = permuteColumns(expected.data, expected.shape, relpos.heads ?? 1, relpos.outputPermutation);
    expectClose(got.data, want, tol, 'rotated rows');
  },
  bias({ relpos, expected, tol }) {
    const bias = rp.bias(relpos.scheme, apiOptions(relpos.options));
    expect(bias.shape).toEqual(expected.shape);
    expectClose(bias.data, expected.data, tol, 'bias');
  },
  buckets({ relpos, expected, knownDifferences = [] }) {
    const buckets = rp.buckets(relpos.scheme, apiOptions(relpos.options));
    expect(buckets.shape).toEqual(expected.shape);
    const want = expected.data.slice();
    // Where relpos deliberately differs (exact arithmetic at float32 ties), it must give its own value.
    for (const { index, relpos: value } of knownDifferences) want[index] = value;
    expect(Array.from(buckets.data)).toEqual(want);
  },
  // A number the library reports: here a fact of rp.fromConfig's reading (DeepSeek-V3's softmax scale).
  scalar({ relpos, expected, tol, config }) {
    const reading = rp.fromConfig(readJson(new URL(config, repoRoot)));
    const value = relpos.field.reduce((at, key) => at[key], reading);
    expectClose([value], [expected.scale], tol, relpos.field.join('.'));
  },
  attention({ relpos, expected, tol, knownDifferences = [] }) {
    const result = rp.attention(apiOptions(relpos.options));
    expect(Object.keys(result).sort()).toEqual([...relpos.return].sort());
    // Query rows where relpos deliberately differs (every key masked): zeros in every head.
    const zeroRows = new Set(knownDifferences.flatMap((k) => k.queryRows ?? []));
    for (const part of relpos.return) {
      const { shape, data } = expected[part];
      expect(result[part].shape, part).toEqual(shape);
      // Both results end in [n, columns]: weights [..., n, m], output [..., n, heads·dv].
      const [n, columns] = shape.slice(-2);
      const want = data.map((value, t) => (zeroRows.has(Math.floor(t / columns) % n) ? 0 : value));
      if (zeroRows.size) expect(want).not.toEqual(data); // the difference is real
      expectClose(result[part].data, want, tol, part);
    }
  },
};

describe('reference fixtures: files', () => {
  it('index.json lists every fixture file once, with the id, family, kind and status the file states', () => {
    const files = readdirSync(referenceDir).filter((f) => f.endsWith('.json') && f !== 'index.json');
    expect(index.cases.map((c) => c.file).sort()).toEqual(files.sort());
    expect(new Set(index.cases.map((c) => c.id)).size).toBe(index.cases.length);
    for (const { entry, fixture } of cases) {
      expect({ id: fixture.id, family: fixture.family, kind: fixture.kind, api: fixture.api }, entry.file).toEqual({
        id: entry.id,
        family: entry.family,
        kind: entry.kind,
        api: entry.api,
      });
      expect(entry.pending, entry.file).toBe(fixture.pending);
      expect(entry.fromConfig, entry.file).toBe(fixture.fromConfig);
    }
  });

  it('every fixture names its source (repository, path, 40-hex commit, function), a tolerance and expected values', () => {
    for (const { entry, fixture } of cases) {
      const { source } = fixture;
      expect(source.repository, entry.file).toMatch(/^[\w.-]+\/[\w.-]+$/);
      expect(source.path, entry.file).toMatch(/\.py$/);
      expect(source.commit, entry.file).toMatch(/^[0-9a-f]{40}$/);
      expect(source.function.length, entry.file).toBeGreaterThan(0);
      expect(KINDS, entry.file).toContain(fixture.kind);
      expect(STATUSES, entry.file).toContain(fixture.api);
      expect(fixture.tol, entry.file).toBeTypeOf('object');
      expect(fixture.expected, entry.file).toBeTypeOf('object');
      expect(fixture.title.length, entry.file).toBeGreaterThan(0);
      if (fixture.api === 'pending') expect(fixture.pending, entry.file).toMatch(/^(bug|gap): /);
      if (fixture.api === 'current') expect(fixture.relpos.call, entry.file).toBe(fixture.kind);
      if (fixture.relpos?.scheme) {
        expect(
          rp.schemes.map((s) => s.id),
          entry.file,
        ).toContain(fixture.relpos.scheme);
      }
    }
  });

  it('fixture files stay small (at most 64 KiB each, far below the 1 MiB limit)', () => {
    for (const { entry } of cases) {
      expect(statSync(new URL(entry.file, referenceDir)).size, entry.file).toBeLessThan(MAX_BYTES);
    }
  });

  it('every config a fixture reads exists and has a provenance line in tests/fixtures/configs/SOURCES.md', () => {
    const sources = readFileSync(new URL('tests/fixtures/configs/SOURCES.md', repoRoot), 'utf8');
    for (const { entry, fixture } of cases) {
      if (!fixture.config) continue;
      expect(readJson(new URL(fixture.config, repoRoot)), entry.file).toBeTypeOf('object');
      expect(sources, entry.file).toContain(`\`${fixture.config.split('/').pop()}\``);
    }
  });

  it('the pending lists are the work list: each pending case or config reading says what is missing', () => {
    // Every case runs today (the list may be empty); a case marked pending must say why.
    const pending = index.cases.filter((c) => c.api === 'pending');
    for (const c of pending) expect(c.pending).toMatch(/^(bug|gap): .{20,}/);
    for (const c of index.cases.filter((e) => e.fromConfig === 'pending')) {
      expect(c.fromConfigPending, c.file).toMatch(/^(bug|gap): .{20,}/);
    }
  });
});

// The numbers docs/reference-fixtures.md quotes for each disagreement, read back from the data.
describe('reference fixtures: the disagreements docs/reference-fixtures.md states are in the data', () => {
  const byId = (id) => cases.find((c) => c.entry.id === id).fixture;
  const mscale = (s, m) => (s <= 1 ? 1 : 0.1 * m * Math.log(s) + 1);

  it('YaRN: late v4 drops the configured factor (attention 1, plain RoPE); v5 keeps it; v4.4x ignores the mscale pair', () => {
    const v5 = byId('yarn-versions_v5').expected;
    const lateV4 = byId('yarn-versions_late-v4').expected;
    expect(v5.attentionFactor).toBeCloseTo(mscale(4, 1), 12);
    expect(lateV4.attentionFactor).toBe(1);
    expect(lateV4.invFreq).toEqual(byId('qwen3-8b_frequencies').expected.invFreq); // θ 1e6, d 128, unscaled
    const v447 = byId('yarn-versions_v4.47-deepseek-v3').expected;
    const dsv3 = byId('deepseek-v3_frequencies').expected;
    expect(v447.attentionFactor).toBeCloseTo(1.3688879, 7);
    expect(dsv3.attentionFactor).toBe(1);
    expect(v447.invFreq[11]).toBeCloseTo(0.0421696, 7);
    expect(dsv3.invFreq[11]).toBeCloseTo(0.0390069, 7);
  });

  it('YaRN mscale_all_dim 0 counts as unset: attention factor mscale(40, 1) = 1.3688879', () => {
    expect(byId('yarn-mscale-all-dim-zero_frequencies').expected.attentionFactor).toBeCloseTo(mscale(40, 1), 12);
    expect(mscale(40, 1)).toBeCloseTo(1.3688879, 7);
  });

  it('llama3 with low == high is a hard step: each pair keeps θ or takes θ/16', () => {
    const scout = byId('llama4-scout_frequencies').expected.invFreq;
    const plain = Array.from({ length: 64 }, (_, k) => 1 / 500000 ** ((2 * k) / 128));
    for (let k = 0; k < 64; k++) {
      const long = (2 * Math.PI) / plain[k] > 8192;
      expect(scout[k] / (long ? plain[k] / 16 : plain[k])).toBeCloseTo(1, 5);
    }
  });

  it('LongRoPE: the given attention_factor 0.5 replaces the derived sqrt(1 + ln 10 / ln 2048) = 1.14105', () => {
    expect(byId('longrope-attention-factor_frequencies').expected.attentionFactor).toBe(0.5);
    expect(Math.sqrt(1 + Math.log(10) / Math.log(2048))).toBeCloseTo(1.14105, 5);
    expect(byId('phi-4-mini_frequencies-long').expected.attentionFactor).toBeCloseTo(
      Math.sqrt(1 + Math.log(32) / Math.log(4096)),
      12,
    );
  });

  it('DeepSeek-V3 softmax scale is 192^-1/2 · mscale(40, 1)^2 = 0.135234', () => {
    expect(byId('deepseek-v3_softmax-scale').expected.scale).toBeCloseTo(192 ** -0.5 * mscale(40, 1) ** 2, 12);
    expect(byId('deepseek-v3_softmax-scale').expected.scale).toBeCloseTo(0.135234, 6);
  });

  it('T5 36/50: the float32 reference gives bucket 26 at r = −30 in 10 entries, where exact arithmetic gives 27', () => {
    const tie = byId('t5_buckets-tie-uni-36-50');
    expect(tie.knownDifferences).toHaveLength(10);
    for (const d of tie.knownDifferences) {
      expect([tie.expected.data[d.index], d.relpos]).toEqual([26, 27]);
      const [i, j] = [Math.floor(d.index / 40), d.index % 40];
      expect(j - i).toBe(-30);
    }
  });

  it('a fully masked query row gets uniform weights in the reference (finfo.min, not −∞)', () => {
    const { weights } = byId('attention_fully-masked-row').expected;
    const [heads, n, m] = weights.shape;
    for (let h = 0; h < heads; h++) {
      const row = weights.data.slice((h * n + 1) * m, (h * n + 2) * m);
      for (const w of row) expect(w).toBeCloseTo(1 / m, 12);
    }
  });

  it('sliding window 3: query i attends to keys i − 2 … i (Hugging Face masking_utils)', () => {
    const { weights } = byId('attention_sliding-window').expected;
    const [, n, m] = weights.shape;
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < m; j++) expect(weights.data[i * m + j] > 0, `${i},${j}`).toBe(j <= i && j > i - 3);
    }
  });
});

describe("reference fixtures: rp.fromConfig reads the committed configs into the fixtures' parameters", () => {
  // A frequencies fixture that names a config states the reading expected of it: its relpos scheme and
  // options (seqLen is a call-time choice, not part of a config).
  // A case that names a layer type (Gemma-3's global and sliding-window layers) is that layer group.
  for (const { entry, fixture } of cases.filter((c) => c.entry.fromConfig === 'current')) {
    it(`${fixture.config.split('/').pop()} → ${fixture.relpos.scheme} (${entry.id})`, () => {
      const reading = rp.fromConfig(readJson(new URL(fixture.config, repoRoot)));
      const layerType = fixture.upstream.layerType;
      const group = layerType ? reading.groups.find((g) => g.layerType === layerType) : reading;
      expect(group.scheme).toBe(fixture.relpos.scheme);
      const want = { ...fixture.relpos.options };
      delete want.seqLen;
      expect(group.params).toMatchObject(want);
      expect(reading.warnings).toEqual([]);
    });
  }
});

describe('reference fixtures: relpos reproduces the peers (cases the API expresses today)', () => {
  for (const { entry, fixture } of cases.filter((c) => c.entry.api === 'current')) {
    it(`${entry.id} (${fixture.source.repository} ${fixture.source.function.split(' ')[0]})`, () => {
      check[fixture.kind](fixture);
    });
  }
});
