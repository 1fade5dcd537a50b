// Deterministic inputs for the KV cache's tests (kv-cache-*.test.js) and its benchmark
// (bench/decode.mjs, also in Chromium): plain JS, no Node modules, so a bench page can import it.

/** `count` float32 values in [-1, 1) from `seed` (mulberry32). */
export function values(count, seed) {
  let a = seed >>> 0;
  const out = new Float32Array(count);
  for (let i = 0; i < count; i++) {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    out[i] = (((t ^ (t >>> 14)) >>> 0) / 2 ** 31 - 1) * 2;
  }
  return out;
}

/** A [count, width] tensor of values(count · width, seed). */
export const rows = (count, width, seed) => ({ shape: [count, width], data: values(count * width, seed) });
