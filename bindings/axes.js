// The one reading of `axes` (docs/api.md, "Axes"): a tensor in the caller's layout — 'bnd'
// [batch?, n, heads·d], 'bhnd' [batch, heads, n, d] (PyTorch) or 'nhd' [n, heads, d] — as the core's
// rows [batch?, n, heads·d], and the result put back. rp.attention reads q, k, v with it
// (attention-inputs.js: readAttentionAxes), rp.rotate its x (rowsCall).
import { toTensor } from './convert.js';

const AXES = ['bnd', 'bhnd', 'nhd'];
const LAYOUT = { bnd: '[n, heads·d] or [batch, n, heads·d]', bhnd: '[batch, heads, n, d]', nhd: '[n, heads, d]' };

export function checkAxes(where, axes) {
  if (axes === undefined || AXES.includes(axes)) return;
  const what = `${where}: axes must be 'bnd' ([batch, n, heads·d]), 'bhnd' ([batch, heads, n, d], PyTorch) or 'nhd' ([n, heads, d])`;
  if (typeof axes !== 'string') throw new TypeError(`${what}, got ${typeof axes}`);
  throw new RangeError(`${what}, got '${axes}'`);
}

/**
 * Tensor `name` ({ shape, data }) in `axes` as rows: { tensor, heads?, batch? } — `heads` read from
 * a heads axis, `batch` from 'bhnd'. `heads` is the count the rows hold when the layout has no heads
 * axis (`headsName` its option), `declared` the count the caller gave, which a heads axis must
 * match. Without axes a 4-D tensor, or a 3-D one whose middle extent equals `heads`, reads two ways
 * and is refused.
 */
export function toRows(where, name, t, axes, { heads = 1, headsName = 'heads', declared } = {}) {
  const rank = t.shape.length;
  const shown = `[${t.shape.join(', ')}]`;
  if (axes === undefined) {
    if (rank === 4) {
      throw new TypeError(
        `${where}: ${name} has 4 axes ${shown}; say how to read them: axes: 'bhnd' for PyTorch's [batch, heads, n, d]`,
      );
    }
    if (rank === 3 && t.shape[1] === heads) {
      const [a, b, c] = t.shape;
      throw new TypeError(
        `${where}: ${name} ${shown} reads two ways: as [batch, n, heads·d] (batch ${a}, n ${b}, d ${c / heads}) or as [n, heads, d] (n ${a}, ${headsName} ${b}, d ${c}); say which with axes: 'bnd' or 'nhd'`,
      );
    }
    return { tensor: t };
  }
  const ranks = { bnd: [2, 3], bhnd: [4], nhd: [3] }[axes];
  if (!ranks.includes(rank)) {
    throw new TypeError(`${where}: ${name} must be ${LAYOUT[axes]} for axes: '${axes}', got ${shown}`);
  }
  if (axes === 'bnd') return { tensor: t };
  const h = t.shape[1];
  if (declared !== undefined && declared !== h) {
    throw new RangeError(`${where}: ${name} has ${h} heads on its heads axis, but ${headsName} is ${declared}`);
  }
  if (axes === 'nhd') return { tensor: { shape: [t.shape[0], h * t.shape[2]], data: t.data }, heads: h };
  const [batch, , n, d] = t.shape;
  return { tensor: { shape: [batch, n, h * d], data: headsToRows(t.data, batch, h, n, d) }, heads: h, batch };
}

/** Rows [batch?, n, heads·dv] back into `axes` ('bhnd' [batch, heads, n, dv], 'nhd' [n, heads, dv]). */
export function fromRows(t, axes, heads) {
  if (axes === 'nhd') {
    const [n, width] = t.shape;
    return { ...t, shape: [n, heads, width / heads] };
  }
  if (axes !== 'bhnd') return t;
  const [batch, n, width] = t.shape;
  const dv = width / heads;
  return { ...t, shape: [batch, heads, n, dv], data: headsToRows(t.data, batch, heads, n, dv, false) };
}

// rp.rotate's x in `axes` as rows [batch·n, heads·d] with each sequence's positions ([n] or
// [batch, n], default 0 … n−1), and the result put back into the caller's axes.
export function rowsCall(where, input, tensor, axes, options) {
  checkAxes(where, axes);
  const read = axes ?? 'bnd';
  if (axes === undefined) toRows(where, input, tensor, undefined, { heads: options.heads ?? 1 }); // two readings?
  const rows = toRows(where, input, tensor, read, { declared: options.heads });
  const h = rows.heads ?? options.heads ?? 1;
  const shape = rows.tensor.shape;
  const [batch, n, width] = shape.length === 2 ? [1, ...shape] : shape;
  let positions = options.positions;
  if (read === 'nhd') {
    return {
      options: { ...options, heads: h, [input]: rows.tensor },
      restore: (t) => fromRows(t, 'nhd', h),
    };
  }
  if (positions !== undefined || batch > 1) positions = sequencePositions(where, positions, batch, n);
  const restore = (t) =>
    read === 'bhnd' ? fromRows({ ...t, shape: [batch, n, width] }, 'bhnd', h) : { ...t, shape: tensor.shape.slice() };
  const heading = read === 'bhnd' ? { heads: h } : {};
  const flat = { shape: [batch * n, width], data: rows.tensor.data };
  return { options: { ...options, ...heading, positions, [input]: flat }, restore };
}

// Positions [n] or [batch, n] (default 0 … n−1) as one [batch·n] list.
function sequencePositions(where, positions, batch, n) {
  const given = positions === undefined ? undefined : toTensor(where, 'positions', positions);
  if (
    given &&
    !(given.shape.length === 1 && given.shape[0] === n) &&
    !(given.shape.length === 2 && given.shape[0] === batch && given.shape[1] === n)
  ) {
    throw new RangeError(
      `${where}: positions must have shape [n] = [${n}] or [batch, n] = [${batch}, ${n}] for a batch of sequences, got [${given.shape.join(', ')}]`,
    );
  }
  const flat = new Float64Array(batch * n);
  for (let b = 0; b < batch; b++) {
    for (let i = 0; i < n; i++) flat[b * n + i] = given ? given.data[given.shape.length === 1 ? i : b * n + i] : i;
  }
  return { shape: [batch * n], data: flat };
}

// [batch, heads, n, d] → [batch, n, heads·d], and back (rows: false).
export function headsToRows(data, batch, heads, n, d, rows = true) {
  const out = new data.constructor(data.length);
  for (let b = 0; b < batch; b++) {
    for (let h = 0; h < heads; h++) {
      for (let i = 0; i < n; i++) {
        const split = ((b * heads + h) * n + i) * d;
        const joined = ((b * n + i) * heads + h) * d;
        if (rows) out.set(data.subarray(split, split + d), joined);
        else out.set(data.subarray(joined, joined + d), split);
      }
    }
  }
  return out;
}
