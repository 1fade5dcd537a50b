// Pooled attention-weight maps of long sequences (rp.attentionMap): a [size, size] map of the
// n x n softmax weights, pooled by max or mean over tiles, with exact per-row normalisation and
// memory O(n*d + size^2) — the n x n matrix is never held.
#pragma once
#include <memory>

#include "relpos/base/job.hpp"
#include "relpos/base/params.hpp"
#include "relpos/ops/attention.hpp"

namespace relpos {

// Largest n for maps with content (Q, K) and for position-only maps of any scheme; position-only
// maps of shift-invariant schemes (logits a function of j - i) go up to kMaxMapPositionOnly.
constexpr int64_t kMaxMapContent = 131072;
constexpr int64_t kMaxMapPositionOnly = 1 << 20;

std::unique_ptr<Job> startAttentionMap(const Params& params);

// The pool's plan of a map (docs/workers.md): its map rows (mapRows, or all of them) cut into at
// most `parts` ranges of nearly equal work, weighted as attention's cuts are, by the keys each
// sequence row reads (keysSeen); work is those keys times d. Empty when the call cannot be read
// (the call then reports it).
std::vector<RowCut> attentionMapCuts(const Params& params, int64_t parts);

}  // namespace relpos
