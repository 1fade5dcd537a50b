// nope: no positional term (docs/schemes/nope.md). Its bias and scores are zero, attention with it
// is attention on content alone bit for bit, its long maps are uniform, its profile is k(r) = 0,
// and the lab trains with it.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "relpos/analysis/analysis.hpp"
#include "relpos/lab/lab.hpp"
#include "relpos/relpos.hpp"
#include "test_helpers.hpp"

using namespace relpos;
using namespace relpos::testing;

TEST(Nope, BiasAndScoresAreZeroAndCausalMasksThem) {
  Params p = with("bias", {{"n", 6}, {"heads", 3}});
  const Tensor bias = compute("bias", "nope", p).at("data");
  ASSERT_EQ(bias.shape, (Shape{1, 6, 6}));  // the same (zero) map for every head: one
  for (float x : bias.f32) EXPECT_EQ(x, 0.0f);
  EXPECT_EQ(compute("scores", "nope", p).at("data").f32, bias.f32);
  p.setBoolean("causal", true);
  const Tensor masked = compute("bias", "nope", p).at("data");
  for (int64_t i = 0; i < 6; ++i) {
    for (int64_t j = 0; j < 6; ++j) {
      const float x = masked.f32[i * 6 + j];
      if (j > i) {
        EXPECT_EQ(x, -std::numeric_limits<float>::infinity());
      } else {
        EXPECT_EQ(x, 0.0f);
      }
    }
  }
}

TEST(Nope, AttentionEqualsContentOnlyAttentionBitForBit) {
  const Result plain = attendContent("");
  const Result nope = attendContent("nope");
  EXPECT_EQ(nope.at("weights").f32, plain.at("weights").f32);
  EXPECT_EQ(nope.at("output").f32, plain.at("output").f32);
  // … and differs from a scheme that does add a term, so the comparison can fail.
  EXPECT_NE(attendContent("alibi").at("weights").f32, plain.at("weights").f32);
}

TEST(Nope, PositionOnlyLongMapsAreUniformOverTheVisibleKeys) {
  Params p = with("attentionMap", {{"n", 64}, {"size", 64}});
  p.setString("scheme", "nope");
  p.setString("pool", "mean");
  p.setBoolean("causal", true);
  std::unique_ptr<Job> job = startJob("attentionMap", p);
  while (!job->done()) job->step(64);
  const Tensor map = job->result().at("data");
  for (int64_t i = 0; i < 64; ++i) {
    for (int64_t j = 0; j < 64; ++j) {
      EXPECT_NEAR(map.f32[i * 64 + j], j <= i ? 1.0 / (i + 1) : 0.0, 1e-6) << i << "," << j;
    }
  }
}

TEST(Nope, ItsProfileIsTheZeroKernel) {
  Params p = with("analysis.derivative", {{"n", 5}});
  p.setString("profile", "nope");
  const Result r = analyze("derivative", p);
  for (float x : r.at("value").f32) EXPECT_EQ(x, 0.0f);
  for (float x : r.at("derivative").f32) EXPECT_EQ(x, 0.0f);
}

TEST(Nope, TheLabTrainsWithItAndAcceptsItsEarlierName) {
  EXPECT_TRUE(learned(labLosses("nope")));  // it learns (the token statistics at least)
  Params options = with("train", {});
  options.setString("scheme", "none");
  EXPECT_EQ(lab::readConfig(options).scheme, "nope");
}
