#include "relpos/kernels/kernels.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>

#include "relpos/kernels/rotary.hpp"
#include "relpos/kernels/simd.hpp"
#include "relpos/schemes/rotary_family.hpp"
#include "test_helpers.hpp"

using namespace relpos;
using relpos::testing::randomMatrix;
using relpos::testing::randomQueriesAndKeys;

namespace {

// RoPE's plan over `rotaryDim` dims with base 10000, the pairs in halves or interleaved.
RotaryPlan ropePlan(int64_t rotaryDim, bool interleaved) {
  RotaryPlan plan;
  plan.rotaryDim = rotaryDim;
  plan.invFreq = ropeInvFreq(rotaryDim, 10000);
  plan.interleaved = interleaved;
  return plan;
}

}  // namespace

TEST(Kernels, PowerOfTwoMatchesTheLibraryWithinTwoUlpAndIsZeroForMinusInfinity) {
  float worst = 0.0f;
  for (float x = -126.0f; x <= 0.0f; x += 0.00731f) {
    const double want = std::exp2(static_cast<double>(x));
    const double got = simd::exp2NonPositive(x);
    worst = std::max(worst, static_cast<float>(std::abs(got - want) / want));
  }
  EXPECT_LT(worst, 2.0f * std::numeric_limits<float>::epsilon());  // two ulp at most
  EXPECT_EQ(simd::exp2NonPositive(-std::numeric_limits<float>::infinity()), 0.0f);
  EXPECT_EQ(simd::exp2NonPositive(-127.0f), 0.0f);
  EXPECT_EQ(simd::exp2NonPositive(-300.0f), 0.0f);
  EXPECT_EQ(simd::exp2NonPositive(0.0f), 1.0f);
  EXPECT_EQ(simd::exp2NonPositive(-3.0f), 0.125f);  // integers are exact powers of two
}

// x86 takes a microcode assist for every multiply with a subnormal result (simd.hpp), so the
// softmax's power of two is +0 below -126 and at least 2^-126 from there on: every float in
// [-130, -122] is checked, and NaN stays NaN.
TEST(Kernels, PowerOfTwoIsNeverSubnormal) {
  const float least = std::numeric_limits<float>::min();  // 2^-126
  for (float x = -130.0f; x <= -122.0f; x = std::nextafter(x, 0.0f)) {
    const float got = simd::exp2NonPositive(x);
    if (x < -126.0f) {
      ASSERT_EQ(got, 0.0f) << x;
    } else {
      ASSERT_GE(got, least) << x;
    }
  }
  EXPECT_TRUE(std::isnan(simd::exp2NonPositive(std::numeric_limits<float>::quiet_NaN())));
}

// Softmax weights too small for a normal float are +0, never subnormal: a row whose logits fall
// by 1 per key reaches 2^-149 and below within its 128 keys.
TEST(Kernels, SoftmaxWeightsAreNeverSubnormal) {
  const int64_t n = 5, m = 131, d = 4;
  const std::vector<float> q(static_cast<size_t>(n * d), 0.0f), k(static_cast<size_t>(m * d), 0.0f);
  std::vector<float> bias(static_cast<size_t>(n * m));
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < m; ++j) bias[i * m + j] = -static_cast<float>(j) * (1.0f + 0.1f * i);
  }
  kernels::LogitSpec spec;
  spec.bias = {bias.data(), m, 1.0f, 0};
  const auto panels = kernels::packKeys(k.data(), m, d, d);
  std::vector<float> w(static_cast<size_t>(n * m));
  kernels::softmaxWeights(q.data(), d, 0, n, panels.data(), m, d, spec, w.data(), m);
  std::vector<float> given = bias;
  kernels::LogitSpec none;
  kernels::softmaxLogits(given.data(), m, 0, n, m, none);
  int zeros = 0;
  for (const auto* weights : {&w, &given}) {
    for (int64_t i = 0; i < n; ++i) {
      double sum = 0;  // the float64 softmax of the row (its largest logit is 0, at key 0)
      for (int64_t j = 0; j < m; ++j) sum += std::exp(static_cast<double>(bias[i * m + j]));
      for (int64_t j = 0; j < m; ++j) {
        const float x = (*weights)[i * m + j];
        const double want = std::exp(static_cast<double>(bias[i * m + j])) / sum;
        EXPECT_TRUE(x == 0.0f || x >= std::numeric_limits<float>::min()) << i << " " << j << " " << x;
        // Zero only where the exact weight is below 2^-124; elsewhere within 1e-6 relative, plus
        // the float rounding of the logit times log2(e), which grows with the logit.
        if (x == 0.0f) {
          EXPECT_LT(want, 0x1p-124) << i << " " << j;
          ++zeros;
        } else {
          EXPECT_NEAR(x / want, 1.0, 1e-6 + 2e-7 * std::abs(bias[i * m + j])) << i << " " << j;
        }
      }
    }
  }
  EXPECT_GT(zeros, 0);  // the test reaches the range it is about
}

namespace {

// Float64 attention of one head: logits scale q.k + bw B + M over the keys of each row's range
// (kernels::KeyRange), their softmax (all zeros when nothing is visible) and the output w.V.
struct Reference {
  std::vector<double> weights, output;
};

Reference reference(const std::vector<float>& q, const std::vector<float>& k, const std::vector<float>& v, int64_t n,
                    int64_t m, int64_t d, int64_t dv, float scale, const std::function<double(int64_t, int64_t)>& term,
                    const kernels::KeyRange& keys) {
  Reference out{std::vector<double>(static_cast<size_t>(n * m), 0.0),
                std::vector<double>(static_cast<size_t>(n * dv), 0.0)};
  for (int64_t i = 0; i < n; ++i) {
    std::vector<double> logit(static_cast<size_t>(m), -INFINITY);
    double top = -INFINITY;
    for (int64_t j = keys.begin(i, m); j < keys.end(i, m); ++j) {
      double dot = 0;
      for (int64_t c = 0; c < d; ++c) dot += static_cast<double>(q[i * d + c]) * k[j * d + c];
      logit[j] = scale * dot + term(i, j);
      top = std::max(top, logit[j]);
    }
    if (top == -INFINITY) continue;
    double sum = 0;
    for (int64_t j = 0; j < m; ++j) sum += std::exp(logit[j] - top);
    for (int64_t j = 0; j < m; ++j) {
      out.weights[i * m + j] = std::exp(logit[j] - top) / sum;
      for (int64_t c = 0; c < dv; ++c) out.output[i * dv + c] += out.weights[i * m + j] * v[j * dv + c];
    }
  }
  return out;
}

}  // namespace

TEST(Kernels, FusedWeightsAndOutputsMatchAFloat64ReferenceForEveryShapeRangeAndTerm) {
  // Sizes that exercise the 4-row tiles, the 8-key panels, the 128-key blocks of the online
  // softmax and their tails; causal, windowed and both; no term, a matrix bias with a mask, and a
  // Toeplitz profile (stride -1).
  int cases = 0;
  for (int64_t n : {1, 3, 4, 9}) {
    for (int64_t m : {1, 7, 8, 13, 33, 300}) {
      for (int64_t d : {1, 5, 16}) {
        for (int mode = 0; mode < 12; ++mode) {
          const bool causal = mode & 1;
          const int64_t window = (mode & 2) ? 3 : 0;
          const int termKind = mode / 4;  // 0 none, 1 matrix bias + mask, 2 profile
          const int64_t dv = 3 + d % 5;
          const auto q = randomMatrix(n, d, static_cast<uint32_t>(1 + n));
          const auto k = randomMatrix(m, d, static_cast<uint32_t>(2 + m));
          const auto v = randomMatrix(m, dv, static_cast<uint32_t>(3 + m));
          const auto b = randomMatrix(n, m, static_cast<uint32_t>(4 + d));
          auto mask = randomMatrix(n, m, static_cast<uint32_t>(5 + d));
          for (size_t t = 0; t < mask.size(); t += 5) mask[t] = -INFINITY;
          const auto profile = randomMatrix(1, n + m - 1, static_cast<uint32_t>(6 + n));
          kernels::LogitSpec spec;
          spec.scale = static_cast<float>(1 / std::sqrt(static_cast<double>(d)));
          spec.keys = {causal, m - n, window};
          std::function<double(int64_t, int64_t)> term = [](int64_t, int64_t) { return 0.0; };
          if (termKind == 1) {
            spec.bias = {b.data(), m, 0.5f, 0};
            spec.mask = {mask.data(), m, 1.0f, 0};
            term = [&](int64_t i, int64_t j) { return 0.5 * b[i * m + j] + mask[i * m + j]; };
          } else if (termKind == 2) {
            spec.bias = {profile.data() + n - 1, -1, 1.0f, 0};
            term = [&](int64_t i, int64_t j) { return static_cast<double>(profile[j - i + n - 1]); };
          }
          const auto want = reference(q, k, v, n, m, d, dv, spec.scale, term, spec.keys);
          const auto panels = kernels::packKeys(k.data(), m, d, d);
          std::vector<float> w(static_cast<size_t>(n * m), 7.0f), out(static_cast<size_t>(n * dv), 0.0f),
              online(static_cast<size_t>(n * dv), 7.0f);
          kernels::softmaxWeights(q.data(), d, 0, n, panels.data(), m, d, spec, w.data(), m);
          kernels::weightedSum(w.data(), m, 0, n, m, v.data(), dv, dv, spec.keys, out.data(), dv);
          kernels::OnlineScratch scratch;
          kernels::attentionOutput(q.data(), d, 0, n, panels.data(), m, d, v.data(), dv, dv, spec, scratch,
                                   online.data(), dv);
          const std::string where =
              std::to_string(n) + "x" + std::to_string(m) + "x" + std::to_string(d) + " mode " + std::to_string(mode);
          for (size_t t = 0; t < w.size(); ++t) ASSERT_NEAR(w[t], want.weights[t], 2e-6) << where << " w " << t;
          for (size_t t = 0; t < out.size(); ++t) ASSERT_NEAR(out[t], want.output[t], 1e-5) << where << " o " << t;
          for (size_t t = 0; t < out.size(); ++t)
            ASSERT_NEAR(online[t], want.output[t], 1e-5) << where << " online " << t;
          ++cases;
        }
      }
    }
  }
  EXPECT_EQ(cases, 4 * 6 * 3 * 12);
}

TEST(Kernels, ABlockOfRowsGivesTheRowsOfTheWholeCall) {
  // Rows 5 .. 12 computed alone (q, out and a block-local bias at their first row) equal the same
  // rows of the full call, bit for bit: blocks never change a result.
  const int64_t n = 17, m = 29, d = 8;
  const auto [q, k, panels] = randomQueriesAndKeys(n, m, d, 11);
  const auto b = randomMatrix(n, m, 13);
  kernels::LogitSpec spec;
  spec.scale = 0.3f;
  spec.keys = {true, m - n, 6};
  spec.bias = {b.data(), m, 1.0f, 0};
  std::vector<float> all(static_cast<size_t>(n * m)), block(static_cast<size_t>(8 * m));
  kernels::softmaxWeights(q.data(), d, 0, n, panels.data(), m, d, spec, all.data(), m);
  spec.bias = {b.data() + 5 * m, m, 1.0f, 5};
  kernels::softmaxWeights(q.data() + 5 * d, d, 5, 8, panels.data(), m, d, spec, block.data(), m);
  for (int64_t t = 0; t < 8 * m; ++t) EXPECT_EQ(block[t], all[5 * m + t]) << t;
}

TEST(Kernels, RowsThatSeeNoKeyAreZero) {
  const int64_t n = 6, m = 9, d = 4;
  const auto q = randomMatrix(n, d, 21);
  const auto k = randomMatrix(m, d, 22);
  const auto v = randomMatrix(m, d, 23);
  std::vector<float> mask(static_cast<size_t>(n * m), 0.0f);
  for (int64_t j = 0; j < m; ++j) mask[2 * m + j] = -INFINITY;  // row 2: every key masked
  kernels::LogitSpec spec;
  spec.keys = {true, -3, 0};  // rows 0 .. 2 sit before every key
  spec.mask = {mask.data(), m, 1.0f, 0};
  const auto panels = kernels::packKeys(k.data(), m, d, d);
  std::vector<float> w(static_cast<size_t>(n * m), 5.0f), out(static_cast<size_t>(n * d), 5.0f);
  kernels::softmaxWeights(q.data(), d, 0, n, panels.data(), m, d, spec, w.data(), m);
  kernels::OnlineScratch scratch;
  kernels::attentionOutput(q.data(), d, 0, n, panels.data(), m, d, v.data(), d, d, spec, scratch, out.data(), d);
  for (int64_t i = 0; i < 3; ++i) {
    for (int64_t j = 0; j < m; ++j) EXPECT_EQ(w[i * m + j], 0.0f) << i << " " << j;
    for (int64_t c = 0; c < d; ++c) EXPECT_EQ(out[i * d + c], 0.0f) << i << " " << c;
  }
  double sum = 0;
  for (int64_t j = 0; j < m; ++j) sum += w[3 * m + j];
  EXPECT_NEAR(sum, 1.0, 1e-6);
}

TEST(Kernels, SoftmaxOfGivenLogitsAddsTheTermsAndMasksTheRange) {
  const int64_t n = 3, m = 5;
  std::vector<float> logits = {0, 1, 2, 3, 4, 1, 1, 1, 1, 1, -1, 0, 1, 0, -1};
  const std::vector<float> bias = {0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  kernels::LogitSpec spec;
  spec.keys = {true, 1, 0};  // row i sees keys 0 .. i + 1
  spec.bias = {bias.data(), m, 2.0f, 0};
  kernels::softmaxLogits(logits.data(), m, 0, n, m, spec);
  EXPECT_NEAR(logits[0], 1 / (1 + std::exp(1.0)), 1e-7);
  EXPECT_EQ(logits[2], 0.0f);
  EXPECT_NEAR(logits[5], std::exp(3.0) / (std::exp(3.0) + 2 * std::exp(1.0)), 1e-6);
  EXPECT_NEAR(logits[10] + logits[11] + logits[12] + logits[13], 1.0, 1e-6);
  EXPECT_EQ(logits[14], 0.0f);
}

TEST(Kernels, TheRotaryTableAgreesWithDirectRotation) {
  for (bool interleaved : {false, true}) {
    RotaryPlan plan = ropePlan(12, interleaved);
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

// A plan with an offset (DeepSeek's [nope | rope] heads) rotates dims offset .. offset + rotaryDim - 1
// as a plan without one rotates the sub-row starting there; the dims before and after pass through.
TEST(Kernels, AnOffsetPlanRotatesTheSubRowFromTheOffset) {
  for (bool interleaved : {false, true}) {
    const RotaryPlan plain = ropePlan(8, interleaved);
    RotaryPlan shifted = plain;
    shifted.offset = 5;
    const RotaryTable table(shifted, 0, 100, true);
    for (int64_t position : {0, 3, 99}) {
      const auto row = randomMatrix(1, 16, static_cast<uint32_t>(position + 7));
      auto direct = row;
      auto cached = row;
      auto sub = std::vector<float>(row.begin() + 5, row.begin() + 13);
      rotateRow(shifted, static_cast<double>(position), true, direct.data());
      table.apply(position, cached.data());
      rotateRow(plain, static_cast<double>(position), true, sub.data());
      for (int c = 0; c < 16; ++c) {
        const float want = c >= 5 && c < 13 ? sub[c - 5] : row[c];
        EXPECT_EQ(direct[c], want) << position << " " << c;
        EXPECT_NEAR(cached[c], want, 2e-6) << position << " " << c;
      }
    }
  }
}
