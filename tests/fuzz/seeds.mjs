// Writes the fuzz targets' seed corpora (scripts/fuzz.sh calls it): the golden cases
// (tests/fixtures/golden) converted into the targets' JSON input format (fuzz_common.hpp), a few
// analysis calls, and the real config.json files (tests/fixtures/configs).
// Usage: node tests/fuzz/seeds.mjs <outDir>   → <outDir>/{schemes,attention,analysis,config}/
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const out = process.argv[2] ?? `${root}build/fuzz/seeds`;
const targets = ['schemes', 'attention', 'analysis', 'config'];
for (const t of targets) mkdirSync(`${out}/${t}`, { recursive: true });

const OPS = {
  encoding: 'encoding',
  bias: 'bias',
  bucket: 'buckets',
  scores: 'scores',
  inv_freq: 'frequencies',
  attention_factor: 'frequencies',
  rotate: 'rotate',
};

// Arrays named in `shapes` become { shape, data }; FIRE's per-head MLP list becomes [heads, 3h+1].
function toParams(params) {
  const { shapes = {}, return: _unused, ...rest } = params;
  const outParams = {};
  for (const [name, value] of Object.entries(rest)) {
    if (shapes[name]) outParams[name] = { shape: shapes[name], data: value };
    else if (name === 'mlp' && Array.isArray(value)) {
      const hidden = value[0].w1.length;
      outParams[name] = {
        shape: [value.length, 3 * hidden + 1],
        data: value.flatMap((h) => [...h.w1, ...h.b1, ...h.w2, h.b2]),
      };
    } else if (name === 'params' && value && typeof value === 'object') Object.assign(outParams, value);
    else outParams[name] = value;
  }
  return outParams;
}

const goldenDir = `${root}tests/fixtures/golden/`;
let count = 0;
for (const file of readdirSync(goldenDir)
  .filter((f) => f.endsWith('.json'))
  .sort()) {
  const c = JSON.parse(readFileSync(goldenDir + file, 'utf8'));
  const name = file.replace(/\.json$/, '');
  if (c.kind === 'attention_weights') {
    const params = toParams(c.params);
    const id = params.scheme;
    delete params.scheme;
    params.mode ??= c.scheme.replace(/^attention-/, '');
    writeFileSync(`${out}/attention/${name}.json`, JSON.stringify(id ? { id, params } : { params }));
  } else if (OPS[c.kind]) {
    writeFileSync(
      `${out}/schemes/${name}.json`,
      JSON.stringify({ op: OPS[c.kind], id: c.scheme, params: toParams(c.params) }),
    );
  }
  count++;
}

// One seed per analysis (the shapes the chapter uses, small).
const M = { shape: [3, 3], data: [2, 1, 0, 1, 3, 1, 0, 1, 4] };
const W = { shape: [2, 3], data: [0.2, 0.3, 0.5, 1, 0, 0] };
const analyses = [
  ['translationDefect', { S: { shape: [3, 3], data: [0, 1, 2, 1, 0, 1, 2, 1, 0] } }],
  ['svd', { M, vectors: true }],
  ['eig', { M, vectors: true }],
  ['distances', { E: { shape: [3, 2], data: [0, 0, 1, 0, 0, 1] }, metric: 'cosine' }],
  ['project2d', { E: { shape: [3, 2], data: [0, 0, 1, 0, 0, 1] } }],
  ['entropy', { W }],
  ['distanceEntropy', { W: { shape: [2, 2], data: [0.5, 0.5, 1, 0] } }],
  ['kernelCheck', { profile: 'exp-decay', lambda: 0.5, n: 8 }],
  ['kernelCheck', { profile: 'alibi', n: 6 }],
  ['kernelCheck', { values: [0.5, 1, 0.5], n: 2 }],
  ['gpSample', { profile: 'gaussian', sigma: 2, n: 8, count: 2, seed: 3 }],
  ['derivative', { profile: 'sin', alpha: 4, n: 6 }],
  ['decayBound', { d: 16, base: 10000, maxDistance: 64 }],
  ['precision', { d: 16, base: 10000, positions: [0, 100, 4096], dtype: 'bfloat16', perPair: true }],
  ['angleCoverage', { d: 16, base: 10000, trainLength: 512, scheme: 'rope-yarn', factor: 4 }],
  ['scaledCosine', { d: 16, n: 32, scheme: 'rope-linear', factor: 2 }],
  ['peBound', { d: 16, n: 64 }],
];
analyses.forEach(([name, params], i) =>
  writeFileSync(`${out}/analysis/${String(i).padStart(2, '0')}_${name}.json`, JSON.stringify({ name, params })),
);

const configDir = `${root}tests/fixtures/configs/`;
for (const file of readdirSync(configDir).filter((f) => f.endsWith('.json'))) {
  copyFileSync(configDir + file, `${out}/config/${file}`);
}
writeFileSync(
  `${out}/config/proto.json`,
  '{"__proto__":{"polluted":1},"rope_theta":10000,"hidden_size":64,"num_attention_heads":4}',
);

console.log(`fuzz seeds: ${count} golden cases, ${analyses.length} analyses, configs → ${out}`);
