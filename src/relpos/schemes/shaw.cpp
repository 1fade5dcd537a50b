// shaw — Shaw, Uszkoreit and Vaswani 2018, "Self-Attention with Relative Position Representations",
// arXiv:1803.02155: learned vectors a^K, a^V per clipped distance, added to keys and values.
#include <algorithm>
#include <cmath>

#include "relpos/base/common_params.hpp"
#include "relpos/base/errors.hpp"
#include "relpos/base/numeric.hpp"
#include "relpos/kernels/kernels.hpp"
#include "relpos/schemes/grid.hpp"
#include "relpos/schemes/vector_family.hpp"

namespace relpos {

namespace {

const ParamInfo kClip =
    integerParam("clip", 8, 0, 1 << 20, "k: relative distances j-i are clipped to [-k, k] (integer >= 0)");
const ParamInfo kAK = synthetic(
    actsIn(arrayParam("aK", "learned key table [2k+1, d] indexed by clip(j-i)+k; default: the sinusoid of signed j-i"),
           {"scores", "attention"}));
// The values: attention only (a learned table, but its default 0 adds nothing, so it is not synthetic).
const ParamInfo kAV = actsIn(
    arrayParam("aV", "learned value table [2k+1, d_v] added to the values in attention; default 0"), {"attention"});

int32_t shawIndex(int64_t r, int64_t clip) {
  return static_cast<int32_t>(std::clamp(r, -clip, clip) + clip);
}

// The clip the tables are built and indexed with. Given aK / aV fix it; otherwise the default table
// aK[r + k] = sinusoid(r) only needs the distances that occur (|r| <= span), so clip = 1,048,576 with
// n = 8 builds 15 rows, not two million (found by fuzz_schemes: a 20 s call for an 8 x 8 result).
int64_t effectiveClip(const Params& params, int64_t clip, int64_t span) {
  if (params.has(kAK.name) || params.has(kAV.name)) return clip;
  return std::min(clip, std::max<int64_t>(span, 0));
}

std::vector<float> keyTable(const Params& params, int64_t clip, int64_t d) {
  const int64_t rows = 2 * clip + 1;
  checkWorkingSet(params.where(), 4.0 * static_cast<double>(rows) * d, "the relative key table aK [2*clip+1, d]");
  if (const float* a = matrixParam(params, kAK.name, "2*clip+1, d", rows, d)) return {a, a + rows * d};
  return sinusoidTable(rows, clip, d);  // aK[r + k] = sinusoid(r)
}

// causal marks later keys -1 (no index).
Result buckets(const Scheme&, const Params& params) {
  const int64_t clip = params.integer(kClip);
  return gridBuckets(params, "shaw", params.boolean(common::causal()), [&](int64_t r) { return shawIndex(r, clip); });
}

// Full logits e_ij = q_i . (k_j + aK[idx(i, j)]) / sqrt(d), [n, n].
Result logits(const Params& params, int64_t clip) {
  requireSquareContent(params);
  const int64_t n = sizeFromParamOrMatrix(params, common::n(), "q", 0);
  const int64_t d = sizeFromParamOrMatrix(params, common::d(), "q", 1);
  const float* q = matrixParam(params, "q", "n, d", n, d);
  const float* k = matrixParam(params, "k", "n, d", n, d);
  if (!q) throwType(params.where() + ": q must be a tensor of shape [n, d] when k is given");
  checkResultSize(params.where(), static_cast<double>(n) * n);
  clip = effectiveClip(params, clip, n - 1);
  const std::vector<float> table = keyTable(params, clip, d);
  const double scale = 1.0 / std::sqrt(static_cast<double>(d));
  Tensor t = Tensor::floats({n, n});
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      const float* a = table.data() + shawIndex(j - i, clip) * d;
      t.f32[i * n + j] = static_cast<float>((dot(q + i * d, k + j * d, d) + dot(q + i * d, a, d)) * scale);
    }
  }
  if (params.boolean(common::causal())) kernels::applyCausalMask(t.f32.data(), 1, n, n, 0);
  return single(std::move(t));
}

// Position-only S_ij = q . aK[idx(i, j)] / sqrt(d) with a probe q (default ones), on the call's grid.
Result scores(const Scheme&, const Params& params) {
  const int64_t givenClip = params.integer(kClip);
  if (params.has("k")) return logits(params, givenClip);
  const PositionGrid grid = readGrid(withTokenPositions(params));
  requireIntegerPositions(grid, params, "shaw");
  const int64_t d = params.integer(common::d());
  const int64_t clip = effectiveClip(params, givenClip, static_cast<int64_t>(std::min(grid.span(), 1e9)));
  const std::vector<float> q = probeVector(params, "q", d, 1.0f);
  const std::vector<float> table = keyTable(params, clip, d);
  std::vector<double> byIndex(static_cast<size_t>(2 * clip + 1));
  for (size_t t = 0; t < byIndex.size(); ++t)
    byIndex[t] = dot(q.data(), table.data() + t * d, d) / std::sqrt(static_cast<double>(d));
  return distanceScores(params, grid, params.boolean(common::causal()),
                        [&](int64_t r) { return byIndex[shawIndex(r, clip)]; });
}

// Attention (implicit): aK / aV tables shared by all heads, index for queries at i + queryOffset.
PairTable pairTable(const Params& params, int64_t nq, int64_t nk, int64_t queryOffset, int64_t dh) {
  const int64_t span = std::max(std::abs(nk - 1 - queryOffset), std::abs(queryOffset + nq - 1));
  const int64_t clip = effectiveClip(params, params.integer(kClip), span);
  const int64_t rows = 2 * clip + 1;
  PairTable table;
  table.keyTable = keyTable(params, clip, dh);
  const Value* values = params.find("v");
  if (values && values->shape.size() == 2) {
    // Attention reads aV rows with the value head width, so check it against v here.
    const int64_t dv = values->shape[1] / params.integer(common::heads());
    if (const float* a = matrixParam(params, kAV.name, "2*clip+1, d_v", rows, dv))
      table.valueTable.assign(a, a + rows * dv);
  }
  table.index.resize(static_cast<size_t>(nq * nk));
  for (int64_t i = 0; i < nq; ++i) {
    for (int64_t j = 0; j < nk; ++j) table.index[i * nk + j] = shawIndex(j - (i + queryOffset), clip);
  }
  return table;
}

}  // namespace

Scheme shawScheme() {
  Scheme s = describedScheme(
      "shaw", "relative vector", "Shaw relative positions", "Shaw, Uszkoreit, Vaswani 2018, arXiv:1803.02155",
      "Learned vectors a^K, a^V per clipped distance clip(j-i, k) added to keys and values; exactly relative.",
      {onlyIn(common::n(), {"buckets", "scores"}), actsIn(common::d(), {"scores"}),
       onlyIn(common::heads(), {"scores", "attention"}), common::causal(), kClip, kAK, kAV, queryParam(), keyParam()});
  s.buckets = buckets;
  s.reads = {{"scores", {"positions"}}};
  s.scores = scores;
  // Position-only scores q·a^K[clip(j − i)] / √d: a function of j − i (docs/schemes/vectors.md).
  s.shiftInvariant = alwaysShiftInvariant;
  s.term = AttentionTerm::PairTable;  // a^K at the clipped distance on the keys, a^V on the values
  s.pairTable = pairTable;
  return s;
}

}  // namespace relpos
