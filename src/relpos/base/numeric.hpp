// Small numeric helpers every layer shares.
#pragma once
#include <cmath>
#include <cstdint>

namespace relpos {

constexpr double kPi = 3.14159265358979323846;

// Dot product of two rows, accumulated in float64 (float32 or float64 entries).
template <class A, class B>
inline double dot(const A* a, const B* b, int64_t count) {
  double sum = 0;
  for (int64_t c = 0; c < count; ++c) sum += static_cast<double>(a[c]) * static_cast<double>(b[c]);
  return sum;
}

// Bucket maps follow exact real arithmetic (docs/buckets.md): the log expression is computed in
// float64 and a value within 1e-9 of an integer is taken to be that integer before floor / ceil, so
// true ties land where exact arithmetic puts them.
inline double snapToInteger(double x) {
  const double nearest = std::round(x);
  return std::fabs(x - nearest) < 1e-9 ? nearest : x;
}

}  // namespace relpos
