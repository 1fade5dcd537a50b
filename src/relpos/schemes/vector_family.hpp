// What the vector schemes (sinusoidal, shaw, transformer-xl, deberta, cope; docs/schemes/vectors.md)
// share: the sinusoid their untrained default tables use, and the argument helpers of their score
// calls (probe vectors, given q / k matrices, per-head copies).
#pragma once
#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "relpos/base/errors.hpp"
#include "relpos/base/tensor.hpp"
#include "relpos/schemes/grid.hpp"
#include "relpos/schemes/scheme.hpp"

namespace relpos {

// The base of every untrained default table (Shaw aK, DeBERTa Qr/Kr, CoPE E): the paper's sinusoid.
constexpr double kDefaultTableBase = 10000;

// Writes the d-dimensional sinusoid of a (possibly negative) position. interleaved:
// [sin w0 p, cos w0 p, sin w1 p, ...]; concat: [sin w0 p, ..., cos w0 p, ...] (even d),
// with w_i = base^(-2i/d). Angles in float64.
void sinusoid(double position, int64_t d, double base, bool concat, float* out);

// Rows table[t] = sinusoid(t - shift) (interleaved, kDefaultTableBase) for t < rows.
std::vector<float> sinusoidTable(int64_t rows, int64_t shift, int64_t d);

// `s` as a logit scheme (transformer-xl, deberta, cope): attention takes its `logits` in place of
// QK^T / sqrt(d); `scores` are its position-only scores, `synthetic` the default tables a call uses.
Scheme logitScheme(Scheme s, OpFn scores, SyntheticFn synthetic, LogitsFn logits);

// "[names] = [rows, cols]" for shape messages.
std::string shapeText(const std::string& names, int64_t rows, int64_t cols);

// A [rows, cols] matrix parameter, or nullptr when absent.
const float* matrixParam(const Params& params, const std::string& name, const std::string& names, int64_t rows,
                         int64_t cols);

// A vector parameter [d], or nullptr when absent.
const float* vectorParam(const Params& params, const std::string& name, int64_t d);

// A probe vector [d] of a position-only score call, defaulting to `fallback` in every entry.
std::vector<float> probeVector(const Params& params, const std::string& name, int64_t d, float fallback);

// A size parameter (n or d) of a score call: the given value, else the extent `axis` of the 2-D
// matrix parameter `matrix` (e.g. q [n, d]); throws "<info.name> is required" when neither exists.
int64_t sizeFromParamOrMatrix(const Params& params, const ParamInfo& info, const std::string& matrix, int axis);

// Position-only scores that depend on the integer distance r = key − query alone, on the call's
// grid (schemes/grid.hpp: n, m, queryOffset, positions): S[i, j] = valueAt(r), tabulated once per
// distance when the distances span a compact range; one head [1, n, m] (or [batch, 1, n, m]), and
// -Infinity where the key sits after the query when causal.
template <typename ValueAt>
Result distanceScores(const Params& params, const PositionGrid& grid, bool causal, ValueAt valueAt) {
  const int64_t block = grid.nq * grid.nk;
  checkResultSize(params.where(), static_cast<double>(grid.batch) * block);
  Tensor out = Tensor::floats(grid.shape({1, grid.nq, grid.nk}));
  int64_t rMin = -(grid.nq - 1 + grid.queryOffset), rMax = grid.nk - 1 - grid.queryOffset;
  if (!grid.regular()) {
    rMin = rMax = integerDistance(grid, 0, 0, 0);
    for (int64_t b = 0; b < grid.batch; ++b) {
      for (int64_t i = 0; i < grid.nq; ++i) {
        for (int64_t j = 0; j < grid.nk; ++j) {
          const int64_t r = integerDistance(grid, b, i, j);
          rMin = std::min(rMin, r);
          rMax = std::max(rMax, r);
        }
      }
    }
  }
  const bool tabulate = static_cast<double>(rMax - rMin) < 4.0 * static_cast<double>(grid.nq + grid.nk) + 64;
  std::vector<float> byDistance;
  if (tabulate) {
    for (int64_t r = rMin; r <= rMax; ++r) byDistance.push_back(static_cast<float>(valueAt(r)));
  }
  for (int64_t b = 0; b < grid.batch; ++b) {
    float* s = out.f32.data() + b * block;
    for (int64_t i = 0; i < grid.nq; ++i) {
      for (int64_t j = 0; j < grid.nk; ++j) {
        const int64_t r = integerDistance(grid, b, i, j);
        s[i * grid.nk + j] = tabulate ? byDistance[static_cast<size_t>(r - rMin)] : static_cast<float>(valueAt(r));
      }
    }
    if (causal) maskCausal(grid, b, 1, -std::numeric_limits<float>::infinity(), s);
  }
  return single(std::move(out));
}

// Content logits (q and k matrices) cover the square n × n grid: a RangeError naming the grid option
// a call gives beside them.
void requireSquareContent(const Params& params);

// The q and k of the score calls of shaw and transformer-xl.
const ParamInfo& queryParam();
const ParamInfo& keyParam();

}  // namespace relpos
