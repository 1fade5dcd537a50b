// Attention with a positional term in explicit, implicit or mixed mode (docs/attention.md), for real
// models too: grouped-query heads, masks, sliding windows, a custom scale, a leading batch dimension
// and an output-only form whose memory is O(n·d) for any n (docs/performance.md explains the kernels).
#pragma once
#include <memory>
#include <vector>

#include "relpos/base/job.hpp"
#include "relpos/base/params.hpp"
#include "relpos/base/tensor.hpp"
#include "relpos/schemes/scheme.hpp"

namespace relpos {

namespace kernels {
struct KeyRange;
}

// Where the weights go when the caller takes them block by block instead of as one tensor in the
// result (the binding copies each block straight into the JS array it returns, so the n x m weights
// are never held in the wasm heap). begin() comes once, after every check and before any compute,
// with the shape of the weights; write() then hands consecutive runs of their row-major entries.
// A sink may instead offer the memory a block is written to (destination), so the kernel writes
// there directly (the binding's zero-copy views: no copy, and no zero fill before the kernel).
class WeightsSink {
 public:
  virtual ~WeightsSink() = default;
  virtual void begin(const Shape& shape) = 0;
  virtual float* destination(int64_t /*offset*/, int64_t /*count*/) { return nullptr; }
  virtual void write(int64_t offset, const float* data, int64_t count) = 0;
};

// params: q [n, heads*dh] or [batch, n, heads*dh]; k [m, kvHeads*dh] and optional v [m, kvHeads*dv]
// (batched like q); heads, kvHeads (default heads), mode, alpha, beta, causal, queryOffset (default
// m - n), slidingWindow, scale (default 1/sqrt(dh)), mask with maskKind (boolean: nonzero keeps;
// additive), weights (default true); optional B and P; plus the scheme's own parameters.
// Returns "weights" [batch?, heads, n, m] unless weights is false and, with v, "output"
// [batch?, n, heads*dv]. With a sink, "weights" carries only its shape and the values go to the sink.
// Also, as real models run attention (docs/attention.md, "As models run it"): sinks [heads] (one
// logit per head in each row's softmax denominator, no value), softcap c (c·tanh(logit / c) after
// scaling, before bias and mask), attentionChunkSize c (with causal: keys in the query's chunk),
// temperatureTuning [floorScale, attnScale] (queries scaled by log(floor((p + 1) / floorScale) + 1)
// · attnScale + 1 at p = i + queryOffset), positions [n] / [batch, n] and keyPositions [m] /
// [batch, m] (where rotary and bias schemes place the queries and keys), valueHeadDim dv (v must
// then be [m, kvHeads*dv]: a layer whose value heads differ from its query/key heads, DeepSeek).
Result attention(const Params& params, const Scheme* scheme, WeightsSink* sink = nullptr);

// Keys kept between calls in the packed form the kernels read (a KV cache, ops/decode.hpp): the
// panels (kernels::packKeys) of the first m keys of every kv head, rotated by `plan` (null: as
// given), head g's at the returned pointer + g * headStride; or null when it cannot give that form
// (the call then packs the keys of k itself). The call's k must hold the same keys.
class PackedKeySource {
 public:
  virtual ~PackedKeySource() = default;
  virtual const float* panels(const RotaryPlan* plan, int64_t m, int64_t d, int64_t& headStride) = 0;
};
// attention() whose keys (one sequence at positions 0 .. m-1) come packed from `keys` when it can
// give the form the call needs: the same bits as attention() packing them itself.
Result attention(const Params& params, const Scheme* scheme, WeightsSink* sink, PackedKeySource* keys);

// Query rows [first, end) of a call (option queryRows, the pool's parts: docs/workers.md): the rows
// are computed from the whole call's inputs, in the whole call's blocks and register tiles, so each
// equals that row of the whole call bit for bit; the result holds only those rows (weights
// [batch?, heads, end - first, m], output [batch?, end - first, heads*dv]).
const ParamInfo& queryRowsParam();

// The work of query rows [first, end) of a call: multiply-adds over the keys each row attends to
// (kernels::KeyRange: causal, sliding window; and the query's chunk of a chunked layer), for every
// head and sequence. Read leniently: 0 when the shapes cannot be read (the call then reports them).
double attentionWork(const Params& params, int64_t first, int64_t end);
// The keys query rows [first, end) attend to, summed over the rows (one head of one sequence).
double attentionKeysSeen(const Params& params, int64_t first, int64_t end);

// The keys query rows [first, end) attend to under `keys` (causal, window, chunk) among m keys,
// summed over the rows: the one work estimate, which attentionWork, attentionCuts and the pooled
// map's cuts (attentionMapCuts, ops/attention_map.hpp) read.
double keysSeen(const kernels::KeyRange& keys, int64_t m, int64_t first, int64_t end);

// Bounds 0 = b[0] < b[1] < ... = units cutting consecutive units into at most `parts` ranges of
// nearly equal work, from the units' work as prefix sums (prefix[u]: the work of units 0 .. u-1;
// units + 1 entries). Empty for no unit or no part.
std::vector<int64_t> balancedBounds(const std::vector<double>& prefix, int64_t parts);

// Cuts of an attention call's query rows into at most `parts` non-empty ranges of nearly equal work
// (attentionWork), on the boundaries of the core's register tiles so that each range runs as
// queryRows exactly as in the whole call. Empty when the shapes cannot be read.
struct RowCut {
  int64_t first = 0, end = 0;
  double work = 0;
};
std::vector<RowCut> attentionCuts(const Params& params, int64_t parts);

// The options above, for the operation table.
struct ModelAttentionParams {
  ParamInfo sinks, softcap, chunk, temperature, positions, keyPositions, valueHeadDim;
  // Inputs as Hugging Face's attention interface hands them over (docs/attention.md, "Inputs as
  // Hugging Face hands them over"): rotated (q and k arrive rotated: the rotary scheme's rotation is
  // not applied again), fullyMaskedRows 'zeros' | 'uniform' (a row that sees no key: zeros, or HF
  // eager's 1/m on every key) and causalAlign 'bottomRight' | 'topLeft' (the key range of query i
  // as at position i + queryOffset, or as at i: SDPA's is_causal when n != m).
  ParamInfo rotated, fullyMaskedRows, causalAlign;
};
const ModelAttentionParams& modelAttentionParams();

// The same call as a job (any size): params also name the scheme as "scheme" (a string, optional).
std::unique_ptr<Job> startAttention(const Params& params);

}  // namespace relpos
