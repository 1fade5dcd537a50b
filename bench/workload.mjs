// The attention workload every bench times, in Node (bench/attention.mjs, bench/pool.mjs) and in
// Chromium (bench/browser-page.mjs): q and k of width D from a 32-bit LCG seeded with n, and an
// ALiBi-like bias B[i, j] = −|j − i| / 16 (one head, alibiBiasMax 4: slope 2^-4).
export const D = 64;
export const SLOPE = 1 / 16;

/** Uniform numbers in [-1, 1) from a 32-bit LCG. */
export function seeded(seed) {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32) * 2 - 1;
}

/** { q, k } [n, D] and B [n, n] for one size. */
export function workload(n) {
  const random = seeded(n);
  const q = Float32Array.from({ length: n * D }, random);
  const k = Float32Array.from({ length: n * D }, random);
  const b = new Float32Array(n * n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) b[i * n + j] = -Math.abs(j - i) * SLOPE;
  return { q, k, b };
}

/**
 * Largest deviation of each contender's weights from the float64 softmax(q·kᵀ/√D + B) over the query
 * rows `rows`; `rowOf(i, index)` gives the contender's row i (index: its place in `rows`).
 */
export function deviation(n, { q, k, b }, rows, rowOf) {
  let worst = 0;
  for (const [index, i] of rows.entries()) {
    const logits = new Float64Array(n);
    for (let j = 0; j < n; j++) {
      let s = 0;
      for (let c = 0; c < D; c++) s += q[i * D + c] * k[j * D + c];
      logits[j] = s / Math.sqrt(D) + b[i * n + j];
    }
    const top = Math.max(...logits);
    let sum = 0;
    for (let j = 0; j < n; j++) sum += Math.exp(logits[j] - top);
    const row = rowOf(i, index);
    for (let j = 0; j < n; j++) worst = Math.max(worst, Math.abs(row[j] - Math.exp(logits[j] - top) / sum));
  }
  return worst;
}

/**
 * The order of one round of timed calls: a fresh permutation of `slots` each round, from `random`
 * (seeded(), so a run repeats). A cyclic rotation kept every contender behind the same neighbour in
 * every round, and what that neighbour left behind was charged to it every time: in Chromium, the
 * call after the fresh-array probe paid for releasing the probe's 64 MB at n = 4096 (200–490 ms
 * where the other copied results took 140–180).
 */
export function roundOrder(slots, random) {
  const order = [...slots];
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(((random() + 1) / 2) * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order;
}

/**
 * How many iterations of a peak probe (`probe(iterations)`) take about 5 ms here, from five trial
 * calls; `clockStepMs` is the timer's step (0.1 ms in a page that is not cross-origin isolated).
 */
export function probeIterations(probe, clockStepMs) {
  let iterations = 1e5;
  for (let t = 0; t < 5; t++) {
    const s = performance.now();
    probe(iterations);
    iterations = Math.max(1e4, Math.round((iterations * 5) / Math.max(clockStepMs, performance.now() - s)));
  }
  return iterations;
}
