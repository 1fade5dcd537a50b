// Writes the fuzz targets' seed corpora (scripts/fuzz.sh calls it): the golden cases
// (tests/fixtures/golden) converted into the targets' JSON input format (fuzz_common.hpp), a few
// analysis calls, the real config.json files (tests/fixtures/configs), and small attention-map and
// training jobs with their step budgets (fuzz_targets.hpp, runMaps / runLab).
// Usage: node tests/fuzz/seeds.mjs <outDir>   → <outDir>/{schemes,attention,analysis,config,maps,lab}/
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const out = process.argv[2] ?? `${root}build/fuzz/seeds`;
const targets = ['schemes', 'attention', 'analysis', 'config', 'maps', 'lab'];
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
    // The same call with its tensors read in place, as rp.alloc hands them over (fuzz_targets.hpp).
    const borrowed = ['q', 'k', 'v', 'B', 'P'].filter((t) => t in params);
    writeFileSync(
      `${out}/attention/${name}-borrowed.json`,
      JSON.stringify({ ...(id ? { id } : {}), params, borrowed }),
    );
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

// Attention maps: position-only (profile and streamed), with content (seed, q / k), pooled by max
// and mean, whole or a range of map rows, run to the end and cancelled midway.
const wave = (rows, cols, phase) => ({
  shape: [rows, cols],
  data: Array.from({ length: rows * cols }, (_, i) => Math.round(Math.sin(i + phase) * 1000) / 1000),
});
const maps = [
  [{ n: 64, scheme: 'alibi', heads: 2, size: 16 }, [1, 4]],
  [{ n: 200, scheme: 'alibi', heads: 4, head: 3, size: 32, causal: true, pool: 'mean' }, [7]],
  [{ n: 96, scheme: 'rope', d: 16, size: 24 }, [2, 50]],
  [{ n: 80, scheme: 'rope-yarn', d: 8, factor: 4, seed: 3, size: 16, causal: true }, [1, 2, 3]],
  [{ n: 48, scheme: 't5', heads: 2, size: 12 }, [5]],
  [{ n: 48, scheme: 'fire', heads: 2, size: 8 }, [1]],
  [{ n: 40, scheme: 'sinusoidal', d: 8, size: 8 }, [3]],
  [{ n: 32, scheme: 'kerple-log', r1: 1, r2: 2, size: 8, pool: 'mean' }, [1]],
  [{ n: 36, scheme: 'rope-2d', d: 8, width: 6, size: 6 }, [2]],
  [{ n: 16, d: 4, q: wave(16, 4, 0), k: wave(16, 4, 1), size: 4 }, [1]],
  [{ n: 24, scheme: 'nope', seed: 1, size: 8 }, [4], 1],
  [{ n: 128, scheme: 'xpos', d: 8, size: 16 }, [1], 2],
  [{ n: 100, scheme: 'alibi', size: 10, mapRows: [3, 7] }, [2]],
  [{ n: 90, scheme: 'rope', d: 8, seed: 5, size: 9, mapRows: [0, 4] }, [1, 3]],
];
maps.forEach(([params, budgets, cancelAfter], i) =>
  writeFileSync(
    `${out}/maps/${String(i).padStart(2, '0')}_${params.scheme ?? 'content'}.json`,
    JSON.stringify(cancelAfter === undefined ? { params, budgets } : { params, budgets, cancelAfter }),
  ),
);

// Training jobs: every lab scheme family and mode, tiny sizes, a few steps; some cancelled.
const small = { length: 4, dModel: 8, dFF: 8, batch: 2, steps: 3, evalSequences: 1, heads: 2 };
const lab = [
  [{ scheme: 'rope', task: 'copy' }, [1]],
  [{ scheme: 'alibi', mode: 'explicit', layers: 2 }, [2]],
  [{ scheme: 't5', schedule: 'linear', warmup: 1 }, [1, 5]],
  [{ scheme: 'sinusoidal', mode: 'input' }, [3]],
  [{ scheme: 'fire' }, [1], 2],
  [{ scheme: 'nope', normalisation: false }, [4]],
  [{ scheme: 'kerple-log', lr: 0.1, clip: 0 }, [1]],
  [{ scheme: 'alibi', mode: 'mixed', alpha: 0.5, beta: 2, weightDecay: 0.1 }, [2], 1],
  [{ scheme: 't5', task: 'addition', length: 8, trainLengths: 'upTo', evalUpTo: 14 }, [1, 3]],
  [{ scheme: 'rope', task: 'duplicate', trainLengths: 'upTo', evalUpTo: 9 }, [2], 1],
];
lab.forEach(([params, budgets, cancelAfter], i) =>
  writeFileSync(
    `${out}/lab/${String(i).padStart(2, '0')}_${params.scheme}.json`,
    JSON.stringify({ params: { ...small, ...params }, budgets, ...(cancelAfter === undefined ? {} : { cancelAfter }) }),
  ),
);

console.log(
  `fuzz seeds: ${count} golden cases, ${analyses.length} analyses, configs, ${maps.length} maps, ${lab.length} lab jobs → ${out}`,
);
