// The query and key positions of a call on a query–key grid (rp.bias, rp.buckets, rp.scores;
// docs/conventions.md): n queries against m keys, by default key j at position j and query i at the
// position of key i + queryOffset (queryOffset = m − n: the queries are the last n of the m
// positions, as with a KV cache); or explicit queryPositions [n] / keyPositions [m], either of which
// may hold one row per sequence [batch, ·] (BLOOM's positions under left padding). With a batch
// axis the result gains a leading [batch] dimension.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "relpos/base/errors.hpp"
#include "relpos/base/params.hpp"
#include "relpos/base/tensor.hpp"
#include "relpos/schemes/scheme.hpp"

namespace relpos {

struct PositionGrid {
  int64_t batch = 1;
  int64_t nq = 0;
  int64_t nk = 0;
  bool batchAxis = false;     // positions were given per sequence: results are [batch, …]
  int64_t queryOffset = 0;    // query i sits at key i + queryOffset when no queryPositions are given
  std::vector<double> query;  // [queryRows, nq]; empty: the default placement
  std::vector<double> key;    // [keyRows, nk]; empty: key j at j
  int64_t queryRows = 1;
  int64_t keyRows = 1;

  bool regular() const { return query.empty() && key.empty(); }
  double queryAt(int64_t b, int64_t i) const;
  double keyAt(int64_t b, int64_t j) const;
  // The bias window of batch row b (explicit positions point into this grid).
  BiasWindow window(int64_t heads, int64_t b) const;
  // `inner` with the batch axis in front when positions were given per sequence.
  Shape shape(const Shape& inner) const;
  // The largest |key position − query position| (for tables sized by the distances that occur).
  double span() const;
};

// Reads n, m, queryOffset, queryPositions and keyPositions (docs/api.md): n defaults to m or the
// length of queryPositions, m to n or the length of keyPositions; conflicting sizes are RangeErrors
// naming both options.
PositionGrid readGrid(const Params& params);

// A score call's `positions` places its n tokens as queries and keys alike: Params with
// queryPositions and keyPositions set to them (a RangeError beside m, queryOffset or either of those).
Params withTokenPositions(const Params& params);

// Whether the call gave any of the grid's options beyond n (m, queryOffset or positions).
bool givesGrid(const Params& params);

// A RangeError naming the scheme and the first position that is not an integer (bucket maps
// and tables indexed by distance need integer distances).
void requireIntegerPositions(const PositionGrid& grid, const Params& params, const std::string& schemeId);

// Sets out[h, i, j] (heads x nq x nk) to `masked` where the key sits after the query, for batch row b.
void maskCausal(const PositionGrid& grid, int64_t b, int64_t heads, float masked, float* out);

// The distance key − query of batch row b as an integer (after requireIntegerPositions).
inline int64_t integerDistance(const PositionGrid& grid, int64_t b, int64_t i, int64_t j) {
  return static_cast<int64_t>(grid.keyAt(b, j) - grid.queryAt(b, i));
}

}  // namespace relpos

namespace relpos {

// Where causal masks an index map, which has no -Infinity: every unmasked entry of a bucket map is
// >= 0 (a key at or before the query), so -1 marks "no bucket".
constexpr int32_t kMaskedBucket = -1;

// An index map [n, m] (or [batch, n, m]) on the call's grid: bucketOf(r) for the integer distance
// r = key position − query position, tabulated once per distance for consecutive positions; with
// `causal`, kMaskedBucket where the key sits after the query.
template <typename BucketOf>
Result gridBuckets(const Params& params, const std::string& schemeId, bool causal, BucketOf bucketOf) {
  const PositionGrid grid = readGrid(params);
  requireIntegerPositions(grid, params, schemeId);
  const int64_t block = grid.nq * grid.nk;
  checkResultSize(params.where(), static_cast<double>(grid.batch) * block);
  Tensor t = Tensor::ints(grid.shape({grid.nq, grid.nk}));
  if (grid.regular()) {
    const int64_t rMin = -(grid.nq - 1 + grid.queryOffset);  // r = j - (i + queryOffset)
    std::vector<int32_t> byDistance(static_cast<size_t>(grid.nq + grid.nk - 1));
    for (size_t e = 0; e < byDistance.size(); ++e) {
      byDistance[e] = static_cast<int32_t>(bucketOf(rMin + static_cast<int64_t>(e)));
    }
    for (int64_t i = 0; i < grid.nq; ++i) {
      for (int64_t j = 0; j < grid.nk; ++j) {
        const int64_t r = j - i - grid.queryOffset;
        t.i32[i * grid.nk + j] = causal && r > 0 ? kMaskedBucket : byDistance[j - i + grid.nq - 1];
      }
    }
    return single(std::move(t));
  }
  for (int64_t b = 0; b < grid.batch; ++b) {
    for (int64_t i = 0; i < grid.nq; ++i) {
      for (int64_t j = 0; j < grid.nk; ++j) {
        const int64_t r = integerDistance(grid, b, i, j);
        t.i32[b * block + i * grid.nk + j] = causal && r > 0 ? kMaskedBucket : static_cast<int32_t>(bucketOf(r));
      }
    }
  }
  return single(std::move(t));
}

}  // namespace relpos
