#include "relpos/kernels/kernels.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "relpos/kernels/rotary.hpp"
#include "relpos/kernels/simd.hpp"
#include "relpos/schemes/rotary_family.hpp"
#include "test_helpers.hpp"

using namespace relpos;

namespace {

std::vector<float> randomMatrix(int64_t rows, int64_t cols, uint32_t seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  std::vector<float> out(static_cast<size_t>(rows * cols));
  for (float& x : out) x = normal(rng);
  return out;
}

// Float64 softmax(scale q.k + B) with the causal convention of docs/conventions.md.
std::vector<double> referenceWeights(const std::vector<float>& q, const std::vector<float>& k,
                                     const std::vector<float>& b, int64_t n, int64_t m, int64_t d, bool causal,
                                     int64_t offset) {
  std::vector<double> w(static_cast<size_t>(n * m), 0.0);
  for (int64_t i = 0; i < n; ++i) {
    double top = -INFINITY;
    const int64_t visible = causal ? std::clamp<int64_t>(i + offset + 1, 0, m) : m;
    for (int64_t j = 0; j < visible; ++j) {
      double dot = 0;
      for (int64_t c = 0; c < d; ++c) dot += static_cast<double>(q[i * d + c]) * k[j * d + c];
      w[i * m + j] = dot / std::sqrt(static_cast<double>(d)) + b[i * m + j];
      top = std::max(top, w[i * m + j]);
    }
    double sum = 0;
    for (int64_t j = 0; j < visible; ++j) sum += (w[i * m + j] = std::exp(w[i * m + j] - top));
    for (int64_t j = 0; j < visible; ++j) w[i * m + j] /= sum;
  }
  return w;
}

}  // namespace

TEST(Kernels, ExpMatchesTheLibraryWithinTwoUlpAndIsZeroForMinusInfinity) {
  for (float x = -87.0f; x <= 0.0f; x += 0.0137f) {
    const float want = std::exp(x);
    EXPECT_NEAR(simd::expNonPositive(x), want, 2.5e-7f * want) << x;
  }
  EXPECT_EQ(simd::expNonPositive(-std::numeric_limits<float>::infinity()), 0.0f);
  EXPECT_EQ(simd::expNonPositive(-100.0f), 0.0f);
  EXPECT_EQ(simd::expNonPositive(0.0f), 1.0f);
}

TEST(Kernels, FusedLogitsAndSoftmaxMatchAFloat64ReferenceForEveryShapeAndMask) {
  // Row and key counts that exercise the 4-row tiles, the 8-key panels and their tails.
  for (int64_t n : {1, 3, 4, 9}) {
    for (int64_t m : {1, 7, 8, 13, 33}) {
      for (int64_t d : {1, 4, 5, 16}) {
        for (bool causal : {false, true}) {
          const int64_t offset = m - n;
          const auto q = randomMatrix(n, d, 1 + n);
          const auto k = randomMatrix(m, d, 2 + m);
          const auto b = randomMatrix(n, m, 3 + d);
          const kernels::Mask mask{causal, offset};
          std::vector<float> w(static_cast<size_t>(n * m));
          kernels::logits(q.data(), n, d, kernels::packKeys(k.data(), m, d, d).data(), m, d,
                          static_cast<float>(1 / std::sqrt(static_cast<double>(d))), b.data(), m, 1.0f, mask, w.data(),
                          m);
          kernels::softmaxRows(w.data(), n, m, m, mask);
          const auto want = referenceWeights(q, k, b, n, m, d, causal, offset);
          for (size_t t = 0; t < w.size(); ++t)
            ASSERT_NEAR(w[t], want[t], 2e-6) << n << "x" << m << "x" << d << " " << t;
        }
      }
    }
  }
}

TEST(Kernels, WeightedSumAddsTheVisibleRowsOfV) {
  const int64_t n = 5, m = 11, dv = 13;
  const auto w = randomMatrix(n, m, 7);
  const auto v = randomMatrix(m, dv, 8);
  const kernels::Mask mask{true, m - n};
  std::vector<float> out(static_cast<size_t>(n * dv), 1.0f);
  kernels::weightedSum(w.data(), n, m, m, v.data(), dv, dv, mask, out.data(), dv);
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t c = 0; c < dv; ++c) {
      double want = 1.0;
      for (int64_t j = 0; j < mask.visible(i, m); ++j) want += static_cast<double>(w[i * m + j]) * v[j * dv + c];
      EXPECT_NEAR(out[i * dv + c], want, 1e-5);
    }
  }
}

TEST(Kernels, TheRotaryTableAgreesWithDirectRotation) {
  for (bool interleaved : {false, true}) {
    RotaryPlan plan;
    plan.rotaryDim = 12;
    plan.invFreq = ropeInvFreq(12, 10000);
    plan.interleaved = interleaved;
    plan.attentionFactor = 1.1;
    const RotaryTable table(plan, 0, 2000, true);
    for (int64_t position : {0, 1, 17, 1999}) {
      auto direct = randomMatrix(1, 14, static_cast<uint32_t>(position));
      auto cached = direct;
      rotateRow(plan, static_cast<double>(position), true, direct.data());
      table.apply(position, cached.data());
      for (int c = 0; c < 14; ++c) EXPECT_NEAR(cached[c], direct[c], 2e-6) << position << " " << c;
    }
  }
}
