// rp.attention, rp.attentionAsync, rp.attentionMap and rp.runJob (docs/api.md, "Attention"): the
// options read by attention-options.js, the work done by the core, or by the pool (pooled.js) when
// the caller gives `workers`. `ctx` is an instance's { core, memory, bounded, flavour }.
import { isPlainObject, normaliseOptions, requireOptionsObject, requireSchemeId } from './convert.js';
import { attentionOptions, attentionResult } from './attention-options.js';
import { forCore, refuseHeapOut } from './heap-tensor.js';
import { runJob } from './jobs.js';
import { pooledAttention, pooledMap, requireParts } from './pooled.js';
import { unwrap } from './errors.js';

/**
 * Attention with a positional term. The weights come back in `out` (a Float32Array of the right
 * length) when given — with `weights: false`, `out` receives the output instead.
 */
export function attention({ core, memory, bounded }, options) {
  const where = 'relpos.attention';
  const { scheme, merged, view, out, shapes } = attentionOptions(where, options);
  refuseHeapOut(where, out, memory);
  const given = forCore(where, merged, core, memory);
  core.releaseView();
  const result = view
    ? unwrap(core.computeView('attention', scheme ?? '', given, !bounded))
    : unwrap(core.computeAttention(scheme ?? '', given, out ?? null, !bounded));
  return attentionResult(result, shapes);
}

/** The same call as a job (progress, AbortSignal), or over the pool with `workers`. */
export async function attentionAsync({ core, memory, flavour }, options) {
  const where = 'relpos.attentionAsync';
  requireOptionsObject(where, 'options', options);
  const { onProgress, signal, workers, ...rest } = options;
  const checked = attentionOptions(where, rest);
  const { scheme, merged, view, out, shapes } = checked;
  if (view) throw new TypeError(`${where}: view is not available for a job (its result outlives the call)`);
  refuseHeapOut(where, out, memory);
  // rp.alloc tensors are this instance's, checked now; their values are read when the call is
  // made (a job copies them as it starts, a pool's workers are sent copies), so the caller may
  // free or refill them while it runs.
  const given = forCore(where, merged, core, memory);
  if (workers !== undefined) {
    // Copied now, before the first await: the values are the ones given at the call.
    const copied = { ...checked, merged: forCore(where, merged, core, memory, false) };
    return pooledAttention(workers, copied, { onProgress, signal, where, flavour });
  }
  if (scheme !== undefined) given.scheme = scheme;
  const result = attentionResult(await runJob(core, unwrap, 'attention', given, { onProgress, signal, where }), shapes);
  if (out) {
    const target = result.weights ?? result.output;
    if (out.length !== target.data.length) {
      throw new RangeError(`${where}: out must be a Float32Array of ${target.data.length} values, got ${out.length}`);
    }
    out.set(target.data);
    target.data = out;
  }
  return result;
}

/**
 * The pool's plan of an attention call (docs/workers.md), asked of the core: its query rows cut into
 * at most `parts` ranges [{ first, end, work }] of nearly equal work, which the option queryRows
 * then computes; [] when the core cannot read the call's shapes (the call itself reports them).
 */
export function attentionCuts({ core, memory }, options, parts) {
  const where = 'relpos.attentionCuts';
  requireParts(where, parts);
  const { scheme, merged } = attentionOptions(where, options);
  const given = forCore(where, merged, core, memory, false);
  if (scheme !== undefined) given.scheme = scheme;
  return unwrap(core.attentionCuts(given, parts));
}

/**
 * A pooled [size, size] attention-weight map of a long sequence, never holding n×n: content-free
 * (position-only logits) unless `seed` (random Q, K) or `q`, `k` are given. Resolves to a tensor.
 */
export async function attentionMap({ core, memory, flavour }, options) {
  const where = 'relpos.attentionMap';
  const { given, onProgress, signal, workers } = mapOptions(where, { core, memory }, options);
  if (workers !== undefined) return pooledMap(workers, given, { onProgress, signal, where, flavour });
  const result = await runJob(core, unwrap, 'attentionMap', given, { onProgress, signal, where });
  return result.data;
}

/**
 * The pool's plan of a map (docs/workers.md), asked of the core: its map rows cut into at most
 * `parts` ranges [{ first, end, work }] of nearly equal work, weighted as attention's cuts are by
 * the keys each row reads; [] when the core cannot read the call (the call itself reports it).
 */
export function attentionMapCuts({ core, memory }, options, parts) {
  const where = 'relpos.attentionMapCuts';
  requireParts(where, parts);
  const { given } = mapOptions(where, { core, memory }, options);
  return unwrap(core.attentionMapCuts(given, parts));
}

/** rp.attentionMap's options as the core takes them, and the controls the call keeps. */
function mapOptions(where, { core, memory }, options) {
  requireOptionsObject(where, 'options', options);
  const { scheme, params = {}, onProgress, signal, workers, ...rest } = options;
  if (scheme !== undefined) requireSchemeId(where, scheme, 'scheme');
  requireOptionsObject(where, 'params', params);
  const merged = normaliseOptions(where, { ...rest, ...params });
  if (scheme !== undefined) merged.scheme = scheme;
  return { given: forCore(where, merged, core, memory, false), onProgress, signal, workers };
}

/** Runs a job of the core ('attentionMap') with progress and cancellation. */
export function runCoreJob({ core, memory }, kind, options, control = {}) {
  if (control === null || typeof control !== 'object') {
    throw new TypeError('relpos.runJob: control must be an object { onProgress?, signal?, where? }');
  }
  const where = control.where ?? 'relpos.runJob';
  const given = isPlainObject(options) ? forCore(where, options, core, memory) : options;
  return runJob(core, unwrap, kind, given, { where: 'relpos.runJob', ...control });
}
