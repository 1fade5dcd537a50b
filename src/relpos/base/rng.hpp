// Reproducible random numbers without shared state: every generator is seeded explicitly, so the
// same seed gives the same values on every platform and in both wasm builds.
#pragma once
#include <cmath>
#include <cstdint>
#include <utility>

#include "relpos/base/numeric.hpp"

namespace relpos {

// SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators", 2014).
class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // The top 53 bits as a double in [0, 1).
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

 private:
  uint64_t state_;
};

// A SplitMix64 stream with the draws the lab needs: integers below n and normals (one per call).
class Random : public SplitMix64 {
 public:
  using SplitMix64::SplitMix64;
  int64_t below(int64_t n) { return static_cast<int64_t>(uniform() * static_cast<double>(n)); }
  double normal();
};

// Box–Muller: two independent N(0, 1) values from u1 in (0, 1] and u2 in [0, 1).
inline std::pair<double, double> boxMuller(double u1, double u2) {
  const double radius = std::sqrt(-2.0 * std::log(u1));
  return {radius * std::cos(2 * kPi * u2), radius * std::sin(2 * kPi * u2)};
}

// N(0, 1) values drawn two at a time: `draw()` returns the uniform pair (u1, u2) for boxMuller, and
// the second value of each pair is kept for the next call.
template <class Draw>
class NormalPairs {
 public:
  explicit NormalPairs(Draw draw) : draw_(std::move(draw)) {}
  double next() {
    if (hasSpare_) {
      hasSpare_ = false;
      return spare_;
    }
    const auto [u1, u2] = draw_();
    const auto [first, second] = boxMuller(u1, u2);
    spare_ = second;
    hasSpare_ = true;
    return first;
  }

 private:
  Draw draw_;
  double spare_ = 0;
  bool hasSpare_ = false;
};

inline double Random::normal() {
  const double u1 = 1.0 - uniform(), u2 = uniform();
  return boxMuller(u1, u2).first;
}

}  // namespace relpos
