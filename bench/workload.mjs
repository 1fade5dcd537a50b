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
