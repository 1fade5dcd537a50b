// Seeded inputs of the chapter's demos (random queries, keys, learned-style embeddings, noise): the
// same seed gives the same numbers on the page and in the claim checks. No DOM.

/** Seeded PRNG (mulberry32) with normal deviates (Box-Muller). */
export function randomNormal(count, seed = 1) {
  let a = seed >>> 0;
  const uniform = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = a;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
  const out = new Float32Array(count);
  for (let k = 0; k < count; k++) {
    const u = Math.max(uniform(), 1e-12);
    out[k] = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * uniform());
  }
  return out;
}

/** A seeded random [rows, cols] tensor with entries ~ N(0, scale²). */
export function randomTensor(rows, cols, seed, scale = 1) {
  const data = randomNormal(rows * cols, seed);
  if (scale !== 1) for (let k = 0; k < data.length; k++) data[k] *= scale;
  return { shape: [rows, cols], data };
}
