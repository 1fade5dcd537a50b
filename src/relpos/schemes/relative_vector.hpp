// Relative-vector schemes (schemes.md §2: shaw, transformer-xl, deberta), the exact bucket
// arithmetic they share with t5 (§0), and small helpers the score calls of several families share.
#pragma once
#include <cmath>
#include <cstdint>
#include <string>

#include "relpos/schemes/catalogue.hpp"

namespace relpos {

// Bucket maps follow exact real arithmetic (schemes.md §0): the log expression is computed in
// float64 and a value within 1e-9 of an integer is taken to be that integer before floor / ceil, so
// true ties land where exact arithmetic puts them.
inline double snapToInteger(double x) {
  const double nearest = std::round(x);
  return std::fabs(x - nearest) < 1e-9 ? nearest : x;
}

// DeBERTa's signed log bucket of delta = i - j (schemes.md §2); positionBuckets <= 0: identity.
// Not clamped. Expects validated arguments (positionBuckets != 1, P - 1 > positionBuckets / 2).
int64_t debertaLogBucket(int64_t delta, int64_t positionBuckets, int64_t maxRelativePositions);

// A size parameter (n or d) of a score call: the given value, else the extent `axis` of the 2-D
// matrix parameter `matrix` (e.g. q [n, d]); throws "<info.name> is required" when neither exists.
int64_t sizeFromParamOrMatrix(const Params& params, const ParamInfo& info, const std::string& matrix, int axis);

// Dot product of two float32 rows, accumulated in float64.
inline double dotRow(const float* a, const float* b, int64_t d) {
  double sum = 0;
  for (int64_t c = 0; c < d; ++c) sum += static_cast<double>(a[c]) * b[c];
  return sum;
}

}  // namespace relpos
