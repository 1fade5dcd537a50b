// A KV cache in the core (rp.kvCache, docs/api.md): keys and values that stay between decode steps,
// and the keys once more in the packed form the attention kernels read, rotated when they are
// appended (docs/api.md, "rp.kvCache"). A step's attention is attention() over the cached rows
// with the step's queries and options: the same bits as handing the keys over whole.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "relpos/base/params.hpp"
#include "relpos/base/tensor.hpp"
#include "relpos/kernels/rotary.hpp"
#include "relpos/ops/attention.hpp"

namespace relpos {

class KvCache final : public PackedKeySource {
 public:
  // keys [length, kvHeads * d], values [length, kvHeads * dv].
  KvCache(int64_t kvHeads, int64_t d, int64_t dv);

  // Appends `rows` keys and values (row-major, finite): amortised O(rows) — the rows grow by a
  // quarter of their capacity at a time (grown() in decode.cpp), and the packed keys that are in use
  // take the new keys in their form now (rotated once), not at every step.
  int64_t append(const float* k, const float* v, int64_t rows);
  int64_t length() const { return length_; }

  // attention (ops/operations.hpp, compute) with `params` (q and the step's options; the work
  // budget and checks of compute) over every cached key and value.
  Result attention(const std::string& id, Params& params, WeightsSink* sink);

  // PackedKeySource: the first m keys packed for `plan` (null: as appended). When the plan differs
  // from the one the packed keys hold (another scheme, or a dynamic-NTK scaling that changed with
  // the length), every key is packed again for it, as Hugging Face re-rotates only then.
  const float* panels(const RotaryPlan* plan, int64_t m, int64_t d, int64_t& headStride) override;

 private:
  void grow(int64_t keys);
  void packRange(int64_t from, int64_t to);

  int64_t kvHeads_, d_, dv_;
  int64_t length_ = 0;
  Value k_, v_;  // the rows as appended, lent to each step as its k and v
  // k_'s floats, which stay where they are while a step holds k_ (a moved vector keeps its buffer).
  const float* keyRows_ = nullptr;
  // The packed keys: kvHeads panels of capacity_ keys each (kernels::packKeys layout), of which the
  // first packed_ hold keys in the form of `rotated_` / `plan_`.
  std::vector<float> panels_;
  int64_t capacity_ = 0;
  int64_t packed_ = 0;
  bool rotated_ = false;
  RotaryPlan plan_;
};

// One step of several sequences (a batched cache, rp.kvCache({ batch })) in one call: params' q holds
// their query rows one sequence after another, [rows[0] + rows[1] + …, heads * d], and sequence s
// (rows[s] > 0 of them) runs caches[s]->attention with the same options, its rows of q lent, not
// copied. The output holds their rows in the same order: each sequence's bits those of it alone.
Result attentionBatch(const std::vector<KvCache*>& caches, const std::vector<int64_t>& rows, const std::string& id,
                      Params& params);

}  // namespace relpos
