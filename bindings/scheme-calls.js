// The calls on schemes built from the core's operation table (rp.operations): rp.encoding, rp.bias,
// rp.buckets, rp.frequencies, rp.rotate, rp.scores. `ctx` is an instance's { core, memory, bounded }.
import { isPlainObject, normaliseOptions, requireMatrix, requireOptionsObject, requireSchemeId } from './convert.js';
import { squeezeLeading, toTensor } from './convert.js';
import { rowsCall } from './axes.js';
import { forCore } from './heap-tensor.js';
import { unwrap } from './errors.js';

// One call of the core; `view: true` returns views into the wasm heap instead of copies (see
// viewsValidUntilNextCall).
export function callCore(ctx, op, id, options) {
  const { core, bounded } = ctx;
  core.releaseView();
  if (isPlainObject(options) && options.view !== undefined) {
    const { view, ...rest } = options;
    if (typeof view !== 'boolean') throw new TypeError(`relpos.${op}: view must be a boolean, got ${typeof view}`);
    if (view) return unwrap(core.computeView(op, id, given(ctx, op, rest), !bounded));
    options = rest;
  }
  return unwrap(core.compute(op, id, given(ctx, op, options), !bounded));
}

// The options of a call on a scheme as the core takes them (convert.js, heap-tensor.js).
function given(ctx, op, options) {
  const where = `relpos.${op}`;
  return forCore(where, normaliseOptions(where, options), ctx.core, ctx.memory, false);
}

/**
 * The method for one operation of the table: (id, options), or (input, { scheme = defaultScheme, … })
 * for an operation on a tensor (rotate); the result shaped as the table's `returns` says.
 */
export function schemeCall(ctx, { name, input, defaultScheme, returns }) {
  const where = `relpos.${name}`;
  const kinds = Object.entries(returns);
  const unpack = { tensor: (t) => t, array: (t) => t.data, number: (t) => t.data[0] };
  const shape = (result) =>
    withNotes(
      kinds.length === 1 && kinds[0][1] === 'tensor'
        ? result[kinds[0][0]]
        : Object.fromEntries(kinds.map(([key, kind]) => [key, unpack[kind](result[key])])),
      result,
    );
  if (!input) {
    return (id, options) => {
      requireSchemeId(where, id);
      return shape(callCore(ctx, name, id, options));
    };
  }
  return (value, options = {}) => {
    requireOptionsObject(where, 'options', options);
    const { scheme = defaultScheme, ...rest } = options;
    requireSchemeId(where, scheme, 'scheme');
    if (value === null || typeof value !== 'object') {
      throw new TypeError(
        `${where}: ${input} must be a tensor of shape [n, d], got ${value === null ? 'null' : typeof value}`,
      );
    }
    const tensor = toTensor(where, input, value);
    // Leading extents of 1 dropped ([1, n, d] is [n, d]), as before axes.
    if (rest.axes === undefined && squeezeLeading(tensor.shape, 2).length <= 2) {
      const matrix = requireMatrix(where, input, tensor);
      return shape(callCore(ctx, name, scheme, { ...rest, [input]: matrix }));
    }
    // Rows in other axes, or a batch of sequences: as one [rows, heads·d] call (rotate).
    const { axes, ...others } = rest;
    const call = rowsCall(where, input, tensor, axes, others);
    return call.restore(shape(callCore(ctx, name, scheme, call.options)));
  };
}

// The core's notes on a result (docs/api.md, "Options"): `synthetic` names the learned inputs a call
// filled with untrained demonstration values; `sameForEveryHead` marks the one map a view returns for
// every head; `notes` says what else the caller should know (T5 run with 1/√d). Present only when
// they say something.
export function withNotes(value, { synthetic, sameForEveryHead, notes }) {
  if (synthetic) value.synthetic = synthetic;
  if (sameForEveryHead) value.sameForEveryHead = true;
  if (notes) value.notes = notes;
  return value;
}
