// A strict TypeScript consumer of the public API: `tsc --strict --noEmit` must accept it.
import {
  load,
  terminateWorkers,
  type HeapTensor,
  type Relpos,
  type RowCut,
  type SchemeInfo,
  type Tensor,
} from 'relpos';

async function main(): Promise<void> {
  const rp: Relpos = await load();
  const simd: boolean = rp.simd;
  const schemes: readonly SchemeInfo[] = rp.schemes;
  const alibi: Tensor = rp.bias('alibi', { n: 16, heads: 4, causal: true });
  const slopes: Float32Array = rp.bias('alibi', { heads: 8, output: 'slopes' }).data;
  const { invFreq, attentionFactor } = rp.frequencies('rope-yarn', { d: 64, factor: 4 });
  const rotated = rp.rotate({ shape: [2, 4], data: new Float32Array(8) }, { layout: 'interleaved', positions: [0, 1] });
  const buckets: Int32Array = rp.buckets('t5', { n: 8 }).data;
  const { weights, output } = rp.attention({
    q: [
      [1, 0],
      [0, 1],
    ],
    k: [
      [1, 0],
      [0, 1],
    ],
    v: [[1], [2]],
    scheme: 'alibi',
  });
  // Grouped-query attention with a mask, only the output, into the caller's array.
  const q = { shape: [2, 2, 8], data: new Float32Array(32) };
  const kv = { shape: [2, 2, 4], data: new Float32Array(16) };
  const out = new Float32Array(32);
  const only = rp.attention({
    q,
    k: kv,
    v: kv,
    heads: 2,
    kvHeads: 1,
    causal: true,
    slidingWindow: 2,
    scale: 0.5,
    mask: [
      [true, false],
      [true, true],
    ],
    weights: false,
    out,
  });
  const later = await rp.attentionAsync({
    q,
    k: kv,
    v: kv,
    heads: 2,
    kvHeads: 1,
    weights: false,
    onProgress: () => {},
  });
  console.log(only.output.data === out, later.output.shape);
  // A bias filled in place in the wasm heap, read without a copy.
  const B: HeapTensor = rp.alloc([2, 2]);
  B.data.set([0, -1, -1, 0]);
  const given: Float32Array = rp.attention({
    q: [[1, 0]],
    k: [
      [1, 0],
      [0, 1],
    ],
    B: rp.alloc([1, 2]),
  }).weights.data;
  console.log(rp.attention({ q: B, k: B, B }).weights.shape, given[0], B.freed);
  B.free();
  console.log(
    simd,
    schemes.length,
    alibi.shape,
    slopes[0],
    invFreq[0] + attentionFactor,
    rotated.data[0],
    buckets[0],
    weights.shape,
    output?.shape,
  );
}

main();

// The worker pool (docs/workers.md): `workers` on the long calls, lab comparisons, the pool's end.
async function pooled(): Promise<void> {
  const rp = await load();
  const map: Tensor = await rp.attentionMap({ n: 4096, seed: 1, size: 64, workers: 'auto' });
  const q = { shape: [16, 8], data: new Float32Array(128) };
  const { output } = await rp.attentionAsync({ q, k: q, v: q, weights: false, workers: 2 });
  const plan: RowCut[] = rp.attentionCuts({ q, k: q, v: q, causal: true, weights: false }, 2);
  const mapPlan: RowCut[] = rp.attentionMapCuts({ n: 4096, scheme: 'alibi', causal: true, size: 64 }, 2);
  console.log(plan[0].end, mapPlan.length);
  const runs = await rp.lab.trainMany([{ scheme: 'rope' }, { scheme: 'alibi' }], {
    workers: 2,
    onProgress: (fraction, progress) => console.log(fraction, progress.run, progress.fraction),
  });
  const accuracy: Float32Array = runs[0].accuracy;
  await terminateWorkers();
  console.log(map.shape, output.shape, accuracy.length);
}

pooled();
