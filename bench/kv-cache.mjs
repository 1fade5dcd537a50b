// A decode step against a resident KV cache (rp.kvCache, docs/api.md): 4 new queries attend to
// 8,192 cached keys (8 heads over 2 KV heads, d = 64, causal), side by side with the same step as
// one rp.attention call that hands over all of k and v again. Target: a cached step
// (append 4 rows + attention) ≤ 5 ms. Printed by `npm run bench`; medians of one run.
import { load } from '../bindings/index.js';

const rp = (await load()).unbounded();
const [m, n, heads, kvHeads, d] = [8192, 4, 8, 2, 64];
const TARGET_MS = 5;
const rows = (count, width, seed) => ({
  shape: [count, width],
  data: Float32Array.from({ length: count * width }, (_, i) => Math.sin(seed * (i + 1))),
});
const k = rows(m, kvHeads * d, 1);
const v = rows(m, kvHeads * d, 2);
const q = rows(n, heads * d, 3);
const newK = rows(n, kvHeads * d, 4);
const newV = rows(n, kvHeads * d, 5);

function median(run, repeats = 31) {
  const times = [];
  for (let r = 0; r < repeats; r++) {
    const t0 = performance.now();
    run();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return times[repeats >> 1];
}

// Multiply-adds of one step: q·k and w·v over every cached key, for every head.
const flops = 2 * 2 * heads * n * m * d;
const gfs = (ms) => (flops / (ms * 1e6)).toFixed(1);

const lines = [];
for (const [label, options] of [
  ['weights and output', {}],
  ['output only', { weights: false }],
  ['RoPE, output only', { scheme: 'rope', weights: false }],
]) {
  // One cache, as a decode loop keeps it: each step appends the new tokens' rows (amortised
  // growth, as a std::vector's) and attends to every cached key (8,192 + 4 · step).
  const cache = rp.kvCache({ heads, kvHeads, d });
  cache.append(k, v);
  cache.append(newK, newV); // the first growth past the exact 8,192 rows, outside the timing
  const base = m;
  const cached = median(() => {
    cache.append(newK, newV);
    cache.attention(q, { causal: true, ...options });
  });
  cache.free();
  const fullK = { shape: [base + n, kvHeads * d], data: new Float32Array((base + n) * kvHeads * d) };
  fullK.data.set(k.data);
  fullK.data.set(newK.data, k.data.length);
  const fullV = { shape: [base + n, kvHeads * d], data: new Float32Array((base + n) * kvHeads * d) };
  fullV.data.set(v.data);
  fullV.data.set(newV.data, v.data.length);
  const copied = median(() => rp.attention({ q, k: fullK, v: fullV, heads, kvHeads, causal: true, ...options }));
  lines.push(
    `| ${label} | ${cached.toFixed(2)} (${gfs(cached)} GF/s) | ${copied.toFixed(2)} (${gfs(copied)} GF/s) | ${(copied / cached).toFixed(1)}× | ${cached <= TARGET_MS ? 'met' : 'missed'} |`,
  );
}
console.log(
  `\nKV-cache decode step: ${n} queries, ${m} cached keys, ${heads} heads / ${kvHeads} KV heads, d = ${d}, causal (median ms)`,
);
console.log(
  `| step | rp.kvCache (append + attention) | rp.attention, k and v handed over | ratio | target ≤ ${TARGET_MS} ms |`,
);
console.log('| --- | --- | --- | --- | --- |');
for (const line of lines) console.log(line);
