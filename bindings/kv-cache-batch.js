// rp.kvCache({ batch }) (docs/api.md, "rp.kvCache"): several sequences with their own lengths and
// left padding, handed over in Hugging Face's cache layout ([batch, kvHeads, rows, d]), one call a
// step for the whole batch. Each sequence is a cache of its own (kv-cache.js) holding only its real
// tokens at positions 0 … length − 1, so each sequence's result is, bit for bit, that of running it
// alone. A step is one core call for the batch (relpos::attentionBatch): the options read once, the
// sequences' query rows handed over together, no kernel spanning two sequences.
import { toTensor } from './convert.js';

// [batch, heads, rows, width] → one [rows, heads·width] tensor per sequence, rows `from` … rows − 1.
function sequenceRows(tensor, b, from) {
  const [, heads, rows, width] = tensor.shape;
  const count = rows - from;
  const data = new Float32Array(count * heads * width);
  for (let h = 0; h < heads; h++) {
    for (let i = 0; i < count; i++) {
      const at = ((b * heads + h) * rows + from + i) * width;
      data.set(tensor.data.subarray(at, at + width), (i * heads + h) * width);
    }
  }
  return { shape: [count, heads * width], data };
}

// The left padding of each sequence in a [batch, rows] 0/1 mask (Hugging Face's attention_mask of
// these tokens): how many leading rows are padding. A pad after a real token is refused.
function leadingPads(where, mask, batch, rows, started) {
  if (mask === undefined) return new Array(batch).fill(0);
  const m = toTensor(where, 'mask', mask);
  if (m.shape.length !== 2 || m.shape[0] !== batch || m.shape[1] !== rows) {
    throw new RangeError(`${where}: mask must be [batch, rows] = [${batch}, ${rows}], got [${m.shape.join(', ')}]`);
  }
  const pads = [];
  for (let b = 0; b < batch; b++) {
    let count = 0;
    while (count < rows && m.data[b * rows + count] === 0) count++;
    for (let i = count; i < rows; i++) {
      if (m.data[b * rows + i] !== 1) {
        throw new RangeError(
          `${where}: mask row ${b} must be left padding (0s, then 1s), got ${m.data[b * rows + i]} at ${i} after a real token`,
        );
      }
    }
    if (count > 0 && started[b]) {
      throw new RangeError(
        `${where}: sequence ${b} already holds tokens; padding comes before a sequence's first token (left padding)`,
      );
    }
    pads.push(count);
  }
  return pads;
}

// A 4-D tensor [batch, heads, rows, width] with the given batch and heads (and width when given).
function read4(where, name, value, batch, heads, width) {
  const t = toTensor(where, name, value);
  const [b, h, , w] = t.shape;
  if (t.shape.length !== 4 || b !== batch || h !== heads || (width !== undefined && w !== width)) {
    throw new TypeError(
      `${where}: ${name} must be [batch, ${name === 'q' ? 'heads' : 'kvHeads'}, rows, ${name === 'v' ? 'dv' : 'd'}] = [${batch}, ${heads}, rows, ${width ?? 'd'}] (Hugging Face's layout), got [${t.shape.join(', ')}]`,
    );
  }
  return t;
}

// The real query rows of the sequences in `active`, one sequence after another: q [Σ rows, heads·d]
// and each sequence's count of them.
function realQueries(queries, active, pads) {
  const [, heads, n, d] = queries.shape;
  const rows = active.map((b) => n - pads[b]);
  const total = rows.reduce((a, r) => a + r, 0);
  const data = new Float32Array(total * heads * d);
  let first = 0;
  active.forEach((b, s) => {
    data.set(sequenceRows(queries, b, pads[b]).data, first * heads * d);
    first += rows[s];
  });
  return { rows, q: { shape: [total, heads * d], data } };
}

// The batched step's result [Σ rows, heads·dv] into output [batch, heads, n, dv], after each
// sequence's padding.
function placeRows(result, active, rows, pads, output, n, dv) {
  const heads = output.length / (pads.length * n * dv);
  let first = 0; // the sequence's first row in the result
  active.forEach((b, s) => {
    for (let i = 0; i < rows[s]; i++) {
      for (let h = 0; h < heads; h++) {
        const from = ((first + i) * heads + h) * dv;
        output.set(result.subarray(from, from + dv), ((b * heads + h) * n + pads[b] + i) * dv);
      }
    }
    first += rows[s];
  });
}

/**
 * A batched cache of `batch` sequences, each made by `single()` (createKvCache with the same shape);
 * `step(caches, rows, q, options)` runs several of them in one core call, q holding rows[s] query rows
 * of caches[s] one sequence after another ([Σ rows, heads·d]), and returns rp.attention's result.
 */
export function createBatchedKvCache(batch, shape, single, step) {
  const where = 'relpos.kvCache';
  if (!Number.isInteger(batch) || batch < 1 || batch > 4096) {
    throw new RangeError(`${where}: batch must be an integer in [1, 4096], got ${batch}`);
  }
  const { heads, kvHeads, d, dv } = shape;
  const caches = Array.from({ length: batch }, single);
  let lastPads = null; // each sequence's padding in the last append
  let lastRows = 0;
  return {
    get lengths() {
      return caches.map((c) => c.length);
    },
    append(k, v, mask) {
      const at = `${where}.append`;
      const keys = read4(at, 'k', k, batch, kvHeads, d);
      const values = read4(at, 'v', v, batch, kvHeads, dv);
      const rows = keys.shape[2];
      if (values.shape[2] !== rows) {
        throw new RangeError(`${at}: k and v must hold the same rows, got ${rows} and ${values.shape[2]}`);
      }
      const pads = leadingPads(
        at,
        mask,
        batch,
        rows,
        caches.map((c) => c.length > 0),
      );
      caches.forEach((c, b) => {
        if (pads[b] < rows) c.append(sequenceRows(keys, b, pads[b]), sequenceRows(values, b, pads[b]));
      });
      lastPads = pads;
      lastRows = rows;
      return caches.map((c) => c.length);
    },
    attention(q, options = {}) {
      const at = `${where}.attention`;
      for (const name of ['mask', 'positions', 'keyPositions', 'queryOffset', 'out', 'view']) {
        if (options[name] !== undefined || options.params?.[name] !== undefined) {
          throw new RangeError(
            `${at}: ${name} is not taken by a batched cache (its padding comes from append's mask; each sequence's queries are its last tokens)`,
          );
        }
      }
      if (options.weights !== undefined && options.weights !== false) {
        throw new RangeError(`${at}: a batched cache's step returns the output only; leave out weights or give false`);
      }
      const queries = read4(at, 'q', q, batch, heads, d);
      const n = queries.shape[2];
      if (lastPads === null || n !== lastRows) {
        throw new RangeError(
          `${at}: q must hold the ${lastRows} tokens of the last append (n = ${n}); append them first`,
        );
      }
      // Output [batch, heads, n, dv]; a padding row is zeros.
      const output = new Float32Array(batch * heads * n * dv);
      const active = caches.map((_, b) => b).filter((b) => n - lastPads[b] > 0);
      if (active.length > 0) {
        const { rows, q: flat } = realQueries(queries, active, lastPads);
        const result = step(
          active.map((b) => caches[b]),
          rows,
          flat,
          { ...options, weights: false },
        ).output.data;
        placeRows(result, active, rows, lastPads, output, n, dv);
      }
      return { output: { shape: [batch, heads, n, dv], data: output } };
    },
    free() {
      for (const c of caches) c.free();
    },
  };
}
