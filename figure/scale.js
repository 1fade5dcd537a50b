// The colour scale and slicing of a heatmap, shared by the elements, the exporters, the Node figure
// writer and the CLI: the finite range, the automatic colour scale (diverging and symmetric when the
// data is signed), and one [rows, cols] slice of a tensor. Pure functions: no DOM.
/** The finite min/max of the values (ignores ±Infinity and NaN). */
export function finiteRange(data) {
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of data) {
    if (Number.isFinite(v)) {
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
  }
  return lo <= hi ? [lo, hi] : [0, 1];
}

/** Picks a colormap and range for the data: diverging and symmetric about 0 when signed. */
export function autoScale(data, colormap) {
  const [lo, hi] = finiteRange(data);
  if (lo < 0 && hi > 0) {
    const m = Math.max(-lo, hi);
    return { colormap: colormap ?? 'rdbu', range: [-m, m] };
  }
  return { colormap: colormap ?? 'viridis', range: lo === hi ? [lo - 1, hi + 1] : [lo, hi] };
}

/** The 2-D slice `index` of a [.., rows, cols] tensor; errors name `where`. */
export function sliceMatrix(tensor, index = 0, where = 'relpos.sliceMatrix') {
  const { shape, data } = tensor ?? {};
  if (!Array.isArray(shape) || shape.length < 2 || !ArrayBuffer.isView(data)) {
    throw new TypeError(`${where}: tensor must have shape [rows, cols] or [heads, rows, cols]`);
  }
  const rows = shape[shape.length - 2];
  const cols = shape[shape.length - 1];
  const count = data.length / (rows * cols);
  if (!Number.isInteger(index) || index < 0 || index >= count) {
    throw new RangeError(`${where}: head must be an integer in [0, ${count - 1}], got ${index}`);
  }
  return { rows, cols, data: data.subarray(index * rows * cols, (index + 1) * rows * cols) };
}
