// The calls made with `workers` (docs/workers.md): the worker pool (pool.js) is fetched on the first
// such call; every pooled path of the instance goes through here. control.flavour is the caller's
// build ('simd' | 'baseline' | 'relaxed'), which the pool's workers load.

const poolModule = () => import('./pool.js');

/** The shared pool of `workers` (N | 'auto') of the caller's build; a RangeError naming `where` for a bad count. */
async function withPool({ where, flavour }, workers) {
  const { poolSize, sharedPool } = await poolModule();
  return sharedPool(poolSize(where, workers), flavour);
}

/** The part count of a plan (attentionCuts, attentionMapCuts): a RangeError naming `where` unless 1 to 256. */
export function requireParts(where, parts) {
  if (!Number.isInteger(parts) || parts < 1 || parts > 256) {
    throw new RangeError(`${where}: parts must be a whole number from 1 to 256, got ${String(parts).slice(0, 40)}`);
  }
}

/** rp.attentionAsync over the pool: `checked` is what attentionOptions returned, inputs copied. */
export async function pooledAttention(workers, checked, control) {
  const pool = await withPool(control, workers);
  return (await poolModule()).splitAttention(pool, checked, control);
}

/** rp.attentionMap over the pool: `given` the options as the core takes them. */
export async function pooledMap(workers, given, control) {
  const pool = await withPool(control, workers);
  return (await poolModule()).splitMap(pool, given, control);
}

/** rp.lab.trainMany over the pool. */
export async function pooledTrain(runs, workers, control) {
  const pool = await withPool(control, workers);
  return (await poolModule()).splitTrain(pool, runs, control);
}

/** Stops the workers of calls made with `workers` (a later such call starts fresh ones). */
export async function terminateWorkers() {
  (await poolModule()).terminateShared();
}
