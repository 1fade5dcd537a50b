#include "relpos/kernels/rotary.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

#include "relpos/ops/operations.hpp"
#include "relpos/schemes/registry.hpp"
#include "relpos/schemes/rotary_family.hpp"
#include "test_helpers.hpp"

using namespace relpos;
using relpos::testing::params;
using relpos::testing::with;

namespace {

std::vector<double> frequencies(const std::string& id, Params p) {
  const Tensor t = compute("frequencies", id, p).at("invFreq");
  return std::vector<double>(t.f32.begin(), t.f32.end());
}

Tensor rotate(const std::vector<float>& x, int64_t n, int64_t d, const std::string& layout, double position) {
  Params p = params("rotate");
  p.setArray("x", x, {n, d});
  p.setString("layout", layout);
  p.setArray("positions", std::vector<float>(static_cast<size_t>(n), static_cast<float>(position)), {n});
  return compute("rotate", "rope", p).at("data");
}

}  // namespace

TEST(Rope, ScoresAreTranslationInvariant) {
  for (const char* id : {"rope", "rope-linear", "rope-yarn", "rope-llama3", "xpos"}) {
    Params p = with("scores", {{"n", 24}, {"d", 16}});
    const Tensor s = compute("scores", id, p).at("data");
    for (int i = 0; i + 1 < 24; ++i) {
      for (int j = 0; j + 1 < 24; ++j) {
        EXPECT_NEAR(s.f32[(i + 1) * 24 + j + 1], s.f32[i * 24 + j], 1e-4) << id << " " << i << "," << j;
      }
    }
  }
}

TEST(Rope, TheTwoLayoutsAgreeUpToThePermutationOfPairs) {
  const int64_t d = 12;
  std::vector<float> half(d), interleaved(d);
  for (int64_t c = 0; c < d; ++c) half[c] = std::sin(1.7 * c + 0.3);
  // Pair k is (x_k, x_{k+d/2}) in half layout and (x_2k, x_2k+1) interleaved.
  for (int64_t k = 0; k < d / 2; ++k) {
    interleaved[2 * k] = half[k];
    interleaved[2 * k + 1] = half[k + d / 2];
  }
  for (double position : {0.0, 1.0, 37.0, 4096.0, 999999.0}) {
    const Tensor a = rotate(half, 1, d, "half", position);
    const Tensor b = rotate(interleaved, 1, d, "interleaved", position);
    for (int64_t k = 0; k < d / 2; ++k) {
      EXPECT_FLOAT_EQ(a.f32[k], b.f32[2 * k]) << position;
      EXPECT_FLOAT_EQ(a.f32[k + d / 2], b.f32[2 * k + 1]) << position;
    }
  }
}

TEST(Rope, RotationIsAccurateAtPositionOneMillion) {
  // A float32 angle p*theta would be off by ~p*2^-24 ≈ 0.06 rad here; float64 angles are not.
  const Tensor y = rotate({1.0f, 0.0f}, 1, 2, "half", 1e6);
  EXPECT_NEAR(y.f32[0], std::cos(1e6), 1e-6);
  EXPECT_NEAR(y.f32[1], std::sin(1e6), 1e-6);
}

TEST(RopeYarn, FrequenciesAreContinuousAcrossTheRamp) {
  // Without truncation the ramp is linear in the pair index between its bounds: neighbouring
  // pairs never jump by more than the plain geometric step between theta_k and theta_{k+1}.
  Params p = with("frequencies", {{"d", 128}, {"factor", 16}, {"originalMaxPositionEmbeddings", 4096}});
  p.setBoolean("truncate", false);
  const std::vector<double> scaled = frequencies("rope-yarn", p);
  const std::vector<double> plain = ropeInvFreq(128, 10000);
  for (size_t k = 0; k + 1 < scaled.size(); ++k) {
    const double ratio = scaled[k + 1] / scaled[k];
    EXPECT_LE(ratio, 1.0);
    EXPECT_GE(ratio, (plain[k + 1] / plain[k]) / 16.0 - 1e-6) << k;
    // Between theta/s and theta everywhere.
    EXPECT_LE(scaled[k], plain[k] * (1 + 1e-6));
    EXPECT_GE(scaled[k], plain[k] / 16 * (1 - 1e-6));
  }
  EXPECT_NEAR(scaled.front(), plain.front(), 1e-7);
  EXPECT_NEAR(scaled.back(), plain.back() / 16, 1e-9);
}

TEST(RopeLlama3, FrequenciesAreContinuousAtTheBandBoundaries) {
  // Evaluate the smooth band formula exactly at both boundary wavelengths: it must meet the
  // neighbouring bands (theta/s at lambda_low, theta at lambda_high).
  const double s = 8, low = 1, high = 4, original = 8192;
  auto smoothAt = [&](double wavelen) {
    const double theta = 2 * M_PI / wavelen;
    const double sigma = (original / wavelen - low) / (high - low);
    return (1 - sigma) * theta / s + sigma * theta;
  };
  EXPECT_NEAR(smoothAt(original / low), (2 * M_PI / (original / low)) / s, 1e-15);
  EXPECT_NEAR(smoothAt(original / high), 2 * M_PI / (original / high), 1e-15);

  Params p = with("frequencies", {{"d", 128}, {"base", 500000}});
  const std::vector<double> scaled = frequencies("rope-llama3", p);
  const std::vector<double> plain = ropeInvFreq(128, 500000);
  for (size_t k = 0; k < scaled.size(); ++k) {
    const double wavelen = 2 * M_PI / plain[k];
    if (wavelen < original / high) EXPECT_NEAR(scaled[k], plain[k], plain[k] * 1e-6);
    if (wavelen > original / low) EXPECT_NEAR(scaled[k], plain[k] / s, plain[k] * 1e-6);
    // Monotone: a longer wavelength never gets a larger frequency.
    if (k > 0) EXPECT_LE(scaled[k], scaled[k - 1]);
  }
}

TEST(RopeNtk, KeepsTheFirstFrequencyAndDividesTheLastBySFactor) {
  Params p = with("frequencies", {{"d", 32}, {"factor", 4}});
  const std::vector<double> scaled = frequencies("rope-ntk", p);
  const std::vector<double> plain = ropeInvFreq(32, 10000);
  EXPECT_DOUBLE_EQ(scaled.front(), 1.0);
  EXPECT_NEAR(scaled.back(), plain.back() / 4, plain.back() * 1e-6);
}

TEST(RopeDynamic, IsPlainRopeUpToTheOriginalLength) {
  Params p = with("frequencies", {{"d", 16}, {"factor", 4}, {"originalMaxPositionEmbeddings", 2048}, {"seqLen", 2048}});
  const std::vector<double> scaled = frequencies("rope-dynamic", p);
  const std::vector<double> plain = ropeInvFreq(16, 10000);
  for (size_t k = 0; k < plain.size(); ++k) EXPECT_NEAR(scaled[k], plain[k], plain[k] * 1e-6);
}
